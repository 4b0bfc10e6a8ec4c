//! The compiled game: what a ruleset becomes once loaded, validated and compiled.
//! Immutable while games run; every running game is a [`crate::State`] beside it.

use std::fmt;
use std::sync::Arc;

pub use crate::id::ScriptFnId;
pub use crate::ir::{BlockId, BoardId, BoardRead, ProcId, Slot, VarId, ZoneId, ZoneRead};
use crate::ir::{Expr, Template};
pub use crate::value::Element;
use crate::value::{TableId, Type, Value};

/// A rulebook reference such as `5.2`, carried by every element that encodes a rule.
pub type RuleRef = Option<Arc<str>>;

pub struct Game {
    pub meta: Meta,
    pub params: Vec<Param>,
    pub tables: Vec<Table>,
    pub vars: Vec<Var>,
    pub zones: Vec<Zone>,
    pub boards: Vec<Board>,
    pub procedures: Vec<Procedure>,
    /// The ruleset's `functions:`: named, typed expressions.
    pub functions: Vec<Function>,
    pub blocks: Vec<Block>,
    pub setup: ProcId,
    pub play: ProcId,
    pub ranking: Ranking,
    /// `stats:`, in the order the ruleset declares them.
    pub stats: Vec<Stat>,
    /// Totals the rules conserve (`conserve:`), checked in positions and, in debug
    /// builds, after every step.
    pub conserve: Vec<Conserved>,
    /// The ruleset's `display:` lines (templates), shown to people before their decisions.
    pub display: Vec<DisplayLine>,
    /// What a graphical front end draws (`view:`), or what it draws by default.
    pub view: ViewHints,
    pub scripts: Option<Arc<ScriptLibrary>>,
    /// Total integer slots and zone instances of a state (laid out for the most players).
    pub int_slots: usize,
    pub zone_slots: usize,
    pub board_slots: usize,
    /// The ruleset's files (a variant first, then what it extends): name and text, so
    /// that a runtime error can say where its statement stands.
    pub sources: Vec<(String, String)>,
    /// `players` for each number of players (index n: the seats of an n-player game),
    /// made once so that reading it allocates nothing.
    pub seats: Vec<crate::value::Value>,
    /// The bounds a running game is held to (a command may change them).
    pub limits: Limits,
    /// Whether the game's IR was optimized; a query compiled against it (a trace's
    /// assertion) is optimized or not alike.
    pub optimizer: Optimizer,
}

/// Whether the loader hands its IR to the optimizer (`optimize.rs`) before the game runs.
/// A game plays the same either way; without the optimizer it runs the IR as lowered,
/// which is what the optimizer's differential tests and `frontier --optimizer off`
/// compare against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Optimizer {
    On,
    Off,
}

/// The bounds a ruleset and its games are held to, so that no input can hang the
/// interpreter, exhaust its memory or overflow its stack; going past one is a load error
/// or a runtime error that names it. A command may change each of them
/// (`--limit NAME=N`, [`Limits::set`]); [`Limits::LIST`] describes them, and
/// docs/rulesets.md, "Limits", gives the same table (a test compares them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Statements run between two decisions or chance points.
    pub statements_between_steps: u64,
    /// Procedure calls nested in one another.
    pub nested_calls: usize,
    /// How large one expression or template may be (brackets nested, operators), checked
    /// when it is parsed: in a ruleset, a trace's assertions, a query.
    pub expression: frontier_grammar::expr::Bounds,
    /// Elements the zones of one state may hold together (made by `push` and `init`).
    pub zone_elements: usize,
    /// Cells the pieces placed on one board instance may cover.
    pub board_cells: usize,
    /// Integer slots, zone instances and board instances of one state, all together (a
    /// declaration per two large tables multiplies their rows).
    pub state_slots: usize,
    /// Bytes of one file read: a ruleset, script, trace or position (the CLI reads them).
    pub file_bytes: u64,
}

