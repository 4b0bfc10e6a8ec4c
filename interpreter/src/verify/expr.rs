//! The verifier's checks of expressions: what each node may read and name, and the
//! kinds of its operands.

use super::*;
use crate::id::IntSlot;

impl Verifier<'_> {
    /// Checks an expression that stands on its own (not inside another).
    pub(super) fn top(&mut self, e: &Expr, site: Site) {
        if matches!(e, Expr::Lambda(_)) {
            self.problem(site.at, "a per-element argument where none is taken".into());
        }
        self.expr(e, site, &mut Vec::new());
    }

    /// Checks `e` and its children; `withs` holds the value counts of the enclosing
    /// [`Expr::With`]s, innermost last.
    fn expr(&mut self, e: &Expr, site: Site, withs: &mut Vec<usize>) {
        match e {
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Param(_)
            | Expr::It
            | Expr::Outer(_)
            | Expr::Players
            | Expr::PlayerCount
            | Expr::Var { .. }
            | Expr::VarAt { .. }
            | Expr::VarAtKey { .. }
            | Expr::ColumnKey { .. } => self.read(e, site),
            Expr::Function { .. }
            | Expr::Script { .. }
            | Expr::Zone(_)
            | Expr::ZoneLen(_)
            | Expr::ZoneFirst(_)
            | Expr::ZoneLast(_)
            | Expr::ZoneCount(..)
            | Expr::ZoneContains(..)
            | Expr::ZoneIndexOf(..)
            | Expr::Board(_)
            | Expr::RowAt { .. }
            | Expr::RowsWhere { .. }
            | Expr::Call { .. }
            | Expr::With { .. }
            | Expr::Hoisted { .. } => self.reference(e, site.at, withs),
            Expr::Arith { .. }
            | Expr::Compare { .. }
            | Expr::Neg(..)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::Not(_)
            | Expr::If { .. }
            | Expr::Same { .. }
            | Expr::UnrolledTest { .. }
            | Expr::UnrolledTotal { .. }
            | Expr::Filter { .. } => self.operands(e, site.at),
            Expr::Let { value, body } => {
                if matches!(**value, Expr::Lambda(_)) || !matches!(**body, Expr::Lambda(_)) {
                    self.problem(
                        site.at,
                        "a let whose body is not per element, or whose value is".into(),
                    );
                }
            }
            // Nothing of their own to check: their children are.
            Expr::Pair { .. }
            | Expr::Column { .. }
            | Expr::IsNone { .. }
            | Expr::RowId(_)
            | Expr::PosRow(_)
            | Expr::PosCol(_)
            | Expr::Index { .. }
            | Expr::RowNumber { .. }
            | Expr::List(_)
            | Expr::Equal { .. }
            | Expr::In { .. }
            | Expr::Lambda(_) => {}
        }
        self.children(e, site, withs);
    }

    /// A read of a value, the state, a local, a parameter or an element.
    fn read(&mut self, e: &Expr, site: Site) {
        let game = self.game;
        let at = site.at;
        let slot = |v: &mut Self, slot: IntSlot, what: &str| {
            if slot.index() >= game.int_slots {
                v.problem(
                    at,
                    format!("{what} slot {slot} past the state's {}", game.int_slots),
                );
            }
        };
        match e {
            Expr::Const(value) => self.value(value, at),
            Expr::Local(s) if s.index() >= site.locals => {
                self.problem(
                    at,
                    format!("local {} past the frame's {}", s.index(), site.locals),
                );
            }
            Expr::Param(i) if *i as usize >= site.params => {
                self.problem(
                    at,
                    format!("parameter {i} of a function of {}", site.params),
                );
            }
            Expr::It if site.elements == 0 => {
                self.problem(at, "`it` where no element is bound".into())
            }
            Expr::Outer(k) if *k as usize >= site.elements => {
                self.problem(
                    at,
                    format!(
                        "the element {k} levels out, where {} are bound",
                        site.elements
                    ),
                );
            }
            Expr::Local(_)
            | Expr::Param(_)
            | Expr::It
            | Expr::Outer(_)
            | Expr::Players
            | Expr::PlayerCount => {}
            Expr::Var { slot: s, code } => {
                slot(self, *s, "variable");
                self.code(*code, at);
            }
            Expr::VarAt { base, code, .. } => {
                slot(self, *base, "variable");
                self.code(*code, at);
            }
            Expr::VarAtKey {
                base, code, key, ..
            } => {
                slot(self, *base, "variable");
                self.code(*code, at);
                self.key(*key, site);
            }
            Expr::ColumnKey { key, .. } => self.key(*key, site),
            _ => {}
        }
    }

    /// A node that names something of the game (a function, a script, a zone, a board, a
    /// table, a built-in) or a lifted value.
    fn reference(&mut self, e: &Expr, at: &str, withs: &[usize]) {
        let game = self.game;
        match e {
            Expr::Function { id, args } => match game.functions.get(id.index()) {
                None => self.problem(at, format!("function {} past the last", id.index())),
                Some(f) if f.params.len() != args.len() => {
                    let message = format!(
                        "{} takes {} argument(s), given {}",
                        f.name,
                        f.params.len(),
                        args.len()
                    );
                    self.problem(at, message);
                }
                Some(_) => {}
            },
            Expr::Script { function, args } => {
                let library = game.scripts.as_deref();
                match library.and_then(|l| l.functions.get(function.index())) {
                    None => self.problem(
                        at,
                        format!("script function {} past the last", function.index()),
                    ),
                    Some(f) if f.arity != args.len() => {
                        let message = format!(
                            "script function {} takes {} argument(s), given {}",
                            f.name,
                            f.arity,
                            args.len()
                        );
                        self.problem(at, message);
                    }
                    Some(_) => {}
                }
            }
            Expr::Zone(z) | Expr::ZoneLen(z) | Expr::ZoneFirst(z) | Expr::ZoneLast(z) => {
                self.zone(z, at)
            }
            Expr::ZoneCount(z, _) | Expr::ZoneContains(z, _) | Expr::ZoneIndexOf(z, _) => {
                self.zone(z, at)
            }
            Expr::Board(b) if b.base.index() + b.len as usize > game.board_slots => {
                self.problem(
                    at,
                    format!(
                        "board {} past the state's {} board slots",
                        b.name, game.board_slots
                    ),
                );
            }
            Expr::RowAt { table, count, .. } => match game.tables.get(table.index()) {
                Some(t) if t.rows.len() == *count as usize => {}
                _ => self.problem(
                    at,
                    format!("every row of table {} read as {count} rows", table.index()),
                ),
            },
            Expr::RowsWhere { table, .. } if table.index() >= game.tables.len() => {
                self.problem(at, format!("table {} past the last", table.index()));
            }
            Expr::Call { op, args } => self.call(*op, args, at),
            Expr::With { values, .. } if values.is_empty() || values.len() > MAX_HOISTED => {
                self.problem(
                    at,
                    format!(
                        "{} lifted values, where 1 to {MAX_HOISTED} may be",
                        values.len()
                    ),
                );
            }
            Expr::Hoisted { depth, index } => {
                let known = withs
                    .len()
                    .checked_sub(1 + *depth as usize)
                    .map(|i| withs[i]);
                if known.is_none_or(|n| *index as usize >= n) {
                    self.problem(
                        at,
                        format!("lifted value {index} of the With {depth} levels out, outside it"),
                    );
                }
            }
            _ => {}
        }
    }

    /// The operands of arithmetic, comparisons and logic, of a kind that fits.
    fn operands(&mut self, e: &Expr, at: &str) {
        match e {
            Expr::Arith { a, b, .. } | Expr::Compare { a, b, .. } => {
                self.operand(a, &[Kind::Int], at);
                self.operand(b, &[Kind::Int], at);
            }
            Expr::Neg(a, _) => self.operand(a, &[Kind::Int], at),
            Expr::And(a, b) | Expr::Or(a, b) => {
                self.operand(a, &[Kind::Bool], at);
                self.operand(b, &[Kind::Bool], at);
            }
            Expr::Not(a) => self.operand(a, &[Kind::Bool], at),
            Expr::If { cond, .. } => self.operand(cond, &[Kind::Bool], at),
            Expr::Same { a, b, .. } => {
                self.operand(a, &[Kind::Code], at);
                self.operand(b, &[Kind::Code], at);
            }
            Expr::UnrolledTest { items, .. } => items
                .iter()
                .for_each(|i| self.operand(i, &[Kind::Bool], at)),
            Expr::UnrolledTotal {
                op: Total::Sum,
                items,
            } => items.iter().for_each(|i| self.operand(i, &[Kind::Int], at)),
            Expr::UnrolledTotal {
                op: Total::Count,
                items,
            } => items
                .iter()
                .for_each(|i| self.operand(i, &[Kind::Bool], at)),
            Expr::Filter { cond, .. } if !matches!(**cond, Expr::Lambda(_)) => {
                self.problem(at, "a filter whose condition is not per element".into());
            }
            _ => {}
        }
    }

    /// The children of `e`, each where it is evaluated: a lambda's body with one more
    /// element bound, a `With`'s body with its values readable.
    fn children(&mut self, e: &Expr, site: Site, withs: &mut Vec<usize>) {
        match e {
            Expr::Lambda(body) => {
                let inner = Site {
                    elements: site.elements + 1,
                    ..site
                };
                self.expr(body, inner, withs);
            }
            Expr::With { values, body } => {
                for value in values {
                    self.expr(value, site, withs);
                }
                withs.push(values.len());
                self.expr(body, site, withs);
                withs.pop();
            }
            _ => {
                for child in e.children() {
                    if matches!(child, Expr::Lambda(_)) && !lambda_allowed(e) {
                        self.problem(site.at, "a per-element argument where none is taken".into());
                    }
                    self.expr(child, site, withs);
                }
            }
        }
    }

    fn call(&mut self, op: crate::ir::Op, args: &[Expr], at: &str) {
        let Signature { lambdas, .. } = signature(op);
        if !signature(op).takes(args.len()) {
            self.problem(at, format!("{op:?} given {} argument(s)", args.len()));
            return;
        }
        for (i, arg) in args.iter().enumerate() {
            let is_lambda = matches!(arg, Expr::Lambda(_));
            if lambdas.contains(&i) != is_lambda {
                let what = if is_lambda {
                    "a per-element argument"
                } else {
                    "a plain argument"
                };
                self.problem(at, format!("{op:?} given {what} at position {i}"));
            }
        }
    }

    fn key(&mut self, key: Key, site: Site) {
        let e = match key {
            Key::Local(slot) => Expr::Local(slot),
            Key::It => Expr::It,
            Key::Param(i) => Expr::Param(i),
            Key::Var(slot) => Expr::Var {
                slot,
                code: Code::Int,
            },
        };
        self.top(&e, site);
    }

    fn code(&mut self, code: Code, at: &str) {
        if let Code::Row(t) = code {
            if t.index() >= self.game.tables.len() {
                self.problem(at, format!("rows of table {} past the last", t.index()));
            }
        }
    }

    fn value(&mut self, value: &Value, at: &str) {
        match value {
            Value::Row(t, r) => match self.game.tables.get(t.index()) {
                Some(table) if (*r as usize) < table.rows.len() => {}
                _ => self.problem(
                    at,
                    format!("row {r} of table {}, which has no such row", t.index()),
                ),
            },
            Value::List(items) => items.iter().for_each(|v| self.value(v, at)),
            Value::None
            | Value::Int(_)
            | Value::Bool(_)
            | Value::Player(_)
            | Value::Str(_)
            | Value::Pos(_) => {}
        }
    }

    /// Checks that an operand is of one of `kinds`, where its node says what it gives.
    fn operand(&mut self, e: &Expr, kinds: &[Kind], at: &str) {
        let kind = kind(e);
        if kind != Kind::Unknown && !kinds.contains(&kind) {
            self.problem(
                at,
                format!("an operand of kind {kind:?} where {kinds:?} is read"),
            );
        }
    }
}

