//! Results as data: one JSON object per game (JSON Lines), the summary of a run as JSON,
//! shards of a run and their merge. A game's line depends only on the ruleset, the player
//! count, the agents, the run's seed and the game's number, never on the shard that
//! played it, so the lines of N shards merged are byte for byte those of one unsharded
//! run. docs/results.md describes the fields.

use std::io::Write;
use std::ops::Range;

use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::GameRecord;
use frontier_interpreter::{Game, Outcome};
use serde_json::{json, Value};

use crate::games::{Played, StatValue};
use crate::statistics::{rounded, stat_json};
use crate::summary::Summary;

/// The K-th of N parts of a run (1 ≤ K ≤ N): `--shard K/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// Reads `K/N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
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

    /// The games (0-based, end excluded) of this shard in a run of `games`: contiguous
    /// blocks whose sizes differ by at most one; a shard may be empty when N > games.
    pub fn range(&self, games: u64) -> Range<u64> {
        let at = |k: u64| ((k as u128 * games as u128) / self.n.max(1) as u128) as u64;
        at(self.k.saturating_sub(1))..at(self.k)
    }
}

/// Why a game ended, as results record it: the `end_game` statement that ended it (by its
/// place in the ruleset), or the end of the play flow.
pub fn end_reason(o: &Outcome) -> String {
    match &o.ended_by {
        Some(at) => format!("end_game at {at}"),
        None => "the play flow ended".to_string(),
    }
}

/// What a run is: the same for every game of the run, in every shard.
pub struct RunInfo<'a> {
    pub ruleset: &'a str,
    pub run_seed: u64,
    /// The games of the whole run (all its shards).
    pub games: u64,
    pub players: &'a [String],
    pub agents: &'a [AgentSpec],
    /// The names of the ruleset's `stats:`, in declared order.
    pub stats: Vec<&'a str>,
}

impl<'a> RunInfo<'a> {
    pub fn stat_names(game: &'a Game) -> Vec<&'a str> {
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
    stats: &[StatValue],
) -> String {
    let o = &record.outcome;
    let winners: Vec<&str> = o
        .winners()
        .into_iter()
        .filter_map(|p| run.players.get(p).map(String::as_str))
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
        "end": end_reason(o),
    });
    // A ruleset with an `outcome:` has its returns after the winners.
    let returns = o
        .returns
        .as_ref()
        .map(|r| json!((0..r.values.len()).map(|p| r.value(p)).collect::<Vec<_>>()));
    // serde_json's map sorts its keys: the line is put together in the documented order,
    // the stats in the order the ruleset declares them.
    let mut out = ordered(KEYS.iter().flat_map(|k| {
        let extra = (*k == "winners").then_some(()).and(returns.as_ref());
        std::iter::once((*k, &line[*k])).chain(extra.map(|r| ("returns", r)))
    }));
    out.pop();
    out.push_str(",\"stats\":");
    out.push_str(&ordered(run.stats.iter().copied().zip(stats)));
    out.push('}');
    out
}

/// Writes a game `played` in the run as one line (JSON Lines): the games are written one
/// at a time, as they are handed on in order.
pub fn write_game(run: &RunInfo, played: &Played, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{}",
        game_line(
            run,
            played.index,
            played.seed,
            &played.record,
            &played.stats
        )
    )
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

/// The summary of the games a run (or its `shard`) played, as `simulate --json` prints
/// it: wins, win rate and scores per seat, shared victories, mean length, each `stats:`
/// entry; with returns (`outcome:`), each seat's mean return and the draws.
pub fn summary_json(run: &RunInfo, shard: Option<Shard>, summary: &Summary) -> Value {
    let s = summary;
    let g = s.games as f64;
    let seats: Vec<Value> = (0..s.players)
        .map(|p| {
            let sc = &s.scores[p];
            let mut seat = json!({
                "seat": run.players.get(p),
                "agent": run.agents.get(p).map(|a| a.text.as_str()),
                "wins": rounded(s.wins[p]),
                "win_rate": rounded(if g > 0.0 { s.wins[p] / g } else { 0.0 }),
                "mean_score": rounded(if g > 0.0 { sc.sum() as f64 / g } else { 0.0 }),
                "min_score": sc.min(),
                "max_score": sc.max(),
            });
            if let (Some(returns), Some(seat)) = (&s.returns, seat.as_object_mut()) {
                let mean = if g > 0.0 { returns[p] / g } else { 0.0 };
                seat.insert("mean_return".into(), json!(rounded(mean)));
            }
            seat
        })
        .collect();
    let mut summary = json!({
        "ruleset": run.ruleset,
        "players": s.players,
        "seed": run.run_seed,
        "games": run.games,
        "shard": shard.map(|sh| {
            let range = sh.range(run.games);
            json!({"k": sh.k, "n": sh.n, "first_game": range.start + 1, "last_game": range.end})
        }),
        "played": s.games,
        "seats": seats,
        "shared_victories": s.shared,
        "mean_decisions": rounded(s.mean_decisions()),
        "mean_chances": rounded(s.mean_chances()),
        "stats": run.stats.iter().zip(&s.stats).map(|(name, v)| (name.to_string(), stat_json(v))).collect::<serde_json::Map<_, _>>(),
    });
    // Games with returns (`outcome:`) can be drawn.
    if let (Some(_), Some(summary)) = (&s.returns, summary.as_object_mut()) {
        summary.insert("draws".into(), json!(s.draws));
    }
    summary
}

