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
            text.push_str(&format!("\nscores {:?} ranks {:?}\n", record.outcome.scores, record.outcome.ranks));
            insta::assert_snapshot!(format!("game-{name}-{n}p-seed-2024"), text);
        }
    }
}

/// Every broken ruleset in tests/cases/broken, with all of its diagnostics.
#[test]
fn diagnostics_of_broken_rulesets() {
    let dir = workspace().join("tests/cases/broken");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
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
    let frontier_interpreter::Status::Over(outcome) = game.status(&state) else { panic!("the game ends at once") };
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
    insta::assert_snapshot!("rng-seed-42", format!("u64: {values:?}\ndice: {dice:?}\nshuffle: {deck:?}\n"));
}
