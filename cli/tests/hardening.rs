//! The reproductions of the hardening issue that need the binary: each bad input ends with
//! a clean error (exit 1, or 2 for bad usage) that says where and what, within a bound of
//! time, never a panic, a hang or a silent misreading. tests/README.md maps every
//! reproduction of the issue to the test that pins it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A scratch folder of its own for each test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("frontier-hardening-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

/// Runs the binary in `dir`, cut at 60 s (`timeout` exits 124: a hang).
fn frontier(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new("timeout")
        .arg("60")
        .arg(env!("CARGO_BIN_EXE_frontier"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let run = Run {
        code: out.status.code(),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !run.err.contains("panicked") && run.code != Some(101) && run.code != Some(124),
        "frontier {args:?}: exit {:?}\n{}",
        run.code,
        run.err
    );
    run
}

/// Asserts the exit code and that stderr holds every one of `texts`.
fn expect(run: &Run, code: i32, texts: &[&str]) {
    assert_eq!(run.code, Some(code), "stderr: {}", run.err);
    for t in texts {
        assert!(run.err.contains(t), "stderr lacks '{t}':\n{}", run.err);
    }
}

/// A two-player ruleset with one state variable `v` and the given play statements.
fn mini(dir: &Path, file: &str, play: &str) {
    let text = format!("frontier: 1\nname: probe\ntitle: \"Probe\"\nplayers: [2, 2]\nstate:\n  v: {{ init: 0 }}\nplay:\n{play}\nranking:\n  score: \"v\"\n");
    std::fs::write(dir.join(file), text).unwrap();
}

/// `(-2⁶³) / -1` in a trace's assertion: `check` reports it at its line, `check --all`
/// still reports the other traces, `replay` stops with it.
#[test]
fn overflow_in_a_trace_assertion_is_an_error_in_check_check_all_and_replay() {
    let dir = scratch("assert-overflow");
    mini(&dir, "r.yaml", "  - set: { v: \"1\" }");
    let header = "frontier-trace 1\nruleset \"r.yaml\"\nplayers p1 p2\nseed 1\n";
    std::fs::write(
        dir.join("a.trace"),
        format!("{header}assert (-9223372036854775807 - 1) / -1 == 1\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("b.trace"),
        format!("{header}assert (-9223372036854775807 - 1) % -1 == 0\n"),
    )
    .unwrap();
    std::fs::write(dir.join("c.trace"), format!("{header}assert v == 2\n")).unwrap();
    let outside = "the result is outside the whole numbers a state holds";
    expect(
        &frontier(&dir, &["check", "a.trace"]),
        1,
        &[
            "a.trace:5:1: assert",
            outside,
            "in \"(-9223372036854775807 - 1) / -1\"",
        ],
    );
    // A folder is its traces, with or without --all (which reports every failing one).
    let folder = frontier(&dir, &["check", "."]);
    expect(&folder, 1, &["a.trace:5:1: assert"]);
    // b.trace holds: the remainder of -2⁶³ by -1 is 0 (only the quotient overflows).
    let all = frontier(&dir, &["check", "--all", "."]);
    expect(
        &all,
        1,
        &[
            "a.trace:5:1:",
            "c.trace:5:1: assertion failed: v == 2",
            "2 of 3 traces do not check",
        ],
    );
    assert!(!all.err.contains("b.trace:5:1:"), "{}", all.err);
    expect(
        &frontier(&dir, &["replay", "a.trace"]),
        1,
        &["a.trace:5:1:", outside],
    );
}

/// A parameter a trace sets that the ruleset does not declare, or sets out of its
/// bounds, is the trace's mistake: it is reported at the trace's `param` line.
#[test]
fn an_unknown_parameter_of_a_trace_is_reported_at_its_line() {
    let dir = scratch("trace-param");
    std::fs::write(dir.join("a.trace"), "frontier-trace 1\nruleset go-west\nplayers p1 p2\nparam hand_size = 6\nparam hand_sise = 6\n").unwrap();
    let run = frontier(&dir, &["check", "a.trace"]);
    expect(&run, 1, &["a.trace:5:1: params.hand_sise: the ruleset has no parameter 'hand_sise' (did you mean 'hand_size'?)"]);
    assert!(!run.err.contains("does not load"), "{}", run.err);
    // A value outside the bounds the ruleset declares (Go West's tracks hold at least one
    // token) is the trace's mistake too.
    std::fs::write(
        dir.join("b.trace"),
        "frontier-trace 1\nruleset go-west\nplayers p1 p2\nparam track_size = 0\n",
    )
    .unwrap();
    expect(&frontier(&dir, &["check", "b.trace"]), 1, &["b.trace:4:1: params.track_size: 0 is outside the values this parameter takes (at least 1)"]);
}

/// Every bad assertion of a trace is reported before the replay, not one per run.
#[test]
fn bad_trace_assertions_are_all_reported_up_front() {
    let dir = scratch("assertions");
    std::fs::write(dir.join("t.trace"), "frontier-trace 1\nruleset go-west\nplayers p1 p2\nseed 1\nassert nosuch == 1\nassert 1 +\nassert 1\n").unwrap();
    let run = frontier(&dir, &["check", "t.trace"]);
    expect(
        &run,
        1,
        &[
            // Each at the column of its mistake: the unknown name, the end of `1 +` where
            // a value is missing, the whole expression that is not true/false.
            "t.trace:5:8: assert nosuch == 1: unknown name 'nosuch'",
            "t.trace:6:11: assert: syntax error",
            "t.trace:7:8: assert 1:",
        ],
    );
}

/// 20,000 nested parentheses, 20,000 nested conditionals and a 40,000-term sum: load
/// errors in every command that loads (the worker threads of simulate included), saying
/// which limit and how to raise it; within the ceilings a raised limit loads and plays.
#[test]
fn deep_and_long_expressions_are_load_errors_and_raised_limits_stay_within_the_stack() {
    let dir = scratch("expressions");
    mini(
        &dir,
        "deep.yaml",
        &format!(
            "  - set: {{ v: \"{}1{}\" }}",
            "(".repeat(20_000),
            ")".repeat(20_000)
        ),
    );
    mini(
        &dir,
        "ifs.yaml",
        &format!(
            "  - set: {{ v: \"{}1\" }}",
            "if true then 1 else ".repeat(20_000)
        ),
    );
    mini(
        &dir,
        "long.yaml",
        &format!("  - set: {{ v: \"{}\" }}", vec!["1"; 40_000].join("+")),
    );
    for file in ["deep.yaml", "ifs.yaml"] {
        expect(
            &frontier(&dir, &["validate", file]),
            1,
            &[
                &format!("{file}:8:"),
                "nested more than 64 deep",
                "--limit nesting=N",
            ],
        );
    }
    expect(
        &frontier(&dir, &["validate", "long.yaml"]),
        1,
        &[
            "long.yaml:8:",
            "more than 256 operators",
            "--limit operators=N",
        ],
    );
    expect(
        &frontier(
            &dir,
            &["simulate", "long.yaml", "--games", "4", "--seed", "1"],
        ),
        1,
        &["more than 256 operators"],
    );
    std::fs::write(
        dir.join("t.trace"),
        format!(
            "frontier-trace 1\nruleset go-west\nplayers p1 p2\nseed 1\nassert {} == 1\n",
            vec!["1"; 300].join(" * ")
        ),
    )
    .unwrap();
    expect(
        &frontier(&dir, &["check", "t.trace"]),
        1,
        // At the 257th operator: the expression starts at column 8 ("assert "), and each
        // `1 * ` is 4 characters, so it stands at 8 + 256 × 4 + 2 = 1034.
        &["t.trace:5:1034:", "more than 256 operators"],
    );
    expect(
        &frontier(&dir, &["check", "--limit", "operators=400", "t.trace"]),
        0,
        &[],
    );
    // At the ceilings: the deepest and longest expressions the limits can allow load and
    // play, on the main thread and the workers, in this (debug) build.
    mini(
        &dir,
        "ceiling.yaml",
        &format!(
            "  - set: {{ v: \"{}{}v{}\" }}",
            "(".repeat(999),
            vec!["1"; 3990].join("+") + "+",
            ")".repeat(999)
        ),
    );
    mini(
        &dir,
        "ceiling-ifs.yaml",
        &format!(
            "  - set: {{ v: \"{}v\" }}",
            "if v > 1 then 1 else ".repeat(1000)
        ),
    );
    for file in ["ceiling.yaml", "ceiling-ifs.yaml"] {
        let limits = ["--limit", "nesting=1000", "--limit", "operators=4000"];
        expect(
            &frontier(&dir, &[&limits[..], &["validate", file]].concat()),
            0,
            &[],
        );
        expect(
            &frontier(
                &dir,
                &[
                    &limits[..],
                    &["simulate", file, "--games", "4", "--seed", "1"],
                ]
                .concat(),
            ),
            0,
            &[],
        );
    }
    expect(
        &frontier(
            &dir,
            &["validate", "--limit", "nesting=1001", "ceiling.yaml"],
        ),
        2,
        &["limit nesting: at most 1000"],
    );
}

/// A procedure that always calls itself is a load error; one that may stop is held to the
/// `calls` limit at run time.
#[test]
fn endless_procedure_recursion_is_a_load_error_or_a_runtime_limit() {
    let dir = scratch("recursion");
    let text = "frontier: 1\nname: rec\nplayers: 2\nstate:\n  v: { init: 0 }\nprocedures:\n  a:\n    do:\n      - add: { v: 1 }\n      - call: a\nplay:\n  - call: a\nranking:\n  score: \"v\"\n";
    std::fs::write(dir.join("rec.yaml"), text).unwrap();
    expect(
        &frontier(&dir, &["validate", "rec.yaml"]),
        1,
        &[
            "rec.yaml:10:9: procedures.a.do[1]: procedure 'a' always calls itself",
            "(a → a)",
        ],
    );
    let maybe = text.replace(
        "      - add: { v: 1 }\n",
        "      - if: \"v > 100000\"\n        then: [{ end_game: \"enough\" }]\n",
    );
    std::fs::write(dir.join("maybe.yaml"), maybe).unwrap();
    let run = frontier(
        &dir,
        &[
            "play",
            "maybe.yaml",
            "--agents",
            "random,random",
            "--limit",
            "calls=500",
        ],
    );
    expect(
        &run,
        1,
        &["calls nested more than 500 deep", "--limit calls=N"],
    );
}

/// `while: "true"` and `repeat: 10^12` without a decision stop at the `statements` limit
/// naming the loop; `repeat 10^8` of `push` stops at the `elements` limit.
#[test]
fn endless_loops_and_runaway_pushes_stop_at_their_limits() {
    let dir = scratch("loops");
    mini(
        &dir,
        "repeat.yaml",
        "  - repeat: 1000000000000\n    do:\n      - add: { v: 1 }",
    );
    let run = frontier(
        &dir,
        &[
            "play",
            "repeat.yaml",
            "--agents",
            "random,random",
            "--limit",
            "statements=100000",
        ],
    );
    expect(
        &run,
        1,
        &[
            "repeat.yaml:10:9",
            "100000 statements ran without a decision or a chance point",
        ],
    );
    let text = "frontier: 1\nname: push\nplayers: 2\ntables:\n  things:\n    rows: [a]\nstate:\n  v: { init: 0 }\nzones:\n  pile: { of: things }\nplay:\n  - repeat: 100000000\n    do:\n      - push: { to: pile, value: \"@a\" }\nranking:\n  score: \"v\"\n";
    std::fs::write(dir.join("push.yaml"), text).unwrap();
    let run = frontier(&dir, &["play", "push.yaml", "--agents", "random,random"]);
    expect(
        &run,
        1,
        &[
            "push.yaml:14:9",
            "the zones would hold more than 100000 elements",
            "--limit elements=N",
        ],
    );
    let run = frontier(
        &dir,
        &[
            "play",
            "push.yaml",
            "--agents",
            "random,random",
            "--limit",
            "elements=10",
        ],
    );
    expect(&run, 1, &["more than 10 elements"]);
}

/// A trace's `param hand_size = 2⁶³−1` makes a `draw` of that count: the first player
/// takes the whole deck (56 cards) and the draw stops there, and the second player's
/// draw does nothing. Under a limit of 1,000 statements between two steps: a draw is one
/// statement, whatever its count, not one round after another.
#[test]
fn a_huge_draw_count_takes_what_there_is() {
    let dir = scratch("draw");
    let trace = "frontier-trace 1\nruleset go-west\nplayers p1 p2\nparam hand_size = 9223372036854775807\nseed 1\nchance by seed\nassert len(hand[p1]) == 56 and len(hand[p2]) == 0 and len(deck) == 0\n";
    std::fs::write(dir.join("t.trace"), trace).unwrap();
    let run = frontier(&dir, &["check", "t.trace", "--limit", "statements=1000"]);
    expect(&run, 0, &[]);
    assert!(
        run.out.contains("t.trace: ok (0 steps, 1 assertion)"),
        "{}",
        run.out
    );
}

/// `extends:`, a trace's `ruleset` and its `start position` naming a FIFO, /dev/zero or
/// a folder are refused before anything is read.
#[test]
fn inputs_that_are_not_regular_files_are_refused() {
    let dir = scratch("files");
    let fifo = dir.join("fifo.yaml");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for (file, base) in [
        ("fifo-ext.yaml", "fifo.yaml"),
        ("zero-ext.yaml", "/dev/zero"),
    ] {
        std::fs::write(dir.join(file), format!("extends: \"{base}\"\nname: f\n")).unwrap();
        expect(
            &frontier(&dir, &["validate", file]),
            1,
            &[file, "extends", "not a regular file"],
        );
    }
    std::fs::write(
        dir.join("r.trace"),
        "frontier-trace 1\nruleset \"fifo.yaml\"\nplayers p1 p2\nseed 1\n",
    )
    .unwrap();
    expect(
        &frontier(&dir, &["check", "r.trace"]),
        1,
        &["r.trace:2:", "not a regular file"],
    );
    std::fs::write(
        dir.join("p.trace"),
        "frontier-trace 1\nruleset go-west\nplayers p1 p2\nseed 1\nstart position \"/dev/zero\"\n",
    )
    .unwrap();
    expect(
        &frontier(&dir, &["check", "p.trace"]),
        1,
        &["p.trace:5:", "not a regular file"],
    );
    expect(
        &frontier(&dir, &["merge", "/dev/zero"]),
        1,
        &["/dev/zero: not a regular file"],
    );
    expect(
        &frontier(&dir, &["merge", "fifo.yaml"]),
        1,
        &["not a regular file"],
    );
    // A file larger than the `bytes` limit is refused before it is parsed.
    expect(
        &frontier(&dir, &["validate", "--limit", "bytes=10", "r.trace"]),
        1,
        &["more than the 10 a file may have", "--limit bytes=N"],
    );
}

/// `extends:` of an empty file or a YAML list is an error, not a ruleset without a base.
#[test]
fn extending_an_empty_file_or_a_list_is_an_error() {
    let dir = scratch("extends");
    std::fs::write(dir.join("empty.yaml"), "").unwrap();
    std::fs::write(dir.join("list.yaml"), "- a\n- b\n").unwrap();
    for (base, what) in [("empty.yaml", "is empty"), ("list.yaml", "is a list")] {
        std::fs::write(
            dir.join("v.yaml"),
            format!("extends: \"{base}\"\nname: v\n"),
        )
        .unwrap();
        expect(
            &frontier(&dir, &["validate", "v.yaml"]),
            1,
            &["v.yaml:1:1: extends:", what, "not a ruleset"],
        );
    }
    // A mapping that is not a ruleset: its keys are reported as the base's.
    std::fs::write(
        dir.join("other.yaml"),
        "foo: 1
",
    )
    .unwrap();
    std::fs::write(dir.join("v.yaml"), "extends: \"other.yaml\"\nname: v\n").unwrap();
    expect(
        &frontier(&dir, &["validate", "v.yaml"]),
        1,
        &[
            "other.yaml:1:1: foo: unknown key 'foo'",
            "(in the base that v.yaml extends)",
        ],
    );
}

/// `extends:` that comes back to a file already in the chain is a cycle, named file by
/// file; one that is not a name says what it found.
#[test]
fn extends_cycles_and_non_names_are_named() {
    let dir = scratch("extends-cycle");
    std::fs::write(dir.join("self.yaml"), "extends: self.yaml\nname: s\n").unwrap();
    expect(&frontier(&dir, &["validate", "self.yaml"]), 1, &["self.yaml:1:1: extends: variants extend each other in a cycle: self.yaml extends self.yaml"]);
    std::fs::write(dir.join("a.yaml"), "extends: b.yaml\nname: a\n").unwrap();
    std::fs::write(dir.join("b.yaml"), "extends: a.yaml\nname: b\n").unwrap();
    expect(&frontier(&dir, &["validate", "a.yaml"]), 1, &["b.yaml:1:1: extends: variants extend each other in a cycle: a.yaml extends b.yaml extends a.yaml"]);
    std::fs::write(dir.join("list.yaml"), "extends: [go-west]\nname: l\n").unwrap();
    expect(
        &frontier(&dir, &["validate", "list.yaml"]),
        1,
        &["list.yaml:1:1: extends: expected a ruleset name or path, found a list"],
    );
}

/// Usage errors exit 2 and say what is wrong: `--games 0` or past what one process can
/// keep (2⁶⁴−1 and 10⁹ once panicked and allocated 136 GB), `--seconds 0` or NaN, two
/// agents for three players, an unknown agent.
#[test]
fn usage_errors_exit_2() {
    let dir = scratch("usage");
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "simulate",
                "go-west",
                "--players",
                "2",
                "--games",
                "0",
                "--seed",
                "1",
            ],
            "0 is not in 1..",
        ),
        (
            &[
                "simulate",
                "go-west",
                "--players",
                "2",
                "--games",
                "18446744073709551615",
                "--seed",
                "1",
            ],
            "one process plays at most 1000000; split the run with --shard",
        ),
        (
            &[
                "simulate",
                "go-west",
                "--players",
                "2",
                "--games",
                "1000000000",
                "--seed",
                "1",
            ],
            "one process plays at most 1000000",
        ),
        (
            &[
                "balance",
                "go-west",
                "--players",
                "2",
                "--games",
                "1000000000",
                "--seed",
                "1",
                "--json",
                "x.json",
            ],
            "one process plays at most 1000000",
        ),
        (
            &["bench", "go-west", "--players", "2", "--seconds", "0"],
            "more than 0 and at most 3600",
        ),
        (
            &["bench", "go-west", "--players", "2", "--seconds", "NaN"],
            "more than 0 and at most 3600",
        ),
        (
            &[
                "play",
                "go-west",
                "--players",
                "3",
                "--seed",
                "1",
                "--agents",
                "random,random",
            ],
            "--agents names 2 agents for 3 players",
        ),
        (
            &[
                "simulate",
                "go-west",
                "--players",
                "3",
                "--games",
                "1",
                "--agents",
                "random,random",
            ],
            "--agents names 2 agents for 3 players",
        ),
        (
            &[
                "play",
                "go-west",
                "--players",
                "2",
                "--seed",
                "1",
                "--agents",
                "random,nosuch",
            ],
            "unknown agent 'nosuch'",
        ),
    ];
    for (args, message) in cases {
        let run = frontier(&dir, args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.err);
        assert!(run.err.contains(message), "{args:?}: {}", run.err);
    }
    // The --seconds message no longer says "between 0 and 3600" of a 0 it refuses.
    assert!(!frontier(&dir, &["bench", "go-west", "--seconds", "0"])
        .err
        .contains("between 0"));
    assert!(!dir.join("x.json").exists());
}

