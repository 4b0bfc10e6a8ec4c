//! Runtime errors of rulesets: arithmetic that leaves the whole numbers a state holds,
//! division by zero, script results of the wrong type. Each must stop the game with an
//! error naming the file, line and statement, never panic, wrap around or coerce.
//!
//! The cases are files in tests/cases/runtime: each `# expect: text` line at the top of a
//! ruleset is a text the error must contain.

use frontier_interpreter::Viewer;
use frontier_tests::*;

/// Starts a 2-player game of the ruleset at `path` (the cases fail during setup, before
/// any decision) and checks its error against `expected`.
fn check(path: &std::path::Path, params: &[(String, i64)], expected: &[String]) {
    let src = source(path);
    let game = frontier_interpreter::load_with_params(
        &src,
        &|_| Err("no extends".into()),
        params,
        Default::default(),
    )
    .unwrap_or_else(|e| panic!("{} does not load:\n{e}", path.display()));
    let error = game
        .start(names(2))
        .expect_err("the game must stop with a runtime error")
        .to_string();
    for text in expected {
        assert!(
            error.contains(text.as_str()),
            "{}: the error\n  {error}\ndoes not contain\n  {text}",
            path.display()
        );
    }
}

/// The `# expect:` lines of a case file.
fn expectations(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# expect: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn arithmetic_cases() {
    let dir = workspace().join("tests/cases/runtime");
    let files = files_with_extension(&dir, "yaml");
    assert!(files.len() >= 10);
    for file in files {
        let expected = expectations(&std::fs::read_to_string(&file).unwrap());
        assert!(
            !expected.is_empty(),
            "{} has no # expect: line",
            file.display()
        );
        check(&file, &[], &expected);
    }
}

#[test]
fn script_results_are_checked_where_they_are_stored() {
    let dir = workspace().join("tests/cases/runtime/script-results");
    let cases = [
        (0, "'card' holds a row of cards, not the number 5"),
        (1, "'v' holds a number, not the text \"seven\""),
        (2, "'seat' holds a player, not the number 9"),
        (3, "a zone of a row of cards cannot hold the number 5"),
        (4, "'flag' holds true/false, not the number 5"),
        (5, "'v' holds a number, not the list"),
        (6, "'v' holds a number, not none"),
        (7, "'seat' holds a player, not the number 256"),
    ];
    for (case, expected) in cases {
        let at = [
            "ruleset.yaml:".to_string(),
            "play[".to_string(),
            expected.to_string(),
        ];
        check(&dir, &[("case".into(), case)], &at);
    }
}

#[test]
fn a_table_too_large_for_row_codes_is_a_load_error() {
    let rows: String = (0..=65_535).map(|i| format!("      - r{i}\n")).collect();
    let text = format!(
        "frontier: 1\nname: big\nplayers: 2\ntables:\n  things:\n    rows:\n{rows}play: []\nranking:\n  score: \"0\"\n"
    );
    let src = text_source("big", "ruleset.yaml", text);
    let err = load_source(&src)
        .expect_err("65,536 rows do not fit 16-bit codes")
        .to_string();
    assert!(
        err.contains("tables.things.rows: a table holds at most 65535 rows, not 65536"),
        "{err}"
    );
}

/// Tables, state variables, zones, boards, functions and procedures are numbered by
/// 16-bit ids: a section with more than 65,535 entries is refused, each such section
/// reported at its line, before any id is given (one past the limit used to wrap: the
/// 65,538th state variable was the second, and setting it set that one).
#[test]
fn sections_too_large_for_16_bit_ids_are_load_errors() {
    let n = 65_536;
    let section = |name: &str| -> String {
        std::iter::once(format!("{name}:\n"))
            .chain((0..n).map(|i| format!("  x{i}: {{}}\n")))
            .collect()
    };
    let sections = [
        "tables",
        "state",
        "zones",
        "boards",
        "functions",
        "procedures",
    ];
    let body: String = sections.iter().map(|s| section(s)).collect();
    let text =
        format!("frontier: 1\nname: big\nplayers: 2\n{body}play: []\nranking:\n  score: \"0\"\n");
    let src = text_source("big", "ruleset.yaml", text);
    let err = load_source(&src)
        .expect_err("65,536 declarations do not fit 16-bit ids")
        .to_string();
    for (k, name) in sections.iter().enumerate() {
        // Each section starts after the 3 lines of the head and k sections of n + 1 lines.
        let line = 4 + k * (n + 1);
        let what = if *name == "state" {
            "state variables"
        } else {
            name
        };
        let expected = format!(
            "ruleset.yaml:{line}:1: {name}: a ruleset declares at most 65535 {what}, not 65536"
        );
        assert!(err.contains(&expected), "{expected}\nnot in\n{err}");
    }
}

