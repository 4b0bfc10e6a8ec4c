//! Scripted terminal sessions: the `frontier` binary driven through stdin as a person
//! would type (undo, quit and resume, forced decisions, short forms), the Go West board
//! display, narrated scorings, and the messages of authoring mistakes. Expected values
//! come from the rulebooks or are worked out by hand in the comments.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("frontier-terminal-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) struct Run {
    pub(crate) out: String,
    pub(crate) err: String,
    pub(crate) code: i32,
}

/// Runs `frontier ARGS` in `dir` with `input` on stdin.
pub(crate) fn frontier(dir: &Path, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let output = child.wait_with_output().unwrap();
    let run = Run {
        out: String::from_utf8_lossy(&output.stdout).into_owned(),
        err: String::from_utf8_lossy(&output.stderr).into_owned(),
        code: output.status.code().unwrap_or(-1),
    };
    assert_ne!(run.code, 101, "frontier {args:?} panicked:\n{}", run.err);
    run
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The decision and chance lines of a trace (its body).
fn steps(trace: &str) -> Vec<String> {
    trace
        .lines()
        .filter(|l| l.starts_with("p1: ") || l.starts_with("p2: ") || l.starts_with("chance: "))
        .map(str::to_string)
        .collect()
}

const GO_WEST_2P: &[&str] = &[
    "play",
    "go-west",
    "--players",
    "2",
    "--seed",
    "1",
    "--agents",
    "human,random",
];

fn with(args: &[&str], more: &[&str]) -> Vec<String> {
    args.iter().chain(more).map(|s| s.to_string()).collect()
}

fn play(dir: &Path, more: &[&str], input: &str) -> Run {
    let args = with(GO_WEST_2P, more);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    frontier(dir, &args, input)
}

// Seed 1, two players: p1's first hand is gw-22 gw-43 gw-41 gw-14 gw-19 gw-15 gw-45
// (options 1-7 of the action decision, in hand order; 8 is score, 9-15 sell).

/// Answers piped in are read line by line as typed ones; when the pipe ends before the
/// game, the program says so and stops with exit 1, the human seat never played for: the
/// trace of the game so far checks clean and holds p1's two answers and nothing more for
/// p1: option 1 of the first decision is "one action", option 4 of the next the fourth
/// card of the hand, gw-14 (0 moves: p1's turn ends), then p2's random turn, and the
/// input ends at p1's next decision. Without --agents, a pipe seats random agents, which
/// the first line names.
#[test]
fn piped_answers_are_read_and_their_end_stops_the_game() {
    let dir = scratch("piped");
    let run = play(&dir, &[], "1\n4\n");
    assert_eq!(run.code, 1, "{}{}", run.out, run.err);
    assert!(
        run.out
            .starts_with("Go West! — 2 players (human, random), seed 1\n"),
        "{}",
        &run.out[..80]
    );
    assert!(
        run.err.starts_with("error: input ended before the game did; the game so far (")
            && run.err.contains(" steps) is in frontier-go-west-1.trace: go on with `frontier play --resume frontier-go-west-1.trace`"),
        "{}",
        run.err
    );
    assert!(!run.out.contains("winner"), "{}", run.out);
    let trace = read(&dir.join("frontier-go-west-1.trace"));
    let body: Vec<&str> = trace.lines().filter(|l| l.starts_with("p1: ")).collect();
    assert_eq!(body, ["p1: one action", "p1: play card:gw-14"], "{trace}");
    let last = trace
        .lines()
        .rev()
        .find(|l| l.starts_with("p1: ") || l.starts_with("p2: "))
        .unwrap();
    assert!(last.starts_with("p2: "), "p2 played its turn: {trace}");
    let check = frontier(&dir, &["check", "frontier-go-west-1.trace"], "");
    assert_eq!(check.code, 0, "{}{}", check.out, check.err);

    let default = frontier(
        &dir,
        &["play", "go-west", "--players", "2", "--seed", "1"],
        "1\n",
    );
    assert_eq!(default.code, 0, "{}", default.err);
    assert!(
        default
            .out
            .starts_with("Go West! — 2 players (random, random), seed 1\n"),
        "{}",
        &default.out[..80]
    );
}

#[test]
fn options_say_what_the_cards_are() {
    let dir = scratch("options");
    let run = play(&dir, &[], "1\nq\n");
    // rulesets/go-west/ruleset.yaml: gw-22 is [great-plains, 2 tokens, 0 extra, 1 move, cost 2],
    // gw-45 is [west, 2, 0, 0, 1].
    assert!(
        run.out
            .contains("   1. play card:gw-22 — Great Plains: 2 tokens, 1 move, cost 2\n"),
        "{}",
        run.out
    );
    assert!(
        run.out
            .contains("  15. sell card:gw-45 — West: 2 tokens, 0 moves, cost 1\n"),
        "{}",
        run.out
    );
    assert!(run.out.contains("   8. score\n"), "{}", run.out);
}

#[test]
fn undo_goes_back_to_the_previous_decision_and_the_game_goes_on_as_if_it_never_was() {
    let dir = scratch("undo");
    // One action, play gw-22 (its one move is forced), p2 plays; at p1's next decision,
    // undo: back to p1's action decision; play gw-14 instead; quit at p1's next decision.
    let undone = play(&dir, &["--trace-out", "undone.trace"], "1\n1\nu\n4\nq\n");
    assert!(
        undone
            .out
            .contains("undone: back to p1's previous decision"),
        "{}",
        undone.out
    );
    // The same game without the detour.
    let straight = play(&dir, &["--trace-out", "straight.trace"], "1\n4\nq\n");
    let (a, b) = (
        read(&dir.join("undone.trace")),
        read(&dir.join("straight.trace")),
    );
    assert_eq!(a, b);
    let body = steps(&a);
    assert_eq!(
        body[1..3],
        [
            "p1: one action".to_string(),
            "p1: play card:gw-14".to_string()
        ]
    );
    assert!(
        !a.contains("gw-22\np1") && !a.contains("play card:gw-22"),
        "{a}"
    );
    assert_eq!(straight.code, 0);
}

#[test]
fn undo_at_the_first_decision_says_there_is_nothing_to_undo() {
    let dir = scratch("undo-first");
    let run = play(&dir, &["--trace-out", "t.trace"], "u\nq\n");
    assert!(
        run.out
            .contains("nothing to undo: this is p1's first decision"),
        "{}",
        run.out
    );
    // Only the setup's shuffle was played.
    assert_eq!(steps(&read(&dir.join("t.trace"))).len(), 1);
}

#[test]
fn quit_then_resume_plays_the_same_game_as_without_quitting() {
    let dir = scratch("resume");
    let ones = "1\n".repeat(400);
    let whole = play(&dir, &["--trace-out", "whole.trace"], &ones);
    assert!(
        whole.out.contains("final scores ("),
        "the game ends: {}",
        whole.out
    );
    let quit = play(
        &dir,
        &["--trace-out", "part.trace"],
        &format!("{}q\n", "1\n".repeat(10)),
    );
    assert!(
        quit.out
            .contains("go on with `frontier play --resume part.trace`"),
        "{}",
        quit.out
    );
    assert_eq!(quit.code, 0);
    let part = read(&dir.join("part.trace"));
    assert!(!part.contains("expect over"), "an unfinished game: {part}");
    let resumed = frontier(
        &dir,
        &[
            "play",
            "--resume",
            "part.trace",
            "--trace-out",
            "resumed.trace",
        ],
        &ones,
    );
    assert_eq!(resumed.code, 0, "{}", resumed.err);
    assert!(
        resumed.out.contains("resumed from part.trace"),
        "{}",
        resumed.out
    );
    assert_eq!(
        read(&dir.join("resumed.trace")),
        read(&dir.join("whole.trace"))
    );
    // and the trace checks
    let check = frontier(&dir, &["check", "resumed.trace"], "");
    assert_eq!(check.code, 0, "{}{}", check.out, check.err);
}

#[test]
fn resume_never_writes_its_input() {
    // A trace with the author's comment and chance left to the seed, as `check` reads
    // it: resumed, it stays byte for byte as it was; the game goes on into a new file.
    let dir = scratch("resume-input");
    let quit = play(
        &dir,
        &["--trace-out", "part.trace"],
        &format!("{}q\n", "1\n".repeat(10)),
    );
    assert_eq!(quit.code, 0, "{}", quit.err);
    let written = read(&dir.join("part.trace"));
    let mut hand = String::from("# the author's comment\n");
    for line in written.lines().filter(|l| !l.starts_with("chance:")) {
        hand.push_str(line);
        hand.push('\n');
    }
    std::fs::write(dir.join("part.trace"), &hand).unwrap();
    let check = frontier(&dir, &["check", "part.trace"], "");
    assert_eq!(
        check.code, 0,
        "check accepts it: {}{}",
        check.out, check.err
    );
    let ones = "1\n".repeat(400);
    let resumed = frontier(&dir, &["play", "--resume", "part.trace"], &ones);
    assert_eq!(resumed.code, 0, "{}{}", resumed.out, resumed.err);
    assert_eq!(
        read(&dir.join("part.trace")),
        hand,
        "the input is unchanged"
    );
    let out = read(&dir.join("part-resumed.trace"));
    assert!(
        out.contains("expect over"),
        "the game went on into part-resumed.trace"
    );
    let same = frontier(
        &dir,
        &[
            "play",
            "--resume",
            "part.trace",
            "--trace-out",
            "part.trace",
        ],
        &ones,
    );
    assert_eq!(same.code, 1, "--trace-out naming the input is refused");
    assert_eq!(read(&dir.join("part.trace")), hand);
}

#[test]
fn resume_reads_forced_and_seeded_chance_as_check_does() {
    // Two cards forced on top of the shuffled deck, the rest left to the seed, and an
    // assertion before it: check accepts it, and resume goes on from the same deal.
    let dir = scratch("resume-chance");
    let text = "frontier-trace 1\nruleset go-west\nplayers red green blue\nseed 3\n\nassert len(hand[red]) == 0\nchance: gw-40 gw-03 ...\nassert count(hand[red], cards[\"gw-40\"]) == 1\nred: one action\n";
    std::fs::write(dir.join("forced.trace"), text).unwrap();
    let check = frontier(&dir, &["check", "forced.trace"], "");
    assert_eq!(check.code, 0, "{}{}", check.out, check.err);
    let resumed = frontier(
        &dir,
        &[
            "play",
            "--resume",
            "forced.trace",
            "--agents",
            "random,random,random",
        ],
        "",
    );
    assert_eq!(resumed.code, 0, "{}{}", resumed.out, resumed.err);
    let out = read(&dir.join("forced-resumed.trace"));
    let deal = out.lines().find(|l| l.starts_with("chance:")).unwrap();
    assert!(deal.starts_with("chance: gw-40 gw-03 "), "{deal}");
    let check = frontier(&dir, &["check", "forced-resumed.trace"], "");
    assert_eq!(check.code, 0, "{}{}", check.out, check.err);
}

#[test]
fn quit_without_trace_out_names_the_file_it_writes() {
    let dir = scratch("quit-default");
    let run = play(&dir, &[], "q\n");
    assert!(
        run.out.contains("is in frontier-go-west-1.trace"),
        "{}",
        run.out
    );
    assert!(dir.join("frontier-go-west-1.trace").is_file());
}

#[test]
fn a_decision_with_one_option_is_taken_for_a_person() {
    let dir = scratch("forced");
    // gw-22 has one move and only New England holds wagons: the move is forced.
    let run = play(&dir, &["--trace-out", "t.trace"], "1\n1\nq\n");
    assert!(
        run.out
            .contains("p1 has a single option, taken for them:\np1: move wagon from:new-england\n"),
        "{}",
        run.out
    );
    assert!(read(&dir.join("t.trace"))
        .contains("p1: play card:gw-22\np1: move wagon from:new-england\n"));
    // --confirm-forced asks anyway: quitting there leaves the move out of the trace.
    let asked = play(
        &dir,
        &["--trace-out", "asked.trace", "--confirm-forced"],
        "1\n1\nq\n",
    );
    assert!(
        asked.out.contains(
            "p1, Move a wagon one region west (move 1 of 1)\n   1. move wagon from:new-england\n"
        ),
        "{}",
        asked.out
    );
    let trace = read(&dir.join("asked.trace"));
    assert!(trace.ends_with("p1: play card:gw-22\n"), "{trace}");
}

#[test]
fn typed_labels_and_short_forms() {
    let dir = scratch("short");
    let run = play(
        &dir,
        &["--trace-out", "t.trace"],
        "one\ngw-22\nsell gw-99\nplay gw-2\nplay gw-22\nq\n",
    );
    // `gw-22` is in two labels (play and sell), `sell gw-99` in none, `play gw-2` starts
    // gw-22 only (no other card of the hand starts with gw-2).
    assert!(
        run.out
            .contains("'gw-22' fits 2 options: 1. play card:gw-22 | 9. sell card:gw-22"),
        "{}",
        run.out
    );
    assert!(
        run.out.contains("'sell gw-99' is not one of the options"),
        "{}",
        run.out
    );
    let trace = read(&dir.join("t.trace"));
    let body = steps(&trace);
    assert_eq!(
        body[1..3],
        [
            "p1: one action".to_string(),
            "p1: play card:gw-22".to_string()
        ],
        "{trace}"
    );
}

#[test]
fn help_lists_the_commands() {
    let dir = scratch("help");
    let run = play(&dir, &[], "help\nq\n");
    for command in [
        "?",
        "u, undo",
        "q, quit",
        "l, list",
        "same dice and cards come up again",
    ] {
        assert!(
            run.out.contains(command),
            "help lacks {command}: {}",
            run.out
        );
    }
}

#[test]
fn agents_alone_set_the_player_count() {
    let dir = scratch("agents");
    let run = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--seed",
            "1",
            "--agents",
            "random,random,random",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out
            .starts_with("Go West! — 3 players (random, random, random), seed 1\n"),
        "{}",
        run.out
    );
    let mismatch = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--players",
            "2",
            "--agents",
            "random,random,random",
        ],
        "",
    );
    assert_eq!(mismatch.code, 2, "bad usage: {}", mismatch.err);
    assert!(
        mismatch
            .err
            .contains("--agents names 3 agents for 2 players"),
        "{}",
        mismatch.err
    );
    let bad = frontier(&dir, &["play", "go-west", "--agents", "robot,random"], "");
    assert_eq!(bad.code, 2, "bad usage: {}", bad.err);
}

