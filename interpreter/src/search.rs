//! Search agents for any ruleset: `mcts` (UCT) and `ismcts` (information-set UCT) over the
//! step machine. Both search from what their player may know: the [`View`] gives them
//! states sampled among those the player cannot tell from the real one
//! ([`View::sample_state`]), never the real hidden contents.
//!
//! - `mcts` samples one such state per decision and runs UCT on it (a determinized UCT:
//!   in a game without hidden information it is plain UCT on the real state).
//! - `ismcts` samples a new state at every iteration (single-observer ISMCTS): the tree is
//!   shared across samples, with availability counts for options that exist in some samples
//!   only.
//!
//! The tree is open-loop: a node is a sequence of decisions from the root; chance points
//! (`pick`, shuffles) are sampled afresh on every iteration, not branched on. A playout
//! takes uniform random options up to a bound of steps; its reward for each seat comes
//! from the final ranking (a win, shared wins split, or the normalized rank). Each
//! decision draws from a generator derived from the agent's seed and the step number, so
//! the same seed, ruleset and view give the same decision, and an agent has nothing to
//! replay when a game is resumed.

use crate::agent::{Agent, View};
use crate::machine::{Choice, Journal, Outcome, State, Status, Stepper};
use crate::rng::GameRng;
use crate::runner::sample_chance;

/// How a finished playout is scored for each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// 1 for a win, split between shared winners; 0 otherwise.
    Win,
    /// (players − rank) / (players − 1): 1 for first, 0 for last.
    Rank,
}

/// Which search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One sampled state per decision, UCT on it.
    Mcts,
    /// A sampled state per iteration, one tree for all.
    Ismcts,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mcts => "mcts",
            Kind::Ismcts => "ismcts",
        }
    }
}

/// A search's settings, as `mcts:iterations=1000,c=1.4` writes them.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Playouts per decision, shared among the trees (with a time budget: the most a
    /// tree runs).
    pub iterations: u32,
    /// A time budget per decision in milliseconds: each tree searches until it is spent
    /// (or its share of `iterations` is). Decisions then depend on the machine's speed
    /// and load, so games are not reproducible.
    pub time_ms: Option<u32>,
    /// Root parallelism: independent trees (each its own sampled states and stream) whose
    /// root visits are added up. They run on the rayon pool, but what each tree does
    /// depends only on the seed and its number, never on how many threads run them.
    pub trees: u32,
    /// UCT's exploration constant.
    pub c: f64,
    /// The most steps (decisions and chance outcomes) a playout takes; a playout cut
    /// short counts as a draw shared by all seats.
    pub rollout: u32,
    pub reward: Reward,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            iterations: 500,
            time_ms: None,
            trees: 1,
            c: 1.4,
            rollout: 10_000,
            reward: Reward::Win,
        }
    }
}

/// The option names a search takes, for messages and help.
pub const OPTIONS_HELP: &str = "iterations=N (default 500), ms=N (a time budget per decision instead: not reproducible), trees=N (root-parallel trees, default 1), c=X (exploration, default 1.4), rollout=N (steps per playout, default 10000), reward=win|rank (default win)";