/// One limit as the command line and the docs name it.
pub struct LimitInfo {
    /// The name `--limit NAME=N` takes.
    pub name: &'static str,
    /// What it bounds, as docs/rulesets.md's table words it.
    pub what: &'static str,
    /// Its value in `limits`.
    pub get: fn(&Limits) -> u64,
    /// Sets it (to a value between 1 and `ceiling`).
    pub set: fn(&mut Limits, u64),
    /// The largest value a command may set, where one larger would be unsafe (the stack
    /// recursive passes need grows with expression size).
    pub ceiling: u64,
}

/// How many statements may run between two suspensions (decisions, chance points): a
/// loop that runs longer without asking anything is taken for an endless one.
pub const MAX_STATEMENTS_BETWEEN_STEPS: u64 = 10_000_000;
/// How deep procedure calls (with the blocks between them) may nest.
pub const MAX_FRAMES: usize = 10_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            statements_between_steps: MAX_STATEMENTS_BETWEEN_STEPS,
            nested_calls: MAX_FRAMES,
            expression: frontier_grammar::expr::Bounds::DEFAULT,
            zone_elements: 100_000,
            board_cells: 10_000,
            state_slots: 1_000_000,
            file_bytes: 16 * 1024 * 1024,
        }
    }
}

impl Limits {
    /// Every limit a command may change, in the order the docs list them.
    pub const LIST: &'static [LimitInfo] = &[
        LimitInfo {
            name: "nesting",
            what: "Brackets, conditionals and lambdas nested in one expression or template",
            get: |l| l.expression.nesting as u64,
            set: |l, n| l.expression.nesting = n as usize,
            ceiling: MAX_NESTING,
        },
        LimitInfo {
            name: "operators",
            what: "Operators in one expression (`not`, `if`, `=>` and `.field` count)",
            get: |l| l.expression.operators as u64,
            set: |l, n| l.expression.operators = n as usize,
            ceiling: MAX_OPERATORS,
        },
        LimitInfo {
            name: "statements",
            what: "Statements run between two decisions or chance points",
            get: |l| l.statements_between_steps,
            set: |l, n| l.statements_between_steps = n,
            ceiling: u64::MAX,
        },
        LimitInfo {
            name: "calls",
            what: "Procedure calls nested in one another",
            get: |l| l.nested_calls as u64,
            set: |l, n| l.nested_calls = n as usize,
            ceiling: u32::MAX as u64,
        },
        LimitInfo {
            name: "elements",
            what: "Elements in the zones of one state, together",
            get: |l| l.zone_elements as u64,
            set: |l, n| l.zone_elements = n as usize,
            ceiling: u32::MAX as u64,
        },
        LimitInfo {
            name: "cells",
            what: "Cells covered by the pieces on one board",
            get: |l| l.board_cells as u64,
            set: |l, n| l.board_cells = n as usize,
            ceiling: u32::MAX as u64,
        },
        LimitInfo {
            name: "slots",
            what: "Numbers, zones and boards of one state (per player or per row: one each)",
            get: |l| l.state_slots as u64,
            set: |l, n| l.state_slots = n as usize,
            ceiling: u32::MAX as u64,
        },
        LimitInfo {
            name: "bytes",
            what: "Bytes of a ruleset, script, trace or position file",
            get: |l| l.file_bytes,
            set: |l, n| l.file_bytes = n,
            ceiling: u32::MAX as u64,
        },
    ];

    /// The names a command line may set (`--limit statements=1000`).
    pub fn names() -> Vec<&'static str> {
        Self::LIST.iter().map(|l| l.name).collect()
    }

    /// Sets the limit `name` to `value` (at least 1, at most its ceiling), or says what is
    /// wrong.
    pub fn set(&mut self, name: &str, value: u64) -> Result<(), String> {
        let Some(info) = Self::LIST.iter().find(|l| l.name == name) else {
            return Err(format!(
                "unknown limit '{name}': one of {}",
                Self::names().join(", ")
            ));
        };
        if value == 0 {
            return Err(format!("limit {name}: at least 1"));
        }
        if value > info.ceiling {
            return Err(format!("limit {name}: at most {}", info.ceiling));
        }
        // Every ceiling but `statements`' (a u64 itself) fits a usize on 64-bit platforms.
        (info.set)(self, value);
        Ok(())
    }
}

