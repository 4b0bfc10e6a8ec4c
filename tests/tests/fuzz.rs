//! The fuzzing campaign: generated and mutated inputs of every kind must load, play and
//! round-trip, or fail with a clean error; none may panic or hang.
//!
//! - Generated rulesets (a grammar of the language: tables, state, zones, statements,
//!   decisions, chance, typed expressions) must load, play a seeded game to its end or to
//!   a clean runtime error, and round-trip every state they pass through a position file.
//! - Mutated rulesets (the shipped ones and the test cases, edited at random), mutated
//!   traces and mutated position files must load or be refused with an error.
//! - Expressions of any depth and size must evaluate or be refused.
//! - Hostile shapes (deep YAML flow nesting, long operator and index chains, long lists,
//!   huge counts, many names, long texts in rulesets and traces) must load and play, or
//!   be refused, within the interpreter's limits.
//! - The optimizer: generated rulesets, and every shipped ruleset and test case, play the
//!   same seeded game step by step with the optimizer on and off.
//!
//! The normal suite runs a sample of each target (`CASES` below). The campaign runs
//! `FRONTIER_FUZZ_CASES` cases per target: `FRONTIER_FUZZ_CASES=200000 cargo test --release
//! -p frontier-tests --test integration fuzz:: -- --ignored`. Every case is a seed: a
//! failure names it, and the same seed rebuilds the same input.

use std::cell::RefCell;
use std::path::PathBuf;

use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::frontier_grammar::trace::{parse as parse_trace, RulesetRef};
use frontier_interpreter::runner;
use frontier_interpreter::trace::{evaluate, replay, starting_state};
use frontier_interpreter::{
    load, load_with, load_with_params, Choice, Game, GameRng, Journal, Optimizer, RulesetSource,
    State, Status,
};
use frontier_tests::generate::{self, Gen};
use frontier_tests::*;

/// Cases per target in the normal suite.
const CASES: u64 = 400;

/// Steps a fuzzed game may take before the test stops it (a clean end, not a failure:
/// the interpreter's own limits bound each step).
const MAX_STEPS: u32 = 3_000;

fn campaign_cases() -> u64 {
    std::env::var("FRONTIER_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000)
}

/// Runs `case` for seeds `first..first + n`, reporting the first seed that panics.
fn run_cases(target: &str, n: u64, case: impl Fn(u64)) {
    let first = std::env::var("FRONTIER_FUZZ_FIRST")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0u64);
    // Keep where a case panicked: it is the report. The panic hook is the whole test
    // executable's, so it is set once, and panics outside the cases (other tests', this
    // report's) go on to the hook it replaced.
    thread_local!(static WHERE: RefCell<Option<String>> = const { RefCell::new(None) });
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let others = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_a_case = WHERE.with(|w| match &mut *w.borrow_mut() {
                Some(at) => {
                    *at = info
                        .location()
                        .map(|l| format!("{}:{}", l.file(), l.line()))
                        .unwrap_or_default();
                    true
                }
                None => false,
            });
            if !in_a_case {
                others(info);
            }
        }));
    });
    WHERE.with(|w| *w.borrow_mut() = Some(String::new()));
    let mut failure = None;
    for seed in first..first + n {
        // A panic is the failure looked for; nothing is reused after one.
        if let Err(e) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| case(seed))) {
            let message = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
            let at = WHERE.with(|w| w.borrow().clone()).unwrap_or_default();
            failure = Some((seed, format!("{} (at {at})", message.unwrap_or_default())));
            break;
        }
    }
    WHERE.with(|w| *w.borrow_mut() = None);
    if let Some((seed, message)) = failure {
        panic!(
            "{target}: case {seed} failed (rerun it with FRONTIER_FUZZ_FIRST={seed}):\n{message}"
        );
    }
}

/// With `FRONTIER_FUZZ_DUMP=DIR`, writes a case's input (a mutated ruleset or position) to
/// DIR/case-SEED (to look at the input of a failing case).
fn dump(seed: u64, text: &str) {
    if let Some(dir) = std::env::var_os("FRONTIER_FUZZ_DUMP") {
        let _ = std::fs::write(
            std::path::Path::new(&dir).join(format!("case-{seed}")),
            text,
        );
    }
}