impl SearchConfig {
    /// Parses `key=value` pairs separated by commas (an empty string gives the defaults).
    pub fn parse(options: &str) -> Result<SearchConfig, String> {
        let mut config = SearchConfig::default();
        let mut iterations = None;
        for pair in options.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(format!(
                    "'{pair}' is not key=value; options: {OPTIONS_HELP}"
                ));
            };
            let (key, value) = (key.trim(), value.trim());
            let count = |what: &str| -> Result<u32, String> {
                match value.parse::<u32>() {
                    Ok(n) if n >= 1 => Ok(n),
                    _ => Err(format!(
                        "{what}={value}: expected a whole number of at least 1"
                    )),
                }
            };
            match key {
                "iterations" | "i" => iterations = Some(count("iterations")?),
                "ms" => config.time_ms = Some(count("ms")?),
                "trees" => match count("trees")? {
                    n if n <= MAX_TREES => config.trees = n,
                    _ => return Err(format!("trees={value}: at most {MAX_TREES}")),
                },
                "rollout" => config.rollout = count("rollout")?,
                "c" => match value.parse::<f64>() {
                    Ok(c) if c.is_finite() && c >= 0.0 => config.c = c,
                    _ => return Err(format!("c={value}: expected a number of at least 0")),
                },
                "reward" => {
                    config.reward = match value {
                        "win" => Reward::Win,
                        "rank" => Reward::Rank,
                        _ => return Err(format!("reward={value}: expected win or rank")),
                    }
                }
                _ => return Err(format!("unknown option '{key}'; options: {OPTIONS_HELP}")),
            }
        }
        // A time budget alone is bounded by the clock only; with `iterations` as well,
        // whichever runs out first ends the search.
        config.iterations = match (iterations, config.time_ms) {
            (Some(n), _) => n,
            (None, Some(_)) => u32::MAX,
            (None, None) => config.iterations,
        };
        Ok(config)
    }
}

/// The most trees a search may have (each holds its own tree in memory).
pub const MAX_TREES: u32 = 256;

/// Reads a monotonic clock: the time since some fixed instant. The interpreter reads no
/// clock itself (it does no IO); the binary passes one for time budgets, and tests pass
/// one that advances by itself, which makes the time budget's path deterministic.
pub type Clock = fn() -> std::time::Duration;

/// An `mcts` or `ismcts` agent. Plain data: cloned, it decides as the original would.
#[derive(Clone, Debug)]
pub struct SearchAgent {
    pub kind: Kind,
    pub config: SearchConfig,
    seed: u64,
    /// Read only with a time budget.
    clock: Option<Clock>,
}

impl SearchAgent {
    pub fn new(kind: Kind, config: SearchConfig, seed: u64) -> SearchAgent {
        SearchAgent {
            kind,
            config,
            seed,
            clock: None,
        }
    }

    /// The clock a time budget (`ms=`) is measured on.
    pub fn with_clock(mut self, clock: Clock) -> SearchAgent {
        self.clock = Some(clock);
        self
    }
}

#[derive(Clone, Default)]
struct Edge {
    visits: u32,
    /// Sum of the rewards of the seat that took this option.
    reward: f64,
    /// Iterations in which this option was there to take (ISMCTS availability).
    available: u32,
    /// The node after this option (0: not expanded; the root is never a child).
    child: u32,
}

#[derive(Clone, Default)]
struct Node {
    edges: Vec<Edge>,
}

pub(crate) fn rewards(outcome: &Outcome, reward: Reward) -> Vec<f64> {
    let n = outcome.ranks.len();
    match reward {
        // A win shared by k seats gives each 1/k; a draw, every seat 1/n.
        Reward::Win => {
            let winners = outcome.winners();
            let mut rewards = vec![0.0; n];
            if winners.is_empty() {
                rewards.fill(1.0 / n.max(1) as f64);
            }
            for &w in &winners {
                rewards[w] = 1.0 / winners.len() as f64;
            }
            rewards
        }
        Reward::Rank if n <= 1 => vec![1.0; n],
        Reward::Rank => outcome
            .ranks
            .iter()
            .map(|&r| (n as f64 - r as f64) / (n as f64 - 1.0))
            .collect(),
    }
}

/// Plays uniformly at random from `state` to the end, at most `limit` steps.
fn playout(
    stepper: Stepper,
    mut state: State,
    limit: u32,
    reward: Reward,
    seats: usize,
    rng: &mut GameRng,
) -> Result<Vec<f64>, String> {
    let game = stepper.game();
    for _ in 0..limit {
        let choice = match game.status(&state) {
            Status::Over(outcome) => return Ok(rewards(outcome, reward)),
            Status::Decision { options, .. } => {
                Choice::Option(rng.below(options.max(1) as u64) as usize)
            }
            Status::Chance(chance) => sample_chance(&state, chance, rng),
        };
        stepper
            .apply(&mut state, choice, &mut Journal::off())
            .map_err(|e| e.to_string())?;
    }
    match game.status(&state) {
        Status::Over(outcome) => Ok(rewards(outcome, reward)),
        _ => Ok(vec![1.0 / seats as f64; seats]),
    }
}

