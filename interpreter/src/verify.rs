//! The IR verifier: checks a loaded game's IR against every invariant the evaluator and
//! the step machine rely on, so that they may index the state, the locals, a function's
//! parameters, a built-in's arguments and the lifted values of an [`Expr::With`] without
//! checking again. The loader runs it after lowering and after each optimizer pass (in
//! debug builds, so in every test); a problem is a fault of the interpreter, never of the
//! ruleset, and loading reports it instead of running a game that could go wrong.
//!
//! What it checks: ids and slots in range (tables, rows, variables, zones, boards,
//! functions, procedures, blocks, scripts, locals, parameters); each built-in call's
//! arguments against its op's [`Signature`]; lambdas only where a per-element argument
//! stands; `it` and enclosing elements read only where they are bound; lifted values read
//! only inside their `With`; the operands of arithmetic, comparisons and logic of a kind
//! that fits (where the IR says its kind). What it does not: the types of values read
//! from scripts or lists, which the evaluator checks where they are used.

use std::fmt;

use crate::builtins::signature::{signature, Signature};
use crate::eval::MAX_HOISTED;
use crate::ir::{Code, Expr, Key, Total, ZoneRead};
use crate::model::{Domain, Game, Place, StmtKind};
use crate::value::Value;

/// A broken invariant: where it stands and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub at: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Checks every expression and statement of `game`: all the problems found, or none.
pub fn verify(game: &Game) -> Result<(), Vec<Problem>> {
    let mut v = Verifier {
        game,
        problems: Vec::new(),
    };
    v.functions();
    v.procedures();
    v.declarations();
    if v.problems.is_empty() {
        Ok(())
    } else {
        Err(v.problems)
    }
}

struct Verifier<'g> {
    game: &'g Game,
    problems: Vec<Problem>,
}

/// Where an expression stands, and what may be read there.
#[derive(Clone, Copy)]
struct Site<'a> {
    at: &'a str,
    /// Locals of the frame it is evaluated in.
    locals: usize,
    /// Parameters of the function whose body it is.
    params: usize,
    /// Elements bound around it: `it` at its top (an initial value per index, a key per
    /// entrant…) and one per enclosing lambda.
    elements: usize,
}

impl<'a> Site<'a> {
    fn new(at: &'a str, locals: usize, element: Element) -> Site<'a> {
        let elements = match element {
            Element::Bound => 1,
            Element::Unbound => 0,
        };
        Site {
            at,
            locals,
            params: 0,
            elements,
        }
    }
}

/// Whether `it` is bound where an expression is evaluated.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Element {
    Bound,
    Unbound,
}

/// What the IR says a node gives, where it says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
    /// A seat or a row, read as its number.
    Code,
    List,
    Str,
    /// Not known from the node alone (a script's value, a list's element…).
    Unknown,
}

