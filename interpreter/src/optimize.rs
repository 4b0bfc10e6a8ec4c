//! The optimizer: rewrites a loaded game's IR into a cheaper equivalent.
//!
//! - Constant folding: parameters and tables are constants once a ruleset (and its
//!   variant) is loaded, so arithmetic, comparisons, table columns of a known row and
//!   calls of pure built-ins over them are computed once, here. A fold that would fail
//!   (an overflow, a division by zero) is left in place, so that the game reports it
//!   where it happens, with its statement.
//! - Dead branches: `if` with a constant condition keeps one branch; `and`/`or` with a
//!   constant side keep the other.
//! - Strength reduction: each built-in's `reduce` may swap a call for a cheaper node
//!   (`len(zone)` reads the zone's length in place instead of building a list).
//!
//! The optimizer never changes what a game does: the seeded game-log snapshots and every
//! trace pin that.

use crate::eval::{arith, Env, MAX_HOISTED};
use crate::ir::{Code, Expr, Key, Quantifier, Total, Unroll, ZoneRead};
use crate::model::{Game, StmtKind};
use crate::value::Value;

/// A pass: rewrites the game's IR in place.
type Pass = fn(&mut Game);

/// The optimizer's passes, in order: each rewrites the whole game's IR into an
/// equivalent one.
const PASSES: &[(&str, Pass)] = &[
    ("folding", fold),
    ("option specialization", specialize_options),
    ("lifting invariants", lift_all_invariants),
];

/// Verifies the IR as lowered, then (with the optimizer on) runs each pass and verifies
/// the IR after it. Verification runs in debug builds, so in every test: a release build
/// does not pay its load time for what the tests prove. A problem is a fault of the
/// interpreter, reported as such.
pub(crate) fn run(game: &mut Game) -> Result<(), String> {
    verified(game, "lowering")?;
    if game.optimizer == crate::model::Optimizer::On {
        for (name, pass) in PASSES {
            pass(game);
            verified(game, name)?;
        }
    }
    Ok(())
}

fn verified(game: &Game, after: &str) -> Result<(), String> {
    if !cfg!(debug_assertions) {
        return Ok(());
    }
    crate::verify::verify(game).map_err(|problems| {
        let list: Vec<String> = problems.iter().take(5).map(|p| p.to_string()).collect();
        format!(
            "internal error: the IR after {after} breaks {} invariant(s) of the evaluator \
             (a fault of the interpreter; please report it): {}",
            problems.len(),
            list.join("; ")
        )
    })
}

/// The IR a pass rewrites, taken out of the game so that the pass may read the game (its
/// tables, a blank state) while it rewrites them; put back when the pass is done.
struct Parts {
    bodies: Vec<Expr>,
    blocks: Vec<crate::model::Block>,
    vars: Vec<Expr>,
    zones: Vec<Option<Expr>>,
    score: Expr,
    tiebreak: Vec<Expr>,
}

impl Parts {
    fn take(game: &mut Game) -> Parts {
        let none = || Expr::Const(Value::None);
        Parts {
            bodies: game
                .functions
                .iter_mut()
                .map(|f| std::mem::replace(&mut f.body, none()))
                .collect(),
            blocks: std::mem::take(&mut game.blocks),
            vars: game
                .vars
                .iter_mut()
                .map(|v| std::mem::replace(&mut v.init, none()))
                .collect(),
            zones: game.zones.iter_mut().map(|z| z.init.take()).collect(),
            score: std::mem::replace(&mut game.ranking.score, none()),
            tiebreak: std::mem::take(&mut game.ranking.tiebreak),
        }
    }

    fn put_back(self, game: &mut Game) {
        for (f, body) in game.functions.iter_mut().zip(self.bodies) {
            f.body = body;
        }
        game.blocks = self.blocks;
        for (v, init) in game.vars.iter_mut().zip(self.vars) {
            v.init = init;
        }
        for (z, init) in game.zones.iter_mut().zip(self.zones) {
            z.init = init;
        }
        game.ranking.score = self.score;
        game.ranking.tiebreak = self.tiebreak;
    }

    /// Runs `pass` on the parts with a folder over the rest of the game.
    fn rewrite(game: &mut Game, pass: impl FnOnce(&Folder, &mut Parts)) {
        let blank = game.blank_state(Vec::new());
        let mut parts = Parts::take(game);
        pass(
            &Folder {
                env: Env::new(game, &blank, &[]),
            },
            &mut parts,
        );
        parts.put_back(game);
    }
}

/// Constant folding, dead branches, strength reduction, inlining and unrolling, over
/// every expression.
fn fold(game: &mut Game) {
    Parts::rewrite(game, |folder, parts| {
        let bodies = &mut parts.bodies;
        // Function bodies first, each with the calls it makes already inlined: a body
        // only calls functions declared without recursion, so a call's callee is finished
        // before it is inlined (`inline_order` puts callees first).
        for id in inline_order(bodies) {
            let mut body = std::mem::replace(&mut bodies[id], Expr::Const(Value::None));
            folder.optimize(&mut body, bodies);
            bodies[id] = body;
        }
        for stmt in parts.blocks.iter_mut().flatten() {
            for e in stmt.kind.exprs_mut() {
                folder.optimize(e, bodies);
            }
        }
        parts.vars.iter_mut().for_each(|e| folder.expr(e));
        parts
            .zones
            .iter_mut()
            .flatten()
            .for_each(|e| folder.expr(e));
        folder.expr(&mut parts.score);
        parts.tiebreak.iter_mut().for_each(|e| folder.expr(e));
    });
}