/// How deep calls of ruleset functions may nest (a function that calls one: 2). Each call
/// walks its body recursively, so this and the expression bounds bound the evaluator's stack.
pub const MAX_FUNCTION_NESTING: usize = 32;

/// The most `--limit nesting=N` may allow: an expression's passes recurse about once per
/// bracket, and a thread that loads or runs games has [`STACK_BYTES`] of stack.
pub const MAX_NESTING: u64 = 1_000;
/// The most `--limit operators=N` may allow (likewise: a chain of operators is as deep a
/// tree as it is long).
pub const MAX_OPERATORS: u64 = 4_000;
/// The stack a thread that loads rulesets or runs games must have for expressions at
/// the ceilings above (the CLI runs its commands and its workers on such threads; the
/// `limits` tests measure it in debug builds).
pub const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Whether `name` may name a ruleset (`name:`, and the folder `frontier new` makes):
/// letters, digits, '-' and '_', at least one.
pub fn is_ruleset_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

pub struct Meta {
    pub name: String,
    pub title: String,
    pub min_players: u8,
    pub max_players: u8,
    pub rulebook: Option<String>,
    pub summary: Option<String>,
    /// Where the ruleset came from: an embedded name or a path.
    pub origin: String,
    /// For a variant (`extends:`): the ruleset it extends, as written, and what it changes.
    pub variant: Option<VariantInfo>,
}

/// What a variant changes in the ruleset it extends (shown by `frontier describe`).
pub struct VariantInfo {
    pub extends: String,
    /// One line per top-level key the variant sets: `players: [3, 4]`, `params: a = 0, b = 1`,
    /// `procedures: turn (replaced)`, ...
    pub changes: Vec<String>,
}

pub struct Param {
    pub name: String,
    pub value: i64,
    /// The values it may take (`min:`, `max:`), checked at load.
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub doc: Option<String>,
    pub rule: RuleRef,
}

impl Param {
    /// The values it may take, in words ("1 to 12", "at least 1"), if it is bounded.
    pub fn range(&self) -> Option<String> {
        match (self.min, self.max) {
            (Some(min), Some(max)) => Some(format!("{min} to {max}")),
            (Some(min), None) => Some(format!("at least {min}")),
            (None, Some(max)) => Some(format!("at most {max}")),
            (None, None) => None,
        }
    }

    /// Whether its value lies within its bounds.
    pub fn in_range(&self) -> bool {
        self.min.is_none_or(|m| self.value >= m) && self.max.is_none_or(|m| self.value <= m)
    }
}

pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    pub doc: Option<String>,
    pub rule: RuleRef,
    /// Set when the data is not published and was reconstructed: says how.
    pub reconstructed: Option<String>,
    /// How a row reads in state displays (`it` is the row); its id alone by default.
    pub show: Option<Template>,
    /// For a table of hexes (`geometry:`): where each row lies and its neighbours.
    pub geometry: Option<crate::hex::HexTable>,
    /// Each row's position by id: tables may have 65,535 rows, and ids are looked up
    /// wherever a ruleset, trace or position names a row.
    pub ids: std::collections::HashMap<String, u16>,
}

pub struct Column {
    pub name: String,
    pub ty: Type,
}

pub struct Row {
    pub id: String,
    pub values: Vec<Value>,
}

impl Table {
    pub fn row_index(&self, id: &str) -> Option<u16> {
        self.ids.get(id).copied()
    }
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }
}

/// What a variable or a zone is indexed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    Global,
    Players,
    Table(TableId),
    /// Two keys (`per: [players, sections]`): one entry per pair, laid out by the first
    /// key then the second (entry `first * len(second) + second`).
    Pair(Axis, Axis),
}

