//! The native back end: Rust generated from one ruleset's optimized IR ([`generate`]),
//! compiled into the binary, that plays whole games with seeded random agents the way the
//! statement machine does, decision for decision and draw for draw.
//!
//! Generated code keeps the state in the same [`State`] (numbers, zones) and the locals of
//! a procedure as the same [`Value`]s, so that any expression it does not specialize is
//! handed to the walker ([`Cx::int`] and its siblings, by an index into the table of IR
//! nodes the generator collected). Procedures are Rust functions and decisions are taken
//! where they stand: no frames, no suspension, no option list kept in the state. That is
//! why it only plays games to the end with agents that draw from their own streams, and
//! why it stops (`Stop::Bail`) wherever the walker would report an error or the
//! generated code cannot be sure of doing as the walker does: the caller then plays the
//! game again with the walker, which gives the result (or the error) the game has.
//!
//! A compiled ruleset is used for a loaded game only when generating code for that game
//! now gives exactly the text that was compiled ([`fingerprint`]): a variant, another
//! optimizer setting or a change of the interpreter all give another text, and the walker.

mod gen;

pub use gen::{generate, Generated};

use std::sync::Arc;

use crate::eval::{Env, RuntimeError};
use crate::ir::Expr;
use crate::machine::{Outcome, Pending, State};
use crate::model::{Element, Game};
use crate::rng::GameRng;
use crate::runner::GameRecord;
use crate::value::Value;

/// Why generated code stopped before the game's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The game ended at the `end_game` statement at this ruleset path.
    End(&'static str),
    /// The walker would report an error here, or a bound was reached: the game is to be
    /// played again with the walker.
    Bail,
}

/// What a generated procedure gives back.
pub type Flow = Result<(), Stop>;

/// A ruleset compiled into the binary: its generated entry point and what its code was
/// generated from.
pub struct Compiled {
    /// The ruleset's name, for messages.
    pub ruleset: &'static str,
    /// [`fingerprint`] of the generated text.
    pub fingerprint: u64,
    /// Plays setup, then play, to the end.
    pub play: fn(&mut Cx) -> Flow,
}

/// A compiled ruleset that fits a loaded game: the code, and the IR nodes its fallbacks read.
pub struct Native<'g> {
    pub compiled: &'static Compiled,
    exprs: Vec<&'g Expr>,
    max_depth: usize,
}

/// FNV-1a of the generated text: what a compiled ruleset is matched by.
pub fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The compiled code among `compiled` that was generated from exactly this game, if any.
pub fn find<'g>(game: &'g Game, compiled: &'static [Compiled]) -> Option<Native<'g>> {
    let generated = generate(game).ok()?;
    let print = fingerprint(&generated.text);
    let compiled = compiled.iter().find(|c| c.fingerprint == print)?;
    Some(Native {
        compiled,
        exprs: generated.exprs,
        max_depth: generated.max_depth,
    })
}

/// The agents of a natively played game: one uniform random agent per seat, each drawing
/// from the stream `roster` gives it (`GameRng::derived(seed, seat + 1)`).
pub struct RandomSeats(pub Vec<GameRng>);