/// Whether `e` takes per-element arguments among its children.
fn lambda_allowed(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Call { .. } | Expr::Filter { .. } | Expr::With { .. } | Expr::Let { .. }
    )
}

/// What a node gives, as far as the node itself says.
fn kind(e: &Expr) -> Kind {
    let of_code = |code: &Code| match code {
        Code::Int => Kind::Int,
        Code::Bool => Kind::Bool,
        Code::Player | Code::Row(_) => Kind::Code,
    };
    match e {
        Expr::Const(v) => match v {
            Value::Int(_) => Kind::Int,
            Value::Bool(_) => Kind::Bool,
            Value::Player(_) | Value::Row(..) => Kind::Code,
            Value::List(_) => Kind::List,
            Value::Str(_) => Kind::Str,
            Value::None | Value::Pos(_) => Kind::Unknown,
        },
        Expr::Var { code, .. } | Expr::VarAt { code, .. } | Expr::VarAtKey { code, .. } => {
            of_code(code)
        }
        Expr::IsNone { .. }
        | Expr::Not(_)
        | Expr::And(..)
        | Expr::Or(..)
        | Expr::Compare { .. }
        | Expr::Equal { .. }
        | Expr::Same { .. }
        | Expr::In { .. }
        | Expr::ZoneContains(..)
        | Expr::UnrolledTest { .. } => Kind::Bool,
        Expr::Arith { .. }
        | Expr::Neg(..)
        | Expr::ZoneLen(_)
        | Expr::ZoneCount(..)
        | Expr::ZoneIndexOf(..)
        | Expr::UnrolledTotal { .. }
        | Expr::PlayerCount
        | Expr::RowNumber { .. }
        | Expr::PosRow(_)
        | Expr::PosCol(_) => Kind::Int,
        Expr::Zone(_)
        | Expr::Players
        | Expr::List(_)
        | Expr::Filter { .. }
        | Expr::RowsWhere { .. } => Kind::List,
        Expr::Local(_)
        | Expr::It
        | Expr::Outer(_)
        | Expr::Param(_)
        | Expr::Function { .. }
        | Expr::Pair { .. }
        | Expr::Column { .. }
        | Expr::ColumnKey { .. }
        | Expr::RowId(_)
        | Expr::ZoneFirst(_)
        | Expr::ZoneLast(_)
        | Expr::Index { .. }
        | Expr::RowAt { .. }
        | Expr::If { .. }
        | Expr::Call { .. }
        | Expr::Lambda(_)
        | Expr::Let { .. }
        | Expr::With { .. }
        | Expr::Hoisted { .. }
        | Expr::Board(_)
        | Expr::Script { .. } => Kind::Unknown,
    }
}
