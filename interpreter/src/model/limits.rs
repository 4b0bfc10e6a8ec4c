//! The bounds a ruleset and its games are held to.

/// The bounds a ruleset and its games are held to, so that no input can hang the
/// interpreter, exhaust its memory or overflow its stack; going past one is a load error
/// or a runtime error that names it. A command may change each of them
/// (`--limit NAME=N`, [`Limits::set`]); [`Limits::LIST`] describes them, and
/// docs/rulesets.md, "Limits", gives the same table (a test compares them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Statements run between two decisions or chance points.
    pub statements_between_steps: u64,
    /// Steps of work between two decisions or chance points (`work`: elements
    /// applied to or read and built by built-ins, calls of functions and scripts, script
    /// operations; `--limit work=N`).
    pub work: u64,
    /// Procedure calls nested in one another.
    pub nested_calls: usize,
    /// How large one expression or template may be (brackets nested, operators), checked
    /// when it is parsed: in a ruleset, a trace's assertions, a query.
    pub expression: frontier_grammar::expr::Bounds,
    /// Elements the zones of one state may hold together (made by `push` and `init`).
    pub zone_elements: usize,
    /// Cells the pieces placed on one board instance may cover.
    pub board_cells: usize,
    /// Integer slots, zone instances and board instances of one state, all together (a
    /// declaration per two large tables multiplies their rows).
    pub state_slots: usize,
    /// Bytes of one file read: a ruleset, script, trace or position (the CLI reads them).
    pub file_bytes: u64,
}

/// One limit as the command line and the docs name it.
pub struct LimitInfo {
    /// The name `--limit NAME=N` takes.
    pub name: &'static str,
    /// What it bounds, as docs/rulesets.md's table words it.
    pub what: &'static str,
    /// Its value in `limits`.
    pub get: fn(&Limits) -> u64,
    /// Sets it (to a value between 1 and `ceiling`).
    pub set: fn(&mut Limits, u64),
    /// The largest value a command may set, where one larger would be unsafe (the stack
    /// recursive passes need grows with expression size).
    pub ceiling: u64,
}

/// How many statements may run between two suspensions (decisions, chance points): a
/// loop that runs longer without asking anything is taken for an endless one.
pub const MAX_STATEMENTS_BETWEEN_STEPS: u64 = 10_000_000;
/// How many steps of work may be done between two suspensions (see `work`): a
/// single expression can do work that grows as a product (`count_if(l, a => count_if(l,
/// b => …))`, functions that each call the next twice, a script called per element),
/// which the statement bound does not see.
pub const MAX_WORK: u64 = 10_000_000;
/// How deep procedure calls (with the blocks between them) may nest.
pub const MAX_FRAMES: usize = 10_000;
/// The most `--limit calls=N` may allow: the frames live on the state's own stack, not
/// the thread's, but each holds memory (a frame and its procedure's locals).
pub const MAX_CALLS: u64 = 1_000_000;
/// The most options one decision lists (each element of a `for:` list, each combination
/// of several): a product of long lists is refused before it is built.
pub const MAX_DECISION_OPTIONS: usize = 100_000;
/// The most list elements and text bytes the locals of the calls under way may hold
/// together (each list an expression builds is bounded alone, not their number).
pub const MAX_LOCAL_ELEMENTS: usize = 10_000_000;
/// The most locals the procedure calls under way may hold together (a recursion of a
/// procedure with many `let`s reaches it before the `calls` limit).
pub const MAX_CALL_LOCALS: usize = 10_000_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            statements_between_steps: MAX_STATEMENTS_BETWEEN_STEPS,
            work: MAX_WORK,
            nested_calls: MAX_FRAMES,
            expression: frontier_grammar::expr::Bounds::DEFAULT,
            zone_elements: 100_000,
            board_cells: 10_000,
            state_slots: 1_000_000,
            file_bytes: 16 * 1024 * 1024,
        }
    }
}

