//! Compiled expressions against the walker, the reference semantics, on every shipped
//! ruleset and on rulesets the fuzzing grammar writes (`frontier_tests::generate`): at
//! every decision of seeded random games, every option condition of the pending decision
//! (as written, and as the optimizer specialized it per row) for every element its
//! `for:` list holds, and the conditions and number assignments of the blocks being run,
//! each with its frame's locals, are evaluated both ways. Values must be equal, and an
//! error must be the same error.

use std::collections::HashMap;
use std::ops::ControlFlow;

use frontier_engine::{CompiledExpr, CompiledGame, ExprCompiler};
use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::eval::Env;
use frontier_interpreter::ir::Expr;
use frontier_interpreter::model::{Place, StmtKind};
use frontier_interpreter::value::Type;
use frontier_interpreter::{
    load, runner, Choice, CompiledCode, Game, GameRng, Journal, Pending, State, Status,
};
use frontier_tests::{generate, load_ruleset, names, resolve, text_source};

/// What an expression gives.
#[derive(Clone, Copy)]
enum Want {
    Number,
    Truth,
}

/// The compiled expressions of a game, found by the address of their node.
struct Compiled<'g> {
    code: CompiledExpr<'g>,
    index: HashMap<*const Expr, (usize, Want)>,
}

impl<'g> Compiled<'g> {
    /// Every option condition, `if` and `while` condition and assignment of a number
    /// variable of `game`.
    fn of(game: &'g Game) -> Compiled<'g> {
        let mut compiler = ExprCompiler::new().expect("this machine has a code generator");
        let mut index = HashMap::new();
        let mut add = |e: &'g Expr, want: Want| {
            let i = match want {
                Want::Truth => compiler.add_bool(e),
                Want::Number => compiler.add_int(e),
            }
            .expect("it compiles");
            index.insert(e as *const Expr, (i, want));
        };
        for stmt in game.blocks.iter().flatten() {
            match &stmt.kind {
                StmtKind::Choose(choose) => {
                    for group in &choose.groups {
                        let by_row = group.by_row.iter().flat_map(|b| b.conditions.iter());
                        for condition in group.condition.iter().chain(by_row) {
                            add(condition, Want::Truth);
                        }
                    }
                }
                StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => add(cond, Want::Truth),
                StmtKind::Assign {
                    target: Place::Var { var, .. },
                    value,
                    ..
                } if game.vars[var.index()].ty == Type::Int => add(value, Want::Number),
                _ => {}
            }
        }
        Compiled {
            code: compiler.finish().expect("the code is made"),
            index,
        }
    }

    /// Evaluates `e` both ways in `env`; panics where they differ.
    fn compare(&self, e: &Expr, env: &Env) {
        let (i, want) = self.index[&(e as *const Expr)];
        let show = |r: Result<String, frontier_interpreter::eval::RuntimeError>| match r {
            Ok(v) => v,
            Err(e) => format!("error: {e}"),
        };
        let (walker, compiled) = match want {
            Want::Truth => (
                show(e.bool(env).map(|b| b.to_string())),
                show(self.code.bool(i, env).map(|b| b.to_string())),
            ),
            Want::Number => (
                show(e.int(env).map(|n| n.to_string())),
                show(self.code.int(i, env).map(|n| n.to_string())),
            ),
        };
        assert_eq!(compiled, walker, "{e:?}");
    }
}

