//! Every trace shipped under rulesets/*/traces checks clean, and written traces of
//! seeded games replay to the same end.

use std::path::Path;

use frontier_interpreter::frontier_grammar::trace::{parse, RulesetRef};
use frontier_interpreter::runner::Recording;
use frontier_interpreter::trace::{replay, starting_state, write_trace};
use frontier_interpreter::{load_with, load_with_params, Optimizer, Status};
use frontier_tests::*;

fn check_file(path: &Path, optimizer: Optimizer) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let trace = parse(&text).map_err(|e| format!("{e:?}"))?;
    let RulesetRef::Name(name) = &trace.header.ruleset else {
        return Err("shipped traces name their ruleset".into());
    };
    let src = source(&ruleset_path(name));
    let game = load_with(
        &src,
        &resolve,
        &trace.header.params,
        Default::default(),
        optimizer,
    )
    .map_err(|e| e.to_string())?;
    let start = starting_state(&game, &trace, |p| {
        std::fs::read_to_string(path.parent().unwrap().join(p)).map_err(|e| e.to_string())
    })
    .map_err(|d| d.to_string())?;
    replay(&game, &trace, start, |_| {})
        .map(|r| r.steps)
        .map_err(|d| format!("line {}: {d}", d.line))
}

#[test]
fn every_shipped_trace_checks_clean() {
    check_every_shipped_trace(Optimizer::On);
}

/// The rulebook's examples hold on the IR as lowered too: the optimizer changes no step,
/// log line or assertion's value of theirs.
#[test]
fn every_shipped_trace_checks_clean_without_the_optimizer() {
    check_every_shipped_trace(Optimizer::Off);
}

fn check_every_shipped_trace(optimizer: Optimizer) {
    let mut checked = 0;
    for name in ruleset_names() {
        let dir = workspace().join("rulesets").join(&name).join("traces");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "trace"))
            .collect();
        files.sort();
        for f in files {
            check_file(&f, optimizer).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} traces found");
}

#[test]
fn written_traces_replay_to_the_same_end_for_every_player_count() {
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        for n in game.meta.min_players as usize..=game.meta.max_players as usize {
            for seed in 0..12 {
                let (record, end) = random_game(&game, n, seed, Recording::Steps);
                let trace = write_trace(
                    RulesetRef::Name(name.clone()),
                    &names(n),
                    None,
                    &record.steps,
                    Some(&record.outcome),
                );
                let parsed = parse(&trace.to_text()).expect("a written trace parses");
                let replayed = replay(&game, &parsed, game.start(names(n)).unwrap(), |_| {})
                    .expect("a written trace checks");
                assert_eq!(replayed.final_state, end);
                assert!(
                    matches!(game.status(&replayed.final_state), Status::Over(o) if *o == record.outcome)
                );
            }
        }
    }
}

#[test]
fn a_changed_decision_is_reported_at_its_line() {
    let game = load_ruleset("go-west");
    let (record, _) = random_game(&game, 2, 8, Recording::Steps);
    let text = write_trace(
        RulesetRef::Name("go-west".into()),
        &names(2),
        None,
        &record.steps,
        None,
    )
    .to_text();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let target = lines.iter().rposition(|l| l.starts_with("p1: ")).unwrap();
    lines[target] = "p1: no-such-option".into();
    let trace = parse(&lines.join("\n")).unwrap();
    let err = replay(&game, &trace, game.start(names(2)).unwrap(), |_| {}).unwrap_err();
    assert_eq!(err.line, target + 1);
    assert!(err.message.contains("no-such-option"), "{}", err.message);
    assert!(!err.legal.is_empty());
}