impl Limits {
    /// Every limit a command may change, in the order the docs list them.
    pub const LIST: &'static [LimitInfo] = &[
        LimitInfo {
            name: "nesting",
            what: "Brackets, conditionals and lambdas nested in one expression or template",
            get: |l| l.expression.nesting as u64,
            set: |l, n| l.expression.nesting = n as usize,
            ceiling: MAX_NESTING,
        },
        LimitInfo {
            name: "operators",
            what: "Operators in one expression (`and`, `or`, `in`, `not`, `if`, `=>`, `.field` and an index `[i]` count)",
            get: |l| l.expression.operators as u64,
            set: |l, n| l.expression.operators = n as usize,
            ceiling: MAX_OPERATORS,
        },
        LimitInfo {
            name: "statements",
            what: "Statements run between two decisions or chance points",
            get: |l| l.statements_between_steps,
            set: |l, n| l.statements_between_steps = n,
            ceiling: u64::MAX,
        },
        LimitInfo {
            name: "calls",
            what: "Procedure calls nested in one another",
            get: |l| l.nested_calls as u64,
            set: |l, n| l.nested_calls = n as usize,
            ceiling: MAX_CALLS,
        },
        LimitInfo {
            name: "elements",
            what: "Elements in the zones of one state, together",
            get: |l| l.zone_elements as u64,
            set: |l, n| l.zone_elements = n as usize,
            ceiling: u32::MAX as u64,
        },
        LimitInfo {
            name: "cells",
            what: "Cells covered by the pieces on one board",
            get: |l| l.board_cells as u64,
            set: |l, n| l.board_cells = n as usize,
            ceiling: u32::MAX as u64,
        },
        LimitInfo {
            name: "slots",
            what: "Numbers, zones and boards of one state (per player or per row: one each)",
            get: |l| l.state_slots as u64,
            set: |l, n| l.state_slots = n as usize,
            ceiling: u32::MAX as u64,
        },
        LimitInfo {
            name: "bytes",
            what: "Bytes of a ruleset, script, trace or position file",
            get: |l| l.file_bytes,
            set: |l, n| l.file_bytes = n,
            ceiling: u32::MAX as u64,
        },
        LimitInfo {
            name: "work",
            what: "Steps of work between two decisions or chance points (each element a per-element argument is applied to, or a built-in reads or builds; each call of a function or script; each script operation)",
            get: |l| l.work,
            set: |l, n| l.work = n,
            ceiling: u64::MAX,
        },
    ];

    /// The names a command line may set (`--limit statements=1000`).
    pub fn names() -> Vec<&'static str> {
        Self::LIST.iter().map(|l| l.name).collect()
    }

    /// Sets the limit `name` to `value` (at least 1, at most its ceiling), or says what is
    /// wrong.
    pub fn set(&mut self, name: &str, value: u64) -> Result<(), String> {
        let Some(info) = Self::LIST.iter().find(|l| l.name == name) else {
            return Err(format!(
                "unknown limit '{name}': one of {}",
                Self::names().join(", ")
            ));
        };
        if value == 0 {
            return Err(format!("limit {name}: at least 1"));
        }
        if value > info.ceiling {
            return Err(format!("limit {name}: at most {}", info.ceiling));
        }
        // Every ceiling but `statements`' and `work`'s (u64s themselves) fits a usize on 64-bit platforms.
        (info.set)(self, value);
        Ok(())
    }
}

/// How deep calls of ruleset functions may nest (a function that calls one: 2). Each call
/// walks its body recursively, so this and the expression bounds bound the evaluator's stack.
pub const MAX_FUNCTION_NESTING: usize = 32;

/// The most `--limit nesting=N` may allow: an expression's passes recurse about once per
/// bracket, and a thread that loads or runs games has [`STACK_BYTES`] of stack.
pub const MAX_NESTING: u64 = 1_000;
/// The most `--limit operators=N` may allow (likewise: a chain of operators is as deep a
/// tree as it is long).
pub const MAX_OPERATORS: u64 = 4_000;
/// The stack a thread that loads rulesets or runs games must have for expressions at
/// the ceilings above (the CLI runs its commands and its workers on such threads; the
/// `limits` tests measure it in debug builds).
pub const STACK_BYTES: usize = 64 * 1024 * 1024;
