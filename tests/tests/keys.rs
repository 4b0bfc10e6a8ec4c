//! Two-key state variables and zones (`per: [players, sections]`), from
//! tests/cases/keys: reads, writes, `add`, moves between two-key zone instances, positions,
//! scripts and displays. Expected values are worked out by hand in the comments.

use frontier_interpreter::trace::evaluate;
use frontier_interpreter::{Game, State, Status, Value};
use frontier_tests::*;

fn game() -> Game {
    load_source(&source(&workspace().join("tests/cases/keys"))).expect("the ruleset loads")
}

fn check(game: &Game, state: &State, cases: &[(&str, Value)]) {
    for (expr, expected) in cases {
        assert_eq!(
            evaluate(game, state, expr).unwrap_or_else(|e| panic!("{expr}: {e}")),
            *expected,
            "{expr}"
        );
    }
}

fn row(game: &Game, table: &str, id: &str) -> Value {
    let (t, table) = game.table(table).unwrap();
    Value::Row(t, table.row_index(id).unwrap())
}

fn rows(game: &Game, table: &str, ids: &[&str]) -> Value {
    Value::list(ids.iter().map(|id| row(game, table, id)).collect())
}

fn scores(game: &Game, state: &State) -> Vec<i64> {
    match game.status(state) {
        Status::Over(outcome) => outcome.scores.clone(),
        _ => panic!("the game is not over"),
    }
}

/// After setup, at p1's decision.
#[test]
fn setup_writes_and_reads_two_key_entries() {
    let game = game();
    for n in [2, 3] {
        let state = game.start(names(n)).unwrap();
        check(
            &game,
            &state,
            &[
                // init 1, then add each section's start: s1 1 + 2, s2 1 + 0, s3 1 + 1, for everybody.
                ("supply[p1, sections[\"s1\"]]", Value::Int(3)),
                ("supply[p1, sections[\"s2\"]]", Value::Int(1)),
                ("supply[p2, sections[\"s3\"]]", Value::Int(2)),
                (
                    "sum(players, p => sum(sections, s => supply[p, s]))",
                    Value::Int(6 * n as i64),
                ),
                ("stored(p2)", Value::Int(6)),
                // Only open[s2, p2] was set; the others keep false.
                ("open[sections[\"s2\"], p2]", Value::Bool(true)),
                ("open[sections[\"s2\"], p1]", Value::Bool(false)),
                ("count_if(sections, s => open[s, p2])", Value::Int(1)),
                (
                    "link[sections[\"s1\"], sections[\"s3\"]]",
                    row(&game, "sections", "s2"),
                ),
                ("link[sections[\"s3\"], sections[\"s1\"]]", Value::None),
                // bank [gold silver copper]: the top two went to stock[p1, s1], then silver on
                // to stock[p2, s3].
                (
                    "stock[p1, sections[\"s1\"]]",
                    rows(&game, "goods", &["gold"]),
                ),
                (
                    "stock[p2, sections[\"s3\"]]",
                    rows(&game, "goods", &["silver"]),
                ),
                (
                    "stock[p2, sections[\"s3\"]][0]",
                    row(&game, "goods", "silver"),
                ),
                ("len(stock[p1, sections[\"s2\"]])", Value::Int(0)),
                ("bank", rows(&game, "goods", &["copper"])),
            ],
        );
        // Sections with more than 1 in p1's supply: s1 (3) and s3 (2), not s2 (1).
        assert_eq!(options(&game, &state), vec!["take:s1", "take:s3"]);
    }
}

#[test]
fn statements_write_through_two_keys() {
    let game = game();
    let start = game.start(names(2)).unwrap();

    let mut state = start.clone();
    choose(&game, &mut state, "take:s1");
    check(
        &game,
        &state,
        &[
            // 3 - 1; then supply[p2, s1.next = s2] = 2 * 10; copper from the bank to stock[p1, s1].
            ("supply[p1, sections[\"s1\"]]", Value::Int(2)),
            ("supply[p2, sections[\"s2\"]]", Value::Int(20)),
            ("supply[p2, sections[\"s1\"]]", Value::Int(3)),
            (
                "stock[p1, sections[\"s1\"]]",
                rows(&game, "goods", &["gold", "copper"]),
            ),
            ("bank", rows(&game, "goods", &[])),
            // p1's supply 2 + 1 + 2, and len(stock[p2, link[s1, s3].next = s3]) = 1.
            ("total", Value::Int(6)),
        ],
    );
    // stored: p1 2 + 1 + 2, p2 3 + 20 + 2.
    assert_eq!(scores(&game, &state), vec![5, 25]);

    let mut state = start;
    choose(&game, &mut state, "take:s3");
    // s3 has no next: only p1's entry changes (2 - 1); copper goes to stock[p1, s3].
    check(
        &game,
        &state,
        &[
            ("supply[p1, sections[\"s3\"]]", Value::Int(1)),
            (
                "stock[p1, sections[\"s3\"]]",
                rows(&game, "goods", &["copper"]),
            ),
            ("total", Value::Int(6)),
        ],
    );
    // p1 3 + 1 + 1, p2 3 + 1 + 2.
    assert_eq!(scores(&game, &state), vec![5, 6]);
}

#[test]
fn a_key_of_none_is_a_runtime_error() {
    let game = game();
    let state = game.start(names(2)).unwrap();
    let err = evaluate(&game, &state, "supply[p1, sections[\"s3\"].next]").unwrap_err();
    assert!(
        err.to_string().contains("supply[…] indexed by none"),
        "{err}"
    );
}

