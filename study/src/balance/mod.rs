//! The balance of a ruleset: a base ruleset and its variants, each played the same seeded
//! games (game i of every ruleset has the same seed), compared: win rate per seat with 95%
//! Wilson intervals, first-player advantage, score distributions, game length, and each
//! variant against the base with two-sided z-tests. The report is JSON (docs/results.md)
//! and a self-contained HTML page (html.rs).

mod html;

use std::collections::HashSet;

use frontier_interpreter::roster::AgentSpec;
use serde_json::{json, Value};

use crate::games::seat_names;
use crate::statistics::{
    json_number, means_test, p_two_sided, stat_json, two_proportions, wilson, Dist, StatValues,
};
use crate::summary::Summary;

/// Differences with a p-value below this are called significant.
pub const ALPHA: f64 = 0.05;

/// One ruleset's games in a balance study, summed up.
pub struct RulesetGames {
    /// What the report calls it ([`Labels`]).
    pub label: String,
    /// The ruleset as it was named: an embedded name or a path.
    pub source: String,
    pub summary: Summary,
    /// Per seat, the distribution of its scores.
    pub scores: Vec<Dist>,
    pub decisions: Dist,
    pub chances: Dist,
    /// The names of the ruleset's `stats:` (values in `summary.stats`).
    pub stat_names: Vec<String>,
}

impl RulesetGames {
    /// The games of a ruleset summed up in `summary`, with the distributions the report
    /// reads.
    pub fn new(label: String, source: String, stat_names: Vec<String>, summary: Summary) -> Self {
        let scores = summary.scores.iter().map(Dist::of_tally).collect();
        let decisions = Dist::of_tally(&summary.decisions);
        let chances = Dist::of_tally(&summary.chances);
        RulesetGames {
            label,
            source,
            summary,
            scores,
            decisions,
            chances,
            stat_names,
        }
    }
}

/// The labels of a study's rulesets: a ruleset's name, or, when a ruleset before it has
/// that name (a variant that keeps its base's), the source it was named by.
#[derive(Default)]
pub struct Labels {
    taken: HashSet<String>,
}

impl Labels {
    /// The label of the next ruleset, named `name`, given as `source`.
    pub fn next(&mut self, name: &str, source: &str) -> String {
        let label = if self.taken.insert(name.to_string()) {
            name.to_string()
        } else {
            source.to_string()
        };
        self.taken.insert(label.clone());
        label
    }
}

/// A balance study: the base ruleset and its variants, each over the same seeded games
/// between the same agents.
pub struct Balance {
    /// Games per ruleset.
    games: u64,
    /// The run's seed: game i of every ruleset has the same seed.
    seed: u64,
    /// One per seat.
    agents: Vec<AgentSpec>,
    base: RulesetGames,
    variants: Vec<RulesetGames>,
}

/// A statistic of a variant against the base's: two-proportion z-test (true/false) or
/// Welch's z (numbers).
pub fn stat_comparison(base: &StatValues, variant: &StatValues) -> Value {
    let (nb, nv) = (base.n as f64, variant.n as f64);
    if base.all_bool() && variant.all_bool() {
        let (xb, xv) = (base.trues as f64, variant.trues as f64);
        let (z, p) = two_proportions(xb, nb, xv, nv);
        json!({ "kind": "bool", "base": json_number(xb / nb), "variant": json_number(xv / nv), "difference": json_number(xv / nv - xb / nb),
                "z": json_number(z), "p_value": json_number(p), "significant": p < ALPHA })
    } else {
        let (db, dv) = (
            Dist::of_tally(&base.numbers),
            Dist::of_tally(&variant.numbers),
        );
        let (z, p) = means_test(&db, &dv);
        json!({ "kind": "int", "base": json_number(db.mean), "variant": json_number(dv.mean), "difference": json_number(dv.mean - db.mean),
                "z": json_number(z), "p_value": json_number(p), "significant": p < ALPHA })
    }
}

impl Balance {
    /// The study of `base` and `variants`, `games` games each from the run seeded `seed`
    /// between `agents`, one per seat. Refuses a ruleset whose games do not have one seat
    /// per agent, which the report could not compare.
    pub fn new(
        games: u64,
        seed: u64,
        agents: Vec<AgentSpec>,
        base: RulesetGames,
        variants: Vec<RulesetGames>,
    ) -> Result<Balance, String> {
        let seats = agents.len();
        for r in std::iter::once(&base).chain(&variants) {
            let s = &r.summary;
            if [s.players, s.wins.len(), s.scores.len(), r.scores.len()] != [seats; 4] {
                return Err(format!(
                    "{}: games of {} players, not one per agent ({seats})",
                    r.label, s.players
                ));
            }
        }
        Ok(Balance {
            games,
            seed,
            agents,
            base,
            variants,
        })
    }

