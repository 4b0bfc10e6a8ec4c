//! Every trace shipped under rulesets/*/traces checks clean, and written traces of
//! seeded games replay to the same end.

use std::path::Path;

use frontier_interpreter::frontier_grammar::trace::{parse, RulesetRef};
use frontier_interpreter::runner::Recording;
use frontier_interpreter::trace::{replay, starting_state, write_trace};
use frontier_interpreter::{load_with_params, Status};
use frontier_tests::*;

fn check_file(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let trace = parse(&text).map_err(|e| format!("{e:?}"))?;
    let RulesetRef::Name(name) = &trace.header.ruleset else { return Err("shipped traces name their ruleset".into()) };
    let src = source(&workspace().join("rulesets").join(name));
    let game = load_with_params(&src, &|_| Err("no variants here".into()), &trace.header.params).map_err(|e| e.to_string())?;
    let start = starting_state(&game, &trace, |p| std::fs::read_to_string(path.parent().unwrap().join(p)).map_err(|e| e.to_string()))
        .map_err(|d| d.to_string())?;
    replay(&game, &trace, start, |_| {}).map(|r| r.steps).map_err(|d| format!("line {}: {d}", d.line))
}

#[test]
fn every_shipped_trace_checks_clean() {
    let mut checked = 0;
    for name in ruleset_names() {
        let dir = workspace().join("rulesets").join(&name).join("traces");
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "trace")).collect();
        files.sort();
        for f in files {
            check_file(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} traces found");
}

#[test]
fn written_traces_replay_to_the_same_end_for_every_player_count() {
    for name in ruleset_names() {
        let game = load_ruleset(&name);
        for n in game.meta.min_players as usize..=game.meta.max_players as usize {
            for seed in 0..12 {
                let (record, end) = random_game(&game, n, seed, Recording::Steps);
                let trace = write_trace(RulesetRef::Name(name.clone()), &names(n), None, &record.steps, Some(&record.outcome));
                let parsed = parse(&trace.to_text()).expect("a written trace parses");
                let replayed = replay(&game, &parsed, game.start(names(n)).unwrap(), |_| {}).expect("a written trace checks");
                assert_eq!(replayed.final_state, end);
                assert!(matches!(game.status(&replayed.final_state), Status::Over(o) if *o == record.outcome));
            }
        }
    }
}

#[test]
fn a_changed_decision_is_reported_at_its_line() {
    let game = load_ruleset("go-west");
    let (record, _) = random_game(&game, 2, 8, Recording::Steps);
    let text = write_trace(RulesetRef::Name("go-west".into()), &names(2), None, &record.steps, None).to_text();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let target = lines.iter().rposition(|l| l.starts_with("p1: ")).unwrap();
    lines[target] = "p1: no-such-option".into();
    let trace = parse(&lines.join("\n")).unwrap();
    let err = replay(&game, &trace, game.start(names(2)).unwrap(), |_| {}).unwrap_err();
    assert_eq!(err.line, target + 1);
    assert!(err.message.contains("no-such-option"), "{}", err.message);
    assert!(!err.legal.is_empty());
}
