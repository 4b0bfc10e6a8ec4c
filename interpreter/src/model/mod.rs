//! The compiled game: what a ruleset becomes once loaded, validated and compiled.
//! Immutable while games run; every running game is a [`crate::State`] beside it.

mod limits;
mod scripts;
mod stmt;

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
    /// `outcome:`: each player's return at the end, when the ruleset declares them.
    pub outcome: Option<OutcomeRule>,
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
    /// Total integer slots and zone instances of a state (laid out for the most players):
    /// the layout every state of the game has, set by the loader (`load/layout.rs`).
    pub(crate) int_slots: usize,
    pub(crate) zone_slots: usize,
    pub(crate) board_slots: usize,
    /// The ruleset's files (a variant first, then what it extends): name and text, so
    /// that a runtime error can say where its statement stands.
    pub sources: Vec<(String, String)>,
    /// `players` for each number of players (index n: the seats of an n-player game),
    /// made once so that reading it allocates nothing.
    pub(crate) seats: Vec<crate::value::Value>,
    /// The bounds a running game is held to (a command may change them).
    pub limits: Limits,
    /// Whether the game's IR was optimized; a query compiled against it (a trace's
    /// assertion) is optimized or not alike.
    pub optimizer: Optimizer,
}

/// Whether the loader hands its IR to the optimizer (`optimize/`) before the game runs.
/// A game plays the same either way; without the optimizer it runs the IR as lowered,
/// which is what the optimizer's differential tests and `frontier --optimizer off`
/// compare against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Optimizer {
    On,
    Off,
}

pub use limits::*;
pub use scripts::{ScriptFunction, ScriptLibrary, ScriptRows};
pub use stmt::*;

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
    /// The rows, in order: a row's code is its position. With `ids`, filled by the loader
    /// only, so that every id finds its row.
    pub(crate) rows: Vec<Row>,
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
    pub(crate) ids: std::collections::HashMap<String, u16>,
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
    /// The rows, in order: a row's code is its position.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }
    /// The position of the row with this id.
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
    /// What the score is, for results shown to players: the ranking's `doc:`, or its
    /// `score:` as written.
    pub label: String,
    /// Each tie-break as written.
    pub tiebreak_labels: Vec<String>,
}

/// `outcome:`: a player's return is `returns` (of `it`, the player) divided by `scale`.
pub struct OutcomeRule {
    pub returns: Expr,
    /// `returns` as written, for `describe`.
    pub returns_source: String,
    /// Positive.
    pub scale: i64,
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
