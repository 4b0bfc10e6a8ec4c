//! The games of a run summed up: wins per seat (shared victories split), scores, lengths,
//! how games ended, and each `stats:` entry's values.

use std::collections::BTreeMap;

use crate::games::{Played, StatValue};
use crate::results::end_reason;

/// Wins (shared victories split), scores and lengths of a set of games.
pub struct Summary {
    pub players: usize,
    pub games: u64,
    /// Per seat: a game won alone counts 1, a victory shared by k players 1/k each.
    pub wins: Vec<f64>,
    /// Games won by more than one player.
    pub shared: u64,
    /// Per seat, the score of each game.
    pub scores: Vec<Vec<i64>>,
    pub decisions: Vec<u64>,
    pub chances: Vec<u64>,
    /// How many games ended each way ([`end_reason`]).
    pub ends: BTreeMap<String, u64>,
    /// Each `stats:` entry's values, one per game, in declared order.
    pub stats: Vec<Vec<StatValue>>,
}

impl Summary {
    /// The games `played` by `players` players.
    pub fn of(players: usize, played: &[Played]) -> Summary {
        let mut s = Summary {
            players,
            games: played.len() as u64,
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

    /// Decisions per game on average (0 without games).
    pub fn mean_decisions(&self) -> f64 {
        mean(&self.decisions)
    }

    /// Chance steps per game on average (0 without games).
    pub fn mean_chances(&self) -> f64 {
        mean(&self.chances)
    }
}

fn mean(values: &[u64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<u64>() as f64 / values.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use frontier_interpreter::runner::GameRecord;
    use frontier_interpreter::Outcome;
    use serde_json::json;

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
        assert_eq!(s.scores, [vec![10, 7, 3], vec![5, 7, 9]]);
        assert_eq!(s.decisions, [40, 30, 50]);
        // (40 + 30 + 50) / 3 = 40; (2 + 1 + 0) / 3 = 1.
        assert_eq!(s.mean_decisions(), 40.0);
        assert_eq!(s.mean_chances(), 1.0);
        let ends: Vec<(&str, u64)> = s.ends.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            ends,
            [("end_game at play[3]", 1), ("the play flow ended", 2)]
        );
        assert_eq!(s.stats, [vec![json!(true), json!(false), json!(true)]]);
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
        assert_eq!(s.scores, [vec![1], vec![2]]);
    }
}
