//! Way Out West rule tests. Each builds a position, plays moves by label, dictates dice,
//! and compares with values worked out by hand from the rulebook (written out in comments).
//! The rulebook's showdown example and the income/scoring of a built board are traces
//! (rulesets/way-out-west/traces/).

use frontier_interpreter::{Game, State, Status};
use frontier_tests::*;

fn game() -> Game {
    load_ruleset("way-out-west")
}

fn position_with(game: &Game, players: &str, vars: &str, zones: &str) -> State {
    frontier_tests::position(game, players, vars, zones)
}

fn position(game: &Game, vars: &str, zones: &str) -> State {
    position_with(game, "red, green, blue", vars, zones)
}

fn money(game: &Game, state: &State, p: &str) -> i64 {
    var(game, state, "money", p)
}

/// The owner of a lot (`abilene-bank`), or "" when nothing is built there.
fn owner(game: &Game, state: &State, lot: &str) -> String {
    let seat = var(game, state, "lot_owner", lot);
    if seat < 0 {
        String::new()
    } else {
        state.names()[seat as usize].clone()
    }
}

/// The players' pieces in a per-town zone (`posse`, `herd`), in order.
fn pieces(game: &Game, state: &State, zone: &str, town: &str) -> Vec<String> {
    let (_, z) = game.zone(zone).unwrap();
    let t = game.table("towns").unwrap().1.row_index(town).unwrap() as usize;
    state.zones()[z.base + t]
        .iter()
        .map(|p| state.names()[*p as usize].clone())
        .collect()
}

fn count(game: &Game, state: &State, zone: &str, town: &str, p: &str) -> usize {
    pieces(game, state, zone, town)
        .iter()
        .filter(|n| *n == p)
        .count()
}

fn order(game: &Game, state: &State) -> Vec<String> {
    let (_, z) = game.zone("order").unwrap();
    state.zones()[z.base]
        .iter()
        .map(|p| state.names()[*p as usize].clone())
        .collect()
}

fn dice(game: &Game, state: &mut State, faces: &[u8]) {
    for f in faces {
        chance(game, state, &f.to_string());
    }
}

/// The seat names, in the order of the position's turn-order track, that make `first` the
/// first player after an auction where the two others pass: `[a, b, first]` passes a then b.
fn everybody_else_passes(game: &Game, state: &mut State, passers: &[&str]) {
    for p in passers {
        assert_eq!(
            game.status(state).decider(),
            Some(seat(state, p)),
            "{p} should bid now; options {:?}",
            options(game, state)
        );
        choose(game, state, "pass");
    }
}

fn seat(state: &State, p: &str) -> u8 {
    state.names().iter().position(|n| n == p).unwrap() as u8
}

trait Decider {
    fn decider(&self) -> Option<u8>;
}
impl Decider for Status<'_> {
    fn decider(&self) -> Option<u8> {
        match self {
            Status::Decision { player, .. } => Some(*player),
            _ => None,
        }
    }
}

fn decider(game: &Game, state: &State) -> String {
    let p = game.status(state).decider().expect("a decision is pending");
    state.names()[p as usize].clone()
}

// ---------------------------------------------------------------------------------------
// Setup

#[test]
fn setup_money_cowboys_and_turn_marker_by_player_count() {
    // «Mise en place»: $20 each with 3 or 4 players, $25 with 5; three cowboys each placed
    // one at a time from the first player clockwise; the turn marker on 1 (3 players) or
    // 4 (4-5 players).
    let g = game();
    for (n, cash, first_turn) in [(3usize, 20i64, 1i64), (4, 20, 4), (5, 25, 4)] {
        let mut s = g.start(names(n)).unwrap();
        // The first player is drawn: p2, so the seats go p2, p3, ..., p1.
        chance(&g, &mut s, "p2");
        let expected: Vec<String> = (0..n).map(|i| format!("p{}", (i + 1) % n + 1)).collect();
        assert_eq!(order(&g, &s), expected);
        for round in 0..3 {
            for p in &expected {
                assert_eq!(&decider(&g, &s), p, "round {round}");
                choose(&g, &mut s, "place cowboy in Deadwood");
            }
        }
        assert_eq!(pieces(&g, &s, "posse", "deadwood").len(), 3 * n);
        assert_eq!(var(&g, &s, "turn", ""), first_turn);
        for p in names(n) {
            assert_eq!(money(&g, &s, &p), cash);
        }
        // The first auction starts with the first player.
        assert_eq!(decider(&g, &s), "p2");
    }
}

