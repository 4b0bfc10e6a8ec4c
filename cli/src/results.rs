//! Results as data: one JSON object per game (JSON Lines), shards of a run and their
//! merge. A game's line depends only on the ruleset, the player count, the agents, the
//! run's seed and the game's number, never on the shard that played it, so the lines of
//! N shards merged are byte for byte those of one unsharded run. docs/results.md
//! describes the fields.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::GameRecord;
use serde_json::{json, Value};

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

/// `--shard K/N`: the K-th of N parts of a run (1 ≤ K ≤ N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

/// Parses `K/N` for clap (a bad value is a usage error, exit 2).
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("'{text}' is not K/N (e.g. 3/8)"))?;
    let k: u64 = k
        .trim()
        .parse()
        .map_err(|_| format!("'{text}': K is not a whole number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("'{text}': N is not a whole number"))?;
    if n == 0 {
        return Err(format!("'{text}': N must be at least 1"));
    }
    if k == 0 || k > n {
        return Err(format!("'{text}': K must be between 1 and N ({n})"));
    }
    Ok(Shard { k, n })
}

impl Shard {
    /// The games (0-based, end excluded) of this shard in a run of `games`: contiguous
    /// blocks whose sizes differ by at most one; a shard may be empty when N > games.
    pub fn range(&self, games: u64) -> std::ops::Range<u64> {
        let at = |k: u64| ((k as u128 * games as u128) / self.n as u128) as u64;
        at(self.k - 1)..at(self.k)
    }
}

/// What a run is: the same for every game of the run, in every shard.
pub struct RunInfo<'a> {
    pub ruleset: &'a str,
    pub run_seed: u64,
    pub games: u64,
    pub players: &'a [String],
    pub agents: &'a [AgentSpec],
    /// The names of the ruleset's `stats:`, in declared order.
    pub stats: Vec<&'a str>,
}

impl<'a> RunInfo<'a> {
    pub fn stat_names(game: &'a frontier_interpreter::Game) -> Vec<&'a str> {
        game.stats.iter().map(|s| s.name.as_str()).collect()
    }
}

/// Game `index` (0-based) of the run as one JSON object (no newline); `stats` are the
/// values of the ruleset's `stats:`, in the order of `run.stats`.
pub fn game_line(
    run: &RunInfo,
    index: u64,
    seed: u64,
    record: &GameRecord,
    stats: &[Value],
) -> String {
    let o = &record.outcome;
    let winners: Vec<&str> = o
        .winners()
        .into_iter()
        .map(|p| run.players[p].as_str())
        .collect();
    let line = json!({
        "ruleset": run.ruleset,
        "run_seed": run.run_seed,
        "games": run.games,
        "game": index + 1,
        "seed": seed,
        "players": run.players,
        "agents": run.agents.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(),
        "scores": o.scores,
        "tiebreaks": o.tiebreaks,
        "ranks": o.ranks,
        "winners": winners,
        "decisions": record.decisions,
        "chances": record.chances,
        "end": frontier_study::results::end_reason(o),
    });
    // serde_json's map sorts its keys: the line is put together in the documented order,
    // the stats in the order the ruleset declares them.
    let mut out = ordered(KEYS.iter().map(|k| (*k, &line[*k])));
    out.pop();
    out.push_str(",\"stats\":");
    out.push_str(&ordered(run.stats.iter().copied().zip(stats)));
    out.push('}');
    out
}

/// The keys of a game line, in the order they are written (then `stats`).
pub const KEYS: &[&str] = &[
    "ruleset",
    "run_seed",
    "games",
    "game",
    "seed",
    "players",
    "agents",
    "scores",
    "tiebreaks",
    "ranks",
    "winners",
    "decisions",
    "chances",
    "end",
];

/// A JSON object with its keys in the order given.
fn ordered<'v>(entries: impl Iterator<Item = (&'v str, &'v Value)>) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in entries.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(key).unwrap_or_default());
        out.push(':');
        out.push_str(&serde_json::to_string(value).unwrap_or_default());
    }
    out.push('}');
    out
}

#[derive(Args)]
pub struct MergeArgs {
    /// Shard files written by `frontier simulate … --shard K/N --out FILE`, in any order.
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Write the merged lines to this file (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The fields every line of one run shares.
fn run_identity(v: &Value) -> Value {
    json!([
        v["ruleset"],
        v["run_seed"],
        v["games"],
        v["players"],
        v["agents"]
    ])
}

/// `frontier merge`: the games of shard files in the order of the unsharded run. Every
/// game of the run must be there exactly once, and every line must belong to the same run.
pub fn merge(args: MergeArgs) -> Result<(), String> {
    let mut lines: Vec<(u64, String)> = Vec::new();
    let mut identity: Option<(Value, String)> = None;
    for file in &args.files {
        let text = crate::source::read_regular(file)?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{}:{}", file.display(), i + 1);
            let v: Value =
                serde_json::from_str(line).map_err(|e| format!("{at}: not a JSON object: {e}"))?;
            let game = v["game"]
                .as_u64()
                .filter(|&g| g >= 1)
                .ok_or_else(|| format!("{at}: no game number (\"game\")"))?;
            let games = v["games"]
                .as_u64()
                .ok_or_else(|| format!("{at}: no game count (\"games\")"))?;
            if game > games {
                return Err(format!("{at}: game {game} of a run of {games} games"));
            }
            let id = run_identity(&v);
            match &identity {
                None => identity = Some((id, at.clone())),
                Some((first, where_)) if *first != id => {
                    return Err(format!("{at}: a game of another run than {where_} (ruleset, run_seed, games, players and agents differ)"));
                }
                _ => {}
            }
            lines.push((game, line.to_string()));
        }
    }
    let Some((id, _)) = identity else {
        return Err("the files hold no games".into());
    };
    let games = id[2].as_u64().unwrap_or(0);
    lines.sort_by_key(|(g, _)| *g);
    if let Some(w) = lines.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!(
            "game {} is in the files twice (the same shard given twice?)",
            w[0].0
        ));
    }
    if lines.len() as u64 != games {
        let have: std::collections::HashSet<u64> = lines.iter().map(|(g, _)| *g).collect();
        let missing: Vec<String> = (1..=games)
            .filter(|g| !have.contains(g))
            .take(10)
            .map(|g| g.to_string())
            .collect();
        return Err(format!(
            "{} of the run's {games} games are missing (games {}{}): is a shard missing?",
            games - lines.len() as u64,
            missing.join(", "),
            if games - (lines.len() as u64) > 10 {
                ", …"
            } else {
                ""
            }
        ));
    }
    let mut out = String::with_capacity(lines.iter().map(|(_, l)| l.len() + 1).sum());
    for (_, l) in &lines {
        out.push_str(l);
        out.push('\n');
    }
    match &args.out {
        Some(path) => crate::output::write_atomically(path, out.as_bytes()),
        None => std::io::stdout()
            .write_all(out.as_bytes())
            .map_err(|e| format!("cannot write the merged games: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_run_once() {
        for games in [0u64, 1, 5, 40, 41, 1000] {
            for n in 1..=9u64 {
                let mut next = 0;
                for k in 1..=n {
                    let r = Shard { k, n }.range(games);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
    }

    #[test]
    fn bad_shards_are_refused() {
        for bad in ["0/4", "5/4", "1/0", "x/2", "2", "-1/3", "1/2/3", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_shard("3/8"), Ok(Shard { k: 3, n: 8 }));
    }
}