/// An assertion reads the same with the optimizer on or off (it is optimized as its game
/// is): a failing one names the values of its sides, one that divides by zero says so.
/// At the start of Go West the 20 wagons stand in New England, five regions from
/// California: 20 × 5 = 100 single-region moves are left; every player holds 30 tokens.
#[test]
fn assertions_fail_alike_with_and_without_the_optimizer() {
    let trace_of = |assertion: &str| {
        parse(&format!(
            "frontier-trace 1\nruleset go-west\nplayers p1 p2\nseed 3\nassert {assertion}\n"
        ))
        .unwrap()
    };
    let src = source(&ruleset_path("go-west"));
    for (assertion, expected) in [
        (
            "wagon_moves_left() == 99",
            "assertion failed: wagon_moves_left() == 99; wagon_moves_left() = 100; 99 = 99",
        ),
        ("vp[p1] / (tokens[p1] - 30) == 0", "division by zero"),
    ] {
        let trace = trace_of(assertion);
        let messages: Vec<String> = [Optimizer::On, Optimizer::Off]
            .into_iter()
            .map(|optimizer| {
                let game = load_with(&src, &resolve, &[], Default::default(), optimizer).unwrap();
                replay(&game, &trace, game.start(names(2)).unwrap(), |_| {})
                    .unwrap_err()
                    .message
            })
            .collect();
        assert!(
            messages[0].contains(expected),
            "{assertion}: {}",
            messages[0]
        );
        assert_eq!(
            messages[0], messages[1],
            "{assertion}: the optimizer changes the message"
        );
    }
}

