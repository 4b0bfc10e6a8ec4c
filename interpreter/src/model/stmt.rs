//! Statements: what blocks of a procedure hold, as the step machine runs them.

use std::sync::Arc;

use super::{BlockId, BoardRead, ProcId, RuleRef, Slot, VarId, ZoneRead};
use crate::ir::{Expr, Template, TemplatePart};
use crate::value::Type;

pub type Block = Vec<Stmt>;

/// A statement with where it came from (its YAML path) and the rule it encodes.
pub struct Stmt {
    pub kind: StmtKind,
    pub rule: RuleRef,
    pub origin: Arc<str>,
}

pub enum StmtKind {
    Assign {
        target: Place,
        value: Expr,
        mode: AssignMode,
    },
    Move {
        from: ZoneRead,
        to: ZoneRead,
        what: MoveWhat,
        at: MoveAt,
    },
    Push {
        to: ZoneRead,
        value: Expr,
    },
    Remove {
        from: ZoneRead,
        what: RemoveWhat,
    },
    Shuffle {
        zone: ZoneRead,
    },
    Draw(Box<Draw>),
    /// Empties a zone instance.
    Clear {
        zone: ZoneRead,
    },
    /// Shows an element of a zone instance to a player or a list of players.
    Reveal {
        zone: ZoneRead,
        what: Expr,
        to: Expr,
    },
    Place {
        board: BoardRead,
        at: Expr,
        piece: Expr,
    },
    If {
        cond: Expr,
        then: BlockId,
        otherwise: Option<BlockId>,
    },
    ForEach {
        slot: Slot,
        list: Expr,
        body: BlockId,
    },
    Repeat {
        count: Expr,
        body: BlockId,
    },
    While {
        cond: Expr,
        body: BlockId,
    },
    /// `repeat: { up_to: count, as: name, while: cond }`: at most `count` rounds, each
    /// begun only when `cond` holds; `round` (a hidden local) and `name` hold the round
    /// number from 1. The `done` option of the body's decisions runs [`StmtKind::EndLoop`].
    RepeatUpTo {
        count: Expr,
        round: Slot,
        name: Option<Slot>,
        cond: Option<Expr>,
        body: BlockId,
    },
    /// Ends the innermost `repeat: { up_to }` loop: leaves the blocks entered since its
    /// round began (branches, the chosen option's block) and the loop itself.
    EndLoop,
    Choose(Box<Choose>),
    Random {
        slot: Slot,
        outcomes: Expr,
        weights: Option<Expr>,
    },
    /// A procedure call; `into` is the local that receives its value.
    Call {
        proc: ProcId,
        args: Vec<Expr>,
        into: Option<Slot>,
    },
    /// Ends the procedure, giving the value (if it returns one) to its call.
    Return(Option<Expr>),
    Log(Template),
    EndGame,
    Award(Box<Award>),
}

/// A `draw:` statement: `count` rounds, each moving the top element of `from` to the end
/// of `to`; a round that finds `from` empty first moves all of `refill` (when given) into
/// it and shuffles it. The shuffle is a chance point: the draw then stands with the
/// rounds it has left in `left` (a hidden local, none otherwise) and resumes there.
pub struct Draw {
    pub from: ZoneRead,
    pub to: ZoneRead,
    pub count: Expr,
    pub refill: Option<ZoneRead>,
    pub left: Slot,
}