/// A UTF-8 byte-order mark before a ruleset or a position is not "more than one document".
#[test]
fn a_byte_order_mark_is_not_a_second_document() {
    let dir = scratch("bom");
    let ruleset = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/go-west/ruleset.yaml"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("gw")).unwrap();
    std::fs::write(dir.join("gw/ruleset.yaml"), format!("\u{feff}{ruleset}")).unwrap();
    expect(&frontier(&dir, &["validate", "gw"]), 0, &[]);
    let played = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--players",
            "2",
            "--seed",
            "3",
            "--agents",
            "random,random",
            "--trace-out",
            "g.trace",
        ],
    );
    assert_eq!(played.code, Some(0), "{}", played.err);
    let position = frontier(&dir, &["replay", "g.trace", "--at", "10", "--state"]);
    assert_eq!(position.code, Some(0), "{}", position.err);
    std::fs::write(dir.join("pos.yaml"), format!("\u{feff}{}", position.out)).unwrap();
    std::fs::write(
        dir.join("from.trace"),
        "frontier-trace 1\nruleset go-west\nplayers p1 p2\nseed 3\nstart position \"pos.yaml\"\n",
    )
    .unwrap();
    expect(&frontier(&dir, &["check", "from.trace"]), 0, &[]);
}

/// `replay --at N --state` prints a position alone (no title line) that a trace can
/// start from, and the game goes on from it as it went.
#[test]
fn replay_state_is_a_loadable_position() {
    let dir = scratch("replay-state");
    let played = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--players",
            "3",
            "--seed",
            "2",
            "--agents",
            "random,random,random",
            "--trace-out",
            "g.trace",
        ],
    );
    assert_eq!(played.code, Some(0), "{}", played.err);
    let position = frontier(&dir, &["replay", "g.trace", "--at", "30", "--state"]);
    assert_eq!(position.code, Some(0), "{}", position.err);
    assert!(
        position.out.starts_with("players:") || position.out.starts_with("frontier"),
        "{}",
        &position.out[..position.out.len().min(200)]
    );
    std::fs::write(dir.join("pos.yaml"), &position.out).unwrap();
    std::fs::write(dir.join("from.trace"), "frontier-trace 1\nruleset go-west\nplayers p1 p2 p3\nseed 2\nstart position \"pos.yaml\"\n").unwrap();
    expect(&frontier(&dir, &["check", "from.trace"]), 0, &[]);
    // A corrupt continuation in it is refused (exit 1), not a panic.
    std::fs::write(
        dir.join("pos.yaml"),
        position.out.replacen("pc: ", "pc: 99999 #", 1),
    )
    .unwrap();
    expect(
        &frontier(&dir, &["check", "from.trace"]),
        1,
        &["from.trace:5:", "continuation"],
    );
}