/// Stat counters are state variables: with the `state:` section they share the limit of
/// 16-bit ids. A procedure's parameters and locals are numbered within it, a function's
/// parameters and a choose's options too.
#[test]
fn counters_locals_parameters_and_options_past_16_bit_ids_are_load_errors() {
    let load_error = |text: String| {
        load_source(&text_source("big", "ruleset.yaml", text))
            .expect_err("past the limit")
            .to_string()
    };
    let tail = "play: []\nranking:\n  score: \"0\"\n";
    let vars: String = (0..40_000)
        .map(|i| format!("  v{i}: {{ init: 0 }}\n"))
        .collect();
    let counters: String = (0..30_000)
        .map(|i| format!("  c{i}: {{ counter: true }}\n"))
        .collect();
    let err = load_error(format!(
        "frontier: 1\nname: big\nplayers: 2\nstate:\n{vars}stats:\n{counters}{tail}"
    ));
    // `stats:` follows the head (3 lines), `state:` and its 40,000 variables.
    let expected = "ruleset.yaml:40005:1: stats: a ruleset declares at most 65535 state variables and stat counters together, not 70000";
    assert!(err.contains(expected), "{err}");

    let lets: String = (0..65_536)
        .map(|i| format!("      - let: {{ a{i}: 0 }}\n"))
        .collect();
    let err = load_error(format!(
        "frontier: 1\nname: big\nplayers: 2\nprocedures:\n  deep:\n    do:\n{lets}{tail}"
    ));
    assert!(err.contains("ruleset.yaml:5:3: procedures.deep: a procedure has at most 65535 parameters and locals, not 65536"), "{err}");

    let params: String = (0..65_536).map(|i| format!("      p{i}: int\n")).collect();
    let err = load_error(format!("frontier: 1\nname: big\nplayers: 2\nfunctions:\n  f:\n    returns: int\n    value: \"0\"\n    params:\n{params}{tail}"));
    assert!(
        err.contains("ruleset.yaml:5:3: functions.f: at most 65535 parameters, not 65536"),
        "{err}"
    );

    // Options are numbered by 16 bits too, one number kept for a round's `done`: the
    // 65,536th option used to be taken for the first.
    let options: String = (0..65_535)
        .map(|i| format!("        - label: o{i}\n"))
        .collect();
    let err = load_error(format!("frontier: 1\nname: big\nplayers: 2\nplay:\n  - choose:\n      who: \"players[0]\"\n      options:\n{options}ranking:\n  score: \"0\"\n"));
    assert!(err.contains("ruleset.yaml:7:7: play[0].choose.options: a choose has at most 65534 options, not 65535"), "{err}");
}

