//! `frontier perft`: step sequences counted from a game's start, by depth and by first
//! step, and what it refuses.

use crate::terminal::{workspace, Run};

fn frontier(args: &[&str]) -> Run {
    crate::terminal::frontier(&workspace(), args, "")
}

/// Connect four (7 columns of 6): no four in a row can end a game before its 7th piece,
/// and a column fills only with 6 pieces, so every one of the 7^k sequences of k ≤ 6
/// drops is legal. At 7 drops, the 7 sequences that put the first 6 pieces in one column
/// leave 6 columns for the 7th: 7^7 − 7 = 823,536.
#[test]
fn perft_counts_connect_four_drops_by_hand() {
    let run = frontier(&[
        "perft",
        "tests/rulesets/connect-four-natural",
        "--depth",
        "7",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    let counts: Vec<&str> = run
        .out
        .lines()
        .map(|l| l.split(" (").next().unwrap_or_default())
        .collect();
    assert_eq!(
        counts,
        [
            "depth 1: 7",
            "depth 2: 49",
            "depth 3: 343",
            "depth 4: 2401",
            "depth 5: 16807",
            "depth 6: 117649",
            "depth 7: 823536"
        ]
    );
}

/// tests/cases/outcome: a die of 3 faces (weights 2, 1, 1: each face counts once), then
/// 3 options: 9 sequences, 3 after each face; then the game is over.
#[test]
fn perft_divides_by_first_step_and_counts_chance_outcomes_once() {
    let run = frontier(&[
        "perft",
        "tests/cases/outcome",
        "--depth",
        "2",
        "--divide",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    let doc: serde_json::Value = serde_json::from_str(&run.out).expect("JSON");
    assert_eq!(doc["counts"][0]["count"], 3);
    assert_eq!(doc["counts"][1]["count"], 9);
    let divided: Vec<(String, u64)> = doc["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["step"].as_str().unwrap().to_string(),
                d["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(divided, [("1".into(), 3), ("2".into(), 3), ("3".into(), 3)]);
    // The game is over after two steps: no sequence of three.
    let three = frontier(&["perft", "tests/cases/outcome", "--depth", "3"]);
    assert!(three.out.contains("depth 3: 0"), "{}", three.out);
}

#[test]
fn perft_refuses_shuffles_and_bad_depths() {
    let shuffle = frontier(&["perft", "go-west", "--depth", "1"]);
    assert_eq!(shuffle.code, 1);
    assert!(
        shuffle
            .err
            .contains("perft does not count through shuffles"),
        "{}",
        shuffle.err
    );
    for depth in ["0", "13", "x"] {
        let bad = frontier(&["perft", "go-west", "--depth", depth]);
        assert_eq!(bad.code, 2, "--depth {depth}: {}", bad.err);
    }
}
