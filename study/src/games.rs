//! The games of a run: game i is seeded from the run's seed and i, whoever plays it and
//! in whatever order, so a run's results depend only on the ruleset, the agents, the
//! number of games and the seed, never on the threads or the shard that played them.

use std::ops::Range;

use frontier_interpreter::agent::Agent;
use frontier_interpreter::native::RandomSeats;
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::{self, GameRecord, Recording};
use frontier_interpreter::search::Clock;
use frontier_interpreter::{Game, GameRng, Value};
use rayon::prelude::*;

use crate::back_end::BackEnd;
use crate::settings::Settings;

/// The names of a run's seats: p1, p2, …
pub fn seat_names(players: usize) -> Vec<String> {
    (1..=players).map(|i| format!("p{i}")).collect()
}

/// The seed of game `index` (0-based) of the run seeded `run_seed`.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    GameRng::derived(run_seed, 1_000_003 + index).next_u64()
}

/// A `stats:` value as results write it: a whole number, true/false, or else the value's
/// text.
pub type StatValue = serde_json::Value;

/// Seeded games of one ruleset between the same agents, one per seat.
pub struct Games<'a> {
    pub game: &'a Game,
    /// What plays them: with native code, the games that keep counts only between random
    /// agents at every seat (the same games; the walker plays one again when the native
    /// code gives it back).
    pub back_end: BackEnd<'a>,
    pub agents: &'a [AgentSpec],
    /// What each game keeps.
    pub recording: Recording,
    /// The clock that time budgets (`mcts:ms=`) read: the caller's, as the library reads
    /// none.
    pub clock: Clock,
}

/// A game played in a run: its number (0-based), seed, record and `stats:` values.
pub struct Played {
    pub index: u64,
    pub seed: u64,
    pub record: GameRecord,
    pub stats: Vec<StatValue>,
}

