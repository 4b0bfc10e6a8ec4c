//! The evaluator: walks the typed IR ([`crate::ir::Expr`]) against a state.
//!
//! Typed entry points keep the hot path unboxed: [`Expr::int`] and [`Expr::bool`] return
//! plain numbers and booleans, [`Expr::index`] the seat or row number that indexes state,
//! and only [`Expr::eval`] builds a [`Value`]. Errors are boxed so that every `Result`
//! here fits in two registers. Nothing is parsed or looked up by name while a game runs.

mod board;
pub(crate) mod call;
mod geometry;
mod knowledge;
pub(crate) mod list;

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use crate::ir::{ArithOp, Code, Expr, Key, Quantifier, Slot, Total, ZoneRead};
pub use crate::ir::{Template, TemplatePart};
use crate::model::Game;
use crate::state::State;
use crate::value::Value;
pub(crate) use crate::value::{code_of, decode_element, encode};

/// Everything an expression can read: the game, the state, the current procedure's
/// locals, and `it` inside a built-in's per-element argument.
pub struct Env<'a> {
    pub game: &'a Game,
    pub state: &'a State,
    pub locals: &'a [Value],
    pub it: &'a Value,
    /// A local that reads differently from `locals` (an option's binding while its
    /// condition or label is evaluated), so that no copy of the locals is made.
    pub bound: Option<(Slot, &'a Value)>,
    /// The arguments of the function whose body is being evaluated.
    pub params: &'a [Value],
    /// The environment a per-element argument was applied from: where the elements of
    /// enclosing lambdas are (`Expr::Outer`).
    pub outer: Option<&'a Env<'a>>,
    /// While the state cannot change (the options of one decision are listed), the values
    /// of the ruleset's functions without parameters, computed once.
    pub memo: Option<&'a Memo>,
    /// The values lifted out of the per-element arguments being evaluated
    /// ([`Expr::With`]), innermost first.
    pub hoisted: Option<&'a Hoisting<'a>>,
}

/// The most values one [`Expr::With`] lifts out.
pub const MAX_HOISTED: usize = 4;

/// The values of an [`Expr::With`] while its body is evaluated: each computed in the
/// environment of the `With` the first time it is read.
pub struct Hoisting<'a> {
    values: &'a [Expr],
    known: [std::cell::OnceCell<Value>; MAX_HOISTED],
    env: &'a Env<'a>,
}

impl Hoisting<'_> {
    fn value(&self, depth: u8, index: u8) -> Result<Value> {
        let mut frame = self;
        for _ in 0..depth {
            frame = frame
                .env
                .hoisted
                .ok_or_else(|| unverified("a lifted value without its frame"))?;
        }
        let i = index as usize;
        if let Some(v) = frame.known.get(i).and_then(|k| k.get()) {
            return Ok(v.clone());
        }
        let expr = frame
            .values
            .get(i)
            .ok_or_else(|| unverified("a lifted value out of range"))?;
        let v = expr.eval(frame.env)?;
        let _ = frame.known[i].set(v.clone());
        Ok(v)
    }
}

/// The error a read that the verifier (`verify.rs`) rules out gives, should an IR that was
/// not verified (a release build does not verify) break the invariant: never a panic.
#[cold]
pub(crate) fn unverified(what: &str) -> RuntimeError {
    RuntimeError::new(format!(
        "the IR breaks an invariant the verifier checks: {what}"
    ))
}

/// The row number an [`Expr::RowAt`] of `count` rows reads at `at`, checked against the
/// table's rows.
fn row_at(count: u16, at: &Expr, env: &Env) -> Result<u16> {
    let i = at.int(env)?;
    match u16::try_from(i) {
        Ok(r) if r < count => Ok(r),
        _ => Err(RuntimeError::new(format!(
            "position {i} is outside a list of {count}"
        ))),
    }
}

/// The values of functions without parameters for one unchanging state, by function.
/// Empty until a value is kept: most option listings call no such function, and then
/// allocate nothing.
#[derive(Default)]
pub struct Memo(std::cell::RefCell<Vec<Option<Value>>>);