impl SearchAgent {
    /// Searches and returns, for each option of the view's decision, how many playouts
    /// went through it (added up over the trees, in tree order).
    pub fn visits(&self, view: &View) -> Result<Vec<u32>, String> {
        let deadline = match (self.config.time_ms, self.clock) {
            (None, _) => None,
            (Some(ms), Some(clock)) => {
                Some((clock, clock() + std::time::Duration::from_millis(ms as u64)))
            }
            (Some(_), None) => {
                return Err(
                    "a time budget (ms=) needs a clock, and this agent was given none".into(),
                )
            }
        };
        let trees = self.config.trees.max(1);
        // Tree t runs iterations/trees playouts, the first ones one more for the rest.
        let share =
            |t: u32| self.config.iterations / trees + u32::from(t < self.config.iterations % trees);
        let searched: Vec<Result<Vec<u32>, String>> = if trees == 1 {
            vec![self.tree(view, 0, share(0), deadline)]
        } else {
            use rayon::prelude::*;
            (0..trees)
                .into_par_iter()
                .map(|t| self.tree(view, t, share(t), deadline))
                .collect()
        };
        let mut total = vec![0u32; view.options()];
        for visits in searched {
            for (sum, v) in total.iter_mut().zip(visits?) {
                *sum = sum.saturating_add(v);
            }
        }
        Ok(total)
    }

    /// One tree's search: `iterations` playouts, or fewer if the deadline passes first.
    fn tree(
        &self,
        view: &View,
        tree: u32,
        iterations: u32,
        deadline: Option<(Clock, std::time::Duration)>,
    ) -> Result<Vec<u32>, String> {
        let stepper = view.stepper();
        let game = stepper.game();
        let options = view.options();
        let seats = view.seats();
        // Tree 0 draws as a single-tree search always has; the others from streams of their own.
        let mut rng = match tree {
            0 => GameRng::derived(self.seed, view.steps() as u64),
            t => GameRng::derived(
                GameRng::derived(self.seed, view.steps() as u64).next_u64(),
                t as u64,
            ),
        };
        let fixed = match self.kind {
            Kind::Mcts => Some(view.sample_state(&mut rng).map_err(|e| e.to_string())?),
            Kind::Ismcts => None,
        };
        let c = self.config.c;
        let mut nodes: Vec<Node> = vec![Node::default()];
        let mut path: Vec<(u32, u32, u8)> = Vec::new();
        for _ in 0..iterations {
            if deadline.is_some_and(|(clock, at)| clock() >= at) {
                break;
            }
            let mut state = match &fixed {
                Some(s) => s.clone(),
                None => view.sample_state(&mut rng).map_err(|e| e.to_string())?,
            };
            path.clear();
            let mut node = 0u32;
            let mut steps = 0u32;
            // Selection and expansion: down the tree until a new node is made.
            let result = loop {
                if steps >= self.config.rollout {
                    break None;
                }
                steps += 1;
                let choice = match game.status(&state) {
                    Status::Over(outcome) => break Some(rewards(outcome, self.config.reward)),
                    Status::Chance(chance) => sample_chance(&state, chance, &mut rng),
                    // A forced option is no decision: it makes no node (except at the root).
                    Status::Decision { options: 1, .. } if !path.is_empty() => Choice::Option(0),
                    Status::Decision { player, options } => {
                        let here = &mut nodes[node as usize];
                        if here.edges.len() < options {
                            here.edges.resize(options, Edge::default());
                        }
                        let legal = &mut here.edges[..options];
                        legal.iter_mut().for_each(|e| e.available += 1);
                        let fresh = legal.iter().filter(|e| e.visits == 0).count();
                        let (i, new) = if fresh > 0 {
                            let k = rng.below(fresh as u64) as usize;
                            let i = legal
                                .iter()
                                .enumerate()
                                .filter(|(_, e)| e.visits == 0)
                                .nth(k)
                                .map(|(i, _)| i)
                                .unwrap_or(0);
                            (i, true)
                        } else {
                            let mut best = (f64::NEG_INFINITY, 0usize);
                            for (i, e) in legal.iter().enumerate() {
                                let v = e.visits as f64;
                                let score =
                                    e.reward / v + c * ((e.available as f64).ln() / v).sqrt();
                                if score > best.0 {
                                    best = (score, i);
                                }
                            }
                            (best.1, false)
                        };
                        path.push((node, i as u32, player));
                        if new || nodes[node as usize].edges[i].child == 0 {
                            let child = nodes.len() as u32;
                            nodes.push(Node::default());
                            nodes[node as usize].edges[i].child = child;
                            stepper
                                .apply(&mut state, Choice::Option(i), &mut Journal::off())
                                .map_err(|e| e.to_string())?;
                            break None;
                        }
                        node = nodes[node as usize].edges[i].child;
                        Choice::Option(i)
                    }
                };
                stepper
                    .apply(&mut state, choice, &mut Journal::off())
                    .map_err(|e| e.to_string())?;
            };
            let result = match result {
                Some(r) => r,
                None => playout(
                    stepper,
                    state,
                    self.config.rollout.saturating_sub(steps),
                    self.config.reward,
                    seats,
                    &mut rng,
                )?,
            };
            for &(node, i, player) in &path {
                let e = &mut nodes[node as usize].edges[i as usize];
                e.visits += 1;
                e.reward += result.get(player as usize).copied().unwrap_or(0.0);
            }
        }
        let root = &nodes[0].edges;
        Ok((0..options)
            .map(|i| root.get(i).map_or(0, |e| e.visits))
            .collect())
    }
}