/// The games of shard files put back in the order of the unsharded run (`frontier
/// merge`). Every game of the run must be there exactly once, and every line must belong
/// to the same run.
#[derive(Default)]
pub struct Merge {
    /// Each game's number and line, as read.
    lines: Vec<(u64, String)>,
    /// What every line of the run shares ([`run_identity`]), and where it was first read.
    identity: Option<(Value, String)>,
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

impl Merge {
    /// Takes the lines of one file (`file`: its name, for messages); blank lines are
    /// skipped.
    pub fn add(&mut self, file: &str, text: &str) -> Result<(), String> {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{file}:{}", i + 1);
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
            match &self.identity {
                None => self.identity = Some((id, at.clone())),
                Some((first, where_)) if *first != id => {
                    return Err(format!("{at}: a game of another run than {where_} (ruleset, run_seed, games, players and agents differ)"));
                }
                _ => {}
            }
            self.lines.push((game, line.to_string()));
        }
        Ok(())
    }

    /// The run's lines in order, each ended by a newline; refuses a run with a game
    /// missing or given twice.
    pub fn finish(self) -> Result<String, String> {
        let Some((id, _)) = self.identity else {
            return Err("the files hold no games".into());
        };
        let mut lines = self.lines;
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
        Ok(out)
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
    fn shards_read_as_k_of_n_take_their_block_of_games() {
        // (text, its games in a run of 10): from ⌊(k − 1)·10/n⌋ to ⌊k·10/n⌋.
        let cases: &[(&str, Range<u64>)] = &[
            ("1/3", 0..3),
            ("2/3", 3..6),
            ("3/3", 6..10),
            (" 2 / 4 ", 2..5),
            ("1/1", 0..10),
            // More shards than games: some are empty.
            ("1/20", 0..0),
            ("2/20", 0..1),
            ("3/20", 1..1),
        ];
        for (text, games) in cases {
            assert_eq!(
                Shard::parse(text).map(|s| s.range(10)),
                Ok(games.clone()),
                "{text}"
            );
        }
    }

    #[test]
    fn bad_shards_are_refused() {
        for bad in ["0/4", "5/4", "1/0", "x/2", "2", "-1/3", "1/2/3", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Shard::parse("3/8"), Ok(Shard { k: 3, n: 8 }));
    }

    fn record(scores: &[i64], ranks: &[u8], ended_by: Option<&str>) -> GameRecord {
        GameRecord {
            outcome: Outcome {
                scores: scores.to_vec(),
                tiebreaks: scores.iter().map(|&s| vec![s % 2]).collect(),
                ranks: ranks.to_vec(),
                ended_by: ended_by.map(Into::into),
                returns: None,
            },
            decisions: 7,
            chances: 2,
            steps: Vec::new(),
            log: Vec::new(),
        }
    }

    #[test]
    fn a_game_line_has_its_keys_in_the_documented_order_and_the_stats_as_declared() {
        let players = ["p1".to_string(), "p2".to_string()];
        let agents = [
            AgentSpec::parse("random").unwrap(),
            AgentSpec::parse("mcts:iterations=5").unwrap(),
        ];
        let run = RunInfo {
            ruleset: "tiny",
            run_seed: 9,
            games: 2,
            players: &players,
            agents: &agents,
            // Not in alphabetical order: the declared order stands.
            stats: vec!["long", "ended"],
        };
        let line = game_line(
            &run,
            1,
            42,
            &record(&[3, 5], &[2, 1], Some("play[0]")),
            &[json!(12), json!(true)],
        );
        assert_eq!(
            line,
            concat!(
                r#"{"ruleset":"tiny","run_seed":9,"games":2,"game":2,"seed":42,"players":["p1","p2"],"#,
                r#""agents":["random","mcts:iterations=5"],"scores":[3,5],"tiebreaks":[[1],[1]],"#,
                r#""ranks":[2,1],"winners":["p2"],"decisions":7,"chances":2,"end":"end_game at play[0]","#,
                r#""stats":{"long":12,"ended":true}}"#
            )
        );
        // A shared victory names both winners; a game the play flow ended says so.
        let shared = game_line(
            &run,
            0,
            1,
            &record(&[4, 4], &[1, 1], None),
            &[json!(1), json!(false)],
        );
        assert!(shared.contains(r#""winners":["p1","p2"]"#), "{shared}");
        assert!(
            shared.contains(r#""end":"the play flow ended""#),
            "{shared}"
        );
    }

    #[test]
    fn a_summary_as_json_gives_rates_means_and_the_shard() {
        let players = ["p1".to_string(), "p2".to_string()];
        let agents = vec![AgentSpec::parse("random").unwrap(); 2];
        let run = RunInfo {
            ruleset: "tiny",
            run_seed: 3,
            games: 4,
            players: &players,
            agents: &agents,
            stats: vec!["ended"],
        };
        let played = [
            Played {
                index: 2,
                seed: 0,
                record: record(&[10, 4], &[1, 2], None),
                stats: vec![json!(true)],
            },
            Played {
                index: 3,
                seed: 0,
                record: record(&[6, 8], &[2, 1], None),
                stats: vec![json!(false)],
            },
        ];
        let summary = Summary::of(2, &played);
        let doc = summary_json(&run, Some(Shard { k: 2, n: 2 }), &summary);
        // Shard 2 of 2 of 4 games: games 3 and 4. p1: 1 win of 2, scores 10 and 6 (mean 8);
        // p2: 1 win, 4 and 8 (mean 6). 7 decisions and 2 chances a game.
        assert_eq!(
            doc["shard"],
            json!({"k": 2, "n": 2, "first_game": 3, "last_game": 4})
        );
        assert_eq!(doc["played"], 2);
        assert_eq!(doc["games"], 4);
        let seat = |p: usize, key: &str| doc["seats"][p][key].clone();
        assert_eq!(
            (seat(0, "wins"), seat(0, "win_rate")),
            (json!(1.0), json!(0.5))
        );
        assert_eq!(
            (
                seat(0, "mean_score"),
                seat(0, "min_score"),
                seat(0, "max_score")
            ),
            (json!(8.0), json!(6), json!(10))
        );
        assert_eq!(
            (
                seat(1, "mean_score"),
                seat(1, "min_score"),
                seat(1, "max_score")
            ),
            (json!(6.0), json!(4), json!(8))
        );
        assert_eq!(
            (doc["mean_decisions"].clone(), doc["mean_chances"].clone()),
            (json!(7.0), json!(2.0))
        );
        assert_eq!(doc["stats"]["ended"]["true"], 1);
        assert_eq!(summary_json(&run, None, &summary)["shard"], Value::Null);
    }

    /// A game line with only what merging reads.
    fn line(ruleset: &str, game: u64, games: u64) -> String {
        json!({"ruleset": ruleset, "run_seed": 1, "games": games, "game": game, "players": ["p1", "p2"], "agents": ["random", "random"]}).to_string()
    }

    /// Files (name, text) and what merging them gives: the merged text, or the start of
    /// the message.
    type MergeCase<'a> = (Vec<(&'a str, String)>, Result<String, String>);

    #[test]
    fn merging_puts_a_runs_games_in_order_or_says_what_is_wrong() {
        let (l1, l2, l3) = (line("r", 1, 3), line("r", 2, 3), line("r", 3, 3));
        let cases: Vec<MergeCase> = vec![
            (
                vec![("a", format!("{l2}\n{l3}\n")), ("b", format!("\n{l1}"))],
                Ok(format!("{l1}\n{l2}\n{l3}\n")),
            ),
            (
                vec![("a", format!("{l1}\n{l2}"))],
                Err("1 of the run's 3 games are missing (games 3): is a shard missing?".into()),
            ),
            (
                vec![("a", line("r", 1, 12))],
                Err("11 of the run's 12 games are missing (games 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, …): is a shard missing?".into()),
            ),
            (
                vec![("a", format!("{l1}\n{l2}\n{l3}")), ("b", l2.clone())],
                Err("game 2 is in the files twice (the same shard given twice?)".into()),
            ),
            (
                vec![("a", l1.clone()), ("b", format!("\n{}", line("s", 2, 3)))],
                Err("b:2: a game of another run than a:1 (ruleset, run_seed, games, players and agents differ)".into()),
            ),
            (vec![("a", "not json".into())], Err("a:1: not a JSON object: ".into())),
            (vec![("a", r#"{"games": 3}"#.into())], Err(r#"a:1: no game number ("game")"#.into())),
            (vec![("a", r#"{"game": 1}"#.into())], Err(r#"a:1: no game count ("games")"#.into())),
            (vec![("a", line("r", 4, 3))], Err("a:1: game 4 of a run of 3 games".into())),
            (vec![("a", "\n\n".into())], Err("the files hold no games".into())),
        ];
        for (files, expected) in cases {
            let mut merge = Merge::default();
            let merged = files
                .iter()
                .try_for_each(|(name, text)| merge.add(name, text))
                .and_then(|()| merge.finish());
            match (&merged, &expected) {
                (Ok(text), Ok(want)) => assert_eq!(text, want),
                (Err(message), Err(start)) => {
                    assert!(message.starts_with(start.as_str()), "{message}")
                }
                _ => panic!("{files:?}: {merged:?}, expected {expected:?}"),
            }
        }
    }
}