impl Native<'_> {
    /// Plays one game from the start to its end, as `runner::run` would with
    /// [`crate::agent::RandomAgent`]s drawing from `seats` and chance drawn from `rng`,
    /// counting steps only. None: the game is to be played with the walker (see [`Stop::Bail`]).
    pub fn play(
        &self,
        game: &Game,
        names: Vec<String>,
        rng: GameRng,
        seats: RandomSeats,
        max_steps: u64,
    ) -> Option<(GameRecord, State)> {
        let n = names.len();
        if n < game.meta.min_players as usize
            || n > game.meta.max_players as usize
            || seats.0.len() != n
        {
            return None;
        }
        // The walker refuses a call nested deeper than its limit; generated code does not
        // count frames, so it runs only where the deepest nesting the ruleset can reach is
        // within it.
        if self.max_depth > game.limits.nested_calls {
            return None;
        }
        let state = game.initial_state(names).ok()?;
        let mut cx = Cx {
            game,
            state,
            exprs: &self.exprs,
            rng,
            seats: seats.0,
            decisions: 0,
            chances: 0,
            taken: 0,
            max_steps,
            statements: 0,
            statement_limit: game.limits.statements_between_steps,
            spare: Vec::with_capacity(16),
        };
        let ended_by = match (self.compiled.play)(&mut cx) {
            Ok(()) => None,
            Err(Stop::End(origin)) => Some(Arc::from(origin)),
            Err(Stop::Bail) => return None,
        };
        // The walker checks the totals after the last step; the runner then asks for the
        // status once more (a step of its count) before it sees the end.
        cx.check_conserved().ok()?;
        cx.step_bound().ok()?;
        game.finish(&mut cx.state, ended_by).ok()?;
        let Pending::Over(outcome) = &cx.state.pending else {
            return None;
        };
        let outcome: Outcome = (**outcome).clone();
        let record = GameRecord {
            outcome,
            decisions: cx.decisions,
            chances: cx.chances,
            steps: Vec::new(),
            log: Vec::new(),
        };
        Some((record, cx.state))
    }
}

/// What generated code runs against: the game, its state, the generators and the counts
/// the runner keeps.
pub struct Cx<'a> {
    pub game: &'a Game,
    pub state: State,
    exprs: &'a [&'a Expr],
    rng: GameRng,
    seats: Vec<GameRng>,
    decisions: u64,
    chances: u64,
    /// Steps taken, as the runner counts them against `max_steps`.
    taken: u64,
    max_steps: u64,
    /// Statements run since the last decision or chance point, and how many may run.
    statements: u64,
    statement_limit: u64,
    /// The memory of the option lists (each option its group and its element's code, or
    /// its index in the listing's values).
    spare: Vec<(u16, u32)>,
}

fn bail<T>(_: RuntimeError) -> Result<T, Stop> {
    Err(Stop::Bail)
}

