//! Go West! rule tests. Each builds a position, plays the rulebook's moves by label and
//! compares with numbers from the rulebook's examples or computed by hand (written out).

use frontier_interpreter::{Game, State, Status};
use frontier_tests::*;

fn game() -> Game {
    load_ruleset("go-west")
}

fn position(game: &Game, vars: &str, zones: &str) -> State {
    frontier_tests::position(game, "red, green, blue", vars, zones)
}

fn vps(game: &Game, state: &State) -> [i64; 3] {
    ["red", "green", "blue"].map(|p| var(game, state, "vp", p))
}

const HAND: &str = "  hand: { red: [gw-01, gw-13, gw-25, gw-37, gw-49, gw-11, gw-12] }\n  deck: [gw-02, gw-03, gw-04, gw-05]";

#[test]
fn scoring_example_1_most_tokens_first_limited_by_wagons() {
    // §5.2 example 1: 4 wagons in the Great Plains, 6 tokens: green 3, red 2, blue 1.
    // Green scores 3, red the 4th and last point, blue nothing.
    let g = game();
    let mut s = position(
        &g,
        // 30 tokens each: those not on the track are in hand (conserve.tokens).
        "  wagons: { new-england: 16, great-plains: 4 }\n  tokens: { red: 28, green: 27, blue: 29 }",
        &format!("{HAND}\n  track: {{ great-plains: [green, red, green, blue, red, green] }}"),
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "score");
    // red paid 1 token for its first scoring card (cost 1): VP untouched by payment.
    assert_eq!(vps(&g, &s), [10 + 1, 10 + 3, 10]);
    assert_eq!(var(&g, &s, "tokens", "red"), 28 - 1);
}

#[test]
fn scoring_example_2_ties_paid_in_placement_order() {
    // §5.2 example 2: 5 wagons in the Midwest, 7 tokens, red and green 3 each. Points go
    // 1st green, 2nd-4th red, 5th green: the track order from the share marker is
    // green red red red green blue green (green's first token is the oldest).
    let g = game();
    let mut s = position(
        &g,
        "  wagons: { new-england: 15, midwest: 5 }\n  tokens: { red: 27, green: 27, blue: 29 }",
        &format!("{HAND}\n  track: {{ midwest: [green, red, red, red, green, blue, green] }}"),
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "score");
    assert_eq!(vps(&g, &s), [10 + 3, 10 + 2, 10]);
}

#[test]
fn scoring_with_enough_wagons_pays_every_token() {
    // §5.2 first regime: 5 wagons in the East, 5 tokens: red 3, green 1, blue 1.
    let g = game();
    let vars = "  wagons: { new-england: 15, east: 5 }\n  tokens: { red: 27, green: 29, blue: 29 }";
    let mut s = position(
        &g,
        vars,
        &format!("{HAND}\n  track: {{ east: [red, green, red, blue, red] }}"),
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "score");
    assert_eq!(vps(&g, &s), [13, 11, 11]);
}

#[test]
fn a_token_on_a_full_track_returns_the_oldest_to_its_owner() {
    // §5.1: the East track is full (7 tokens, green's oldest). Red plays gw-01 (East, one
    // token, no move, cost 0): the share marker moves, green's first token goes back to
    // green (29 → 30 tokens in hand), red's new token is the last of the track (25 → 24).
    let g = game();
    let mut s = position(
        &g,
        "  tokens: { red: 25, green: 29, blue: 29 }",
        &format!("{HAND}\n  track: {{ east: [green, blue, red, red, red, red, red] }}"),
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "play card:gw-01");
    assert_eq!(var(&g, &s, "tokens", "green"), 30);
    assert_eq!(var(&g, &s, "tokens", "red"), 24);
    let (_, track) = g.zone("track").unwrap();
    let east = g.table("regions").unwrap().1.row_index("east").unwrap() as usize;
    let owners: Vec<String> = s.zones()[track.base + east]
        .iter()
        .map(|p| s.names()[*p as usize].clone())
        .collect();
    assert_eq!(owners, ["blue", "red", "red", "red", "red", "red", "red"]);
}

#[test]
fn plus_one_puts_a_second_token_on_another_track() {
    // gw-12: East "+1", 1 move, cost 3. Red pays 3 (30 → 27 tokens), places one token in
    // the East and one on a track of its choice (not the East), then moves one wagon.
    let g = game();
    let mut s = position(&g, "", HAND);
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "play card:gw-12");
    assert_eq!(
        options(&g, &s),
        [
            "extra token on:great-plains",
            "extra token on:midwest",
            "extra token on:west"
        ]
    );
    choose(&g, &mut s, "extra token on:west");
    choose(&g, &mut s, "move wagon from:new-england");
    assert_eq!(var(&g, &s, "tokens", "red"), 30 - 3 - 2);
    assert_eq!(var(&g, &s, "wagons", "east"), 1);
    assert_eq!(var(&g, &s, "wagons", "new-england"), 19);
}

