//! What an expression reads: the environment (game, state, locals, `it`, the function's
//! parameters, lifted values, the memo of functions without parameters).

use super::*;

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
    pub(super) fn value(&self, depth: u8, index: u8) -> Result<Value> {
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

/// The values of functions without parameters for one unchanging state, by function.
/// Empty until a value is kept: most option listings call no such function, and then
/// allocate nothing.
#[derive(Default)]
pub struct Memo(pub(super) std::cell::RefCell<Vec<Option<Value>>>);

impl<'a> Env<'a> {
    /// The root environment of an evaluation: outside a run of the machine, its work
    /// budget starts again from the `work` limit (see [`crate::work`]).
    pub fn new(game: &'a Game, state: &'a State, locals: &'a [Value]) -> Env<'a> {
        crate::work::restart_unless_held(game.limits.work);
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
    pub(super) fn outer_it(&self, depth: u8) -> &Value {
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
    pub(super) fn with_hoisted<T>(
        &self,
        values: &[Expr],
        body: impl FnOnce(&Env) -> Result<T>,
    ) -> Result<T> {
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
    pub(super) fn hoisted_value(&self, depth: u8, index: u8) -> Result<Value> {
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