#[test]
fn the_go_west_board_display() {
    let dir = scratch("display");
    let run = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--players",
            "3",
            "--seed",
            "1",
            "--agents",
            "human,random,random",
        ],
        "q\n",
    );
    // At the start (rulebook §3.4): 10 VP and 30 tokens each, all 20 wagons in New
    // England, empty tracks, 7 cards a hand and 56 - 21 = 35 in the deck.
    assert!(
        run.out.contains(
            "VP: p1:10 p2:10 p3:10 (the game ends at 50) | tokens in hand: p1:30 p2:30 p3:30"
        ),
        "{}",
        run.out
    );
    assert!(run.out.contains("Wagons, east to west: New England 20 > East 0 > Great Plains 0 > Midwest 0 > West 0 > California 0"));
    assert!(run
        .out
        .contains("Hands: p1:7 p2:7 p3:7 cards | deck 35 | discard 0"));
    // Only the four regions with a track have a track line.
    assert!(!run.out.contains("  New England  |"), "{}", run.out);
    insta::assert_snapshot!("go-west-display-3p-seed-1", run.out);
}

#[test]
fn the_board_display_after_some_turns() {
    let dir = scratch("display-later");
    let ones = "1\n".repeat(12);
    let run = play(&dir, &[], &format!("{ones}q\n"));
    insta::assert_snapshot!("go-west-2p-seed-1-after-12-answers", run.out);
}

