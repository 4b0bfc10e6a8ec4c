//! The games of a run: game i is seeded from the run's seed and i, whoever plays it and
//! in whatever order, so a run's results depend only on the ruleset, the agents, the
//! number of games and the seed, never on the threads or the shard that played them.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Mutex, MutexGuard, PoisonError};

use frontier_interpreter::agent::Agent;
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::{self, GameRecord, Recording};
use frontier_interpreter::search::Clock;
use frontier_interpreter::{Game, GameRng, Value};

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
    /// What plays them: the game's compiled code with the walker, or the walker alone.
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
            back_end: BackEnd::for_game(game, settings.compile),
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
        let state = game.start(names).map_err(|e| e.to_string())?;
        let mut agents: Vec<Box<dyn Agent>> = self
            .agents
            .iter()
            .enumerate()
            .map(|(seat, s)| s.agent(seed, seat, self.clock) as Box<dyn Agent>)
            .collect();
        let mut rng = GameRng::new(seed);
        let (record, end) = runner::run_stepped(
            self.back_end.stepper(game),
            state,
            &mut rng,
            &mut agents,
            self.recording,
            runner::MAX_STEPS,
        )
        .map_err(|e| format!("game with seed {seed}: {e}"))?;
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

    /// Games `range` of the run seeded `run_seed`, played in parallel (on rayon's pool),
    /// each handed to `sink` in order of its number as soon as the games before it have
    /// been; `on_played` is called as each game ends (to show progress). No game is
    /// played more than [`WINDOW`] games ahead of the first not yet handed on, so a run of
    /// a million games holds no more than that many at once ([`in_order`]). Stops at the
    /// first game that fails, or the first error of `sink`, and returns it (games after it
    /// may have been played, not handed on).
    pub fn play_run(
        &self,
        run_seed: u64,
        range: Range<u64>,
        on_played: &(dyn Fn() + Sync),
        sink: &mut (dyn FnMut(Played) -> Result<(), String> + Send),
    ) -> Result<(), String> {
        let play = |index: u64| {
            let seed = game_seed(run_seed, index);
            let result = self.play(seed).map(|(record, stats)| Played {
                index,
                seed,
                record,
                stats,
            });
            on_played();
            result
        };
        in_order(range, WINDOW, &play, sink)
    }
}

/// How many games of a run may be played ahead of the first one not yet handed on
/// ([`Games::play_run`]): what bounds a run's memory, and leaves the threads work to do
/// while a game that started earlier (on a thread the system paused, or a long one)
/// ends.
pub const WINDOW: u64 = 2048;

/// Plays `range` with `play` on every thread of rayon's pool and hands each result to
/// `sink` in order, as soon as the results before it have been. No item is played
/// `window` (at least 1) or more items ahead of the first one not yet handed on, so at
/// most `window` results are held at once. Stops at the first error, in order (of
/// `play`, or of `sink`), and returns it.
///
/// Each thread runs a loop that takes the next item, plays it, and hands on what is
/// ready (one thread at a time). A loop never waits: at a full window it ends, and the
/// thread that hands on the first item starts loops again. So a loop that rayon runs
/// inside a wait of another item's own parallel work (a search's trees) ends by itself,
/// and no thread blocks on an item that is waiting for it.
pub fn in_order<T: Send>(
    range: Range<u64>,
    window: u64,
    play: &(dyn Fn(u64) -> Result<T, String> + Sync),
    sink: &mut (dyn FnMut(T) -> Result<(), String> + Send),
) -> Result<(), String> {
    let threads = rayon::current_num_threads().max(1);
    let start =
        threads.min(usize::try_from(range.end.saturating_sub(range.start)).unwrap_or(usize::MAX));
    let run = InOrder {
        end: range.end,
        window: window.max(1),
        threads,
        play,
        sink: Mutex::new(sink),
        order: Mutex::new(Order {
            next: range.start,
            handed: range.start,
            ready: BTreeMap::new(),
            handing: false,
            loops: start,
            failed: None,
        }),
    };
    rayon::scope(|scope| {
        for _ in 0..start {
            scope.spawn(|scope| run.work(scope));
        }
    });
    let failed = run.order().failed.take();
    failed.map_or(Ok(()), Err)
}