// ---------------------------------------------------------------------------------------
// Turn order auction

#[test]
fn auction_raises_on_what_is_in_front_passers_pay_and_take_the_last_free_box() {
    // «Ordre de jeu», 4 players with $10 each, the previous first player (red) opens.
    // red bids 2 (8 left); green bids 3 (7 left); blue passes with nothing bid: box 4;
    // yellow bids 5 (5 left); red must raise above 5 on top of the 2 already in front:
    // bids 6..10 are possible (10 is the most: 2 in front + 8 in hand);
    // red bids 6 (pays 4 more: 4 left); green passes: its 3 go to the bank (7 left), box 3;
    // yellow passes: 5 to the bank (5 left), box 2; red, the last bidder, goes first and
    // pays its 6 (4 left). Order: red, yellow, green, blue.
    let g = game();
    let mut s = position_with(
        &g,
        "red, green, blue, yellow",
        "  turn: 5\n  money: { red: 10, green: 10, blue: 10, yellow: 10 }",
        "  order: [red, green, blue, yellow]\n  posse: { abilene: [red, green, blue, yellow] }",
    );
    assert_eq!(decider(&g, &s), "red");
    assert_eq!(options(&g, &s).len(), 10 + 1, "bid 1..10 or pass");
    choose(&g, &mut s, "bid 2");
    assert_eq!(money(&g, &s, "red"), 8);
    choose(&g, &mut s, "bid 3");
    choose(&g, &mut s, "pass");
    choose(&g, &mut s, "bid 5");
    assert_eq!(decider(&g, &s), "red");
    let bids: Vec<String> = (6..=10)
        .map(|b| format!("bid {b}"))
        .chain(["pass".to_string()])
        .collect();
    assert_eq!(options(&g, &s), bids);
    choose(&g, &mut s, "bid 6");
    assert_eq!(money(&g, &s, "red"), 4);
    assert_eq!(decider(&g, &s), "green");
    choose(&g, &mut s, "pass");
    // blue has passed: the turn goes to yellow.
    assert_eq!(decider(&g, &s), "yellow");
    choose(&g, &mut s, "pass");
    assert_eq!(order(&g, &s), ["red", "yellow", "green", "blue"]);
    assert_eq!(
        [
            money(&g, &s, "red"),
            money(&g, &s, "green"),
            money(&g, &s, "blue"),
            money(&g, &s, "yellow")
        ],
        [4, 7, 10, 5]
    );
    // The action phase starts with red.
    assert_eq!(decider(&g, &s), "red");
    assert!(options(&g, &s).contains(&"action cowboys box 1".to_string()));
}

#[test]
fn a_player_without_money_can_only_pass() {
    let g = game();
    let mut s = position(
        &g,
        "  turn: 5\n  money: { red: 0, green: 3, blue: 3 }",
        "  order: [red, green, blue]",
    );
    assert_eq!(options(&g, &s), ["pass"]);
    choose(&g, &mut s, "pass");
    // green may bid 1..3.
    assert_eq!(options(&g, &s), ["bid 1", "bid 2", "bid 3", "pass"]);
}

// ---------------------------------------------------------------------------------------
// Actions: boxes

/// Red acts first: the position's order is green, blue, red and both others pass the auction.
fn red_first(g: &Game, vars: &str, zones: &str) -> State {
    let mut s = position(
        g,
        &format!("  turn: 5\n{vars}"),
        &format!("  order: [green, blue, red]\n{zones}"),
    );
    everybody_else_passes(g, &mut s, &["green", "blue"]);
    assert_eq!(decider(g, &s), "red");
    s
}

