use proptest::prelude::*;

use super::*;

/// A valid trace using every kind of line.
const SAMPLE: &str = r#"# Go West! rulebook §5.2, example 1
frontier-trace 1
ruleset go-west
variant "variants/short.yaml"
players red green blue
param hand_size = 6
param bonus = -2
seed 42
start position "positions/ex1.yaml"

rule 5.2
red: play card:gw-17
chance: gw-03 gw-11 gw-40   # the three cards drawn
assert vp[red] == 13 and tokens[green] >= 2
let before =  tokens[green]   # kept for later
rule "5.3 selling"
green: move wagon from:new-england
assert name(red) == "a # b"  # '#' in a string is kept
reject blue: play card:gw-99
expect options blue: score, sell card:gw-01 ,play card:gw-02
expect over red=12 green=10 blue=8
expect winner red
expect ranking red=1 green=2 blue=2
"#;

/// The header every body case below is parsed with (2 lines, so steps start on line 3).
const HEADER: &str = "ruleset go-west\nplayers red green blue\n";
const HEADER_SUMMARY: &str = "header ruleset=Name(\"go-west\") players=red,green,blue";

/// Parses `input` and compares a compact rendering with `expected`: the errors as
/// displayed, one per line; or, for a trace, a summary of its header then one line per
/// step (`line:column rule kind`).
fn check(input: &str, expected: &str) {
    if let Some(mismatch) = mismatch(input, expected) {
        panic!("{mismatch}");
    }
}

fn mismatch(input: &str, expected: &str) -> Option<String> {
    let actual = render(&parse(input));
    let expected = expected.trim();
    (actual != expected)
        .then(|| format!("input:\n{input}\nexpected:\n{expected}\nactual:\n{actual}\n"))
}

/// Checks every case, then reports all mismatches at once.
fn check_all(cases: &[(&str, &str)]) {
    let mismatches: Vec<_> = cases
        .iter()
        .filter_map(|(input, expected)| mismatch(input, expected))
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// Like `check_all`, with `HEADER` before each body (and its summary before expected steps).
fn check_all_bodies(cases: &[(&str, &str)]) {
    let cases: Vec<(String, String)> = cases
        .iter()
        .map(|(body, expected)| {
            let expected = expected.trim();
            let expected = if expected.starts_with("line ") {
                expected.to_string()
            } else {
                format!("{HEADER_SUMMARY}\n{expected}")
            };
            (format!("{HEADER}{body}"), expected)
        })
        .collect();
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(input, expected)| (input.as_str(), expected.as_str()))
        .collect();
    check_all(&cases);
}