#[test]
fn go_west_scorings_are_narrated_as_in_the_rulebook() {
    let dir = workspace();
    // §5.2 example 1: Great Plains, 4 wagons, 6 tokens: Green 3 VP, Red 1, Blue 0.
    let one = frontier(
        &dir,
        &["replay", "rulesets/go-west/traces/scoring-example-1.trace"],
        "",
    );
    assert!(
        one.out
            .contains("Great Plains scores (4 wagons, 6 tokens): red +1 green +3\n"),
        "{}",
        one.out
    );
    // §5.2 example 2: Midwest, 5 wagons, 7 tokens: Green, Red, Red, Red, Green; Blue 0.
    let two = frontier(
        &dir,
        &["replay", "rulesets/go-west/traces/scoring-example-2.trace"],
        "",
    );
    assert!(
        two.out
            .contains("Midwest scores (5 wagons, 7 tokens): red +3 green +2\n"),
        "{}",
        two.out
    );
    assert!(
        two.out
            .contains("green plays scoring card 1 (cost 1): every region scores\n"),
        "{}",
        two.out
    );
    let lines: Vec<&str> = two
        .out
        .lines()
        .filter(|l| l.contains(" scores (") || l.contains("scoring card"))
        .collect();
    insta::assert_snapshot!("go-west-scoring-example-2", lines.join("\n"));
}