impl<'a> Env<'a> {
    pub fn new(game: &'a Game, state: &'a State, locals: &'a [Value]) -> Env<'a> {
        Env {
            game,
            state,
            locals,
            it: &Value::None,
            bound: None,
            params: &[],
            outer: None,
            memo: None,
            hoisted: None,
        }
    }
    /// The environment of a per-element argument applied to `it`.
    pub fn with_it<'b>(&'b self, it: &'b Value) -> Env<'b> {
        Env {
            it,
            outer: Some(self),
            ..*self
        }
    }
    pub fn with_bound<'b>(&'b self, slot: Slot, value: &'b Value) -> Env<'b> {
        Env {
            bound: Some((slot, value)),
            ..*self
        }
    }
    /// This environment, remembering the values of functions without parameters: only
    /// while the state does not change.
    pub fn with_memo<'b>(&'b self, memo: &'b Memo) -> Env<'b> {
        Env {
            memo: Some(memo),
            ..*self
        }
    }
    /// The element of the lambda `depth` levels out (0 is `it`).
    fn outer_it(&self, depth: u8) -> &Value {
        let mut env = self;
        for _ in 0..depth {
            match env.outer {
                Some(outer) => env = outer,
                None => return &Value::None,
            }
        }
        env.it
    }
    /// The environment of a function's body: the game and state, its arguments, and
    /// nothing of the caller (no locals, no `it`).
    pub fn for_function<'b>(&'b self, params: &'b [Value]) -> Env<'b> {
        Env {
            game: self.game,
            state: self.state,
            locals: &[],
            it: &Value::None,
            bound: None,
            params,
            outer: None,
            memo: self.memo,
            hoisted: None,
        }
    }
    /// Evaluates `body` (the body of an [`Expr::With`]) with the lifted `values` readable.
    fn with_hoisted<T>(&self, values: &[Expr], body: impl FnOnce(&Env) -> Result<T>) -> Result<T> {
        let frame = Hoisting {
            values,
            known: Default::default(),
            env: self,
        };
        body(&Env {
            hoisted: Some(&frame),
            ..*self
        })
    }
    fn hoisted_value(&self, depth: u8, index: u8) -> Result<Value> {
        match self.hoisted {
            Some(frame) => frame.value(depth, index),
            None => Err(unverified("a lifted value read outside its frame")),
        }
    }
    pub fn local(&self, slot: Slot) -> &Value {
        match self.bound {
            Some((s, v)) if s == slot => v,
            _ => self.locals.get(slot.index()).unwrap_or(&Value::None),
        }
    }
}

/// A ruleset error found while a game runs (an index out of range, an overflow, a script
/// that failed…). A correct ruleset never raises one; the message says which statement
/// did, with its file, line and column.
#[derive(Clone, PartialEq, Eq)]
pub struct RuntimeError(Box<ErrorInner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct ErrorInner {
    message: String,
    /// Where the statement being executed stands (`ruleset.yaml:12:9: play[0].set.v`).
    origin: Option<Arc<str>>,
}

impl RuntimeError {
    pub fn new(message: impl Into<String>) -> RuntimeError {
        RuntimeError(Box::new(ErrorInner {
            message: message.into(),
            origin: None,
        }))
    }
    pub fn at(mut self, origin: &Arc<str>) -> RuntimeError {
        if self.0.origin.is_none() {
            self.0.origin = Some(origin.clone());
        }
        self
    }
    pub fn message(&self) -> &str {
        &self.0.message
    }
    pub fn origin(&self) -> Option<&str> {
        self.0.origin.as_deref()
    }
}

impl fmt::Debug for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.origin {
            Some(origin) => write!(f, "{origin}: {}", self.0.message),
            None => f.write_str(&self.0.message),
        }
    }
}

impl std::error::Error for RuntimeError {}

pub type Result<T> = std::result::Result<T, RuntimeError>;

impl Template {
    /// The text, plain: colours marked by `colour()` are taken out (labels, prompts, logs).
    pub fn render(&self, env: &Env) -> Result<String> {
        Ok(crate::colour::strip_colours(&self.render_marked(env)?).into_owned())
    }

    /// The text with the colour marks of `colour()` kept (display lines).
    pub fn render_marked(&self, env: &Env) -> Result<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                TemplatePart::Text(t) => out.push_str(t),
                TemplatePart::Hole(e) => {
                    let v = e.eval(env)?;
                    env.game.write_value(&mut out, &v, &env.state.names);
                }
            }
        }
        Ok(out)
    }
}

