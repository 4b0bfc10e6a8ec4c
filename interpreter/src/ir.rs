//! The typed intermediate representation that expressions are lowered to once checked.
//!
//! Every name is resolved: a variable is its slot, a zone its instance range, a table
//! column the column's values themselves, a built-in call its `Op`, a script function its
//! `ScriptFnId`. The optimizer (`optimize/`) rewrites this tree, the verifier (`verify/`)
//! checks it, and the evaluator (`eval/`) walks it with typed entry points (`int`,
//! `bool`, `index`) that never box a number. Nothing here refers to the AST or to any
//! layer above: the IR is data, the contract between the loader and any back end.

use std::sync::Arc;

use crate::value::{Element, Type, Value};

pub use crate::id::{
    BlockId, BoardId, BoardSlot, FunctionId, IntSlot, ProcId, ScriptFnId, Slot, TableId, VarId,
    ZoneId, ZoneSlot,
};

/// How a state slot's number reads back as a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    Int,
    Bool,
    Player,
    Row(TableId),
}

impl Code {
    /// How a slot holding a value of this static type reads back.
    pub fn of_type(ty: &Type) -> Code {
        match ty {
            Type::Bool => Code::Bool,
            Type::Player => Code::Player,
            Type::Row(t) => Code::Row(*t),
            _ => Code::Int,
        }
    }

    pub fn decode(self, n: i64) -> Value {
        match self {
            Code::Int => Value::Int(n),
            Code::Bool => Value::Bool(n != 0),
            Code::Player if n < 0 => Value::None,
            Code::Player => Value::Player(n as u8),
            Code::Row(_) if n < 0 => Value::None,
            Code::Row(t) => Value::Row(t, n as u16),
        }
    }
}

/// The value a slot holding `n` reads as, for a variable of type `ty`.
pub fn decode(ty: &Type, n: i64) -> Value {
    Code::of_type(ty).decode(n)
}

/// Where a seat or row number comes from in one read: a local, `it`, or a
/// single-valued state variable of type player or row. The optimizer folds
/// `var[key]` and `key.column` into single nodes with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Local(Slot),
    It,
    Var(IntSlot),
    /// A parameter of the function being evaluated.
    Param(u16),
}

impl Key {
    /// The key an index expression reads, when it is that simple.
    pub fn of(e: &Expr) -> Option<Key> {
        match e {
            Expr::Local(slot) => Some(Key::Local(*slot)),
            Expr::It => Some(Key::It),
            Expr::Param(i) => Some(Key::Param(*i)),
            Expr::Var {
                slot,
                code: Code::Player | Code::Row(_),
            } => Some(Key::Var(*slot)),
            _ => None,
        }
    }

    /// The read a key stands for, but a variable's (whose node keeps its type elsewhere).
    pub fn plain_read(self) -> Option<Expr> {
        match self {
            Key::Local(slot) => Some(Expr::Local(slot)),
            Key::It => Some(Expr::It),
            Key::Param(i) => Some(Expr::Param(i)),
            Key::Var(_) => None,
        }
    }
}

/// A zone instance named by an expression or a statement: the first instance of the zone and, for an
/// indexed zone, the index (a seat or a row) that selects one.
#[derive(Debug, Clone)]
pub struct ZoneRead {
    pub base: ZoneSlot,
    /// How many instances the zone has (1 for a single zone).
    pub len: u32,
    pub index: Option<Box<Expr>>,
    pub of: Element,
    /// The zone's name, for messages.
    pub name: Arc<str>,
}

/// A board instance read by an expression.
#[derive(Debug, Clone)]
pub struct BoardRead {
    pub base: BoardSlot,
    pub len: u32,
    pub index: Option<Box<Expr>>,
    pub of: Element,
    pub name: Arc<str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl ArithOp {
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Rem => "%",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    /// The comparison that holds exactly when this one does not.
    pub fn negated(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
        }
    }

    #[inline]
    pub fn holds(self, x: i64, y: i64) -> bool {
        match self {
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
        }
    }
}

/// How a built-in's call over a constant list is unrolled: into a true/false search
/// ([`Expr::UnrolledTest`]) or a number ([`Expr::UnrolledTotal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unroll {
    Test(Quantifier),
    Total(Total),
}

/// What an [`Expr::UnrolledTest`] computes from its true/false items, as the built-in it
/// was unrolled from would from its elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantifier {
    /// `any`: whether one item holds; stops at the first that does.
    Any,
    /// `all`: whether every item holds; stops at the first that does not.
    All,
}