/// One key of a two-key domain: the players or the rows of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    Players,
    Table(TableId),
}

impl Axis {
    /// The one-key domain of this key.
    pub fn domain(self) -> Domain {
        match self {
            Axis::Players => Domain::Players,
            Axis::Table(t) => Domain::Table(t),
        }
    }

    pub fn index_type(self) -> Type {
        match self {
            Axis::Players => Type::Player,
            Axis::Table(t) => Type::Row(t),
        }
    }
}

impl Domain {
    /// The type of an index into this domain (none for the single global value, and for
    /// two keys, which are indexed by two values: see [`Domain::keys`]).
    pub fn index_type(self) -> Option<Type> {
        match self {
            Domain::Global | Domain::Pair(..) => None,
            Domain::Players => Some(Type::Player),
            Domain::Table(t) => Some(Type::Row(t)),
        }
    }

    /// The keys an entry is found by, in order: none, one or two.
    pub fn keys(self) -> Vec<Axis> {
        match self {
            Domain::Global => Vec::new(),
            Domain::Players => vec![Axis::Players],
            Domain::Table(t) => vec![Axis::Table(t)],
            Domain::Pair(a, b) => vec![a, b],
        }
    }
}

pub struct Var {
    pub name: String,
    pub ty: Type,
    pub per: Domain,
    /// First integer slot; an indexed variable takes one slot per index.
    pub base: usize,
    pub init: Expr,
    pub doc: Option<String>,
    pub rule: RuleRef,
    /// Bookkeeping players do not read: not shown in a player's view of the state.
    pub internal: bool,
    /// A counter of `stats:`: for results only, shown in no state, log or description
    /// (positions keep it, so that a game read back goes on counting).
    pub stat: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// Everyone sees the contents.
    All,
    /// Only the owning player (for zones per player) sees the contents; others see the count.
    Owner,
    /// Nobody sees the contents, only the count.
    Count,
    /// Nobody sees anything but that it exists.
    Hidden,
    /// Everyone sees the first element and the count.
    Top,
}

pub struct Zone {
    pub name: String,
    pub of: Element,
    pub per: Domain,
    pub base: usize,
    pub visibility: Visibility,
    /// `visible_if:`, per element (`it`) for a player (local 0, `viewer`): shown to them
    /// although the zone's visibility hides it.
    pub visible_if: Option<Expr>,
    /// Initial contents (evaluated per index, `it` bound to the index).
    pub init: Option<Expr>,
    pub doc: Option<String>,
    pub rule: RuleRef,
}

/// A square grid of cells without bounds, one per index of its domain (a town per
/// player): rectangular pieces of elements are placed on it, covering what lies beneath.
pub struct Board {
    pub name: String,
    pub of: Element,
    pub per: Domain,
    pub base: usize,
    /// How a cell reads in the terminal (`it` is the element); its id by default.
    pub cell_text: Option<Template>,
    /// A colour name per cell (`it` is the element), when the terminal shows colour.
    pub cell_colour: Option<Expr>,
    pub doc: Option<String>,
    pub rule: RuleRef,
}

/// A `conserve:` entry: what must hold, for each index of its domain (`it`).
pub struct Conserved {
    pub name: String,
    pub per: Domain,
    pub holds: Expr,
    /// `holds` as written, for messages.
    pub source: String,
    pub rule: RuleRef,
}

/// A function of the ruleset (`functions:`): a named expression of typed parameters.
pub struct Function {
    pub name: String,
    pub params: Vec<(String, Type)>,
    pub returns: Type,
    /// The body; `Expr::Param(i)` reads the i-th argument.
    pub body: Expr,
    /// The body as written, for `describe`.
    pub source: String,
    pub doc: Option<String>,
    pub rule: RuleRef,
}