/// A trace without a seed whose game needs a chance outcome: one clear message at the
/// step's line, `file:line:column: ` without a doubled colon.
#[test]
fn a_trace_without_a_seed_says_so_at_its_line() {
    let dir = scratch("no-seed");
    std::fs::write(
        dir.join("t.trace"),
        "frontier-trace 1\nruleset go-west\nplayers p1 p2\np1: pass\n",
    )
    .unwrap();
    let run = frontier(&dir, &["check", "t.trace"]);
    expect(&run, 1, &["t.trace:4:1: ", "give the trace a seed"]);
    assert!(!run.err.contains("::"), "{}", run.err);
}

/// Outputs never destroy inputs nor each other, checking nothing is not a success, and
/// output that cannot be written is an error, never a panic or a silent success.
#[test]
fn outputs_that_would_lose_inputs_or_each_other_are_refused() {
    let dir = scratch("outputs");
    // --trace-out onto the ruleset's own file: refused, the file unchanged.
    let rules = dir.join("r");
    std::fs::create_dir_all(&rules).unwrap();
    let text = "frontier: 1\nname: r\nplayers: [2, 2]\nstate:\n  v: { init: 0 }\nplay:\n  - set: { v: 1 }\nranking:\n  score: \"v\"\n";
    std::fs::write(rules.join("ruleset.yaml"), text).unwrap();
    let run = frontier(
        &dir,
        &[
            "play",
            "r",
            "--agents",
            "random,random",
            "--trace-out",
            "r/ruleset.yaml",
        ],
    );
    expect(
        &run,
        1,
        &["--trace-out r/ruleset.yaml is a file of the ruleset r"],
    );
    assert_eq!(
        std::fs::read_to_string(rules.join("ruleset.yaml")).unwrap(),
        text
    );
    // A trace written into the ruleset's folder is fine.
    let run = frontier(
        &dir,
        &[
            "play",
            "r",
            "--agents",
            "random,random",
            "--trace-out",
            "r/game.trace",
        ],
    );
    expect(&run, 0, &[]);
    // Two reports to one file.
    let run = frontier(
        &dir,
        &[
            "balance",
            "go-west",
            "--players",
            "3",
            "--games",
            "2",
            "--report",
            "same.out",
            "--json",
            "./same.out",
        ],
    );
    expect(&run, 1, &["--report and --json both name same.out"]);
    assert!(!dir.join("same.out").exists());
    // A folder with no trace.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let run = frontier(&dir, &["check", "--all", "empty"]);
    expect(
        &run,
        1,
        &["empty: no .trace file in this folder or below it"],
    );
}

