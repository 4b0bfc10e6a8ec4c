//! What compiled statements call at run time: their context made from a `BlockRun`, and
//! the helpers through which they run the walker's statements, make and free a called
//! procedure's locals, and change zones.

use frontier_interpreter::eval::RuntimeError;
use frontier_interpreter::ir::Expr;
use frontier_interpreter::machine::BlockRun;
use frontier_interpreter::model::{BlockId, ProcId};
use frontier_interpreter::value::layout;
use frontier_interpreter::Value;

use super::{Kind, FAILED, OK};
use crate::expr::Ctx;

impl<'a> Ctx<'a> {
    /// The context of statements run in `run`.
    pub(crate) fn for_statements(run: &mut BlockRun) -> Ctx<'a> {
        let covering = run.covering() as i64;
        let logging = run.logging() as i64;
        let base = run.base() as i64;
        let state: *const frontier_interpreter::State = run.state();
        // SAFETY: the state is the run's, alive while its code runs; the context reads
        // it through this pointer only between the code's own writes.
        let reading = Ctx::reading(unsafe { &*state });
        // Statements write the numbers: their address is taken for writing.
        let ints = run.ints_mut().as_mut_ptr();
        let locals = run.locals_mut();
        let (locals, locals_len) = (locals.as_mut_ptr(), locals.len() as u64);
        let steps: *mut u64 = run.steps().0;
        Ctx {
            ints,
            run: run as *mut BlockRun as *mut (),
            base,
            locals,
            locals_len,
            steps,
            covering,
            logging,
            ..reading
        }
    }

    /// The run the statements' code runs in, borrowed apart from the context.
    ///
    /// # Safety
    /// Only for a context made by [`Ctx::for_statements`], while its code runs; one
    /// borrow at a time.
    unsafe fn run<'r>(&self) -> &'r mut BlockRun<'static, 'static> {
        // SAFETY: as the caller promises; the lifetimes are the run's, which outlives
        // every helper call of its code.
        unsafe { &mut *(self.run as *mut BlockRun<'static, 'static>) }
    }

    /// Reads the locals' address and count again (a call made or freed some).
    fn sync_locals(&mut self) {
        // SAFETY: statements' helpers call this on their own context.
        let locals = unsafe { self.run() }.locals_mut();
        self.locals = locals.as_mut_ptr();
        self.locals_len = locals.len() as u64;
    }

    /// Keeps `error` for the run loop; the helper's status.
    fn fail(&mut self, error: RuntimeError) -> i64 {
        self.failure = Some(error);
        FAILED
    }
}

fn at(block: i64, pc: i64) -> (BlockId, u32) {
    (BlockId::at(block as usize), pc as u32)
}

/// Runs the frame's statement `pc` with the walker: 1 when the block goes on with the
/// next, 0 (moved) when not, or FAILED.
pub(super) unsafe extern "C" fn exec_top(cx: *mut Ctx, pc: i64) -> i64 {
    // SAFETY: block code passes its own context, made by `for_statements`.
    let cx = unsafe { &mut *cx };
    let result = unsafe { cx.run() }.exec_top(pc as u32);
    cx.sync_locals();
    match result {
        Ok(true) => 1,
        Ok(false) => 0,
        Err(e) => cx.fail(e),
    }
}

/// Runs the leaf statement at (block, pc), its locals from `base`, with the walker.
pub(super) unsafe extern "C" fn exec_leaf(cx: *mut Ctx, block: i64, pc: i64, base: i64) -> i64 {
    // SAFETY: as in `exec_top`.
    let cx = unsafe { &mut *cx };
    let result = unsafe { cx.run() }.exec_leaf(at(block, pc), base as usize);
    cx.sync_locals();
    match result {
        Ok(()) => OK,
        Err(e) => cx.fail(e),
    }
}

/// The statement at (block, pc) passed the statement limit.
pub(super) unsafe extern "C" fn endless(cx: *mut Ctx, block: i64, pc: i64) -> i64 {
    // SAFETY: as in `exec_top`.
    let cx = unsafe { &mut *cx };
    let error = unsafe { cx.run() }.endless(at(block, pc));
    cx.fail(error)
}

pub(super) unsafe extern "C" fn cover(cx: *mut Ctx, block: i64, pc: i64) -> i64 {
    // SAFETY: as in `exec_top`.
    unsafe { (*cx).run() }.cover(at(block, pc));
    OK
}

/// The walker's value of `e` (of kind `kind`) at `out`, or FAILED with its error
/// located at (block, pc).
pub(super) unsafe extern "C" fn walker_value(
    cx: *mut Ctx,
    e: *const Expr,
    kind: i64,
    block: i64,
    pc: i64,
    out: *mut i64,
) -> i64 {
    // SAFETY: as in `exec_top`; `e` is a node of the game the code was compiled from.
    let (cx, e) = unsafe { (&mut *cx, &*e) };
    let run = unsafe { cx.run() };
    let env = run.env(cx.base as usize);
    let value = match kind {
        k if k == Kind::Int as i64 => e.int(&env),
        k if k == Kind::Bool as i64 => e.bool(&env).map(i64::from),
        _ => e.code(&env).map(|c| c.map_or(-1, i64::from)),
    };
    match value {
        Ok(v) => {
            // SAFETY: `out` is the code's stack slot for this call.
            unsafe { *out = v };
            OK
        }
        Err(error) => {
            let error = run.located(at(block, pc), error);
            cx.fail(error)
        }
    }
}

