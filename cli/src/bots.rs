//! Bots on the command line: the `--agents` lists of `simulate` and `balance` (the agent
//! table is the interpreter's `roster`; `play` adds `human` on top), the clock that time
//! budgets are measured on, and `--threads`.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use frontier_interpreter::roster::{self, AgentSpec};

/// `--agents` of `simulate` and `balance`: bots only, one per seat or one for all.
#[derive(Clone, Debug)]
pub struct AgentList(pub Vec<AgentSpec>);

/// `--agents`' parser: a wrong agent or option is a usage error (exit 2).
pub fn parse_agent_list(list: &str) -> Result<AgentList, String> {
    roster::parse_agents(list).map(AgentList)
}

/// One spec per seat: `--agents` names one per seat, or one for every seat; none means
/// random everywhere.
pub fn seat_agents(given: Option<&[AgentSpec]>, n: usize) -> Result<Vec<AgentSpec>, String> {
    let Some(specs) = given else {
        return Ok(vec![AgentSpec::parse("random")?; n]);
    };
    match specs.len() {
        1 => Ok(vec![specs[0].clone(); n]),
        k if k == n => Ok(specs.to_vec()),
        k => Err(format!(
            "--agents names {k} agents for {n} players: give one per seat, or one for all"
        )),
    }
}

/// The monotonic clock of time budgets (`mcts:ms=500`): time since its first reading.
pub fn clock() -> Duration {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// `--threads N`: the size of the pool that games and root-parallel search trees run on
/// (default: one thread per core). What a game does never depends on it.
/// Every worker gets the stack that expressions at the limits' ceilings need, like the
/// command's own thread (main.rs). Called once, before any command runs.
pub fn use_threads(threads: Option<usize>) -> Result<(), String> {
    let mut pool =
        rayon::ThreadPoolBuilder::new().stack_size(frontier_interpreter::model::STACK_BYTES);
    if let Some(n) = threads {
        pool = pool.num_threads(n);
    }
    pool.build_global()
        .map_err(|e| format!("cannot start the worker threads: {e}"))
}

/// Says on stderr that agents with a time budget make a run that the seed does not
/// reproduce.
pub fn warn_if_timed(specs: &[AgentSpec]) {
    let timed: Vec<&str> = specs
        .iter()
        .filter(|s| !s.reproducible())
        .map(|s| s.text.as_str())
        .collect();
    if !timed.is_empty() {
        eprintln!(
            "note: {} decide by the clock (ms=): the same seed will not give the same games",
            timed.join(", ")
        );
    }
}