/// What an [`Expr::UnrolledTotal`] computes from its items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Total {
    /// `sum`: the total of the items (numbers), checked as `sum` checks it.
    Sum,
    /// `count_if`: how many items (true/false) hold.
    Count,
}

impl Unroll {
    /// The node of this kind over `items`.
    pub fn over(self, items: Vec<Expr>) -> Expr {
        match self {
            Unroll::Test(op) => Expr::UnrolledTest { op, items },
            Unroll::Total(op) => Expr::UnrolledTotal { op, items },
        }
    }
}

/// The source text of an expression node, for runtime errors that name it.
pub type Source = Arc<str>;

/// What a built-in call computes: one op per evaluation a built-in's lowering may choose
/// (`count(list)` and `count(list, x)` are two). Each op belongs to one built-in
/// (`builtins::of`); the evaluator runs it (`eval::call::run`, one arm per op).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Len,
    CountAll,
    Count,
    CountIf,
    Any,
    All,
    Find,
    Map,
    SortBy,
    Sum,
    SumOf,
    MinOf,
    MaxOf,
    Argmax,
    Argmin,
    MinOfList,
    MaxOfList,
    Min,
    Max,
    First,
    Last,
    Reverse,
    Take,
    Drop,
    Contains,
    IndexOf,
    Concat,
    Range,
    NextPlayer,
    NextPlayerIf,
    SeatsFrom,
    Abs,
    Text,
    Colour,
    Pad,
    Cells,
    Holes,
    At,
    Groups,
    Placements,
    Pos,
    Neighbours,
    Rotate,
    HexNeighbours,
    Components,
    Lines,
    OnEdge,
    Distance,
    CellAt,
    Step,
    Ray,
    Knows,
}

impl Op {
    /// Every op, in declaration order.
    pub const ALL: &'static [Op] = &[
        Op::Len,
        Op::CountAll,
        Op::Count,
        Op::CountIf,
        Op::Any,
        Op::All,
        Op::Find,
        Op::Map,
        Op::SortBy,
        Op::Sum,
        Op::SumOf,
        Op::MinOf,
        Op::MaxOf,
        Op::Argmax,
        Op::Argmin,
        Op::MinOfList,
        Op::MaxOfList,
        Op::Min,
        Op::Max,
        Op::First,
        Op::Last,
        Op::Reverse,
        Op::Take,
        Op::Drop,
        Op::Contains,
        Op::IndexOf,
        Op::Concat,
        Op::Range,
        Op::NextPlayer,
        Op::NextPlayerIf,
        Op::SeatsFrom,
        Op::Abs,
        Op::Text,
        Op::Colour,
        Op::Pad,
        Op::Cells,
        Op::Holes,
        Op::At,
        Op::Groups,
        Op::Placements,
        Op::Pos,
        Op::Neighbours,
        Op::Rotate,
        Op::HexNeighbours,
        Op::Components,
        Op::Lines,
        Op::OnEdge,
        Op::Distance,
        Op::CellAt,
        Op::Step,
        Op::Ray,
        Op::Knows,
    ];
}

/// The children of an expression, read-only or mutable (`$m` is `mut` or nothing): one
/// list of the variants that hold expressions, for both.
macro_rules! children {
    ($e:expr, $as_deref:ident, $iter:ident $(, $m:tt)?) => {
        match $e {
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::It
            | Expr::Outer(_)
            | Expr::Players
            | Expr::PlayerCount
            | Expr::Param(_)
            | Expr::Var { .. }
            | Expr::VarAtKey { .. }
            | Expr::ColumnKey { .. } => Vec::new(),
            Expr::IsNone { value, .. } => vec![value],
            Expr::VarAt { index, .. } => vec![index],
            Expr::Column { row, .. } => vec![row],
            Expr::RowId(e) | Expr::PosRow(e) | Expr::PosCol(e) | Expr::Neg(e, _) | Expr::Not(e) | Expr::Lambda(e) => vec![e],
            Expr::Zone(z) | Expr::ZoneLen(z) | Expr::ZoneFirst(z) | Expr::ZoneLast(z) => z.index.$as_deref().into_iter().collect(),
            Expr::ZoneCount(z, x) | Expr::ZoneContains(z, x) | Expr::ZoneIndexOf(z, x) => {
                z.index.$as_deref().into_iter().chain(std::iter::once(&$($m)? **x)).collect()
            }
            Expr::Board(b) => b.index.$as_deref().into_iter().collect(),
            Expr::Index { list, at } => vec![list, at],
            Expr::RowAt { at, .. } => vec![at],
            Expr::RowNumber { row, .. } => vec![row],
            Expr::With { values, body } => values.$iter().chain(std::iter::once(&$($m)? **body)).collect(),
            Expr::Let { value, body } => vec![value, body],
            Expr::Hoisted { .. } => Vec::new(),
            Expr::Filter { list, cond } => vec![list, cond],
            Expr::RowsWhere { key, .. } => vec![key],
            Expr::Pair { first, second, .. } => vec![first, second],
            Expr::List(items) | Expr::UnrolledTest { items, .. } | Expr::UnrolledTotal { items, .. } => items.$iter().collect(),
            Expr::Arith { a, b, .. }
            | Expr::Compare { a, b, .. }
            | Expr::Equal { a, b, .. }
            | Expr::Same { a, b, .. }
            | Expr::And(a, b)
            | Expr::Or(a, b) => vec![a, b],
            Expr::In { item, list } => vec![item, list],
            Expr::If { cond, then, otherwise } => vec![cond, then, otherwise],
            Expr::Call { args, .. } | Expr::Script { args, .. } | Expr::Function { args, .. } => args.$iter().collect(),
        }
    };
}

