//! Snapshot tests (insta): `describe` of every ruleset, a seeded game log per player
//! count, each diagnostic of the broken rulesets kept as test data, and the first values
//! of a seeded random stream (so a seed means the same game on every machine).

use frontier_interpreter::runner::Recording;
use frontier_interpreter::GameRng;
use frontier_tests::*;

#[test]
fn describe_every_ruleset() {
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        insta::assert_snapshot!(format!("describe-{name}"), game.describe());
    }
}

#[test]
fn seeded_game_logs() {
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        for n in game.meta.min_players as usize..=game.meta.max_players as usize {
            let (record, end) = random_game(&game, n, 2024, Recording::StepsAndLog);
            let mut text = record.log.join("\n");
            text.push_str("\n\n");
            text.push_str(&game.render_state(&end, None));
            text.push_str(&format!(
                "\nscores {:?} ranks {:?}\n",
                record.outcome.scores, record.outcome.ranks
            ));
            insta::assert_snapshot!(format!("game-{name}-{n}p-seed-2024"), text);
        }
    }
}

/// Every broken ruleset in tests/cases/broken, with all of its diagnostics.
#[test]
fn diagnostics_of_broken_rulesets() {
    let dir = workspace().join("tests/cases/broken");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.sort();
    assert!(files.len() >= 4);
    for file in files {
        let src = source(&file);
        let err = load_source(&src).expect_err("a broken ruleset must not load");
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("diagnostics-{name}"), err.to_string());
    }
}

#[test]
fn a_runaway_script_stops_with_an_error_naming_it_and_the_limit() {
    let src = source(&workspace().join("tests/cases/scripts/runaway"));
    let game = load_source(&src).expect("the script compiles");
    let err = game.start(names(2)).expect_err("the script never returns");
    let message = err.to_string();
    assert!(message.contains("loop.rhai"), "{message}");
    assert!(message.contains("forever"), "{message}");
    assert!(message.contains("200000 operations"), "{message}");
}

#[test]
fn a_script_function_may_call_one_of_another_file() {
    let src = source(&workspace().join("tests/cases/scripts/two-files"));
    let game = load_source(&src).expect("the scripts compile");
    let state = game.start(names(2)).expect("the game runs");
    let frontier_interpreter::Status::Over(outcome) = game.status(&state) else {
        panic!("the game ends at once")
    };
    // 2 * 20 + 1
    assert_eq!(outcome.scores, vec![41, 41]);
}

#[test]
fn the_seeded_stream_is_pinned() {
    let mut rng = GameRng::new(42);
    let values: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
    let mut rng = GameRng::new(42);
    let dice: Vec<u64> = (0..12).map(|_| rng.below(6) + 1).collect();
    let mut rng = GameRng::new(42);
    let mut deck: Vec<u32> = (1..=10).collect();
    rng.shuffle(&mut deck);
    insta::assert_snapshot!(
        "rng-seed-42",
        format!("u64: {values:?}\ndice: {dice:?}\nshuffle: {deck:?}\n")
    );
}

/// A script's `sort` with a comparator: errors in the comparator stop the game with the
/// script's error; a comparator that works sorts stably.
#[test]
fn script_sort_comparators_report_their_errors() {
    let dir = workspace().join("tests/cases/scripts/sort-comparator");
    let play = |case: i64| {
        let game = frontier_interpreter::load_with_params(
            &source(&dir),
            &|_| Err("no extends".into()),
            &[("case".into(), case)],
            Default::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        game.start(names(2))
            .map(|s| game.state_to_yaml(&s))
            .map_err(|e| e.to_string())
    };
    let sorted = play(0).expect("a good comparator sorts");
    assert!(sorted.contains("v: 12345"), "{sorted}");
    let bad = play(1).expect_err("the comparator's error stops the game");
    assert!(
        bad.contains("sorted_badly") && bad.contains("nosuch"),
        "{bad}"
    );
    let text = play(2).expect_err("a comparator must return a number");
    assert!(
        text.contains("sort: the comparator must return a number"),
        "{text}"
    );
}

/// A script with a syntax error is reported once, at its line: the calls of its functions
/// are not also reported as unknown.
#[test]
fn a_script_syntax_error_is_not_followed_by_unknown_functions() {
    let src = source(&workspace().join("tests/cases/scripts/syntax-error"));
    let err = load_source(&src)
        .expect_err("the script does not compile")
        .to_string();
    assert!(
        err.contains("s.rhai:3:") && err.contains("script syntax error"),
        "{err}"
    );
    assert!(!err.contains("unknown function"), "{err}");
}
