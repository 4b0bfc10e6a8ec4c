//! Runtime values and their static types.

use std::sync::Arc;

pub use crate::grid::Pos;

pub use crate::id::TableId;

/// A runtime value. Small and cheap to clone: lists are shared.
///
/// Its layout is defined (`repr(u8)`: a tag byte, then the variant's fields as a C struct
/// lays them out), so that compiled code reads and writes the plain values of a
/// procedure's locals in place ([`layout`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
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

/// Where the plain variants of a [`Value`] keep their tag and payload, for code that
/// reads and writes values in place (the engine's compiled statements). The `repr(u8)`
/// layout guarantees them; a test checks them against values.
pub mod layout {
    /// The size of a value: locals are an array of them.
    pub const SIZE: usize = std::mem::size_of::<super::Value>();
    pub const TAG_NONE: u8 = 0;
    pub const TAG_INT: u8 = 1;
    pub const TAG_BOOL: u8 = 2;
    pub const TAG_PLAYER: u8 = 3;
    pub const TAG_ROW: u8 = 4;
    /// Tags from this one on are not written over in place: a text and a list own
    /// memory (overwriting one must drop it), and a position is left to the walker.
    pub const TAG_OWNING: u8 = 5;
    /// `Int`'s number (8 bytes).
    pub const INT_AT: i32 = 8;
    /// `Bool`'s and `Player`'s byte.
    pub const BYTE_AT: i32 = 1;
    /// `Row`'s table (2 bytes) and row (2 bytes).
    pub const ROW_TABLE_AT: i32 = 2;
    pub const ROW_AT: i32 = 4;
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

#[cfg(test)]
mod tests {
    use super::{layout, TableId, Value};

    fn bytes(v: &Value) -> [u8; layout::SIZE] {
        // SAFETY: a value is `SIZE` bytes; only the bytes its layout defines are compared.
        unsafe { std::mem::transmute_copy(v) }
    }

    #[test]
    fn the_layout_compiled_code_reads_is_the_values() {
        assert_eq!(bytes(&Value::None)[0], layout::TAG_NONE);
        let int = bytes(&Value::Int(-0x0123_4567_89ab_cdef));
        assert_eq!(int[0], layout::TAG_INT);
        let at = layout::INT_AT as usize;
        assert_eq!(&int[at..at + 8], &(-0x0123_4567_89ab_cdefi64).to_ne_bytes());
        let b = bytes(&Value::Bool(true));
        assert_eq!((b[0], b[layout::BYTE_AT as usize]), (layout::TAG_BOOL, 1));
        let p = bytes(&Value::Player(7));
        assert_eq!((p[0], p[layout::BYTE_AT as usize]), (layout::TAG_PLAYER, 7));
        let r = bytes(&Value::Row(TableId::at(0x0102), 0x0304));
        let (t, at) = (layout::ROW_TABLE_AT as usize, layout::ROW_AT as usize);
        assert_eq!(r[0], layout::TAG_ROW);
        assert_eq!(&r[t..t + 2], &0x0102u16.to_ne_bytes());
        assert_eq!(&r[at..at + 2], &0x0304u16.to_ne_bytes());
        assert!(bytes(&Value::Str("x".into()))[0] >= layout::TAG_OWNING);
        assert!(bytes(&Value::list(Vec::new()))[0] >= layout::TAG_OWNING);
        assert!(bytes(&Value::Pos(super::Pos { row: 0, col: 0 }))[0] >= layout::TAG_OWNING);
    }
}