#[test]
fn circle_the_wagons_narrates_each_scoring_card() {
    let dir = workspace();
    let run = frontier(
        &dir,
        &[
            "play",
            "circle-the-wagons",
            "--seed",
            "3",
            "--agents",
            "random,random",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.err);
    let narration: Vec<&str> = run
        .out
        .lines()
        .filter(|l| l.contains(" for ") || l.contains(" in all"))
        .collect();
    // Per player: territories, the three scoring cards of the game, the total.
    assert_eq!(narration.len(), 10, "{}", narration.join("\n"));
    insta::assert_snapshot!("circle-the-wagons-scoring-seed-3", narration.join("\n"));
}

#[test]
fn a_game_can_start_from_a_position() {
    let dir = scratch("from");
    let trace = workspace().join("rulesets/go-west/traces/setup.trace");
    let position = frontier(
        &dir,
        &["replay", trace.to_str().unwrap(), "--at", "3", "--state"],
        "",
    );
    assert_eq!(position.code, 0, "{}", position.err);
    std::fs::write(dir.join("pos.yaml"), &position.out).unwrap();
    let run = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--from",
            "pos.yaml",
            "--seed",
            "5",
            "--agents",
            "random,random,random",
            "--trace-out",
            "f.trace",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        read(&dir.join("f.trace")).contains("start position"),
        "the trace starts from the position"
    );
    let check = frontier(&dir, &["check", "f.trace"], "");
    assert_eq!(check.code, 0, "{}{}", check.out, check.err);
    let wrong = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--from",
            "pos.yaml",
            "--agents",
            "random,random",
        ],
        "",
    );
    assert_eq!(wrong.code, 2, "bad usage: {}", wrong.err);
    assert!(
        wrong.err.contains("--agents names 2 agents for 3 players"),
        "{}",
        wrong.err
    );
}

#[test]
fn resume_refuses_what_it_cannot_go_on_with() {
    let dir = scratch("resume-bad");
    let missing = frontier(&dir, &["play", "--resume", "none.trace"], "");
    assert_eq!(missing.code, 1);
    assert!(
        missing.err.contains("none.trace: no such file"),
        "{}",
        missing.err
    );
    // A trace whose shuffle is not the seed's.
    std::fs::write(
        dir.join("odd.trace"),
        "frontier-trace 1\nruleset go-west\nplayers a b\nseed 1\n\nchance: gw-01 gw-02\n",
    )
    .unwrap();
    let odd = frontier(
        &dir,
        &["play", "--resume", "odd.trace", "--agents", "random,random"],
        "",
    );
    assert_eq!(odd.code, 1, "{}", odd.out);
    let usage = frontier(&dir, &["play", "go-west", "--resume", "odd.trace"], "");
    assert_eq!(usage.code, 2, "a ruleset and --resume: bad usage");
}

// Authoring mistakes: one clear message each, exit code 1.

fn validate(dir: &Path, file: &str, text: &str) -> Run {
    std::fs::write(dir.join(file), text).unwrap();
    frontier(dir, &["validate", file], "")
}