/// Enters a closed procedure called in line: where its locals start, or FAILED.
pub(super) unsafe extern "C" fn enter_call(
    cx: *mut Ctx,
    block: i64,
    pc: i64,
    proc: i64,
    depth: i64,
) -> i64 {
    // SAFETY: as in `exec_top`.
    let cx = unsafe { &mut *cx };
    let result =
        unsafe { cx.run() }.enter_call(at(block, pc), ProcId::at(proc as usize), depth as usize);
    cx.sync_locals();
    match result {
        Ok(base) => base as i64,
        Err(e) => cx.fail(e),
    }
}

pub(super) unsafe extern "C" fn leave_call(cx: *mut Ctx, base: i64) -> i64 {
    // SAFETY: as in `exec_top`.
    let cx = unsafe { &mut *cx };
    unsafe { cx.run() }.leave_call(base as usize);
    cx.sync_locals();
    OK
}

/// Local `abs` set to the walker's value of `e` (in the locals from `cx.base`).
pub(super) unsafe extern "C" fn set_local(
    cx: *mut Ctx,
    e: *const Expr,
    abs: i64,
    block: i64,
    pc: i64,
) -> i64 {
    // SAFETY: as in `walker_value`.
    let (cx, e) = unsafe { (&mut *cx, &*e) };
    let run = unsafe { cx.run() };
    match e.eval(&run.env(cx.base as usize)) {
        Ok(v) => {
            run.locals_mut()[abs as usize] = v;
            OK
        }
        Err(error) => {
            let error = run.located(at(block, pc), error);
            cx.fail(error)
        }
    }
}

/// Local `abs` set to the value of tag `tag` (a row's table in its bits from 8 on) and
/// payload `v`, dropping what it held.
pub(super) unsafe extern "C" fn write_slow(cx: *mut Ctx, abs: i64, tag: i64, v: i64) -> i64 {
    let value = match (tag & 0xff) as u8 {
        layout::TAG_INT => Value::Int(v),
        layout::TAG_BOOL => Value::Bool(v != 0),
        layout::TAG_PLAYER => Value::Player(v as u8),
        layout::TAG_ROW => Value::Row(
            frontier_interpreter::id::TableId::at((tag >> 8) as usize),
            v as u16,
        ),
        _ => Value::None,
    };
    // SAFETY: as in `exec_top`.
    unsafe { (*cx).run() }.locals_mut()[abs as usize] = value;
    OK
}

/// A `for_each` list the walker evaluates (in the locals from `cx.base`), kept for the
/// loop: its length, or FAILED.
pub(super) unsafe extern "C" fn list_begin(
    cx: *mut Ctx,
    e: *const Expr,
    block: i64,
    pc: i64,
) -> i64 {
    // SAFETY: as in `walker_value`.
    let (cx, e) = unsafe { (&mut *cx, &*e) };
    let run = unsafe { cx.run() };
    let list = e
        .eval(&run.env(cx.base as usize))
        .and_then(frontier_interpreter::eval::as_list);
    match list {
        Ok(list) => {
            let n = list.len() as i64;
            cx.lists.push(list);
            n
        }
        Err(error) => {
            let error = run.located(at(block, pc), error);
            cx.fail(error)
        }
    }
}

/// Local `abs` set to element `i` of the innermost `for_each` list.
pub(super) unsafe extern "C" fn list_bind(cx: *mut Ctx, i: i64, abs: i64) -> i64 {
    // SAFETY: as in `exec_top`.
    let cx = unsafe { &mut *cx };
    let value = cx.lists.last().expect("a loop's list")[i as usize].clone();
    unsafe { cx.run() }.locals_mut()[abs as usize] = value;
    OK
}

pub(super) unsafe extern "C" fn list_end(cx: *mut Ctx) -> i64 {
    // SAFETY: as in `exec_top`.
    unsafe { (*cx).lists.pop() };
    OK
}

/// `move` of `code` from zone instance `from` to the end of `to`: 1, or 0 when `from`
/// does not hold it (nothing changed).
pub(super) unsafe extern "C" fn move_code(cx: *mut Ctx, from: i64, to: i64, code: i64) -> i64 {
    // SAFETY: as in `exec_top`; the instances were checked against their zones.
    let moved = unsafe { (*cx).run() }.move_code(from as usize, to as usize, code as u16);
    moved as i64
}

/// `push` of `code` at the end of zone instance `zone`, or FAILED.
pub(super) unsafe extern "C" fn push_code(
    cx: *mut Ctx,
    block: i64,
    pc: i64,
    zone: i64,
    code: i64,
) -> i64 {
    // SAFETY: as in `exec_top`.
    let cx = unsafe { &mut *cx };
    match unsafe { cx.run() }.push_code(at(block, pc), zone as usize, code as u16) {
        Ok(()) => OK,
        Err(e) => cx.fail(e),
    }
}