/// A load reports at most 200 problems, then says that more may follow and stops
/// compiling: each problem's place and hint take time in the size of the ruleset, so
/// 8,000 misspelt variables among 8,000 took 16 s (and 60,000, minutes). The first 200
/// are the first in the file, each with its hint.
#[test]
fn a_load_reports_at_most_200_problems() {
    let n = 1_000;
    let vars: String = (0..n).map(|i| format!("  v{i}: {{ init: 0 }}\n")).collect();
    let sets: String = (0..n)
        .map(|i| format!("  - set: {{ w{i}: 1 }}\n"))
        .collect();
    let text = format!("frontier: 1\nname: typos\nplayers: 2\nstate:\n{vars}play:\n{sets}ranking:\n  score: \"0\"\n");
    let err =
        load_source(&text_source("typos", "ruleset.yaml", text)).expect_err("unknown variables");
    assert_eq!(err.diagnostics.len(), 201, "{err}");
    // `play:` is line 4 + n + 1; its first statement the next.
    let first = &err.diagnostics[0].to_string();
    let expected = format!(
        "ruleset.yaml:{}:12: play[0].set.w0: unknown variable 'w0' (did you mean 'v0'?) in \"w0\"",
        4 + n + 2
    );
    assert_eq!(first, &expected);
    assert!(
        err.diagnostics[199]
            .to_string()
            .contains("play[199].set.w199: unknown variable 'w199' (did you mean 'v199'?)"),
        "{err}"
    );
    assert_eq!(
        err.diagnostics[200].to_string(),
        "ruleset.yaml: more problems may follow: loading stops after 200; mend these first"
    );
}

/// A duplicate row id in the largest table a ruleset may have (its last row repeating the
/// first) is reported at that last row. How the check's time grows (it was quadratic:
/// 80,000 rows took 16 s) is measured by the `loading` bench, not here.
#[test]
fn a_duplicate_row_id_in_the_largest_table_is_reported_where_it_is() {
    let rows: String = (0..65_534)
        .map(|i| format!("      - r{i}\n"))
        .chain(["      - r0\n".to_string()])
        .collect();
    let text = format!("frontier: 1\nname: big\nplayers: 2\ntables:\n  things:\n    rows:\n{rows}play: []\nranking:\n  score: \"0\"\n");
    let src = text_source("big", "ruleset.yaml", text);
    let err = load_source(&src)
        .expect_err("a duplicate row id")
        .to_string();
    assert!(
        err.contains("ruleset.yaml:65541:")
            && err.contains("tables.things.rows[65534]: duplicate row id 'r0'"),
        "{err}"
    );
}

/// A large ruleset (16,000 rows referring to 16,000 rows, 16,000 functions calling one,
/// 16,000 tables each the type of a state variable, 16,000 state variables, counters,
/// zones and procedures, 32,000 statements naming them)
/// loads and runs with every name resolved: the last statement naming a row sets `at` to
/// `@s15999`; the score `f0()` is `base() + 0` = 1; procedure `p{i}` sets `v{i}` to
/// `v{15999-i} + 1`, so `v0` = 15,999 + 1 and, run after it, `v15999` = `v0` + 1 =
/// 16,001; each counter is 1 and each zone holds its row. How loading time grows with the
/// size is measured by the `loading` bench (`cargo bench -p frontier-tests -- loading`),
/// not here: lookups by name used to be scans, so 65,000 rows took 87 s, 40,000 functions
/// 35 s, 64,000 state variables named once each 18 s and 60,000 tables each the type of a
/// variable 14 s.
#[test]
fn a_large_ruleset_loads_with_every_name_resolved() {
    let n = 16_000;
    let game = load_source(&large_ruleset(n)).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text(&game, &state, "at"), format!("s{}", n - 1));
    assert_eq!(int(&game, &state, "f0()"), 1);
    assert_eq!(int(&game, &state, "len(links)"), n as i64);
    assert_eq!(text(&game, &state, "links[0].to"), format!("s{}", n - 1));
    assert_eq!(int(&game, &state, "v0"), 16_000);
    assert_eq!(int(&game, &state, "v15999"), 16_001);
    assert_eq!(int(&game, &state, "c0 + c7999 + c15999"), 3);
    assert_eq!(text(&game, &state, "z15999"), "s15999");
    assert_eq!(text(&game, &state, "kv15999"), "k15999r");
}