#[test]
fn authoring_mistakes_get_one_clear_message_each() {
    let dir = scratch("authoring");
    let mut report = String::new();
    let mut case = |name: &str, run: Run| {
        assert_eq!(run.code, 1, "{name}: {}", run.err);
        report.push_str(&format!("## {name}\n{}", run.err));
    };
    case(
        "unknown parameter",
        validate(
            &dir,
            "typo.yaml",
            "extends: go-west\nname: typo\nparams:\n  hand_sise: 6\n",
        ),
    );
    case(
        "unknown base",
        validate(&dir, "base.yaml", "extends: go-wset\nname: typo\n"),
    );
    case(
        "parameter not a number",
        validate(
            &dir,
            "six.yaml",
            "extends: go-west\nname: six\nparams:\n  hand_size: \"six\"\n",
        ),
    );
    case(
        "unknown name indexed",
        validate(
            &dir,
            "vps.yaml",
            "extends: go-west\nname: vps\nranking:\n  score: \"vps[it]\"\n",
        ),
    );
    case(
        "tab",
        validate(
            &dir,
            "tab.yaml",
            "extends: go-west\nname: tab\nparams:\n\thand_size: 6\n",
        ),
    );
    std::fs::write(
        dir.join("b2.yaml"),
        "frontier: 1\nname: b2\nplayers: [2, 2]\nstate:\n  v: { init: 0 }\nplay:\n  - set: { v: \"zz\" }\nranking:\n  score: \"v\"\n",
    )
    .unwrap();
    case(
        "error in a base",
        validate(&dir, "v2.yaml", "extends: b2.yaml\nname: v2\n"),
    );
    std::fs::write(dir.join("t.trace"), "frontier-trace 1\nruleset go-west\nplayers a b\nseed 1\nassert vp[a] == 10 and tokens[a] == 29\n").unwrap();
    case(
        "failed assert of two parts",
        frontier(&dir, &["check", "t.trace"], ""),
    );
    std::fs::write(
        dir.join("bt.trace"),
        "frontier-trace 1\nruleset \"v2.yaml\"\nplayers a b\nseed 1\n",
    )
    .unwrap();
    case(
        "a trace of a variant whose base is broken",
        frontier(&dir, &["check", "bt.trace"], ""),
    );
    assert!(report.contains("did you mean 'hand_size'?"), "{report}");
    assert!(report.contains("did you mean 'go-west'?"), "{report}");
    assert!(
        report.contains("(in the base that v2.yaml extends)"),
        "{report}"
    );
    assert!(
        report.contains("vp[a] == 10 = yes; tokens[a] == 29 = no"),
        "{report}"
    );
    insta::assert_snapshot!("authoring-mistakes", report);
}

#[test]
fn show_prints_a_rulesets_files() {
    let dir = workspace();
    let run = frontier(&dir, &["show", "go-west"], "");
    assert_eq!(run.code, 0);
    assert_eq!(
        run.out,
        read(&dir.join("rulesets/go-west/ruleset.yaml")),
        "go-west has no scripts: its one file as it is"
    );
    let ctw = frontier(&dir, &["show", "circle-the-wagons"], "");
    assert!(
        ctw.out.starts_with("==> ruleset.yaml <==\n"),
        "{}",
        &ctw.out[..80]
    );
    assert!(
        ctw.out.contains("\n==> scripts/scoring.rhai <==\n"),
        "several files, each named"
    );
    let one = frontier(
        &dir,
        &[
            "show",
            "circle-the-wagons",
            "--file",
            "scripts/scoring.rhai",
        ],
        "",
    );
    assert_eq!(
        one.out,
        read(&dir.join("rulesets/circle-the-wagons/scripts/scoring.rhai"))
    );
    let none = frontier(&dir, &["show", "go-wset"], "");
    assert_eq!(none.code, 1);
    assert!(none.err.contains("did you mean 'go-west'?"), "{}", none.err);
}

/// An embedded ruleset carries its RULES.md and its traces/ (positions included): `show
/// --file` prints them as they are, from any folder; `show` without `--file` still prints
/// only ruleset.yaml and the scripts. A variant has none of them.
#[test]
fn show_prints_the_rules_map_and_traces_of_an_embedded_ruleset() {
    let dir = scratch("show-files");
    let rulesets = workspace().join("rulesets");
    for (ruleset, file) in [
        ("go-west", "RULES.md"),
        ("go-west", "traces/setup.trace"),
        ("go-west", "traces/positions/free-scoring-end.yaml"),
        ("circle-the-wagons", "RULES.md"),
    ] {
        let run = frontier(&dir, &["show", ruleset, "--file", file], "");
        assert_eq!(run.code, 0, "{ruleset} {file}: {}", run.err);
        assert_eq!(
            run.out,
            read(&rulesets.join(ruleset).join(file)),
            "{ruleset} {file}"
        );
    }
    let all = frontier(&dir, &["show", "go-west"], "");
    assert_eq!(all.out, read(&rulesets.join("go-west/ruleset.yaml")));
    let variant = frontier(
        &dir,
        &["show", "grand-junction-simplified", "--file", "RULES.md"],
        "",
    );
    assert_eq!(variant.code, 1);
    assert!(
        variant.err.contains(
            "grand-junction-simplified has no file 'RULES.md': its files are simplified.yaml"
        ),
        "{}",
        variant.err
    );
    let typo = frontier(&dir, &["show", "go-west", "--file", "RULES.d"], "");
    assert_eq!(typo.code, 1);
    assert!(
        typo.err.contains("(did you mean 'RULES.md'?)"),
        "{}",
        typo.err
    );
    assert!(typo.err.contains("traces/setup.trace"), "{}", typo.err);
}