#[test]
fn a_box_is_blocked_for_the_round_and_passing_discards_a_marker() {
    // «Actions»: two actions each in turn order; a box holding a marker cannot be taken
    // again this turn. Red takes cowboys box 1; blue, next, is no longer offered it.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }",
        "  posse: { abilene: [red, green, blue] }",
    );
    choose(&g, &mut s, "action cowboys box 1");
    choose(&g, &mut s, "place cowboy in Abilene");
    choose(&g, &mut s, "done");
    assert_eq!(money(&g, &s, "red"), 9);
    assert_eq!(decider(&g, &s), "blue");
    let opts = options(&g, &s);
    assert!(!opts.contains(&"action cowboys box 1".to_string()));
    assert!(opts.contains(&"action cowboys box 2".to_string()));
    choose(&g, &mut s, "pass");
    assert_eq!(var(&g, &s, "markers", "blue"), 1);
}

#[test]
fn the_third_cattle_box_is_used_only_with_five_players() {
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }",
        "  posse: { san-antonia: [red] }",
    );
    let opts = options(&g, &s);
    assert!(opts.contains(&"action cattle box 2".to_string()));
    assert!(!opts.contains(&"action cattle box 3".to_string()));
    choose(&g, &mut s, "pass");

    let five = "red, green, blue, yellow, black";
    let mut s = position_with(
        &g,
        five,
        "  turn: 5\n  money: { red: 10, green: 10, blue: 10, yellow: 10, black: 10 }",
        "  order: [green, blue, yellow, black, red]\n  posse: { san-antonia: [red] }",
    );
    everybody_else_passes(&g, &mut s, &["green", "blue", "yellow", "black"]);
    assert!(options(&g, &s).contains(&"action cattle box 3".to_string()));
}

#[test]
fn cattle_open_a_town_only_when_more_than_half_the_corrals_below_are_full() {
    // «Bétail»: San Antonia (4 corrals) holds 2 cattle: not more than half, so Kansas City
    // is closed even though red has a cowboy there. A 3rd cattle in San Antonia (3 > 4/2)
    // opens Kansas City for the second cattle of the same action. Abilene stays closed
    // (Kansas City's 5 corrals hold 1 cattle). Red has no cowboy in Dodge City: never there.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }",
        "  herd: { san-antonia: [green, blue] }\n  posse: { san-antonia: [red], kansas-city: [red], abilene: [red] }",
    );
    choose(&g, &mut s, "action cattle box 1");
    assert_eq!(options(&g, &s), ["place cattle in San Antonia"]);
    choose(&g, &mut s, "place cattle in San Antonia");
    assert_eq!(
        options(&g, &s),
        [
            "place cattle in San Antonia",
            "place cattle in Kansas City",
            "done"
        ]
    );
    choose(&g, &mut s, "place cattle in Kansas City");
    assert_eq!(money(&g, &s, "red"), 10 - 2);
    assert_eq!(
        pieces(&g, &s, "herd", "san-antonia"),
        ["green", "blue", "red"]
    );
    assert_eq!(pieces(&g, &s, "herd", "kansas-city"), ["red"]);
}

#[test]
fn a_farmer_blocks_its_corral_and_sends_a_cattle_back() {
    // «Fermier»: San Antonia holds 3 cattle (green, blue, red) in its 4 corrals. Red puts its
    // farmer on green's cattle: it goes back to green; the farmer's corral cannot take
    // cattle, so San Antonia has 4 - 2 cattle - 1 farmer = 1 free corral left; a second
    // farmer there is not allowed (one per town).
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }",
        "  herd: { san-antonia: [green, blue, red] }\n  posse: { san-antonia: [red, green, blue] }",
    );
    choose(&g, &mut s, "action farmer");
    choose(&g, &mut s, "farmer in San Antonia");
    assert_eq!(
        options(&g, &s),
        [
            "a free corral",
            "replace cattle of red",
            "replace cattle of green",
            "replace cattle of blue"
        ]
    );
    choose(&g, &mut s, "replace cattle of green");
    assert_eq!(pieces(&g, &s, "herd", "san-antonia"), ["blue", "red"]);
    // blue: a cattle in San Antonia is still possible (one free corral); a farmer is not.
    assert_eq!(decider(&g, &s), "blue");
    choose(&g, &mut s, "action cattle box 1");
    choose(&g, &mut s, "place cattle in San Antonia");
    // The town is now full (3 cattle + the farmer) and blue has no cowboy in Kansas City:
    // no second cattle is possible, so the action ends without asking.
    assert_eq!(
        pieces(&g, &s, "herd", "san-antonia"),
        ["blue", "red", "blue"]
    );
    assert_eq!(decider(&g, &s), "green");
    assert!(
        !options(&g, &s).contains(&"action cattle box 2".to_string()),
        "no free corral left in an open town"
    );
}

