//! Values as the evaluator reads and writes them: conversions that check types,
//! checked arithmetic, templates rendered, values as text.

use super::*;

impl Template {
    /// The text, plain: colours marked by `colour()` are taken out (labels, prompts, logs).
    pub fn render(&self, env: &Env) -> Result<String> {
        Ok(crate::colour::strip_colours(&self.render_marked(env)?).into_owned())
    }

    /// The text with the colour marks of `colour()` kept (display lines).
    pub fn render_marked(&self, env: &Env) -> Result<String> {
        self.render_masked(env, &|_| None)
    }

    /// The text with colour marks, each element `mask` gives a text for written as that
    /// text (an element a viewer may not know, as `?`).
    pub fn render_masked(&self, env: &Env, mask: Mask) -> Result<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                TemplatePart::Text(t) => out.push_str(t),
                TemplatePart::Hole(e) => {
                    let v = e.eval(env)?;
                    env.game
                        .write_value_masked(&mut out, &v, &env.state.names, mask);
                }
            }
        }
        Ok(out)
    }

    /// The text in pieces: its words, and the values of its holes as they are, so that it
    /// can be written again for a reader who may not know some of them ([`Piece`]).
    pub fn pieces(&self, env: &Env) -> Result<Vec<Piece>> {
        self.parts
            .iter()
            .map(|part| match part {
                TemplatePart::Text(t) => Ok(Piece::Text(t.clone())),
                TemplatePart::Hole(e) => e.eval(env).map(Piece::Value),
            })
            .collect()
    }
}

/// A rendered template's part: words, or a hole's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Text(String),
    Value(Value),
}

/// The text an element is written as instead of its id, if any (see
/// [`Game::write_value_masked`]).
pub type Mask<'m> = &'m dyn Fn(&Value) -> Option<&'static str>;

/// Whether a value is or holds a table row: what a mask may hide.
pub fn names_rows(value: &Value) -> bool {
    match value {
        Value::Row(..) => true,
        Value::List(items) => items.iter().any(names_rows),
        _ => false,
    }
}

/// What a typed entry point reads from a value it did not compute (a function's value
/// remembered for the option listing).
pub(super) trait FromValue: Sized {
    fn from_value(v: &Value) -> Result<Self>;
}

impl FromValue for Value {
    fn from_value(v: &Value) -> Result<Value> {
        Ok(v.clone())
    }
}

impl FromValue for i64 {
    fn from_value(v: &Value) -> Result<i64> {
        as_int(v)
    }
}

impl FromValue for bool {
    fn from_value(v: &Value) -> Result<bool> {
        as_bool(v)
    }
}

/// Checked integer arithmetic; division rounds down (toward minus infinity), as rulebooks do.
pub fn arith(op: ArithOp, x: i64, y: i64) -> Option<i64> {
    match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div => x.checked_div_euclid(y),
        // Only the quotient of −2⁶³ by −1 leaves the range: its remainder is 0.
        ArithOp::Rem if y == -1 => Some(0),
        ArithOp::Rem => x.checked_rem_euclid(y),
    }
}

#[cold]
pub(super) fn arith_error(op: ArithOp, x: i64, y: i64, source: &str) -> RuntimeError {
    let what = if y == 0 && matches!(op, ArithOp::Div | ArithOp::Rem) {
        "division by zero".to_string()
    } else {
        "the result is outside the whole numbers a state holds (−2⁶³ to 2⁶³−1)".to_string()
    };
    RuntimeError::new(format!("{x} {} {y}: {what}, in \"{source}\"", op.symbol()))
}

pub(crate) fn as_int(v: &Value) -> Result<i64> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(mistyped("a number", other)),
    }
}

pub(crate) fn as_pos(v: &Value) -> Result<crate::grid::Pos> {
    match v {
        Value::Pos(p) => Ok(*p),
        other => Err(mistyped("a position", other)),
    }
}

pub(crate) fn as_bool(v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(mistyped("true or false", other)),
    }
}

pub fn as_list(v: Value) -> Result<Arc<Vec<Value>>> {
    match v {
        Value::List(items) => Ok(items),
        Value::None => Ok(Arc::new(Vec::new())),
        other => Err(mistyped("a list", &other)),
    }
}

/// A value of the wrong type where `expected` was needed (a script's result, say).
#[cold]
pub(super) fn mistyped(expected: &str, found: &Value) -> RuntimeError {
    let found = match found {
        Value::None => "none".to_string(),
        Value::Int(n) => format!("the number {n}"),
        Value::Bool(b) => format!("{b}"),
        Value::Player(p) => format!("seat {p}"),
        Value::Row(..) => "a row".to_string(),
        Value::Str(s) => format!("the text \"{s}\""),
        Value::List(_) => "a list".to_string(),
        Value::Pos(p) => format!("the position {p}"),
    };
    RuntimeError::new(format!("expected {expected}, found {found}"))
}

impl Game {
    /// Writes a value as players read it: a player's name, a row's id, a list space-separated.
    pub fn write_value(&self, out: &mut String, value: &Value, names: &[String]) {
        self.write_value_masked(out, value, names, &|_| None)
    }

    /// Writes `value`, each table row for which `mask` gives a text written as that text.
    /// (Seats are public: only rows, the cards and tiles of zones, are ever hidden.)
    pub fn write_value_masked(
        &self,
        out: &mut String,
        value: &Value,
        names: &[String],
        mask: Mask,
    ) {
        use std::fmt::Write;
        match value {
            Value::None => out.push_str("none"),
            Value::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Value::Bool(b) => out.push_str(if *b { "yes" } else { "no" }),
            Value::Player(p) => match names.get(*p as usize) {
                Some(name) => out.push_str(name),
                None => {
                    let _ = write!(out, "p{}", p + 1);
                }
            },
            Value::Row(t, r) => match mask(value) {
                Some(text) => out.push_str(text),
                None => out.push_str(&self.tables[t.index()].rows[*r as usize].id),
            },
            Value::Str(s) => out.push_str(s),
            Value::Pos(p) => {
                let _ = write!(out, "{p}");
            }
            Value::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    // A list of lists may share its parts and write far more than it
                    // holds: past the most a text holds, the rest is not written (`text`
                    // refuses the result).
                    if out.len() > crate::builtins::MAX_TEXT_BYTES {
                        return;
                    }
                    if i > 0 {
                        out.push(' ');
                    }
                    self.write_value_masked(out, item, names, mask);
                }
            }
        }
    }

    /// The text of a template's pieces for a reader: elements `mask` hides written as its
    /// text, the colour marks of `colour()` taken out.
    pub fn pieces_text(&self, pieces: &[Piece], names: &[String], mask: Mask) -> String {
        let mut out = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Value(v) => self.write_value_masked(&mut out, v, names, mask),
            }
        }
        crate::colour::strip_colours(&out).into_owned()
    }

    pub fn value_text(&self, value: &Value, names: &[String]) -> String {
        let mut out = String::new();
        self.write_value(&mut out, value, names);
        out
    }
}