#[test]
fn victory_points_pay_what_tokens_cannot() {
    // §5.4: red has 1 token and 10 VP and plays gw-11 (East, 2 tokens, 2 moves, cost 4):
    // 1 token + 3 VP. No token is left, so the token part is skipped; both moves are made.
    let g = game();
    let mut s = position(&g, "  tokens: { red: 1 }\n  bank: { red: 29 }", HAND);
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "play card:gw-11");
    choose(&g, &mut s, "move wagon from:new-england");
    choose(&g, &mut s, "move wagon from:east");
    assert_eq!(var(&g, &s, "tokens", "red"), 0);
    assert_eq!(var(&g, &s, "vp", "red"), 7);
    assert_eq!(var(&g, &s, "bank", "red"), 30);
    assert_eq!(var(&g, &s, "wagons", "great-plains"), 1);
}

#[test]
fn cards_beyond_tokens_and_points_cannot_be_played() {
    // Red has 0 tokens and 2 VP: gw-11 (cost 4) and gw-12 (cost 3) are not offered;
    // gw-01 (cost 0) is. Selling is always possible.
    let g = game();
    let mut s = position(
        &g,
        "  tokens: { red: 0 }\n  bank: { red: 30 }\n  vp: { red: 2 }",
        HAND,
    );
    choose(&g, &mut s, "one action");
    let opts = options(&g, &s);
    assert!(!opts.contains(&"play card:gw-11".to_string()));
    assert!(!opts.contains(&"play card:gw-12".to_string()));
    assert!(opts.contains(&"play card:gw-01".to_string()));
    assert!(opts.contains(&"sell card:gw-11".to_string()));
    assert!(
        opts.contains(&"score".to_string()),
        "the first scoring card costs 1: 0 tokens + 2 VP suffice"
    );
}

#[test]
fn selling_is_limited_by_the_bank() {
    // §5.3: gw-11 costs 4 but red has only 2 tokens in the bank: red gains 2, the rest is lost.
    // Red's other 18 tokens are on the tracks (7 + 7 + 4).
    let g = game();
    let tracks = "  track: { east: [red, red, red, red, red, red, red], great-plains: [red, red, red, red, red, red, red], midwest: [red, red, red, red] }";
    let mut s = position(
        &g,
        "  tokens: { red: 10 }\n  bank: { red: 2 }",
        &format!("{HAND}\n{tracks}"),
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "sell card:gw-11");
    assert_eq!(var(&g, &s, "tokens", "red"), 12);
    assert_eq!(var(&g, &s, "bank", "red"), 0);
    // The hand is refilled to 7 from the deck's top card (gw-02).
    let (_, hand) = g.zone("hand").unwrap();
    assert_eq!(s.zones()[hand.base].len(), 7);
    assert!(s.zones()[hand.base].contains(&g.table("cards").unwrap().1.row_index("gw-02").unwrap()));
}

#[test]
fn the_double_action_pawn_gives_two_actions_and_returns_when_all_are_used() {
    // §6.0: red announces the pawn, sells twice; green and blue have used theirs, so all
    // pawns return at the end of red's turn.
    let g = game();
    let mut s = position(&g, "  pawn: { green: false, blue: false }", HAND);
    choose(&g, &mut s, "double action");
    choose(&g, &mut s, "sell card:gw-01");
    choose(&g, &mut s, "sell card:gw-13");
    // Now green's turn, with the pawn back: green is asked about it first.
    assert_eq!(
        g.status(&s),
        Status::Decision {
            player: 1,
            options: 2
        }
    );
    assert_eq!(options(&g, &s), ["one action", "double action"]);
    assert_eq!(var(&g, &s, "pawn", "red"), 1);
}

#[test]
fn a_scoring_that_reaches_50_ends_the_game() {
    // §7.0: red has 49 VP and a token in the East with 1 wagon there: the scoring brings
    // red to 50 (49 - 0 paid in VP + 1); the game ends at once. Green 12 VP, blue 10.
    let g = game();
    let mut s = position(
        &g,
        "  vp: { red: 49, green: 12 }\n  wagons: { new-england: 19, east: 1 }\n  tokens: { red: 29 }",
        &format!("{HAND}\n  track: {{ east: [red] }}"),
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "score");
    let Status::Over(outcome) = g.status(&s) else {
        panic!("the game should be over")
    };
    assert_eq!(outcome.scores, vec![50, 12, 10]);
    assert_eq!(outcome.ranks, vec![1, 2, 3]);
}

