//! `frontier simulate`: many seeded games between bots, summarized, and written as data
//! (`--out`, one JSON object per game). The output depends only on the ruleset, the player
//! count, the agents, the number of games and the seed; `--shard K/N` plays the games of
//! one part of such a run, each with the seed the whole run gives it.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use clap::Args;
use frontier_interpreter::runner::Recording;
use frontier_study::results::{self, RunInfo, Shard};
use frontier_study::statistics::stat_json;
use frontier_study::{Games, Played, Settings, Summary};

use crate::bots::AgentList;

#[derive(Args)]
pub struct SimulateArgs {
    /// The game: an embedded ruleset name (see `frontier list`) or a path to a ruleset file or folder.
    #[arg(value_name = "RULESET")]
    pub ruleset: String,
    /// Number of players (default: as many as --agents names when more than one, else the
    /// ruleset's minimum).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// How many games (at least 1).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Seed of the whole run (game i uses a seed derived from it).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// One agent per seat, comma-separated, or one for every seat (default: random):
    /// random, mcts[:options] or ismcts[:options], e.g. mcts:iterations=200,random
    /// (docs/agents.md).
    #[arg(long, value_name = "AGENTS", value_parser = crate::bots::parse_agent_list)]
    pub agents: Option<AgentList>,
    /// Threads that play games (and search trees, mcts:trees=N) at once (1 to 256; default: one per
    /// core). The results do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Write each game's trace into this folder (game-0001.trace, …); a folder that
    /// already holds game traces is refused unless --force.
    #[arg(long, value_name = "DIR")]
    pub trace_out: Option<std::path::PathBuf>,
    /// Write one JSON object per game to this file (JSON Lines; docs/results.md); a file
    /// already there is replaced only with --force.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub force: crate::output::ForceArg,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Play only part K of N of the run (e.g. 3/8), each game with the seed the whole run
    /// gives it; `frontier merge` puts the parts' --out files back together.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

/// Games `range` of the run seeded `seed`, each handed to `sink` in order as it is
/// played (nothing keeps them all), with a progress bar on stderr when it is a terminal
/// (`label` before the bar).
pub fn play_games(
    games: &Games,
    seed: u64,
    range: std::ops::Range<u64>,
    label: &str,
    sink: &mut (dyn FnMut(Played) -> Result<(), String> + Send),
) -> Result<(), String> {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(range.end - range.start);
        let template = format!("{label}{{bar:40}} {{pos}}/{{len}} games {{per_sec}} eta {{eta}}");
        bar.set_style(
            indicatif::ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let played = games.play_run(
        seed,
        range,
        &|| {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        },
        sink,
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    played
}

/// One line per statistic for the text summary.
fn stat_lines(names: &[&str], s: &Summary) -> Vec<String> {
    names
        .iter()
        .zip(&s.stats)
        .map(|(name, values)| {
            let v = stat_json(values);
            match v.get("rate") {
                Some(rate) => format!(
                    "{name}: {} of {} games ({:.1}%)",
                    v["true"],
                    values.n,
                    100.0 * rate.as_f64().unwrap_or(0.0)
                ),
                None => format!(
                    "{name}: mean {:.2}, min {}, max {}",
                    v["mean"].as_f64().unwrap_or(0.0),
                    v["min"],
                    v["max"]
                ),
            }
        })
        .collect()
}

pub fn run(args: SimulateArgs, settings: &Settings) -> Result<(), String> {
    let game = crate::source::load_ruleset(&args.ruleset, settings)?;
    let agents = args.agents.as_ref().map(|a| a.0.as_slice());
    let asked = args
        .players
        .or(agents.filter(|a| a.len() > 1).map(|a| a.len()));
    let n = crate::player_count(&game, asked)?;
    let specs = crate::bots::seat_agents(agents, n).unwrap_or_else(|e| crate::usage_error(e));
    crate::bots::warn_if_timed(&specs);
    let range = args.shard.map_or(0..args.games, |s| s.range(args.games));
    crate::check_game_count(range.end - range.start);
    if let Some(path) = &args.out {
        // Refuse a place that cannot be written before playing, not after.
        crate::output::refuse_ruleset_file(path, Path::new(&args.ruleset), "--out")?;
        crate::output::check_output(path, args.force.existing(), "--out")?;
    }
    if let Some(dir) = &args.trace_out {
        crate::output::check_output_folder(dir, args.force.existing(), "--trace-out", |name| {
            name.starts_with("game-") && name.ends_with(".trace")
        })?;
    }
    let started = Instant::now();
    let recording = if args.trace_out.is_some() {
        Recording::Steps
    } else {
        Recording::Counts
    };
    let games = Games::new(&game, &specs, recording, settings, crate::bots::clock);
    let names = crate::seat_names(n);
    let run = RunInfo {
        ruleset: &game.meta.name,
        run_seed: args.seed,
        games: args.games,
        players: &names,
        agents: &specs,
        stats: RunInfo::stat_names(&game),
    };
    // Each game is written and summed up as it comes, in order, then forgotten: the lines
    // go into a temporary file renamed onto --out at the end, each trace into a temporary
    // file of its own renamed onto game-NNNN.trace at the end; when a game fails, nothing
    // is left of either.
    let mut out = match &args.out {
        Some(path) => Some(crate::output::AtomicFile::create(path)?),
        None => None,
    };
    let mut traces = args.trace_out.as_deref().map(|dir| {
        crate::output::StagedFiles::new(
            dir,
            |index| format!("game-{:04}.trace", index + 1),
            range.start,
        )
    });
    let mut s = Summary::new(n);
    play_games(&games, args.seed, range.clone(), "", &mut |p: Played| {
        if let Some(traces) = &mut traces {
            let text = crate::traces::trace_text(
                &args.ruleset,
                &names,
                p.seed,
                &p.record.steps,
                Some(&p.record.outcome),
            );
            crate::output::check_trace_size(&text, &game.limits)
                .map_err(|e| format!("game {}: {e}", p.index))?;
            traces.add(p.index, text.as_bytes())?;
        }
        if let Some(file) = &mut out {
            file.write(|w| results::write_game(&run, &p, w))?;
        }
        s.add(&p);
        Ok(())
    })?;
    if let Some(traces) = traces {
        traces.finish()?;
    }
    if let Some(file) = out {
        file.finish()?;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let g = s.games as f64;
    if args.json {
        let summary = results::summary_json(&run, args.shard, &s);
        println!(
            "{}",
            serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?
        );
    } else {
        match args.shard {
            Some(sh) => println!(
                "{}: {} games (shard {}/{}: games {}-{} of {}), {n} players, seed {}",
                game.meta.name,
                s.games,
                sh.k,
                sh.n,
                range.start + 1,
                range.end,
                args.games,
                args.seed
            ),
            None => println!(
                "{}: {}, {n} players, seed {}",
                game.meta.name,
                crate::words::counted(s.games, "game"),
                args.seed
            ),
        }
        if specs.iter().any(|a| a.text != "random") {
            println!(
                "agents: {}",
                specs
                    .iter()
                    .map(|a| a.text.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            );
        }
        println!("seat  wins (shared split)  mean score  min  max");
        for p in 0..n {
            let sc = &s.scores[p];
            let mean = if g > 0.0 { sc.sum() as f64 / g } else { 0.0 };
            println!(
                "p{:<4} {:>8.1} ({:>5.1}%)  {:>10.2}  {:>3}  {:>3}",
                p + 1,
                s.wins[p],
                if g > 0.0 { 100.0 * s.wins[p] / g } else { 0.0 },
                mean,
                sc.min().unwrap_or(0),
                sc.max().unwrap_or(0)
            );
        }
        println!("shared victories: {}", s.shared);
        if let Some(returns) = &s.returns {
            let means: Vec<String> = returns
                .iter()
                .enumerate()
                .map(|(p, r)| format!("p{} {:.3}", p + 1, if g > 0.0 { r / g } else { 0.0 }))
                .collect();
            println!(
                "draws: {} ({:.1}%)",
                s.draws,
                if g > 0.0 {
                    100.0 * s.draws as f64 / g
                } else {
                    0.0
                }
            );
            println!("mean returns: {}", means.join(", "));
        }
        println!("mean decisions per game: {:.1}", s.mean_decisions());
        for line in stat_lines(&run.stats, &s) {
            println!("{line}");
        }
    }
    // Timing varies from run to run: it goes to stderr so stdout stays reproducible.
    eprintln!(
        "{} ({} threads)",
        rate_text(g, elapsed),
        rayon::current_num_threads()
    );
    Ok(())
}

/// How fast games were played, to two significant digits below 10 games/s (`3.5 games/s`,
/// `0.17 games/s`), whole above; under one game a second also the seconds a game takes,
/// so a slow run (search bots) never reads `0 games/s`.
fn rate_text(games: f64, seconds: f64) -> String {
    let rate = games / seconds.max(1e-9);
    if rate.is_nan() || rate <= 0.0 || rate.is_infinite() {
        return "0 games/s".to_string();
    }
    let digits = (1 - rate.log10().floor() as i64).clamp(0, 9) as usize;
    let mut text = format!("{rate:.digits$} games/s");
    if rate < 1.0 {
        text.push_str(&format!(", {:.1} s a game", seconds / games));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    #[test]
    fn rates_keep_two_significant_digits_and_slow_runs_say_seconds_a_game() {
        // 1000 games in 2 s: 500 a second.
        assert_eq!(rate_text(1000.0, 2.0), "500 games/s");
        assert_eq!(rate_text(25.0, 2.0), "12 games/s");
        // 7 in 2 s: 3.5.
        assert_eq!(rate_text(7.0, 2.0), "3.5 games/s");
        // 2 search games in 12 s: 0.1666… a second, 6 s a game.
        assert_eq!(rate_text(2.0, 12.0), "0.17 games/s, 6.0 s a game");
        // 2 in 5 s: 0.4, 2.5 s a game.
        assert_eq!(rate_text(2.0, 5.0), "0.40 games/s, 2.5 s a game");
        // 1 in 250 s: 0.004.
        assert_eq!(rate_text(1.0, 250.0), "0.0040 games/s, 250.0 s a game");
        assert_eq!(rate_text(0.0, 3.0), "0 games/s");
    }
}
