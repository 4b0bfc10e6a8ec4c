//! Compiled code the step machine runs in place of walking parts of a game's IR. The
//! machine knows only this interface; `frontier-engine` compiles a game and implements it.
//! Whatever it runs must give exactly what the walker gives (the engine's differential
//! tests hold it to that), and it may decline any part, which the walker then runs.

use super::{Journal, Pending, State};
use crate::eval::{Env, RuntimeError};
use crate::model::{BlockId, Game, ProcId, StmtKind};
use crate::value::Value;

/// A game's compiled code, as the step machine asks for it ([`crate::Game::apply_with`]).
pub trait CompiledCode: Sync {
    /// Lists into `options` (empty) the options of the `choose` statement at `at` (block,
    /// statement), in `env` (its frame's), as the walker lists them: `(group, element)`
    /// in the ruleset's order. `None` when this code does not list that decision: the
    /// walker lists it (with `options` left empty).
    fn list_options(
        &self,
        at: (BlockId, u32),
        env: &Env,
        options: &mut Vec<(u16, Value)>,
    ) -> Option<Result<(), RuntimeError>>;

    /// The condition of the `if` statement at `at`, in `env`, as the walker gives it;
    /// `None` when this code does not evaluate it (the walker does).
    fn condition(&self, at: (BlockId, u32), env: &Env) -> Option<Result<bool, RuntimeError>>;

    /// The number the assignment of a number variable at `at` computes (its value:
    /// what is set, or what is added), in `env`, as the walker gives it; `None` when this
    /// code does not evaluate it (the walker does).
    fn number(&self, at: (BlockId, u32), env: &Env) -> Option<Result<i64, RuntimeError>>;

    /// Runs statements of the top frame's block from its next one (`run.pc()`), as the
    /// walker would run them, for as long as this code covers them; `None` when it does
    /// not run that statement itself (the walker runs it).
    fn run_block(&self, run: &mut BlockRun) -> Option<Result<BlockRan, RuntimeError>>;
}

/// How far [`CompiledCode::run_block`] ran a frame's block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockRan {
    /// Up to statement `pc` (the block's length: to its end), which the frame runs next.
    At(u32),
    /// Up to a statement [`BlockRun::exec_top`] ran that entered or left a frame, or
    /// suspended the state: the frame is where that statement left it.
    Moved,
}

/// A run of compiled statements in the top frame's block: what they read and change,
/// and the walker's statements, limits and journal they call on. Statements the code runs
/// in line count towards the statement limit and are covered as the walker's are.
pub struct BlockRun<'r, 'j> {
    pub(super) game: &'r Game,
    pub(super) state: &'r mut State,
    pub(super) journal: &'r mut Journal<'j>,
    pub(super) code: &'r dyn CompiledCode,
    /// Statements run since the last suspension (the run loop's count).
    pub(super) steps: &'r mut u64,
    pub(super) block: BlockId,
    pub(super) pc: u32,
    pub(super) base: usize,
}

impl BlockRun<'_, '_> {
    pub fn game(&self) -> &Game {
        self.game
    }
    /// The block of the top frame.
    pub fn block(&self) -> BlockId {
        self.block
    }
    /// Its next statement.
    pub fn pc(&self) -> u32 {
        self.pc
    }
    /// Where its locals start.
    pub fn base(&self) -> usize {
        self.base
    }
    pub fn state(&self) -> &State {
        self.state
    }
    /// The state's numbers, to set in place.
    pub fn ints_mut(&mut self) -> &mut [i64] {
        &mut self.state.ints
    }
    /// Every frame's locals, to read and write in place (their number changes with the
    /// calls [`BlockRun::enter_call`], [`BlockRun::leave_call`] and a call
    /// [`BlockRun::exec_top`] runs make and leave).
    pub fn locals_mut(&mut self) -> &mut [Value] {
        &mut self.state.locals
    }
    /// The statements run since the last suspension, and the most allowed.
    pub fn steps(&mut self) -> (&mut u64, u64) {
        (self.steps, self.game.limits.statements_between_steps)
    }
    /// Whether the journal collects `rule:` references (then every statement is covered).
    pub fn covering(&self) -> bool {
        self.journal.is_covering()
    }
    /// Whether the journal keeps a log (else a `log:` statement does nothing).
    pub fn logging(&self) -> bool {
        self.journal.is_on()
    }