#[test]
fn positions_nest_the_second_key_inside_the_first() {
    let game = game();
    let mut state = game.start(names(3)).unwrap();
    for s in [state.clone(), {
        choose(&game, &mut state, "take:s1");
        state
    }] {
        let text = game.state_to_yaml(&s);
        let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        assert_eq!(
            doc["vars"]["supply"]["p3"]["s1"],
            serde_yaml::Value::from(3),
            "{text}"
        );
        assert_eq!(
            doc["vars"]["open"]["s2"]["p2"],
            serde_yaml::Value::from(true),
            "{text}"
        );
        assert_eq!(
            doc["vars"]["link"]["s1"]["s3"],
            serde_yaml::Value::from("s2"),
            "{text}"
        );
        assert_eq!(
            doc["zones"]["stock"]["p2"]["s3"][0],
            serde_yaml::Value::from("silver"),
            "{text}"
        );
        let back = game
            .state_from_yaml(&text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, s, "{text}");
    }

    // A hand-written position lists only some entries of some first keys (red needs more
    // than 1 somewhere to have an option when play starts: s1).
    let pos = position(
        &game,
        "red, green",
        "  supply: { red: { s1: 2 }, green: { s2: 7 } }\n  open: { s3: { red: true } }",
        "  stock: { red: { s3: [gold, silver] } }\n  bank: []",
    );
    check(
        &game,
        &pos,
        &[
            ("supply[green, sections[\"s2\"]]", Value::Int(7)),
            // Not listed: the declared init (setup does not run for a position).
            ("supply[green, sections[\"s1\"]]", Value::Int(1)),
            ("open[sections[\"s3\"], red]", Value::Bool(true)),
            ("len(stock[red, sections[\"s3\"]])", Value::Int(2)),
        ],
    );
    assert_eq!(options(&game, &pos), vec!["take:s1"]);
    // Each row of `goods` is in one zone at a time.
    let twice =
        "players: [red, green]\ninitial: rest\nzones:\n  stock: { red: { s3: [gold, gold] } }\n";
    assert_eq!(
        game.state_from_yaml(twice).unwrap_err(),
        "zones: gold is twice in stock[red, s3] (each row of 'goods' is in one zone at a time)"
    );
    let bad = "players: [red, green]\ninitial: rest\nvars:\n  supply: { red: 3 }\n";
    assert_eq!(
        game.state_from_yaml(bad).unwrap_err(),
        "vars.supply.red: expected a mapping by sections"
    );
    let bad = "players: [red, green]\ninitial: rest\nvars:\n  supply: { red: { s9: 3 } }\n";
    assert_eq!(
        game.state_from_yaml(bad).unwrap_err(),
        "vars.supply.red.s9: not a sections"
    );
}

#[test]
fn scripts_see_the_first_key_then_the_second() {
    let game = game();
    let state = game.start(names(2)).unwrap();
    check(
        &game,
        &state,
        &[
            ("supply_of(p1, sections[\"s1\"])", Value::Int(3)),
            ("open_of(sections[\"s2\"], p2)", Value::Bool(true)),
            ("stock_size(p2, sections[\"s3\"])", Value::Int(1)),
        ],
    );
}

#[test]
fn displays_name_both_keys() {
    let game = game();
    let state = game.start(names(2)).unwrap();
    let shown = game.render_state(&state, None);
    assert!(
        shown.contains(
            "supply: [p1, s1]=3 [p1, s2]=1 [p1, s3]=2 [p2, s1]=3 [p2, s2]=1 [p2, s3]=2\n"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("open: [s1, p1]=no [s1, p2]=no [s2, p1]=no [s2, p2]=yes"),
        "{shown}"
    );
    assert!(
        shown.contains("link: [s1, s1]=none [s1, s2]=none [s1, s3]=s2 "),
        "{shown}"
    );
    assert!(
        shown.contains("stock[p1, s1]: gold\nstock[p1, s2]: (empty)\n"),
        "{shown}"
    );
    assert!(shown.contains("stock[p2, s3]: silver\n"), "{shown}");
    let described = game.describe();
    assert!(
        described.contains("supply per players and sections"),
        "{described}"
    );
    assert!(
        described.contains("zone stock per players and sections"),
        "{described}"
    );
}

/// A two-key entry whose keys do not depend on the element of a per-element argument
/// stays an entry where the optimizer lifts such parts out (it is not read as a number):
/// in a variable, and as a zone instance searched for each element.
#[test]
fn a_two_key_entry_inside_a_per_element_argument_reads_the_entry() {
    let game = game();
    let state = game.start(names(3)).unwrap();
    // p1's next player is p2; supply[p2, s2] is 1 + s2's start 0 = 1. Starts: s1 2, s2 0,
    // s3 1. So 1 + 2, 1 + 0, 1 + 1.
    let expected = Value::list(vec![Value::Int(3), Value::Int(1), Value::Int(2)]);
    check(
        &game,
        &state,
        &[(
            "map(sections, s => supply[next_player(p1), sections[\"s2\"]] + s.start)",
            expected.clone(),
        )],
    );
    // A two-key zone instance counted for each good: the setup moved silver to
    // stock[p2, s3].
    let counts = Value::list(vec![Value::Int(0), Value::Int(1), Value::Int(0)]);
    check(
        &game,
        &state,
        &[(
            "map(goods, g => count(stock[next_player(p1), sections[\"s3\"]], g))",
            counts,
        )],
    );
}