impl Cx<'_> {
    fn env<'e>(&'e self, locals: &'e [Value]) -> Env<'e> {
        Env::new(self.game, &self.state, locals)
    }

    /// A number the walker computes: IR node `id` of the generator's table.
    #[inline(never)]
    pub fn int(&self, id: usize, locals: &[Value]) -> Result<i64, Stop> {
        self.exprs[id].int(&self.env(locals)).or_else(bail)
    }

    #[inline(never)]
    pub fn truth(&self, id: usize, locals: &[Value]) -> Result<bool, Stop> {
        self.exprs[id].bool(&self.env(locals)).or_else(bail)
    }

    #[inline(never)]
    pub fn value(&self, id: usize, locals: &[Value]) -> Result<Value, Stop> {
        self.exprs[id].eval(&self.env(locals)).or_else(bail)
    }

    /// [`Cx::int`] inside a per-element argument, whose element is `it`.
    #[inline(never)]
    pub fn int_it(&self, id: usize, locals: &[Value], it: &Value) -> Result<i64, Stop> {
        self.exprs[id]
            .int(&self.env(locals).with_it(it))
            .or_else(bail)
    }

    #[inline(never)]
    pub fn truth_it(&self, id: usize, locals: &[Value], it: &Value) -> Result<bool, Stop> {
        self.exprs[id]
            .bool(&self.env(locals).with_it(it))
            .or_else(bail)
    }

    #[inline(never)]
    pub fn value_it(&self, id: usize, locals: &[Value], it: &Value) -> Result<Value, Stop> {
        self.exprs[id]
            .eval(&self.env(locals).with_it(it))
            .or_else(bail)
    }

    #[inline(never)]
    pub fn code_it(&self, id: usize, locals: &[Value], it: &Value) -> Result<i64, Stop> {
        Ok(self.exprs[id]
            .code(&self.env(locals).with_it(it))
            .or_else(bail)?
            .map_or(-1, i64::from))
    }

    /// A seat or row number, or -1 for none.
    #[inline(never)]
    pub fn code(&self, id: usize, locals: &[Value]) -> Result<i64, Stop> {
        Ok(self.exprs[id]
            .code(&self.env(locals))
            .or_else(bail)?
            .map_or(-1, i64::from))
    }

    /// One statement run: the walker stops a run of statements without a step at its limit.
    #[inline(always)]
    pub fn tick(&mut self) -> Flow {
        self.statements += 1;
        if self.statements > self.statement_limit {
            return Err(Stop::Bail);
        }
        Ok(())
    }

    /// The number at `base + key` (a key of none is an error, as is a number past the state).
    #[inline(always)]
    pub fn at(&self, base: usize, key: i64) -> Result<i64, Stop> {
        if key < 0 {
            return Err(Stop::Bail);
        }
        self.state
            .ints
            .get(base + key as usize)
            .copied()
            .ok_or(Stop::Bail)
    }

    pub fn players(&self) -> i64 {
        self.state.names.len() as i64
    }

    /// Before every step: the runner's bound on steps, and (in debug builds, after the
    /// first step) the conserved totals the walker checks after applying one.
    fn step_bound(&mut self) -> Flow {
        if self.taken >= self.max_steps {
            return Err(Stop::Bail);
        }
        self.taken += 1;
        Ok(())
    }

    fn check_conserved(&self) -> Flow {
        if cfg!(debug_assertions)
            && self.taken > 0
            && !self.game.conserve.is_empty()
            && self.game.check_conserved(&self.state).is_err()
        {
            return Err(Stop::Bail);
        }
        Ok(())
    }

    /// An empty option list (its memory serves every decision of the game).
    pub fn options(&mut self) -> Vec<(u16, u32)> {
        let mut options = std::mem::take(&mut self.spare);
        options.clear();
        options
    }

    /// The decision of `player` among `options`: the random agent's draw.
    pub fn decide(&mut self, player: i64, options: Vec<(u16, u32)>) -> Result<(u16, u32), Stop> {
        if player < 0 || player >= self.players() || options.is_empty() {
            return Err(Stop::Bail);
        }
        self.check_conserved()?;
        self.step_bound()?;
        let i = self.seats[player as usize].below(options.len() as u64) as usize;
        let chosen = options[i];
        self.spare = options;
        self.decisions += 1;
        self.state.steps += 1;
        self.statements = 0;
        Ok(chosen)
    }

    /// A `shuffle:` (and a `draw:`'s refilled pile): a chance point when the zone holds
    /// two elements or more.
    pub fn shuffle(&mut self, zone: usize) -> Flow {
        if self.state.zones[zone].len() > 1 {
            self.check_conserved()?;
            self.step_bound()?;
            self.rng.shuffle(&mut self.state.zones[zone]);
            self.chances += 1;
            self.state.steps += 1;
            self.statements = 0;
        }
        Ok(())
    }

    /// Zone instance `base + index` of a declaration with `len` instances.
    #[inline(always)]
    pub fn instance(base: usize, len: usize, index: i64) -> Result<usize, Stop> {
        if index < 0 || index as usize >= len {
            return Err(Stop::Bail);
        }
        Ok(base + index as usize)
    }

    pub fn len(&self, zone: usize) -> i64 {
        self.state.zones[zone].len() as i64
    }

    pub fn count(&self, zone: usize, code: i64) -> i64 {
        if code < 0 {
            return 0;
        }
        self.state.zones[zone]
            .iter()
            .filter(|e| **e as i64 == code)
            .count() as i64
    }

    pub fn contains(&self, zone: usize, code: i64) -> bool {
        code >= 0 && self.state.zones[zone].iter().any(|e| *e as i64 == code)
    }

    /// The code a zone of `of` stores for `item`, as the walker's `zone_code` checks it:
    /// a row of the zone's table or a seat of the game read here, anything else there.
    #[inline(always)]
    fn zone_code(&self, of: Element, item: &Value) -> Result<u16, Stop> {
        match (of, item) {
            (Element::Row(t), Value::Row(u, r))
                if t == *u && (*r as usize) < self.game.tables[t.index()].rows.len() =>
            {
                Ok(*r)
            }
            (Element::Player, Value::Player(p)) if (*p as usize) < self.state.names.len() => {
                Ok(*p as u16)
            }
            _ => self
                .game
                .zone_code(of, item, &self.state.names)
                .or_else(bail),
        }
    }

    /// `move: { item }`: the first element equal to `item` to the end of `to`.
    pub fn move_item(&mut self, from: usize, to: usize, of: Element, item: &Value) -> Flow {
        let code = self.zone_code(of, item)?;
        let Some(at) = self.state.zones[from].iter().position(|e| *e == code) else {
            return Err(Stop::Bail);
        };
        self.state.move_to_end(from, to, at..at + 1);
        Ok(())
    }

    /// The first `n` elements of `from` (fewer if it holds fewer) to the end of `to`.
    pub fn move_top(&mut self, from: usize, to: usize, n: i64) {
        let n = n.clamp(0, self.state.zones[from].len() as i64) as usize;
        self.state.move_to_end(from, to, 0..n);
    }

    /// A `draw:`'s round: the top element of `from` to the end of `to`.
    pub fn move_one(&mut self, from: usize, to: usize) {
        self.state.move_to_end(from, to, 0..1);
    }

    pub fn move_all(&mut self, from: usize, to: usize) {
        let n = self.state.zones[from].len();
        self.state.move_to_end(from, to, 0..n);
    }

    pub fn push(&mut self, zone: usize, of: Element, value: &Value) -> Flow {
        let code = self.zone_code(of, value)?;
        self.game.check_elements(&self.state, 1).or_else(bail)?;
        self.state.zones[zone].push(code);
        Ok(())
    }

    pub fn remove_at(&mut self, zone: usize, at: i64) -> Flow {
        if at < 0 || at as usize >= self.state.zones[zone].len() {
            return Err(Stop::Bail);
        }
        self.state.zones[zone].remove(at as usize);
        self.state.forget_moved();
        Ok(())
    }

    pub fn remove_item(&mut self, zone: usize, item: &Value) {
        if let Some(code) = crate::eval::code_of(item) {
            if let Some(at) = self.state.zones[zone].iter().position(|e| *e == code) {
                self.state.zones[zone].remove(at);
            }
        }
        self.state.forget_moved();
    }

    /// What a variable of type player or row stores for `value` (checked as the walker does).
    pub fn stored(&self, var: usize, value: &Value) -> Result<i64, Stop> {
        self.game
            .slot_value(&self.game.vars[var], value, &self.state.names)
            .or_else(bail)
    }

    /// The element of zone `zone` at `i`, as a value.
    pub fn element(&self, zone: usize, i: usize, of: Element) -> Value {
        crate::eval::decode_element(of, self.state.zones[zone][i])
    }
}