impl Agent for SearchAgent {
    fn decide(&mut self, view: &View) -> Result<usize, String> {
        match view.options() {
            0 => return Err("no decision to take".into()),
            1 => return Ok(0),
            _ => {}
        }
        let visits = self.visits(view)?;
        // The most visited option; ties go to the first.
        let mut best = 0;
        for (i, &v) in visits.iter().enumerate() {
            if v > visits[best] {
                best = i;
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse() {
        let c = SearchConfig::parse("iterations=1000,c=0.7").unwrap();
        assert_eq!((c.iterations, c.c), (1000, 0.7));
        assert_eq!(SearchConfig::parse("").unwrap(), SearchConfig::default());
        assert!(SearchConfig::parse("iterations=abc")
            .unwrap_err()
            .contains("iterations=abc"));
        assert!(SearchConfig::parse("iterations=0").is_err());
        assert!(SearchConfig::parse("c=-1").is_err());
        assert!(SearchConfig::parse("depth=3")
            .unwrap_err()
            .contains("unknown option 'depth'"));
        let timed = SearchConfig::parse("ms=50,trees=4").unwrap();
        assert_eq!(
            (timed.time_ms, timed.trees, timed.iterations),
            (Some(50), 4, u32::MAX)
        );
        assert_eq!(
            SearchConfig::parse("ms=50,iterations=9")
                .unwrap()
                .iterations,
            9
        );
        assert!(SearchConfig::parse("trees=0").is_err());
        assert!(SearchConfig::parse("trees=100000").is_err());
        assert!(SearchConfig::parse("ms=x").is_err());
    }

    #[test]
    fn rewards_from_ranks() {
        let o = Outcome {
            scores: vec![3, 3, 1],
            tiebreaks: vec![vec![]; 3],
            ranks: vec![1, 1, 3],
            ended_by: Default::default(),
            returns: None,
        };
        assert_eq!(rewards(&o, Reward::Win), vec![0.5, 0.5, 0.0]);
        assert_eq!(rewards(&o, Reward::Rank), vec![1.0, 1.0, 0.0]);
    }
}
