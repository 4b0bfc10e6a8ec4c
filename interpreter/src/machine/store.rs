//! What is stored where: the number a variable's slot holds for a value, the code a zone
//! holds for an element, indexes checked against their declaration and sums against
//! the whole numbers a state holds, with messages naming what does not fit.

use crate::eval::RuntimeError;
use crate::model::{Domain, Element, Game, Var};
use crate::value::{Type, Value};

impl Game {
    /// The number a variable's slot stores for `v`, which must be of the variable's type:
    /// a script's result is checked here, where it is stored. Scripts speak of players
    /// as seat numbers and of rows by id, so those convert.
    pub(crate) fn slot_value(
        &self,
        var: &Var,
        v: &Value,
        names: &[String],
    ) -> Result<i64, RuntimeError> {
        let stored = match (&var.ty, v) {
            (Type::Int, Value::Int(n)) => Some(*n),
            (Type::Bool, Value::Bool(b)) => Some(*b as i64),
            (Type::Player | Type::Row(_), Value::None) => Some(-1),
            (Type::Player | Type::Row(_), _) => self.element_of(&var.ty, v, names).map(i64::from),
            _ => None,
        };
        stored.ok_or_else(|| {
            RuntimeError::new(format!(
                "'{}' holds {}, not {}",
                var.name,
                self.type_words(&var.ty),
                self.value_words(v, names)
            ))
        })
    }

    /// The code of a player or row that `v` stands for, as a value of type `ty`: a player,
    /// a seat number (scripts), a row of the table, or its id (scripts).
    fn element_of(&self, ty: &Type, v: &Value, names: &[String]) -> Option<u16> {
        match (ty, v) {
            (Type::Player, Value::Player(p)) => ((*p as usize) < names.len()).then_some(*p as u16),
            (Type::Player, Value::Int(n)) => {
                (0..names.len() as i64).contains(n).then_some(*n as u16)
            }
            (Type::Row(t), Value::Row(u, r)) => {
                (t == u && (*r as usize) < self.tables[t.index()].rows.len()).then_some(*r)
            }
            (Type::Row(t), Value::Str(id)) => self.tables[t.index()].row_index(id),
            _ => None,
        }
    }

    /// The code a zone holding `of` stores for `v`, which must be one of its elements.
    pub(crate) fn zone_code(
        &self,
        of: Element,
        v: &Value,
        names: &[String],
    ) -> Result<u16, RuntimeError> {
        if *v == Value::None {
            return Err(RuntimeError::new("cannot put none in a zone"));
        }
        self.element_of(&of.value_type(), v, names).ok_or_else(|| {
            RuntimeError::new(format!(
                "a zone of {} cannot hold {}",
                self.type_words(&of.value_type()),
                self.value_words(v, names)
            ))
        })
    }

    /// A type as messages name it: "a number", "a row of cards".
    fn type_words(&self, ty: &Type) -> String {
        match ty {
            Type::Int => "a number".into(),
            Type::Bool => "true/false".into(),
            Type::Player => "a player".into(),
            Type::Row(t) => format!("a row of {}", self.tables[t.index()].name),
            Type::Str => "a text".into(),
            Type::Pos => "a position".into(),
            Type::List(_) => "a list".into(),
            Type::None => "none".into(),
            Type::Any => "anything".into(),
        }
    }

    /// A value as messages name it: its kind and how it reads.
    fn value_words(&self, v: &Value, names: &[String]) -> String {
        let kind = match v {
            Value::Int(_) => "the number",
            Value::Bool(_) => "the truth value",
            // Quoted: a text may be a word that reads as part of the sentence.
            Value::Str(s) => return format!("the text \"{s}\""),
            Value::List(_) => "the list",
            Value::Pos(_) => "the position",
            Value::Player(p) if (*p as usize) >= names.len() => {
                return format!("seat {p}, which does not play")
            }
            Value::Player(_) => "the player",
            Value::Row(t, r)
                if (*r as usize) >= self.tables.get(t.index()).map_or(0, |t| t.rows.len()) =>
            {
                return format!("row number {r}, which does not exist")
            }
            Value::Row(..) => "the row",
            Value::None => return "none".into(),
        };
        format!("{kind} {}", self.value_text(v, names))
    }

    #[inline]
    pub(super) fn checked_index(
        &self,
        domain: Domain,
        i: usize,
        what: &str,
    ) -> Result<usize, RuntimeError> {
        if i >= self.domain_len(domain) {
            return Err(index_out_of_range(what));
        }
        Ok(i)
    }
}

pub(super) fn checked_add(a: i64, b: i64) -> Result<i64, RuntimeError> {
    a.checked_add(b).ok_or_else(|| {
        RuntimeError::new(format!(
            "{a} + {b} is outside the whole numbers a state holds (−2⁶³ to 2⁶³−1)"
        ))
    })
}

/// Out of line: `checked_index` is on the assignment path. `eval::instance` writes the
/// same message in place, on purpose: calling this from there measured 1.2% more
/// instructions a Way Out West decision (callgrind; the calls around it inline
/// differently).
#[cold]
fn index_out_of_range(what: &str) -> RuntimeError {
    RuntimeError::new(format!("{what}: index out of range"))
}