/// Option conditions specialized per row ([`crate::model::ByRow`]).
fn specialize_options(game: &mut Game) {
    Parts::rewrite(game, |folder, parts| {
        for stmt in parts.blocks.iter_mut().flatten() {
            if let StmtKind::Choose(choose) = &mut stmt.kind {
                for group in &mut choose.groups {
                    group.by_row = folder.by_row(group, &parts.bodies);
                }
            }
        }
    });
}

/// Last, once every call that will be inlined is: what per-element arguments compute the
/// same for every element is lifted out of them.
fn lift_all_invariants(game: &mut Game) {
    Parts::rewrite(game, |_, parts| {
        parts.bodies.iter_mut().for_each(hoist_invariants);
        for stmt in parts.blocks.iter_mut().flatten() {
            for e in stmt.kind.exprs_mut() {
                hoist_invariants(e);
            }
            if let StmtKind::Choose(choose) = &mut stmt.kind {
                for by_row in choose.groups.iter_mut().filter_map(|g| g.by_row.as_mut()) {
                    by_row.conditions.iter_mut().for_each(hoist_invariants);
                    by_row
                        .filtered
                        .iter_mut()
                        .flat_map(|f| f.pass.iter_mut())
                        .for_each(hoist_invariants);
                }
            }
        }
        parts.vars.iter_mut().for_each(hoist_invariants);
        parts.zones.iter_mut().flatten().for_each(hoist_invariants);
        hoist_invariants(&mut parts.score);
        parts.tiebreak.iter_mut().for_each(hoist_invariants);
    });
}

/// Optimizes one expression compiled against a loaded game (a trace's query or
/// assertion) as the game itself was: not at all when it was loaded with
/// `Optimizer::Off`.
pub(crate) fn expression(game: &Game, e: &mut Expr) {
    if game.optimizer == crate::model::Optimizer::Off {
        return;
    }
    let blank = game.blank_state(Vec::new());
    Folder {
        env: Env::new(game, &blank, &[]),
    }
    .expr(e);
    hoist_invariants(e);
}

struct Folder<'a> {
    /// A blank state: what folded expressions are evaluated against (they read none of it).
    env: Env<'a>,
}

