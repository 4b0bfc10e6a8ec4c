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

mod expr;

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
            StmtKind::Draw(draw) => {
                local(self, draw.left, "the draw's");
                self.zone(&draw.from, at);
                self.zone(&draw.to, at);
                if let Some(refill) = &draw.refill {
                    self.zone(refill, at);
                }
            }
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
                        if let Some(filtered) = &by_row.filtered {
                            let passes = filtered.pass.len();
                            let fits =
                                |v: &Value| matches!(v, Value::Row(_, r) if (*r as usize) < passes);
                            if !filtered.rows.iter().all(fits) {
                                self.problem(
                                    at,
                                    format!(
                                        "a filtered row that is not a row of the {passes} filtered"
                                    ),
                                );
                            }
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
        if z.base.index() + z.len as usize > slots {
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
    /// returns, statistics, display lines and view hints.
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
        if let Some(outcome) = &game.outcome {
            self.top(&outcome.returns, Site::new("outcome", 0, Element::Bound));
        }
        for stat in &game.stats {
            self.top(&stat.value, Site::new("stats", 1, Element::Bound));
        }
        // Shown to people: `viewer` is local 0, a line's element local 1, and hints read
        // `it`.
        let shown = Site::new("display", 2, Element::Bound);
        for line in &game.display {
            if let Some(each) = &line.each {
                self.top(each, shown);
            }
            for e in line.line.holes() {
                self.top(e, shown);
            }
        }
    }
}