/// A label or a prompt is computed only when something reads it (a person, a trace);
/// when it fails, the error names the line of the label or prompt, like any other.
#[test]
fn a_failing_label_or_prompt_is_reported_where_it_is_written() {
    let text = "frontier: 1\nname: labels\nplayers: 2\nstate:\n  v: { init: 0 }\nplay:\n  - choose:\n      who: \"players[0]\"\n      prompt: \"pick {v / (v - v)}\"\n      options:\n        - label: \"a {1 / v}\"\n        - label: \"b\"\n";
    let src = text_source(
        "labels",
        "ruleset.yaml",
        format!("{text}ranking:\n  score: \"v\"\n"),
    );
    let game = load_source(&src).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    let label = game.option_label(&state, 0).unwrap_err().to_string();
    assert_eq!(label, "ruleset.yaml:11:11: play[0].choose.options[0].label: 1 / 0: division by zero, in \"1 / v\"");
    assert_eq!(game.option_label(&state, 1).unwrap(), "b");
    let prompt = game.prompt(&state).unwrap_err().to_string();
    assert_eq!(
        prompt,
        "ruleset.yaml:9:7: play[0].choose.prompt: 0 / 0: division by zero, in \"v / (v - v)\""
    );
}

/// The ranking and the statistics are read once the game is over; an error in one names
/// its place too (`ranking.score`, `stats.NAME`).
#[test]
fn a_failing_score_or_statistic_is_reported_where_it_is_written() {
    let ruleset = |ranking: &str| {
        let text = format!("frontier: 1\nname: ending\nplayers: 2\nstate:\n  v: {{ init: 0 }}\nplay: []\nstats:\n  inverse: \"1 / v\"\nranking:\n  score: \"{ranking}\"\n");
        text_source("ending", "ruleset.yaml", text)
    };
    let game = load_source(&ruleset("v / v")).unwrap_or_else(|e| panic!("{e}"));
    let score = game.start(names(2)).unwrap_err().to_string();
    assert_eq!(
        score,
        "ruleset error: ruleset.yaml:10:3: ranking.score: 0 / 0: division by zero, in \"v / v\""
    );
    let game = load_source(&ruleset("v")).unwrap_or_else(|e| panic!("{e}"));
    let end = game.start(names(2)).unwrap();
    let stat = game.stats(&end).unwrap_err().to_string();
    assert_eq!(
        stat,
        "ruleset.yaml:8:3: stats.inverse: 1 / 0: division by zero, in \"1 / v\""
    );
}

/// A display line that fails shows its error, with its place, instead of its text; the
/// other lines still show.
#[test]
fn a_failing_display_line_says_where_it_is_written() {
    let text = "frontier: 1\nname: shown\nplayers: 2\nstate:\n  v: { init: 0 }\nplay:\n  - choose:\n      who: \"players[0]\"\n      prompt: \"pick\"\n      options: [{ label: a }, { label: b }]\ndisplay:\n  - \"v is {v}\"\n  - \"inverse {1 / v}\"\nranking:\n  score: \"v\"\n";
    let src = text_source("shown", "ruleset.yaml", text);
    let game = load_source(&src).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    assert_eq!(
        game.render_display(&state, Viewer::Everyone),
        "v is 0\n(display error: ruleset.yaml:13:5: display[1]: 1 / 0: division by zero, in \"1 / v\")\n"
    );
}

/// Script functions are found by name through an index: 100,000 took 15 s to load when
/// each new one was compared with every one before it. Their ids are 16 bits: past
/// 65,535 functions the scripts are refused, rather than a call reaching another function
/// whose id it wrapped to.
#[test]
fn script_functions_are_indexed_and_bounded_by_their_ids() {
    let ruleset = "name: many\nplayers: 2\nplay: []\nranking: { score: \"0\" }\n";
    let with_functions = |n: usize| {
        let mut src = text_source("many", "ruleset.yaml", ruleset);
        let script: String = (0..n)
            .map(|i| format!("fn g{i}(game) {{ {i} }}\n"))
            .collect();
        src.scripts = vec![("scripts/s.rhai".to_string(), script)];
        load_source(&src)
    };
    let game = with_functions(65_535).unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(names(2)).unwrap();
    assert_eq!(int(&game, &state, "g0() + g65534()"), 65_534);
    let err = with_functions(65_536).unwrap_err().to_string();
    assert_eq!(
        err,
        "scripts/s.rhai: the scripts define more than 65535 functions, as many as an id can name"
    );
}
