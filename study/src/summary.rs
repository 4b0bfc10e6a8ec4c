//! The games of a run summed up: wins per seat (shared victories split), draws and
//! returns (rulesets with an `outcome:`), scores, lengths,
//! how games ended, and each `stats:` entry's values. A summary takes the games one at a
//! time, in the run's order, and keeps counts, not games: its size depends on the seats,
//! the statistics and the distinct values seen, never on the number of games.

use std::collections::BTreeMap;

use crate::games::Played;
use crate::results::end_reason;
use crate::statistics::{StatValues, Tally};

/// Wins (shared victories split), scores and lengths of a set of games.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub players: usize,
    pub games: u64,
    /// Per seat: a game won alone counts 1, a victory shared by k players 1/k each (added
    /// in the order of the games, so the sums do not depend on who played them).
    pub wins: Vec<f64>,
    /// Games won by more than one player.
    pub shared: u64,
    /// Games drawn (every return equal; only rulesets with an `outcome:`).
    pub draws: u64,
    /// Per seat, the sum of its returns, when the games have them (`outcome:`).
    pub returns: Option<Vec<f64>>,
    /// Per seat, its scores.
    pub scores: Vec<Tally>,
    /// Decisions per game.
    pub decisions: Tally,
    /// Chance steps per game.
    pub chances: Tally,
    /// How many games ended each way ([`end_reason`]).
    pub ends: BTreeMap<String, u64>,
    /// Each `stats:` entry's values, in declared order (as many entries as the first
    /// game has values; none before a game).
    pub stats: Vec<StatValues>,
}

impl Summary {
    /// No games yet, of `players` players.
    pub fn new(players: usize) -> Summary {
        Summary {
            players,
            games: 0,
            wins: vec![0.0; players],
            shared: 0,
            draws: 0,
            returns: None,
            scores: vec![Tally::default(); players],
            decisions: Tally::default(),
            chances: Tally::default(),
            ends: BTreeMap::new(),
            stats: Vec::new(),
        }
    }

    /// The games `played` by `players` players, added in order.
    pub fn of(players: usize, played: &[Played]) -> Summary {
        let mut s = Summary::new(players);
        for p in played {
            s.add(p);
        }
        s
    }

    /// One more game, the next of the run.
    pub fn add(&mut self, p: &Played) {
        if self.games == 0 {
            self.stats = vec![StatValues::default(); p.stats.len()];
        }
        self.games += 1;
        let r = &p.record;
        let winners = r.outcome.winners();
        if winners.len() > 1 {
            self.shared += 1;
        }
        if r.outcome.is_draw() {
            self.draws += 1;
        }
        if let Some(returns) = &r.outcome.returns {
            let sums = self.returns.get_or_insert_with(|| vec![0.0; self.players]);
            for (p, sum) in sums.iter_mut().enumerate().take(returns.values.len()) {
                *sum += returns.value(p);
            }
        }
        for &w in &winners {
            if let Some(wins) = self.wins.get_mut(w) {
                *wins += 1.0 / winners.len() as f64;
            }
        }
        for (seat, scores) in self.scores.iter_mut().enumerate() {
            scores.add(r.outcome.scores.get(seat).copied().unwrap_or(0));
        }
        self.decisions.add(r.decisions as i64);
        self.chances.add(r.chances as i64);
        *self.ends.entry(end_reason(&r.outcome)).or_default() += 1;
        for (all, v) in self.stats.iter_mut().zip(&p.stats) {
            all.add(v);
        }
    }

    /// Decisions per game on average (0 without games).
    pub fn mean_decisions(&self) -> f64 {
        mean(&self.decisions)
    }

    /// Chance steps per game on average (0 without games).
    pub fn mean_chances(&self) -> f64 {
        mean(&self.chances)
    }
}