pub struct Procedure {
    pub name: String,
    /// The type of the value it gives back with `return:`, if any.
    pub returns: Option<Type>,
    pub params: Vec<Slot>,
    pub param_names: Vec<String>,
    pub body: BlockId,
    pub locals: usize,
    pub doc: Option<String>,
    pub rule: RuleRef,
}

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

/// An entry of `display:`: one line, or one line per element of a list (`for:`).
pub struct DisplayLine {
    /// The list of `for: { name: list }`; the line reads its element as local 0.
    pub each: Option<Expr>,
    pub line: Template,
}

/// A statistic recorded at the end of a game (`stats:`): an expression of the final state,
/// a whole number or true/false (a counter is an expression reading its variable).
pub struct Stat {
    pub name: String,
    pub value: Expr,
    pub ty: Type,
    /// Whether it counts (`counter: true`) rather than reads the state.
    pub counter: bool,
    pub doc: Option<String>,
    pub rule: RuleRef,
}

/// The `view:` hints: what a board drawing shows. Like `display:`, read only when a person
/// is shown the game ([`crate::scene`]), never by the step machine.
#[derive(Default)]
pub struct ViewHints {
    /// Variables shown as numbers (per player on the players' panels, single ones above).
    pub counters: Vec<VarId>,
    /// Zones drawn as rows of cards.
    pub zones: Vec<ZoneId>,
    pub tracks: Vec<TrackHint>,
    pub boards: Vec<BoardId>,
    pub hexes: Option<HexHint>,
}

/// A zone drawn as a row of slots, one track per index of the zone's domain.
pub struct TrackHint {
    pub zone: ZoneId,
    /// The number of slots (`it` is the index); the zone's length when absent.
    pub slots: Option<Expr>,
    /// The title (`it` is the index).
    pub label: Option<Template>,
}

/// A table with a hex geometry drawn as a map.
pub struct HexHint {
    pub table: TableId,
    pub text: Option<Template>,
    pub mark: Option<Template>,
    /// A colour name (`it` is the row).
    pub colour: Option<Expr>,
    /// Whether a hex is drawn (`it` is the row).
    pub shown: Option<Expr>,
}

pub struct Ranking {
    pub score: Expr,
    pub tiebreak: Vec<Expr>,
    pub rule: RuleRef,
}

impl Game {
    pub fn var(&self, name: &str) -> Option<(VarId, &Var)> {
        self.vars
            .iter()
            .enumerate()
            .find(|(_, v)| v.name == name)
            .map(|(i, v)| (VarId::at(i), v))
    }
    pub fn zone(&self, name: &str) -> Option<(ZoneId, &Zone)> {
        self.zones
            .iter()
            .enumerate()
            .find(|(_, z)| z.name == name)
            .map(|(i, z)| (ZoneId::at(i), z))
    }
    pub fn board(&self, name: &str) -> Option<(BoardId, &Board)> {
        self.boards
            .iter()
            .enumerate()
            .find(|(_, b)| b.name == name)
            .map(|(i, b)| (BoardId::at(i), b))
    }
    pub fn table(&self, name: &str) -> Option<(TableId, &Table)> {
        self.tables
            .iter()
            .enumerate()
            .find(|(_, t)| t.name == name)
            .map(|(i, t)| (TableId::at(i), t))
    }

    /// How many indexes a domain has in the slot layout. Inlined: every write of an
    /// indexed variable checks its index against it.
    #[inline]
    pub fn domain_len(&self, domain: Domain) -> usize {
        match domain {
            Domain::Global => 1,
            Domain::Players => self.meta.max_players as usize,
            Domain::Table(t) => self.tables[t.index()].rows.len(),
            Domain::Pair(..) => self.pair_len(domain),
        }
    }

    /// [`Game::domain_len`] of a two-key domain (out of line: it recurses).
    #[inline(never)]
    fn pair_len(&self, domain: Domain) -> usize {
        match domain {
            Domain::Pair(a, b) => self.domain_len(a.domain()) * self.domain_len(b.domain()),
            other => self.domain_len(other),
        }
    }

