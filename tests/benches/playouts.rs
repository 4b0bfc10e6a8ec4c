//! `cargo bench -p frontier-tests`: seeded random playouts of the shipped rulesets and of
//! connect four in two encodings of its win test (tests/rulesets/), the evaluation of a
//! few expressions against a mid-game state, and the loading of large rulesets at several
//! sizes.
//!
//! A playout iteration is one whole game, the same random playout as `frontier bench`
//! plays (the same game seeds, cycled). Each playout bench carries two counters: one
//! cycle per game, so the "Hz" column reads games/s, and the game's decisions as items,
//! so "item/s" reads decisions/s. Options after `--` go to divan, e.g.
//! `cargo bench -p frontier-tests -- go_west --sample-count 500`.

use std::sync::LazyLock;

use divan::Bencher;
use frontier_interpreter::runner::Recording;
use frontier_interpreter::trace::Query;
use frontier_interpreter::{Game, State};
use frontier_tests::playouts::{cycle_games, game_seed, SAMPLES};
use frontier_tests::{large_ruleset, load_ruleset, load_source, play_random, random_state};

fn main() {
    divan::main();
}

fn playouts(bencher: Bencher, ruleset: &str, players: usize) {
    let game = load_ruleset(ruleset);
    cycle_games(bencher, |seed| {
        play_random(&game, players, seed, Recording::Counts).decisions
    });
}

#[divan::bench(sample_count = SAMPLES, sample_size = 1)]
fn go_west_4p(bencher: Bencher) {
    playouts(bencher, "go-west", 4);
}

#[divan::bench(sample_count = SAMPLES, sample_size = 1)]
fn way_out_west_5p(bencher: Bencher) {
    playouts(bencher, "way-out-west", 5);
}

#[divan::bench(sample_count = SAMPLES, sample_size = 1)]
fn circle_the_wagons_2p(bencher: Bencher) {
    playouts(bencher, "circle-the-wagons", 2);
}

#[divan::bench(sample_count = SAMPLES, sample_size = 1)]
fn gold_west_4p(bencher: Bencher) {
    playouts(bencher, "gold-west", 4);
}

/// A ruleset of tests/rulesets/, by folder name (not a shipped one).
fn test_playouts(bencher: Bencher, folder: &str, players: usize) {
    let path = frontier_tests::workspace()
        .join("tests/rulesets")
        .join(folder);
    let game = load_source(&frontier_tests::source(&path)).unwrap_or_else(|e| panic!("{e}"));
    cycle_games(bencher, |seed| {
        play_random(&game, players, seed, Recording::Counts).decisions
    });
}

/// Connect four with its win test written the natural way (map/concat/index_of over a
/// range), against the same game with the test in nested `if`s, next: the optimizer
/// should leave no speed cliff between the two (docs/performance.md).
#[divan::bench(sample_count = SAMPLES, sample_size = 1)]
fn connect_four_natural_2p(bencher: Bencher) {
    test_playouts(bencher, "connect-four-natural", 2);
}

#[divan::bench(sample_count = SAMPLES, sample_size = 1)]
fn connect_four_nested_2p(bencher: Bencher) {
    test_playouts(bencher, "connect-four-nested", 2);
}

/// 4-player Go West after 120 of a game's about 250 decisions: tracks partly filled,
/// wagons moved west, some scorings done.
static MID_GAME: LazyLock<(Game, State)> = LazyLock::new(|| {
    let game = load_ruleset("go-west");
    let state = random_state(&game, 4, game_seed(0), 120);
    (game, state)
});

/// An expression of the Go West ruleset, named for the bench's output.
struct Expression {
    name: &'static str,
    source: &'static str,
}

impl std::fmt::Display for Expression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

const EXPRESSIONS: &[Expression] = &[
    Expression {
        name: "arithmetic",
        source: "tokens[p1] + vp[p1] >= 3",
    },
    Expression {
        name: "count_if",
        source: "count_if(players, vp[it] > 10)",
    },
    // The payout order of a region's scoring (rule 5.2).
    Expression {
        name: "sort_by_take",
        source: r#"take(sort_by(track[regions["east"]], -count(track[regions["east"]], it)), wagons[regions["east"]])"#,
    },
];

/// One evaluation of an expression compiled once, outside the timed loop.
#[divan::bench(args = EXPRESSIONS)]
fn evaluate(bencher: Bencher, expression: &Expression) {
    let (game, state) = &*MID_GAME;
    let query = Query::compile(game, state, expression.source).unwrap_or_else(|e| panic!("{e}"));
    bencher.bench_local(|| {
        query
            .evaluate(divan::black_box(game), divan::black_box(state))
            .unwrap()
    });
}

/// Loading a ruleset that declares `n` rows, functions, tables, state variables, counters,
/// zones and procedures and names each ([`large_ruleset`]). Every name is looked up by hash, so
/// the time grows about linearly with `n`: 16,000 should take about 4× as long as 4,000
/// (when lookups were scans, 65,000 rows took 87 s, 40,000 functions 35 s, 64,000 state
/// variables 18 s and 60,000 tables each the type of a variable 14 s).
#[divan::bench(args = [1_000, 4_000, 16_000], sample_count = 10)]
fn loading(bencher: Bencher, n: usize) {
    let src = large_ruleset(n);
    bencher.bench_local(|| load_source(divan::black_box(&src)).unwrap_or_else(|e| panic!("{e}")));
}