/// Helpers generated code calls: checked arithmetic, as the walker checks it.
pub mod rt {
    pub use super::{Cx, Flow, Stop};
    pub use crate::ir::TableId;
    pub use crate::model::Element;
    pub use crate::value::Value;

    pub const NONE: Value = Value::None;

    #[inline(always)]
    pub fn add(a: i64, b: i64) -> Result<i64, Stop> {
        a.checked_add(b).ok_or(Stop::Bail)
    }
    #[inline(always)]
    pub fn sub(a: i64, b: i64) -> Result<i64, Stop> {
        a.checked_sub(b).ok_or(Stop::Bail)
    }
    #[inline(always)]
    pub fn mul(a: i64, b: i64) -> Result<i64, Stop> {
        a.checked_mul(b).ok_or(Stop::Bail)
    }
    #[inline(always)]
    pub fn div(a: i64, b: i64) -> Result<i64, Stop> {
        a.checked_div_euclid(b).ok_or(Stop::Bail)
    }
    #[inline(always)]
    pub fn rem(a: i64, b: i64) -> Result<i64, Stop> {
        a.checked_rem_euclid(b).ok_or(Stop::Bail)
    }
    #[inline(always)]
    pub fn neg(a: i64) -> Result<i64, Stop> {
        a.checked_neg().ok_or(Stop::Bail)
    }
    /// A term of `sum`, checked as `sum` checks it.
    #[inline(always)]
    pub fn sum_add(total: i64, x: i64) -> Result<i64, Stop> {
        crate::eval::list::sum_add(total, x).map_err(|_| Stop::Bail)
    }
    #[inline(always)]
    pub fn as_int(v: &Value) -> Result<i64, Stop> {
        match v {
            Value::Int(n) => Ok(*n),
            _ => Err(Stop::Bail),
        }
    }
    #[inline(always)]
    pub fn as_bool(v: &Value) -> Result<bool, Stop> {
        match v {
            Value::Bool(b) => Ok(*b),
            _ => Err(Stop::Bail),
        }
    }
    pub fn as_list(v: Value) -> Result<std::sync::Arc<Vec<Value>>, Stop> {
        crate::eval::as_list(v).map_err(|_| Stop::Bail)
    }
    /// A seat or row number, or -1 for none.
    #[inline(always)]
    pub fn code(v: &Value) -> i64 {
        crate::eval::code_of(v).map_or(-1, i64::from)
    }
    /// A stored seat or row number read back as a code (negative: none).
    #[inline(always)]
    pub fn stored_code(n: i64) -> i64 {
        if n >= 0 {
            n as u16 as i64
        } else {
            -1
        }
    }
    /// An index: a code that must not be none.
    #[inline(always)]
    pub fn index(code: i64) -> Result<i64, Stop> {
        if code < 0 {
            Err(Stop::Bail)
        } else {
            Ok(code)
        }
    }
    /// An element of a zone of `of`, from its code.
    #[inline(always)]
    pub fn element_value(of: Element, code: u32) -> Value {
        crate::eval::decode_element(of, code as u16)
    }
    pub fn player(n: i64) -> Value {
        crate::ir::Code::Player.decode(n)
    }
    pub fn row(t: TableId, n: i64) -> Value {
        crate::ir::Code::Row(t).decode(n)
    }
    /// A column's value for row `r`, when its values are not numbers.
    #[inline(always)]
    pub fn column_value(values: &[Value], r: i64) -> Result<Value, Stop> {
        if r < 0 {
            return Err(Stop::Bail);
        }
        values.get(r as usize).cloned().ok_or(Stop::Bail)
    }
    /// `take(list, n)`, as the walker's: a list no one else holds (one just built) is cut
    /// where it lies, another is copied.
    pub fn take_list(list: Value, n: i64) -> Result<Value, Stop> {
        let mut items = as_list(list)?;
        let n = n.clamp(0, items.len() as i64) as usize;
        match std::sync::Arc::get_mut(&mut items) {
            Some(own) => own.truncate(n),
            None => return Ok(Value::list(items[..n].to_vec())),
        }
        Ok(Value::List(items))
    }
    /// `count(list, x)`: how many elements of a list equal `x`.
    pub fn count_in(list: &Value, x: &Value) -> i64 {
        match list {
            Value::List(items) => items.iter().filter(|v| *v == x).count() as i64,
            _ => 0,
        }
    }
    /// A column's value for row `r` (an index past the column is the walker's error too).
    #[inline(always)]
    pub fn column<T: Copy>(values: &[T], r: i64) -> Result<T, Stop> {
        if r < 0 {
            return Err(Stop::Bail);
        }
        values.get(r as usize).copied().ok_or(Stop::Bail)
    }
}