/// Compares what the pending decision and the blocks being run evaluate; returns how
/// many evaluations were compared.
fn compare_at_decision(game: &Game, state: &State, compiled: &Compiled) -> usize {
    let Pending::Decision { block, pc, .. } = state.pending() else {
        return 0;
    };
    let StmtKind::Choose(choose) = &game.blocks[block.index()][*pc as usize].kind else {
        panic!("a decision without its choose");
    };
    let mut compared = 0;
    // The statements of every block on the stack, with their frame's locals.
    for frame in state.stack() {
        let env = Env::new(game, state, &state.locals()[frame.base as usize..]);
        for stmt in &game.blocks[frame.block.index()] {
            let e = match &stmt.kind {
                StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => cond,
                StmtKind::Assign { value, .. } => value,
                _ => continue,
            };
            if compiled.index.contains_key(&(e as *const Expr)) {
                compiled.compare(e, &env);
                compared += 1;
            }
        }
    }
    let base = state.stack().last().map_or(0, |f| f.base as usize);
    let env = Env::new(game, state, &state.locals()[base..]);
    for group in &choose.groups {
        let conditions: Vec<&Expr> = group
            .condition
            .iter()
            .chain(group.by_row.iter().flat_map(|b| b.conditions.iter()))
            .collect();
        match group.bindings.as_slice() {
            [] => {
                for c in &conditions {
                    compiled.compare(c, &env);
                    compared += 1;
                }
            }
            [(slot, list)] => {
                // A list that cannot be read here is the walker's error, not the code's.
                let _ = list.each(&env, |item| {
                    let bound = env.with_bound(*slot, item);
                    for c in &conditions {
                        compiled.compare(c, &bound);
                        compared += 1;
                    }
                    Ok(ControlFlow::Continue(()))
                });
            }
            // Groups of several lists: their conditions are compared where they are alone.
            _ => {}
        }
    }
    compared
}

/// Seeded random games of `game` with `players`, compared at every decision; returns
/// how many evaluations were compared. A runtime error ends a game (generated rulesets
/// may divide by zero): the comparisons before it stand.
fn compare_games(game: &Game, players: usize, seeds: std::ops::Range<u64>) -> usize {
    let compiled = Compiled::of(game);
    let listings = CompiledGame::new(game).expect("the listings compile");
    let mut compared = 0;
    for seed in seeds {
        let Ok(mut state) = game.start(names(players)) else {
            continue;
        };
        // The same game stepped with the compiled listings: every state the same.
        let mut twin = state.clone();
        let mut agents: Vec<RandomAgent> = (0..players)
            .map(|p| RandomAgent::new(GameRng::derived(seed, p as u64 + 1)))
            .collect();
        let mut rng = GameRng::new(seed);
        for _ in 0..runner::MAX_STEPS {
            let choice = match game.status(&state) {
                Status::Over(_) => break,
                Status::Decision { player, .. } => {
                    compared += compare_at_decision(game, &state, &compiled);
                    compared += compare_listing(game, &state, &listings);
                    let view = game.view(&state).expect("a view");
                    Choice::Option(agents[player as usize].decide(&view).expect("a choice"))
                }
                Status::Chance(c) => runner::sample_chance(&state, c, &mut rng),
            };
            let walked = game.apply(&mut state, choice.clone(), &mut Journal::off());
            let run = game.apply_with(&mut twin, choice, &mut Journal::off(), &listings);
            match (walked, run) {
                (Ok(()), Ok(())) => assert!(state == twin, "seed {seed}: the states differ"),
                (Err(a), Err(b)) => {
                    assert_eq!(a.to_string(), b.to_string());
                    break;
                }
                (a, b) => panic!("seed {seed}: walker {a:?}, compiled listings {b:?}"),
            }
        }
    }
    compared
}

/// The pending decision's options listed by the compiled code (when it lists it) against
/// the walker's; 1 when compared.
fn compare_listing(game: &Game, state: &State, listings: &CompiledGame) -> usize {
    let Pending::Decision {
        block, pc, options, ..
    } = state.pending()
    else {
        return 0;
    };
    let base = state.stack().last().map_or(0, |f| f.base as usize);
    let env = Env::new(game, state, &state.locals()[base..]);
    let mut listed = Vec::new();
    match listings.list_options((*block, *pc), &env, &mut listed) {
        Some(Ok(())) => {
            assert_eq!(&listed, options, "the options at {block:?}/{pc}");
            LISTED.with(|l| l.set(l.get() + 1));
            1
        }
        Some(Err(e)) => panic!("a compiled listing reported {e}, where the walker listed"),
        None => 0,
    }
}

