//! `frontier bench`: the lines scripts/bench-compare reads come first and as before, then
//! the cost of a state clone and, with `--search`, a search's iterations per second; the
//! same numbers as JSON; `--search` refuses what it cannot time. No speed is asserted:
//! only that each number is there and more than 0.

use crate::terminal::{workspace, Run};

/// Runs `frontier ARGS` in the workspace, with nothing on stdin.
fn frontier(args: &[&str]) -> Run {
    crate::terminal::frontier(&workspace(), args, "")
}

const BENCH: [&str; 6] = ["bench", "go-west", "--players", "2", "--seconds", "0.2"];

/// The number after `label` at the start of a line, and the line's place.
fn number(out: &str, label: &str) -> (usize, f64) {
    let (at, line) = out
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with(label))
        .unwrap_or_else(|| panic!("no '{label}' line in:\n{out}"));
    let value = line[label.len()..]
        .split_whitespace()
        .next()
        .and_then(|w| w.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no number in '{line}'"));
    (at, value)
}

#[test]
fn bench_prints_clone_costs_and_search_iterations_after_the_playout_lines() {
    let run = frontier(&[&BENCH[..], &["--search", "mcts:iterations=20"]].concat());
    assert_eq!(run.code, 0, "{}", run.err);
    let labels = [
        "games/s:",
        "decisions/s:",
        "steps/s:",
        "decisions per game:",
        "bytes per state clone:",
        "clone bytes:",
        "clone ns:",
        "iterations/s:",
    ];
    let mut last = 0;
    for label in labels {
        let (at, value) = number(&run.out, label);
        assert!(value > 0.0, "{label} {value}:\n{}", run.out);
        assert!(at > last, "'{label}' is out of order:\n{}", run.out);
        last = at;
    }
    assert!(run.out.contains("mcts:iterations=20"), "{}", run.out);
    // Without --search, nothing is searched.
    let plain = frontier(&BENCH);
    assert_eq!(plain.code, 0, "{}", plain.err);
    assert!(number(&plain.out, "clone ns:").1 > 0.0);
    assert!(!plain.out.contains("iterations/s:"), "{}", plain.out);
}

#[test]
fn bench_json_has_every_number() {
    let run = frontier(&[&BENCH[..], &["--search", "ismcts:iterations=20", "--json"]].concat());
    assert_eq!(run.code, 0, "{}", run.err);
    let doc: serde_json::Value =
        serde_json::from_str(&run.out).unwrap_or_else(|e| panic!("not JSON ({e}): {}", run.out));
    assert_eq!(doc["frontier_bench"], 1);
    assert_eq!(doc["ruleset"], "go-west");
    assert_eq!(doc["players"], 2);
    assert_eq!(doc["back_end"], "compiled");
    assert_eq!(doc["optimizer"], "on");
    for key in [
        "seconds",
        "games",
        "games_per_s",
        "decisions_per_s",
        "steps_per_s",
        "decisions_per_game",
        "start_state_bytes",
        "clone_bytes",
        "clone_ns",
        "clone_states",
        "clones",
    ] {
        let value = doc[key]
            .as_f64()
            .unwrap_or_else(|| panic!("no {key}: {doc}"));
        assert!(value > 0.0, "{key}: {value}");
    }
    let search = &doc["search"];
    assert_eq!(search["agent"], "ismcts:iterations=20");
    for key in [
        "iterations",
        "searches",
        "positions",
        "seconds",
        "iterations_per_s",
    ] {
        let value = search[key]
            .as_f64()
            .unwrap_or_else(|| panic!("no search.{key}: {doc}"));
        assert!(value > 0.0, "search.{key}: {value}");
    }
    // Every search ran its 20 iterations: the root's visits add up to them.
    assert_eq!(
        search["iterations"].as_u64(),
        search["searches"].as_u64().map(|s| s * 20),
        "{doc}"
    );
    let plain = frontier(&[&BENCH[..], &["--json"]].concat());
    assert_eq!(plain.code, 0, "{}", plain.err);
    let doc: serde_json::Value = serde_json::from_str(&plain.out).unwrap();
    assert!(doc["search"].is_null(), "{doc}");
}

#[test]
fn bench_search_refuses_what_it_cannot_time() {
    for (agent, message) in [
        ("random", "random does not search"),
        ("nosuch", "unknown agent 'nosuch'"),
        ("mcts:ms=50", "ms= is a time budget"),
        ("ismcts:trees=2", "bench searches on one thread"),
        ("mcts:iterations=0", "iterations=0"),
    ] {
        let run = frontier(&["bench", "go-west", "--search", agent]);
        assert_eq!(run.code, 2, "{agent}: {}", run.err);
        assert!(run.err.contains(message), "{agent}: {}", run.err);
        assert!(run.out.is_empty(), "{agent}: {}", run.out);
    }
}
