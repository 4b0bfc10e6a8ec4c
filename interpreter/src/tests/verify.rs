//! The IR verifier: every shipped-style game it is given passes, and each broken
//! invariant, made by hand in an otherwise sound game, is reported with where it stands.

use crate::ir::{Code, Expr, Op, Slot};
use crate::model::{Game, StmtKind};
use crate::value::Value;
use crate::verify::verify;

fn game(optimizer: crate::Optimizer) -> Game {
    let src = crate::RulesetSource {
        origin: "searches".into(),
        file: "ruleset.yaml".into(),
        text: include_str!("../../../tests/cases/searches/ruleset.yaml").into(),
        scripts: Vec::new(),
    };
    crate::load_with(
        &src,
        &|_| Err("no imports".into()),
        &[],
        crate::model::Limits::default(),
        optimizer,
    )
    .expect("the searches case loads")
}

fn function<'g>(game: &'g mut Game, name: &str) -> &'g mut Expr {
    &mut game
        .functions
        .iter_mut()
        .find(|f| f.name == name)
        .expect("the function exists")
        .body
}

/// Loads the searches case, breaks it with `break_it`, and checks that the verifier
/// reports exactly one problem, containing `expected`.
fn check(break_it: impl FnOnce(&mut Game), expected: &str) {
    let mut game = game(crate::Optimizer::On);
    break_it(&mut game);
    let problems = verify(&game).expect_err("the broken game is refused");
    assert_eq!(problems.len(), 1, "{problems:?}");
    let text = problems[0].to_string();
    assert!(text.contains(expected), "{text}");
}

#[test]
fn the_loaded_game_passes_with_and_without_the_optimizer() {
    for optimizer in [crate::Optimizer::On, crate::Optimizer::Off] {
        assert_eq!(verify(&game(optimizer)), Ok(()));
    }
}

#[test]
fn a_state_slot_past_the_state() {
    check(
        |g| {
            let past = crate::id::IntSlot::at(g.int_slots);
            *function(g, "stops_at_abilene") = Expr::Var {
                slot: past,
                code: Code::Bool,
            };
        },
        &format!(
            "functions.stops_at_abilene: variable slot {}",
            game(crate::Optimizer::On).int_slots
        ),
    );
}

#[test]
fn a_parameter_a_function_does_not_have() {
    // all_open takes no parameter.
    check(
        |g| *function(g, "all_open") = Expr::Param(0),
        "functions.all_open: parameter 0 of a function of 0",
    );
}

#[test]
fn a_built_in_call_with_the_wrong_arguments() {
    check(
        |g| {
            *function(g, "herds_of") = Expr::Call {
                op: Op::Len,
                args: Vec::new(),
            }
        },
        "Len given 0 argument(s)",
    );
    check(
        |g| {
            let list = Expr::Const(Value::list(vec![Value::Int(1)]));
            *function(g, "herds_of") = Expr::Call {
                op: Op::CountIf,
                args: vec![list.clone(), list],
            };
        },
        "CountIf given a plain argument at position 1",
    );
}

#[test]
fn the_element_where_none_is_bound() {
    check(
        |g| *function(g, "herds_of") = Expr::It,
        "`it` where no element is bound",
    );
    check(
        |g| *function(g, "herds_of") = Expr::Lambda(Expr::It.boxed()),
        "a per-element argument where none is taken",
    );
    check(
        |g| {
            let list = Expr::Const(Value::list(vec![Value::Int(1)]));
            let outer = Expr::Lambda(Expr::Outer(1).boxed());
            *function(g, "herds_of") = Expr::Call {
                op: Op::Any,
                args: vec![list, outer],
            };
        },
        "the element 1 levels out, where 1 are bound",
    );
}

#[test]
fn a_lifted_value_outside_its_with() {
    check(
        |g| *function(g, "herds_of") = Expr::Hoisted { depth: 0, index: 0 },
        "lifted value 0",
    );
    check(
        |g| {
            let body = Expr::Hoisted { depth: 0, index: 1 };
            *function(g, "herds_of") = Expr::With {
                values: vec![Expr::Const(Value::Int(1))],
                body: body.boxed(),
            };
        },
        "lifted value 1 of the With 0 levels out",
    );
}

#[test]
fn an_operand_of_the_wrong_kind() {
    check(
        |g| *function(g, "all_open") = Expr::Not(Expr::Const(Value::Int(3)).boxed()),
        "an operand of kind Int where [Bool] is read",
    );
}

#[test]
fn a_statement_that_names_what_does_not_exist() {
    check(
        |g| {
            let locals = g.procedures[g.setup.index()].locals;
            let body = g.procedures[g.setup.index()].body;
            g.blocks[body.index()][0].kind = StmtKind::Random {
                slot: Slot::at(locals),
                outcomes: Expr::Const(Value::list(vec![Value::Int(1)])),
                weights: None,
            };
        },
        "the outcome's local",
    );
}