fn mean(values: &Tally) -> f64 {
    if values.n() == 0 {
        0.0
    } else {
        values.sum() as f64 / values.n() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::{stat_json, Dist};
    use frontier_interpreter::runner::GameRecord;
    use frontier_interpreter::Outcome;
    use serde_json::{json, Value};

    /// A game of a run: scores, ranks, where it ended, decisions, chances, one `stats:`
    /// value.
    fn played(
        scores: &[i64],
        ranks: &[u8],
        ended_by: Option<&str>,
        decisions: u64,
        chances: u64,
        stat: bool,
    ) -> Played {
        Played {
            index: 0,
            seed: 0,
            record: GameRecord {
                outcome: Outcome {
                    scores: scores.to_vec(),
                    tiebreaks: vec![Vec::new(); scores.len()],
                    ranks: ranks.to_vec(),
                    ended_by: ended_by.map(Into::into),
                    returns: None,
                },
                decisions,
                chances,
                steps: Vec::new(),
                log: Vec::new(),
            },
            stats: vec![json!(stat)],
        }
    }

    #[test]
    fn a_summary_splits_shared_victories_and_counts_how_games_ended() {
        // p1 wins, then p1 and p2 share a victory, then p2 wins: 1 + 1/2 each.
        let games = [
            played(&[10, 5], &[1, 2], Some("play[3]"), 40, 2, true),
            played(&[7, 7], &[1, 1], None, 30, 1, false),
            played(&[3, 9], &[2, 1], None, 50, 0, true),
        ];
        let s = Summary::of(2, &games);
        assert_eq!(s.games, 3);
        assert_eq!(s.wins, [1.5, 1.5]);
        assert_eq!(s.shared, 1);
        assert_eq!(s.scores, [Tally::of([10, 7, 3]), Tally::of([5, 7, 9])]);
        assert_eq!(s.decisions, Tally::of([40, 30, 50]));
        // (40 + 30 + 50) / 3 = 40; (2 + 1 + 0) / 3 = 1.
        assert_eq!(s.mean_decisions(), 40.0);
        assert_eq!(s.mean_chances(), 1.0);
        let ends: Vec<(&str, u64)> = s.ends.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            ends,
            [("end_game at play[3]", 1), ("the play flow ended", 2)]
        );
        assert_eq!(
            s.stats,
            [StatValues::of(&[json!(true), json!(false), json!(true)])]
        );
    }

    #[test]
    fn returns_decide_wins_and_draws_apart_from_the_ranks() {
        let with_returns = |ranks: &[u8], values: &[i64], scale: i64| {
            let mut p = played(&[0, 0, 0], ranks, None, 1, 0, true);
            p.record.outcome.returns = Some(frontier_interpreter::Returns {
                values: values.to_vec(),
                scale,
            });
            p
        };
        // A draw (every return 0) though the ranks share first place; p2 wins alone on
        // returns (2/3) against ranks that put everyone first; p1 and p3 share a win
        // (returns 1/2, -1, 1/2).
        let games = [
            with_returns(&[1, 1, 1], &[0, 0, 0], 1),
            with_returns(&[1, 1, 1], &[-1, 2, -1], 3),
            with_returns(&[2, 1, 3], &[1, -2, 1], 2),
        ];
        let s = Summary::of(3, &games);
        assert_eq!(s.draws, 1);
        assert_eq!(s.wins, [0.5, 1.0, 0.5]);
        assert_eq!(s.shared, 1);
        // Sums of returns: p1 0 − 1/3 + 1/2, p2 0 + 2/3 − 1, p3 0 − 1/3 + 1/2.
        let sums = s.returns.expect("the games have returns");
        let expected = [-1.0 / 3.0 + 0.5, 2.0 / 3.0 - 1.0, -1.0 / 3.0 + 0.5];
        for (got, want) in sums.iter().zip(expected) {
            assert!((got - want).abs() < 1e-12, "{sums:?}");
        }
    }

    #[test]
    fn no_games_sum_to_zeros() {
        let s = Summary::of(3, &[]);
        assert_eq!((s.games, s.shared), (0, 0));
        assert_eq!(s.wins, [0.0; 3]);
        assert_eq!((s.mean_decisions(), s.mean_chances()), (0.0, 0.0));
        assert!(s.stats.is_empty() && s.ends.is_empty());
    }

    #[test]
    fn a_game_of_another_player_count_does_not_panic() {
        // Three seats' results summed as two: the third seat's win and score are left out.
        let s = Summary::of(2, &[played(&[1, 2, 9], &[3, 2, 1], None, 1, 0, true)]);
        assert_eq!(s.wins, [0.0, 0.0]);
        assert_eq!(s.scores, [Tally::of([1]), Tally::of([2])]);
    }

    /// What a summary held and printed before it summed games up one at a time: every
    /// game's values, and the statistics computed from them as they were then.
    mod before {
        use super::*;
        use crate::statistics::{json_number, rounded, wilson};
        use serde_json::Value;

        pub struct Kept {
            pub wins: Vec<f64>,
            pub shared: u64,
            pub scores: Vec<Vec<i64>>,
            pub decisions: Vec<u64>,
            pub chances: Vec<u64>,
            pub ends: BTreeMap<String, u64>,
            pub stats: Vec<Vec<Value>>,
        }

        pub fn kept(players: usize, played: &[Played]) -> Kept {
            let mut s = Kept {
                wins: vec![0.0; players],
                shared: 0,
                scores: vec![Vec::new(); players],
                decisions: Vec::new(),
                chances: Vec::new(),
                ends: BTreeMap::new(),
                stats: vec![Vec::new(); played.first().map_or(0, |p| p.stats.len())],
            };
            for p in played {
                let r = &p.record;
                let winners = r.outcome.winners();
                if winners.len() > 1 {
                    s.shared += 1;
                }
                for &w in &winners {
                    if let Some(wins) = s.wins.get_mut(w) {
                        *wins += 1.0 / winners.len() as f64;
                    }
                }
                for (seat, scores) in s.scores.iter_mut().enumerate() {
                    scores.push(r.outcome.scores.get(seat).copied().unwrap_or(0));
                }
                s.decisions.push(r.decisions);
                s.chances.push(r.chances);
                *s.ends.entry(end_reason(&r.outcome)).or_default() += 1;
                for (all, v) in s.stats.iter_mut().zip(&p.stats) {
                    all.push(v.clone());
                }
            }
            s
        }

        pub fn mean(values: &[u64]) -> f64 {
            if values.is_empty() {
                0.0
            } else {
                values.iter().sum::<u64>() as f64 / values.len() as f64
            }
        }

        /// A distribution as JSON, from its values sorted.
        pub fn dist_json(values: &[i64]) -> Value {
            let mut values = values.to_vec();
            values.sort_unstable();
            let n = values.len();
            let mean = if n == 0 {
                0.0
            } else {
                values.iter().map(|&v| v as f64).sum::<f64>() / n as f64
            };
            let var = if n < 2 {
                0.0
            } else {
                values
                    .iter()
                    .map(|&v| (v as f64 - mean).powi(2))
                    .sum::<f64>()
                    / (n - 1) as f64
            };
            let quantile = |q: f64| {
                if values.is_empty() {
                    return 0.0;
                }
                let at = q * (n - 1) as f64;
                let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
                let f = at - lo as f64;
                values[lo] as f64 * (1.0 - f) + values[hi] as f64 * f
            };
            json!({
                "mean": json_number(mean), "sd": json_number(var.sqrt()),
                "min": values.first().copied().unwrap_or(0), "q1": json_number(quantile(0.25)),
                "median": json_number(quantile(0.5)), "q3": json_number(quantile(0.75)),
                "max": values.last().copied().unwrap_or(0),
            })
        }

        pub fn stat_json(values: &[Value]) -> Value {
            let n = values.len() as f64;
            if values.iter().all(Value::is_boolean) {
                let yes = values.iter().filter(|v| v.as_bool() == Some(true)).count() as f64;
                let (lo, hi) = wilson(yes, n);
                json!({ "kind": "bool", "true": yes as u64, "rate": json_number(if n > 0.0 { yes / n } else { 0.0 }), "ci_low": json_number(lo), "ci_high": json_number(hi) })
            } else {
                let ints: Vec<i64> = values.iter().filter_map(Value::as_i64).collect();
                let mut d = dist_json(&ints);
                d["kind"] = json!("int");
                d
            }
        }

        /// A seat's line of `simulate --json`.
        pub fn seat_json(s: &Kept, p: usize, games: f64) -> Value {
            let sc = &s.scores[p];
            json!({
                "wins": rounded(s.wins[p]),
                "mean_score": rounded(if games > 0.0 { sc.iter().sum::<i64>() as f64 / games } else { 0.0 }),
                "min_score": sc.iter().min(),
                "max_score": sc.iter().max(),
            })
        }
    }

    /// A game of three seats with four `stats:` values.
    fn game3(
        scores: &[i64],
        ranks: &[u8],
        decisions: u64,
        chances: u64,
        stats: [Value; 4],
    ) -> Played {
        let mut p = played(scores, ranks, None, decisions, chances, true);
        p.stats = stats.to_vec();
        p
    }

    #[test]
    fn a_summary_added_one_game_at_a_time_gives_what_the_kept_games_gave() {
        // Three seats; shared victories of two and of three (thirds do not add up
        // exactly), a game with a seat's score missing, scores too large for a double to
        // hold (their sum depends on the order it is taken in), negative scores; stats:
        // true/false, whole numbers, true/false and numbers mixed, and text.
        let big = 9_007_199_254_740_993; // 2⁵³ + 1
        let games = [
            game3(
                &[10, 5, 7],
                &[1, 3, 2],
                41,
                3,
                [json!(true), json!(3), json!(true), json!("p1")],
            ),
            game3(
                &[7, 7, 7],
                &[1, 1, 1],
                30,
                0,
                [json!(false), json!(-2), json!(4), json!("p2")],
            ),
            game3(
                &[big, -4, 3],
                &[1, 3, 2],
                55,
                9,
                [json!(true), json!(3), json!(false), json!("p1")],
            ),
            game3(
                &[2, 9, 9],
                &[3, 1, 1],
                38,
                2,
                [json!(true), json!(17), json!(9), json!("p3")],
            ),
            game3(
                &[1, 2],
                &[2, 1, 3],
                12,
                1,
                [json!(false), json!(0), json!(true), json!("p2")],
            ),
            game3(
                &[big, big, -1],
                &[1, 1, 3],
                77,
                5,
                [json!(false), json!(big), json!(-1), json!("p1")],
            ),
            game3(
                &[-6, 0, 4],
                &[3, 2, 1],
                40,
                4,
                [json!(true), json!(3), json!(true), json!("p3")],
            ),
        ];
        let mut s = Summary::new(3);
        for (i, g) in games.iter().enumerate() {
            s.add(g);
            let old = before::kept(3, &games[..=i]);
            let n = (i + 1) as f64;
            assert_eq!(s.games, i as u64 + 1);
            assert_eq!(
                s.wins.iter().map(|w| w.to_bits()).collect::<Vec<_>>(),
                old.wins.iter().map(|w| w.to_bits()).collect::<Vec<_>>()
            );
            assert_eq!((s.shared, &s.ends), (old.shared, &old.ends));
            assert_eq!(
                s.mean_decisions().to_bits(),
                before::mean(&old.decisions).to_bits()
            );
            assert_eq!(
                s.mean_chances().to_bits(),
                before::mean(&old.chances).to_bits()
            );
            for p in 0..3 {
                let run = crate::results::RunInfo {
                    ruleset: "r",
                    run_seed: 0,
                    games: 7,
                    players: &[],
                    agents: &[],
                    stats: Vec::new(),
                };
                let seat = &crate::results::summary_json(&run, None, &s)["seats"][p];
                let want = before::seat_json(&old, p, n);
                for key in ["wins", "mean_score", "min_score", "max_score"] {
                    assert_eq!(seat[key], want[key], "game {i}, seat {p}: {key}");
                }
                assert_eq!(
                    Dist::of_tally(&s.scores[p]).json(),
                    before::dist_json(&old.scores[p]),
                    "game {i}, seat {p}"
                );
            }
            let lengths = |v: &[u64]| v.iter().map(|&d| d as i64).collect::<Vec<_>>();
            assert_eq!(
                Dist::of_tally(&s.decisions).json(),
                before::dist_json(&lengths(&old.decisions))
            );
            assert_eq!(
                Dist::of_tally(&s.chances).json(),
                before::dist_json(&lengths(&old.chances))
            );
            assert_eq!(s.stats.len(), old.stats.len());
            for (k, (new, old)) in s.stats.iter().zip(&old.stats).enumerate() {
                assert_eq!(stat_json(new), before::stat_json(old), "game {i}, stat {k}");
            }
        }
    }
}
