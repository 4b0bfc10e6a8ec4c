//! Gold West rule tests. Each builds a position (or dictates the setup's chance), plays
//! moves by label, and compares with values worked out by hand from the rulebook and the
//! component data (written out in comments). The rulebook's worked examples are traces
//! (rulesets/gold-west/traces/).

use frontier_interpreter::runner::sample_chance;
use frontier_interpreter::Viewer;
use frontier_interpreter::{Game, GameRng, Journal, State, Status};
use frontier_tests::*;

fn game() -> Game {
    load_ruleset("gold-west")
}

/// Resolves chance points with a seeded generator until a decision (or the end).
fn settle(game: &Game, state: &mut State, seed: u64) {
    let mut rng = GameRng::new(seed);
    while let Status::Chance(c) = game.status(state) {
        let choice = sample_chance(state, c, &mut rng);
        game.apply(state, choice, &mut Journal::off()).unwrap();
    }
}

fn check(game: &Game, state: &State, expr: &str) {
    assert!(
        matches!(
            eval(game, state, expr),
            frontier_interpreter::Value::Bool(true)
        ),
        "false: {expr}"
    );
}

fn over_scores(game: &Game, state: &State) -> Vec<i64> {
    match game.status(state) {
        Status::Over(o) => o.scores.clone(),
        _ => panic!("the game is not over; options {:?}", options(game, state)),
    }
}

// ---------------------------------------------------------------------------------------
// Setup

#[test]
fn setup_lays_out_the_map_by_player_count() {
    // «Mise en place/Le Plateau»: 8 tiles of 7 hexes around 4 water hexes; with 2 players
    // the end slots 0 and 4 are not used (42 land hexes), otherwise 56 (14 per terrain).
    // Every hex gets a token of its own terrain; the 12 next to the water are face up.
    let g = game();
    for (n, land) in [(2usize, 42i64), (3, 56), (4, 56)] {
        for seed in 0..5 {
            let mut s = g.start(names(n)).unwrap();
            settle(&g, &mut s, seed);
            assert_eq!(int(&g, &s, "count_if(hexes, terrain[it] != none)"), land);
            assert_eq!(
                int(
                    &g,
                    &s,
                    "count_if(hexes, token[it] != none or face_down(it))"
                ),
                land
            );
            check(&g, &s, "all(hexes, h => (token[h] == none or token[h].terrain == terrain[h]) and all(hidden[h], k => k.terrain == terrain[h]))");
            assert_eq!(int(&g, &s, "count_if(hexes, token[it] != none)"), 12);
            check(&g, &s, "all(hexes, h => (token[h] != none) == (terrain[h] != none and any(neighbours(h), n => n.water)))");
            check(
                &g,
                &s,
                "all(hexes, h => len(hidden[h]) <= 1 and not (face_down(h) and token[h] != none))",
            );
            if n > 2 {
                check(
                    &g,
                    &s,
                    "all(terrains, t => count_if(hexes, terrain[it] == t) == 14)",
                );
            } else {
                check(
                    &g,
                    &s,
                    "all(hexes, (terrain[it] == none) == (it.water or it.end))",
                );
            }
        }
    }
    // Dictated: tiles in table order (slot k gets tile tk), every ring turned by 1. Slot 2
    // is I6 (ring 0) H7 G6 G5 H5 I5 (ring 5) and H6 (centre). Tile t2's ring is forest,
    // copper, forest, copper, silver, gold (centre gold): ring position k shows terrain
    // (k + 1) mod 6, so I6 copper, H7 forest, G6 copper, G5 silver, H5 gold, I5 forest,
    // H6 gold.
    let mut s = g.start(names(3)).unwrap();
    chance(&g, &mut s, "t0 t1 t2 t3 t4 t5 t6 t7");
    for _ in 0..8 {
        chance(&g, &mut s, "1");
    }
    settle(&g, &mut s, 1);
    assert_eq!(
        text(
            &g,
            &s,
            "map([@I6, @H7, @G6, @G5, @H5, @I5, @H6], h => terrain[h])"
        ),
        "copper forest copper silver gold forest gold"
    );
}