/// docs/traces.md's first example, run as it says outside a clone: the trace saved as
/// end.trace, its position written beside it by `show`, then `check`.
#[test]
fn the_first_example_of_the_trace_docs_checks_outside_a_clone() {
    let dir = scratch("docs-example");
    let docs = read(&workspace().join("docs/traces.md"));
    let start = docs.find("```trace\n").expect("a trace example") + "```trace\n".len();
    let example = &docs[start..start + docs[start..].find("```").unwrap()];
    assert!(
        example.contains("start position \"free-scoring-end.yaml\""),
        "{example}"
    );
    std::fs::write(dir.join("end.trace"), example).unwrap();
    assert!(
        docs.contains("frontier show go-west --file traces/positions/free-scoring-end.yaml > free-scoring-end.yaml\nfrontier check end.trace\n"),
        "the commands this test runs are those the docs give"
    );
    let position = frontier(
        &dir,
        &[
            "show",
            "go-west",
            "--file",
            "traces/positions/free-scoring-end.yaml",
        ],
        "",
    );
    assert_eq!(position.code, 0, "{}", position.err);
    std::fs::write(dir.join("free-scoring-end.yaml"), &position.out).unwrap();
    let check = frontier(&dir, &["check", "end.trace"], "");
    assert_eq!(check.code, 0, "{}{}", check.out, check.err);
    assert!(check.out.starts_with("end.trace: ok"), "{}", check.out);
}

/// `--optimizer off` plays on the IR as lowered: the same games (seeded `simulate` prints
/// the same), which `bench` says it measured so; a value other than `on` or `off` is bad
/// usage.
#[test]
fn the_optimizer_switch_changes_no_game() {
    let dir = workspace();
    for (name, players) in [("go-west", "4"), ("way-out-west", "5"), ("gold-west", "3")] {
        let args = [
            "simulate",
            name,
            "--players",
            players,
            "--games",
            "12",
            "--seed",
            "5",
        ];
        let on = frontier(&dir, &args, "");
        let off = frontier(&dir, &[&args[..], &["--optimizer", "off"]].concat(), "");
        assert_eq!((on.code, off.code), (0, 0), "{}{}", on.err, off.err);
        assert!(on.out.contains("mean decisions per game"), "{}", on.out);
        assert_eq!(on.out, off.out, "{name}");
    }
    let decisions = |run: &Run| {
        run.out
            .lines()
            .find(|l| l.starts_with("decisions per game:"))
            .map(str::to_string)
    };
    let on = frontier(
        &dir,
        &["bench", "go-west", "--players", "3", "--seconds", "0.3"],
        "",
    );
    let off = frontier(
        &dir,
        &[
            "bench",
            "go-west",
            "--players",
            "3",
            "--seconds",
            "0.3",
            "--optimizer",
            "off",
        ],
        "",
    );
    assert_eq!((on.code, off.code), (0, 0), "{}{}", on.err, off.err);
    assert!(
        !on.out.contains("optimizer off") && off.out.contains("optimizer off"),
        "{}{}",
        on.out,
        off.out
    );
    assert!(
        decisions(&on).is_some() && decisions(&off).is_some(),
        "{}{}",
        on.out,
        off.out
    );
    let wrong = frontier(&dir, &["bench", "go-west", "--optimizer", "maybe"], "");
    assert_eq!(wrong.code, 2);
    assert!(
        wrong.err.contains("possible values: on, off"),
        "{}",
        wrong.err
    );
}

/// Compiled code plays the games the walker plays (`--compile off`), `bench` says which
/// ran, and a bad switch value is bad usage.
#[test]
fn the_compile_switch_changes_no_game() {
    let dir = workspace();
    let args = [
        "simulate",
        "go-west",
        "--players",
        "4",
        "--games",
        "12",
        "--seed",
        "5",
    ];
    let on = frontier(&dir, &args, "");
    let walked = frontier(&dir, &[&args[..], &["--compile", "off"]].concat(), "");
    assert_eq!((on.code, walked.code), (0, 0), "{}{}", on.err, walked.err);
    assert!(on.out.contains("mean decisions per game"), "{}", on.out);
    assert_eq!(on.out, walked.out);
    let back_end = |args: &[&str]| {
        let run = frontier(
            &dir,
            &[&["bench", "--players", "3", "--seconds", "0.2"], args].concat(),
            "",
        );
        assert_eq!(run.code, 0, "{}", run.err);
        run.out
            .lines()
            .find_map(|l| l.strip_prefix("back end:"))
            .map(|l| l.trim().to_string())
            .unwrap_or_default()
    };
    let compiled = back_end(&["go-west"]);
    assert!(
        compiled.starts_with("the IR walker with compiled code ("),
        "{compiled}"
    );
    assert_eq!(back_end(&["go-west", "--compile", "off"]), "the IR walker");
    assert!(back_end(&["go-west", "--optimizer", "off"]).starts_with("the IR walker with"));
    let wrong = frontier(&dir, &["bench", "go-west", "--compile", "maybe"], "");
    assert_eq!(wrong.code, 2);
    assert!(
        wrong.err.contains("possible values: on, off"),
        "{}",
        wrong.err
    );
}

#[test]
fn every_argument_has_help() {
    let dir = workspace();
    for command in [
        "validate", "describe", "show", "play", "simulate", "bench", "check", "replay", "new",
    ] {
        let run = frontier(&dir, &[command, "-h"], "");
        assert_eq!(run.code, 0);
        // clap lists each argument on a line of its own; one with no help ends there.
        for line in run.out.lines() {
            // Argument lines are indented by two spaces; wrapped help text by more.
            let t = line.trim_start();
            let is_argument = line.starts_with("  ")
                && !line.starts_with("   ")
                && (t.starts_with('<') || t.starts_with('-'));
            if is_argument {
                let words = t.split("  ").filter(|w| !w.trim().is_empty()).count();
                assert!(words >= 2, "frontier {command}: '{t}' has no help text");
            }
        }
    }
}

