//! `cargo bench -p frontier-engine`: expressions of Go West evaluated by the walker and by
//! their compiled code, against a mid-game state (4 players, after 120 of a game's about
//! 250 decisions), one evaluation per iteration.

use std::sync::LazyLock;

use divan::Bencher;
use frontier_engine::{CompiledExpr, ExprCompiler};
use frontier_interpreter::eval::Env;
use frontier_interpreter::trace::Query;
use frontier_interpreter::{Game, State};
use frontier_tests::playouts::game_seed;
use frontier_tests::{load_ruleset, random_state};

fn main() {
    divan::main();
}

static MID_GAME: LazyLock<(Game, State)> = LazyLock::new(|| {
    let game = load_ruleset("go-west");
    let state = random_state(&game, 4, game_seed(0), 120);
    (game, state)
});

/// The expressions, all truth-valued: the kind an option's condition is.
const EXPRESSIONS: &[&str] = &[
    // An option's cost test (rule 5.1), as the action's options read it.
    "tokens[p1] + vp[p1] >= 3",
    "tokens[p2] - 3 >= 2 + 1 or tokens[p2] <= 3",
    "wagons[@east] > 0 and wagons[@midwest] < 3 or not pawn[p2]",
];

fn compiled(source: &str) -> (Query, CompiledExpr<'static>) {
    let (game, state) = &*MID_GAME;
    let query = Query::compile(game, state, source).expect("it compiles");
    // The IR must outlive its code: the benches keep both to the end.
    let ir: &'static _ = Box::leak(Box::new(query.ir().clone()));
    let mut compiler = ExprCompiler::new().expect("a code generator");
    compiler.add_bool(ir).expect("it compiles");
    (query, compiler.finish().expect("the code is made"))
}

#[divan::bench(args = EXPRESSIONS)]
fn walker(bencher: Bencher, source: &str) {
    let (game, state) = &*MID_GAME;
    let (query, _) = compiled(source);
    let env = Env::new(game, state, query.locals());
    bencher.bench_local(|| divan::black_box(query.ir()).bool(&env).unwrap());
}

#[divan::bench(args = EXPRESSIONS)]
fn machine_code(bencher: Bencher, source: &str) {
    let (game, state) = &*MID_GAME;
    let (query, code) = compiled(source);
    let env = Env::new(game, state, query.locals());
    bencher.bench_local(|| code.bool(divan::black_box(0), &env).unwrap());
}