#[test]
fn buildings_one_of_each_type_per_town_at_most_two_of_yours_and_the_spaces() {
    // «Bâtiments et transports»: red owns the stagecoach and the hotel of Abilene, so it
    // cannot build a third piece there; Kansas City has a jail already (green's), so no
    // jail there; San Antonia's 3 spaces are full. Red builds a jail for $3 in Dodge City.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 30, green: 10, blue: 10 }\n  lot_owner: { abilene-stagecoach: red, abilene-hotel: red, kansas-city-jail: green, san-antonia-stagecoach: green, san-antonia-hotel: blue, san-antonia-store: green }",
        "  posse: { abilene: [red] }",
    );
    choose(&g, &mut s, "action build jail");
    assert_eq!(
        options(&g, &s),
        ["build jail in Dodge City", "build jail in Deadwood"]
    );
    choose(&g, &mut s, "build jail in Dodge City");
    assert_eq!(money(&g, &s, "red"), 27);
    assert_eq!(owner(&g, &s, "dodge-city-jail"), "red");
}

#[test]
fn taking_over_a_building_goes_beyond_the_two_buildings_limit() {
    // «Bâtiments et transports»: "le seul moyen de dépasser cette limite est d'utiliser ses
    // cowboys pour prendre le contrôle de pions adverses". Red owns two pieces in Abilene and
    // takes green's store there with 2 cowboys against 1 (green fires first: miss; red: 5
    // and 1, one hit): red now owns three pieces in Abilene and a wanted marker.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 30, green: 10, blue: 10 }\n  lot_owner: { abilene-stagecoach: red, abilene-hotel: red, abilene-store: green }",
        "  posse: { abilene: [red, red, green] }",
    );
    choose(&g, &mut s, "action showdown box 1");
    choose(&g, &mut s, "showdown in Abilene");
    choose(&g, &mut s, "target store of green");
    choose(&g, &mut s, "fire"); // green, 1 fighter against 2, fires first
    dice(&g, &mut s, &[4]);
    choose(&g, &mut s, "fire"); // red
    dice(&g, &mut s, &[5, 1]);
    assert_eq!(owner(&g, &s, "abilene-store"), "red");
    assert_eq!(var(&g, &s, "wanted", "red"), 1);
    assert_eq!(count(&g, &s, "posse", "abilene", "green"), 0);
    assert_eq!(count(&g, &s, "posse", "abilene", "red"), 2);
}

// ---------------------------------------------------------------------------------------
// Stagecoaches