/// An `award:` statement: prizes by place among entrants ranked by keys.
pub struct Award {
    pub among: Expr,
    /// Per entrant (`it`): the keys, compared in order, higher first.
    pub keys: Vec<Expr>,
    /// Per entrant: whether it may place at all.
    pub only: Option<Expr>,
    pub prizes: Expr,
    pub ties: crate::award::Ties,
    /// Per entrant: the number its prize is added to.
    pub to: Place,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignMode {
    Set,
    Add,
}

/// Something that can be assigned: a local or a (possibly indexed) state variable.
pub enum Place {
    Local(Slot),
    Var { var: VarId, index: Option<Expr> },
}

pub enum MoveWhat {
    /// One given element (the first equal one).
    Item(Expr),
    /// The first `n` elements (fewer if the zone holds fewer).
    Top(Expr),
    All,
}

/// Where moved elements go in the destination zone.
pub enum MoveAt {
    /// After its last element (the default).
    Bottom,
    /// Before its first element.
    Top,
    /// The first moved element at this position (0 = top), counted once the elements
    /// are taken out; from 0 to the zone's length.
    Index(Expr),
}

pub enum RemoveWhat {
    Item(Expr),
    At(Expr),
}

pub struct Choose {
    pub who: Expr,
    pub prompt: Template,
    pub groups: Vec<OptionGroup>,
}

/// One line of a `choose`: a single option, or one option per element of a list, or per
/// combination of elements of several lists (`for: { a: list1, b: list2 }`, the first
/// list outermost).
pub struct OptionGroup {
    pub label: Template,
    /// The `for:` names and their lists, in the order written (empty: a single option).
    pub bindings: Vec<(Slot, Expr)>,
    /// The type of each binding's elements, as the loader checked it (what numbers the
    /// options get in [`crate::actions::ActionSpace`]).
    pub element_types: Vec<Type>,
    pub condition: Option<Expr>,
    /// The condition specialized for each row of a table, when the group has one `for:`
    /// list and it holds rows of that table: the optimizer puts the row in and folds what
    /// it decides (its columns, the branches and calls that depend on it). So is the
    /// condition of a `for:` list that filters a constant list of rows.
    pub by_row: Option<ByRow>,
    pub body: BlockId,
    pub rule: RuleRef,
}

/// An option condition specialized per row ([`OptionGroup::by_row`]). Rows whose
/// specialized conditions are the same expression share one, so that listing the
/// options of one decision tests it once for all of them.
pub struct ByRow {
    pub conditions: Vec<Expr>,
    /// For each row code, its condition in `conditions`.
    pub of_row: Vec<u16>,
    /// When the `for:` list filters a constant list of the table's rows, the filter taken
    /// apart: the listing reads those rows and tests each with its specialized filter
    /// condition, then with its shared condition.
    pub filtered: Option<FilteredRows>,
}

/// The `for:` list `filter(rows, cond)` of an option group with rows a constant list, as
/// [`ByRow`] reads it.
pub struct FilteredRows {
    /// The filter's list.
    pub rows: std::sync::Arc<Vec<crate::value::Value>>,
    /// For each row code, the filter's condition with that row put in.
    pub pass: Vec<Expr>,
}

/// The expressions of a statement (not of the blocks it holds), read-only or mutable (`$m`
/// is `mut` or nothing): one list of what each kind holds, for both visitors.
macro_rules! statement_exprs {
    ($kind:expr, $as_deref:ident, $as_ref:ident, $iter:ident $(, $m:tt)?) => {{
        let mut v = Vec::new();
        match $kind {
            StmtKind::Assign { target, value, .. } => {
                v.push(value);
                if let Place::Var { index: Some(index), .. } = target {
                    v.push(index);
                }
            }
            StmtKind::Move { from, to, what, at } => {
                v.extend(from.index.$as_deref());
                v.extend(to.index.$as_deref());
                match what {
                    MoveWhat::Item(e) | MoveWhat::Top(e) => v.push(e),
                    MoveWhat::All => {}
                }
                match at {
                    MoveAt::Index(e) => v.push(e),
                    MoveAt::Bottom | MoveAt::Top => {}
                }
            }
            StmtKind::Push { to, value } => {
                v.extend(to.index.$as_deref());
                v.push(value);
            }
            StmtKind::Remove { from, what } => {
                v.extend(from.index.$as_deref());
                match what {
                    RemoveWhat::Item(e) | RemoveWhat::At(e) => v.push(e),
                }
            }
            StmtKind::Shuffle { zone } | StmtKind::Clear { zone } => v.extend(zone.index.$as_deref()),
            StmtKind::Draw(draw) => {
                let Draw { from, to, count, refill, .. } = &$($m)? **draw;
                v.extend(from.index.$as_deref());
                v.extend(to.index.$as_deref());
                v.extend(refill.$as_ref().and_then(|r| r.index.$as_deref()));
                v.push(count);
            }
            StmtKind::Reveal { zone, what, to } => {
                v.extend(zone.index.$as_deref());
                v.push(what);
                v.push(to);
            }
            StmtKind::Place { board, at, piece } => {
                v.extend(board.index.$as_deref());
                v.push(at);
                v.push(piece);
            }
            StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => v.push(cond),
            StmtKind::ForEach { list, .. } => v.push(list),
            StmtKind::Repeat { count, .. } => v.push(count),
            StmtKind::RepeatUpTo { count, cond, .. } => {
                v.push(count);
                v.extend(cond.$as_ref());
            }
            StmtKind::Choose(choose) => {
                let Choose { who, prompt, groups } = &$($m)? **choose;
                v.push(who);
                template_holes!(prompt, v, $iter);
                for group in groups {
                    template_holes!(&$($m)? group.label, v, $iter);
                    for (_, list) in &$($m)? group.bindings {
                        v.push(list);
                    }
                    v.extend(group.condition.$as_ref());
                }
            }
            StmtKind::Random { outcomes, weights, .. } => {
                v.push(outcomes);
                v.extend(weights.$as_ref());
            }
            StmtKind::Call { args, .. } => v.extend(args.$iter()),
            StmtKind::Return(value) => v.extend(value.$as_ref()),
            StmtKind::Log(t) => template_holes!(t, v, $iter),
            StmtKind::EndGame | StmtKind::EndLoop => {}
            StmtKind::Award(award) => {
                let Award { among, keys, only, prizes, to, .. } = &$($m)? **award;
                v.push(among);
                v.push(prizes);
                v.extend(keys.$iter());
                v.extend(only.$as_ref());
                if let Place::Var { index: Some(index), .. } = to {
                    v.push(index);
                }
            }
        }
        v
    }};
}

/// The expression holes of a template, pushed onto `v`.
macro_rules! template_holes {
    ($t:expr, $v:ident, $iter:ident) => {
        for part in $t.parts.$iter() {
            if let TemplatePart::Hole(e) = part {
                $v.push(e);
            }
        }
    };
}

impl StmtKind {
    /// The expressions this statement evaluates (not those of the blocks it holds; an
    /// option group's specializations per row are [`OptionGroup::by_row`]'s), in the
    /// order it reads them.
    pub fn exprs(&self) -> Vec<&Expr> {
        statement_exprs!(self, as_deref, as_ref, iter)
    }

    /// [`StmtKind::exprs`], mutable: what the optimizer rewrites.
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        statement_exprs!(self, as_deref_mut, as_mut, iter_mut, mut)
    }

    /// The blocks this statement runs (branches, loop bodies, options' effects), in order.
    pub fn blocks(&self) -> Vec<BlockId> {
        match self {
            StmtKind::If {
                then, otherwise, ..
            } => std::iter::once(*then).chain(*otherwise).collect(),
            StmtKind::ForEach { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::RepeatUpTo { body, .. } => vec![*body],
            StmtKind::Choose(choose) => choose.groups.iter().map(|g| g.body).collect(),
            StmtKind::Assign { .. }
            | StmtKind::Move { .. }
            | StmtKind::Push { .. }
            | StmtKind::Remove { .. }
            | StmtKind::Shuffle { .. }
            | StmtKind::Draw(_)
            | StmtKind::Clear { .. }
            | StmtKind::Reveal { .. }
            | StmtKind::Place { .. }
            | StmtKind::EndLoop
            | StmtKind::Random { .. }
            | StmtKind::Call { .. }
            | StmtKind::Return(_)
            | StmtKind::Log(_)
            | StmtKind::EndGame
            | StmtKind::Award(_) => Vec::new(),
        }
    }
}
