//! Scripts run in loaded games: the game handle, the board built-ins, the sandbox's limits.

use std::sync::Arc;

use crate::eval::RuntimeError;
use crate::grid::Pos;
use crate::load::{load, RulesetSource};
use crate::model::Game;
use crate::script::{with_reading, GameHandle, Reading};
use crate::state::State;
use crate::value::Value;

const RULESET: &str = r#"
name: script-test
players: [2, 2]
tables:
  lands:
    columns: { terrain: str, points: int }
    rows:
      - [f1, forest, 1]
      - [w1, water, 2]
state:
  round: { init: 3 }
  gold: { per: players, init: 5 }
  owner: { per: lands, type: player }
zones:
  deck: { of: lands }
  hands: { of: lands, per: players }
boards:
  town: { of: lands, per: players }
  plots: { of: lands, per: lands }
play:
  - choose:
      who: "players[0]"
      options:
        - label: "pass"
ranking:
  score: "gold[it]"
"#;

const SCRIPT: &str = r#"
fn round(game) { game.round }
fn round_by_index(game) { game["round"] }
fn gold(game, p) { game.gold[p] }
fn golds(game) { game.gold }
fn owner(game, land) { game.owner[land] }
fn players(game) { game.players }
fn deck(game) { game.deck }
fn hand(game, p) { game.hands[p] }
fn unknown(game) { game.nothing_by_that_name }
fn town_cells(game, p) { game.town[p].map(|c| `${c.row} ${c.col} ${c.id} ${c.terrain} ${c.points}`) }
fn towns(game) { game.town.len() }
fn last_town(game) { game.town[-1].len() }
fn town_of(game, p) { game.town[p].len() }
fn town_by_id(game) { game.town["p1"] }
fn plot(game, land) { game.plots[land] }
fn plots(game) { game.plots.len() }
fn plot_by_number(game) { game.plots[0] }
fn the_towns(game) { game.town }
fn set_round(game) { game.round = 9; game.round }
fn set_gold(game) { game.gold[0] = 9; game.gold[0] }
fn the_handle(game) { game }
fn nested(game) { [[1, 2], [3]] }