#[test]
fn stagecoach_fares_departure_owner_else_arrival_owner_never_your_own() {
    // «Déplacer des cowboys» and «Diligence»: red owns the stagecoach of Abilene, green
    // that of Deadwood. Red (mover) moves 4 cowboys:
    //   Abilene -> Deadwood: the departure coach is red's own, so the arrival's owner
    //     (green) earns $1;
    //   Kansas City -> Deadwood: no coach at the departure: green earns $1;
    //   Kansas City -> Abilene: no coach at the departure, the arrival's is red's own:
    //     nobody earns;
    //   Deadwood -> San Antonia: the departure coach is green's: green earns $1.
    // Green: 10 + 3 = 13, red unchanged at 10.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }\n  lot_owner: { abilene-stagecoach: red, deadwood-stagecoach: green }",
        "  posse: { abilene: [red, blue], kansas-city: [red, red], deadwood: [red, green] }",
    );
    choose(&g, &mut s, "action move up to 4 cowboys");
    choose(&g, &mut s, "move cowboy from Abilene to Deadwood");
    assert_eq!(money(&g, &s, "green"), 11);
    choose(&g, &mut s, "move cowboy from Kansas City to Deadwood");
    assert_eq!(money(&g, &s, "green"), 12);
    choose(&g, &mut s, "move cowboy from Kansas City to Abilene");
    assert_eq!([money(&g, &s, "red"), money(&g, &s, "green")], [10, 12]);
    choose(&g, &mut s, "move cowboy from Deadwood to San Antonia");
    assert_eq!(
        [
            money(&g, &s, "red"),
            money(&g, &s, "green"),
            money(&g, &s, "blue")
        ],
        [10, 13, 10]
    );

    // Blue, next in turn, moves its Abilene cowboy to Deadwood: the departure coach is red's
    // (not blue's), so red earns $1, and green nothing.
    assert_eq!(decider(&g, &s), "blue");
    choose(&g, &mut s, "action move up to 2 cowboys");
    choose(&g, &mut s, "move cowboy from Abilene to Deadwood");
    assert_eq!([money(&g, &s, "red"), money(&g, &s, "green")], [11, 13]);
    choose(&g, &mut s, "done");

    // Green hires a cowboy in Abilene ($1, red's coach earns $1) and one in Deadwood (its
    // own coach: nothing): green 13 - 2 = 11, red 12.
    assert_eq!(decider(&g, &s), "green");
    choose(&g, &mut s, "action cowboys box 1");
    choose(&g, &mut s, "place cowboy in Abilene");
    choose(&g, &mut s, "place cowboy in Deadwood");
    assert_eq!([money(&g, &s, "red"), money(&g, &s, "green")], [12, 11]);
}

#[test]
fn retreating_cowboys_go_to_different_towns_and_pay_no_stagecoach() {
    // «Règlement de compte»: red (1 cowboy) attacks blue's hotel in Abilene, where blue has
    // 2 cowboys; green owns the stagecoach of Abilene and of every arrival town used below.
    // Red fires first (fewer): miss. Blue fires: miss. Red retreats instead of firing again:
    // its cowboy leaves for another town (not Abilene) without a fare. The attack has
    // failed: nothing changes hands, nobody gets a wanted marker.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }\n  lot_owner: { abilene-hotel: blue, abilene-stagecoach: green, deadwood-stagecoach: green }",
        "  posse: { abilene: [red, blue, blue] }",
    );
    choose(&g, &mut s, "action showdown box 1");
    choose(&g, &mut s, "showdown in Abilene");
    choose(&g, &mut s, "target hotel of blue");
    choose(&g, &mut s, "fire");
    dice(&g, &mut s, &[3]);
    choose(&g, &mut s, "fire"); // blue
    dice(&g, &mut s, &[1, 2]);
    choose(&g, &mut s, "retreat");
    assert!(!options(&g, &s).contains(&"retreat cowboy to Abilene".to_string()));
    choose(&g, &mut s, "retreat cowboy to Deadwood");
    assert_eq!(count(&g, &s, "posse", "deadwood", "red"), 1);
    assert_eq!(money(&g, &s, "green"), 10, "no stagecoach for a retreat");
    assert_eq!(owner(&g, &s, "abilene-hotel"), "blue");
    assert_eq!(var(&g, &s, "wanted", "red"), 0);
}

