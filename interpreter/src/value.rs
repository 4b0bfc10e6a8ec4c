//! Runtime values and their static types.

use std::sync::Arc;

pub use crate::grid::Pos;

pub use crate::ir::TableId;

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
