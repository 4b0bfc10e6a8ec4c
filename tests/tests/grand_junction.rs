//! Grand Junction rule cases: each file of rulesets/grand-junction/cases is a small scene —
//! a position (or a start from setup), the moves played, and the values the rulebook's
//! printed numbers give, worked out by hand in the file's `why:` (never computed by the
//! ruleset under test).
//!
//! A case file holds one case, or several under `cases:`. Keys:
//! - `ruleset`: `grand-junction` (default) or `grand-junction-simplified`;
//! - `params`: parameters set as a trace's `param` lines would;
//! - `players`: the seat names;
//! - `position`: a position (`vars`, `zones`, as docs/rulesets.md's appendix) — without it the
//!   game starts with its setup;
//! - `seed`: resolves the chance points the steps do not dictate (default 0);
//! - `steps`: trace-like lines: `p1: label` (a decision), `chance: outcome`,
//!   `options p1: a | b | …` (the exact options of p1's pending decision),
//!   `outcomes: a b …` (the outcomes of the pending pick, shuffles before it drawn by the seed);
//! - `expect`: expression → value (a number or true/false), read where the game next stops.

use frontier_interpreter::runner::sample_chance;
use frontier_interpreter::{Chance, Game, GameRng, Journal, State, Status, Value};
use frontier_tests::*;
use serde_yaml::Value as Yaml;

struct Runner<'a> {
    game: &'a Game,
    state: State,
    rng: GameRng,
    name: String,
}

impl Runner<'_> {
    /// Draws the pending chance points with the seed until a decision, the end, or (with
    /// `keep_pick`) a pick with listed outcomes.
    fn settle(&mut self, keep_pick: bool) {
        loop {
            match self.game.status(&self.state) {
                Status::Chance(c) => {
                    if keep_pick && matches!(c, Chance::Pick { .. }) {
                        return;
                    }
                    let choice = sample_chance(&self.state, c, &mut self.rng);
                    self.game
                        .apply(&mut self.state, choice, &mut Journal::off())
                        .unwrap_or_else(|e| panic!("{}: {e}", self.name));
                }
                _ => return,
            }
        }
    }

    fn step(&mut self, line: &str) {
        let name = self.name.clone();
        if let Some(outcome) = line.strip_prefix("chance:") {
            chance(self.game, &mut self.state, outcome.trim());
        } else if let Some(rest) = line.strip_prefix("outcomes:") {
            self.settle(true);
            let Status::Chance(Chance::Pick { outcomes, .. }) = self.game.status(&self.state)
            else {
                panic!("{name}: `{line}`: no pick is pending")
            };
            let got: Vec<String> = outcomes
                .iter()
                .map(|v| self.game.value_text(v, self.state.names()))
                .collect();
            let want: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
            assert_eq!(got, want, "{name}: the outcomes of the pending pick");
        } else if let Some(rest) = line.strip_prefix("options ") {
            self.settle(false);
            let (who, labels) = rest
                .split_once(':')
                .unwrap_or_else(|| panic!("{name}: `{line}`"));
            self.expect_decider(who.trim(), line);
            let mut got = options(self.game, &self.state);
            let mut want: Vec<String> = labels.split('|').map(|l| l.trim().to_string()).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{name}: the options at `{line}`");
        } else {
            self.settle(false);
            let (who, label) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("{name}: `{line}` is not `player: label`"));
            self.expect_decider(who.trim(), line);
            choose(self.game, &mut self.state, label.trim());
        }
    }

    fn expect_decider(&self, who: &str, line: &str) {
        match self.game.status(&self.state) {
            Status::Decision { player, .. } => {
                assert_eq!(
                    self.state.names()[player as usize],
                    who,
                    "{}: `{line}`: another player decides",
                    self.name
                )
            }
            _ => panic!("{}: `{line}`: no decision is pending", self.name),
        }
    }
}

fn run_case(file: &str, case: &Yaml) -> usize {
    let ruleset = case
        .get("ruleset")
        .and_then(Yaml::as_str)
        .unwrap_or("grand-junction");
    let title = case
        .get("name")
        .and_then(Yaml::as_str)
        .map(|n| format!("{file} ({n})"))
        .unwrap_or_else(|| file.to_string());
    let params: Vec<(String, i64)> = case
        .get("params")
        .and_then(Yaml::as_mapping)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.as_str().unwrap().to_string(), v.as_i64().unwrap()))
                .collect()
        })
        .unwrap_or_default();
    let game = load_ruleset_with(ruleset, &params);
    let players: Vec<String> = case
        .get("players")
        .and_then(Yaml::as_sequence)
        .unwrap_or_else(|| panic!("{title}: players:"))
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    let state = match case.get("position") {
        Some(pos) => {
            let mut pos = pos.as_mapping().cloned().unwrap_or_default();
            pos.insert(
                "players".into(),
                Yaml::Sequence(players.iter().map(|p| Yaml::from(p.as_str())).collect()),
            );
            // A case's position writes what its rule needs; the rest is initial.
            if !pos.contains_key("initial") {
                pos.insert("initial".into(), Yaml::from("rest"));
            }
            let text = serde_yaml::to_string(&pos).unwrap();
            game.state_from_yaml(&text)
                .unwrap_or_else(|e| panic!("{title}: {e}"))
        }
        None => game
            .start(players.clone())
            .unwrap_or_else(|e| panic!("{title}: {e}")),
    };
    let seed = case.get("seed").and_then(Yaml::as_u64).unwrap_or(0);
    let mut r = Runner {
        game: &game,
        state,
        rng: GameRng::new(seed),
        name: title.clone(),
    };
    for step in case
        .get("steps")
        .and_then(Yaml::as_sequence)
        .map(|s| s.as_slice())
        .unwrap_or_default()
    {
        r.step(
            step.as_str()
                .unwrap_or_else(|| panic!("{title}: a step is a line of text")),
        );
    }
    r.settle(false);
    let mut checked = 0;
    for (expr, want) in case
        .get("expect")
        .and_then(Yaml::as_mapping)
        .cloned()
        .unwrap_or_default()
    {
        let expr = expr.as_str().unwrap().to_string();
        let got = eval(&game, &r.state, &expr);
        match (&got, want) {
            (Value::Int(n), Yaml::Number(w)) => assert_eq!(Some(*n), w.as_i64(), "{title}: {expr}"),
            (Value::Bool(b), Yaml::Bool(w)) => assert_eq!(*b, w, "{title}: {expr}"),
            (other, w) => panic!("{title}: {expr} = {other:?}, expected {w:?}"),
        }
        checked += 1;
    }
    assert!(
        case.get("why").is_some(),
        "{title}: every case says why (the hand computation)"
    );
    checked
}