impl Verifier<'_> {
    fn problem(&mut self, at: &str, message: String) {
        self.problems.push(Problem {
            at: at.to_string(),
            message,
        });
    }

    fn functions(&mut self) {
        let game = self.game;
        for f in &game.functions {
            let at = format!("functions.{}", f.name);
            let site = Site {
                at: &at,
                locals: 0,
                params: f.params.len(),
                elements: 0,
            };
            self.top(&f.body, site);
        }
    }

    fn procedures(&mut self) {
        let game = self.game;
        for (p, procedure) in game.procedures.iter().enumerate() {
            if procedure.body.index() >= game.blocks.len() {
                let message = format!(
                    "its body is block {}, past the last",
                    procedure.body.index()
                );
                self.problem(&format!("procedures.{}", procedure.name), message);
                continue;
            }
            for slot in &procedure.params {
                if slot.index() >= procedure.locals {
                    let message = format!(
                        "parameter local {} past its {} locals",
                        slot.index(),
                        procedure.locals
                    );
                    self.problem(&format!("procedures.{}", procedure.name), message);
                }
            }
            // Each block belongs to the one procedure whose body holds it.
            let mut blocks = vec![procedure.body];
            while let Some(block) = blocks.pop() {
                for stmt in &game.blocks[block.index()] {
                    for inner in stmt.kind.blocks() {
                        if inner.index() < game.blocks.len() {
                            blocks.push(inner);
                        } else {
                            let message = format!("block {} past the last", inner.index());
                            self.problem(&stmt.origin, message);
                        }
                    }
                    self.statement(&stmt.kind, &stmt.origin, p);
                }
            }
        }
    }

    fn statement(&mut self, kind: &StmtKind, at: &str, procedure: usize) {
        let game = self.game;
        let locals = game.procedures[procedure].locals;
        let local = |v: &mut Self, slot: crate::ir::Slot, what: &str| {
            if slot.index() >= locals {
                v.problem(
                    at,
                    format!("{what} local {} past the frame's {locals}", slot.index()),
                );
            }
        };
        match kind {
            StmtKind::Assign { target, .. } => self.place(target, at, locals),
            StmtKind::Award(award) => {
                self.place(&award.to, at, locals);
                let site = Site::new(at, locals, Element::Unbound);
                self.top(&award.among, site);
                self.top(&award.prizes, site);
                let each = Site::new(at, locals, Element::Bound);
                for key in award.keys.iter().chain(&award.only) {
                    self.top(key, each);
                }
                if let Place::Var {
                    index: Some(index), ..
                } = &award.to
                {
                    self.top(index, each);
                }
                return;
            }
            StmtKind::ForEach { slot, .. } => local(self, *slot, "the loop's"),
            StmtKind::Random { slot, .. } => local(self, *slot, "the outcome's"),
            StmtKind::Draw(draw) => local(self, draw.left, "the draw's"),
            StmtKind::RepeatUpTo { round, name, .. } => {
                local(self, *round, "the round's");
                if let Some(name) = name {
                    local(self, *name, "the round's name");
                }
            }
            StmtKind::Call { proc, args, into } => {
                if let Some(into) = into {
                    local(self, *into, "the call's result");
                }
                match game.procedures.get(proc.index()) {
                    None => self.problem(at, format!("procedure {} past the last", proc.index())),
                    Some(callee) if callee.params.len() != args.len() => {
                        let message = format!(
                            "{} takes {} argument(s), given {}",
                            callee.name,
                            callee.params.len(),
                            args.len()
                        );
                        self.problem(at, message);
                    }
                    Some(_) => {}
                }
            }
            StmtKind::Return(Some(_)) if game.procedures[procedure].returns.is_none() => {
                let message = format!(
                    "a value returned from {}, which returns none",
                    game.procedures[procedure].name
                );
                self.problem(at, message);
            }
            StmtKind::Choose(choose) => {
                for group in &choose.groups {
                    for (slot, _) in &group.bindings {
                        local(self, *slot, "an option's");
                    }
                    if let Some(by_row) = &group.by_row {
                        let site = Site::new(at, locals, Element::Unbound);
                        for c in &by_row.conditions {
                            self.top(c, site);
                        }
                        for pass in by_row.filtered.iter().flat_map(|f| &f.pass) {
                            self.top(pass, site);
                        }
                        let shared = by_row.conditions.len();
                        if by_row.of_row.iter().any(|&c| c as usize >= shared) {
                            self.problem(
                                at,
                                format!("a row's condition past the {shared} shared ones"),
                            );
                        }
                    }
                }
            }
            StmtKind::Move { from, to, .. } => {
                self.zone(from, at);
                self.zone(to, at);
            }
            StmtKind::Push { to: zone, .. }
            | StmtKind::Remove { from: zone, .. }
            | StmtKind::Shuffle { zone }
            | StmtKind::Clear { zone }
            | StmtKind::Reveal { zone, .. } => self.zone(zone, at),
            StmtKind::Place { .. }
            | StmtKind::If { .. }
            | StmtKind::Repeat { .. }
            | StmtKind::While { .. }
            | StmtKind::EndLoop
            | StmtKind::Return(_)
            | StmtKind::Log(_)
            | StmtKind::EndGame => {}
        }
        if let StmtKind::Draw(draw) = kind {
            self.zone(&draw.from, at);
            self.zone(&draw.to, at);
            if let Some(refill) = &draw.refill {
                self.zone(refill, at);
            }
        }
        let site = Site::new(at, locals, Element::Unbound);
        for e in kind.exprs() {
            self.top(e, site);
        }
    }

    fn place(&mut self, place: &Place, at: &str, locals: usize) {
        match place {
            Place::Local(slot) if slot.index() >= locals => {
                self.problem(
                    at,
                    format!("local {} past the frame's {locals}", slot.index()),
                );
            }
            Place::Local(_) => {}
            Place::Var { var, index } => match self.game.vars.get(var.index()) {
                None => self.problem(at, format!("variable {} past the last", var.index())),
                Some(decl) if (decl.per == Domain::Global) != index.is_none() => {
                    let message = format!(
                        "variable {} assigned {} an index",
                        decl.name,
                        if index.is_some() { "with" } else { "without" }
                    );
                    self.problem(at, message);
                }
                Some(_) => {}
            },
        }
    }

    fn zone(&mut self, z: &ZoneRead, at: &str) {
        let slots = self.game.zone_slots;
        if z.base as usize + z.len as usize > slots {
            self.problem(
                at,
                format!(
                    "zone {} at {}+{} past the state's {slots} zone slots",
                    z.name, z.base, z.len
                ),
            );
        }
        if z.len != 1 && z.index.is_none() {
            self.problem(
                at,
                format!(
                    "zone {} of {} instances read without an index",
                    z.name, z.len
                ),
            );
        }
    }

    /// The declarations' expressions: initial values, visibility, conservation, ranking,
    /// statistics, display lines and view hints.
    fn declarations(&mut self) {
        let game = self.game;
        for var in &game.vars {
            let at = format!("state.{}", var.name);
            self.top(&var.init, Site::new(&at, 0, Element::Bound));
        }
        for zone in &game.zones {
            let at = format!("zones.{}", zone.name);
            if let Some(init) = &zone.init {
                self.top(init, Site::new(&at, 0, Element::Bound));
            }
            // `viewer` is local 0.
            if let Some(visible) = &zone.visible_if {
                self.top(visible, Site::new(&at, 1, Element::Bound));
            }
        }
        for c in &game.conserve {
            let at = format!("conserve.{}", c.name);
            self.top(&c.holds, Site::new(&at, 0, Element::Bound));
        }
        let ranking = Site::new("ranking", 0, Element::Bound);
        for e in std::iter::once(&game.ranking.score).chain(&game.ranking.tiebreak) {
            self.top(e, ranking);
        }
        for stat in &game.stats {
            self.top(&stat.value, Site::new("stats", 1, Element::Bound));
        }
        // Shown to people: a line's element is local 0, and hints read `it`.
        let shown = Site::new("display", 1, Element::Bound);
        for line in &game.display {
            if let Some(each) = &line.each {
                self.top(each, shown);
            }
            for e in line.line.holes() {
                self.top(e, shown);
            }
        }
    }

    /// Checks an expression that stands on its own (not inside another).
    fn top(&mut self, e: &Expr, site: Site) {
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
        let slot = |v: &mut Self, slot: u32, what: &str| {
            if slot as usize >= game.int_slots {
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
            Expr::Board(b) if b.base as usize + b.len as usize > game.board_slots => {
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
        Expr::Call { .. } | Expr::Filter { .. } | Expr::With { .. }
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
        | Expr::With { .. }
        | Expr::Hoisted { .. }
        | Expr::Board(_)
        | Expr::Script { .. } => Kind::Unknown,
    }
}