    pub fn players(&self) -> usize {
        self.agents.len()
    }

    /// The base, then the variants.
    fn rulesets(&self) -> Vec<&RulesetGames> {
        std::iter::once(&self.base).chain(&self.variants).collect()
    }

    /// The report as JSON (docs/results.md): per ruleset, win rates per seat with their
    /// intervals, the first player's advantage, scores, length, how games ended, each
    /// `stats:` entry; then each variant against the base.
    pub fn report(&self) -> Value {
        let n = self.players();
        let specs = &self.agents;
        let studies = self.rulesets();
        let names = seat_names(n);
        let rulesets: Vec<Value> = studies
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let g = s.summary.games as f64;
                let seats: Vec<Value> = (0..n)
                    .map(|p| {
                        let (lo, hi) = wilson(s.summary.wins[p], g);
                        json!({
                            "seat": names[p], "agent": specs[p].text, "wins": json_number(s.summary.wins[p]),
                            "win_rate": json_number(s.summary.wins[p] / g), "ci_low": json_number(lo), "ci_high": json_number(hi),
                            "score": s.scores[p].json(),
                        })
                    })
                    .collect();
                let first_wins = s.summary.wins.first().copied().unwrap_or(0.0);
                let p1 = first_wins / g;
                // What a seat would win in a fair game: an even share of the games not drawn.
                let fair = (1.0 - s.summary.draws as f64 / g.max(1.0)) / n as f64;
                let z = (p1 - fair) / (fair * (1.0 - fair) / g).sqrt();
                let (lo, hi) = wilson(first_wins, g);
                let mut report = json!({
                    "name": s.label,
                    "source": s.source,
                    "role": if i == 0 { "base" } else { "variant" },
                    "games": s.summary.games,
                    "seats": seats,
                    "shared_victories": s.summary.shared,
                    "ends": s.summary.ends,
                    "first_player": {
                        "win_rate": json_number(p1), "ci_low": json_number(lo), "ci_high": json_number(hi), "fair_share": json_number(fair),
                        "advantage": json_number(p1 - fair), "z": json_number(z), "p_value": json_number(p_two_sided(z)),
                        "significant": p_two_sided(z) < ALPHA,
                    },
                    "length": { "decisions": s.decisions.json(), "chances": s.chances.json() },
                    "stats": s.stat_names.iter().zip(&s.summary.stats).map(|(k, v)| (k.clone(), stat_json(v))).collect::<serde_json::Map<_, _>>(),
                });
                // Games with returns (`outcome:`) can be drawn.
                if let (Some(_), Some(report)) = (&s.summary.returns, report.as_object_mut()) {
                    report.insert("draws".into(), json!(s.summary.draws));
                }
                report
            })
            .collect();
        let base = &self.base;
        let comparisons: Vec<Value> = self
            .variants
            .iter()
            .map(|v| {
                let (gb, gv) = (base.summary.games as f64, v.summary.games as f64);
                let seats: Vec<Value> = (0..n)
                    .map(|p| {
                        let (z, pv) = two_proportions(base.summary.wins[p], gb, v.summary.wins[p], gv);
                        let (sz, sp) = means_test(&base.scores[p], &v.scores[p]);
                        json!({
                            "seat": names[p],
                            "base_win_rate": json_number(base.summary.wins[p] / gb), "variant_win_rate": json_number(v.summary.wins[p] / gv),
                            "difference": json_number(v.summary.wins[p] / gv - base.summary.wins[p] / gb),
                            "z": json_number(z), "p_value": json_number(pv), "significant": pv < ALPHA,
                            "mean_score_difference": json_number(v.scores[p].mean - base.scores[p].mean),
                            "score_z": json_number(sz), "score_p_value": json_number(sp), "score_significant": sp < ALPHA,
                        })
                    })
                    .collect();
                let (z, pv) = means_test(&base.decisions, &v.decisions);
                // The statistics both declare.
                let stats: serde_json::Map<String, Value> = base
                    .stat_names
                    .iter()
                    .zip(&base.summary.stats)
                    .filter_map(|(name, b)| {
                        let at = v.stat_names.iter().position(|n| n == name)?;
                        Some((name.clone(), stat_comparison(b, &v.summary.stats[at])))
                    })
                    .collect();
                json!({
                    "base": base.label, "variant": v.label, "seats": seats, "stats": stats,
                    "decisions": {
                        "base_mean": json_number(base.decisions.mean), "variant_mean": json_number(v.decisions.mean),
                        "difference": json_number(v.decisions.mean - base.decisions.mean), "z": json_number(z), "p_value": json_number(pv), "significant": pv < ALPHA,
                    },
                })
            })
            .collect();
        json!({
            "frontier_balance": 1,
            "base": base.label,
            "players": n,
            "games": self.games,
            "seed": self.seed,
            "agents": specs.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(),
            "confidence": 0.95,
            "alpha": ALPHA,
            "rulesets": rulesets,
            "comparisons": comparisons,
        })
    }

    /// The report as a self-contained HTML page: tables and inline SVG plots.
    pub fn html(&self) -> String {
        html::page(&self.report(), &self.rulesets())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Played;
    use frontier_interpreter::runner::GameRecord;
    use frontier_interpreter::Outcome;

    /// Two-player games: (p1's score, p2's score, the winner's seat), each of `decisions`.
    fn summary(games: &[(i64, i64, usize)], decisions: u64) -> Summary {
        let played: Vec<Played> = games
            .iter()
            .enumerate()
            .map(|(i, &(a, b, winner))| Played {
                index: i as u64,
                seed: 0,
                record: GameRecord {
                    outcome: Outcome {
                        scores: vec![a, b],
                        tiebreaks: vec![Vec::new(); 2],
                        ranks: if winner == 0 { vec![1, 2] } else { vec![2, 1] },
                        ended_by: None,
                        returns: None,
                    },
                    decisions,
                    chances: 0,
                    steps: Vec::new(),
                    log: Vec::new(),
                },
                stats: vec![json!(winner == 0), json!(a)],
            })
            .collect();
        Summary::of(2, &played)
    }

    fn ruleset(label: &str, games: &[(i64, i64, usize)], decisions: u64) -> RulesetGames {
        let names = vec!["p1_won".to_string(), "p1_score".to_string()];
        RulesetGames::new(label.into(), label.into(), names, summary(games, decisions))
    }

    fn close(value: &Value, expected: f64) -> bool {
        value.as_f64().is_some_and(|v| (v - expected).abs() < 2e-6)
    }

    #[test]
    fn labels_are_names_unless_taken() {
        // (name, source, label)
        let cases = [
            ("go-west", "go-west", "go-west"),
            ("go-west-short", "short.yaml", "go-west-short"),
            ("go-west-short", "other/short.yaml", "other/short.yaml"),
            ("gold-west", "gold-west", "gold-west"),
        ];
        let mut labels = Labels::default();
        for (name, source, label) in cases {
            assert_eq!(labels.next(name, source), label, "{name} {source}");
        }
    }

    #[test]
    fn statistics_of_a_variant_are_compared_with_the_base() {
        // True/false: 1 of 4 against 2 of 4; pooled 3/8, se √(3/8 · 5/8 · (1/4 + 1/4)) =
        // 0.342327, z = 0.25/0.342327 = 0.730297, p = 0.465209.
        let yes = |k: usize| StatValues::of(&(0..4).map(|i| json!(i < k)).collect::<Vec<_>>());
        let c = stat_comparison(&yes(1), &yes(2));
        assert_eq!(
            (c["kind"].clone(), c["base"].clone(), c["variant"].clone()),
            (json!("bool"), json!(0.25), json!(0.5))
        );
        assert!(
            close(&c["difference"], 0.25)
                && close(&c["z"], 0.730297)
                && close(&c["p_value"], 0.465209),
            "{c}"
        );
        assert_eq!(c["significant"], false);
        // Numbers: means 2 and 3, Welch's z 1.224745, p 0.220671.
        let c = stat_comparison(
            &StatValues::of(&[json!(1), json!(2), json!(3)]),
            &StatValues::of(&[json!(2), json!(3), json!(4)]),
        );
        assert_eq!(c["kind"], "int");
        assert!(
            close(&c["difference"], 1.0)
                && close(&c["z"], 1.224745)
                && close(&c["p_value"], 0.220671),
            "{c}"
        );
    }

    #[test]
    fn the_report_gives_the_first_players_advantage_and_the_variants_differences() {
        // Base: p1 wins 3 of 4 (scores 10, 10, 10, 2; p2 4, 4, 4, 8), 30 decisions a game.
        // Variant: p1 wins 1 of 4 (10, 2, 2, 2; p2 4, 8, 8, 8), 40 decisions a game.
        let base = ruleset("base", &[(10, 4, 0), (10, 4, 0), (10, 4, 0), (2, 8, 1)], 30);
        let variant = ruleset(
            "variant",
            &[(10, 4, 0), (2, 8, 1), (2, 8, 1), (2, 8, 1)],
            40,
        );
        let agents = vec![AgentSpec::parse("random").unwrap(); 2];
        let balance = Balance::new(4, 7, agents, base, vec![variant]).unwrap();
        let r = balance.report();
        assert_eq!(
            (r["players"].clone(), r["games"].clone(), r["seed"].clone()),
            (json!(2), json!(4), json!(7))
        );
        // First player: 0.75 against a fair 0.5; z = 0.25/√(0.25/4) = 1, p = 0.317311;
        // Wilson interval of 3 of 4: 0.300642 to 0.954413.
        let fp = &r["rulesets"][0]["first_player"];
        assert_eq!(
            (
                fp["win_rate"].clone(),
                fp["fair_share"].clone(),
                fp["advantage"].clone()
            ),
            (json!(0.75), json!(0.5), json!(0.25))
        );
        assert!(
            close(&fp["z"], 1.0) && close(&fp["p_value"], 0.317311),
            "{fp}"
        );
        assert!(
            close(&fp["ci_low"], 0.300642) && close(&fp["ci_high"], 0.954413),
            "{fp}"
        );
        assert_eq!(r["rulesets"][1]["role"], "variant");
        assert_eq!(r["rulesets"][0]["seats"][1]["score"]["mean"], json!(5.0));
        // p1 against the base: 0.25 − 0.75 = −0.5; pooled 0.5, se √(0.25 · 0.5) = 0.353553,
        // z = −0.5/0.353553 = −√2, p = 0.157299; mean score 4 − 8 = −4.
        let seat = &r["comparisons"][0]["seats"][0];
        assert!(
            close(&seat["difference"], -0.5)
                && close(&seat["z"], -std::f64::consts::SQRT_2)
                && close(&seat["p_value"], 0.157299),
            "{seat}"
        );
        assert_eq!(seat["mean_score_difference"], json!(-4.0));
        assert_eq!(
            r["comparisons"][0]["seats"][1]["mean_score_difference"],
            json!(2.0)
        );
        // Every game 30 decisions against every game 40: no spread, an infinite z.
        let d = &r["comparisons"][0]["decisions"];
        assert_eq!(
            (
                d["difference"].clone(),
                d["z"].clone(),
                d["p_value"].clone()
            ),
            (json!(10.0), json!("inf"), json!(0.0))
        );
        assert_eq!(d["significant"], true);
        // Both declare the same statistics: p1 won in 3 of 4, then 1 of 4.
        assert_eq!(
            r["comparisons"][0]["stats"]["p1_won"]["difference"],
            json!(-0.5)
        );
        assert_eq!(
            r["comparisons"][0]["stats"]["p1_score"]["difference"],
            json!(-4.0)
        );
    }

    #[test]
    fn a_ruleset_played_by_another_number_of_seats_is_refused() {
        let base = ruleset("base", &[(1, 2, 1)], 1);
        let agents = vec![AgentSpec::parse("random").unwrap(); 3];
        let refused = Balance::new(1, 0, agents, base, Vec::new()).err();
        assert_eq!(
            refused.as_deref(),
            Some("base: games of 2 players, not one per agent (3)")
        );
    }

    #[test]
    fn the_page_escapes_what_it_quotes() {
        let base = ruleset("a<b & \"c\"", &[(1, 2, 1), (3, 0, 0)], 5);
        let agents = vec![AgentSpec::parse("random").unwrap(); 2];
        let page = Balance::new(2, 0, agents, base, Vec::new()).unwrap().html();
        assert!(
            page.contains("<h1>Balance report: a&lt;b &amp; &quot;c&quot;</h1>"),
            "{page}"
        );
        assert!(!page.contains("a<b"));
        for plot in ["win-rates", "scores", "lengths"] {
            assert!(page.contains(&format!("id=\"{plot}\"")), "{plot}");
        }
    }
}