#[test]
fn output_that_cannot_be_written_is_an_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let err = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    // stdout on a full device: exit 1; stderr on one as well: exit 1, no panic (101).
    let schema = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .arg("schema")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(
        schema.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&schema.stderr)
    );
    let validate = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(["validate", "/nonexistent-ruleset"])
        .stderr(err)
        .output()
        .unwrap();
    assert_eq!(validate.status.code(), Some(1));
}

/// An output path that names a file already there is refused unless `--force`; one that
/// names an input is refused even with it; a folder of an earlier run's traces likewise;
/// a trace file the user did not name never replaces one.
#[test]
fn existing_outputs_are_replaced_only_with_force() {
    let dir = scratch("force");
    mini(&dir, "r.yaml", "  - set: { v: 1 }");
    std::fs::write(dir.join("old.jsonl"), "keep\n").unwrap();
    let simulate = |extra: &[&str]| {
        let mut args = vec!["simulate", "r.yaml", "--games", "2"];
        args.extend_from_slice(extra);
        frontier(&dir, &args)
    };
    // A file there: refused, unchanged; with --force, replaced.
    let run = simulate(&["--out", "old.jsonl"]);
    expect(
        &run,
        1,
        &["--out old.jsonl exists: it is left as it is", "--force"],
    );
    assert_eq!(read(&dir, "old.jsonl"), "keep\n");
    expect(&simulate(&["--out", "old.jsonl", "--force"]), 0, &[]);
    assert_eq!(read(&dir, "old.jsonl").lines().count(), 2);
    // The ruleset itself: refused even with --force.
    let run = simulate(&["--out", "r.yaml", "--force"]);
    expect(
        &run,
        1,
        &["--out r.yaml is r.yaml, an input of this command"],
    );
    assert!(read(&dir, "r.yaml").starts_with("frontier: 1"));
    // merge onto one of its shards: refused even with --force.
    expect(&simulate(&["--shard", "1/2", "--out", "s1.jsonl"]), 0, &[]);
    expect(&simulate(&["--shard", "2/2", "--out", "s2.jsonl"]), 0, &[]);
    let shard = read(&dir, "s1.jsonl");
    let run = frontier(
        &dir,
        &[
            "merge", "s1.jsonl", "s2.jsonl", "--out", "s1.jsonl", "--force",
        ],
    );
    expect(
        &run,
        1,
        &["--out s1.jsonl is s1.jsonl, an input of this command"],
    );
    assert_eq!(read(&dir, "s1.jsonl"), shard);
    // A folder holding an earlier run's traces.
    expect(&simulate(&["--trace-out", "t", "--seed", "1"]), 0, &[]);
    let first = read(&dir, "t/game-0001.trace");
    let run = simulate(&["--trace-out", "t", "--seed", "2"]);
    expect(
        &run,
        1,
        &["--trace-out t already holds 2 files of an earlier run"],
    );
    assert_eq!(read(&dir, "t/game-0001.trace"), first);
    expect(
        &simulate(&["--trace-out", "t", "--seed", "2", "--force"]),
        0,
        &[],
    );
    assert_ne!(read(&dir, "t/game-0001.trace"), first);
    // The end of input writes the game so far beside a file of the default name.
    std::fs::write(dir.join("frontier-go-west-3.trace"), "keep\n").unwrap();
    let run = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--players",
            "2",
            "--seed",
            "3",
            "--agents",
            "human,random",
        ],
    );
    expect(&run, 1, &["input ended", "frontier-go-west-3-2.trace"]);
    assert_eq!(read(&dir, "frontier-go-west-3.trace"), "keep\n");
    assert!(read(&dir, "frontier-go-west-3-2.trace").contains("frontier-trace 1"));
    // A folder that takes no new file is named as the cause.
    let run = simulate(&["--out", "/proc/version", "--force"]);
    expect(
        &run,
        1,
        &["cannot write /proc/version: its folder /proc takes no new file"],
    );
}