fn ruleset_source(text: String) -> RulesetSource {
    text_source("fuzz", "ruleset.yaml", text)
}

fn shipped(name: &str) -> Result<RulesetSource, String> {
    let dir = workspace().join("rulesets").join(name);
    if dir.join("ruleset.yaml").is_file() {
        Ok(source(&dir))
    } else {
        Err(format!("no ruleset {name}"))
    }
}

/// Plays a seeded game for up to `max_steps` steps, checking (with `round_trip`) that every
/// decision's state reads back from its position file. Runtime errors are clean ends; a
/// panic is the failure. Returns how many decisions were taken.
fn play_checked(game: &Game, players: usize, seed: u64, round_trip: bool, max_steps: u32) -> usize {
    let mut decisions = 0;
    let Ok(mut state) = game.start(names(players)) else {
        return decisions;
    };
    let mut agents: Vec<RandomAgent> = (0..players)
        .map(|p| RandomAgent::new(GameRng::derived(seed, p as u64 + 1)))
        .collect();
    let mut rng = GameRng::new(seed);
    for _ in 0..max_steps {
        let choice = match game.status(&state) {
            Status::Over(_) => return decisions,
            Status::Decision { player, .. } => {
                decisions += 1;
                if round_trip {
                    let yaml = game.state_to_yaml(&state);
                    let back = game.state_from_yaml(&yaml).unwrap_or_else(|e| {
                        panic!("a saved state does not read back: {e}\n{yaml}")
                    });
                    assert!(back == state, "a saved state reads back different:\n{yaml}");
                }
                let Some(view) = game.view(&state) else {
                    return decisions;
                };
                match agents[player as usize].decide(&view) {
                    Ok(i) => Choice::Option(i),
                    Err(_) => return decisions,
                }
            }
            Status::Chance(c) => runner::sample_chance(&state, c, &mut rng),
        };
        if game.apply(&mut state, choice, &mut Journal::off()).is_err() {
            return decisions;
        }
    }
    decisions
}

#[test]
fn generated_rulesets_load_play_and_round_trip() {
    generated_rulesets(CASES);
}

fn generated_rulesets(n: u64) {
    let played = std::sync::atomic::AtomicU64::new(0);
    run_cases("generated rulesets", n, |seed| {
        let text = generate::ruleset(seed);
        let game = load(&ruleset_source(text.clone()), &shipped)
            .unwrap_or_else(|e| panic!("a generated ruleset does not load:\n{e}\n{text}"));
        let players = game.meta.min_players as usize + (seed % 2) as usize;
        let players = players.min(game.meta.max_players as usize);
        if play_checked(&game, players, seed, true, MAX_STEPS) > 0 {
            played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    });
    // The generator must keep producing games that ask for decisions, or the campaign
    // stops testing play and position files.
    let played = played.into_inner();
    assert!(
        played * 3 >= n,
        "only {played} of {n} generated games reached a decision"
    );
}

// ---------------------------------------------------------------------------------------
// Mutations

/// Fragments a mutation may insert: pieces of the language and of YAML, and trouble.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    "- ",
    "\"",
    "'",
    "#",
    "\t",
    "\n",
    "  ",
    "@",
    "it",
    "none",
    "players",
    "len(",
    ")",
    "(",
    "9223372036854775807",
    "-9223372036854775808",
    "0",
    "-1",
    "1e400",
    "/ 0",
    "% 0",
    "+",
    "*",
    "and",
    "or",
    "not ",
    "if ",
    "then ",
    "else ",
    "=>",
    "extends: go-west\n",
    "per: [players, players]",
    "visibility: owner",
    "init: all",
    "repeat: 1000000000000",
    "while: \"true\"",
    "call: setup",
    "&a",
    "*a",
    "!!binary",
    "~",
    "\u{FEFF}",
    "é",
    "\0",
    "$",
    "{{",
    "}}",
    "{x}",
    "rule: ",
    "do: []",
    "seed 1",
    "chance: ",
    "assert ",
    "expect ",
    "reject ",
    "p1: ",
];