#[test]
fn a_defender_who_retreats_gives_up_the_target_and_spreads_out() {
    // Red (3 cowboys) attacks green's 2 cattle in San Antonia, where green has 2 cowboys:
    // green fires first (2 against 3): miss; red fires: miss; green retreats: its 2
    // cowboys go to two different towns (the second is not offered the first's town);
    // red's cattle replace green's and red takes a wanted marker.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }",
        "  herd: { san-antonia: [green, green, blue] }\n  posse: { san-antonia: [red, red, red, green, green] }",
    );
    choose(&g, &mut s, "action showdown box 1");
    choose(&g, &mut s, "showdown in San Antonia");
    assert_eq!(
        options(&g, &s),
        [
            "target 1 cattle of green",
            "target 1 cattle of blue",
            "target 2 cattle of green"
        ]
    );
    choose(&g, &mut s, "target 2 cattle of green");
    choose(&g, &mut s, "fire");
    dice(&g, &mut s, &[1, 1]);
    choose(&g, &mut s, "fire");
    dice(&g, &mut s, &[2, 3, 4]);
    assert_eq!(decider(&g, &s), "green");
    choose(&g, &mut s, "retreat");
    choose(&g, &mut s, "retreat cowboy to Abilene");
    assert!(!options(&g, &s).contains(&"retreat cowboy to Abilene".to_string()));
    choose(&g, &mut s, "retreat cowboy to Dodge City");
    assert_eq!(
        pieces(&g, &s, "herd", "san-antonia"),
        ["blue", "red", "red"]
    );
    assert_eq!(var(&g, &s, "wanted", "red"), 1);
}

// ---------------------------------------------------------------------------------------
// Showdowns: sheriff, farmer, lone defender, wanted markers

#[test]
fn the_sheriff_defending_a_farmer_dies_before_the_farmer() {
    // «Sheriff»: blue's jail in Kansas City. Red (2 cowboys) attacks the farmer there; blue
    // helps: farmer + sheriff = 2 against 2, simultaneous fire. Red rolls 6 and 1: one hit,
    // which kills the sheriff (the farmer is killed last when the sheriff defends it); the
    // defence rolls 2 and 3: no hit. Second volley: red 5 5 (the farmer falls), the farmer
    // 1. The farmer leaves the game; the jail stays blue's.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }\n  farmer_at: { kansas-city: true }\n  lot_owner: { kansas-city-jail: blue }",
        "  posse: { kansas-city: [red, red] }",
    );
    choose(&g, &mut s, "action showdown box 1");
    choose(&g, &mut s, "showdown in Kansas City");
    choose(&g, &mut s, "target the farmer");
    assert_eq!(decider(&g, &s), "blue");
    choose(&g, &mut s, "help");
    assert_eq!(var(&g, &s, "sd_mode", ""), 0, "2 against 2: simultaneous");
    choose(&g, &mut s, "fire"); // red; the farmer has nobody to decide for it
    dice(&g, &mut s, &[6, 1, 2, 3]);
    assert_eq!(
        [
            var(&g, &s, "sd_d_sheriff", ""),
            var(&g, &s, "sd_d_last", "")
        ],
        [0, 1]
    );
    choose(&g, &mut s, "fire");
    dice(&g, &mut s, &[5, 5, 1]);
    assert_eq!(var(&g, &s, "farmer_at", "kansas-city"), 0);
    assert_eq!(owner(&g, &s, "kansas-city-jail"), "blue");
    assert_eq!(var(&g, &s, "wanted", "red"), 1);
    assert_eq!(count(&g, &s, "posse", "kansas-city", "red"), 2);
}

#[test]
fn a_defender_without_cowboys_fires_one_die_and_the_attackers_bad_sheriff_joins() {
    // «Règlement de compte»: green has no cowboy in Deadwood, so it defends its store with
    // one die. Red holds the jail there: its bad sheriff adds a fighter (1 cowboy + sheriff
    // = 2 against 1): green fires first, 6: red's plain cowboy dies first, the bad sheriff
    // fights on and rolls 5: the store becomes red's.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }\n  lot_owner: { deadwood-jail: red, deadwood-store: green }",
        "  posse: { deadwood: [red] }",
    );
    choose(&g, &mut s, "action showdown box 1");
    choose(&g, &mut s, "showdown in Deadwood");
    choose(&g, &mut s, "target store of green");
    assert_eq!(
        [
            var(&g, &s, "sd_a_cow", ""),
            var(&g, &s, "sd_a_sheriff", ""),
            var(&g, &s, "sd_d_last", ""),
            var(&g, &s, "sd_mode", "")
        ],
        [1, 1, 1, 2]
    );
    choose(&g, &mut s, "fire"); // green
    dice(&g, &mut s, &[6]);
    assert_eq!(
        [var(&g, &s, "sd_a_cow", ""), var(&g, &s, "sd_a_sheriff", "")],
        [0, 1]
    );
    assert_eq!(count(&g, &s, "posse", "deadwood", "red"), 0);
    choose(&g, &mut s, "fire"); // red's sheriff
    dice(&g, &mut s, &[5]);
    assert_eq!(owner(&g, &s, "deadwood-store"), "red");
}

