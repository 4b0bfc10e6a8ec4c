//! Compiled expressions against the walker, the reference semantics: every option
//! condition of every shipped ruleset (as written, and as the optimizer specialized it per
//! row), evaluated both ways at every decision of seeded random games, for every element
//! the option's `for:` list holds there. Values must be equal, and errors must be errors.

use std::collections::HashMap;
use std::ops::ControlFlow;

use frontier_engine::{CompiledExpr, ExprCompiler};
use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::eval::Env;
use frontier_interpreter::ir::Expr;
use frontier_interpreter::model::StmtKind;
use frontier_interpreter::{runner, Choice, Game, GameRng, Journal, Pending, Status};
use frontier_tests::{load_ruleset, names};

/// Every option condition of `game`, compiled: by the address of its node.
fn compile_conditions(game: &Game) -> (CompiledExpr<'_>, HashMap<*const Expr, usize>) {
    let mut compiler = ExprCompiler::new().expect("this machine has a code generator");
    let mut index = HashMap::new();
    for block in &game.blocks {
        for stmt in block {
            let StmtKind::Choose(choose) = &stmt.kind else {
                continue;
            };
            for group in &choose.groups {
                let by_row = group.by_row.iter().flat_map(|b| b.conditions.iter());
                for condition in group.condition.iter().chain(by_row) {
                    let i = compiler.add_bool(condition).expect("it compiles");
                    index.insert(condition as *const Expr, i);
                }
            }
        }
    }
    (compiler.finish().expect("the code is made"), index)
}

/// Evaluates every condition of the pending decision both ways; returns how many
/// evaluations were compared.
fn compare_at_decision(
    game: &Game,
    state: &frontier_interpreter::State,
    code: &CompiledExpr,
    index: &HashMap<*const Expr, usize>,
) -> usize {
    let Pending::Decision { block, pc, .. } = state.pending() else {
        return 0;
    };
    let StmtKind::Choose(choose) = &game.blocks[block.index()][*pc as usize].kind else {
        panic!("a decision without its choose");
    };
    let base = state.stack().last().map_or(0, |f| f.base as usize);
    let env = Env::new(game, state, &state.locals()[base..]);
    let mut compared = 0;
    let mut check = |condition: &Expr, env: &Env| {
        let walker = condition.bool(env);
        let compiled = code.bool(index[&(condition as *const Expr)], env);
        match (&walker, &compiled) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{condition:?}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("walker {walker:?}, compiled {compiled:?}: {condition:?}"),
        }
        compared += 1;
    };
    for group in &choose.groups {
        let conditions: Vec<&Expr> = group
            .condition
            .iter()
            .chain(group.by_row.iter().flat_map(|b| b.conditions.iter()))
            .collect();
        match group.bindings.as_slice() {
            [] => conditions.iter().for_each(|c| check(c, &env)),
            [(slot, list)] => {
                // A list that cannot be read here is the walker's error, not the code's.
                let _ = list.each(&env, |item| {
                    let bound = env.with_bound(*slot, item);
                    conditions.iter().for_each(|c| check(c, &bound));
                    Ok(ControlFlow::Continue(()))
                });
            }
            // Groups of several lists: their conditions are compared where they are alone.
            _ => {}
        }
    }
    compared
}

/// Seeded random games of `ruleset` with `players`, compared at every decision.
fn check(ruleset: &str, players: usize, games: u64) {
    let game = load_ruleset(ruleset);
    let (code, index) = compile_conditions(&game);
    assert!(!index.is_empty(), "{ruleset} has option conditions");
    let nodes = code.nodes();
    assert!(
        nodes.compiled > 0,
        "{ruleset}: nothing compiled ({nodes:?})"
    );
    let mut compared = 0;
    for seed in 0..games {
        let mut state = game.start(names(players)).expect("start");
        let mut agents: Vec<RandomAgent> = (0..players)
            .map(|p| RandomAgent::new(GameRng::derived(seed, p as u64 + 1)))
            .collect();
        let mut rng = GameRng::new(seed);
        for _ in 0..runner::MAX_STEPS {
            let choice = match game.status(&state) {
                Status::Over(_) => break,
                Status::Decision { player, .. } => {
                    compared += compare_at_decision(&game, &state, &code, &index);
                    let view = game.view(&state).expect("a view");
                    Choice::Option(agents[player as usize].decide(&view).expect("a choice"))
                }
                Status::Chance(c) => runner::sample_chance(&state, c, &mut rng),
            };
            game.apply(&mut state, choice, &mut Journal::off())
                .expect("the step applies");
        }
    }
    assert!(
        compared > 100,
        "{ruleset}: only {compared} evaluations compared"
    );
    eprintln!("{ruleset} {players}p: {compared} evaluations compared, {nodes:?}");
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

// Circle the Wagons has no option condition: its options are placements, listed.

#[test]
fn gold_west() {
    check("gold-west", 4, 5);
}

#[test]
fn grand_junction() {
    check("grand-junction", 7, 3);
}

/// What an expression gives.
#[derive(Clone, Copy)]
enum Want {
    Number,
    Truth,
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