impl Expr {
    /// The value of this expression.
    pub fn eval(&self, env: &Env) -> Result<Value> {
        Ok(match self {
            Expr::Const(v) => v.clone(),
            Expr::Local(slot) => env.local(*slot).clone(),
            Expr::It => env.it.clone(),
            Expr::Outer(depth) => env.outer_it(*depth).clone(),
            Expr::Players => players(env),
            Expr::Param(i) => env.params[*i as usize].clone(),
            Expr::Function { id, args } => {
                return call_function(env, *id, args, |body, env| body.eval(env))
            }
            Expr::Var { slot, code } => code.decode(env.state.ints[*slot as usize]),
            Expr::VarAt {
                base,
                code,
                index,
                name,
            } => code.decode(var_at(env, *base, index, name)?),
            Expr::VarAtKey {
                base,
                code,
                key,
                name,
            } => code.decode(var_at_key(env, *base, *key, name)?),
            Expr::Column { values, row, name } => values[row_of(row, env, name)?].clone(),
            Expr::ColumnKey { values, key, name } => values[key_row(env, *key, name)?].clone(),
            Expr::RowId(row) => match row.eval(env)? {
                Value::Row(t, r) => Value::Str(Arc::from(
                    env.game.tables[t.index()].rows[r as usize].id.as_str(),
                )),
                _ => return Err(RuntimeError::new("none has no id")),
            },
            Expr::PosRow(p) => Value::Int(as_pos(&p.eval(env)?)?.row as i64),
            Expr::PosCol(p) => Value::Int(as_pos(&p.eval(env)?)?.col as i64),
            Expr::Zone(z) => {
                let items = zone(env, z)?;
                Value::list(items.iter().map(|e| decode_element(z.of, *e)).collect())
            }
            Expr::ZoneFirst(z) => zone(env, z)?
                .first()
                .map_or(Value::None, |e| decode_element(z.of, *e)),
            Expr::ZoneLast(z) => zone(env, z)?
                .last()
                .map_or(Value::None, |e| decode_element(z.of, *e)),
            Expr::ZoneLen(_)
            | Expr::RowNumber { .. }
            | Expr::PlayerCount
            | Expr::ZoneCount(..)
            | Expr::ZoneIndexOf(..)
            | Expr::Arith { .. }
            | Expr::Neg(..) => Value::Int(self.int(env)?),
            Expr::ZoneContains(..)
            | Expr::Compare { .. }
            | Expr::Equal { .. }
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::Not(_)
            | Expr::In { .. }
            | Expr::IsNone { .. }
            | Expr::Same { .. } => Value::Bool(self.bool(env)?),
            Expr::Index { list, at } => {
                let items = as_list(list.eval(env)?)?;
                let i = at.int(env)?;
                return usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get(i).cloned())
                    .ok_or_else(|| {
                        RuntimeError::new(format!(
                            "position {i} is outside a list of {}",
                            items.len()
                        ))
                    });
            }
            Expr::RowAt { table, count, at } => Value::Row(*table, row_at(*count, at, env)?),
            Expr::List(items) => Value::list(
                items
                    .iter()
                    .map(|e| e.eval(env))
                    .collect::<Result<Vec<_>>>()?,
            ),
            Expr::UnrolledTest { .. } => Value::Bool(self.bool(env)?),
            Expr::UnrolledTotal { .. } => Value::Int(self.int(env)?),
            Expr::Filter { .. } | Expr::RowsWhere { .. } => {
                let mut out = Vec::with_capacity(8);
                self.each(env, |v| {
                    out.push(v.clone());
                    Ok(ControlFlow::Continue(()))
                })?;
                Value::list(out)
            }
            Expr::Pair { .. } => Value::Int(self.index(env, "a two-key declaration")? as i64),
            Expr::If {
                cond,
                then,
                otherwise,
            } => {
                return if cond.bool(env)? {
                    then.eval(env)
                } else {
                    otherwise.eval(env)
                };
            }
            Expr::Call { op, args } => return call::run(*op, args, env),
            Expr::Lambda(body) => return body.eval(env),
            Expr::With { values, body } => return env.with_hoisted(values, |env| body.eval(env)),
            Expr::Hoisted { depth, index } => return env.hoisted_value(*depth, *index),
            Expr::Board(_) => {
                return Err(RuntimeError::new(
                    "a board is read with cells(), at(), groups(), holes() or placements()",
                ))
            }
            Expr::Script { function, args } => {
                let values = args
                    .iter()
                    .map(|a| a.eval(env))
                    .collect::<Result<Vec<_>>>()?;
                return crate::script::call(env.game, env.state, *function, values)
                    .map_err(RuntimeError::new);
            }
        })
    }

    /// The value of a number-typed expression, unboxed. The commonest nodes are read
    /// here; the others in `Expr::int_other`, out of line, so that this function's
    /// frame stays small: it is entered for nearly every number the game reads.
    pub fn int(&self, env: &Env) -> Result<i64> {
        match self {
            Expr::Const(Value::Int(n)) => Ok(*n),
            Expr::Var {
                slot,
                code: Code::Int,
            } => Ok(env.state.ints[*slot as usize]),
            Expr::VarAtKey {
                base,
                code: Code::Int,
                key,
                name,
            } => var_at_key(env, *base, *key, name),
            Expr::Local(slot) => as_int(env.local(*slot)),
            Expr::Param(i) => as_int(&env.params[*i as usize]),
            Expr::Function { id, args } => call_function(env, *id, args, |body, env| body.int(env)),
            Expr::ColumnKey { values, key, name } => as_int(&values[key_row(env, *key, name)?]),
            Expr::Arith { op, a, b, source } => {
                let (x, y) = (a.leaf_int(env)?, b.leaf_int(env)?);
                arith(*op, x, y).ok_or_else(|| arith_error(*op, x, y, source))
            }
            Expr::ZoneLen(z) => Ok(zone(env, z)?.len() as i64),
            Expr::PlayerCount => Ok(env.state.names.len() as i64),
            Expr::Call { op, args } => as_int(&call::run(*op, args, env)?),
            Expr::RowNumber { row, count } => Ok(match row.code(env)? {
                Some(r) if r < *count => r as i64,
                _ => -1,
            }),
            Expr::ZoneCount(z, x) => {
                let code = x.code(env)?;
                let items = zone(env, z)?;
                Ok(code.map_or(0, |c| items.iter().filter(|e| **e == c).count()) as i64)
            }
            Expr::If {
                cond,
                then,
                otherwise,
            } => {
                if cond.bool(env)? {
                    then.int(env)
                } else {
                    otherwise.int(env)
                }
            }
            Expr::UnrolledTotal { op, items } => unrolled_total(*op, items, env),
            _ => self.int_other(env),
        }
    }

    #[inline(never)]
    fn int_other(&self, env: &Env) -> Result<i64> {
        match self {
            Expr::VarAt {
                base,
                code: Code::Int,
                index,
                name,
            } => var_at(env, *base, index, name),
            Expr::Column { values, row, name } => as_int(&values[row_of(row, env, name)?]),
            Expr::Neg(e, source) => {
                let x = e.int(env)?;
                x.checked_neg().ok_or_else(|| {
                    RuntimeError::new(format!(
                        "-({x}) is past the largest whole number in \"{source}\""
                    ))
                })
            }
            Expr::ZoneIndexOf(z, x) => {
                let code = x.code(env)?;
                let items = zone(env, z)?;
                Ok(code
                    .and_then(|c| items.iter().position(|e| *e == c))
                    .map_or(-1, |i| i as i64))
            }
            Expr::With { values, body } => env.with_hoisted(values, |env| body.int(env)),
            _ => as_int(&self.eval(env)?),
        }
    }

    /// [`Expr::int`] with the commonest leaves read here, without a call: the operands of
    /// arithmetic and comparisons are mostly constants, variables and columns.
    #[inline(always)]
    fn leaf_int(&self, env: &Env) -> Result<i64> {
        match self {
            Expr::Const(Value::Int(n)) => Ok(*n),
            Expr::Var {
                slot,
                code: Code::Int,
            } => Ok(env.state.ints[*slot as usize]),
            Expr::VarAtKey {
                base,
                code: Code::Int,
                key,
                name,
            } => var_at_key(env, *base, *key, name),
            Expr::ColumnKey { values, key, name } => as_int(&values[key_row(env, *key, name)?]),
            Expr::PlayerCount => Ok(env.state.names.len() as i64),
            Expr::ZoneLen(z) => Ok(zone(env, z)?.len() as i64),
            _ => self.int(env),
        }
    }

    /// The value of a true/false-typed expression, unboxed.
    #[inline(always)]
    pub fn bool(&self, env: &Env) -> Result<bool> {
        self.truth(env).map(|t| t != 0)
    }

    /// [`Expr::bool`] as 0 or 1: a word, which a `Result` returns in registers where a
    /// `bool` beside the error's pointer would go through memory.
    fn truth(&self, env: &Env) -> Result<u64> {
        let r: Result<bool> = match self {
            Expr::Const(Value::Bool(b)) => Ok(*b),
            Expr::Compare { op, a, b } => {
                let (x, y) = (a.leaf_int(env)?, b.leaf_int(env)?);
                Ok(op.holds(x, y))
            }
            Expr::IsNone { value, negate } => Ok(value.code(env)?.is_none() != *negate),
            Expr::Same { a, b, negate } => Ok((a.code(env)? == b.code(env)?) != *negate),
            Expr::VarAtKey {
                base,
                code: Code::Bool,
                key,
                name,
            } => Ok(var_at_key(env, *base, *key, name)? != 0),
            Expr::ColumnKey { values, key, name } => as_bool(&values[key_row(env, *key, name)?]),
            Expr::And(a, b) => Ok(a.bool(env)? && b.bool(env)?),
            Expr::Or(a, b) => Ok(a.bool(env)? || b.bool(env)?),
            Expr::Not(e) => Ok(!e.bool(env)?),
            Expr::Var {
                slot,
                code: Code::Bool,
            } => Ok(env.state.ints[*slot as usize] != 0),
            Expr::VarAt {
                base,
                code: Code::Bool,
                index,
                name,
            } => Ok(var_at(env, *base, index, name)? != 0),
            Expr::Local(slot) => as_bool(env.local(*slot)),
            Expr::Param(i) => as_bool(&env.params[*i as usize]),
            Expr::Function { id, args } => {
                call_function(env, *id, args, |body, env| body.bool(env))
            }
            Expr::Call { op, args } => as_bool(&call::run(*op, args, env)?),
            Expr::UnrolledTest { op, items } => unrolled_test(*op, items, env),
            Expr::ZoneContains(z, x) => {
                let code = x.code(env)?;
                let items = zone(env, z)?;
                Ok(code.is_some_and(|c| items.contains(&c)))
            }
            _ => self.bool_other(env),
        };
        r.map(u64::from)
    }

    /// The rarer nodes of [`Expr::bool`], out of line (see [`Expr::int`]).
    #[inline(never)]
    fn bool_other(&self, env: &Env) -> Result<bool> {
        match self {
            Expr::Equal { a, b, negate } => Ok((a.eval(env)? == b.eval(env)?) != *negate),
            Expr::Column { values, row, name } => as_bool(&values[row_of(row, env, name)?]),
            // Read element by element: a filtered list or the players are not built.
            Expr::In { item, list } => {
                let x = item.eval(env)?;
                let mut found = false;
                list.each(env, |v| {
                    found = *v == x;
                    Ok(if found {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    })
                })?;
                Ok(found)
            }
            Expr::If {
                cond,
                then,
                otherwise,
            } => {
                if cond.bool(env)? {
                    then.bool(env)
                } else {
                    otherwise.bool(env)
                }
            }
            Expr::With { values, body } => env.with_hoisted(values, |env| body.bool(env)),
            _ => as_bool(&self.eval(env)?),
        }
    }

    /// The number of the seat or row this expression stands for: where its value lies in
    /// a variable indexed by players or by a table. `what` names the indexed thing.
    /// An entry of a two-key declaration is found from both keys' numbers.
    #[inline]
    pub fn index(&self, env: &Env, what: &str) -> Result<usize> {
        if let Expr::Pair { .. } = self {
            return self.pair_index(env, what);
        }
        match self.code(env)? {
            Some(code) => Ok(code as usize),
            None => Err(none_error(what)),
        }
    }

    /// The index of an entry of a two-key declaration (kept apart so that `index` stays
    /// small and non-recursive).
    #[inline(never)]
    fn pair_index(&self, env: &Env, what: &str) -> Result<usize> {
        let Expr::Pair {
            first,
            second,
            stride,
        } = self
        else {
            return self.index(env, what);
        };
        Ok(first.index(env, what)? * *stride as usize + second.index(env, what)?)
    }

    /// The code of the player or row this expression stands for, or none.
    #[inline(always)]
    pub fn code(&self, env: &Env) -> Result<Option<u16>> {
        Ok(match self {
            Expr::Local(slot) => code_of(env.local(*slot)),
            Expr::It => code_of(env.it),
            Expr::Var {
                slot,
                code: Code::Player | Code::Row(_),
            } => {
                let n = env.state.ints[*slot as usize];
                (n >= 0).then_some(n as u16)
            }
            Expr::VarAtKey {
                base,
                code: Code::Player | Code::Row(_),
                key,
                name,
            } => {
                let n = var_at_key(env, *base, *key, name)?;
                (n >= 0).then_some(n as u16)
            }
            Expr::ColumnKey { values, key, name } => code_of(&values[key_row(env, *key, name)?]),
            _ => return self.code_of_any(env),
        })
    }

    /// [`Expr::code`] of the less common expressions.
    #[inline(never)]
    fn code_of_any(&self, env: &Env) -> Result<Option<u16>> {
        Ok(match self {
            Expr::RowAt { count, at, .. } => Some(row_at(*count, at, env)?),
            Expr::Outer(depth) => code_of(env.outer_it(*depth)),
            Expr::Param(i) => code_of(&env.params[*i as usize]),
            Expr::Const(v) => code_of(v),
            _ => code_of(&self.eval(env)?),
        })
    }

    /// Evaluates a per-element argument for one element.
    pub fn apply(&self, env: &Env, it: &Value) -> Result<Value> {
        self.body().eval(&env.with_it(it))
    }
    pub fn apply_int(&self, env: &Env, it: &Value) -> Result<i64> {
        self.body().int(&env.with_it(it))
    }
    pub fn apply_bool(&self, env: &Env, it: &Value) -> Result<bool> {
        self.body().bool(&env.with_it(it))
    }
}