#[test]
fn attacking_a_jail_destroys_it() {
    // «Règlement de compte»: the jail's owner defends with its sheriff; red wins 2 against
    // 1 cowboy + 1 sheriff (simultaneous): red 5 6 kills the cowboy then the sheriff, green
    // 1 1 misses. The jail goes back to green's reserve: the lot is empty.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }\n  lot_owner: { dodge-city-jail: green }",
        "  posse: { dodge-city: [red, red, green] }",
    );
    choose(&g, &mut s, "action showdown box 2");
    choose(&g, &mut s, "showdown in Dodge City");
    choose(&g, &mut s, "target jail of green");
    assert_eq!(var(&g, &s, "sd_d_sheriff", ""), 1);
    choose(&g, &mut s, "fire");
    choose(&g, &mut s, "fire");
    dice(&g, &mut s, &[5, 6, 1, 1]);
    assert_eq!(owner(&g, &s, "dodge-city-jail"), "");
    assert_eq!(count(&g, &s, "posse", "dodge-city", "green"), 0);
}

#[test]
fn when_no_wanted_marker_is_left_the_winner_takes_one_from_a_player_of_its_choice() {
    // 13 markers: green 7, blue 6, none left. Red wins a showdown against the farmer
    // (1 die, red 2 cowboys fire second: the farmer misses, red hits) and takes blue's.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }\n  wanted: { green: 7, blue: 6 }\n  farmer_at: { abilene: true }",
        "  posse: { abilene: [red, red] }",
    );
    choose(&g, &mut s, "action showdown box 1");
    choose(&g, &mut s, "showdown in Abilene");
    choose(&g, &mut s, "target the farmer");
    dice(&g, &mut s, &[4]); // the farmer, 1 fighter, fires first and has nobody to decide
    choose(&g, &mut s, "fire");
    dice(&g, &mut s, &[6, 2]);
    assert_eq!(
        options(&g, &s),
        ["take wanted from green", "take wanted from blue"]
    );
    choose(&g, &mut s, "take wanted from blue");
    assert_eq!(
        [
            var(&g, &s, "wanted", "red"),
            var(&g, &s, "wanted", "green"),
            var(&g, &s, "wanted", "blue")
        ],
        [1, 7, 5]
    );
}

// ---------------------------------------------------------------------------------------
// End of the game

#[test]
fn equal_scores_share_the_victory() {
    // «Fin du jeu et victoire»: at turn 13 the game is over at once. Red and green each own
    // one building in Deadwood (size 2: 2 points each) and tie for its control (each
    // 1 piece: 2 / 2 = 1 each); all have $0, a three-way tie for the richest: "chacun des
    // ex-aequo marque la moitié des points, arrondi vers le bas": 5 / 2 = 2 each. Nobody has
    // a wanted marker: no bonus. Red 2 + 1 + 2 = 5, green 5, blue 2: red and green share
    // the victory.
    let g = game();
    let s = position(
        &g,
        "  turn: 13\n  money: { red: 0, green: 0, blue: 0 }\n  lot_owner: { deadwood-hotel: red, deadwood-store: green }",
        "  order: [red, green, blue]",
    );
    let Status::Over(outcome) = g.status(&s) else {
        panic!("the game should be over")
    };
    assert_eq!(outcome.scores, vec![5, 5, 2]);
    assert_eq!(outcome.ranks, vec![1, 1, 3]);
}

