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
use crate::machine::{Choice, Journal, Outcome, State, Status};
use crate::model::Game;
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
    /// Playouts per decision.
    pub iterations: u32,
    /// UCT's exploration constant.
    pub c: f64,
    /// The most steps (decisions and chance outcomes) a playout takes; a playout cut
    /// short counts as a draw shared by all seats.
    pub rollout: u32,
    pub reward: Reward,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig { iterations: 500, c: 1.4, rollout: 10_000, reward: Reward::Win }
    }
}

/// The option names a search takes, for messages and help.
pub const OPTIONS_HELP: &str = "iterations=N (default 500), c=X (exploration, default 1.4), rollout=N (steps per playout, default 10000), reward=win|rank (default win)";

impl SearchConfig {
    /// Parses `key=value` pairs separated by commas (an empty string gives the defaults).
    pub fn parse(options: &str) -> Result<SearchConfig, String> {
        let mut config = SearchConfig::default();
        for pair in options.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(format!("'{pair}' is not key=value; options: {OPTIONS_HELP}"));
            };
            let (key, value) = (key.trim(), value.trim());
            let count = |what: &str| -> Result<u32, String> {
                match value.parse::<u32>() {
                    Ok(n) if n >= 1 => Ok(n),
                    _ => Err(format!("{what}={value}: expected a whole number of at least 1")),
                }
            };
            match key {
                "iterations" | "i" => config.iterations = count("iterations")?,
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
        Ok(config)
    }
}

/// An `mcts` or `ismcts` agent. Plain data: cloned, it decides as the original would.
#[derive(Clone, Debug)]
pub struct SearchAgent {
    pub kind: Kind,
    pub config: SearchConfig,
    seed: u64,
}

impl SearchAgent {
    pub fn new(kind: Kind, config: SearchConfig, seed: u64) -> SearchAgent {
        SearchAgent { kind, config, seed }
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

fn rewards(outcome: &Outcome, reward: Reward) -> Vec<f64> {
    let n = outcome.ranks.len();
    match reward {
        Reward::Win => {
            let winners = outcome.ranks.iter().filter(|&&r| r == 1).count().max(1) as f64;
            outcome.ranks.iter().map(|&r| if r == 1 { 1.0 / winners } else { 0.0 }).collect()
        }
        Reward::Rank if n <= 1 => vec![1.0; n],
        Reward::Rank => outcome.ranks.iter().map(|&r| (n as f64 - r as f64) / (n as f64 - 1.0)).collect(),
    }
}

/// Plays uniformly at random from `state` to the end, at most `limit` steps.
fn playout(game: &Game, mut state: State, limit: u32, reward: Reward, seats: usize, rng: &mut GameRng) -> Result<Vec<f64>, String> {
    for _ in 0..limit {
        let choice = match game.status(&state) {
            Status::Over(outcome) => return Ok(rewards(outcome, reward)),
            Status::Decision { options, .. } => Choice::Option(rng.below(options.max(1) as u64) as usize),
            Status::Chance(chance) => sample_chance(&state, chance, rng),
        };
        game.apply(&mut state, choice, &mut Journal::Off).map_err(|e| e.to_string())?;
    }
    match game.status(&state) {
        Status::Over(outcome) => Ok(rewards(outcome, reward)),
        _ => Ok(vec![1.0 / seats as f64; seats]),
    }
}

impl SearchAgent {
    /// Searches and returns, for each option of the view's decision, how many playouts
    /// went through it.
    pub fn visits(&self, view: &View) -> Result<Vec<u32>, String> {
        let game = view.game();
        let options = view.options();
        let seats = view.seats();
        let mut rng = GameRng::derived(self.seed, view.steps() as u64);
        let fixed = match self.kind {
            Kind::Mcts => Some(view.sample_state(&mut rng).map_err(|e| e.to_string())?),
            Kind::Ismcts => None,
        };
        let c = self.config.c;
        let mut nodes: Vec<Node> = vec![Node::default()];
        let mut path: Vec<(u32, u32, u8)> = Vec::new();
        for _ in 0..self.config.iterations {
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
                            let i = legal.iter().enumerate().filter(|(_, e)| e.visits == 0).nth(k).map(|(i, _)| i).unwrap_or(0);
                            (i, true)
                        } else {
                            let mut best = (f64::NEG_INFINITY, 0usize);
                            for (i, e) in legal.iter().enumerate() {
                                let v = e.visits as f64;
                                let score = e.reward / v + c * ((e.available as f64).ln() / v).sqrt();
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
                            game.apply(&mut state, Choice::Option(i), &mut Journal::Off).map_err(|e| e.to_string())?;
                            break None;
                        }
                        node = nodes[node as usize].edges[i].child;
                        Choice::Option(i)
                    }
                };
                game.apply(&mut state, choice, &mut Journal::Off).map_err(|e| e.to_string())?;
            };
            let result = match result {
                Some(r) => r,
                None => playout(game, state, self.config.rollout.saturating_sub(steps), self.config.reward, seats, &mut rng)?,
            };
            for &(node, i, player) in &path {
                let e = &mut nodes[node as usize].edges[i as usize];
                e.visits += 1;
                e.reward += result.get(player as usize).copied().unwrap_or(0.0);
            }
        }
        let root = &nodes[0].edges;
        Ok((0..options).map(|i| root.get(i).map_or(0, |e| e.visits)).collect())
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

/// An agent named on a command line: `random`, `mcts[:options]` or `ismcts[:options]`
/// (`human` is the binary's business).
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    Random,
    Search(Kind, SearchConfig),
}