#[derive(Debug, Clone)]
pub enum Expr {
    Const(Value),
    Local(Slot),
    /// The element a per-element argument ([`Expr::Lambda`]) is evaluated for.
    It,
    /// The element of an enclosing lambda, this many levels out (1 = the next one):
    /// `any(a, x => all(b, y => x == y))` reads `x` as `Outer(1)` inside the inner lambda.
    Outer(u8),
    /// Every seat of the game, in order.
    Players,
    /// How many play (`len(players)`).
    PlayerCount,
    /// A parameter of the function whose body this is.
    Param(u16),
    /// A call of a function of the ruleset: its body is `Game::functions[id]`.
    Function {
        id: FunctionId,
        args: Vec<Expr>,
    },
    /// A single-valued state variable.
    Var {
        slot: IntSlot,
        code: Code,
    },
    /// An indexed state variable: the slot of index 0 and the index.
    VarAt {
        base: IntSlot,
        code: Code,
        index: Box<Expr>,
        name: Arc<str>,
    },
    /// `var[key]`: an indexed variable read with a key (see [`Key`]).
    VarAtKey {
        base: IntSlot,
        code: Code,
        key: Key,
        name: Arc<str>,
    },
    /// The index of an entry of a two-key declaration (`supply[p, s]`): `first * stride +
    /// second`, each key read as a seat or row number. Only stands as the index of a
    /// `VarAt` or a zone or a place; read as a value, it is that number.
    Pair {
        first: Box<Expr>,
        second: Box<Expr>,
        stride: u32,
    },
    /// A column of a table, read for a row: the column's value for each row.
    Column {
        values: Arc<[Value]>,
        row: Box<Expr>,
        name: Arc<str>,
    },
    /// `key.column`: a column read for the row a key holds.
    ColumnKey {
        values: Arc<[Value]>,
        key: Key,
        name: Arc<str>,
    },
    /// `x == none` (or `!=` when negated), for a player or a row.
    IsNone {
        value: Box<Expr>,
        negate: bool,
    },
    RowId(Box<Expr>),
    PosRow(Box<Expr>),
    PosCol(Box<Expr>),
    /// A zone's contents as a list.
    Zone(ZoneRead),
    /// Reads of a zone where it lies (no list is built).
    ZoneLen(ZoneRead),
    ZoneFirst(ZoneRead),
    ZoneLast(ZoneRead),
    ZoneCount(ZoneRead, Box<Expr>),
    ZoneContains(ZoneRead, Box<Expr>),
    ZoneIndexOf(ZoneRead, Box<Expr>),
    /// `filter(list, cond)`: the elements for which the per-element `cond` holds. Its
    /// consumers that only iterate (`count_if`, `any`, `sum`, `for:` lists…) read them
    /// one by one from `list` ([`Expr::each`]); no list is built.
    Filter {
        list: Box<Expr>,
        cond: Box<Expr>,
    },
    /// The rows of table `table` whose column holds the key's value, in table order:
    /// `filter(rows, r => r.column == key and …)` reads them from an index the optimizer
    /// built (`groups[0]`: the rows where the column is none; `groups[c + 1]`: where it
    /// holds code `c`) instead of testing every row.
    RowsWhere {
        table: TableId,
        groups: Arc<[Box<[u16]>]>,
        key: Box<Expr>,
    },
    /// A list indexed by position.
    Index {
        list: Box<Expr>,
        at: Box<Expr>,
    },
    /// `rows[at]` where `rows` is every row of table `table` in order (`count` of them):
    /// the row numbered `at`, found without reading a list.
    RowAt {
        table: TableId,
        count: u16,
        at: Box<Expr>,
    },
    /// `index_of(rows, row)` where `rows` is every row of a table in order (`count` of
    /// them): the row's number, or -1 for none.
    RowNumber {
        row: Box<Expr>,
        count: u16,
    },
    List(Vec<Expr>),
    /// `any` or `all` of a per-element argument over a constant list, unrolled by the
    /// optimizer: one true/false item per element, the argument's body with that element
    /// put in (and folded), evaluated in the list's order up to the item where the call
    /// would have stopped.
    UnrolledTest {
        op: Quantifier,
        items: Vec<Expr>,
    },
    /// `sum` or `count_if` unrolled the same way: a number, from the items in order.
    UnrolledTotal {
        op: Total,
        items: Vec<Expr>,
    },
    Neg(Box<Expr>, Source),
    Not(Box<Expr>),
    Arith {
        op: ArithOp,
        a: Box<Expr>,
        b: Box<Expr>,
        source: Source,
    },
    /// Comparison of two numbers.
    Compare {
        op: CmpOp,
        a: Box<Expr>,
        b: Box<Expr>,
    },
    /// Equality of two values of any (compatible) types.
    Equal {
        a: Box<Expr>,
        b: Box<Expr>,
        negate: bool,
    },
    /// Equality of two players, or two rows of one table: their codes are compared.
    Same {
        a: Box<Expr>,
        b: Box<Expr>,
        negate: bool,
    },
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    In {
        item: Box<Expr>,
        list: Box<Expr>,
    },
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// A built-in function: the op its lowering chose for these arguments (which names
    /// its built-in, `builtins::of`), and the arguments, unevaluated.
    Call {
        op: Op,
        args: Vec<Expr>,
    },
    /// A per-element argument: evaluated with `it` bound to each element.
    Lambda(Box<Expr>),
    /// `let x = value in body`: `body` (a [`Expr::Lambda`]) evaluated once, with `value`
    /// as its element: the body reads it as `It`, and what is outside as one level
    /// further out (`Outer`).
    Let {
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// `body`, a built-in call with per-element arguments, whose parts that do not depend
    /// on the element were lifted out as `values`: each is computed the first time the
    /// body reads it (an [`Expr::Hoisted`]), then remembered while the body runs, instead
    /// of once per element.
    With {
        values: Vec<Expr>,
        body: Box<Expr>,
    },
    /// Value `index` of the [`Expr::With`] `depth` levels out.
    Hoisted {
        depth: u8,
        index: u8,
    },
    /// A board instance, as the first argument of a board built-in.
    Board(BoardRead),
    /// A function of the ruleset's Rhai scripts (`Game::scripts`).
    Script {
        function: ScriptFnId,
        args: Vec<Expr>,
    },
}

impl Expr {
    pub fn constant(v: Value) -> Expr {
        Expr::Const(v)
    }

    pub fn boxed(self) -> Box<Expr> {
        Box::new(self)
    }

    pub fn as_const(&self) -> Option<&Value> {
        match self {
            Expr::Const(v) => Some(v),
            _ => None,
        }
    }

    /// The direct children of this node, in evaluation order.
    /// The expressions this one holds, in order.
    pub fn children(&self) -> Vec<&Expr> {
        children!(self, as_deref, iter)
    }

    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        children!(self, as_deref_mut, iter_mut, mut)
    }
}

/// A compiled label or log template: text with expression holes.
pub struct Template {
    pub parts: Vec<TemplatePart>,
    /// The source text, for describing the ruleset.
    pub source: String,
}

pub enum TemplatePart {
    Text(String),
    Hole(Expr),
}

impl Template {
    /// The expressions of its holes, in order.
    pub fn holes(&self) -> impl Iterator<Item = &Expr> {
        self.parts.iter().filter_map(|part| match part {
            TemplatePart::Hole(e) => Some(e),
            TemplatePart::Text(_) => None,
        })
    }

    pub fn literal(text: &str) -> Template {
        Template {
            parts: vec![TemplatePart::Text(text.to_string())],
            source: text.to_string(),
        }
    }
}