thread_local! {
    /// Decisions of this thread's games whose options the compiled code listed.
    static LISTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn check(ruleset: &str, players: usize, games: u64) {
    let game = load_ruleset(ruleset);
    LISTED.with(|l| l.set(0));
    let compared = compare_games(&game, players, 0..games);
    // Every shipped ruleset has decisions whose listing compiles.
    assert!(
        LISTED.with(|l| l.get()) > 0,
        "{ruleset}: no compiled listing ran"
    );
    assert!(
        compared > 100,
        "{ruleset}: only {compared} evaluations compared"
    );
}

#[test]
fn go_west() {
    check("go-west", 4, 20);
    check("go-west", 2, 10);
}

#[test]
fn way_out_west() {
    check("way-out-west", 5, 5);
}

#[test]
fn circle_the_wagons() {
    check("circle-the-wagons", 2, 5);
}

#[test]
fn gold_west() {
    check("gold-west", 4, 5);
}

#[test]
fn grand_junction() {
    check("grand-junction", 7, 3);
}

/// Rulesets of the fuzzing grammar: 200 here, `FRONTIER_ENGINE_CASES=N cargo test
/// --release -p frontier-engine -- --ignored` for more.
#[test]
fn generated_rulesets() {
    generated(0..200);
}

#[test]
#[ignore]
fn generated_rulesets_campaign() {
    let n = std::env::var("FRONTIER_ENGINE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    generated(0..n);
}

fn generated(seeds: std::ops::Range<u64>) {
    let n = seeds.end - seeds.start;
    let mut compared = 0;
    for seed in seeds {
        let text = generate::ruleset(seed);
        let game = load(&text_source("fuzz", "ruleset.yaml", text.clone()), &resolve)
            .unwrap_or_else(|e| panic!("a generated ruleset does not load:\n{e}\n{text}"));
        let players = game.meta.min_players as usize;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compare_games(&game, players, seed..seed + 1)
        }));
        match result {
            Ok(c) => compared += c,
            Err(_) => panic!("generated ruleset {seed} differs (see above):\n{text}"),
        }
    }
    // The grammar must keep writing games with decisions, or this compares nothing.
    assert!(
        compared > 10 * n as usize,
        "only {compared} evaluations in {n} rulesets"
    );
}

/// `source` (an expression of Go West, players' names bound) evaluated compiled, at the
/// start of a 4-player game, with the walker's result beside.
fn go_west_at_start(source: &str, want: Want) -> (String, String) {
    let game = load_ruleset("go-west");
    let state = game.start(names(4)).expect("start");
    let query = frontier_interpreter::trace::Query::compile(&game, &state, source)
        .unwrap_or_else(|e| panic!("{e}"));
    let env = Env::new(&game, &state, query.locals());
    let mut compiler = ExprCompiler::new().expect("a code generator");
    let i = match want {
        Want::Truth => compiler.add_bool(query.ir()),
        Want::Number => compiler.add_int(query.ir()),
    }
    .expect("it compiles");
    let code = compiler.finish().expect("the code is made");
    let show = |r: Result<String, frontier_interpreter::eval::RuntimeError>| match r {
        Ok(v) => v,
        Err(e) => format!("error: {e}"),
    };
    let (compiled, walker) = match want {
        Want::Truth => (
            code.bool(i, &env).map(|b| b.to_string()),
            query.ir().bool(&env).map(|b| b.to_string()),
        ),
        Want::Number => (
            code.int(i, &env).map(|n| n.to_string()),
            query.ir().int(&env).map(|n| n.to_string()),
        ),
    };
    (show(compiled), show(walker))
}