impl AgentSpec {
    /// Parses one agent: `random`, `mcts`, `mcts:iterations=1000,c=1.4`, `ismcts:…`.
    pub fn parse(spec: &str) -> Result<AgentSpec, String> {
        let spec = spec.trim();
        let (name, options) = match spec.split_once(':') {
            Some((n, o)) => (n.trim(), Some(o)),
            None => (spec, None),
        };
        let kind = match name {
            "random" if options.is_none() => return Ok(AgentSpec::Random),
            "random" => return Err(format!("'{spec}': random takes no options")),
            "mcts" => Kind::Mcts,
            "ismcts" => Kind::Ismcts,
            _ => return Err(format!("unknown agent '{name}'")),
        };
        let config = SearchConfig::parse(options.unwrap_or("")).map_err(|e| format!("'{spec}': {e}"))?;
        Ok(AgentSpec::Search(kind, config))
    }

    /// The agent for `seat` of a game seeded `seed` (each seat draws from its own stream).
    pub fn agent(&self, seed: u64, seat: usize) -> Box<dyn Agent> {
        let mut rng = GameRng::derived(seed, seat as u64 + 1);
        match self {
            AgentSpec::Random => Box::new(crate::agent::RandomAgent::new(rng)),
            AgentSpec::Search(kind, config) => Box::new(SearchAgent::new(*kind, config.clone(), rng.next_u64())),
        }
    }
}

/// Splits a comma-separated list of agents whose options are comma-separated too:
/// `mcts:iterations=200,c=1,random` is `mcts:iterations=200,c=1` and `random`. A piece
/// `key=value` with no `:` belongs to the agent before it.
pub fn split_agents(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in list.split(',') {
        let piece = piece.trim();
        match out.last_mut() {
            Some(last) if piece.contains('=') && !piece.contains(':') && last.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse() {
        let c = SearchConfig::parse("iterations=1000,c=0.7").unwrap();
        assert_eq!((c.iterations, c.c), (1000, 0.7));
        assert_eq!(SearchConfig::parse("").unwrap(), SearchConfig::default());
        assert!(SearchConfig::parse("iterations=abc").unwrap_err().contains("iterations=abc"));
        assert!(SearchConfig::parse("iterations=0").is_err());
        assert!(SearchConfig::parse("c=-1").is_err());
        assert!(SearchConfig::parse("depth=3").unwrap_err().contains("unknown option 'depth'"));
        assert!(AgentSpec::parse("mcts:iterations=abc").unwrap_err().contains("mcts:iterations=abc"));
        assert!(AgentSpec::parse("alphazero").is_err());
        assert_eq!(AgentSpec::parse("random").unwrap(), AgentSpec::Random);
    }

    #[test]
    fn agent_lists_split() {
        assert_eq!(split_agents("mcts:iterations=200,c=1,random"), vec!["mcts:iterations=200,c=1", "random"]);
        assert_eq!(split_agents("human,ismcts,random"), vec!["human", "ismcts", "random"]);
        assert_eq!(split_agents("random,mcts:c=2"), vec!["random", "mcts:c=2"]);
    }

    #[test]
    fn rewards_from_ranks() {
        let o = Outcome { scores: vec![3, 3, 1], tiebreaks: vec![vec![]; 3], ranks: vec![1, 1, 3], ended_by: Default::default() };
        assert_eq!(rewards(&o, Reward::Win), vec![0.5, 0.5, 0.0]);
        assert_eq!(rewards(&o, Reward::Rank), vec![1.0, 1.0, 0.0]);
    }
}