#[test]
fn grand_junction_rule_cases() {
    let dir = workspace().join("rulesets/grand-junction/cases");
    let files = files_with_extension(&dir, "yaml");
    assert!(files.len() >= 10, "only {} cases", files.len());
    let mut checks = 0;
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let doc: Yaml = serde_yaml::from_str(&std::fs::read_to_string(&f).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        match doc.get("cases").and_then(Yaml::as_sequence) {
            Some(list) => {
                for c in list {
                    let mut c = c.clone();
                    if let (Some(m), Some(why)) = (c.as_mapping_mut(), doc.get("why")) {
                        m.entry("why".into()).or_insert(why.clone());
                    }
                    checks += run_case(&name, &c);
                }
            }
            None => checks += run_case(&name, &doc),
        }
    }
    assert!(checks > 0);
}

/// Every case file is named in RULES.md, so the map says what covers each clause.
#[test]
fn every_case_is_in_the_rules_map() {
    let map =
        std::fs::read_to_string(workspace().join("rulesets/grand-junction/RULES.md")).unwrap();
    for e in std::fs::read_dir(workspace().join("rulesets/grand-junction/cases")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            map.contains(&format!("cases/{name}")),
            "RULES.md does not name cases/{name}"
        );
    }
}

/// What must hold at every decision of any game: no negative money; never more of an element
/// in play than a station needs, never two identical cards in reserve; every card somewhere
/// exactly once; alliances symmetric and between players still in the game; the marshal in
/// the game; an eliminated player holds nothing.
const INVARIANTS: &[&str] = &[
    "all(players, p => money[p] >= 0)",
    "all(players, p => all(elements, e => held(p, e) <= e.needed and count_if(reserve[p], c => c.element == e) <= 1))",
    "len(beans_deck) + len(beans_discard) + len(transit) + sum(players, p => len(built[p]) + len(reserve[p])) == 33",
    "len(whiskey_deck) + len(whiskey_discard) + sum(players, p => len(hunters[p])) == 32",
    "len(railway_deck) + len(railway_discard) + len(aside) == 55 - (1 - use_handshakes) * 12 - (1 - use_gallows) - (1 - use_gold_rush)",
    "all(players, p => partner[p] == none or (partner[partner[p]] == p and partner[p] != p and alive(p) and alive(partner[p])))",
    "all(players, p => partner[p] != none or share[p] == 0)",
    "marshal == none or alive(marshal)",
    "all(players, p => alive(p) or (money[p] == 0 and len(built[p]) + len(reserve[p]) + len(hunters[p]) + len(revolver[p]) == 0))",
    "all(players, p => len(hunters[p]) < hunters_limit)",
    "all(players, p => len(revolver[p]) <= 6)",
];

#[test]
fn random_games_keep_the_invariants() {
    use frontier_interpreter::agent::{Agent, RandomAgent};
    use frontier_interpreter::Choice;
    for (name, counts) in [
        ("grand-junction", 5..=10),
        ("grand-junction-simplified", 3..=4),
    ] {
        let game = load_ruleset(name);
        for n in counts {
            for seed in 0..6u64 {
                let mut state = game.start(names(n)).unwrap();
                let mut rng = GameRng::new(seed);
                let mut agents: Vec<RandomAgent> = (0..n)
                    .map(|p| RandomAgent::new(GameRng::derived(seed, p as u64)))
                    .collect();
                loop {
                    let choice = match game.status(&state) {
                        Status::Over(_) => break,
                        Status::Decision { player, .. } => {
                            for inv in INVARIANTS {
                                assert!(
                                    matches!(eval(&game, &state, inv), Value::Bool(true)),
                                    "{name} {n}p seed {seed}: {inv}\n{}",
                                    game.render_state(&state, None)
                                );
                            }
                            Choice::Option(
                                agents[player as usize]
                                    .decide(&game.view(&state).unwrap())
                                    .unwrap(),
                            )
                        }
                        Status::Chance(c) => sample_chance(&state, c, &mut rng),
                    };
                    game.apply(&mut state, choice, &mut Journal::off())
                        .unwrap_or_else(|e| panic!("{name} {n}p seed {seed}: {e}"));
                }
            }
        }
    }
}