    /// The two key indexes of entry `i` of a two-key domain (`i` itself and 0 otherwise).
    pub fn split_index(&self, domain: Domain, i: usize) -> (usize, usize) {
        match domain {
            Domain::Pair(_, b) => {
                let stride = self.domain_len(b.domain()).max(1);
                (i / stride, i % stride)
            }
            _ => (i, 0),
        }
    }

    /// Index `i` of one key as rulesets write it in messages: `p1` or a row id.
    pub fn key_text(&self, axis: Axis, i: usize) -> String {
        match axis {
            Axis::Players => format!("p{}", i + 1),
            Axis::Table(t) => self.tables[t.index()]
                .rows
                .get(i)
                .map_or_else(String::new, |r| r.id.clone()),
        }
    }

    pub fn domain_name(&self, domain: Domain) -> String {
        match domain {
            Domain::Global => "nothing".into(),
            Domain::Players => "players".into(),
            Domain::Table(t) => self.tables[t.index()].name.clone(),
            Domain::Pair(a, b) => format!(
                "{} and {}",
                self.domain_name(a.domain()),
                self.domain_name(b.domain())
            ),
        }
    }
}

impl Game {
    /// Where the element at a YAML path stands: `ruleset.yaml:12:9: play[0].set.v`.
    /// Found only when asked (a runtime error), so loading does not pay for it.
    pub fn location(&self, path: &str) -> Arc<str> {
        match crate::locate::locate_in(&self.sources, path, None) {
            (file, Some((line, column))) => Arc::from(format!("{file}:{line}:{column}: {path}")),
            (file, None) => Arc::from(format!("{file}: {path}")),
        }
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({})", self.meta.name)
    }
}

/// The ruleset's Rhai scripts, compiled: what the script runtime (`script.rs`) runs. Each
/// file's functions are merged into one AST, so that a function may call one defined in
/// another file.
pub struct ScriptLibrary {
    pub ast: rhai::AST,
    /// The file names, for messages.
    pub files: Vec<String>,
    /// The functions, in the order the files define them: a [`ScriptFnId`] indexes them.
    pub functions: Vec<ScriptFunction>,
    /// The game's table rows as scripts see them, made at the first call.
    pub rows: std::sync::OnceLock<ScriptRows>,
}

/// A function of the ruleset's scripts.
pub struct ScriptFunction {
    pub name: String,
    /// Its parameters, less the game.
    pub arity: usize,
    /// The file that defines it: an index into [`ScriptLibrary::files`].
    pub file: usize,
}

/// The rows of a game's tables as scripts see them, converted once per game rather than at
/// every read: each row's id as a Rhai string, and the map `#{id, <columns>…}` that every
/// board cell holding that row copies (strings shared, not copied). A library belongs to
/// the one game loaded with it; the script runtime still checks that they were made from
/// the tables at hand (and otherwise converts without them).
pub struct ScriptRows {
    /// The address of the tables they were made from (a game's tables never change).
    pub tables: usize,
    /// Per table, per row: the id.
    pub ids: Vec<Vec<rhai::Dynamic>>,
    /// Per table, per row: `#{id, <column>: value…}`.
    pub cells: Vec<Vec<rhai::Map>>,
}

impl ScriptLibrary {
    /// The function named `name`.
    pub fn find(&self, name: &str) -> Option<ScriptFnId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(ScriptFnId::at)
    }

    /// The file that defines a function.
    pub fn file_of(&self, name: &str) -> Option<&str> {
        let f = &self.functions[self.find(name)?.index()];
        Some(self.files[f.file].as_str())
    }

    /// Each function's name and arity (less the game).
    pub fn functions(&self) -> Vec<(String, usize)> {
        self.functions
            .iter()
            .map(|f| (f.name.clone(), f.arity))
            .collect()
    }
}

impl fmt::Debug for ScriptLibrary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ScriptLibrary({:?})", self.files)
    }
}