/// Where a run handed on in order stands.
struct Order<T> {
    /// The next item to play.
    next: u64,
    /// The next item to hand on: every one before it has been.
    handed: u64,
    /// Items played and not yet handed on.
    ready: BTreeMap<u64, Result<T, String>>,
    /// Whether a thread is handing items on.
    handing: bool,
    /// Loops running.
    loops: usize,
    /// The first error: no more items are played or handed on.
    failed: Option<String>,
}

struct InOrder<'r, T> {
    end: u64,
    window: u64,
    threads: usize,
    play: &'r (dyn Fn(u64) -> Result<T, String> + Sync),
    sink: Mutex<&'r mut (dyn FnMut(T) -> Result<(), String> + Send)>,
    order: Mutex<Order<T>>,
}

impl<'r, T: Send> InOrder<'r, T> {
    fn order(&self) -> MutexGuard<'_, Order<T>> {
        self.order.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One thread's loop: plays the next item while the window allows, hands on what is
    /// ready, and starts loops again on threads whose loop ended at a full window.
    fn work<'s>(&'s self, scope: &rayon::Scope<'s>) {
        let mut o = self.order();
        loop {
            if o.failed.is_some() || o.next >= self.end || o.next - o.handed >= self.window {
                o.loops -= 1;
                return;
            }
            let index = o.next;
            o.next += 1;
            drop(o);
            let result = (self.play)(index);
            o = self.order();
            o.ready.insert(index, result);
            while !o.handing {
                let at = o.handed;
                let Some(result) = o.ready.remove(&at) else {
                    break;
                };
                o.handing = true;
                drop(o);
                let outcome = result.and_then(|item| {
                    (self.sink.lock().unwrap_or_else(PoisonError::into_inner))(item)
                });
                o = self.order();
                o.handing = false;
                match outcome {
                    Ok(()) => {
                        o.handed += 1;
                        self.restart(&mut o, scope);
                    }
                    Err(e) => {
                        o.failed = Some(e);
                        o.ready.clear();
                    }
                }
            }
        }
    }

    /// Starts loops again, up to one per thread, on the threads whose loop ended at a
    /// full window, while items are left to play.
    fn restart<'s>(&'s self, o: &mut Order<T>, scope: &rayon::Scope<'s>) {
        let left = usize::try_from(self.end - o.next).unwrap_or(usize::MAX);
        let more = self.threads.saturating_sub(o.loops).min(left);
        o.loops += more;
        for _ in 0..more {
            scope.spawn(move |scope| self.work(scope));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::back_end::Compile;
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
        let runs: Vec<(bool, Vec<Played>)> = [Compile::On, Compile::Off]
            .into_iter()
            .map(|compile| {
                let settings = Settings {
                    compile,
                    ..Settings::default()
                };
                let games = Games::new(&game, &random, Recording::Counts, &settings, no_clock);
                let ended = AtomicU64::new(0);
                let mut played = Vec::new();
                games
                    .play_run(
                        5,
                        2..6,
                        &|| {
                            ended.fetch_add(1, Ordering::Relaxed);
                        },
                        &mut |p| {
                            played.push(p);
                            Ok(())
                        },
                    )
                    .unwrap();
                assert_eq!(ended.load(Ordering::Relaxed), 4, "one call per game");
                (games.back_end.compiled.is_some(), played)
            })
            .collect();
        assert!(runs[0].0 && !runs[1].0, "compiled code, then the walker");
        let (compiled, walker) = (&runs[0].1, &runs[1].1);
        for (n, w) in compiled.iter().zip(walker) {
            assert_eq!((n.index, n.seed), (w.index, w.seed));
            assert_eq!(n.record.outcome, w.record.outcome, "game {}", n.index);
            assert_eq!(
                (n.record.decisions, n.record.chances),
                (w.record.decisions, w.record.chances)
            );
            assert_eq!(n.stats, w.stats);
        }
        let numbers: Vec<(u64, u64)> = compiled.iter().map(|p| (p.index, p.seed)).collect();
        let expected: Vec<(u64, u64)> = (2..6).map(|i| (i, game_seed(5, i))).collect();
        assert_eq!(numbers, expected);
    }

    #[test]
    fn games_that_keep_their_steps_record_every_step() {
        let game = go_west();
        let random = vec![AgentSpec::parse("random").unwrap(); 2];
        let games = Games::new(
            &game,
            &random,
            Recording::Steps,
            &Settings::default(),
            no_clock,
        );
        let (record, _) = games.play(game_seed(1, 0)).unwrap();
        assert_eq!(record.steps.len() as u64, record.decisions + record.chances);
    }

    /// A value that counts how many of its kind are alive, and the most there ever were.
    struct Counted<'a> {
        index: u64,
        alive: &'a AtomicU64,
    }

    impl<'a> Counted<'a> {
        fn new(index: u64, alive: &'a AtomicU64, most: &AtomicU64) -> Counted<'a> {
            let now = alive.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            Counted { index, alive }
        }
    }

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.alive.fetch_sub(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn results_are_handed_on_in_order_and_never_more_than_a_window_is_held() {
        // (range, window): windows that divide the range, that do not, of one item,
        // larger than the range, and an empty range.
        let cases: &[(Range<u64>, u64)] = &[
            (0..10_000, 64),
            (3..1_000, 7),
            (0..50, 1),
            (10..20, 1_000),
            (5..5, 8),
        ];
        for (range, window) in cases {
            let (alive, most, played) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
            let mut next = range.start;
            let play = |index: u64| {
                played.fetch_add(1, Ordering::SeqCst);
                Ok(Counted::new(index, &alive, &most))
            };
            in_order(range.clone(), *window, &play, &mut |c: Counted| {
                assert_eq!(c.index, next, "{range:?} by {window}: out of order");
                next += 1;
                Ok(())
            })
            .unwrap();
            assert_eq!(
                next, range.end,
                "{range:?} by {window}: every result handed on"
            );
            assert_eq!(played.load(Ordering::SeqCst), range.end - range.start);
            assert_eq!(alive.load(Ordering::SeqCst), 0);
            let most = most.load(Ordering::SeqCst);
            assert!(
                most <= *window,
                "{range:?} by {window}: {most} results held at once"
            );
        }
    }

    #[test]
    fn items_with_parallel_work_of_their_own_are_handed_on_in_order() {
        // Each item runs rayon work of its own, as a search with several trees does, and
        // takes its own time: the threads wait inside items' work and run other jobs
        // meanwhile, and the run still ends, in order, within its window.
        let (alive, most) = (AtomicU64::new(0), AtomicU64::new(0));
        let play = |index: u64| {
            use rayon::prelude::*;
            let spins = (index * 7919) % 5_000;
            let total: u64 = (0..8u64)
                .into_par_iter()
                .map(|k| (0..spins).fold(k, |a, b| a.wrapping_mul(31).wrapping_add(b)))
                .reduce(|| 0, u64::wrapping_add);
            std::hint::black_box(total);
            Ok(Counted::new(index, &alive, &most))
        };
        let mut next = 0;
        in_order(0..3_000, 5, &play, &mut |c: Counted| {
            assert_eq!(c.index, next);
            next += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(next, 3_000);
        assert!(most.load(Ordering::SeqCst) <= 5);
    }

    #[test]
    fn a_failed_game_or_sink_stops_the_run_at_it() {
        // Game 500 fails: games 0 to 499 are handed on, then its error; no game is played
        // a window (16) or more past it.
        let played = AtomicU64::new(0);
        let play = |index: u64| {
            played.fetch_add(1, Ordering::SeqCst);
            if index == 500 {
                Err(format!("game {index} failed"))
            } else {
                Ok(index)
            }
        };
        let mut handed = Vec::new();
        let failed = in_order(0..10_000, 16, &play, &mut |i| {
            handed.push(i);
            Ok(())
        });
        assert_eq!(failed, Err("game 500 failed".to_string()));
        assert_eq!(handed, (0..500).collect::<Vec<_>>());
        assert!(played.load(Ordering::SeqCst) <= 516);
        // The sink refuses item 20: nothing after it is handed on.
        let mut handed = Vec::new();
        let refused = in_order(0..10_000, 16, &|i| Ok(i), &mut |i| {
            if i == 20 {
                return Err("cannot write game 20".into());
            }
            handed.push(i);
            Ok(())
        });
        assert_eq!(refused, Err("cannot write game 20".to_string()));
        assert_eq!(handed, (0..20).collect::<Vec<_>>());
    }
}