impl Folder<'_> {
    /// Folds an expression of a function body or a statement, inlines the small calls it
    /// makes with plain reads, and unrolls its searches and totals over constant lists.
    fn optimize(&self, e: &mut Expr, bodies: &[Expr]) {
        self.expr(e);
        if inline(e, bodies, small_with_plain_reads) {
            self.expr(e);
        }
        if self.unroll(e, bodies) {
            self.expr(e);
        }
    }

    /// Optimizes an expression in place, children first.
    pub fn expr(&self, e: &mut Expr) {
        for child in e.children_mut() {
            self.expr(child);
        }
        if let Some(better) = self.rewrite(e) {
            *e = better;
        }
    }

    fn rewrite(&self, e: &Expr) -> Option<Expr> {
        let int = |e: &Expr| match e {
            Expr::Const(Value::Int(n)) => Some(*n),
            _ => None,
        };
        let boolean = |e: &Expr| match e {
            Expr::Const(Value::Bool(b)) => Some(*b),
            _ => None,
        };
        match e {
            Expr::Arith { op, a, b, .. } => {
                arith(*op, int(a)?, int(b)?).map(|n| Expr::Const(Value::Int(n)))
            }
            Expr::Neg(a, _) => int(a)?.checked_neg().map(|n| Expr::Const(Value::Int(n))),
            Expr::Compare { op, a, b } => match (int(a), int(b)) {
                (Some(x), Some(y)) => Some(Expr::Const(Value::Bool(op.holds(x, y)))),
                (None, Some(n)) => crate::builtins::list::count_test(*op, a, n),
                _ => None,
            },
            // A negation goes into the test it negates: one node fewer to evaluate.
            Expr::Not(a) => match &**a {
                Expr::Const(Value::Bool(b)) => Some(Expr::Const(Value::Bool(!b))),
                Expr::Not(inner) => Some((**inner).clone()),
                Expr::Compare { op, a, b } => Some(Expr::Compare {
                    op: op.negated(),
                    a: a.clone(),
                    b: b.clone(),
                }),
                Expr::IsNone { value, negate } => Some(Expr::IsNone {
                    value: value.clone(),
                    negate: !negate,
                }),
                Expr::Same { a, b, negate } => Some(Expr::Same {
                    a: a.clone(),
                    b: b.clone(),
                    negate: !negate,
                }),
                Expr::Equal { a, b, negate } => Some(Expr::Equal {
                    a: a.clone(),
                    b: b.clone(),
                    negate: !negate,
                }),
                _ => None,
            },
            // A constant on the right decides only once the left is read: `x and true`
            // is x; `x and false` is false when x cannot fail (else x's error stands).
            Expr::And(a, b) => match (boolean(a), boolean(b)) {
                (Some(false), _) => Some(Expr::Const(Value::Bool(false))),
                (Some(true), _) => Some((**b).clone()),
                (None, Some(true)) => Some((**a).clone()),
                (None, Some(false)) => cannot_fail(a).then_some(Expr::Const(Value::Bool(false))),
                (None, None) => None,
            },
            Expr::Or(a, b) => match (boolean(a), boolean(b)) {
                (Some(true), _) => Some(Expr::Const(Value::Bool(true))),
                (Some(false), _) => Some((**b).clone()),
                (None, Some(false)) => Some((**a).clone()),
                (None, Some(true)) => cannot_fail(a).then_some(Expr::Const(Value::Bool(true))),
                (None, None) => None,
            },
            Expr::If {
                cond,
                then,
                otherwise,
            } => Some(if boolean(cond)? {
                (**then).clone()
            } else {
                (**otherwise).clone()
            }),
            Expr::Call { op, args } => {
                let builtin = crate::builtins::of(*op);
                if let Some(reduced) = builtin.reduce.and_then(|reduce| reduce(args)) {
                    return Some(reduced);
                }
                (builtin.pure && args.iter().all(|a| closed(a, It::Unbound)))
                    .then(|| self.fold(e))
                    .flatten()
            }
            Expr::Column { .. }
            | Expr::RowId(_)
            | Expr::Equal { .. }
            | Expr::Same { .. }
            | Expr::In { .. }
            | Expr::Index { .. }
            | Expr::RowAt { .. }
            | Expr::RowNumber { .. }
            | Expr::Filter { .. }
            | Expr::RowsWhere { .. }
            | Expr::List(_)
            | Expr::UnrolledTest { .. }
            | Expr::UnrolledTotal { .. }
            | Expr::IsNone { .. }
                if closed(e, It::Unbound) =>
            {
                self.fold(e)
            }
            // Every row of a table indexed by position: the row of that number.
            Expr::Index { list, at } => {
                let Expr::Const(Value::List(rows)) = &**list else {
                    return None;
                };
                let Some(Value::Row(table, 0)) = rows.first() else {
                    return None;
                };
                let count = u16::try_from(rows.len()).ok()?;
                let in_order = rows
                    .iter()
                    .enumerate()
                    .all(|(i, r)| *r == Value::Row(*table, i as u16));
                in_order.then(|| Expr::RowAt {
                    table: *table,
                    count,
                    at: at.clone(),
                })
            }
            Expr::Filter { list, cond } => {
                crate::builtins::list::rows_where(list, cond).map(|(list, cond)| Expr::Filter {
                    list: list.boxed(),
                    cond: cond.boxed(),
                })
            }
            // `x in zone` searches the zone where it lies.
            Expr::In { item, list } => match &**list {
                Expr::Zone(z) => Some(Expr::ZoneContains(z.clone(), item.clone())),
                _ => None,
            },
            // Superinstructions: an index or row that is a local, `it` or a variable is
            // read by the node itself, and a comparison with none tests the code.
            Expr::VarAt {
                base,
                code,
                index,
                name,
            } => match row_code(index) {
                // A constant row: the variable's slot is known.
                Some(r) => {
                    let slot = *base + r as u32;
                    ((slot as usize) < self.env.state.ints.len())
                        .then_some(Expr::Var { slot, code: *code })
                }
                None => Key::of(index).map(|key| Expr::VarAtKey {
                    base: *base,
                    code: *code,
                    key,
                    name: name.clone(),
                }),
            },
            Expr::Zone(z) => fixed_instance(z).map(Expr::Zone),
            Expr::ZoneLen(z) => fixed_instance(z).map(Expr::ZoneLen),
            Expr::ZoneFirst(z) => fixed_instance(z).map(Expr::ZoneFirst),
            Expr::ZoneLast(z) => fixed_instance(z).map(Expr::ZoneLast),
            Expr::ZoneCount(z, x) => fixed_instance(z).map(|z| Expr::ZoneCount(z, x.clone())),
            Expr::ZoneContains(z, x) => fixed_instance(z).map(|z| Expr::ZoneContains(z, x.clone())),
            Expr::ZoneIndexOf(z, x) => fixed_instance(z).map(|z| Expr::ZoneIndexOf(z, x.clone())),
            Expr::UnrolledTest { op, items } => without_neutral_items(Unroll::Test(*op), items),
            Expr::UnrolledTotal { op, items } => without_neutral_items(Unroll::Total(*op), items),
            Expr::Column { values, row, name } => Key::of(row).map(|key| Expr::ColumnKey {
                values: values.clone(),
                key,
                name: name.clone(),
            }),
            Expr::Equal { a, b, negate } | Expr::Same { a, b, negate } => match (&**a, &**b) {
                (Expr::Const(Value::None), other) | (other, Expr::Const(Value::None)) => {
                    Some(Expr::IsNone {
                        value: other.clone().boxed(),
                        negate: *negate,
                    })
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// An option group's condition specialized for each row of the table its one `for:`
    /// list holds (see [`crate::model::OptionGroup::by_row`]), and the condition of that
    /// list when it filters a constant list of rows; none when the group has several
    /// lists, or the list is not of rows, or neither condition is there to specialize, or
    /// the table or the specialized conditions are too large.
    fn by_row(
        &self,
        group: &crate::model::OptionGroup,
        bodies: &[Expr],
    ) -> Option<crate::model::ByRow> {
        let [(slot, list)] = group.bindings.as_slice() else {
            return None;
        };
        let filter = filter_of_constant_list(list);
        if group.condition.is_none() && filter.is_none() {
            return None;
        }
        let table = rows_of(list)?;
        let rows = self.env.game.tables.get(table.index())?.rows.len();
        if rows > SPECIALIZED_ROWS {
            return None;
        }
        let always = Expr::Const(Value::Bool(true));
        let condition = group.condition.as_ref().unwrap_or(&always);
        let mut nodes = 0;
        let by_row = self.per_row(table, rows, bodies, &mut nodes, |row| {
            put_in(condition, PutIn::Local(*slot, row), 0)
        })?;
        let filtered = match filter {
            Some((list, pass)) => {
                let pass = self.per_row(table, rows, bodies, &mut nodes, |row| {
                    put_in(pass, PutIn::Element(row), 0)
                })?;
                Some(crate::model::FilteredRows {
                    rows: list.clone(),
                    pass,
                })
            }
            None => None,
        };
        // Rows whose conditions came out the same (and no longer read the element) share
        // one. The IR has no equality of its own: its printed form says the same.
        let mut conditions: Vec<Expr> = Vec::new();
        let mut seen: std::collections::HashMap<String, u16> = std::collections::HashMap::new();
        let mut of_row = Vec::with_capacity(rows);
        for e in by_row {
            let key = (!reads_local(&e, *slot)).then(|| format!("{e:?}"));
            let known = key.as_ref().and_then(|k| seen.get(k).copied());
            let k = match known {
                Some(k) => k,
                None => {
                    let k = u16::try_from(conditions.len()).ok()?;
                    conditions.push(e);
                    if let Some(key) = key {
                        seen.insert(key, k);
                    }
                    k
                }
            };
            of_row.push(k);
        }
        Some(crate::model::ByRow {
            conditions,
            of_row,
            filtered,
        })
    }

    /// `make(row)` for each of the `rows` rows of `table`, specialized; none when `make`
    /// gives none or the nodes made, counted in `nodes`, pass [`SPECIALIZED_NODES`].
    fn per_row(
        &self,
        table: crate::value::TableId,
        rows: usize,
        bodies: &[Expr],
        nodes: &mut usize,
        make: impl Fn(&Value) -> Option<Expr>,
    ) -> Option<Vec<Expr>> {
        let mut out = Vec::with_capacity(rows);
        for r in 0..rows {
            let mut e = make(&Value::Row(table, r as u16))?;
            self.expr(&mut e);
            self.specialize(&mut e, bodies);
            *nodes += size(&e);
            if *nodes > SPECIALIZED_NODES {
                return None;
            }
            out.push(e);
        }
        Some(out)
    }

    /// Folds what constants put into `e` decide: calls whose arguments became constants
    /// take their bodies, folded in turn, and so do small functions whose arguments became
    /// plain reads; then searches and totals over constant lists are unrolled.
    fn specialize(&self, e: &mut Expr, bodies: &[Expr]) {
        while inline(e, bodies, constant_arguments) || inline(e, bodies, small_with_plain_reads) {
            self.expr(e);
        }
        if self.unroll(e, bodies) {
            self.expr(e);
        }
    }

    /// Unrolls, bottom-up, each call of a built-in that may be unrolled (`any`, `all`,
    /// `sum`, `count_if`) whose list is a constant of at most [`UNROLL_ELEMENTS`]
    /// elements: the per-element argument is copied once per element with the element put
    /// in, then specialized ([`Folder::specialize`]), into an [`Expr::Unrolled`]. Then no
    /// element is bound at run time, and what each element decides (its columns, the
    /// variable or zone it names, the branches and calls it settles) is folded here. A
    /// call whose copies would hold more than [`UNROLL_NODES`] nodes stays. Whether
    /// anything was unrolled.
    fn unroll(&self, e: &mut Expr, bodies: &[Expr]) -> bool {
        let mut changed = false;
        for child in e.children_mut() {
            changed |= self.unroll(child, bodies);
        }
        let Expr::Call { op: call_op, args } = e else {
            return changed;
        };
        let (Some(op), [list, Expr::Lambda(body)]) =
            (crate::builtins::of(*call_op).unroll, args.as_slice())
        else {
            return changed;
        };
        // Over a filter of a constant list, each element is first tested by the filter's
        // condition, in the same order: `any(filter(l, c), d)` is `any(l, c and d)`.
        let (elements, filter) = match list {
            Expr::Const(Value::List(elements)) => (elements, None),
            other => match filter_of_constant_list(other) {
                Some((elements, cond)) => (elements, Some(cond)),
                None => return changed,
            },
        };
        if elements.is_empty() || elements.len() > UNROLL_ELEMENTS {
            return changed;
        }
        let mut items = Vec::with_capacity(elements.len());
        let mut nodes = 0;
        for element in elements.iter() {
            let Some(mut item) = put_in(body, PutIn::Element(element), 0) else {
                return changed;
            };
            if let Some(cond) = filter {
                let Some(passes) = put_in(cond, PutIn::Element(element), 0) else {
                    return changed;
                };
                item = match op {
                    Unroll::Test(Quantifier::Any) | Unroll::Total(Total::Count) => {
                        Expr::And(passes.boxed(), item.boxed())
                    }
                    Unroll::Test(Quantifier::All) => {
                        Expr::Or(Expr::Not(passes.boxed()).boxed(), item.boxed())
                    }
                    Unroll::Total(Total::Sum) => Expr::If {
                        cond: passes.boxed(),
                        then: item.boxed(),
                        otherwise: Expr::Const(Value::Int(0)).boxed(),
                    },
                };
            }
            self.expr(&mut item);
            self.specialize(&mut item, bodies);
            nodes += size(&item);
            if nodes > UNROLL_NODES {
                return changed;
            }
            items.push(item);
        }
        *e = op.over(items);
        true
    }

    /// The value of an expression that reads no state, when it has one.
    fn fold(&self, e: &Expr) -> Option<Expr> {
        e.eval(&self.env).ok().map(Expr::Const)
    }
}

/// Whether `it` is bound where an expression stands: inside a per-element argument of a
/// call being folded, `it` is each (constant) element in turn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum It {
    Bound,
    Unbound,
}

/// Whether an expression reads nothing but constants (and `it`, when a per-element
/// argument binds it): then its value is the same in every game of the ruleset.
fn closed(e: &Expr, it: It) -> bool {
    match e {
        Expr::Const(_) => true,
        Expr::It => it == It::Bound,
        Expr::Lambda(body) => closed(body, It::Bound),
        Expr::Local(_)
        | Expr::Outer(_)
        | Expr::Var { .. }
        | Expr::VarAt { .. }
        | Expr::VarAtKey { .. }
        | Expr::Players
        | Expr::PlayerCount
        | Expr::Param(_)
        | Expr::Function { .. }
        | Expr::Zone(_)
        | Expr::ZoneLen(_)
        | Expr::ZoneFirst(_)
        | Expr::ZoneLast(_)
        | Expr::ZoneCount(..)
        | Expr::ZoneContains(..)
        | Expr::ZoneIndexOf(..)
        | Expr::Board(_)
        | Expr::Script { .. } => false,
        Expr::Call { op, args } => {
            crate::builtins::of(*op).pure && args.iter().all(|a| closed(a, it))
        }
        Expr::Column { row, .. } => closed(row, it),
        Expr::ColumnKey { key, .. } => *key == Key::It && it == It::Bound,
        Expr::IsNone { value, .. } => closed(value, it),
        Expr::RowId(a) | Expr::PosRow(a) | Expr::PosCol(a) | Expr::Neg(a, _) | Expr::Not(a) => {
            closed(a, it)
        }
        Expr::Index { list, at } => closed(list, it) && closed(at, it),
        Expr::RowAt { at, .. } => closed(at, it),
        Expr::RowNumber { row, .. } => closed(row, it),
        Expr::With { .. } | Expr::Hoisted { .. } => false,
        Expr::Filter { list, cond } => closed(list, it) && closed(cond, it),
        Expr::RowsWhere { key, .. } => closed(key, it),
        Expr::Pair { first, second, .. } => closed(first, it) && closed(second, it),
        Expr::List(items)
        | Expr::UnrolledTest { items, .. }
        | Expr::UnrolledTotal { items, .. } => items.iter().all(|i| closed(i, it)),
        Expr::Arith { a, b, .. }
        | Expr::Compare { a, b, .. }
        | Expr::Equal { a, b, .. }
        | Expr::Same { a, b, .. }
        | Expr::And(a, b)
        | Expr::Or(a, b) => closed(a, it) && closed(b, it),
        Expr::In { item, list } => closed(item, it) && closed(list, it),
        Expr::If {
            cond,
            then,
            otherwise,
        } => closed(cond, it) && closed(then, it) && closed(otherwise, it),
    }
}

/// The most rows a table may have for option conditions to be specialized per row, and
/// the most IR nodes the specialized conditions of one option group may hold in all.
const SPECIALIZED_ROWS: usize = 512;
const SPECIALIZED_NODES: usize = 50_000;

/// The most elements a constant list may have for a search or total over it to be
/// unrolled, and the most IR nodes the unrolled copies may hold in all.
const UNROLL_ELEMENTS: usize = 32;
const UNROLL_NODES: usize = 2048;

/// `filter(list, cond)` with `list` a constant: the list and the body of `cond`.
fn filter_of_constant_list(e: &Expr) -> Option<(&std::sync::Arc<Vec<Value>>, &Expr)> {
    let Expr::Filter { list, cond } = e else {
        return None;
    };
    match (&**list, &**cond) {
        (Expr::Const(Value::List(elements)), Expr::Lambda(body)) => Some((elements, &**body)),
        _ => None,
    }
}

/// The row number a constant row stands for.
fn row_code(e: &Expr) -> Option<u16> {
    match e {
        Expr::Const(Value::Row(_, r)) => Some(*r),
        _ => None,
    }
}

/// A read of an indexed zone with a constant row for its index, as a read of the one
/// instance that row names.
fn fixed_instance(z: &ZoneRead) -> Option<ZoneRead> {
    let r = u32::from(row_code(z.index.as_deref()?)?);
    (r < z.len).then(|| ZoneRead {
        base: z.base + r,
        len: 1,
        index: None,
        of: z.of,
        name: z.name.clone(),
    })
}

/// An unrolled search or total without the items that cannot change it (a constant
/// false in `any` or `count_if`, true in `all`, 0 in `sum`) nor those after an item that
/// decides it (a constant true in `any`, false in `all`: the call stops there); one item
/// of `any`, `all` or `sum` is that item. None when nothing changes.
fn without_neutral_items(op: Unroll, items: &[Expr]) -> Option<Expr> {
    let neutral = |e: &Expr| match (op, e) {
        (
            Unroll::Test(Quantifier::Any) | Unroll::Total(Total::Count),
            Expr::Const(Value::Bool(b)),
        ) => !*b,
        (Unroll::Test(Quantifier::All), Expr::Const(Value::Bool(b))) => *b,
        (Unroll::Total(Total::Sum), Expr::Const(Value::Int(n))) => *n == 0,
        _ => false,
    };
    let decides = |e: &Expr| {
        matches!(
            (op, e),
            (
                Unroll::Test(Quantifier::Any),
                Expr::Const(Value::Bool(true))
            ) | (
                Unroll::Test(Quantifier::All),
                Expr::Const(Value::Bool(false))
            )
        )
    };
    let end = items
        .iter()
        .position(decides)
        .map_or(items.len(), |i| i + 1);
    let kept: Vec<Expr> = items[..end]
        .iter()
        .filter(|e| !neutral(e))
        .cloned()
        .collect();
    let alone = kept.len() == 1 && op != Unroll::Total(Total::Count);
    if kept.len() == items.len() && !alone {
        return None;
    }
    Some(match (op, kept.len()) {
        (Unroll::Test(Quantifier::Any), 0) => Expr::Const(Value::Bool(false)),
        (Unroll::Test(Quantifier::All), 0) => Expr::Const(Value::Bool(true)),
        (Unroll::Total(_), 0) => Expr::Const(Value::Int(0)),
        // The one number of a sum: 0 plus it cannot overflow.
        (_, 1) if alone => kept.into_iter().next()?,
        _ => op.over(kept),
    })
}

/// The table whose rows a `for:` list holds, when it is known at load: a constant list
/// of one table's rows, a filter of one, an index read, or a zone of rows.
fn rows_of(list: &Expr) -> Option<crate::value::TableId> {
    match list {
        Expr::Const(Value::List(items)) => {
            let Some(Value::Row(t, _)) = items.first() else {
                return None;
            };
            items
                .iter()
                .all(|v| matches!(v, Value::Row(u, _) if u == t))
                .then_some(*t)
        }
        Expr::Filter { list, .. } => rows_of(list),
        Expr::RowsWhere { table, .. } => Some(*table),
        Expr::Zone(z) => match z.of {
            crate::model::Element::Row(t) => Some(t),
            crate::model::Element::Player => None,
        },
        _ => None,
    }
}

/// Whether `e` reads the local `slot`.
fn reads_local(e: &Expr, slot: crate::ir::Slot) -> bool {
    match e {
        Expr::Local(s)
        | Expr::VarAtKey {
            key: Key::Local(s), ..
        }
        | Expr::ColumnKey {
            key: Key::Local(s), ..
        } if *s == slot => true,
        other => other.children().into_iter().any(|c| reads_local(c, slot)),
    }
}

/// Lifts, bottom-up, the parts of per-element arguments that do not depend on their
/// element: a built-in call (or filter) whose per-element arguments hold such parts
/// becomes an [`Expr::With`] that computes each once, when first read. Only parts worth
/// it (a call, a filter, a search) are lifted, at most [`MAX_HOISTED`] per call.
fn hoist_invariants(e: &mut Expr) {
    for child in e.children_mut() {
        hoist_invariants(child);
    }
    let mut values = Vec::new();
    match e {
        Expr::Call { args, .. } => {
            for arg in args.iter_mut() {
                if let Expr::Lambda(body) = arg {
                    lift_invariants(body, &mut values);
                }
            }
        }
        Expr::Filter { cond, .. } => {
            if let Expr::Lambda(body) = &mut **cond {
                lift_invariants(body, &mut values);
            }
        }
        _ => return,
    }
    if !values.is_empty() {
        let body = std::mem::replace(e, Expr::Const(Value::None));
        *e = Expr::With {
            values,
            body: body.boxed(),
        };
    }
}

/// Replaces the largest parts of a per-element argument's body `e` that do not read its
/// element by reads of lifted values (appended to `values`). Parts inside an inner
/// per-element argument or an inner `With` are left: the inner ones lifted theirs.
fn lift_invariants(e: &mut Expr, values: &mut Vec<Expr>) {
    if values.len() >= MAX_HOISTED {
        return;
    }
    if worth_lifting(e) && !has_free_hoisted(e, 0) {
        if let Some(lifted) = put_in(e, PutIn::NoElement, 0) {
            values.push(lifted);
            *e = Expr::Hoisted {
                depth: 0,
                index: (values.len() - 1) as u8,
            };
            return;
        }
    }
    if matches!(e, Expr::Lambda(_) | Expr::With { .. }) {
        return;
    }
    for child in e.children_mut() {
        lift_invariants(child, values);
    }
}

/// Whether computing `e` once instead of per element saves work: it calls, filters or
/// searches. Scripts are never lifted, nor the nodes that are not values but name a place
/// where they stand (a board, a two-key entry): their parts may be.
fn worth_lifting(e: &Expr) -> bool {
    fn costly(e: &Expr) -> bool {
        matches!(
            e,
            Expr::Call { .. }
                | Expr::Function { .. }
                | Expr::Filter { .. }
                | Expr::RowsWhere { .. }
                | Expr::In { .. }
                | Expr::UnrolledTest { .. }
                | Expr::UnrolledTotal { .. }
        ) || e.children().into_iter().any(costly)
    }
    fn script(e: &Expr) -> bool {
        matches!(e, Expr::Script { .. }) || e.children().into_iter().any(script)
    }
    !matches!(
        e,
        Expr::Const(_) | Expr::Lambda(_) | Expr::Board(_) | Expr::Pair { .. }
    ) && costly(e)
        && !script(e)
}

/// Whether `e` reads a lifted value of a `With` outside it (`withs`: the `With`s between
/// `e` and the root of the search).
fn has_free_hoisted(e: &Expr, withs: u8) -> bool {
    match e {
        Expr::Hoisted { depth, .. } => *depth >= withs,
        Expr::With { values, body } => {
            values.iter().any(|v| has_free_hoisted(v, withs)) || has_free_hoisted(body, withs + 1)
        }
        other => other
            .children()
            .into_iter()
            .any(|c| has_free_hoisted(c, withs)),
    }
}

/// The largest function body (in IR nodes) that a call is replaced by.
const INLINE_NODES: usize = 48;

/// The functions in an order where each comes after the functions its body calls (the
/// loader refuses recursion, so there is one).
fn inline_order(bodies: &[Expr]) -> Vec<usize> {
    fn visit(id: usize, bodies: &[Expr], done: &mut [bool], order: &mut Vec<usize>) {
        if done[id] {
            return;
        }
        done[id] = true;
        let mut callees = Vec::new();
        calls(&bodies[id], &mut callees);
        for callee in callees {
            visit(callee, bodies, done, order);
        }
        order.push(id);
    }
    fn calls(e: &Expr, out: &mut Vec<usize>) {
        if let Expr::Function { id, .. } = e {
            out.push(id.index());
        }
        e.children().into_iter().for_each(|c| calls(c, out));
    }
    let mut done = vec![false; bodies.len()];
    let mut order = Vec::with_capacity(bodies.len());
    for id in 0..bodies.len() {
        visit(id, bodies, &mut done, &mut order);
    }
    order
}

/// Which calls [`inline`] replaces by the callee's body, from the call's arguments and
/// the body.
type InlinePolicy = fn(&[Expr], &Expr) -> bool;

/// A small function whose arguments are plain reads (a constant, a local, a parameter,
/// `it`, a variable): the call's frame, argument values and environment disappear. Such
/// an argument cannot fail and costs what the parameter read did, so reading it where the
/// body reads the parameter, as often as it does, changes nothing the game does.
fn small_with_plain_reads(args: &[Expr], body: &Expr) -> bool {
    args.iter().all(plain_read) && size(body) <= INLINE_NODES
}

/// A function whose arguments are all constants, whatever its size: what the constants
/// decide folds away.
fn constant_arguments(args: &[Expr], _body: &Expr) -> bool {
    args.iter().all(|a| matches!(a, Expr::Const(_)))
}

/// Replaces each call that `policy` accepts by the function's body with the arguments put
/// in for its parameters. Functions without parameters stay calls: an option listing
/// computes them once. Whether anything was inlined.
fn inline(e: &mut Expr, bodies: &[Expr], policy: InlinePolicy) -> bool {
    let mut changed = false;
    for child in e.children_mut() {
        changed |= inline(child, bodies, policy);
    }
    if let Expr::Function { id, args } = e {
        let body = &bodies[id.index()];
        if !args.is_empty() && policy(args, body) {
            if let Some(inlined) = put_in(body, PutIn::Params(args), 0) {
                *e = inlined;
                changed = true;
            }
        }
    }
    changed
}

/// A true/false test that cannot fail: comparisons, negations and connectives of
/// constants and state variables (a variable's slot is checked at load).
fn cannot_fail(e: &Expr) -> bool {
    let number = |e: &Expr| {
        matches!(
            e,
            Expr::Const(Value::Int(_))
                | Expr::Var {
                    code: Code::Int,
                    ..
                }
                | Expr::PlayerCount
        )
    };
    match e {
        Expr::Const(Value::Bool(_))
        | Expr::Var {
            code: Code::Bool, ..
        } => true,
        Expr::Compare { a, b, .. } => number(a) && number(b),
        Expr::Not(a) => cannot_fail(a),
        Expr::And(a, b) | Expr::Or(a, b) => cannot_fail(a) && cannot_fail(b),
        _ => false,
    }
}

/// Reads that cannot fail and cost no more than reading a parameter.
fn plain_read(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::It
            | Expr::Outer(_)
            | Expr::Var { .. }
            | Expr::PlayerCount
    )
}

fn size(e: &Expr) -> usize {
    1 + e.children().into_iter().map(size).sum::<usize>()
}

/// What [`put_in`] puts in place of the reads of something an expression reads.
#[derive(Clone, Copy)]
enum PutIn<'a> {
    /// A local (an option's `for:` variable) read as a constant: a condition for one row.
    Local(crate::ir::Slot, &'a Value),
    /// A function body's parameters read as a call's arguments: the call inlined.
    Params(&'a [Expr]),
    /// The element of a per-element argument read as a constant: the argument's body, no
    /// longer per element (unrolled), so enclosing elements come one level nearer.
    Element(&'a Value),
    /// The same without an element, for a part that must not read it (lifted out of the
    /// argument): none where it does.
    NoElement,
}

/// `e`, `depth` per-element arguments deep inside the expression being rewritten, with
/// `what` put in for what it reads; none where that cannot be (the element read with no
/// element to put in, nesting past 255).
fn put_in(e: &Expr, what: PutIn, depth: u8) -> Option<Expr> {
    let mut out = match e {
        Expr::Local(_) | Expr::Param(_) | Expr::It | Expr::Outer(_) => return what.read(e, depth),
        // A keyed read whose key is put in reads by the new key, or by index.
        Expr::VarAtKey {
            base,
            code,
            key,
            name,
        } => match what.read_key(*key, depth)? {
            Keyed::Key(key) => Expr::VarAtKey {
                base: *base,
                code: *code,
                key,
                name: name.clone(),
            },
            Keyed::Index(index) => Expr::VarAt {
                base: *base,
                code: *code,
                index: index.boxed(),
                name: name.clone(),
            },
        },
        Expr::ColumnKey { values, key, name } => match what.read_key(*key, depth)? {
            Keyed::Key(key) => Expr::ColumnKey {
                values: values.clone(),
                key,
                name: name.clone(),
            },
            Keyed::Index(row) => Expr::Column {
                values: values.clone(),
                row: row.boxed(),
                name: name.clone(),
            },
        },
        other => other.clone(),
    };
    let depth = if matches!(out, Expr::Lambda(_)) {
        depth.checked_add(1)?
    } else {
        depth
    };
    for child in out.children_mut() {
        *child = put_in(child, what, depth)?;
    }
    Some(out)
}

impl PutIn<'_> {
    /// A plain read (a local, a parameter, `it`, an enclosing element), `depth`
    /// per-element arguments deep, with `self` put in.
    fn read(self, e: &Expr, depth: u8) -> Option<Expr> {
        let element = |value: Option<&Value>| value.map(|v| Expr::Const(v.clone()));
        match (self, e) {
            (PutIn::Local(slot, value), Expr::Local(s)) if *s == slot => {
                Some(Expr::Const(value.clone()))
            }
            // An argument that reads the caller's element reads it from `depth` levels out.
            (PutIn::Params(args), Expr::Param(i)) => Some(match args.get(*i as usize)? {
                Expr::It if depth > 0 => Expr::Outer(depth),
                Expr::Outer(k) => Expr::Outer(k.checked_add(depth)?),
                other => other.clone(),
            }),
            (PutIn::Element(v), Expr::It) if depth == 0 => element(Some(v)),
            (PutIn::NoElement, Expr::It) if depth == 0 => element(None),
            (PutIn::Element(v), Expr::Outer(k)) if *k == depth => element(Some(v)),
            (PutIn::NoElement, Expr::Outer(k)) if *k == depth => element(None),
            (PutIn::Element(_) | PutIn::NoElement, Expr::Outer(k)) if *k > depth => {
                Some(if *k == 1 {
                    Expr::It
                } else {
                    Expr::Outer(*k - 1)
                })
            }
            _ => Some(e.clone()),
        }
    }

    /// The key of a keyed read (`var[key]`, `key.column`) with `self` put in: still a key,
    /// or an expression to read by.
    fn read_key(self, key: Key, depth: u8) -> Option<Keyed> {
        let Some(read) = key.plain_read() else {
            return Some(Keyed::Key(key));
        };
        let read = self.read(&read, depth)?;
        Some(match Key::of(&read) {
            Some(key) => Keyed::Key(key),
            None => Keyed::Index(read),
        })
    }
}

/// What a keyed read reads by once something is put in for its key.
enum Keyed {
    Key(Key),
    Index(Expr),
}

#[cfg(test)]
mod tests {
    /// `put_in` with each kind of read, written out as the IR's printed form. The element
    /// of the argument being taken apart is `It` at its own level and `Outer(k)` from `k`
    /// per-element arguments inside it.
    mod put_in {
        use super::super::{put_in, PutIn};
        use crate::ir::{Expr, Slot};
        use crate::value::Value;

        fn lambda(body: Expr) -> Expr {
            Expr::Lambda(Box::new(body))
        }
        fn pair(a: Expr, b: Expr) -> Expr {
            Expr::And(Box::new(a), Box::new(b))
        }
        fn check(e: Expr, what: PutIn, expected: Option<Expr>) {
            assert_eq!(
                format!("{:?}", put_in(&e, what, 0)),
                format!("{expected:?}"),
                "in {e:?}"
            );
        }

        #[test]
        fn an_element_put_in_brings_enclosing_elements_one_level_nearer() {
            let seven = Value::Int(7);
            let c = || Expr::Const(Value::Int(7));
            // `it` is the element; inside an inner argument `it` is the inner element and
            // `Outer(1)` the element; `Outer(2)` there was an element enclosing the one
            // put in, one level out, so it becomes `Outer(1)`; at the top, `Outer(1)` was
            // the enclosing element and becomes `it`.
            check(Expr::It, PutIn::Element(&seven), Some(c()));
            check(
                lambda(pair(Expr::It, Expr::Outer(1))),
                PutIn::Element(&seven),
                Some(lambda(pair(Expr::It, c()))),
            );
            check(
                lambda(Expr::Outer(2)),
                PutIn::Element(&seven),
                Some(lambda(Expr::Outer(1))),
            );
            check(Expr::Outer(1), PutIn::Element(&seven), Some(Expr::It));
        }

        #[test]
        fn a_part_without_an_element_must_not_read_it() {
            check(Expr::It, PutIn::NoElement, None);
            check(lambda(Expr::Outer(1)), PutIn::NoElement, None);
            check(
                lambda(pair(Expr::It, Expr::Outer(2))),
                PutIn::NoElement,
                Some(lambda(pair(Expr::It, Expr::Outer(1)))),
            );
            check(
                Expr::Local(Slot(0)),
                PutIn::NoElement,
                Some(Expr::Local(Slot(0))),
            );
        }

        #[test]
        fn arguments_that_read_the_callers_element_read_it_from_further_out() {
            // f(it, Outer(1)) with body `p0 and p1`, and `any(l, p0)` (p0 one level in).
            let args = [Expr::It, Expr::Outer(1)];
            check(
                pair(Expr::Param(0), Expr::Param(1)),
                PutIn::Params(&args),
                Some(pair(Expr::It, Expr::Outer(1))),
            );
            check(
                lambda(pair(Expr::Param(0), Expr::Param(1))),
                PutIn::Params(&args),
                Some(lambda(pair(Expr::Outer(1), Expr::Outer(2)))),
            );
        }

        #[test]
        fn a_local_put_in_is_read_at_any_depth() {
            let row = Value::Int(3);
            let c = || Expr::Const(Value::Int(3));
            check(
                lambda(pair(Expr::Local(Slot(1)), Expr::Local(Slot(2)))),
                PutIn::Local(Slot(1), &row),
                Some(lambda(pair(c(), Expr::Local(Slot(2))))),
            );
            check(Expr::It, PutIn::Local(Slot(1), &row), Some(Expr::It));
        }
    }
}
