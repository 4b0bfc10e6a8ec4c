//! Per-player knowledge (tests/cases/knowledge): a pile seen only as a count, tokens
//! turned face up (`visible_if`), peeks (`reveal`) that last until the token moves, and
//! the sampling of hidden state a player cannot tell apart (`determinize`).

use frontier_interpreter::rng::GameRng;
use frontier_interpreter::{Game, State};
use frontier_tests::*;

fn game() -> Game {
    load_source(&source(&workspace().join("tests/cases/knowledge"))).expect("the ruleset loads")
}

fn start(game: &Game) -> State {
    game.start(names(2)).expect("start")
}

/// Who knows where each token lies: the tokens p1 knows, then those p2 knows.
fn known(game: &Game, state: &State) -> (String, String) {
    let who = |p: &str| {
        let known: Vec<&str> = ["t1", "t2", "t3", "t4"]
            .into_iter()
            .filter(|t| text(game, state, &format!("knows({p}, @{t})")) == "yes")
            .collect();
        known.join(" ")
    };
    (who("p1"), who("p2"))
}

/// The line of a zone in the state as `viewer` sees it.
fn line(game: &Game, state: &State, viewer: u8, zone: &str) -> String {
    let shown = game.render_state(state, Some(viewer));
    shown
        .lines()
        .find(|l| l.starts_with(&format!("{zone}:")))
        .unwrap_or_else(|| panic!("no {zone} in {shown}"))
        .to_string()
}

#[test]
fn a_peek_shows_one_player_until_the_token_moves() {
    let game = game();
    let mut s = start(&game);
    // The pile is t1 t2 t3 t4 (init: all), seen by nobody: only its size.
    assert_eq!(known(&game, &s), ("".into(), "".into()));
    assert_eq!(line(&game, &s, 0, "pile"), "pile: 4 hidden");

    choose(&game, &mut s, "peek");
    // p1 peeked at the top token, t1; p2 did not.
    assert_eq!(known(&game, &s), ("t1".into(), "".into()));
    assert_eq!(line(&game, &s, 0, "pile"), "pile: 4 hidden, seen: t1");
    assert_eq!(line(&game, &s, 1, "pile"), "pile: 4 hidden");

    choose(&game, &mut s, "flip t3");
    // t3 is face up: everyone sees it.
    assert_eq!(known(&game, &s), ("t1 t3".into(), "t3".into()));
    assert_eq!(line(&game, &s, 0, "pile"), "pile: 4 hidden, seen: t1 t3");
    assert_eq!(line(&game, &s, 1, "pile"), "pile: 4 hidden, seen: t3");

    // A saved position keeps what p1 was shown.
    let yaml = game.state_to_yaml(&s);
    assert!(yaml.contains("seen:\n  p1:\n  - t1\n"), "{yaml}");
    assert_eq!(game.state_from_yaml(&yaml).unwrap(), s);

    choose(&game, &mut s, "take");
    // t1 went into p1's hand, which only p1 sees; the peek is spent.
    assert_eq!(known(&game, &s), ("t1 t3".into(), "t3".into()));
    assert!(s.seen().is_empty(), "{:?}", s.seen());
    assert_eq!(line(&game, &s, 1, "hand[p1]"), "hand[p1]: 1 hidden");

    choose(&game, &mut s, "return");
    // Back on top of the pile, t1 is as hidden as any other pile token, even to p1.
    assert_eq!(known(&game, &s), ("t3".into(), "t3".into()));

    choose(&game, &mut s, "peek-all");
    assert_eq!(known(&game, &s), ("t1 t3".into(), "t1 t3".into()));

    choose(&game, &mut s, "box");
    // The box shows nothing: t1 is unknown again, to both.
    assert_eq!(known(&game, &s), ("t3".into(), "t3".into()));
    assert_eq!(line(&game, &s, 0, "box"), "box: hidden");
}

#[test]
fn positions_name_what_was_seen() {
    let game = game();
    let text = "players: [p1, p2]\ninitial: rest\nzones:\n  pile: [t2, t1]\n  hand: { p2: [t3, t4] }\nseen:\n  p2: [t1]\n";
    let s = game.state_from_yaml(text).unwrap();
    assert_eq!(known(&game, &s), ("".into(), "t1 t3 t4".into()));
    let err = |text: &str| game.state_from_yaml(text).unwrap_err();
    assert_eq!(
        err("players: [p1, p2]\ninitial: rest\nseen:\n  p3: [t1]\n"),
        "seen.p3: not a player"
    );
    assert_eq!(
        err("players: [p1, p2]\ninitial: rest\nseen:\n  p1: t1\n"),
        "seen.p1: expected a list of elements"
    );
    assert_eq!(
        err("players: [p1, p2]\ninitial: rest\nzones:\n  box: [t1]\nseen:\n  p1: [t9]\n"),
        "seen.p1: t9 is in no zone"
    );
}

#[test]
fn determinizing_keeps_what_the_viewer_sees_and_deals_the_rest() {
    let game = game();
    let mut s = start(&game);
    choose(&game, &mut s, "peek"); // p1 knows t1, on top
    choose(&game, &mut s, "flip t3"); // everyone sees t3, third
    let mut p1_orders = Vec::new();
    let mut p2_tops = Vec::new();
    for seed in 0..40 {
        let mut rng = GameRng::new(seed);
        for viewer in [0u8, 1] {
            let d = game.determinize(&s, viewer, &mut rng).unwrap();
            let pile = text(&game, &d, "pile");
            let mut tokens: Vec<&str> = pile.split(' ').collect();
            // Same tokens, same places for what is seen.
            assert_eq!(tokens[2], "t3", "{pile}");
            if viewer == 0 {
                assert_eq!(tokens[0], "t1", "{pile}");
                p1_orders.push(pile.clone());
            } else {
                p2_tops.push(tokens[0].to_string());
            }
            tokens.sort_unstable();
            assert_eq!(tokens, ["t1", "t2", "t3", "t4"]);
            // What p1 was shown stays theirs; p2 cannot tell t1 from the others.
            assert_eq!(known(&game, &d).1, "t3");
        }
    }
    // p1 does not know t2 from t4: both orders are sampled. p2 does not know the top.
    p1_orders.sort_unstable();
    p1_orders.dedup();
    assert_eq!(p1_orders, ["t1 t2 t3 t4", "t1 t4 t3 t2"]);
    p2_tops.sort_unstable();
    p2_tops.dedup();
    assert_eq!(p2_tops, ["t1", "t2", "t4"]);
}

/// The same card in both hands (zones may hold a row more than once): each player knows
/// it, from their own hand; nobody knows a card held by the other alone.
#[test]
fn a_row_held_twice_is_known_where_it_is_seen() {
    let ruleset = r#"
name: twice
players: 2
tables: { cards: { rows: [c1, c2] } }
zones: { hand: { of: cards, per: players, visibility: owner } }
setup:
  - push: { to: "hand[players[1]]", value: "cards[\"c1\"]" }
  - push: { to: "hand[players[0]]", value: "cards[\"c1\"]" }
  - push: { to: "hand[players[1]]", value: "cards[\"c2\"]" }
play: [end_game]
ranking: { score: "0" }
"#;
    let game = load_source(&text_source("twice.yaml", "twice.yaml", ruleset)).unwrap();
    let state = game.start(names(2)).unwrap();
    for (query, expected) in [
        ("knows(p1, @c1)", "yes"),
        ("knows(p2, @c1)", "yes"),
        ("knows(p1, @c2)", "no"),
        ("knows(p2, @c2)", "yes"),
    ] {
        assert_eq!(text(&game, &state, query), expected, "{query}");
    }
}