#[test]
fn setup_gives_camps_and_starting_resources_by_seat() {
    // «Mise en place/Matériel»: 12 camps each with 2-3 players, 10 with 4; 12 influence
    // tokens; VP 0. «Ordre du tour et ressources»: everyone a wood in section 0 and a stone
    // in section 1; first player copper, second silver, third gold in section 1; the fourth
    // gold in section 1 and copper in section 2.
    let g = game();
    for (n, camps) in [(2usize, 12i64), (3, 12), (4, 10)] {
        let mut s = g.start(names(n)).unwrap();
        settle(&g, &mut s, 7);
        for p in names(n) {
            assert_eq!(var(&g, &s, "camps_left", &p), camps);
            assert_eq!(var(&g, &s, "infl_tokens", &p), 12);
            assert_eq!(var(&g, &s, "vp", &p), 0);
        }
    }
    let mut s = g.start(names(4)).unwrap();
    settle(&g, &mut s, 7);
    assert_eq!(text(&g, &s, "track[p1, @s0]"), "wood");
    assert_eq!(text(&g, &s, "track[p1, @s1]"), "stone copper");
    assert_eq!(text(&g, &s, "track[p2, @s1]"), "stone silver");
    assert_eq!(text(&g, &s, "track[p3, @s1]"), "stone gold");
    assert_eq!(text(&g, &s, "track[p4, @s1]"), "stone gold");
    assert_eq!(text(&g, &s, "track[p4, @s2]"), "copper");
    assert_eq!(int(&g, &s, "len(track[p3, @s2]) + len(track[p3, @s3])"), 0);
    // Seat 1 starts, choosing between its two sections.
    assert_eq!(
        options(&g, &s),
        ["activate section 0", "activate section 1"]
    );
}

#[test]
fn setup_draws_four_offices_and_the_4vp_tile() {
    // «Mise en place/Boomtown»: 4 offices, each on two spaces side by side, the 4-VP tile on
    // the ninth space.
    let g = game();
    for seed in 0..20 {
        let mut s = g.start(names(3)).unwrap();
        settle(&g, &mut s, seed);
        assert_eq!(int(&g, &s, "count_if(spaces, space_office[it] == none)"), 1);
        assert_eq!(int(&g, &s, "len(drawn)"), 4);
        check(
            &g,
            &s,
            "all(drawn, o => count_if(spaces, space_office[it] == o) == 2)",
        );
        check(
            &g,
            &s,
            "all(spaces, a => space_office[a] == none or any(spaces, b => b != a and space_office[b] == space_office[a] and abs(a.r - b.r) + abs(a.c - b.c) == 1))",
        );
    }
}

