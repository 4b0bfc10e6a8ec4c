//! `frontier balance`: a base ruleset and its variants, each played the same seeded games
//! and compared (frontier_study::balance), written as a self-contained HTML page and as
//! JSON (docs/results.md describes the JSON), with a short summary on stdout.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use frontier_interpreter::runner::Recording;
use frontier_interpreter::Game;
use frontier_study::balance::{Balance, Labels, RulesetGames};
use frontier_study::{Games, Settings, Summary};
use serde_json::Value;

use crate::bots::AgentList;
use crate::simulate;

#[derive(Args)]
pub struct BalanceArgs {
    /// The base game: an embedded ruleset name or a path to a ruleset file or folder.
    #[arg(value_name = "BASE")]
    pub base: String,
    /// A variant to compare with the base (repeat for several): an embedded name or a path.
    #[arg(long = "variant", value_name = "V")]
    pub variants: Vec<String>,
    /// Number of players (default: as many as --agents names when more than one, else the
    /// base's minimum).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Games per ruleset (at least 1).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// One agent per seat, comma-separated, or one for every seat (default: random):
    /// random, mcts[:options] or ismcts[:options], e.g. mcts:iterations=200,random
    /// (docs/agents.md).
    #[arg(long, value_name = "AGENTS", value_parser = crate::bots::parse_agent_list)]
    pub agents: Option<AgentList>,
    /// Threads that play games (and search trees, mcts:trees=N) at once (1 to 256; default: one per
    /// core). The report does not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Seed of the run: every ruleset plays the games of this seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the report as a self-contained HTML page (tables and SVG plots).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write the report as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

pub fn run(args: BalanceArgs, settings: &Settings) -> Result<(), String> {
    if args.report.is_none() && args.json.is_none() {
        return Err("nothing to write: give --report FILE (HTML) and/or --json FILE".into());
    }
    for path in args.report.iter().chain(args.json.iter()) {
        crate::output::check_file(path)?;
    }
    crate::check_game_count(args.games);
    let base = crate::source::load_ruleset(&args.base, settings)?;
    let agents = args.agents.as_ref().map(|a| a.0.as_slice());
    let asked = args
        .players
        .or(agents.filter(|a| a.len() > 1).map(|a| a.len()));
    let n = crate::player_count(&base, asked)?;
    let specs = crate::bots::seat_agents(agents, n).unwrap_or_else(|e| crate::usage_error(e));
    crate::bots::warn_if_timed(&specs);
    let mut variant_games = Vec::new();
    for v in &args.variants {
        let g = crate::source::load_ruleset(v, settings)?;
        crate::player_count(&g, Some(n)).map_err(|e| format!("variant {v}: {e}"))?;
        variant_games.push((v.clone(), g));
    }
    let mut labels = Labels::default();
    let mut play = |source: &str, game: &Game| -> Result<RulesetGames, String> {
        let label = labels.next(&game.meta.name, source);
        let games = Games::new(
            game,
            &specs,
            Recording::Counts,
            settings,
            crate::bots::clock,
        );
        // Each game is summed up as it is played, in order, then forgotten.
        let mut summary = Summary::new(n);
        simulate::play_games(
            &games,
            args.seed,
            0..args.games,
            &format!("{label} "),
            &mut |p| {
                summary.add(&p);
                Ok(())
            },
        )
        .map_err(|e| format!("{source}: {e}"))?;
        let stat_names = game.stats.iter().map(|st| st.name.clone()).collect();
        Ok(RulesetGames::new(
            label,
            source.to_string(),
            stat_names,
            summary,
        ))
    };
    let base = play(&args.base, &base)?;
    let variants = variant_games
        .iter()
        .map(|(source, game)| play(source, game))
        .collect::<Result<Vec<_>, _>>()?;
    let balance = Balance::new(args.games, args.seed, specs, base, variants)?;
    let report = balance.report();
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n";
        crate::output::write_atomically(path, text.as_bytes())?;
    }
    if let Some(path) = &args.report {
        crate::output::write_atomically(path, balance.html().as_bytes())?;
    }
    print!("{}", text_summary(&report));
    Ok(())
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

fn text_summary(r: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "balance: {} players, {} games per ruleset, seed {}",
        r["players"], r["games"], r["seed"]
    );
    for rs in r["rulesets"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "{} ({}): mean decisions {:.1}",
            rs["name"].as_str().unwrap_or(""),
            rs["role"].as_str().unwrap_or(""),
            f(&rs["length"]["decisions"]["mean"])
        );
        for s in rs["seats"].as_array().into_iter().flatten() {
            let _ = writeln!(
                out,
                "  {:<4} win rate {:>5.1}% [{:>5.1}%, {:>5.1}%]  mean score {:>7.2}",
                s["seat"].as_str().unwrap_or(""),
                100.0 * f(&s["win_rate"]),
                100.0 * f(&s["ci_low"]),
                100.0 * f(&s["ci_high"]),
                f(&s["score"]["mean"])
            );
        }
        let fp = &rs["first_player"];
        let _ = writeln!(
            out,
            "  first-player advantage {:+.1} points (p = {:.3})",
            100.0 * f(&fp["advantage"]),
            f(&fp["p_value"])
        );
        for (name, st) in rs["stats"].as_object().into_iter().flatten() {
            let _ = match st["kind"].as_str() {
                Some("bool") => writeln!(out, "  {name}: {:.1}% of games", 100.0 * f(&st["rate"])),
                _ => writeln!(
                    out,
                    "  {name}: mean {:.2} (min {}, max {})",
                    f(&st["mean"]),
                    st["min"],
                    st["max"]
                ),
            };
        }
    }
    for c in r["comparisons"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "{} vs {}:",
            c["variant"].as_str().unwrap_or(""),
            c["base"].as_str().unwrap_or("")
        );
        for s in c["seats"].as_array().into_iter().flatten() {
            let _ = writeln!(
                out,
                "  {:<4} win rate {:+.1} points (p = {:.3}){}",
                s["seat"].as_str().unwrap_or(""),
                100.0 * f(&s["difference"]),
                f(&s["p_value"]),
                if s["significant"].as_bool() == Some(true) {
                    " *"
                } else {
                    ""
                }
            );
        }
        let d = &c["decisions"];
        let _ = writeln!(
            out,
            "  decisions per game {:+.1} (p = {:.3})",
            f(&d["difference"]),
            f(&d["p_value"])
        );
        for (name, st) in c["stats"].as_object().into_iter().flatten() {
            let star = if st["significant"].as_bool() == Some(true) {
                " *"
            } else {
                ""
            };
            let _ = match st["kind"].as_str() {
                Some("bool") => writeln!(
                    out,
                    "  {name} {:+.1} points (p = {:.3}){star}",
                    100.0 * f(&st["difference"]),
                    f(&st["p_value"])
                ),
                _ => writeln!(
                    out,
                    "  {name} {:+.2} (p = {:.3}){star}",
                    f(&st["difference"]),
                    f(&st["p_value"])
                ),
            };
        }
    }
    out
}