impl Expr {
    /// Calls `f` with each element of this list expression in order, until it breaks.
    /// The players, a zone, a constant list and a list written out are read where they
    /// lie: no list is built.
    pub fn each(
        &self,
        env: &Env,
        mut f: impl FnMut(&Value) -> Result<ControlFlow<()>>,
    ) -> Result<()> {
        match self {
            Expr::Players => {
                for p in 0..env.state.names.len() {
                    if f(&Value::Player(p as u8))?.is_break() {
                        break;
                    }
                }
            }
            Expr::Zone(z) => {
                for code in zone(env, z)? {
                    if f(&decode_element(z.of, *code))?.is_break() {
                        break;
                    }
                }
            }
            Expr::Const(Value::List(items)) => {
                for v in items.iter() {
                    if f(v)?.is_break() {
                        break;
                    }
                }
            }
            // A filtered list: the elements of its list that pass, as they come.
            Expr::Filter { list, cond } => list.each_dyn(env, &mut |v| {
                if cond.apply_bool(env, v)? {
                    f(v)
                } else {
                    Ok(ControlFlow::Continue(()))
                }
            })?,
            Expr::RowsWhere { table, groups, key } => {
                let group = key.code(env)?.map_or(0, |c| c as usize + 1);
                for &row in groups.get(group).map_or(&[][..], |g| &g[..]) {
                    if f(&Value::Row(*table, row))?.is_break() {
                        break;
                    }
                }
            }
            Expr::With { values, body } => {
                env.with_hoisted(values, |env| body.each_dyn(env, &mut f))?
            }
            // A list written out (`[t.coach, t.hotel]`): its items one by one.
            Expr::List(items) => {
                for item in items {
                    if f(&item.eval(env)?)?.is_break() {
                        break;
                    }
                }
            }
            _ => {
                for v in as_list(self.eval(env)?)?.iter() {
                    if f(v)?.is_break() {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// [`Expr::each`] with the element function behind a reference: what a nested
    /// `each` (a filter of a filter) calls, so that the generic one is instantiated once.
    fn each_dyn(
        &self,
        env: &Env,
        f: &mut dyn FnMut(&Value) -> Result<ControlFlow<()>>,
    ) -> Result<()> {
        self.each(env, f)
    }

    /// Lambdas evaluate their body; the typed entry points see through them.
    fn body(&self) -> &Expr {
        match self {
            Expr::Lambda(body) => body,
            other => other,
        }
    }
}

/// The arguments a function is called with, evaluated in the caller's environment:
/// up to this many live on the stack.
const STACK_ARGS: usize = 4;

/// Calls function `id` with `args`: evaluates them, then `body` in the function's
/// environment with `run` (the typed entry point the caller needs).
// Out of line: its argument array and frame would otherwise weigh on every
// `int`/`bool`/`eval` call, most of which call no function.
#[inline(never)]
fn call_function<T: FromValue>(
    env: &Env,
    id: crate::ir::FunctionId,
    args: &[Expr],
    run: impl Fn(&Expr, &Env) -> Result<T>,
) -> Result<T> {
    let function = &env.game.functions[id.index()];
    if let (true, Some(memo)) = (args.is_empty(), env.memo) {
        if let Some(Some(v)) = memo.0.borrow().get(id.index()) {
            return T::from_value(v);
        }
        let v = function.body.eval(&env.for_function(&[]))?;
        let value = T::from_value(&v);
        let mut known = memo.0.borrow_mut();
        if known.is_empty() {
            *known = (0..env.game.functions.len()).map(|_| None).collect();
        }
        known[id.index()] = Some(v);
        return value;
    }
    if args.len() <= STACK_ARGS {
        let mut values: [Value; STACK_ARGS] = Default::default();
        for (slot, arg) in values.iter_mut().zip(args) {
            *slot = arg.eval(env)?;
        }
        run(&function.body, &env.for_function(&values[..args.len()]))
    } else {
        let values = args
            .iter()
            .map(|a| a.eval(env))
            .collect::<Result<Vec<_>>>()?;
        run(&function.body, &env.for_function(&values))
    }
}

/// An unrolled `any` or `all` ([`Expr::UnrolledTest`]): the items in order, up to the
/// first that decides.
#[inline(never)]
fn unrolled_test(op: Quantifier, items: &[Expr], env: &Env) -> Result<bool> {
    let decides = match op {
        Quantifier::Any => true,
        Quantifier::All => false,
    };
    for item in items {
        if item.bool(env)? == decides {
            return Ok(decides);
        }
    }
    Ok(!decides)
}

/// An unrolled `sum` or `count_if` ([`Expr::UnrolledTotal`]): the items in order.
#[inline(never)]
fn unrolled_total(op: Total, items: &[Expr], env: &Env) -> Result<i64> {
    match op {
        Total::Sum => {
            let mut total = 0;
            for item in items {
                total = list::sum_add(total, item.int(env)?)?;
            }
            Ok(total)
        }
        Total::Count => {
            let mut n = 0;
            for item in items {
                n += item.bool(env)? as i64;
            }
            Ok(n)
        }
    }
}

/// What a typed entry point reads from a value it did not compute (a function's value
/// remembered for the option listing).
trait FromValue: Sized {
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

fn var_at(env: &Env, base: u32, index: &Expr, name: &str) -> Result<i64> {
    let i = index.index(env, name)?;
    env.state
        .ints
        .get(base as usize + i)
        .copied()
        .ok_or_else(|| RuntimeError::new(format!("{name}[…]: index {i} is out of range")))
}

impl Key {
    /// The seat or row number the key holds (none is an error naming `what`).
    #[inline(always)]
    fn code(self, env: &Env, what: &str) -> Result<usize> {
        let code = match self {
            Key::Local(slot) => code_of(env.local(slot)),
            Key::It => code_of(env.it),
            Key::Param(i) => code_of(&env.params[i as usize]),
            Key::Var(slot) => {
                let n = env.state.ints[slot as usize];
                (n >= 0).then_some(n as u16)
            }
        };
        code.map(usize::from).ok_or_else(|| none_error(what))
    }
}

#[cold]
fn none_error(what: &str) -> RuntimeError {
    RuntimeError::new(format!("{what}[…] indexed by none"))
}

#[inline(always)]
fn var_at_key(env: &Env, base: u32, key: Key, name: &str) -> Result<i64> {
    let i = key.code(env, name)?;
    match env.state.ints.get(base as usize + i) {
        Some(n) => Ok(*n),
        None => Err(out_of_range(name, i)),
    }
}

#[cold]
fn out_of_range(name: &str, i: usize) -> RuntimeError {
    RuntimeError::new(format!("{name}[…]: index {i} is out of range"))
}

#[inline(always)]
fn key_row(env: &Env, key: Key, column: &str) -> Result<usize> {
    match key.code(env, column) {
        Ok(r) => Ok(r),
        Err(_) => Err(no_column(column)),
    }
}

#[cold]
fn no_column(column: &str) -> RuntimeError {
    RuntimeError::new(format!("none has no '{column}'"))
}

fn row_of(row: &Expr, env: &Env, column: &str) -> Result<usize> {
    match row {
        Expr::Local(slot) => match env.local(*slot) {
            Value::Row(_, r) => Ok(*r as usize),
            _ => Err(RuntimeError::new(format!("none has no '{column}'"))),
        },
        _ => match row.eval(env)? {
            Value::Row(_, r) => Ok(r as usize),
            _ => Err(RuntimeError::new(format!("none has no '{column}'"))),
        },
    }
}

/// The elements of a zone instance, where they lie.
#[inline]
pub(crate) fn zone<'e>(env: &'e Env, z: &ZoneRead) -> Result<&'e [u16]> {
    // A single zone, or one instance the optimizer fixed: no index to read.
    if z.index.is_none() {
        return Ok(&env.state.zones[z.base as usize]);
    }
    Ok(&env.state.zones[z.instance(env)?])
}

/// The instance `base + index` of an indexed declaration, its index checked.
fn instance(env: &Env, base: u32, len: u32, index: Option<&Expr>, name: &str) -> Result<usize> {
    let i = match index {
        Some(index) => index.index(env, name)?,
        None => 0,
    };
    if i >= len as usize {
        return Err(RuntimeError::new(format!("{name}: index out of range")));
    }
    Ok(base as usize + i)
}

impl ZoneRead {
    /// Which zone instance of the state this names.
    pub fn instance(&self, env: &Env) -> Result<usize> {
        instance(env, self.base, self.len, self.index.as_deref(), &self.name)
    }
}

impl crate::ir::BoardRead {
    /// Which board instance of the state this names.
    pub fn instance(&self, env: &Env) -> Result<usize> {
        instance(env, self.base, self.len, self.index.as_deref(), &self.name)
    }
}

/// Checked integer arithmetic; division rounds down (toward minus infinity), as rulebooks do.
pub fn arith(op: ArithOp, x: i64, y: i64) -> Option<i64> {
    match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div => x.checked_div_euclid(y),
        ArithOp::Rem => x.checked_rem_euclid(y),
    }
}

#[cold]
fn arith_error(op: ArithOp, x: i64, y: i64, source: &str) -> RuntimeError {
    let what = if y == 0 && matches!(op, ArithOp::Div | ArithOp::Rem) {
        "division by zero".to_string()
    } else {
        "the result is outside the whole numbers a state holds (−2⁶³ to 2⁶³−1)".to_string()
    };
    RuntimeError::new(format!("{x} {} {y}: {what}, in \"{source}\"", op.symbol()))
}

fn players(env: &Env) -> Value {
    let n = env.state.names.len();
    match env.game.seats.get(n) {
        Some(seats) => seats.clone(),
        None => Value::list((0..n).map(|p| Value::Player(p as u8)).collect()),
    }
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

pub(crate) fn as_list(v: Value) -> Result<Arc<Vec<Value>>> {
    match v {
        Value::List(items) => Ok(items),
        Value::None => Ok(Arc::new(Vec::new())),
        other => Err(mistyped("a list", &other)),
    }
}

/// A value of the wrong type where `expected` was needed (a script's result, say).
#[cold]
fn mistyped(expected: &str, found: &Value) -> RuntimeError {
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
            Value::Row(t, r) => out.push_str(&self.tables[t.index()].rows[*r as usize].id),
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