/// A shuffle too long to spell out in a trace (2,000 cards, over 4 KiB) is written
/// `chance by seed 1`, which draws it again from the seed: the trace checks, final
/// scores included (the score is the top card's number, so a different shuffle fails).
#[test]
fn a_long_shuffle_is_written_as_drawn_by_the_seed() {
    let dir = scratch("long-shuffle");
    let rows: String = (1..=2000)
        .map(|i| format!("      - [card{i:04}, {i}]\n"))
        .collect();
    let text = format!(
        "frontier: 1\nname: deck\nplayers: [2, 2]\ntables:\n  cards:\n    columns: {{ n: int }}\n    rows:\n{rows}zones:\n  deck: {{ of: cards, init: all }}\nplay:\n  - shuffle: deck\nranking:\n  score: \"deck[0].n\"\n"
    );
    std::fs::write(dir.join("deck.yaml"), text).unwrap();
    let run = frontier(
        &dir,
        &[
            "play",
            "deck.yaml",
            "--agents",
            "random,random",
            "--seed",
            "5",
            "--trace-out",
            "g.trace",
        ],
    );
    expect(&run, 0, &[]);
    let trace = read(&dir, "g.trace");
    assert!(trace.contains("\nchance by seed 1\n"), "{trace}");
    assert!(!trace.contains("card0001 "), "{trace}");
    expect(&frontier(&dir, &["check", "g.trace"]), 0, &[]);
    // The check compares the final scores: a trace claiming other ones fails.
    let over = trace
        .lines()
        .find(|l| l.starts_with("expect over"))
        .unwrap();
    let wrong = trace.replace(over, "expect over p1=0 p2=0");
    std::fs::write(dir.join("wrong.trace"), wrong).unwrap();
    expect(&frontier(&dir, &["check", "wrong.trace"]), 1, &[]);
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}
