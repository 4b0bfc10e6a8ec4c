//! Runtime values and their static types.

use std::sync::Arc;

pub use crate::grid::Pos;

pub use crate::id::TableId;

/// A runtime value. Small and cheap to clone: lists are shared.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Value {
    #[default]
    None,
    Int(i64),
    Bool(bool),
    /// A seat index, 0-based.
    Player(u8),
    /// A row of a data table: (table, row index).
    Row(TableId, u16),
    Str(Arc<str>),
    List(Arc<Vec<Value>>),
    /// A cell of a board.
    Pos(Pos),
}

impl Value {
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Arc::new(items))
    }
}

/// The static type of an expression, checked when a ruleset loads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    Str,
    Player,
    Row(TableId),
    Pos,
    List(Box<Type>),
    /// The type of `none`: compatible with players and rows (which may be absent).
    None,
    /// Unknown: the value of a script function, or an expression that already failed to
    /// check (so one mistake is reported once).
    Any,
}

impl Type {
    /// Whether a value of type `other` may be stored where `self` is expected.
    pub fn accepts(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::Any, _) | (_, Type::Any) => true,
            (Type::Player | Type::Row(_), Type::None) => true,
            (Type::List(a), Type::List(b)) => a.accepts(b),
            (a, b) => a == b,
        }
    }

    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::List(t) => Some(t),
            _ => None,
        }
    }
}

/// What a zone holds: seats or rows of one table, each stored as its number (a code).
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

/// The value an element code of a zone of `of` stands for.
pub fn decode_element(of: Element, e: u16) -> Value {
    match of {
        Element::Player => Value::Player(e as u8),
        Element::Row(t) => Value::Row(t, e),
    }
}

/// The number of a seat or a row: how zones store elements, and where an indexed
/// variable's value for it lies.
pub fn code_of(v: &Value) -> Option<u16> {
    match v {
        Value::Player(p) => Some(*p as u16),
        Value::Row(_, r) => Some(*r),
        _ => None,
    }
}

/// The number a state slot holds for a value (-1 for none).
pub fn encode(v: &Value) -> i64 {
    match v {
        Value::Int(n) => *n,
        Value::Bool(b) => *b as i64,
        Value::Player(p) => *p as i64,
        Value::Row(_, r) => *r as i64,
        _ => -1,
    }
}