#[test]
fn setup_deals_investments_and_bonus_tiles() {
    // «Mise en place/Investissements»: 8 cards face up; bonus tiles 5-1 with 4 players, 4-1
    // with 3, 3-1 with 2. «Piste Stock»: two shipping tiles per spot, the higher on top.
    let g = game();
    for (n, bonus) in [(2usize, "3 2 1"), (3, "4 3 2 1"), (4, "5 4 3 2 1")] {
        let mut s = g.start(names(n)).unwrap();
        settle(&g, &mut s, 3);
        assert_eq!(int(&g, &s, "len(offer)"), 8);
        assert_eq!(int(&g, &s, "len(inv_deck)"), 12);
        assert_eq!(text(&g, &s, "map(inv_bonus, it.vp)"), bonus);
        assert_eq!(
            text(&g, &s, "map(spots, s => text(map(stack[s], it.vp)))"),
            "7 4 7 4 8 5 8 5 9 6 9 6"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Turns

#[test]
fn the_use_area_is_emptied_at_the_end_of_the_turn() {
    // «Activez votre piste stock»: what is in use and not used is discarded. Red takes
    // 2 wood, 1 stone and 1 gold from section 0, builds a camp (1 material): the rest is lost.
    let g = game();
    let mut s = position(
        &g,
        "red, blue",
        "  camps_left: { red: 5, blue: 5 }\n  terrain: { E4: forest }\n  token: { E4: f-www-1 }",
        "  track: { red: { s0: [wood, wood, stone, gold] }, blue: { s0: [wood] } }",
    );
    choose(&g, &mut s, "activate section 0");
    choose(&g, &mut s, "done");
    choose(&g, &mut s, "camp on E4");
    choose(&g, &mut s, "store in section 2");
    // Blue's turn: red's use area is empty; red scored 2 for section 2.
    check(&g, &s, "all(resources, have[it] == 0) and active == blue");
    assert_eq!(var(&g, &s, "vp", "red"), 2);
    assert_eq!(text(&g, &s, "track[red, @s2]"), "wood wood wood");
    assert_eq!(int(&g, &s, "len(track[red, @s0])"), 0);
}

#[test]
fn investment_effects() {
    // «Investissements» (glossary), one position per ability. Red has 5 gold, 5 silver,
    // 5 copper in use; the offer holds the card under test. 2 players: bonus tiles 3 2 1.
    let g = game();
    let start_with = |card: &str, extra_vars: &str, extra_zones: &str| {
        let mut s = position(
            &g,
            "red, blue",
            &format!("  camps_left: {{ red: 5, blue: 5 }}\n{extra_vars}"),
            &format!(
                "{extra_zones}  offer: [{card}]\n  inv_bonus: [ib3, ib2, ib1]\n  track: {{ red: {{ s0: [gold, gold, gold, gold, gold, silver, silver, silver, silver, silver, copper, copper, copper, copper, copper] }} }}"
            ),
        );
        choose(&g, &mut s, "activate section 0");
        choose(&g, &mut s, &format!("invest {card}"));
        s
    };
    let start = |card: &str, extra_vars: &str| start_with(card, extra_vars, "");
    // inv-19 (3 copper 1 silver, 7 VP): one coach one space. Gold 0 -> 1. 7 + 3 = 10 VP.
    let mut s = start("inv-19", "");
    assert_eq!(
        options(&g, &s),
        [
            "copper coach 1 space",
            "silver coach 1 space",
            "gold coach 1 space",
            "no move"
        ]
    );
    choose(&g, &mut s, "gold coach 1 space");
    assert_eq!(int(&g, &s, "coach[red, resources@gold]"), 1);
    assert_eq!(var(&g, &s, "vp", "red"), 10);
    assert_eq!(
        int(
            &g,
            &s,
            "have[resources@copper] * 100 + have[resources@silver] * 10 + have[resources@gold]"
        ),
        245
    );
    // inv-11 (3 gold 1 silver, 11 VP): +1 forest influence, no influence token used.
    let s = start("inv-11", "");
    assert_eq!(int(&g, &s, "influence(red, terrains@forest)"), 1);
    assert_eq!(var(&g, &s, "infl_tokens", "red"), 12);
    assert_eq!(var(&g, &s, "vp", "red"), 14);
    // inv-13 (2 gold 2 copper, 6 VP): an influence on a free space; on the 4-VP tile (every
    // space of a position without offices is one) it scores 4 more: 6 + 3 + 4 = 13. It is
    // not the turn's Boomtown placement (gap 14): one can still be bought.
    let mut s = start("inv-13", "  bt_owner: { cu-au: blue }");
    assert!(!options(&g, &s).contains(&"influence cu-au".to_string()));
    choose(&g, &mut s, "influence au-au");
    assert_eq!(var(&g, &s, "bt_owner", "au-au"), 0);
    assert_eq!(var(&g, &s, "infl_tokens", "red"), 11);
    assert_eq!(var(&g, &s, "vp", "red"), 13);
    assert!(options(&g, &s).contains(&"boomtown ag-ag".to_string()));
    // inv-18 (2 copper 2 silver, 7 VP): two resources anywhere, no VP.
    let mut s = start("inv-18", "");
    assert_eq!(
        options(&g, &s).len(),
        5 * 4 + 1,
        "5 kinds x 4 sections, or stop"
    );
    choose(&g, &mut s, "add gold to section 3");
    choose(&g, &mut s, "add wood to section 0");
    assert_eq!(text(&g, &s, "track[red, @s3]"), "gold");
    assert_eq!(text(&g, &s, "track[red, @s0]"), "wood");
    assert_eq!(var(&g, &s, "vp", "red"), 10);
    // inv-02 (4 silver, 5 VP): an influence over an opponent's office space (not the 4-VP
    // tile, not a free space); both score it.
    let mut s = start(
        "inv-02",
        "  space_office: { cu-au: saloon, ag-au: saloon }\n  bt_owner: { cu-au: blue, au-cu: blue }",
    );
    assert_eq!(
        options(&g, &s),
        ["influence over blue on cu-au", "no influence"]
    );
    choose(&g, &mut s, "influence over blue on cu-au");
    assert_eq!(var(&g, &s, "bt_owner2", "cu-au"), 0);
    assert_eq!(var(&g, &s, "vp", "red"), 8);
    // inv-17 (1 copper 3 silver, 7 VP): a camp becomes a settlement: silver influence 1 -> 2.
    let mut s = start("inv-17", "  terrain: { E4: silver, E5: gold }\n  owner: { E4: red, E5: red }\n  settled: { E5: true }");
    assert_eq!(options(&g, &s), ["upgrade E4", "no upgrade"]);
    choose(&g, &mut s, "upgrade E4");
    assert_eq!(int(&g, &s, "influence(red, terrains@silver)"), 2);
    assert_eq!(var(&g, &s, "infl_tokens", "red"), 11);
    // inv-03 (2 gold 2 silver, 9 VP): look at two face-down tokens (only face-down ones).
    let mut s = start_with(
        "inv-03",
        "  token: { E6: a-aa-1 }",
        "  hidden: { E4: [f-www-1], E5: [g-ggg-1] }\n",
    );
    assert_eq!(
        options(&g, &s),
        ["look at E4", "look at E5", "look no further"]
    );
    choose(&g, &mut s, "look at E5");
    assert_eq!(options(&g, &s), ["look at E4", "look no further"]);
    choose(&g, &mut s, "look at E4");
    // Red alone is shown the two tokens; they stay face down, on their hexes.
    check(&g, &s, "knows(red, @f-www-1) and knows(red, @g-ggg-1) and not knows(blue, @f-www-1) and not knows(blue, @g-ggg-1)");
    check(
        &g,
        &s,
        "face_down(@E4) and token[@E4] == none and first(hidden[@E4]) == @f-www-1",
    );
    let shown = |seat: u8| {
        g.render_state(&s, Some(seat))
            .lines()
            .filter(|l| l.starts_with("hidden[E"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        shown(0).contains("hidden[E4]: f-www-1\nhidden[E5]: g-ggg-1"),
        "{}",
        shown(0)
    );
    assert!(!shown(1).contains("f-www-1"), "{}", shown(1));
    assert_eq!(var(&g, &s, "vp", "red"), 12);
}

// ---------------------------------------------------------------------------------------
// Final scoring

/// A finished 3-player game from a position with nothing left to play.
fn final_state(vars: &str) -> (Game, State) {
    let g = game();
    let s = position(&g, "red, blue, green", vars, "  offer: []");
    (g, s)
}

#[test]
fn wanted_penalties_with_ties() {
    // «Décompte/Pénalités de pillage», nothing else scoring (no building, no influence).
    // Wanted 3, 3, 2: both most wanted lose 3, no second penalty.
    let (g, s) = final_state("  wanted: { red: 3, blue: 3, green: 2 }");
    assert_eq!(over_scores(&g, &s), [-3, -3, 0]);
    // Wanted 4, 3, 3: red loses 4; blue and green tie for second: 1 each (one pair).
    let (g, s) = final_state("  wanted: { red: 4, blue: 3, green: 3 }");
    assert_eq!(over_scores(&g, &s), [-4, -1, -1]);
    // Wanted 5, 1, 0: red loses 5; blue is second with one camp: 0 pairs.
    let (g, s) = final_state("  wanted: { red: 5, blue: 1 }");
    assert_eq!(over_scores(&g, &s), [-5, 0, 0]);
    // Wanted 2, 0, 0: nobody else is penalised.
    let (g, s) = final_state("  wanted: { green: 2 }");
    assert_eq!(over_scores(&g, &s), [0, 0, -2]);
}

#[test]
fn three_way_terrain_ties_share_first_and_second() {
    // «Décompte/Bonus de terrains», gap 2: three players with one copper camp each (no
    // settlement): (11 + 7) / 3 = 6 each; plus 2 VP each for a group of one.
    let (g, s) = final_state("  terrain: { A4: copper, G1: copper, N4: copper }\n  owner: { A4: red, G1: blue, N4: green }");
    assert_eq!(over_scores(&g, &s), [8, 8, 8]);
    // Red 2, blue and green 1 each: red 11; blue and green share the second place's 7 (and
    // third's 0): 3 each.
    let (g, s) = final_state(
        "  terrain: { A4: copper, A5: copper, G1: copper, N4: copper }\n  owner: { A4: red, A5: red, G1: blue, N4: green }",
    );
    assert_eq!(over_scores(&g, &s), [4 + 11, 2 + 3, 2 + 3]);
}

#[test]
fn ranking_breaks_ties_by_wanted_then_supply() {
    // «Décompte»: equal VP: fewer camps in Wanted wins; then more resources on the supply
    // track. Red and blue both end on 10 VP; green on 8.
    let g = game();
    let s = position(
        &g,
        "red, blue, green",
        "  vp: { red: 11, blue: 10, green: 8 }\n  wanted: { red: 1 }",
        "  track: { blue: { s3: [stone] } }",
    );
    // Blue's stone cannot be used at the end: activating section 3 leaves it in section 2.
    let mut s = s;
    choose(&g, &mut s, "activate section 3");
    // Red, the most wanted, lost 1: 10. Tied with blue: blue has no Wanted camp.
    assert_eq!(over_scores(&g, &s), [10, 10, 8]);
    match g.status(&s) {
        Status::Over(o) => assert_eq!(o.ranks, [2, 1, 3]),
        _ => unreachable!(),
    }
    // Same Wanted: the supply track decides (blue 1 resource, red none).
    let mut s = position(
        &g,
        "red, blue, green",
        "  vp: { red: 10, blue: 10, green: 8 }",
        "  track: { blue: { s3: [stone] } }",
    );
    choose(&g, &mut s, "activate section 3");
    match g.status(&s) {
        Status::Over(o) => assert_eq!(o.ranks, [2, 1, 3]),
        _ => panic!("not over"),
    }
}

// ---------------------------------------------------------------------------------------
// Display

#[test]
fn the_display_draws_the_map() {
    // Each hex is one line: its id and terrain letter, then what is on it. Even columns sit
    // half a hex lower: G4's line (water, x = 0) holds the hexes of row 4 in even columns
    // (E4, K4), and the line above it those of odd columns (F4 and H4, water).
    let g = game();
    let s = position(
        &g,
        "red, blue",
        "  camps_left: { red: 3, blue: 3 }\n  terrain: { E4: forest, K4: copper, F3: gold }\n  owner: { E4: red }\n  settled: { E4: true }\n  token: { E4: f-www-1, K4: c-cca-1 }",
        "  hidden: { F3: [g-ggg-1] }\n  track: { red: { s0: [wood] } }",
    );
    let shown = g.render_display(&s, Viewer::Everyone);
    let lines: Vec<&str> = shown.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("G4 ~"))
        .expect("a line with G4");
    let row = lines[at];
    // red (seat 1) has a settlement on E4; K4 shows its face-up token's resources.
    for hex in ["E4 f  1S", "G4 ~  ~~~", "K4 c  CCA"] {
        assert!(row.contains(hex), "{hex} in {row}");
    }
    for hex in ["F4 ~  ~~~", "H4 ~  ~~~"] {
        assert!(lines[at - 1].contains(hex), "{hex} in {}", lines[at - 1]);
    }
    assert!(shown.contains("F3 g  ??"), "F3 face down: {shown}");
    assert!(shown.contains("1 red"), "player lines");
    assert!(shown.contains("Boomtown"));
}
