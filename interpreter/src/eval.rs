//! What compiled expressions run against, and the runtime error they may raise.
//! Expressions are compiled once, at load, into closures ([`Eval`]); nothing is parsed
//! while a game runs.

use std::fmt;
use std::sync::Arc;

use crate::machine::State;
use crate::model::Game;
use crate::value::Value;

/// Everything an expression can read: the game, the state, the current procedure's
/// locals, and `it` inside a built-in's per-element argument.
pub struct Env<'a> {
    pub game: &'a Game,
    pub state: &'a State,
    pub locals: &'a [Value],
    pub it: &'a Value,
    /// A local that reads differently from `locals` (an option's binding while its
    /// condition or label is evaluated), so that no copy of the locals is made.
    pub bound: Option<(u16, &'a Value)>,
}

impl<'a> Env<'a> {
    pub fn new(game: &'a Game, state: &'a State, locals: &'a [Value]) -> Env<'a> {
        Env { game, state, locals, it: &Value::None, bound: None }
    }
    pub fn with_it<'b>(&'b self, it: &'b Value) -> Env<'b> {
        Env { game: self.game, state: self.state, locals: self.locals, it, bound: self.bound }
    }
    pub fn with_bound<'b>(&'b self, slot: u16, value: &'b Value) -> Env<'b> {
        Env { game: self.game, state: self.state, locals: self.locals, it: self.it, bound: Some((slot, value)) }
    }
    pub fn local(&self, slot: u16) -> &Value {
        match self.bound {
            Some((s, v)) if s == slot => v,
            _ => self.locals.get(slot as usize).unwrap_or(&Value::None),
        }
    }
}

/// Shared, so that a compiled expression can stand in two statements (desugaring).
pub type Eval = Arc<dyn Fn(&Env) -> Result<Value, RuntimeError> + Send + Sync>;

/// A ruleset error found while a game runs (an index out of range, a script that failed…).
/// A correct ruleset never raises one; the message says which statement did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeError {
    pub message: String,
    /// The YAML path of the statement being executed, when known.
    pub origin: Option<Arc<str>>,
}

impl RuntimeError {
    pub fn new(message: impl Into<String>) -> RuntimeError {
        RuntimeError { message: message.into(), origin: None }
    }
    pub fn at(mut self, origin: &Arc<str>) -> RuntimeError {
        if self.origin.is_none() {
            self.origin = Some(origin.clone());
        }
        self
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.origin {
            Some(origin) => write!(f, "{origin}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RuntimeError {}

/// A compiled label or log template: text with expression holes.
pub struct Template {
    pub parts: Vec<TemplatePart>,
    /// The source text, for describing the ruleset.
    pub source: String,
}

pub enum TemplatePart {
    Text(String),
    Hole(Eval),
}

impl Template {
    pub fn literal(text: &str) -> Template {
        Template { parts: vec![TemplatePart::Text(text.to_string())], source: text.to_string() }
    }

    pub fn render(&self, env: &Env) -> Result<String, RuntimeError> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                TemplatePart::Text(t) => out.push_str(t),
                TemplatePart::Hole(e) => {
                    let v = e(env)?;
                    env.game.write_value(&mut out, &v, &env.state.names);
                }
            }
        }
        Ok(out)
    }
}

impl Game {
    /// Writes a value as players read it: a player's name, a row's id, a list space-separated.
    pub fn write_value(&self, out: &mut String, value: &Value, names: &[String]) {
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
            Value::Row(t, r) => out.push_str(&self.tables[*t as usize].rows[*r as usize].id),
            Value::Str(s) => out.push_str(s),
            Value::Pos(p) => {
                let _ = write!(out, "{p}");
            }
            Value::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    self.write_value(out, item, names);
                }
            }
        }
    }

    pub fn value_text(&self, value: &Value, names: &[String]) -> String {
        let mut out = String::new();
        self.write_value(&mut out, value, names);
        out
    }
}
