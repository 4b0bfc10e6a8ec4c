//! `frontier balance`: a base ruleset and its variants, each played the same seeded games
//! and compared (frontier_study::balance), written as a self-contained HTML page and as
//! JSON (docs/results.md describes the JSON), with a short summary on stdout.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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
    #[command(flatten)]
    pub force: crate::output::ForceArg,
}

pub fn run(args: BalanceArgs, settings: &Settings) -> Result<(), String> {
    if args.report.is_none() && args.json.is_none() {
        return Err("nothing to write: give --report FILE (HTML) and/or --json FILE".into());
    }
    for (path, what) in [(&args.report, "--report"), (&args.json, "--json")] {
        let Some(path) = path else { continue };
        for ruleset in std::iter::once(&args.base).chain(&args.variants) {
            crate::output::refuse_ruleset_file(path, Path::new(ruleset), what)?;
        }
        crate::output::check_output(path, args.force.existing(), what)?;
    }
    if let (Some(report), Some(json)) = (&args.report, &args.json) {
        crate::output::refuse_same_output(report, json, "--report and --json")?;
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

/// ` *` after a number whose difference is significant (its `significant` flag is true).
fn mark(flag: &Value) -> &'static str {
    if flag.as_bool() == Some(true) {
        " *"
    } else {
        ""
    }
}

/// The report as text: what the JSON and HTML reports show, significant differences
/// marked ` *` as the HTML page marks them, with the legend line after them.
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
            "  first-player advantage {:+.1} points (p = {:.3}){}",
            100.0 * f(&fp["advantage"]),
            f(&fp["p_value"]),
            mark(&fp["significant"])
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
                "  {:<4} win rate {:+.1} points (p = {:.3}){}  mean score {:+.2} (p = {:.3}){}",
                s["seat"].as_str().unwrap_or(""),
                100.0 * f(&s["difference"]),
                f(&s["p_value"]),
                mark(&s["significant"]),
                f(&s["mean_score_difference"]),
                f(&s["score_p_value"]),
                mark(&s["score_significant"])
            );
        }
        let d = &c["decisions"];
        let _ = writeln!(
            out,
            "  decisions per game {:+.1} (p = {:.3}){}",
            f(&d["difference"]),
            f(&d["p_value"]),
            mark(&d["significant"])
        );
        for (name, st) in c["stats"].as_object().into_iter().flatten() {
            let star = mark(&st["significant"]);
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
    let _ = writeln!(
        out,
        "* significant: p < {} (two-sided z-test; no correction for multiple comparisons)",
        r["alpha"]
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report with one variant, its numbers chosen so that each kind of line shows a
    /// mark where its flag is set and none where it is not.
    #[test]
    fn the_text_marks_what_is_significant_and_says_what_the_mark_means() {
        let report = serde_json::json!({
            "players": 2, "games": 100, "seed": 7, "alpha": 0.05,
            "rulesets": [{
                "name": "base", "role": "base",
                "length": { "decisions": { "mean": 41.25 } },
                "seats": [
                    { "seat": "p1", "win_rate": 0.62, "ci_low": 0.522, "ci_high": 0.709, "score": { "mean": 12.5 } },
                    { "seat": "p2", "win_rate": 0.38, "ci_low": 0.291, "ci_high": 0.478, "score": { "mean": 10.0 } }
                ],
                "first_player": { "advantage": 0.12, "p_value": 0.016, "significant": true },
                "stats": {}
            }],
            "comparisons": [{
                "base": "base", "variant": "short",
                "seats": [
                    { "seat": "p1", "difference": -0.15, "p_value": 0.03, "significant": true,
                      "mean_score_difference": -0.5, "score_p_value": 0.4, "score_significant": false },
                    { "seat": "p2", "difference": 0.15, "p_value": 0.03, "significant": true,
                      "mean_score_difference": 2.25, "score_p_value": 0.001, "score_significant": true }
                ],
                "decisions": { "difference": -3.5, "p_value": 0.2, "significant": false },
                "stats": {
                    "long": { "kind": "bool", "difference": -0.1, "p_value": 0.049, "significant": true },
                    "towns": { "kind": "int", "difference": 0.5, "p_value": 0.5, "significant": false }
                }
            }]
        });
        let expected = "\
balance: 2 players, 100 games per ruleset, seed 7
base (base): mean decisions 41.2
  p1   win rate  62.0% [ 52.2%,  70.9%]  mean score   12.50
  p2   win rate  38.0% [ 29.1%,  47.8%]  mean score   10.00
  first-player advantage +12.0 points (p = 0.016) *
short vs base:
  p1   win rate -15.0 points (p = 0.030) *  mean score -0.50 (p = 0.400)
  p2   win rate +15.0 points (p = 0.030) *  mean score +2.25 (p = 0.001) *
  decisions per game -3.5 (p = 0.200)
  long -10.0 points (p = 0.049) *
  towns +0.50 (p = 0.500)
* significant: p < 0.05 (two-sided z-test; no correction for multiple comparisons)
";
        assert_eq!(text_summary(&report), expected);
    }
}