/// `text` with 1 to 4 random edits: deletions, insertions of fragments, a duplicated or
/// dropped line, a number made huge or negative.
fn mutate(g: &mut Gen, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + g.below(4) {
        let at = if chars.is_empty() {
            0
        } else {
            g.below(chars.len() + 1)
        };
        match g.below(6) {
            0 => {
                let end = (at + 1 + g.below(12)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            1 | 2 => {
                let piece = g.pick(FRAGMENTS);
                chars.splice(at..at, piece.chars());
            }
            3 => {
                // Duplicate or drop the line around `at`.
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let i = g.below(lines.len());
                    if g.chance(50) {
                        lines.insert(i, lines[i]);
                    } else {
                        lines.remove(i);
                    }
                }
                chars = lines.join("\n").chars().collect();
            }
            4 => {
                // A digit becomes a long run of digits.
                if let Some(i) = (at..chars.len()).find(|&i| chars[i].is_ascii_digit()) {
                    chars.splice(i..i + 1, "99999999999999999999".chars());
                }
            }
            _ => {
                if let Some(c) = chars.get_mut(at) {
                    *c = ['-', '0', 'x', ' ', ':', '"', '[', '9'][g.below(8)];
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// The ruleset texts to mutate: every shipped ruleset, every test case and every ruleset
/// of tests/rulesets (connect four's two encodings).
fn corpus() -> Vec<RulesetSource> {
    let mut out: Vec<RulesetSource> = ruleset_names()
        .iter()
        .filter_map(|n| shipped(n).ok())
        .collect();
    let cases = workspace().join("tests/cases");
    let mut dirs: Vec<PathBuf> = ["tests/cases", "tests/rulesets"]
        .iter()
        .flat_map(|folder| std::fs::read_dir(workspace().join(folder)).unwrap())
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        if dir.join("ruleset.yaml").is_file() {
            out.push(source(&dir));
        }
    }
    let mut broken: Vec<PathBuf> = std::fs::read_dir(cases.join("broken"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    broken.sort();
    out.extend(
        broken
            .iter()
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .map(|p| source(p)),
    );
    out
}

#[test]
fn mutated_rulesets_load_or_fail_cleanly() {
    mutated_rulesets(CASES);
}

fn mutated_rulesets(n: u64) {
    let corpus = corpus();
    run_cases("mutated rulesets", n, |seed| {
        let mut g = Gen::new(seed);
        let original = &corpus[g.below(corpus.len())];
        let mut src = original.clone();
        if !src.scripts.is_empty() && g.chance(30) {
            let i = g.below(src.scripts.len());
            src.scripts[i].1 = mutate(&mut g, &src.scripts[i].1);
        } else {
            src.text = mutate(&mut g, &src.text);
        }
        dump(seed, &src.text);
        if let Ok(game) = load(&src, &shipped) {
            let players = game.meta.min_players as usize;
            play_checked(&game, players, seed, false, MAX_STEPS);
        }
    });
}

/// Traces with their folder (for the positions they start from).
fn traces() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for name in ruleset_names() {
        let dir = workspace().join("rulesets").join(&name).join("traces");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "trace"))
            .collect();
        files.sort();
        out.extend(
            files
                .into_iter()
                .map(|f| (dir.clone(), std::fs::read_to_string(&f).unwrap())),
        );
    }
    out
}

#[test]
fn mutated_traces_check_or_fail_cleanly() {
    mutated_traces(CASES);
}

/// Games loaded once per (ruleset, parameters): a mutated trace mostly names a shipped
/// ruleset as it was, and loading one (its scripts compiled, its expressions optimized)
/// costs far more than replaying the trace. Loading itself is the mutated rulesets' target;
/// a header the mutation changed (another name, other parameters) still loads afresh.
#[derive(Default)]
struct Loaded(std::cell::RefCell<std::collections::HashMap<GameKey, Option<std::rc::Rc<Game>>>>);

/// A shipped ruleset's name and the parameters a trace sets.
type GameKey = (String, Vec<(String, i64)>);

impl Loaded {
    /// Entries kept at most: mutated parameter values are endless.
    const MAX: usize = 64;

    fn get(&self, name: &str, params: &[(String, i64)]) -> Option<std::rc::Rc<Game>> {
        let key = (name.to_string(), params.to_vec());
        if let Some(game) = self.0.borrow().get(&key) {
            return game.clone();
        }
        let game = shipped(name)
            .ok()
            .and_then(|src| load_with_params(&src, &shipped, params, Default::default()).ok())
            .map(std::rc::Rc::new);
        let mut cache = self.0.borrow_mut();
        if cache.len() >= Self::MAX {
            cache.clear();
        }
        cache.insert(key, game.clone());
        game
    }
}

fn mutated_traces(n: u64) {
    let traces = traces();
    let loaded = Loaded::default();
    run_cases("mutated traces", n, |seed| {
        let mut g = Gen::new(seed);
        let (dir, text) = &traces[g.below(traces.len())];
        let text = mutate(&mut g, text);
        let Ok(trace) = parse_trace(&text) else {
            return;
        };
        let RulesetRef::Name(name) = &trace.header.ruleset else {
            return;
        };
        let Some(game) = loaded.get(name, &trace.header.params) else {
            return;
        };
        let game = &*game;
        let Ok(start) = starting_state(game, &trace, |p| {
            std::fs::read_to_string(dir.join(p)).map_err(|e| e.to_string())
        }) else {
            return;
        };
        let _ = replay(game, &trace, start, |_| {});
    });
}

/// A position of a shipped game (`games`: every shipped ruleset, loaded once): a random
/// mid-game state, as a position file.
fn position_text<'a>(g: &mut Gen, games: &'a [Game]) -> (&'a Game, String) {
    let game = &games[g.below(games.len())];
    let players = game.meta.min_players as usize
        + g.below(1 + (game.meta.max_players - game.meta.min_players) as usize);
    let state = random_state(game, players, g.below(1000) as u64, g.below(60) as u64);
    let text = game.state_to_yaml(&state);
    (game, text)
}

#[test]
fn mutated_positions_load_or_fail_cleanly() {
    mutated_positions(CASES / 4);
}

fn mutated_positions(n: u64) {
    let games: Vec<Game> = ruleset_names()
        .iter()
        .map(|name| load_ruleset(name))
        .collect();
    run_cases("mutated positions", n, |seed| {
        let mut g = Gen::new(seed);
        let (game, text) = position_text(&mut g, &games);
        // Half of them hand-written style: without the continuation.
        let text = if g.chance(50) {
            text.split("continuation:")
                .next()
                .unwrap_or_default()
                .to_string()
        } else {
            text
        };
        let text = mutate(&mut g, &text);
        dump(seed, &text);
        if let Ok(state) = game.state_from_yaml(&text) {
            let mut s: State = state;
            let mut rng = GameRng::new(seed);
            for _ in 0..20 {
                let choice = match game.status(&s) {
                    Status::Over(_) => break,
                    Status::Decision { options, .. } if options > 0 => {
                        Choice::Option(rng.below(options as u64) as usize)
                    }
                    Status::Decision { .. } => break,
                    Status::Chance(c) => runner::sample_chance(&s, c, &mut rng),
                };
                if game.apply(&mut s, choice, &mut Journal::off()).is_err() {
                    break;
                }
            }
            let _ = game.render_state(&s, Some(0));
        }
    });
}

// ---------------------------------------------------------------------------------------
// Expressions

/// An expression from a grammar with deep nesting, long chains and wrong types, as text.
fn expression(g: &mut Gen, depth: usize) -> String {
    if depth == 0 || g.chance(25) {
        return g
            .pick(&[
                "1",
                "0",
                "-1",
                "9223372036854775807",
                "none",
                "true",
                "active",
                "players",
                "regions",
                "@east",
                "it",
                "hand[active]",
                "wagons[@east]",
                "deck",
                "len(deck)",
                "\"text\"",
                "[]",
                "[1, 2]",
                "tokens[red]",
                "nosuch",
                "regions[\"east\"]",
                "cards",
                "vp",
                "(",
                "",
            ])
            .to_string();
    }
    let d = depth - 1;
    match g.below(12) {
        0 => format!("({})", expression(g, d)),
        1 => format!(
            "{} {} {}",
            expression(g, d),
            g.pick(&["+", "-", "*", "/", "%", "==", "<", "and", "or", "in"]),
            expression(g, d)
        ),
        2 => format!("not {}", expression(g, d)),
        3 => format!("-{}", expression(g, d)),
        4 => format!(
            "{}({})",
            g.pick(&[
                "len", "sum", "max", "min", "abs", "first", "count", "sort_by", "text", "pad"
            ]),
            expression(g, d)
        ),
        5 => format!(
            "{}({}, x => {})",
            g.pick(&["map", "filter", "any", "all", "argmax", "sum", "count_if"]),
            expression(g, d),
            expression(g, d)
        ),
        6 => format!(
            "if {} then {} else {}",
            expression(g, d),
            expression(g, d),
            expression(g, d)
        ),
        7 => format!("{}[{}]", expression(g, d), expression(g, d)),
        8 => format!(
            "{}.{}",
            expression(g, d),
            g.pick(&["id", "name", "track", "west", "cost", "x"])
        ),
        // Very deep nesting and very long chains.
        9 => format!(
            "{}1{}",
            "(".repeat(g.below(3000)),
            ")".repeat(g.below(3000))
        ),
        10 => vec!["1"; 1 + g.below(5000)].join(" + "),
        _ => format!("{}{}", "-".repeat(g.below(200)), expression(g, d)),
    }
}

#[test]
fn expressions_of_any_depth_evaluate_or_fail_cleanly() {
    expressions(CASES * 5);
}

fn expressions(n: u64) {
    let game = load_ruleset("go-west");
    let state = game
        .start(vec!["red".into(), "green".into(), "blue".into()])
        .unwrap();
    run_cases("expressions", n, |seed| {
        let mut g = Gen::new(seed);
        let text = expression(&mut g, 6);
        let _ = evaluate(&game, &state, &text);
    });
}

// ---------------------------------------------------------------------------------------
// Hostile shapes

/// A size: mostly small, sometimes large, rarely at the scale of a hostile input (the
/// reproductions of the hardening work: deep nesting, long chains, many names).
fn size(g: &mut Gen) -> usize {
    match g.below(10) {
        0..=5 => 1 + g.below(64),
        6..=8 => 1 + g.below(4_000),
        _ => 1 + g.below(40_000),
    }
}

/// A count a statement or built-in is asked for, from none to far beyond any state.
fn huge(g: &mut Gen) -> &'static str {
    g.pick(&[
        "0",
        "1",
        "65535",
        "65536",
        "2147483648",
        "1000000000000000000",
        "9223372036854775807",
        "-9223372036854775808",
    ])
}

/// A two-player ruleset around `play` (YAML lines at two spaces) with `extra` top-level
/// declarations.
fn with_play(extra: &str, play: &str) -> String {
    format!("frontier: 1\nname: hostile\nplayers: [2, 2]\n{extra}play:\n{play}\nranking:\n  score: \"0\"\n")
}

/// A ruleset of one of the shapes that hostile inputs take: deep YAML flow nesting, long
/// `and`/`or`/operator/index chains, long list literals, deep brackets, huge counts in
/// statements and built-ins, many declared names, long texts.
fn hostile_ruleset(g: &mut Gen) -> String {
    let n = size(g);
    let deck = "tables:\n  cards:\n    columns: { v: int }\n    rows: [[c1, 1], [c2, 2], [c3, 3]]\nzones:\n  deck: { of: cards, init: all }\n  pile: { of: cards }\n";
    match g.below(12) {
        0 => {
            let (open, close) = if g.chance(50) { ("[", "]") } else { ("{a: ", "}") };
            format!("frontier: 1\nname: deep\nsummary: {}1{}\n", open.repeat(n), close.repeat(n))
        }
        1 => {
            let op = g.pick(&[" and ", " or ", " + ", " == ", " < "]);
            let term = if op.contains('a') || op.contains('o') { "true" } else { "1" };
            with_play("", &format!("  - if: \"{}\"\n    then: [ end_game ]", vec![term; n].join(op)))
        }
        2 => with_play("", &format!("  - let: {{ x: \"players{}\" }}", "[0]".repeat(n))),
        3 => with_play("", &format!("  - let: {{ x: \"len([{}])\" }}", vec!["1"; n].join(", "))),
        4 => with_play("", &format!("  - let: {{ x: \"{}1{}\" }}", "(".repeat(n), ")".repeat(n))),
        5 => with_play(
            deck,
            &format!("  - draw: {{ from: deck, to: {}, count: {} }}", g.pick(&["deck", "pile"]), huge(g)),
        ),
        6 => with_play(
            "",
            &format!("  - repeat: {}\n    do: [ {{ let: {{ x: \"1\" }} }} ]", huge(g)),
        ),
        7 => with_play(
            "",
            &format!(
                "  - let: {{ x: \"{}(range(1, {}), a => {}(range(1, {}), b => a < b))\" }}",
                g.pick(&["count_if", "any", "all", "map", "filter"]),
                huge(g),
                g.pick(&["count_if", "any", "all"]),
                huge(g)
            ),
        ),
        8 => {
            let state: String = (0..n).map(|i| format!("  v{i}: {{ init: {i} }}\n")).collect();
            with_play(&format!("state:\n{state}"), "  - set: { v0: 1 }")
        }
        9 => {
            let functions: String = (0..n)
                .map(|i| format!("  f{i}: {{ args: [], body: \"{}\" }}\n", if i == 0 { "1".to_string() } else { format!("f{}() + f{}()", i - 1, i - 1) }))
                .collect();
            with_play(&format!("functions:\n{functions}"), &format!("  - let: {{ x: \"f{}()\" }}", n - 1))
        }
        10 => {
            let rows: String = (0..n).map(|i| format!("      - [r{i}, {i}]\n")).collect();
            with_play(
                &format!("tables:\n  t:\n    columns: {{ v: int }}\n    rows:\n{rows}zones:\n  z: {{ of: t, per: [t, t] }}\n"),
                "  - let: { x: \"1\" }",
            )
        }
        _ => with_play(
            "",
            &format!(
                "  - let: {{ l: \"range(1, {})\" }}\n  - repeat: {}\n    do: [ {{ set: {{ l: \"concat(l, l)\" }} }} ]",
                1 + g.below(100_000),
                g.below(80)
            ),
        ),
    }
}

/// A trace of one of the hostile shapes: many player names, long names, long rule texts,
/// long assertion chains.
fn hostile_trace(g: &mut Gen) -> String {
    let n = size(g);
    let head =
        |players: &str| format!("frontier-trace 1\nruleset go-west\nplayers {players}\nseed 1\n\n");
    match g.below(4) {
        0 => head(
            &(0..n)
                .map(|i| format!("p{i}"))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        1 => head(&format!("{} b", "a".repeat(n * 16))),
        2 => format!(
            "{}{}",
            head("a b"),
            (0..g.below(300))
                .map(|_| format!("rule \"{}\"\na: x\n", "r".repeat(n)))
                .collect::<String>()
        ),
        _ => format!("{}assert {}\n", head("a b"), vec!["true"; n].join(" and ")),
    }
}

#[test]
fn hostile_shapes_load_and_play_or_fail_cleanly() {
    hostile_shapes(CASES / 4);
}

/// Hostile rulesets load and play a few steps, or are refused; hostile traces parse and
/// replay, or are refused: never a panic, a stack overflow or an endless run (the work,
/// size and nesting limits bound each).
fn hostile_shapes(n: u64) {
    let go_west = load_ruleset("go-west");
    run_cases("hostile shapes", n, |seed| {
        let mut g = Gen::new(seed);
        if g.chance(75) {
            let text = hostile_ruleset(&mut g);
            dump(seed, &text);
            if let Ok(game) = load(&ruleset_source(text), &shipped) {
                play_checked(&game, 2, seed, false, 20);
            }
        } else {
            let text = hostile_trace(&mut g);
            dump(seed, &text);
            let Ok(trace) = parse_trace(&text) else {
                return;
            };
            let Ok(start) = starting_state(&go_west, &trace, |_| Err("no files".into())) else {
                return;
            };
            let _ = replay(&go_west, &trace, start, |_| {});
        }
    });
}

// ---------------------------------------------------------------------------------------
// Optimized and unoptimized

/// A ruleset loaded with the optimizer on and off: `Ok(None)` when both refuse it with the
/// same message, an error when loading differs.
fn load_both(source: &RulesetSource) -> Result<Option<(Game, Game)>, String> {
    let load_as = |optimizer| {
        load_with(source, &shipped, &[], Default::default(), optimizer).map_err(|e| e.to_string())
    };
    match (load_as(Optimizer::On), load_as(Optimizer::Off)) {
        (Ok(fast), Ok(plain)) => Ok(Some((fast, plain))),
        (fast, plain) => agree("loading", 0, fast.err(), plain.err()).map(|_| None),
    }
}

/// Plays one seeded game on the optimized IR of a ruleset (`fast`) and on its IR as
/// lowered (`plain`, the optimizer off), step by step, and returns the first difference:
/// in what the state waits for, the options offered and their labels, the log, the state,
/// an error's message, the outcome, the statistics or the display. The optimizer must
/// never change what a game does. Returns the steps played when they agree.
fn optimized_and_plain_agree(
    fast: &Game,
    plain: &Game,
    players: usize,
    seed: u64,
) -> Result<u32, String> {
    let (mut fast_log, mut plain_log) = (Vec::new(), Vec::new());
    let started = (
        fast.start_logged(names(players), &mut Journal::on(&mut fast_log))
            .map_err(|e| e.to_string()),
        plain
            .start_logged(names(players), &mut Journal::on(&mut plain_log))
            .map_err(|e| e.to_string()),
    );
    let (mut a, mut b) = match started {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => return agree("the start", 0, a.err(), b.err()).map(|_| 0),
    };
    let mut agent = RandomAgent::new(GameRng::derived(seed, 1));
    let mut rng = GameRng::new(seed);
    for step in 0..MAX_STEPS {
        agree("the log", step, &fast_log, &plain_log)?;
        agree("the state", step, &a, &b)?;
        let (status, plain_status) = (fast.status(&a), plain.status(&b));
        agree("what the state waits for", step, status, plain_status)?;
        let choice = match status {
            Status::Over(_) => {
                let stats = |game: &Game, s: &State| {
                    format!("{:?}", game.stats(s).map_err(|e| e.to_string()))
                };
                agree("the statistics", step, stats(fast, &a), stats(plain, &b))?;
                agree(
                    "the display",
                    step,
                    fast.render_state(&a, None),
                    plain.render_state(&b, None),
                )?;
                return Ok(step);
            }
            Status::Decision { .. } => {
                let labels =
                    |game: &Game, s: &State| game.option_labels(s).map_err(|e| e.to_string());
                agree("the options", step, labels(fast, &a), labels(plain, &b))?;
                let prompt = |game: &Game, s: &State| game.prompt(s).map_err(|e| e.to_string());
                agree("the prompt", step, prompt(fast, &a), prompt(plain, &b))?;
                let Some(view) = fast.view(&a) else {
                    return Ok(step);
                };
                match agent.decide(&view) {
                    Ok(i) => Choice::Option(i),
                    Err(_) => return Ok(step),
                }
            }
            Status::Chance(c) => runner::sample_chance(&a, c, &mut rng),
        };
        let applied = fast
            .apply(&mut a, choice.clone(), &mut Journal::on(&mut fast_log))
            .map_err(|e| e.to_string());
        let plain_applied = plain
            .apply(&mut b, choice, &mut Journal::on(&mut plain_log))
            .map_err(|e| e.to_string());
        agree("applying the step", step, &applied, &plain_applied)?;
        if applied.is_err() {
            agree("the log", step, &fast_log, &plain_log)?;
            return Ok(step);
        }
    }
    Ok(MAX_STEPS)
}

/// `Ok` when the optimized game's `fast` and the plain game's `plain` are the same.
fn agree<T: std::fmt::Debug>(what: &str, step: u32, fast: T, plain: T) -> Result<(), String> {
    let (fast, plain) = (format!("{fast:#?}"), format!("{plain:#?}"));
    if fast == plain {
        return Ok(());
    }
    let at = fast
        .lines()
        .zip(plain.lines())
        .position(|(f, p)| f != p)
        .unwrap_or(0);
    let around = |text: &str| {
        text.lines()
            .skip(at.saturating_sub(3))
            .take(8)
            .collect::<Vec<_>>()
            .join("\n")
    };
    Err(format!(
        "step {step}: {what} differs with the optimizer on and off, from line {}:\n--- optimized\n{}\n--- unoptimized\n{}",
        at + 1,
        around(&fast),
        around(&plain)
    ))
}

#[test]
fn optimizer_keeps_generated_games_the_same() {
    optimizer_on_generated_rulesets(CASES);
}

fn optimizer_on_generated_rulesets(n: u64) {
    run_cases("the optimizer on generated rulesets", n, |seed| {
        let text = generate::ruleset(seed);
        dump(seed, &text);
        let agreed = load_both(&ruleset_source(text.clone())).and_then(|games| match games {
            Some((fast, plain)) => {
                optimized_and_plain_agree(&fast, &plain, fast.meta.min_players as usize, seed)
            }
            None => Ok(0),
        });
        if let Err(e) = agreed {
            panic!("{e}\n{text}");
        }
    });
}

/// Every shipped ruleset, test case and ruleset of tests/rulesets, at every player count,
/// two seeds each.
#[test]
fn optimizer_keeps_shipped_games_and_cases_the_same() {
    let corpus: Vec<RulesetSource> = corpus()
        .into_iter()
        .filter(|s| !s.origin.contains("broken"))
        .collect();
    let mut played = 0;
    for src in &corpus {
        let Some((fast, plain)) = load_both(src).unwrap_or_else(|e| panic!("{}: {e}", src.origin))
        else {
            continue;
        };
        for players in fast.meta.min_players as usize..=fast.meta.max_players as usize {
            for seed in 1..=2 {
                played +=
                    optimized_and_plain_agree(&fast, &plain, players, seed).unwrap_or_else(|e| {
                        panic!("{} with {players} players, seed {seed}: {e}", src.origin)
                    });
            }
        }
    }
    // The five games alone take some 7,600 steps (Circle the Wagons' about 20 a game).
    assert!(played > 7_000, "only {played} steps were compared");
}

// ---------------------------------------------------------------------------------------
// The campaign

/// Every target with FRONTIER_FUZZ_CASES cases each (1,000,000 by default): run it in a
/// release build, e.g. `FRONTIER_FUZZ_CASES=200000 cargo test --release -p frontier-tests
/// --test integration fuzz:: -- --ignored --test-threads 2`.
#[test]
#[ignore = "the long campaign: run with --ignored"]
fn campaign_generated_rulesets() {
    generated_rulesets(campaign_cases());
}

#[test]
#[ignore = "the long campaign: run with --ignored"]
fn campaign_mutated_rulesets() {
    mutated_rulesets(campaign_cases());
}

#[test]
#[ignore = "the long campaign: run with --ignored"]
fn campaign_mutated_traces() {
    mutated_traces(campaign_cases());
}

#[test]
#[ignore = "the long campaign: run with --ignored"]
fn campaign_mutated_positions() {
    mutated_positions(campaign_cases());
}

#[test]
#[ignore = "the long campaign: run with --ignored"]
fn campaign_optimizer() {
    optimizer_on_generated_rulesets(campaign_cases());
}

#[test]
#[ignore = "the long campaign: run with --ignored"]
fn campaign_expressions() {
    expressions(campaign_cases());
}

#[test]
#[ignore = "the long campaign: run with --ignored"]
fn campaign_hostile_shapes() {
    hostile_shapes(campaign_cases());
}