fn render(result: &Result<Trace, Vec<TraceError>>) -> String {
    match result {
        Err(errors) => errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
        Ok(trace) => std::iter::once(summarize(&trace.header))
            .chain(trace.body.iter().map(|step| {
                let rule = step.rule.as_deref().unwrap_or("-");
                format!("{}:{} {rule} {:?}", step.line, step.column, step.kind)
            }))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The header's values, leaving out those at their defaults.
fn summarize(header: &Header) -> String {
    let mut parts = vec!["header".to_string()];
    if let Some(version) = header.version {
        parts.push(format!("version={version}"));
    }
    parts.push(format!("ruleset={:?}", header.ruleset));
    if let Some(variant) = &header.variant {
        parts.push(format!("variant={variant:?}"));
    }
    parts.push(format!("players={}", header.players.join(",")));
    for (name, value) in &header.params {
        parts.push(format!("param:{name}={value}"));
    }
    if let Some(seed) = header.seed {
        parts.push(format!("seed={seed}"));
    }
    if header.start != Start::Setup {
        parts.push(format!("start={:?}", header.start));
    }
    parts.join(" ")
}

/// The trace with every location zeroed, to compare traces read from different texts.
fn without_locations(mut trace: Trace) -> Trace {
    trace.header.header_lines = HeaderLines::default();
    for step in &mut trace.body {
        step.line = 0;
        step.column = 0;
        if let LineKind::Assert { offset, column, .. } | LineKind::Let { offset, column, .. } =
            &mut step.kind
        {
            *offset = 0;
            *column = 0;
        }
    }
    trace
}

#[test]
fn header_lines() {
    check(
        SAMPLE,
        r#"
header version=1 ruleset=Name("go-west") variant="variants/short.yaml" players=red,green,blue param:hand_size=6 param:bonus=-2 seed=42 start=Position("positions/ex1.yaml")
12:1 5.2 Decision { player: "red", label: "play card:gw-17" }
13:1 5.2 Chance { label: "gw-03 gw-11 gw-40" }
14:1 5.2 Assert { source: "vp[red] == 13 and tokens[green] >= 2", offset: 294, column: 8 }
15:1 5.2 Let { name: "before", source: "tokens[green]", offset: 345, column: 15 }
17:1 5.3 selling Decision { player: "green", label: "move wagon from:new-england" }
18:1 5.3 selling Assert { source: "name(red) == \"a # b\"", offset: 439, column: 8 }
19:1 5.3 selling Reject { player: "blue", label: "play card:gw-99" }
20:1 5.3 selling ExpectOptions { player: "blue", labels: ["score", "sell card:gw-01", "play card:gw-02"], listed: Exactly }
21:1 5.3 selling ExpectOver { scores: [("red", 12), ("green", 10), ("blue", 8)] }
22:1 5.3 selling ExpectWinner { players: ["red"] }
23:1 5.3 selling ExpectRanking { ranks: [("red", 1), ("green", 2), ("blue", 2)] }
"#,
    );
    let cases = [
        (
            "ruleset \"rulesets/go-west\"\nplayers solo",
            "header ruleset=Path(\"rulesets/go-west\") players=solo",
        ),
        (
            "players a b\nruleset go-west # any order",
            "header ruleset=Name(\"go-west\") players=a,b",
        ),
        (
            "  ruleset\tx_1\r\nplayers _p p-2\r\nseed none\r\n",
            "header ruleset=Name(\"x_1\") players=_p,p-2",
        ),
        (
            "ruleset x\nplayers a\nseed 18446744073709551615",
            "header ruleset=Name(\"x\") players=a seed=18446744073709551615",
        ),
        (
            "ruleset x\nplayers a\nparam p=-9223372036854775808",
            "header ruleset=Name(\"x\") players=a param:p=-9223372036854775808",
        ),
        (
            "ruleset x\nplayers a\nstart setup",
            "header ruleset=Name(\"x\") players=a",
        ),
        (
            "\u{FEFF}ruleset x # after a byte order mark\nplayers a",
            "header ruleset=Name(\"x\") players=a",
        ),
    ];
    check_all(&cases);
}

#[test]
fn body_lines() {
    let cases = [
        (
            "red: play card:gw-17",
            r#"3:1 - Decision { player: "red", label: "play card:gw-17" }"#,
        ),
        (
            "  blue :  pass  # thinking",
            r#"3:3 - Decision { player: "blue", label: "pass" }"#,
        ),
        (
            "red: card#3",
            r#"3:1 - Decision { player: "red", label: "card#3" }"#,
        ),
        ("red:x", r#"3:1 - Decision { player: "red", label: "x" }"#),
        ("chance: 4", r#"3:1 - Chance { label: "4" }"#),
        ("chance by seed", "3:1 - ChanceBySeed { count: None }"),
        (
            "chance  by seed 3 # setup's draws",
            "3:1 - ChanceBySeed { count: Some(3) }",
        ),
        (
            "chance : 4 5\t# two dice",
            r#"3:1 - Chance { label: "4 5" }"#,
        ),
        (
            "assert vp[red] == 13",
            r#"3:1 - Assert { source: "vp[red] == 13", offset: 46, column: 8 }"#,
        ),
        (
            "assert  x # c \"",
            r#"3:1 - Assert { source: "x", offset: 47, column: 9 }"#,
        ),
        (
            "assert s == \"unterminated # no comment  ",
            r#"3:1 - Assert { source: "s == \"unterminated # no comment", offset: 46, column: 8 }"#,
        ),
        ("expect over", "3:1 - ExpectOver { scores: [] }"),
        (
            "expect over red=12 blue = -1",
            r#"3:1 - ExpectOver { scores: [("red", 12), ("blue", -1)] }"#,
        ),
        (
            "reject red: play card:gw-17 # not affordable",
            r#"3:1 - Reject { player: "red", label: "play card:gw-17" }"#,
        ),
        (
            "reject\tblue :x",
            r#"3:1 - Reject { player: "blue", label: "x" }"#,
        ),
        (
            "expect options red: pass,play card:gw-17 ,  score",
            r#"3:1 - ExpectOptions { player: "red", labels: ["pass", "play card:gw-17", "score"], listed: Exactly }"#,
        ),
        (
            "expect options red:pass",
            r#"3:1 - ExpectOptions { player: "red", labels: ["pass"], listed: Exactly }"#,
        ),
        (
            "expect winner red blue",
            r#"3:1 - ExpectWinner { players: ["red", "blue"] }"#,
        ),
        ("expect draw  # all even", "3:1 - ExpectDraw"),
        (
            r#"expect options red: "x(0,2)" , "" a","y"#,
            r#"3:1 - ExpectOptions { player: "red", labels: ["x(0,2)", "\" a", "\"y"], listed: Exactly }"#,
        ),
        (
            r#"expect chance: 1=1/6, "x,=y" = 0.5,a=b=1/3 ,c=1"#,
            r#"3:1 - ExpectChance { outcomes: [("1", Ratio { numerator: 1, denominator: 6 }), ("x,=y", Ratio { numerator: 1, denominator: 2 }), ("a=b", Ratio { numerator: 1, denominator: 3 }), ("c", Ratio { numerator: 1, denominator: 1 })] }"#,
        ),
        (
            "expect returns red=1 blue = -0.50 green=2/6",
            r#"3:1 - ExpectReturns { returns: [("red", Ratio { numerator: 1, denominator: 1 }), ("blue", Ratio { numerator: -1, denominator: 2 }), ("green", Ratio { numerator: 1, denominator: 3 })] }"#,
        ),
        (
            "expect ranking red=1 blue = 1 green=3",
            r#"3:1 - ExpectRanking { ranks: [("red", 1), ("blue", 1), ("green", 3)] }"#,
        ),
        (
            "rule 5.1b\nchance: 1\n\n# note\nrule \"§ 6\"\nchance: 2\nrule \"\"\nchance: 3",
            "
4:1 5.1b Chance { label: \"1\" }
8:1 § 6 Chance { label: \"2\" }
10:1 - Chance { label: \"3\" }",
        ),
        (
            "rule 5.2#a\nchance: 1",
            r#"4:1 5.2#a Chance { label: "1" }"#,
        ),
    ];
    check_all_bodies(&cases);
}

#[test]
fn assert_offsets_point_at_the_expression() {
    let trace = parse(SAMPLE).expect("the sample is valid");
    for step in &trace.body {
        if let LineKind::Assert {
            source,
            offset,
            column,
        }
        | LineKind::Let {
            source,
            offset,
            column,
            ..
        } = &step.kind
        {
            assert_eq!(
                SAMPLE.get(*offset..offset + source.len()),
                Some(source.as_str())
            );
            // The column counts the characters of its line before it, from 1.
            let line = SAMPLE.lines().nth(step.line - 1).unwrap();
            let before = &SAMPLE[..*offset];
            let in_line = before.len() - before.rfind('\n').map_or(0, |n| n + 1);
            assert_eq!(*column, line[..in_line].chars().count() + 1);
        }
    }
}

#[test]
fn header_errors() {
    let cases = [
        ("", "line 1:1: missing 'ruleset' and 'players' lines"),
        ("# only a comment\n\n", "line 1:1: missing 'ruleset' and 'players' lines"),
        ("ruleset x", "line 1:1: missing 'players' line"),
        ("players a", "line 1:1: missing 'ruleset' line"),
        ("ruleset x\nplayers a\nruleset y", "line 3:1: duplicate 'ruleset' line (first on line 1)"),
        ("ruleset x\nplayers a\nseed 1\nseed 2", "line 4:1: duplicate 'seed' line (first on line 3)"),
        ("ruleset x\nplayers a\nparam p = 1\nparam p = 2", "line 4:7: parameter 'p' is set twice (first on line 3)"),
        ("frontier-trace 2\nruleset x\nplayers a", "line 1:1: unsupported trace format version 2 (only version 1 exists)"),
        ("ruleset x\nfrontier-trace 1\nplayers a", "line 2:1: the 'frontier-trace' line must come first (only comments may precede it)"),
        ("frontier-trace one\nruleset x\nplayers a", "line 1:16: expected 'frontier-trace 1'"),
        ("ruleset go west\nplayers a", "line 1:12: expected 'ruleset <name>' or 'ruleset \"path\"'"),
        ("ruleset \"go-west\nplayers a", "line 1:9: missing closing '\"'"),
        ("ruleset x\nvariant short\nplayers a", "line 2:9: expected 'variant \"path\"'"),
        ("ruleset x\nplayers", "line 2:8: expected 'players' then player names (letters, digits, '_' and '-', starting with a letter or '_')"),
        ("ruleset x\nplayers red 2nd", "line 2:13: expected 'players' then player names (letters, digits, '_' and '-', starting with a letter or '_')"),
        ("ruleset x\nplayers red green red", "line 2:19: player 'red' is listed twice"),
        ("ruleset x\nplayers red chance", "line 2:13: 'chance' cannot be a player name: it is a keyword"),
        ("ruleset x\nplayers seed", "line 2:9: 'seed' cannot be a player name: it is a keyword"),
        ("ruleset x\nplayers a\nparam hand_size 6", "line 3:17: expected 'param <name> = <integer>'"),
        ("ruleset x\nplayers a\nseed -1", "line 3:6: expected 'seed <number>' or 'seed none'"),
        ("ruleset x\nplayers a\nseed 42x", "line 3:8: expected 'seed <number>' or 'seed none'"),
        ("ruleset x\nplayers a\nseed 18446744073709551616", "line 3:6: number out of range: from 0 to 18446744073709551615 here"),
        ("ruleset x\nplayers a\nparam p = 9223372036854775808", "line 3:11: number out of range: from -9223372036854775808 to 9223372036854775807 here"),
        ("frontier-trace 99999999999\nruleset x\nplayers a", "line 1:16: number out of range: from 0 to 4294967295 here"),
        ("ruleset x\nplayers a\nstart somewhere", "line 3:7: expected 'start setup' or 'start position \"file\"'"),
        ("ruleset x\nplayers a\nstart position p.yaml", "line 3:16: expected 'start setup' or 'start position \"file\"'"),
        ("Ruleset x\nplayers a", "line 1:1: unrecognised line: did you mean 'ruleset'? (keywords are lower case)\nline 1:1: missing 'ruleset' line"),
        ("ruleset x\nplayers a\nseed 1#c", "line 3:7: expected 'seed <number>' or 'seed none'"),
    ];
    check_all(&cases);
}

#[test]
fn body_errors() {
    let cases = [
        ("bleu: pass", "line 3:1: unknown player 'bleu' (players are red, green, blue)"),
        ("red: pass\nseed 4", "line 4:1: 'seed' is a header line: header lines must come before the first step (line 3)"),
        ("rule 1\nplayers a", "line 4:1: 'players' is a header line: header lines must come before the first step (line 3)"),
        ("red:", "line 3:5: missing option label after 'red:'"),
        ("red:   # nothing chosen", "line 3:5: missing option label after 'red:'"),
        ("chance:", "line 3:8: missing outcome after 'chance:'"),
        ("chance 4", "line 3:8: expected 'chance: <outcome>' or 'chance by seed' (optionally with a number of chance points)"),
        ("chance: 4\nchance: 5\nassert", "line 5:7: expected an expression after 'assert'"),
        ("assert   # no expression", "line 3:10: expected an expression after 'assert'"),
        ("rule", "line 3:5: expected 'rule' then a reference such as 5.2 or a \"quoted text\""),
        ("rule #5", "line 3:6: expected 'rule' then a reference such as 5.2 or a \"quoted text\""),
        ("rule \"5.2", "line 3:6: missing closing '\"'"),
        ("expect red=1", "line 3:8: expected 'expect over' (optionally with scores such as red=12), 'expect winner <players>', 'expect draw', 'expect ranking red=1 …', 'expect returns red=1 …', 'expect options <player>: <label>, …' (or 'include:'/'exclude:' a part of them) or 'expect chance: <outcome>=<probability>, …'"),
        ("expect over red=x", "line 3:17: expected 'expect over' (optionally with scores such as red=12), 'expect winner <players>', 'expect draw', 'expect ranking red=1 …', 'expect returns red=1 …', 'expect options <player>: <label>, …' (or 'include:'/'exclude:' a part of them) or 'expect chance: <outcome>=<probability>, …'"),
        ("expect over bleu=1", "line 3:13: unknown player 'bleu' (players are red, green, blue)"),
        ("expect over red=1 red=2", "line 3:19: score for 'red' is given twice"),
        ("expect over red=99999999999999999999", "line 3:17: number out of range: from -9223372036854775808 to 9223372036854775807 here"),
        ("reject bleu: pass", "line 3:8: unknown player 'bleu' (players are red, green, blue)"),
        ("reject red:", "line 3:12: expected 'reject <player>: <option>' or 'reject chance: <outcome>'"),
        ("reject red pass", "line 3:12: expected 'reject <player>: <option>' or 'reject chance: <outcome>'"),
        ("expect options red: a,, b", "line 3:23: expected a label between commas"),
        ("expect options red: a, b,", "line 3:26: expected a label between commas"),
        ("expect options red", "line 3:19: expected 'expect over' (optionally with scores such as red=12), 'expect winner <players>', 'expect draw', 'expect ranking red=1 …', 'expect returns red=1 …', 'expect options <player>: <label>, …' (or 'include:'/'exclude:' a part of them) or 'expect chance: <outcome>=<probability>, …'"),
        ("expect winner", "line 3:14: expected 'expect over' (optionally with scores such as red=12), 'expect winner <players>', 'expect draw', 'expect ranking red=1 …', 'expect returns red=1 …', 'expect options <player>: <label>, …' (or 'include:'/'exclude:' a part of them) or 'expect chance: <outcome>=<probability>, …'"),
        ("expect winner red red", "line 3:19: winner for 'red' is given twice"),
        ("expect winner red bleu", "line 3:19: unknown player 'bleu' (players are red, green, blue)"),
        ("expect ranking red=0", "line 3:20: ranks start at 1"),
        ("expect returns red=1/0", "line 3:20: expected a return such as p1=1, p2=-0.5 or p3=1/3"),
        ("expect returns red=1 red=2", "line 3:22: return for 'red' is given twice"),
        ("expect chance: a=2", "line 3:16: expected an outcome and its probability, such as 3=1/6 or \"x(0,2)\"=0.5, found 'a=2'"),
        ("expect chance: a", "line 3:16: expected an outcome and its probability, such as 3=1/6 or \"x(0,2)\"=0.5, found 'a'"),
        ("expect ranking red=1 red=2", "line 3:22: rank for 'red' is given twice"),
        ("expect ranking red=-1", "line 3:20: expected 'expect over' (optionally with scores such as red=12), 'expect winner <players>', 'expect draw', 'expect ranking red=1 …', 'expect returns red=1 …', 'expect options <player>: <label>, …' (or 'include:'/'exclude:' a part of them) or 'expect chance: <outcome>=<probability>, …'"),
        ("3red: pass", "line 3:1: '3red' is not a player name (names start with a letter or '_' and hold letters, digits, '_' and '-')"),
        ("red plays gw-17", "line 3:1: unrecognised line 'red plays gw-17': expected a header line or a step ('player: option', 'chance: outcome', 'reject player: option', 'assert <expression>', 'let <name> = <expression>', 'rule <reference>' or 'expect …')"),
        ("   ¿qué? ¿qué? ¿qué? ¿qué? ¿qué? ¿qué?", "line 3:4: unrecognised line '¿qué? ¿qué? ¿qué? ¿qué? ¿qué? ...': expected a header line or a step ('player: option', 'chance: outcome', 'reject player: option', 'assert <expression>', 'let <name> = <expression>', 'rule <reference>' or 'expect …')"),
        ("red pass\nbleu: x\nchance:", "
line 3:1: unrecognised line 'red pass': expected a header line or a step ('player: option', 'chance: outcome', 'reject player: option', 'assert <expression>', 'let <name> = <expression>', 'rule <reference>' or 'expect …')
line 4:1: unknown player 'bleu' (players are red, green, blue)
line 5:8: missing outcome after 'chance:'"),
    ];
    check_all_bodies(&cases);
}

#[test]
fn steps_before_the_header_is_complete() {
    check(
        "ruleset x\nred: pass\nplayers red",
        "
line 2:1: missing 'players' line before the first step
line 3:1: 'players' is a header line: header lines must come before the first step (line 2)",
    );
    check(
        "rule 5\n",
        "line 1:1: missing 'ruleset' and 'players' lines before the first step",
    );
}

#[test]
fn errors_display_as_line_column_message() {
    let error = TraceError {
        line: 3,
        column: 7,
        message: "number too large".to_string(),
    };
    assert_eq!(error.to_string(), "line 3:7: number too large");
}

#[test]
fn round_trip() {
    let trace = parse(SAMPLE).expect("the sample is valid");
    let text = trace.to_text();
    let reread = parse(&text).unwrap_or_else(|errors| panic!("{errors:?} in\n{text}"));
    assert_eq!(without_locations(reread.clone()), without_locations(trace));
    // The canonical text is a fixed point.
    assert_eq!(reread.to_text(), text);
    assert_eq!(
        text,
        r#"frontier-trace 1
ruleset go-west
variant "variants/short.yaml"
players red green blue
param hand_size = 6
param bonus = -2
seed 42
start position "positions/ex1.yaml"

rule 5.2
red: play card:gw-17
chance: gw-03 gw-11 gw-40
assert vp[red] == 13 and tokens[green] >= 2
let before = tokens[green]
rule "5.3 selling"
green: move wagon from:new-england
assert name(red) == "a # b"
reject blue: play card:gw-99
expect options blue: score, sell card:gw-01, play card:gw-02
expect over red=12 green=10 blue=8
expect winner red
expect ranking red=1 green=2 blue=2
"#
    );
}

// ---- properties ----

/// Parses `text` and checks what must hold whatever it contains: errors are located on
/// a real line, and a trace that parses writes back to an equal trace.
fn check_never_panics(text: &str) {
    let line_count = text.matches('\n').count() + 1;
    match parse(text) {
        Err(errors) => {
            assert!(!errors.is_empty());
            for error in errors {
                assert!(error.line >= 1 && error.column >= 1, "{error}");
                assert!(error.line <= line_count, "{error}");
            }
        }
        Ok(mut trace) => {
            for step in &trace.body {
                assert!(step.line >= 1 && step.column >= 1);
                if let LineKind::Assert { source, offset, .. } = &step.kind {
                    assert_eq!(
                        text.get(*offset..offset + source.len()),
                        Some(source.as_str())
                    );
                }
            }
            let reread = parse(&trace.to_text()).expect("a parsed trace writes back validly");
            // The writer always states the format version.
            trace.header.version = Some(1);
            assert_eq!(without_locations(reread), without_locations(trace));
        }
    }
}

/// Text made of the notation's own pieces, more likely to get past the first word.
fn notation_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("ruleset "),
        Just("players "),
        Just("param "),
        Just("seed "),
        Just("start "),
        Just("variant "),
        Just("frontier-trace "),
        Just("rule "),
        Just("chance"),
        Just("assert "),
        Just("expect over"),
        Just("expect winner "),
        Just("expect ranking "),
        Just("expect options "),
        Just("reject "),
        Just(","),
        Just("position "),
        Just("none"),
        Just("red"),
        Just("blue"),
        Just(":"),
        Just("="),
        Just("\""),
        Just("#"),
        Just(" "),
        Just("\t"),
        Just("\n"),
        Just("\r\n"),
        Just("\r"),
        Just("-"),
        Just("1"),
        Just("99999999999999999999"),
        Just("é"),
        Just("€"),
        Just("\u{0}"),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// A character the mutations insert: mostly ones that matter to the grammar.
fn mutation_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            ' ', '\t', '\n', '\r', '#', '"', ':', '=', '-', '0', '9', 'a', 'é'
        ]),
        any::<char>(),
    ]
}

/// `text` with each edit applied: (0) delete, (1) insert or (2) replace a character at a
/// position given as a fraction of the text's length.
fn mutate(text: &str, edits: &[(u8, prop::sample::Index, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (kind, position, inserted) in edits {
        let at = position.index(chars.len() + 1);
        match kind % 3 {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => chars.insert(at, *inserted),
            _ if at < chars.len() => chars[at] = *inserted,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn name() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_-]{0,7}".prop_filter("not a keyword", |name| {
        !parser::KEYWORDS.contains(&name.as_str())
    })
}

/// Text for inside quotes: anything but '"' and line breaks.
fn quoted_text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_./ #§-]{0,16}"
}

/// A label: no blank before a '#' and no blanks at either end.
fn label() -> impl Strategy<Value = String> {
    "[a-z0-9:.#\"é-]([a-z0-9:.#\"é -]{0,14}[a-z0-9:.#\"é-])?"
        .prop_filter("no comment inside", |label| !label.contains(" #"))
}

/// An expression's source: words that never start with '#', and strings that may hold one.
fn expression() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        "[a-z0-9\\[\\]=<>.()][a-z0-9\\[\\]=<>.()#]{0,5}",
        "\"[a-z #]{0,6}\""
    ];
    prop::collection::vec(word, 1..6).prop_map(|words| words.join(" "))
}

fn reference() -> impl Strategy<Value = String> {
    prop_oneof!["[0-9][0-9a-z.#]{0,4}", "[a-z0-9 .§#]{1,12}"]
}

fn step_kind(players: &[String]) -> impl Strategy<Value = LineKind> {
    let player = prop::sample::select(players.to_vec());
    let scores = prop::sample::subsequence(players.to_vec(), 0..=players.len());
    prop_oneof![
        (player, label()).prop_map(|(player, label)| LineKind::Decision { player, label }),
        label().prop_map(|label| LineKind::Chance { label }),
        expression().prop_map(|source| LineKind::Assert {
            source,
            offset: 0,
            column: 0
        }),
        (
            scores.clone(),
            prop::collection::vec(any::<i64>(), players.len())
        )
            .prop_map(|(names, values)| {
                LineKind::ExpectOver {
                    scores: names.into_iter().zip(values).collect(),
                }
            }),
        (prop::sample::select(players.to_vec()), label())
            .prop_map(|(player, label)| LineKind::Reject { player, label }),
        (
            prop::sample::select(players.to_vec()),
            prop::collection::vec(label(), 1..4),
            prop::sample::select(vec![Listed::Exactly, Listed::Include, Listed::Exclude])
        )
            .prop_map(|(player, labels, listed)| LineKind::ExpectOptions {
                player,
                labels,
                listed
            }),
        label().prop_map(|label| LineKind::RejectChance { label }),
        prop::option::of(1..1000u32).prop_map(|count| LineKind::ChanceBySeed { count }),
        (name(), expression()).prop_map(|(name, source)| LineKind::Let {
            name,
            source,
            offset: 0,
            column: 0
        }),
        prop::sample::subsequence(players.to_vec(), 1..=players.len())
            .prop_map(|players| LineKind::ExpectWinner { players }),
        Just(LineKind::ExpectDraw),
        prop::collection::vec((label(), 0..=6i128, 1..=6i128), 1..4).prop_map(|outcomes| {
            LineKind::ExpectChance {
                outcomes: outcomes
                    .into_iter()
                    .map(|(l, n, d)| (l, Ratio::new(n.min(d), d).unwrap()))
                    .collect(),
            }
        }),
        (
            prop::sample::subsequence(players.to_vec(), 1..=players.len()),
            prop::collection::vec((any::<i32>(), 1..=12i128), players.len())
        )
            .prop_map(|(names, values)| LineKind::ExpectReturns {
                returns: names
                    .into_iter()
                    .zip(values)
                    .map(|(p, (n, d))| (p, Ratio::new(n as i128, d).unwrap()))
                    .collect(),
            }),
        (
            prop::sample::subsequence(players.to_vec(), 1..=players.len()),
            prop::collection::vec(1..=u32::MAX, players.len())
        )
            .prop_map(|(names, ranks)| {
                LineKind::ExpectRanking {
                    ranks: names.into_iter().zip(ranks).collect(),
                }
            }),
    ]
}

/// Steps with rule references: each step may set a new reference (`Some`) or clear it.
fn body(players: &[String]) -> impl Strategy<Value = Vec<Line>> {
    let change = prop::option::weighted(0.3, prop::option::of(reference()));
    prop::collection::vec((change, step_kind(players)), 0..12).prop_map(|steps| {
        let mut rule = None;
        steps
            .into_iter()
            .map(|(change, kind)| {
                if let Some(reference) = change {
                    rule = reference.map(std::sync::Arc::from);
                }
                Line {
                    line: 0,
                    column: 0,
                    rule: rule.clone(),
                    kind,
                }
            })
            .collect()
    })
}

fn valid_trace() -> impl Strategy<Value = Trace> {
    let ruleset = prop_oneof![
        name().prop_map(RulesetRef::Name),
        quoted_text().prop_map(RulesetRef::Path)
    ];
    let start = prop_oneof![Just(Start::Setup), quoted_text().prop_map(Start::Position)];
    let players = prop::collection::btree_set(name(), 1..5)
        .prop_map(|names| names.into_iter().collect::<Vec<_>>());
    let params = prop::collection::btree_map(name(), any::<i64>(), 0..4)
        .prop_map(|params| params.into_iter().collect());
    let variant = prop::option::of(quoted_text());
    let seed = prop::option::of(any::<u64>());
    (ruleset, variant, players, params, seed, start).prop_flat_map(
        |(ruleset, variant, players, params, seed, start)| {
            let header = Header {
                version: Some(1),
                ruleset,
                variant,
                players: players.clone(),
                params,
                seed,
                start,
                header_lines: HeaderLines::default(),
            };
            body(&players).prop_map(move |body| Trace {
                header: header.clone(),
                body,
            })
        },
    )
}

proptest! {
    // Failures are not saved: a regression file would land outside this module.
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        check_never_panics(&text);
    }

    #[test]
    fn notation_soup_never_panics(text in notation_soup()) {
        check_never_panics(&text);
    }

    #[test]
    fn mutated_traces_never_panic(
        edits in prop::collection::vec((any::<u8>(), any::<prop::sample::Index>(), mutation_char()), 1..8)
    ) {
        check_never_panics(&mutate(SAMPLE, &edits));
    }

    #[test]
    fn valid_traces_round_trip(trace in valid_trace()) {
        let text = trace.to_text();
        let reread = parse(&text).map_err(|errors| TestCaseError::fail(format!("{errors:?} in\n{text}")))?;
        prop_assert_eq!(without_locations(reread), trace);
    }
}

#[test]
fn problems_past_the_bound_are_counted_not_listed() {
    let body = "nobody: x\n".repeat(MAX_TRACE_ERRORS + 300);
    let errors = parse(&format!("{HEADER}{body}")).unwrap_err();
    assert_eq!(errors.len(), MAX_TRACE_ERRORS + 1);
    assert_eq!(
        errors[MAX_TRACE_ERRORS - 1].to_string(),
        format!(
            "line {}:1: unknown player 'nobody' (players are red, green, blue)",
            MAX_TRACE_ERRORS + 2
        )
    );
    assert_eq!(
        errors[MAX_TRACE_ERRORS].to_string(),
        format!(
            "line {}:1: and 300 more problems from here on, left out past the first {MAX_TRACE_ERRORS}: mend these first",
            MAX_TRACE_ERRORS + 3
        )
    );
}

#[test]
fn long_names_and_many_players_are_shown_short_in_messages() {
    let long = "a".repeat(2_000_000);
    let errors = parse(&format!(
        "ruleset x\nplayers {long} b {long}\n{}",
        "p1: x\n".repeat(3)
    ))
    .unwrap_err();
    let shown = format!("{}… (2000000 characters)", "a".repeat(40));
    let expected = [
        format!("line 2:2000012: player '{shown}' is listed twice"),
        format!("line 3:1: unknown player 'p1' (players are {shown}, b)"),
        format!("line 4:1: unknown player 'p1' (players are {shown}, b)"),
        format!("line 5:1: unknown player 'p1' (players are {shown}, b)"),
    ];
    assert_eq!(render(&Err(errors)), expected.join("\n"));
    // 200,000 names: read in time linear in them (as a list, each looked up at once).
    let names: Vec<String> = (1..=200_000).map(|i| format!("p{i}")).collect();
    let errors = parse(&format!(
        "ruleset x\nplayers {} p5\nzz: x\np200000: y\n",
        names.join(" ")
    ))
    .unwrap_err();
    let column = "players ".len() + names.join(" ").len() + 2;
    assert_eq!(
        render(&Err(errors)),
        format!("line 2:{column}: player 'p5' is listed twice\nline 3:1: unknown player 'zz' (players are p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, … (200000 in all))")
    );
}

#[test]
fn a_rule_reference_is_one_text_shared_by_the_steps_under_it() {
    let trace = parse(&format!(
        "{HEADER}rule \"{}\"\nchance: 1\nchance: 2\nchance: 3\n",
        "x".repeat(1000)
    ))
    .unwrap();
    let rules: Vec<&std::sync::Arc<str>> =
        trace.body.iter().filter_map(|l| l.rule.as_ref()).collect();
    assert_eq!(rules.len(), 3);
    assert!(rules.iter().all(|r| std::sync::Arc::ptr_eq(r, rules[0])));
}