#[test]
fn moving_cattle_goes_anywhere_free_even_to_a_closed_town_without_a_cowboy() {
    // «Déplacer du bétail»: San Antonia's 4 corrals hold red, green, blue, green. Red has no
    // cowboy anywhere and Kansas City is empty, so Abilene and above are closed to new
    // cattle; moving one is still allowed to any free corral of another town. Only red's
    // own cattle can be moved (gap 7): every option starts from San Antonia.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }",
        "  herd: { san-antonia: [red, green, blue, green] }",
    );
    choose(&g, &mut s, "action move cattle");
    assert_eq!(
        options(&g, &s),
        [
            "move cattle from San Antonia to Kansas City",
            "move cattle from San Antonia to Abilene",
            "move cattle from San Antonia to Dodge City",
            "move cattle from San Antonia to Deadwood"
        ]
    );
    choose(&g, &mut s, "move cattle from San Antonia to Deadwood");
    assert_eq!(
        pieces(&g, &s, "herd", "san-antonia"),
        ["green", "blue", "green"]
    );
    assert_eq!(pieces(&g, &s, "herd", "deadwood"), ["red"]);
    assert_eq!(money(&g, &s, "red"), 10, "moving cattle is free");
}

#[test]
fn a_farmer_in_a_full_town_replaces_the_cattle_the_player_picks() {
    // «Fermier»: every corral of San Antonia is full (red, green, blue, green): the farmer
    // must take a cattle's corral; red picks one of blue's, which goes back to blue.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }",
        "  herd: { san-antonia: [red, green, blue, green] }",
    );
    choose(&g, &mut s, "action farmer");
    choose(&g, &mut s, "farmer in San Antonia");
    assert_eq!(
        options(&g, &s),
        [
            "replace cattle of red",
            "replace cattle of green",
            "replace cattle of blue"
        ]
    );
    choose(&g, &mut s, "replace cattle of blue");
    assert_eq!(
        pieces(&g, &s, "herd", "san-antonia"),
        ["red", "green", "green"]
    );
    assert_eq!(var(&g, &s, "farmer_at", "san-antonia"), 1);
    assert_eq!(var(&g, &s, "farmer_in_hand", "red"), 0);
}

#[test]
fn robbers_holding_the_towns_jail_may_stay_and_nobody_robs_their_own_bank() {
    // «Voler une banque»: red holds Abilene's jail and robs green's bank there: 3 cowboys +
    // the bad sheriff = 4 against the guard alone (green has no cowboy there, so no lone
    // die either: the guard is a fighter). The guard fires first: 1, miss; red rolls
    // 5 1 1 1: the guard falls. Loot 1 + 1 + 1 = $3: green 10 - 3 = 7, red 10 + 3 = 13. The
    // jail is red's own, so no flight: red's 3 cowboys stay and play passes to blue.
    let g = game();
    let mut s = red_first(
        &g,
        "  money: { red: 10, green: 10, blue: 10 }\n  lot_owner: { abilene-jail: red, abilene-bank: green, deadwood-bank: red }",
        "  posse: { abilene: [red, red, red], deadwood: [red] }",
    );
    choose(&g, &mut s, "action showdown box 1");
    // Red's own bank in Deadwood is no target: Deadwood has nothing else to attack.
    assert_eq!(options(&g, &s), ["showdown in Abilene"]);
    choose(&g, &mut s, "showdown in Abilene");
    assert_eq!(options(&g, &s), ["target bank of green"]);
    choose(&g, &mut s, "target bank of green");
    assert_eq!(
        [
            var(&g, &s, "sd_a_cow", ""),
            var(&g, &s, "sd_a_sheriff", ""),
            var(&g, &s, "sd_d_guard", ""),
            var(&g, &s, "sd_d_last", "")
        ],
        [3, 1, 1, 0]
    );
    choose(&g, &mut s, "fire"); // green's guard
    dice(&g, &mut s, &[1]);
    choose(&g, &mut s, "fire"); // red
    dice(&g, &mut s, &[5, 1, 1, 1]);
    dice(&g, &mut s, &[1, 1, 1]);
    assert_eq!([money(&g, &s, "red"), money(&g, &s, "green")], [13, 7]);
    assert_eq!(owner(&g, &s, "abilene-bank"), "green");
    assert_eq!(count(&g, &s, "posse", "abilene", "red"), 3);
    assert_eq!(decider(&g, &s), "blue");
}
