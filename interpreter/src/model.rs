//! The compiled game: what a ruleset becomes once loaded, validated and compiled.
//! Immutable while games run; every running game is a [`crate::State`] beside it.

use std::fmt;
use std::sync::Arc;

use crate::eval::{Eval, Template};
use crate::script::Scripts;
use crate::value::{TableId, Type, Value};

pub type VarId = u16;
pub type ZoneId = u16;
pub type BoardId = u16;
pub type BlockId = u32;
pub type ProcId = u16;
/// A local variable's position in its procedure's frame.
pub type Slot = u16;

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
    pub blocks: Vec<Block>,
    pub setup: ProcId,
    pub play: ProcId,
    pub ranking: Ranking,
    /// The ruleset's `display:` lines (templates), shown to people before their decisions.
    pub display: Vec<Template>,
    pub scripts: Option<Arc<Scripts>>,
    /// Total integer slots and zone instances of a state (laid out for the most players).
    pub int_slots: usize,
    pub zone_slots: usize,
    pub board_slots: usize,
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
}

pub struct Param {
    pub name: String,
    pub value: i64,
    pub doc: Option<String>,
    pub rule: RuleRef,
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
        self.rows.iter().position(|r| r.id == id).map(|i| i as u16)
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
}

impl Domain {
    /// The type of an index into this domain (none for the single global value).
    pub fn index_type(self) -> Option<Type> {
        match self {
            Domain::Global => None,
            Domain::Players => Some(Type::Player),
            Domain::Table(t) => Some(Type::Row(t)),
        }
    }
}

pub struct Var {
    pub name: String,
    pub ty: Type,
    pub per: Domain,
    /// First integer slot; an indexed variable takes one slot per index.
    pub base: usize,
    pub init: Eval,
    pub doc: Option<String>,
    pub rule: RuleRef,
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

/// What a zone holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    Player,
    Row(TableId),
}

impl Element {
    pub fn value_type(self) -> Type {
        match self {
            Element::Player => Type::Player,
            Element::Row(t) => Type::Row(t),
        }
    }
}

pub struct Zone {
    pub name: String,
    pub of: Element,
    pub per: Domain,
    pub base: usize,
    pub visibility: Visibility,
    /// Initial contents (evaluated per index, `it` bound to the index).
    pub init: Option<Eval>,
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
    pub cell_colour: Option<Eval>,
    pub doc: Option<String>,
    pub rule: RuleRef,
}

pub struct Procedure {
    pub name: String,
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
    Assign { target: Place, value: Eval, mode: AssignMode },
    Move { from: ZoneRef, to: ZoneRef, what: MoveWhat },
    Push { to: ZoneRef, value: Eval },
    Remove { from: ZoneRef, what: RemoveWhat },
    Shuffle { zone: ZoneRef },
    Place { board: BoardRef, at: Eval, piece: Eval },
    If { cond: Eval, then: BlockId, otherwise: Option<BlockId> },
    ForEach { slot: Slot, list: Eval, body: BlockId },
    Repeat { count: Eval, body: BlockId },
    While { cond: Eval, body: BlockId },
    Choose(Box<Choose>),
    Random { slot: Slot, outcomes: Eval, weights: Option<Eval> },
    Call { proc: ProcId, args: Vec<Eval> },
    Log(Template),
    EndGame,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignMode {
    Set,
    Add,
}

/// Something that can be assigned: a local or a (possibly indexed) state variable.
pub enum Place {
    Local(Slot),
    Var { var: VarId, index: Option<Eval> },
}

/// A zone instance: the zone and, for indexed zones, the index expression.
#[derive(Clone)]
pub struct ZoneRef {
    pub zone: ZoneId,
    pub index: Option<Eval>,
}

/// A board instance: the board and, for indexed boards, the index expression.
#[derive(Clone)]
pub struct BoardRef {
    pub board: BoardId,
    pub index: Option<Eval>,
}

pub enum MoveWhat {
    /// One given element (the first equal one).
    Item(Eval),
    /// The first `n` elements (fewer if the zone holds fewer).
    Top(Eval),
    All,
}

pub enum RemoveWhat {
    Item(Eval),
    At(Eval),
}

pub struct Choose {
    pub who: Eval,
    pub prompt: Template,
    pub groups: Vec<OptionGroup>,
}

/// One line of a `choose`: a single option, or one option per element of a list.
pub struct OptionGroup {
    pub label: Template,
    pub binding: Option<(Slot, Eval)>,
    pub condition: Option<Eval>,
    pub body: BlockId,
    pub rule: RuleRef,
}

pub struct Ranking {
    pub score: Eval,
    pub tiebreak: Vec<Eval>,
    pub rule: RuleRef,
}

impl Game {
    pub fn var(&self, name: &str) -> Option<(VarId, &Var)> {
        self.vars.iter().enumerate().find(|(_, v)| v.name == name).map(|(i, v)| (i as VarId, v))
    }
    pub fn zone(&self, name: &str) -> Option<(ZoneId, &Zone)> {
        self.zones.iter().enumerate().find(|(_, z)| z.name == name).map(|(i, z)| (i as ZoneId, z))
    }
    pub fn board(&self, name: &str) -> Option<(BoardId, &Board)> {
        self.boards.iter().enumerate().find(|(_, b)| b.name == name).map(|(i, b)| (i as BoardId, b))
    }
    pub fn table(&self, name: &str) -> Option<(TableId, &Table)> {
        self.tables.iter().enumerate().find(|(_, t)| t.name == name).map(|(i, t)| (i as TableId, t))
    }

    /// How many indexes a domain has in the slot layout.
    pub fn domain_len(&self, domain: Domain) -> usize {
        match domain {
            Domain::Global => 1,
            Domain::Players => self.meta.max_players as usize,
            Domain::Table(t) => self.tables[t as usize].rows.len(),
        }
    }

    pub fn domain_name(&self, domain: Domain) -> String {
        match domain {
            Domain::Global => "nothing".into(),
            Domain::Players => "players".into(),
            Domain::Table(t) => self.tables[t as usize].name.clone(),
        }
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({})", self.meta.name)
    }
}
