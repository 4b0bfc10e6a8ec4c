//! The work budget: everything a ruleset can make the interpreter do between two
//! decisions or chance points, counted in one countdown per thread. Each element a
//! per-element argument is applied to, each element a built-in reads or builds, each
//! call of a ruleset function or a script, each operation a script runs and each value
//! the game handle converts for it takes one step; the statements that run are bounded
//! apart (`statements`). Without it one expression could work for ever (a count over a
//! product of long lists, functions that each call the next twice, a script called once
//! per element of a long list).
//!
//! The countdown starts again at the `work` limit when the machine begins running towards
//! the next suspension ([`Work::hold`], held until the run stops) and, outside a run, at
//! each root evaluation (`eval::Env::new`): an environment made while a run holds the
//! budget (an option listing, a call's arguments, the statements of the run) counts with
//! the run, and the count of one run or root evaluation never leaks into the next.
//! Charging is a decrement and a compare.

use std::cell::Cell;
use std::marker::PhantomData;

/// How many elements a search of a zone (`count`, `in`, `index_of` over a zone) reads
/// as part of the step that asks for it; a longer one counts its elements. Each such
/// search stands in a counted step, so the work done is at most this many times the
/// budget, and the searches of short zones cost nothing on the hot path.
pub const FREE_SCAN: usize = 64;

struct Budget {
    /// The steps left.
    left: Cell<u64>,
    /// The limit the countdown started from, for the message.
    limit: Cell<u64>,
    /// How many [`Work`] holds are alive on this thread (0: each root evaluation restarts
    /// the countdown).
    held: Cell<u32>,
}

thread_local! {
    static BUDGET: Budget = const {
        Budget {
            left: Cell::new(u64::MAX),
            limit: Cell::new(u64::MAX),
            held: Cell::new(0),
        }
    };
}

/// Takes `n` steps from the budget of the work under way on this thread; past it, the
/// budget spent (a runtime error where a game runs).
#[inline]
pub fn charge_work(n: u64) -> Result<(), WorkSpent> {
    BUDGET.with(|b| {
        let left = b.left.get();
        if left < n {
            b.left.set(0);
            return Err(WorkSpent {
                limit: b.limit.get(),
            });
        }
        b.left.set(left - n);
        Ok(())
    })
}

/// The work budget spent: its limit, and a message that says what was counted and how to
/// raise it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkSpent {
    pub limit: u64,
}

impl std::fmt::Display for WorkSpent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "more than {} steps of work without a decision or a chance point (elements a per-element argument is applied to, elements built-ins read or build, calls of functions and scripts, script operations): --limit work=N raises the limit",
            self.limit
        )
    }
}

/// The steps left in the budget of the work under way.
pub fn work_left() -> u64 {
    BUDGET.with(|b| b.left.get())
}

/// The countdown started again from `limit`, unless a run holds the budget: what a root
/// evaluation does.
#[inline]
pub fn restart_unless_held(limit: u64) {
    BUDGET.with(|b| {
        if b.held.get() == 0 {
            b.left.set(limit);
            b.limit.set(limit);
        }
    })
}

/// The budget held for one run of the machine towards its next suspension: made, it
/// starts the countdown from the limit (unless an outer run holds it already); while it
/// lives, root evaluations do not restart it. Bound to its thread.
pub struct Work {
    _thread: PhantomData<*const ()>,
}

impl Work {
    /// The budget held for a run, the countdown started from `limit` unless an outer
    /// hold lives.
    pub fn hold(limit: u64) -> Work {
        BUDGET.with(|b| {
            if b.held.get() == 0 {
                b.left.set(limit);
                b.limit.set(limit);
            }
            b.held.set(b.held.get() + 1);
        });
        Work {
            _thread: PhantomData,
        }
    }

    /// The budget held as it stands, for an evaluation under way that makes root
    /// environments of its own (`knows` asks what a viewer sees): they count with it.
    pub(crate) fn keep() -> Work {
        BUDGET.with(|b| b.held.set(b.held.get() + 1));
        Work {
            _thread: PhantomData,
        }
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        BUDGET.with(|b| b.held.set(b.held.get().saturating_sub(1)));
    }
}
