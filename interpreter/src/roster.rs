//! The agents a command line can name (`--agents random,mcts:iterations=200`): one table,
//! [`AGENTS`], read by every command that seats bots (`frontier play`, `simulate`,
//! `balance`) and by their messages and help. A new kind of agent is one entry: its
//! name, what it does, its options, and a function that checks the options and says how
//! to build the agent. (`human` is not here: only `frontier play`, which owns the
//! terminal, seats people.)

use std::sync::Arc;

use crate::agent::{Bot, RandomAgent};
use crate::rng::GameRng;
use crate::search::{Clock, Kind, SearchAgent, SearchConfig, OPTIONS_HELP};

/// Builds one seat's agent from its own generator (derived from the game's seed and the
/// seat) and the clock time budgets are measured on.
pub type Build = Arc<dyn Fn(GameRng, Clock) -> Box<dyn Bot> + Send + Sync>;

/// What checking an agent's options gives: how to build it, and whether its decisions
/// depend on nothing but its seed and what it sees.
pub struct Recipe {
    pub build: Build,
    /// False for a time budget: decisions depend on the machine's speed and load.
    pub reproducible: bool,
    /// A search bot's settings (none for an agent that does not search), so that a host
    /// can bound what a seat may cost it.
    pub search: Option<SearchConfig>,
}

/// A kind of agent.
pub struct AgentKind {
    pub name: &'static str,
    /// What it does, in a few words (for help and `frontier play`'s messages).
    pub about: &'static str,
    /// Its options, for messages (empty: it takes none).
    pub options: &'static str,
    /// Checks the options (the text after `name:`; none without a colon).
    pub parse: fn(Option<&str>) -> Result<Recipe, String>,
}

/// Every agent a command line can name, in the order help lists them.
pub const AGENTS: &[AgentKind] = &[
    AgentKind {
        name: "random",
        about: "uniform among the options, from its own seeded stream",
        options: "",
        parse: random,
    },
    AgentKind {
        name: "mcts",
        about: "UCT on one state sampled from what its player may see, per decision",
        options: OPTIONS_HELP,
        parse: mcts,
    },
    AgentKind {
        name: "ismcts",
        about: "information-set UCT: a new sampled state every iteration, one tree for all",
        options: OPTIONS_HELP,
        parse: ismcts,
    },
];

fn random(options: Option<&str>) -> Result<Recipe, String> {
    match options {
        None => Ok(Recipe {
            build: Arc::new(|rng, _| Box::new(RandomAgent::new(rng))),
            reproducible: true,
            search: None,
        }),
        Some(_) => Err("random takes no options".into()),
    }
}

fn search(kind: Kind, options: Option<&str>) -> Result<Recipe, String> {
    let config = SearchConfig::parse(options.unwrap_or(""))?;
    let reproducible = config.time_ms.is_none();
    let settings = config.clone();
    let build: Build = Arc::new(move |mut rng: GameRng, clock: Clock| {
        Box::new(SearchAgent::new(kind, config.clone(), rng.next_u64()).with_clock(clock))
    });
    Ok(Recipe {
        build,
        reproducible,
        search: Some(settings),
    })
}

fn mcts(options: Option<&str>) -> Result<Recipe, String> {
    search(Kind::Mcts, options)
}

fn ismcts(options: Option<&str>) -> Result<Recipe, String> {
    search(Kind::Ismcts, options)
}

/// The names of the agents, for messages: `random, mcts[:options], ismcts[:options]`.
pub fn names() -> String {
    AGENTS
        .iter()
        .map(|k| {
            if k.options.is_empty() {
                k.name.to_string()
            } else {
                format!("{}[:options]", k.name)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One seat's agent as a command line names it, checked.
#[derive(Clone)]
pub struct AgentSpec {
    /// As written (trimmed): results record it, traces and merges compare it.
    pub text: String,
    pub kind: &'static AgentKind,
    build: Build,
    reproducible: bool,
    search: Option<SearchConfig>,
}

impl std::fmt::Debug for AgentSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AgentSpec({})", self.text)
    }
}

impl PartialEq for AgentSpec {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl AgentSpec {
    /// Parses one agent: `random`, `mcts`, `mcts:iterations=1000,c=1.4`, `ismcts:…`.
    pub fn parse(spec: &str) -> Result<AgentSpec, String> {
        let text = spec.trim();
        let (name, options) = match text.split_once(':') {
            Some((n, o)) => (n.trim(), Some(o)),
            None => (text, None),
        };
        if name.is_empty() {
            return Err("an agent with no name".into());
        }
        let kind = AGENTS
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| format!("unknown agent '{name}'"))?;
        let recipe = (kind.parse)(options).map_err(|e| format!("'{text}': {e}"))?;
        Ok(AgentSpec {
            text: text.to_string(),
            kind,
            build: recipe.build,
            reproducible: recipe.reproducible,
            search: recipe.search,
        })
    }

    /// The agent for `seat` of the game seeded `seed`: each seat draws from its own stream,
    /// derived from both. `clock` is read by time budgets only.
    pub fn agent(&self, seed: u64, seat: usize, clock: Clock) -> Box<dyn Bot> {
        (self.build)(seat_stream(seed, seat), clock)
    }

    /// Whether the same seed gives the same decisions (false with a time budget).
    pub fn reproducible(&self) -> bool {
        self.reproducible
    }

    /// A search bot's settings; none for an agent that does not search.
    pub fn search(&self) -> Option<&SearchConfig> {
        self.search.as_ref()
    }
}

/// The stream a seat's agent draws from in the game seeded `seed`.
fn seat_stream(seed: u64, seat: usize) -> GameRng {
    GameRng::derived(seed, seat as u64 + 1)
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

/// Parses a whole `--agents` list (see [`split_agents`]).
pub fn parse_agents(list: &str) -> Result<Vec<AgentSpec>, String> {
    split_agents(list)
        .iter()
        .map(|s| AgentSpec::parse(s).map_err(|e| format!("{e} (agents: {})", names())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_parse() {
        assert_eq!(
            AgentSpec::parse(" mcts:iterations=8,c=0.5 ").unwrap().text,
            "mcts:iterations=8,c=0.5"
        );
        assert!(AgentSpec::parse("mcts:iterations=abc")
            .unwrap_err()
            .contains("mcts:iterations=abc"));
        assert!(AgentSpec::parse("alphazero")
            .unwrap_err()
            .contains("unknown agent 'alphazero'"));
        assert!(AgentSpec::parse("random:x=1").is_err());
        assert!(AgentSpec::parse("").is_err());
        assert!(AgentSpec::parse("random").unwrap().reproducible());
        assert!(!AgentSpec::parse("ismcts:ms=10").unwrap().reproducible());
        assert!(parse_agents("random,nosuch")
            .unwrap_err()
            .contains("agents: random, mcts[:options], ismcts[:options]"));
    }

    #[test]
    fn agent_lists_split() {
        assert_eq!(
            split_agents("mcts:iterations=200,c=1,random"),
            vec!["mcts:iterations=200,c=1", "random"]
        );
        assert_eq!(
            split_agents("human,ismcts,random"),
            vec!["human", "ismcts", "random"]
        );
        assert_eq!(split_agents("random,mcts:c=2"), vec!["random", "mcts:c=2"]);
    }
}
