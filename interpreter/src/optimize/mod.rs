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

mod hoist;
mod inline;
mod rewrite;
mod rows;
mod unroll;

use hoist::*;
use inline::*;
use rows::*;
use unroll::*;

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
    returns: Option<Expr>,
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
            returns: game
                .outcome
                .as_mut()
                .map(|o| std::mem::replace(&mut o.returns, none())),
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
        if let (Some(outcome), Some(returns)) = (&mut game.outcome, self.returns) {
            outcome.returns = returns;
        }
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
        parts.returns.iter_mut().for_each(|e| folder.expr(e));
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
        parts.returns.iter_mut().for_each(hoist_invariants);
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
            let let_put_in = matches!(e, Expr::Let { .. });
            *e = better;
            // A let's constant value put into its body makes more of the body constant.
            if let_put_in {
                self.expr(e);
            }
        }
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
        Expr::Let { value, body } => closed(value, it) && closed(body, it),
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