#[test]
fn empty_new_england_and_east_end_the_game_with_a_free_scoring() {
    // §7.0: New England is empty and one wagon is left in the East. Red plays gw-03 (East,
    // 1 token, 1 move, cost 1) and moves it to the Great Plains. After the turn both are
    // empty: a free scoring (no card, no cost). Great Plains: 1 + 1 = 2 wagons, tokens
    // [green, green] → green +2. East: 0 wagons → nothing. Red paid 1 token: 29 left.
    let g = game();
    let mut s = position(
        &g,
        "  wagons: { new-england: 0, east: 1, great-plains: 1, california: 18 }\n  tokens: { green: 28 }",
        "  hand: { red: [gw-03, gw-01] }\n  deck: [gw-02]\n  track: { great-plains: [green, green] }",
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "play card:gw-03");
    choose(&g, &mut s, "move wagon from:east");
    let Status::Over(outcome) = g.status(&s) else {
        panic!("the game should be over")
    };
    assert_eq!(outcome.scores, vec![10, 12, 10]);
    assert_eq!(
        var(&g, &s, "scorings", "red"),
        0,
        "the free scoring uses no scoring card"
    );
}

#[test]
fn ties_are_broken_by_tokens_in_hand_then_shared() {
    // §7.0: the game ends (free scoring, nothing to score) with red 20, green 20, blue 20
    // VP; red has 5 tokens, green 5, blue 3 → red and green share first place, blue third.
    // Red plays gw-01 (cost 0, East token): red's tokens 6 → 5.
    let g = game();
    let mut s = position(
        &g,
        "  vp: { red: 20, green: 20, blue: 20 }\n  tokens: { red: 6, green: 5, blue: 3 }\n  bank: { red: 24, green: 25, blue: 27 }\n  wagons: { new-england: 0, california: 20 }",
        "  hand: { red: [gw-01] }",
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "play card:gw-01");
    let Status::Over(outcome) = g.status(&s) else {
        panic!("the game should be over")
    };
    assert_eq!(outcome.scores, vec![20, 20, 20]);
    assert_eq!(outcome.tiebreaks, vec![vec![5], vec![5], vec![3]]);
    assert_eq!(outcome.ranks, vec![1, 1, 3]);
    assert_eq!(outcome.winners(), vec![0, 1]);
}

#[test]
fn the_deck_is_reshuffled_from_played_cards_when_empty() {
    // §5.5: the deck is empty; red sells gw-01: drawing needs the discard pile (now gw-01
    // and gw-05) shuffled into a new deck — a chance point.
    let g = game();
    let mut s = position(
        &g,
        "",
        "  hand: { red: [gw-01, gw-13] }\n  deck: []\n  discard: [gw-05]",
    );
    choose(&g, &mut s, "one action");
    choose(&g, &mut s, "sell card:gw-01");
    assert!(
        matches!(g.status(&s), Status::Chance(_)),
        "the reshuffle is a chance point"
    );
}

#[test]
fn an_agent_sees_its_own_hand_and_only_the_size_of_the_others() {
    // §3.4: hands are secret. The deciding player's view shows their 7 cards, the other
    // hands as counts, the face-down deck as a count.
    let g = game();
    let mut s = g.start(names(3)).unwrap();
    while let Status::Chance(c) = g.status(&s) {
        let choice = frontier_interpreter::runner::sample_chance(
            &s,
            c,
            &mut frontier_interpreter::GameRng::new(5),
        );
        g.apply(&mut s, choice, &mut frontier_interpreter::Journal::off())
            .unwrap();
    }
    let view = g.view(&s).expect("a decision");
    assert_eq!(view.player(), 0);
    let seen = view.render(frontier_interpreter::render::Style::Plain);
    // The cards table has a `show:` template: one's own hand is listed a card a line,
    // each with what it is.
    let own = frontier_tests::text(&g, &s, "hand[p1]");
    assert!(seen.contains("hand[p1]:\n"), "{seen}");
    for card in own.split(' ') {
        assert!(
            seen.contains(&format!("\n  {card}  ")),
            "{card} of p1's hand: {seen}"
        );
    }
    assert!(
        seen.contains("hand[p2]: 7 hidden\n") && seen.contains("hand[p3]: 7 hidden\n"),
        "{seen}"
    );
    let p2_card = frontier_tests::text(&g, &s, "first(hand[p2])");
    assert!(
        !seen.contains(&p2_card),
        "{p2_card} is in p2's hand, not visible to p1: {seen}"
    );
}