impl<'a> Games<'a> {
    /// The games of `game` between `agents`, played by the back end `settings` allow.
    pub fn new(
        game: &'a Game,
        agents: &'a [AgentSpec],
        recording: Recording,
        settings: &Settings,
        clock: Clock,
    ) -> Games<'a> {
        Games {
            game,
            back_end: BackEnd::for_game(game, settings.native, settings.compile),
            agents,
            recording,
            clock,
        }
    }

    /// The game seeded `seed`, and the ruleset's `stats:` read at its end (in declared
    /// order).
    pub fn play(&self, seed: u64) -> Result<(GameRecord, Vec<StatValue>), String> {
        let game = self.game;
        let names = seat_names(self.agents.len());
        let (record, end) = match self.play_natively(seed, &names) {
            Some(played) => played,
            None => {
                let state = game.start(names).map_err(|e| e.to_string())?;
                let mut agents: Vec<Box<dyn Agent>> = self
                    .agents
                    .iter()
                    .enumerate()
                    .map(|(seat, s)| s.agent(seed, seat, self.clock) as Box<dyn Agent>)
                    .collect();
                let mut rng = GameRng::new(seed);
                runner::run_stepped(
                    self.back_end.stepper(game),
                    state,
                    &mut rng,
                    &mut agents,
                    self.recording,
                    runner::MAX_STEPS,
                )
                .map_err(|e| format!("game with seed {seed}: {e}"))?
            }
        };
        let stats = game
            .stats(&end)
            .map_err(|e| format!("game with seed {seed}: ruleset error: {e}"))?;
        let stats = stats
            .into_iter()
            .map(|(_, v)| match v {
                Value::Int(i) => serde_json::json!(i),
                Value::Bool(b) => serde_json::json!(b),
                other => serde_json::json!(game.value_text(&other, end.names())),
            })
            .collect();
        Ok((record, stats))
    }

    /// The game played by native code, when there is some for it, the game keeps counts
    /// only and every seat is a random agent; none when the walker is to play it.
    fn play_natively(
        &self,
        seed: u64,
        names: &[String],
    ) -> Option<(GameRecord, frontier_interpreter::State)> {
        let native = self.back_end.native.as_ref()?;
        if self.recording != Recording::Counts {
            return None;
        }
        let seats = self
            .agents
            .iter()
            .enumerate()
            .map(|(seat, s)| s.random_stream(seed, seat))
            .collect::<Option<Vec<_>>>()?;
        native.play(
            self.game,
            names.to_vec(),
            GameRng::new(seed),
            RandomSeats(seats),
            runner::MAX_STEPS,
        )
    }

    /// Games `range` of the run seeded `run_seed`, in parallel (on rayon's pool), in order
    /// of their number; `on_played` is called as each game ends (to show progress).
    pub fn play_run(
        &self,
        run_seed: u64,
        range: Range<u64>,
        on_played: &(dyn Fn() + Sync),
    ) -> Result<Vec<Played>, String> {
        let played: Vec<Result<Played, String>> = range
            .into_par_iter()
            .map(|index| {
                let seed = game_seed(run_seed, index);
                let result = self.play(seed).map(|(record, stats)| Played {
                    index,
                    seed,
                    record,
                    stats,
                });
                on_played();
                result
            })
            .collect();
        played.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::back_end::NativeCode;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn go_west() -> Game {
        let source = frontier_tests::source(&frontier_tests::ruleset_path("go-west"));
        Settings::default()
            .load(&source, &frontier_tests::resolve, &[])
            .unwrap()
    }

    fn no_clock() -> std::time::Duration {
        std::time::Duration::ZERO
    }

    #[test]
    fn seats_are_named_in_order() {
        assert_eq!(seat_names(3), ["p1", "p2", "p3"]);
        assert!(seat_names(0).is_empty());
    }

    #[test]
    fn a_run_plays_its_games_in_order_whatever_back_end_plays_them() {
        let game = go_west();
        let random = vec![AgentSpec::parse("random").unwrap(); 3];
        let runs: Vec<(bool, Vec<Played>)> = [NativeCode::On, NativeCode::Off]
            .into_iter()
            .map(|native| {
                let settings = Settings {
                    native,
                    ..Settings::default()
                };
                let games = Games::new(&game, &random, Recording::Counts, &settings, no_clock);
                let ended = AtomicU64::new(0);
                let played = games
                    .play_run(5, 2..6, &|| {
                        ended.fetch_add(1, Ordering::Relaxed);
                    })
                    .unwrap();
                assert_eq!(ended.load(Ordering::Relaxed), 4, "one call per game");
                (games.back_end.native.is_some(), played)
            })
            .collect();
        assert!(runs[0].0 && !runs[1].0, "native code, then the walker");
        let (native, walker) = (&runs[0].1, &runs[1].1);
        for (n, w) in native.iter().zip(walker) {
            assert_eq!((n.index, n.seed), (w.index, w.seed));
            assert_eq!(n.record.outcome, w.record.outcome, "game {}", n.index);
            assert_eq!(
                (n.record.decisions, n.record.chances),
                (w.record.decisions, w.record.chances)
            );
            assert_eq!(n.stats, w.stats);
        }
        let numbers: Vec<(u64, u64)> = native.iter().map(|p| (p.index, p.seed)).collect();
        let expected: Vec<(u64, u64)> = (2..6).map(|i| (i, game_seed(5, i))).collect();
        assert_eq!(numbers, expected);
    }

    #[test]
    fn games_that_keep_their_steps_are_played_by_the_walker() {
        // Native code keeps counts only: the steps come from the walker.
        let game = go_west();
        let random = vec![AgentSpec::parse("random").unwrap(); 2];
        let games = Games::new(
            &game,
            &random,
            Recording::Steps,
            &Settings::default(),
            no_clock,
        );
        assert!(games.back_end.native.is_some());
        let (record, _) = games.play(game_seed(1, 0)).unwrap();
        assert_eq!(record.steps.len() as u64, record.decisions + record.chances);
    }
}