fn neighbours_of(game, row, col) { neighbours(#{ row: row, col: col }).map(|p| `${p.row},${p.col}`) }
fn neighbour_cells(game, p, row, col) { neighbours(game.town[p], #{ row: row, col: col }).map(|c| c.id) }
fn terrain_at(game, p, row, col) { at(game.town[p], #{ row: row, col: col })?.terrain }
fn cells_of(game, p) { cells(game.town[p]).map(|c| `${c.row},${c.col}`) }
fn holes_of(game, p) { holes(game.town[p]).map(|c| `${c.row},${c.col}`) }
fn placements_of(game, p, rows, cols) { placements(game.town[p], rows, cols).map(|c| `${c.row},${c.col}`) }
fn groups_of(game, p, terrain) {
    groups(game.town[p], |cell| cell.terrain == terrain).map(|g| g.map(|c| `${c.row},${c.col}`).reduce(|s, c| if s == () { c } else { `${s} ${c}` }))
}
fn groups_reading_the_board(game, p) {
    let board = game.town[p];
    groups(board, |cell| at(board, cell) != ()).len()
}
fn groups_not_bool(game, p) { groups(game.town[p], |cell| 1) }
fn not_a_board(game) { cells([1, 2]) }
fn far_away(game) { neighbours(#{ row: 100000, col: 0 }) }
fn huge_piece(game, p) { placements(game.town[p], 65, 1) }
"#;

fn game() -> Game {
    let source = RulesetSource {
        origin: "test".into(),
        file: "test.yaml".into(),
        text: RULESET.into(),
        scripts: vec![("test.rhai".into(), SCRIPT.into())],
    };
    load(&source, &|_| Err("no extends".into())).unwrap_or_else(|e| panic!("{e}"))
}

/// A started game with some state: p2 owns w1, the deck holds w1 f1, p1's hand f1,
/// and p1's town is a ring of forest around (1,1) with water at (0,0) and (2,2):
///
/// ```text
/// w f f
/// f . f
/// f f w
/// ```
fn state(game: &Game) -> State {
    let mut state = game.start(vec!["p1".into(), "p2".into()]).unwrap();
    let var = |name: &str| game.vars.iter().find(|v| v.name == name).unwrap();
    state.ints[var("owner").base + 1] = 1;
    let zone = |name: &str| game.zones.iter().find(|z| z.name == name).unwrap();
    state.zones[zone("deck").base] = vec![1, 0];
    state.zones[zone("hands").base] = vec![0];
    let town = &mut state.boards[game.boards[0].base];
    for row in 0..3 {
        for col in 0..3 {
            if (row, col) != (1, 1) {
                let water = (row, col) == (0, 0) || (row, col) == (2, 2);
                town.set(Pos::new(row, col), water as u16);
            }
        }
    }
    state
}

fn call(game: &Game, state: &State, name: &str, args: Vec<Value>) -> Result<Value, RuntimeError> {
    let Some(function) = game.scripts.as_ref().unwrap().find(name) else {
        return Err(RuntimeError::new(format!("no script function {name}")));
    };
    crate::script::call(game, state, function, args).map_err(RuntimeError::new)
}

fn int(n: i64) -> Value {
    Value::Int(n)
}

fn text(s: &str) -> Value {
    Value::Str(Arc::from(s))
}

fn list(items: Vec<Value>) -> Value {
    Value::list(items)
}

/// ["row,col", …]: positions as the test scripts write them (a script returns no
/// array of arrays).
fn positions(list: &[(i64, i64)]) -> Value {
    Value::list(
        list.iter()
            .map(|&(r, c)| text(&format!("{r},{c}")))
            .collect(),
    )
}

/// "row,col row,col …": a group of positions as the test scripts write it.
fn group(list: &[(i64, i64)]) -> Value {
    let cells: Vec<String> = list.iter().map(|&(r, c)| format!("{r},{c}")).collect();
    text(&cells.join(" "))
}

#[test]
fn the_handle_reads_a_variable_a_per_player_variable_and_a_per_row_one() {
    let game = game();
    let state = state(&game);
    assert_eq!(call(&game, &state, "round", vec![]), Ok(int(3)));
    assert_eq!(call(&game, &state, "round_by_index", vec![]), Ok(int(3)));
    assert_eq!(
        call(&game, &state, "gold", vec![Value::Player(1)]),
        Ok(int(5))
    );
    assert_eq!(
        call(&game, &state, "golds", vec![]),
        Ok(list(vec![int(5), int(5)]))
    );
    assert_eq!(call(&game, &state, "owner", vec![text("w1")]), Ok(int(1)));
    assert_eq!(
        call(&game, &state, "owner", vec![text("f1")]),
        Ok(Value::None)
    );
    assert_eq!(call(&game, &state, "players", vec![]), Ok(int(2)));
    assert_eq!(call(&game, &state, "unknown", vec![]), Ok(Value::None));
}

#[test]
fn the_handle_reads_zones_as_arrays_of_ids() {
    let game = game();
    let state = state(&game);
    assert_eq!(
        call(&game, &state, "deck", vec![]),
        Ok(list(vec![text("w1"), text("f1")]))
    );
    assert_eq!(
        call(&game, &state, "hand", vec![Value::Player(0)]),
        Ok(list(vec![text("f1")]))
    );
    assert_eq!(
        call(&game, &state, "hand", vec![Value::Player(1)]),
        Ok(list(vec![]))
    );
}

#[test]
fn the_handle_reads_a_board_as_cell_maps_in_reading_order_with_the_columns() {
    let game = game();
    let state = state(&game);
    let cell = |r: i64, c: i64, id: &str, terrain: &str, points: i64| {
        text(&format!("{r} {c} {id} {terrain} {points}"))
    };
    let town = call(&game, &state, "town_cells", vec![Value::Player(0)]).unwrap();
    let Value::List(cells) = &town else {
        panic!("{town:?}")
    };
    assert_eq!(cells.len(), 8);
    assert_eq!(cells[0], cell(0, 0, "w1", "water", 2));
    assert_eq!(cells[1], cell(0, 1, "f1", "forest", 1));
    assert_eq!(cells[3], cell(1, 0, "f1", "forest", 1));
    assert_eq!(cells[7], cell(2, 2, "w1", "water", 2));
    assert_eq!(
        call(&game, &state, "town_cells", vec![Value::Player(1)]),
        Ok(list(vec![]))
    );
}

#[test]
fn a_board_per_player_is_indexed_by_seat_and_builds_only_the_board_indexed() {
    let game = game();
    let state = state(&game);
    assert_eq!(call(&game, &state, "towns", vec![]), Ok(int(2)));
    assert_eq!(call(&game, &state, "town_of", vec![int(0)]), Ok(int(8)));
    assert_eq!(call(&game, &state, "town_of", vec![int(1)]), Ok(int(0)));
    assert_eq!(call(&game, &state, "town_of", vec![int(-2)]), Ok(int(8)));
    assert_eq!(call(&game, &state, "last_town", vec![]), Ok(int(0)));
    let err = call(&game, &state, "town_of", vec![int(2)]).unwrap_err();
    assert!(
        err.message().contains("no board of index 2 (there are 2)"),
        "{err}"
    );
    let err = call(&game, &state, "town_by_id", vec![]).unwrap_err();
    assert!(err.message().contains("indexed by seat number"), "{err}");
    let err = call(&game, &state, "the_towns", vec![]).unwrap_err();
    assert!(err.message().contains("returned a Boards"), "{err}");
}

#[test]
fn a_board_per_row_is_indexed_by_row_id() {
    let game = game();
    let state = state(&game);
    assert_eq!(call(&game, &state, "plots", vec![]), Ok(int(2)));
    assert_eq!(
        call(&game, &state, "plot", vec![text("w1")]),
        Ok(list(vec![]))
    );
    assert_eq!(
        call(&game, &state, "plot", vec![text("nowhere")]),
        Ok(Value::None)
    );
    let err = call(&game, &state, "plot_by_number", vec![]).unwrap_err();
    assert!(err.message().contains("indexed by row id"), "{err}");
}

#[test]
fn writing_to_the_handle_fails_and_leaves_the_state_alone() {
    let game = game();
    let state = state(&game);
    let before = state.clone();
    let err = call(&game, &state, "set_round", vec![]).unwrap_err();
    assert!(
        err.message()
            .starts_with("script test.rhai, function set_round: "),
        "{err}"
    );
    // An element of a value read from the handle is a copy: changing it may fail or
    // change the copy, never the state.
    match call(&game, &state, "set_gold", vec![]) {
        Ok(v) => assert!(v == int(9) || v == int(5), "{v:?}"),
        Err(e) => assert!(e.message().contains("function set_gold"), "{e}"),
    }
    assert_eq!(state, before);
    assert_eq!(call(&game, &state, "round", vec![]), Ok(int(3)));
}

#[test]
fn the_handle_cannot_be_returned_nor_read_outside_its_call() {
    let game = game();
    let state = state(&game);
    let err = call(&game, &state, "the_handle", vec![]).unwrap_err();
    assert!(err.message().contains("returned a Game"), "{err}");
    let reading = Reading::enter(&game, &state);
    let handle = reading.handle();
    assert_eq!(with_reading(&handle, |_, s| s.names.len()), Ok(2));
    assert!(with_reading(
        &GameHandle {
            call: handle.call + 1
        },
        |_, _| ()
    )
    .is_err());
    drop(reading);
    assert!(with_reading(&handle, |_, _| ()).is_err());
}

#[test]
fn neighbours_of_a_position_and_the_occupied_ones_on_a_board() {
    let game = game();
    let state = state(&game);
    let (p1, p2) = (Value::Player(0), Value::Player(1));
    assert_eq!(
        call(&game, &state, "neighbours_of", vec![int(0), int(0)]),
        Ok(positions(&[(-1, 0), (0, -1), (0, 1), (1, 0)]))
    );
    // Around the hole: above, left, right, below, all forest.
    assert_eq!(
        call(
            &game,
            &state,
            "neighbour_cells",
            vec![p1.clone(), int(1), int(1)]
        ),
        Ok(list(vec![text("f1"); 4]))
    );
    // Around a corner: only right and below are occupied.
    assert_eq!(
        call(&game, &state, "neighbour_cells", vec![p1, int(0), int(0)]),
        Ok(list(vec![text("f1"), text("f1")]))
    );
    assert_eq!(
        call(&game, &state, "neighbour_cells", vec![p2, int(0), int(0)]),
        Ok(list(vec![]))
    );
}

/// A script returning an array of arrays is an error naming it (it was flattened).
#[test]
fn an_array_holding_an_array_is_an_error_naming_the_function() {
    let game = game();
    let state = state(&game);
    let err = call(&game, &state, "nested", vec![]).unwrap_err();
    assert!(
        err.message()
            .contains("function nested: returned an array holding an array"),
        "{err}"
    );
}

#[test]
fn at_gives_the_cell_or_nothing() {
    let game = game();
    let state = state(&game);
    let p1 = Value::Player(0);
    assert_eq!(
        call(
            &game,
            &state,
            "terrain_at",
            vec![p1.clone(), int(2), int(2)]
        ),
        Ok(text("water"))
    );
    assert_eq!(
        call(
            &game,
            &state,
            "terrain_at",
            vec![p1.clone(), int(0), int(1)]
        ),
        Ok(text("forest"))
    );
    assert_eq!(
        call(
            &game,
            &state,
            "terrain_at",
            vec![p1.clone(), int(1), int(1)]
        ),
        Ok(Value::None)
    );
    assert_eq!(
        call(&game, &state, "terrain_at", vec![p1, int(-5), int(7)]),
        Ok(Value::None)
    );
}

#[test]
fn cells_and_holes_are_positions_in_reading_order() {
    let game = game();
    let state = state(&game);
    let p1 = Value::Player(0);
    assert_eq!(
        call(&game, &state, "cells_of", vec![p1.clone()]),
        Ok(positions(&[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (1, 2),
            (2, 0),
            (2, 1),
            (2, 2)
        ]))
    );
    assert_eq!(
        call(&game, &state, "holes_of", vec![p1]),
        Ok(positions(&[(1, 1)]))
    );
    assert_eq!(
        call(&game, &state, "holes_of", vec![Value::Player(1)]),
        Ok(positions(&[]))
    );
}

#[test]
fn placements_are_those_of_the_grid() {
    let game = game();
    let state = state(&game);
    // An empty board takes its first piece at the origin.
    assert_eq!(
        call(
            &game,
            &state,
            "placements_of",
            vec![Value::Player(1), int(2), int(2)]
        ),
        Ok(positions(&[(0, 0)]))
    );
    let town = &state.boards[game.boards[0].base];
    let expected: Vec<(i64, i64)> = town
        .placements(1, 2)
        .iter()
        .map(|p| (p.row as i64, p.col as i64))
        .collect();
    assert!(expected.contains(&(1, 0)) && expected.contains(&(-1, 1)));
    assert_eq!(
        call(
            &game,
            &state,
            "placements_of",
            vec![Value::Player(0), int(1), int(2)]
        ),
        Ok(positions(&expected))
    );
    let err = call(&game, &state, "huge_piece", vec![Value::Player(0)]).unwrap_err();
    assert!(err.message().contains("sizes go from 1 to 64"), "{err}");
}

#[test]
fn groups_keep_the_cells_a_function_accepts_largest_first() {
    let game = game();
    let state = state(&game);
    let p1 = Value::Player(0);
    // The waters in two corners cut the six forests into two groups of three, the
    // one whose first cell comes first in reading order first.
    assert_eq!(
        call(&game, &state, "groups_of", vec![p1.clone(), text("forest")]),
        Ok(list(vec![
            group(&[(0, 1), (0, 2), (1, 2)]),
            group(&[(1, 0), (2, 0), (2, 1)])
        ]))
    );
    // The two waters touch nothing of their own: two groups of one, in reading order.
    assert_eq!(
        call(&game, &state, "groups_of", vec![p1.clone(), text("water")]),
        Ok(list(vec![group(&[(0, 0)]), group(&[(2, 2)])]))
    );
    assert_eq!(
        call(
            &game,
            &state,
            "groups_of",
            vec![Value::Player(1), text("water")]
        ),
        Ok(list(vec![]))
    );
    // The function may read the board it is grouping: all eight cells, one ring.
    assert_eq!(
        call(&game, &state, "groups_reading_the_board", vec![p1.clone()]),
        Ok(int(1))
    );
    let err = call(&game, &state, "groups_not_bool", vec![p1]).unwrap_err();
    assert!(
        err.message().contains("function groups_not_bool")
            && err.message().contains("true or false"),
        "{err}"
    );
}

#[test]
fn grid_functions_refuse_what_is_not_a_board_or_a_position() {
    let game = game();
    let state = state(&game);
    let err = call(&game, &state, "not_a_board", vec![]).unwrap_err();
    assert!(
        err.message()
            .starts_with("script test.rhai, function not_a_board: "),
        "{err}"
    );
    assert!(err.message().contains("element 0 of the board"), "{err}");
    let err = call(&game, &state, "far_away", vec![]).unwrap_err();
    assert!(
        err.message().contains("row and col must be integers"),
        "{err}"
    );
}