#[test]
fn the_docs_variant_that_replaces_a_procedure_validates_and_plays() {
    let docs = read(&workspace().join("docs/rulesets.md"));
    let start = docs
        .find("# sell-for-glory.yaml (an example)\n")
        .expect("the example is in docs/rulesets.md");
    let text = &docs[start..];
    let text = &text[..text.find("```").unwrap()];
    let dir = scratch("docs-variant");
    std::fs::write(dir.join("sell-for-glory.yaml"), text).unwrap();
    let valid = frontier(&dir, &["validate", "sell-for-glory.yaml"], "");
    assert_eq!(valid.code, 0, "{}", valid.err);
    let described = frontier(&dir, &["describe", "sell-for-glory.yaml"], "");
    assert!(described.out.contains("sell_card(card) — Sell a card: tokens back from the bank as far as its cost goes, and 1 VP."), "{}", described.out);
    let played = frontier(
        &dir,
        &[
            "play",
            "sell-for-glory.yaml",
            "--seed",
            "2",
            "--agents",
            "random,random",
        ],
        "",
    );
    assert_eq!(played.code, 0, "{}", played.err);
}

#[test]
fn internal_variables_are_not_shown_to_players() {
    let dir = scratch("internal");
    // Circle the Wagons declares `placing` (the card being placed) internal.
    let run = frontier(
        &dir,
        &[
            "play",
            "circle-the-wagons",
            "--seed",
            "1",
            "--agents",
            "human,random",
        ],
        "?\nq\n",
    );
    assert!(
        run.out.contains("territory_points: p1=0 p2=0"),
        "{}",
        run.out
    );
    assert!(!run.out.contains("placing:"), "{}", run.out);
    let trace = workspace().join("rulesets/circle-the-wagons/traces");
    let first = std::fs::read_dir(&trace)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "trace"))
        .min()
        .unwrap();
    let replayed = frontier(&dir, &["replay", first.to_str().unwrap(), "--at", "0"], "");
    assert!(
        replayed.out.contains("placing:"),
        "the whole state still shows it: {}",
        replayed.out
    );
}

#[test]
fn a_placement_typed_in_short() {
    let dir = scratch("placement");
    // Seed 1: p2 names c12 as p1's start; option 8 skips 7 cards and takes c15, which p1
    // then places: upright or turned at (0,0), the only spot of an empty town.
    let run = frontier(
        &dir,
        &[
            "play",
            "circle-the-wagons",
            "--seed",
            "1",
            "--agents",
            "human,random",
            "--trace-out",
            "t.trace",
        ],
        "8\nc15 turned 0 0\nq\n",
    );
    assert!(
        run.out.contains("   2. place c15 turned at (0,0)\n"),
        "{}",
        run.out
    );
    let trace = read(&dir.join("t.trace"));
    assert!(
        trace.contains("p1: skip 7 and take c15\np1: place c15 turned at (0,0)\n"),
        "{trace}"
    );
}

#[test]
fn resuming_a_finished_game_shows_its_result_and_leaves_the_trace() {
    let dir = scratch("resume-over");
    let sim = frontier(
        &dir,
        &[
            "simulate",
            "go-west",
            "--players",
            "2",
            "--games",
            "1",
            "--seed",
            "1",
            "--trace-out",
            "sim",
        ],
        "",
    );
    assert_eq!(sim.code, 0, "{}", sim.err);
    let before = read(&dir.join("sim/game-0001.trace"));
    let run = frontier(&dir, &["play", "--resume", "sim/game-0001.trace"], "");
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(run.out.contains("is over: nothing to play"), "{}", run.out);
    assert!(run.out.contains("final scores ("), "{}", run.out);
    assert_eq!(read(&dir.join("sim/game-0001.trace")), before);
}

#[test]
fn play_with_random_agents_is_the_game_simulate_plays_for_that_seed() {
    // The same ruleset, seed and agents give the same game whichever command runs it.
    let dir = scratch("same-game");
    let sim = frontier(
        &dir,
        &[
            "simulate",
            "go-west",
            "--players",
            "3",
            "--games",
            "1",
            "--seed",
            "4",
            "--trace-out",
            "sim",
        ],
        "",
    );
    assert_eq!(sim.code, 0, "{}", sim.err);
    let simulated = read(&dir.join("sim/game-0001.trace"));
    let seed = simulated
        .lines()
        .find_map(|l| l.strip_prefix("seed "))
        .unwrap()
        .to_string();
    let run = frontier(
        &dir,
        &[
            "play",
            "go-west",
            "--seed",
            &seed,
            "--agents",
            "random,random,random",
            "--trace-out",
            "p.trace",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.err);
    let played = read(&dir.join("p.trace"));
    assert_eq!(
        played.strip_prefix("# agents random,random,random\n"),
        Some(simulated.as_str())
    );
}

#[test]
fn the_circle_the_wagons_board_and_decision_fit_a_50_row_terminal() {
    let dir = scratch("fit");
    let run = frontier(
        &dir,
        &[
            "play",
            "circle-the-wagons",
            "--seed",
            "1",
            "--agents",
            "human,random",
        ],
        "q\n",
    );
    // The circle's cards (short rows) are packed several a line for a player.
    assert!(
        run.out
            .contains("\n  c12  Db Mc / Dw Df | c08  Dc Ww / Sp Mg | "),
        "{}",
        run.out
    );
    let lines: Vec<&str> = run.out.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("active: "))
        .unwrap();
    let prompt = lines
        .iter()
        .position(|l| l.contains("your choice"))
        .unwrap();
    assert!(
        prompt - start < 50,
        "{} rows from the board to the prompt:\n{}",
        prompt - start,
        run.out
    );
}