/// Each case: an expression and its value at the start of a 4-player Go West game (every
/// player holds 30 tokens and 10 VP, rulebook §3.4; the East holds no wagon yet), the
/// value computed by hand in the comment.
#[test]
fn values_at_the_start_of_go_west() {
    let cases = [
        // 30 + 10 >= 41 is false.
        ("tokens[p1] + vp[p1] >= 41", Want::Truth, "false"),
        // 30 * 2 - 10 = 50.
        ("tokens[p1] * 2 - vp[p2]", Want::Number, "50"),
        // 0 wagons in the East, 20 in New England: 0 >= 1 or 20 >= 20.
        (
            "wagons[@east] >= 1 or wagons[@new-england] >= 20",
            Want::Truth,
            "true",
        ),
        // if 10 >= 10 then 30 else 0.
        ("if vp[p3] >= 10 then tokens[p3] else 0", Want::Number, "30"),
        // Nothing is discarded before the first action: the pile's first and last
        // cards are none (a zone never filled holds no memory to read).
        (
            "first(discard) == none and last(discard) == none",
            Want::Truth,
            "true",
        ),
    ];
    for (source, want, expected) in cases {
        let (compiled, walker) = go_west_at_start(source, want);
        assert_eq!(compiled, expected, "{source}");
        assert_eq!(walker, expected, "{source}");
    }
}

/// An overflow is the walker's error, word for word.
#[test]
fn errors_are_the_walkers() {
    let (compiled, walker) = go_west_at_start("9223372036854775807 + vp[p1]", Want::Number);
    assert!(compiled.starts_with("error: "), "{compiled}");
    assert_eq!(compiled, walker);
}

/// Every trace shipped under rulesets/*/traces replays with the compiled code as it does
/// with the walker alone: the same steps, assertions and final state (debug builds also
/// take every compiled step with the walker and compare the states: `Game::apply_with`).
#[test]
fn every_shipped_trace_replays_the_same() {
    use frontier_interpreter::frontier_grammar::trace::{parse, RulesetRef, Trace};
    use frontier_interpreter::trace::{replay, replay_covering, replay_stepped, starting_state};
    use frontier_interpreter::Stepper;
    // The traces by the game they play (ruleset and parameters): each game is loaded and
    // compiled once.
    let mut by_game: std::collections::BTreeMap<String, Vec<(std::path::PathBuf, Trace)>> =
        Default::default();
    for name in frontier_tests::ruleset_names() {
        let dir = frontier_tests::workspace()
            .join("rulesets")
            .join(&name)
            .join("traces");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
            if path.extension().is_none_or(|x| x != "trace") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a trace");
            let trace = parse(&text).expect("a shipped trace parses");
            let RulesetRef::Name(ruleset) = &trace.header.ruleset else {
                panic!("shipped traces name their ruleset");
            };
            let key = format!("{ruleset} {:?}", trace.header.params);
            by_game.entry(key).or_default().push((path, trace));
        }
    }
    let mut replayed = 0;
    for traces in by_game.values() {
        let header = &traces[0].1.header;
        let RulesetRef::Name(ruleset) = &header.ruleset else {
            unreachable!("checked above");
        };
        let source = frontier_tests::source(&frontier_tests::ruleset_path(ruleset));
        let game = frontier_interpreter::load_with_params(
            &source,
            &resolve,
            &header.params,
            Default::default(),
        )
        .expect("it loads");
        let code = CompiledGame::new(&game).expect("it compiles");
        for (path, trace) in traces {
            let start = || {
                starting_state(&game, trace, |p| {
                    std::fs::read_to_string(path.parent().expect("a folder").join(p))
                        .map_err(|e| e.to_string())
                })
                .expect("it starts")
            };
            let outcome = |r: Result<frontier_interpreter::trace::Replayed, _>| {
                r.map(|r| (r.steps, r.assertions, r.final_state))
                    .map_err(|d: frontier_interpreter::trace::Divergence| d.to_string())
            };
            let compiled = outcome(replay_stepped(
                Stepper::compiled(&game, &code),
                trace,
                start(),
                |_| {},
            ));
            let walked = outcome(replay(&game, trace, start(), |_| {}));
            assert!(compiled == walked, "{}", path.display());
            // And the same rules run through (`check --coverage`).
            let (mut by_code, mut by_walker) = (Default::default(), Default::default());
            let _ = replay_covering(
                Stepper::compiled(&game, &code),
                trace,
                start(),
                &mut by_code,
            );
            let _ = replay_covering(Stepper::walker(&game), trace, start(), &mut by_walker);
            assert_eq!(by_code, by_walker, "{}: the rules covered", path.display());
            replayed += 1;
        }
    }
    assert!(replayed >= 6, "only {replayed} traces found");
}