/// Checks trace text as if it were a file in `dir` (positions are read relative to it).
fn check_text(
    text: &str,
    dir: &Path,
) -> Result<frontier_interpreter::trace::Replayed, frontier_interpreter::trace::Divergence> {
    let trace = parse(text).unwrap_or_else(|e| panic!("{e:?} in\n{text}"));
    let RulesetRef::Name(name) = &trace.header.ruleset else {
        panic!("examples name their ruleset")
    };
    let game = load_with_params(
        &source(&workspace().join("rulesets").join(name)),
        &|_| Err("no variants here".into()),
        &trace.header.params,
        Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let start = starting_state(&game, &trace, |p| {
        std::fs::read_to_string(dir.join(p)).map_err(|e| e.to_string())
    })?;
    replay(&game, &trace, start, |_| {})
}

/// The fenced blocks of `markdown` whose info string is `trace`, with the line each starts on.
fn trace_blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        match (&mut current, line.trim_end()) {
            (None, "```trace") => current = Some((i + 2, String::new())),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn every_trace_example_in_the_docs_checks_clean() {
    let markdown = std::fs::read_to_string(workspace().join("docs/traces.md")).unwrap();
    let blocks = trace_blocks(&markdown);
    assert!(
        !blocks.is_empty(),
        "docs/traces.md marks no example as ```trace"
    );
    // The examples read their position beside them, as a reader who wrote it there with
    // `frontier show` does (the page says how): from the ruleset's folder here.
    let positions = workspace().join("rulesets/go-west/traces/positions");
    for (line, text) in blocks {
        check_text(&text, &positions).unwrap_or_else(|d| {
            panic!(
                "docs/traces.md, example at line {line}: line {}: {d}",
                d.line
            )
        });
    }
}

const END_OF_GAME: &str = "frontier-trace 1
ruleset go-west
players red green blue
start position \"positions/free-scoring-end.yaml\"

red: one action
red: play card:gw-03
";

fn go_west_traces() -> std::path::PathBuf {
    workspace().join("rulesets/go-west/traces")
}

#[test]
fn reject_and_expect_options_pass_and_fail_at_their_line() {
    let dir = go_west_traces();
    let ok = format!("{END_OF_GAME}reject red: move wagon from:california\nexpect options red: move wagon from:great-plains, move wagon from:east\nred: move wagon from:east\n");
    assert_eq!(check_text(&ok, &dir).unwrap().steps, 3);
    // rejecting a legal option fails there, naming the legal options
    let legal = format!("{END_OF_GAME}reject red: move wagon from:east\n");
    let d = check_text(&legal, &dir).unwrap_err();
    assert_eq!((d.line, d.column), (8, 1));
    assert!(
        d.message.contains("is a legal option for red"),
        "{}",
        d.message
    );
    assert!(d.legal.contains(&"move wagon from:east".to_string()));
    // one option too many, one missing
    let wrong =
        format!("{END_OF_GAME}expect options red: move wagon from:east, move wagon from:midwest\n");
    let d = check_text(&wrong, &dir).unwrap_err();
    assert_eq!(d.line, 8);
    assert!(
        d.message.contains("not legal: 'move wagon from:midwest'")
            && d.message
                .contains("legal but not listed: 'move wagon from:great-plains'"),
        "{}",
        d.message
    );
    // another player's decision
    let other = format!("{END_OF_GAME}reject green: move wagon from:midwest\n");
    assert!(check_text(&other, &dir)
        .unwrap_err()
        .message
        .contains("red decides here"));
}

#[test]
fn expect_winner_and_ranking() {
    let dir = go_west_traces();
    let end = format!("{END_OF_GAME}red: move wagon from:east\n");
    let ok = format!("{end}expect winner green\nexpect ranking green=1 blue=2 red=3\nexpect ranking red=3\nassert vp[green] == 12\n");
    assert_eq!(check_text(&ok, &dir).unwrap().assertions, 1);
    for (line, wants) in [
        ("expect winner red", "expects the winner red"),
        (
            "expect winner green red",
            "expects the winner green and red",
        ),
        ("expect ranking blue=1", "expects blue ranked 1"),
    ] {
        let d = check_text(&format!("{end}{line}\n"), &dir).unwrap_err();
        assert_eq!(d.line, 9, "{line}");
        assert!(
            d.message.contains(wants) && d.message.contains("1. green (12)"),
            "{}",
            d.message
        );
    }
    // not over yet
    let d = check_text(&format!("{END_OF_GAME}expect winner green\n"), &dir).unwrap_err();
    assert!(
        d.message.contains("expects the game to be over"),
        "{}",
        d.message
    );
}

#[test]
fn divergences_display_without_a_doubled_colon() {
    let dir = go_west_traces();
    let d = check_text("ruleset go-west\nplayers red green blue\nstart position \"positions/free-scoring-end.yaml\"\nassert vp[red] == 99\n", &dir).unwrap_err();
    let shown = d.to_string();
    assert!(
        shown.starts_with("assertion failed: vp[red] == 99"),
        "{shown}"
    );
    let d = check_text(
        &format!("{END_OF_GAME}rule 5.1\nreject red: move wagon from:east\n"),
        &dir,
    )
    .unwrap_err();
    assert!(
        d.to_string()
            .starts_with("step 2 [rule 5.1]: 'move wagon from:east' is a legal option"),
        "{d}"
    );
}

#[test]
fn a_position_that_puts_a_card_in_a_hand_takes_it_out_of_the_deck() {
    let game = load_ruleset("go-west");
    let state = game
        .state_from_yaml(
            "players: [red, green]\ninitial: rest\nzones:\n  hand: { red: [gw-05, gw-17] }\n  discard: [gw-30]\n",
        )
        .unwrap();
    let deck = frontier_tests::eval(&game, &state, "deck");
    let frontier_interpreter::Value::List(deck) = deck else {
        panic!("{deck:?}")
    };
    assert_eq!(deck.len(), 56 - 3);
    let kept = frontier_tests::eval(
        &game,
        &state,
        "contains(deck, cards[\"gw-05\"]) or contains(deck, cards[\"gw-30\"])",
    );
    assert_eq!(kept, frontier_interpreter::Value::Bool(false));
    // written in two zones, or twice in one: an error naming the card
    let twice = game
        .state_from_yaml(
            "players: [red, green]\ninitial: rest\nzones:\n  hand: { red: [gw-05], green: [gw-05] }\n",
        )
        .unwrap_err();
    assert_eq!(twice, "zones: gw-05 is both in hand[red] and in hand[green] (each row of 'cards' is in one zone at a time)");
    let deck_too = game
        .state_from_yaml(
            "players: [red, green]\ninitial: rest\nzones:\n  hand: { red: [gw-05] }\n  deck: [gw-01, gw-05]\n",
        )
        .unwrap_err();
    assert!(deck_too.contains("gw-05 is both in"), "{deck_too}");
    let same = game
        .state_from_yaml("players: [red, green]\ninitial: rest\nzones:\n  deck: [gw-01, gw-01]\n")
        .unwrap_err();
    assert!(same.contains("gw-01 is twice in deck"), "{same}");
}

/// Checks trace text against the ruleset of `tests/cases/<case>` (the trace's `ruleset`
/// line is read but not used to find it).
fn check_case(
    case: &str,
    text: &str,
) -> Result<frontier_interpreter::trace::Replayed, frontier_interpreter::trace::Divergence> {
    let trace = parse(text).unwrap_or_else(|e| panic!("{e:?} in\n{text}"));
    let game = load_source(&source(&workspace().join("tests/cases").join(case)))
        .unwrap_or_else(|e| panic!("{case}: {e}"));
    let start = starting_state(&game, &trace, |_| Err("no positions".into()))?;
    replay(&game, &trace, start, |_| {})
}

const OUTCOME: &str = "frontier-trace 1
ruleset outcome
players p1 p2 p3
";

/// tests/cases/outcome: a die with faces 1, 2, 3 weighted 2, 1, 1, then p1 keeps k of
/// the pot and p2 gets the roll; returns are (3 × got − handed) / 3.
#[test]
fn expect_chance_and_returns_check_probabilities_and_fractions() {
    // Roll 2, keep 2: handed 4; p1 (6 − 4) / 3 = 2/3, p2 (6 − 4) / 3 = 2/3, p3 −4/3.
    // p1 and p2 share the win (the highest return, not all equal).
    let ok = format!(
        "{OUTCOME}expect chance: 1=1/2, 2=0.25, \"3\"=1/4\nchance: 2\n\
         expect options p1: \"keep(0,2)\", \"keep(1,2)\", \"keep(2,2)\"\np1: keep(2,2)\n\
         expect returns p1=2/3 p2=4/6 p3=-4/3\nexpect winner p1 p2\n"
    );
    assert_eq!(check_case("outcome", &ok).map(|r| r.steps), Ok(2));
    // Roll 1, keep 0: handed 1; p1 −1/3, p2 (3 − 1) / 3 = 2/3, p3 −1/3: p2 wins alone.
    let alone = format!(
        "{OUTCOME}chance: 1\np1: keep(0,1)\nexpect returns p2=2/3 p3=-1/3\nexpect winner p2\n"
    );
    assert!(check_case("outcome", &alone).is_ok());
    // Roll 1, keep 1: handed 2; p1 (3 − 2) / 3 = 1/3, p2 1/3, p3 −2/3: not a draw.
    let not_drawn = format!("{OUTCOME}chance: 1\np1: keep(1,1)\nexpect draw\n");
    let d = check_case("outcome", &not_drawn).unwrap_err();
    assert!(
        d.message
            .contains("the trace expects a draw, but the returns are p1 1/3, p2 1/3, p3 -2/3"),
        "{}",
        d.message
    );
    let fails = [
        (
            "expect chance: 1=1/2, 2=1/3, 3=1/4\n",
            4,
            "the chance outcomes here differ from the trace's ('2' has probability 1/4, the trace expects 1/3)",
        ),
        (
            "expect chance: 1=1/2, 2=1/4\n",
            4,
            "'3' is possible but not listed",
        ),
        (
            "expect chance: 1=1/2, 2=1/4, 3=1/4, 4=0\n",
            4,
            "'4' is not a possible outcome",
        ),
        (
            "chance: 1\nexpect options p1: keep(0,1), keep(1,1), keep(2,1)\n",
            5,
            "not legal: 'keep(0', '1)'",
        ),
        (
            "chance: 3\np1: keep(1,3)\nexpect returns p1=0 p3=-1\n",
            6,
            "p1's return is -1/3, the trace expects 0",
        ),
        (
            "chance: 3\nexpect chance: 1=1\n",
            5,
            "the trace expects a chance point, but p1 must decide \"keep how much?\"",
        ),
    ];
    for (body, line, wants) in fails {
        let d = check_case("outcome", &format!("{OUTCOME}{body}")).unwrap_err();
        assert_eq!(d.line, line, "{body}");
        assert!(d.message.contains(wants), "{body}: {}", d.message);
    }
}

/// `let name = expression` keeps a value at one point of the trace for later assertions
/// (rules/RULES: red pays 1 for gw-03 and puts 1 token down, 30 - 2 = 28).
#[test]
fn a_captured_value_is_read_by_later_assertions() {
    let dir = go_west_traces();
    let opening = "frontier-trace 1\nruleset go-west\nplayers red green blue\nstart position \"positions/free-scoring-end.yaml\"\n\nred: one action\nlet before = tokens[red]\nlet west = wagons[regions[\"great-plains\"]]\nred: play card:gw-03\nred: move wagon from:east\n";
    let holds = format!("{opening}assert tokens[red] == before - 2 and wagons[regions[\"great-plains\"]] == west + 1\n");
    assert_eq!(check_text(&holds, &dir).unwrap().assertions, 1);
    // A failing assertion says the captured value.
    let d = check_text(&format!("{opening}assert tokens[red] == before\n"), &dir).unwrap_err();
    assert_eq!(d.line, 11);
    assert!(
        d.message
            .contains("assertion failed: tokens[red] == before; tokens[red] = 28; before = 30"),
        "{}",
        d.message
    );
    // A name already taken (a player, an earlier let) and an unknown name are refused.
    for (body, says) in [
        (
            "let red = 1\n",
            "'red' already names a player or an earlier value",
        ),
        (
            "let x = 1\nlet x = 2\n",
            "'x' already names a player or an earlier value",
        ),
        ("assert later == 1\nlet later = 1\n", "unknown name 'later'"),
    ] {
        let text = format!("frontier-trace 1\nruleset go-west\nplayers red green blue\n\n{body}");
        let trace = parse(&text).unwrap();
        let game = load_ruleset("go-west");
        let state = game.start(trace.header.players.clone()).unwrap();
        let errors = frontier_interpreter::trace::assertion_errors(&game, &trace, &state);
        assert!(
            errors.iter().any(|e| e.message.contains(says)),
            "{body}: {errors:?}"
        );
    }
}

/// An assertion or `let` whose expression does not compile is reported at the column of
/// its mistake in the trace's line (characters from 1), found before the replay and during
/// it alike; a mistake of the line as a whole (a name taken) and a false assertion stand
/// at the line's first column.
#[test]
fn expression_errors_of_a_trace_point_at_their_column() {
    let body = [
        // "assert " is 7 characters: the expression starts at column 8, `p9` 6 further.
        ("assert score[p9] == 3", 14, "unknown name 'p9'"),
        // Blanks before the expression: it starts at 10; "score[p1] == 0 and " is 19.
        (
            "assert   score[p1] == 0 and turnn == 0",
            29,
            "unknown name 'turnn'",
        ),
        // Indented: "  let x =  " is 11 characters; `1 +` lacks a value after its 3.
        (
            "  let x =  1 +",
            15,
            "let x: syntax error: expected a value",
        ),
        // Characters, not bytes: `"é" == "é" and ` is 15 characters (17 bytes).
        ("assert \"é\" == \"é\" and zz", 23, "unknown name 'zz'"),
        ("let p1 = 2", 1, "'p1' already names a player"),
    ];
    let text: String = body
        .iter()
        .map(|(line, _, _)| format!("{line}\n"))
        .collect();
    let text = format!("frontier-trace 1\nruleset pig\nplayers p1 p2\nseed 1\n\n{text}");
    let trace = parse(&text).unwrap();
    let game = load_ruleset("pig");
    let state = game.start(trace.header.players.clone()).unwrap();
    let errors = frontier_interpreter::trace::assertion_errors(&game, &trace, &state);
    assert_eq!(errors.len(), body.len(), "{errors:?}");
    for (i, ((line, column, says), error)) in body.iter().zip(&errors).enumerate() {
        assert_eq!(
            (error.line, error.column),
            (6 + i, *column),
            "{line}: {error:?}"
        );
        assert!(error.message.contains(says), "{line}: {}", error.message);
    }
    // The replay, which compiles each assertion again where it stands, places it alike.
    let d = check_text(
        &format!(
            "frontier-trace 1\nruleset pig\nplayers p1 p2\nseed 1\n\n{}\n",
            body[0].0
        ),
        &workspace(),
    )
    .unwrap_err();
    assert_eq!((d.line, d.column), (6, 14));
    // A false assertion is the line's.
    let d = check_text(
        "frontier-trace 1\nruleset pig\nplayers p1 p2\nseed 1\n  assert score[p1] == 3\n",
        &workspace(),
    )
    .unwrap_err();
    assert_eq!((d.line, d.column), (5, 3));
    assert!(d.message.starts_with("assertion failed"), "{}", d.message);
}

/// `expect options p include: …` and `exclude: …` check part of the legal options;
/// `reject chance: outcome` an outcome that cannot come up. Each passes where it holds,
/// fails at its line where it does not, and reads back as written.
#[test]
fn partial_option_lists_and_rejected_outcomes() {
    let dir = go_west_traces();
    let ok = format!("{END_OF_GAME}expect options red include: move wagon from:east\nexpect options red exclude: move wagon from:california, move wagon from:west\nred: move wagon from:east\n");
    assert_eq!(check_text(&ok, &dir).unwrap().steps, 3);
    assert_eq!(
        parse(&ok)
            .unwrap()
            .to_text()
            .lines()
            .filter(|l| l.contains(" include:") || l.contains(" exclude:"))
            .count(),
        2
    );
    let d = check_text(
        &format!("{END_OF_GAME}expect options red include: move wagon from:midwest\n"),
        &dir,
    )
    .unwrap_err();
    assert_eq!(d.line, 8);
    assert!(
        d.message.contains("not legal: 'move wagon from:midwest'"),
        "{}",
        d.message
    );
    let d = check_text(
        &format!("{END_OF_GAME}expect options red exclude: move wagon from:east\n"),
        &dir,
    )
    .unwrap_err();
    assert!(
        d.message
            .contains("legal but excluded: 'move wagon from:east'"),
        "{}",
        d.message
    );

    // Pig: a roll of the die is 1 to 6.
    let pig = "frontier-trace 1\nruleset pig\nplayers p1 p2\n\np1: roll\n";
    let ok = format!("{pig}reject chance: 7\nreject chance: 0\nchance: 3\n");
    assert_eq!(check_text(&ok, &dir).unwrap().steps, 2);
    assert!(parse(&ok).unwrap().to_text().contains("reject chance: 7\n"));
    let d = check_text(&format!("{pig}reject chance: 3\n"), &dir).unwrap_err();
    assert_eq!(d.line, 6);
    assert!(
        d.message.contains("'3' is a possible outcome"),
        "{}",
        d.message
    );
    let d = check_text(&format!("{pig}chance: 3\nreject chance: 7\n"), &dir).unwrap_err();
    assert!(d.message.contains("not at a chance point"), "{}", d.message);
}

/// An assertion reads the state where the step above stopped, before the seed draws a
/// chance point the trace does not record; `chance by seed` draws them; a shuffle's
/// outcome may give its first elements and leave the rest to the seed (`...`).
#[test]
fn assertions_come_before_seeded_chance_and_chance_by_seed_draws_it() {
    let dir = go_west_traces();
    let head = "frontier-trace 1\nruleset go-west\nplayers red green blue\nseed 3\n\n";
    // Setup stops at the shuffle of the deck: no hand is dealt yet. After it, 7 cards each
    // (hand_size), and the deck holds 56 - 21 = 35.
    let text = format!("{head}assert len(hand[red]) == 0 and len(deck) == 56\nchance by seed\nassert len(hand[red]) == 7 and len(deck) == 35\nred: one action\n");
    assert_eq!(check_text(&text, &dir).unwrap().assertions, 2);
    // With a count, exactly that many chance points; more than the game has is an error
    // at its line, naming what the game waits for.
    let d = check_text(&format!("{head}chance by seed 2\n"), &dir).unwrap_err();
    assert_eq!(d.line, 6);
    assert!(
        d.message.contains("after 1 chance point red must decide"),
        "{}",
        d.message
    );
    // Without a seed there is nothing to draw with.
    let unseeded = "frontier-trace 1\nruleset go-west\nplayers red green blue\n\nchance by seed\n";
    let d = check_text(unseeded, &dir).unwrap_err();
    assert!(d.message.contains("needs a seed"), "{}", d.message);
    // gw-40 and gw-03 on top: the first hand dealt (red's, 7 cards from the top) holds
    // them; the other 54 cards follow in the seed's order.
    let partial = format!("{head}chance: gw-40 gw-03 ...\nassert count(hand[red], cards[\"gw-40\"]) == 1 and count(hand[red], cards[\"gw-03\"]) == 1 and len(deck) == 35\n");
    assert_eq!(check_text(&partial, &dir).unwrap().assertions, 1);
    let d = check_text(&format!("{head}chance: gw-40 gw-40 ...\n"), &dir).unwrap_err();
    assert!(
        d.message.contains("'gw-40' is not in deck"),
        "{}",
        d.message
    );
}