#[test]
fn search_agents_play_and_their_options_are_checked() {
    let dir = scratch("search-agents");
    let run = frontier(
        &dir,
        &[
            "play",
            "circle-the-wagons",
            "--seed",
            "4",
            "--agents",
            "mcts:iterations=30,c=1,random",
            "--trace-out",
            "full.trace",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out.contains("(mcts:iterations=30,c=1, random)"),
        "{}",
        run.out
    );
    // A search agent draws from its seed and the step number: resumed half-way, the game
    // goes on as it went.
    let full = read(&dir.join("full.trace"));
    let cut: String = full.lines().take(16).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("part.trace"), cut).unwrap();
    let run = frontier(
        &dir,
        &[
            "play",
            "--resume",
            "part.trace",
            "--trace-out",
            "resumed.trace",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert_eq!(steps(&read(&dir.join("resumed.trace"))), steps(&full));
    for (agents, says) in [
        (
            "mcts:iterations=abc,random",
            "iterations=abc: expected a whole number",
        ),
        ("mcts:depth=3,random", "unknown option 'depth'"),
        ("ismcts:c=-1,random", "c=-1: expected a number"),
        ("alphazero,random", "unknown agent 'alphazero'"),
    ] {
        let run = frontier(&dir, &["play", "circle-the-wagons", "--agents", agents], "");
        assert_eq!(run.code, 2, "--agents {agents}: {}", run.err);
        assert!(run.err.contains(says), "--agents {agents}: {}", run.err);
    }
}

/// `frontier new` makes a ruleset folder that validates, plays and whose trace checks;
/// it refuses to overwrite, and a path given as the name is answered with `--dir`.
#[test]
fn new_makes_a_ruleset_that_validates_plays_and_checks() {
    let dir = scratch("new");
    let made = frontier(&dir, &["new", "my-game"], "");
    assert_eq!(made.code, 0, "{}", made.err);
    for file in [
        "ruleset.yaml",
        "RULES.md",
        "traces/first-turns.trace",
        "ruleset.schema.json",
    ] {
        assert!(
            dir.join("my-game").join(file).is_file(),
            "new made no {file}"
        );
    }
    for args in [
        &["validate", "my-game"][..],
        &[
            "play",
            "my-game",
            "--seed",
            "1",
            "--agents",
            "random,random",
        ],
        &["check", "my-game/traces/first-turns.trace"],
    ] {
        let run = frontier(&dir, args, "");
        assert_eq!(run.code, 0, "frontier {args:?}:\n{}{}", run.out, run.err);
    }

    let again = frontier(&dir, &["new", "my-game"], "");
    assert_eq!(again.code, 1);
    assert!(again.err.contains("exists already"), "{}", again.err);

    let path = frontier(&dir, &["new", "games/my-game"], "");
    assert_eq!(path.code, 1);
    assert!(
        path.err
            .contains("to make my-game in games: frontier new my-game --dir games"),
        "{}",
        path.err
    );
    assert!(!dir.join("games").exists(), "a refused name made a folder");
    let elsewhere = frontier(&dir, &["new", "my-game", "--dir", "games"], "");
    assert_eq!(elsewhere.code, 0, "{}", elsewhere.err);
    assert!(dir.join("games/my-game/ruleset.yaml").is_file());
}

/// The RULES.md that `frontier new` writes is a clause map `check --coverage` reads: its
/// five clauses (§1, §2, §2.1, §2.2, §3) each name a rule reference of the ruleset, and
/// the first trace reaches them all (§2.x by its rolls and holds; §1 and §3 are declared
/// by `params`, `state` and `ranking`, which count as reached).
#[test]
fn new_writes_a_clause_map_that_coverage_reads() {
    let dir = scratch("new-coverage");
    let made = frontier(&dir, &["new", "my-game"], "");
    assert_eq!(made.code, 0, "{}", made.err);
    let run = frontier(&dir, &["check", "--coverage", "my-game"], "");
    assert_eq!(run.code, 0, "{}{}", run.out, run.err);
    assert!(!run.out.contains("no clause map"), "{}", run.out);
    assert!(
        run.out
            .contains("RULES.md: 5 clauses; 5 of the 5 that name a rule reference are reached"),
        "{}",
        run.out
    );
}

#[test]
fn check_takes_folders_with_coverage() {
    let dir = scratch("check-folder");
    let folder = workspace().join("rulesets/go-west/traces");
    let run = frontier(&dir, &["check", "--coverage", folder.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}{}", run.out, run.err);
    assert!(run.out.contains("double-action.trace: ok"), "{}", run.out);
    assert!(run.out.contains("coverage"), "{}", run.out);
}