    /// The environment of statements whose locals start at `base`.
    pub fn env(&self, base: usize) -> Env<'_> {
        Env::new(self.game, self.state, &self.state.locals[base..])
    }

    /// The statement at `at`.
    fn stmt(&self, (block, pc): (BlockId, u32)) -> &crate::model::Stmt {
        &self.game.blocks[block.index()][pc as usize]
    }

    /// `error` located at the statement at `at`, as the run loop locates it.
    pub fn located(&self, at: (BlockId, u32), error: RuntimeError) -> RuntimeError {
        error.at(&self.game.location(&self.stmt(at).origin))
    }

    /// The run loop's error for a statement past the limit, at `at`.
    pub fn endless(&self, at: (BlockId, u32)) -> RuntimeError {
        self.game.endless(&self.stmt(at).origin)
    }

    /// Covers the statement at `at` (its `rule:`), as the run loop does.
    pub fn cover(&mut self, at: (BlockId, u32)) {
        let rule = &self.game.blocks[at.0.index()][at.1 as usize].rule;
        self.journal.cover(rule);
    }

    /// Runs the top frame's statement `pc` with the walker, as the run loop runs it
    /// (counted, covered, the frame's next statement set past it): any statement, which
    /// may enter or leave frames or suspend the state. Whether the frame goes on with
    /// its next statement (the same frame on top, the state running).
    pub fn exec_top(&mut self, pc: u32) -> Result<bool, RuntimeError> {
        let depth = self.state.stack.len();
        self.game.step(
            self.state,
            (self.block, pc),
            self.base,
            self.journal,
            Some(self.code),
            self.steps,
        )?;
        Ok(self.state.stack.len() == depth
            && matches!(self.state.pending, Pending::Running)
            && self
                .state
                .stack
                .last()
                .is_some_and(|f| f.block == self.block && f.pc == pc + 1))
    }

    /// Runs the statement at `at`, whose locals start at `base`, with the walker: a
    /// statement that enters no frame and leaves none and cannot suspend the state (an
    /// assignment, a zone's statement, a log line, an award, a draw without refill). The
    /// caller has counted and covered it; an error is located at it.
    pub fn exec_leaf(&mut self, at: (BlockId, u32), base: usize) -> Result<(), RuntimeError> {
        debug_assert!(
            is_leaf(&self.stmt(at).kind),
            "exec_leaf runs a leaf statement"
        );
        self.game
            .exec(self.state, at.0, at.1, base, self.journal, Some(self.code))
            .map_err(|e| self.located(at, e))
    }

    /// Enters procedure `proc` called in line from statements `depth` calls below the top
    /// frame's: the call counted against the nesting limit as if it had its frame, its
    /// locals made (none), its `rule:` covered. Where its locals start.
    pub fn enter_call(
        &mut self,
        at: (BlockId, u32),
        proc: ProcId,
        depth: usize,
    ) -> Result<usize, RuntimeError> {
        self.game
            .call_locals(self.state, self.journal, proc, depth)
            .map_err(|e| self.located(at, e))
    }

    /// `move` of the element `code` from zone instance `from` to the end of `to`, as
    /// the walker's `move` of an item does; false, with nothing changed, when `from`
    /// does not hold it (then the walker's statement says so).
    pub fn move_code(&mut self, from: usize, to: usize, code: u16) -> bool {
        match super::zones::position(self.state, from, code) {
            Some(at) => {
                self.state.move_to_end(from, to, at..at + 1);
                true
            }
            None => false,
        }
    }

    /// `push` of `code` at the end of zone instance `zone`, as the walker's `push` does;
    /// an error is located at `at`.
    pub fn push_code(
        &mut self,
        at: (BlockId, u32),
        zone: usize,
        code: u16,
    ) -> Result<(), RuntimeError> {
        self.game
            .push_code(self.state, zone, code)
            .map_err(|e| self.located(at, e))
    }

    /// Leaves a procedure called in line: its locals, from `base`, freed.
    pub fn leave_call(&mut self, base: usize) {
        self.state.locals.truncate(base);
    }
}

/// Whether a statement enters or leaves no frame and never suspends the state: what
/// [`BlockRun::exec_leaf`] runs. (A draw with a pile to refill from may stop for its
/// shuffle.)
pub fn is_leaf(kind: &StmtKind) -> bool {
    match kind {
        StmtKind::Assign { .. }
        | StmtKind::Move { .. }
        | StmtKind::Push { .. }
        | StmtKind::Remove { .. }
        | StmtKind::Clear { .. }
        | StmtKind::Reveal { .. }
        | StmtKind::Place { .. }
        | StmtKind::Log(_)
        | StmtKind::Award(_) => true,
        StmtKind::Draw(draw) => draw.refill.is_none(),
        StmtKind::Shuffle { .. }
        | StmtKind::If { .. }
        | StmtKind::ForEach { .. }
        | StmtKind::Repeat { .. }
        | StmtKind::While { .. }
        | StmtKind::RepeatUpTo { .. }
        | StmtKind::EndLoop
        | StmtKind::Choose(_)
        | StmtKind::Random { .. }
        | StmtKind::Call { .. }
        | StmtKind::Return(_)
        | StmtKind::EndGame => false,
    }
}

/// What steps a game: the walker alone, or the walker with code compiled from the game.
/// Both give the same steps; front ends that play many games take a stepper so that the
/// compiled code runs wherever it is available.
#[derive(Clone, Copy)]
pub struct Stepper<'g> {
    game: &'g crate::Game,
    code: Option<&'g dyn CompiledCode>,
}

impl<'g> Stepper<'g> {
    /// The walker alone.
    pub fn walker(game: &'g crate::Game) -> Stepper<'g> {
        Stepper { game, code: None }
    }

    /// The walker with `code`, compiled from `game`.
    pub fn compiled(game: &'g crate::Game, code: &'g dyn CompiledCode) -> Stepper<'g> {
        Stepper {
            game,
            code: Some(code),
        }
    }

    pub fn game(&self) -> &'g crate::Game {
        self.game
    }

    /// [`crate::Game::apply`], with the compiled code where there is some.
    pub fn apply(
        &self,
        state: &mut crate::State,
        choice: crate::Choice,
        journal: &mut super::Journal,
    ) -> Result<(), super::ApplyError> {
        match self.code {
            Some(code) => self.game.apply_with(state, choice, journal, code),
            None => self.game.apply(state, choice, journal),
        }
    }
}
