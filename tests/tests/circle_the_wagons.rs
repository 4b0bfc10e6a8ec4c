//! Circle the Wagons rule tests: placement legality, the skip draft, and scoring of
//! hand-built towns. The scoring cases are files in rulesets/circle-the-wagons/cases, each
//! with its hand computation written out; this file checks the ruleset against them.

use frontier_interpreter::{Choice, Game, Journal, State, Status};
use frontier_tests::*;
use serde_yaml::Value as Yaml;

fn game() -> Game {
    load_ruleset("circle-the-wagons")
}

/// A new game whose shuffle puts the cards in the order c01, c02, …, c18: the scoring
/// conditions are the backs of c01-c03 and the circle is c04-c18, clockwise.
fn ordered_start(game: &Game) -> State {
    let mut state = game.start(names(2)).expect("start");
    // Setup shuffles the cards first.
    let order: Vec<String> = (1..=18).map(|i| format!("c{i:02}")).collect();
    chance(game, &mut state, &order.join(" "));
    state
}

#[test]
fn setup_lays_three_conditions_and_a_circle_of_fifteen_then_player_two_names_the_start() {
    let g = game();
    let s = ordered_start(&g);
    assert_eq!(text(&g, &s, "laid_out"), "c01 c02 c03");
    // Their scoring sides are this game's conditions.
    assert_eq!(
        text(&g, &s, "map(conditions, it.id)"),
        text(&g, &s, "map(laid_out, it.scoring.id)")
    );
    assert_eq!(int(&g, &s, "len(circle)"), 15);
    // The second player decides before the first player's first turn.
    assert!(matches!(
        g.status(&s),
        Status::Decision {
            player: 1,
            options: 15
        }
    ));
    assert_eq!(options(&g, &s)[0], "start at c04");
}

#[test]
fn the_first_card_goes_at_the_origin_and_later_ones_touch_by_an_edge() {
    let g = game();
    let mut s = ordered_start(&g);
    choose(&g, &mut s, "start at c04");
    choose(&g, &mut s, "take c04");
    // An empty town: one position, upright or turned.
    assert_eq!(
        options(&g, &s),
        vec!["place c04 upright at (0,0)", "place c04 turned at (0,0)"]
    );
    choose(&g, &mut s, "place c04 upright at (0,0)");
    // p2 takes c05 and builds; then p1 takes c06 for a town of one card at (0,0)-(1,1).
    choose(&g, &mut s, "take c05");
    choose(&g, &mut s, "place c05 upright at (0,0)");
    choose(&g, &mut s, "take c06");
    let offered = options(&g, &s);
    let upright = |r: i32, c: i32| format!("place c06 upright at ({r},{c})");
    // Sharing an edge: beside, above, below, offset by one.
    for (r, c) in [
        (0, 2),
        (1, 2),
        (-1, 2),
        (2, 0),
        (2, 1),
        (-2, 0),
        (0, -2),
        (2, -1),
    ] {
        assert!(
            offered.contains(&upright(r, c)),
            "{r},{c} shares an edge: {offered:?}"
        );
    }
    // Covering fully or partly is allowed.
    for (r, c) in [(0, 0), (1, 1), (-1, -1), (0, 1)] {
        assert!(
            offered.contains(&upright(r, c)),
            "{r},{c} covers territories: {offered:?}"
        );
    }
    // Touching only at a corner is not.
    for (r, c) in [(2, 2), (-2, -2), (-2, 2), (2, -2)] {
        assert!(
            !offered.contains(&upright(r, c)),
            "{r},{c} touches a corner only"
        );
    }
    // Rows -2..=2 and columns -2..=2 give 25 top-left positions, of which the 4 corners
    // fail: 21 positions, each upright or turned.
    assert_eq!(offered.len(), 2 * 21);
}

#[test]
fn a_card_turned_half_way_reads_backwards_and_covers_what_lies_beneath() {
    let g = game();
    let mut s = ordered_start(&g);
    choose(&g, &mut s, "start at c04");
    choose(&g, &mut s, "take c04");
    choose(&g, &mut s, "place c04 upright at (0,0)");
    choose(&g, &mut s, "take c05");
    choose(&g, &mut s, "place c05 upright at (0,0)");
    choose(&g, &mut s, "take c06");
    choose(&g, &mut s, "place c06 turned at (1,1)");
    // Upright c04 fills (0,0) tl, (0,1) tr, (1,0) bl, (1,1) br. Turned c06 at (1,1): its br
    // at (1,1) (covering c04's br), its bl at (1,2), tr at (2,1), tl at (2,2).
    let at = |r: i32, c: i32| text(&g, &s, &format!("at(town[p1], pos({r}, {c}))"));
    assert_eq!(at(0, 0), "c04-tl");
    assert_eq!(at(1, 0), "c04-bl");
    assert_eq!(at(1, 1), "c06-br");
    assert_eq!(at(1, 2), "c06-bl");
    assert_eq!(at(2, 1), "c06-tr");
    assert_eq!(at(2, 2), "c06-tl");
    // 4 + 4 cells, one covered: 7 visible.
    assert_eq!(int(&g, &s, "len(cells(town[p1]))"), 7);
}

#[test]
fn skipped_cards_go_to_the_opponent_who_places_them_first_in_circle_order() {
    let g = game();
    let mut s = ordered_start(&g);
    // Circle c04..c18; p2 names c06, so the circle reads c06 … c18, c04, c05.
    choose(&g, &mut s, "start at c06");
    assert_eq!(options(&g, &s)[0], "take c06");
    assert!(options(&g, &s).contains(&"skip 2 and take c08".to_string()));
    choose(&g, &mut s, "skip 2 and take c08");
    assert_eq!(text(&g, &s, "received[p2]"), "c06 c07");
    choose(&g, &mut s, "place c08 upright at (0,0)");
    // p2 must place c06 now: every option places c06; no card can be taken yet.
    let offered = options(&g, &s);
    assert!(matches!(g.status(&s), Status::Decision { player: 1, .. }));
    assert!(
        offered.iter().all(|l| l.starts_with("place c06 ")),
        "{offered:?}"
    );
    choose(&g, &mut s, "place c06 upright at (0,0)");
    assert!(options(&g, &s).iter().all(|l| l.starts_with("place c07 ")));
    choose(&g, &mut s, "place c07 upright at (0,2)");
    // Then p2's own turn, from the card after the one p1 took.
    let offered = options(&g, &s);
    assert_eq!(offered[0], "take c09");
    assert_eq!(text(&g, &s, "first(circle)"), "c09");
    assert_eq!(int(&g, &s, "len(circle)"), 12);
    // Skipping the whole rest of the circle but one is allowed: 11 skips, taking c05.
    assert_eq!(offered.last().unwrap(), "skip 11 and take c05");
}

#[test]
fn the_game_ends_when_the_last_card_is_placed() {
    let g = game();
    let mut s = ordered_start(&g);
    choose(&g, &mut s, "start at c04");
    // p1 takes the last card of the circle at once: p2 receives the 14 others.
    choose(&g, &mut s, "skip 14 and take c18");
    choose(&g, &mut s, "place c18 upright at (0,0)");
    // p2 is placing c04, the first of the 14; 13 wait.
    assert_eq!(text(&g, &s, "placing"), "c04");
    assert_eq!(int(&g, &s, "len(received[p2])"), 13);
    for i in 4..=17 {
        assert!(
            !matches!(g.status(&s), Status::Over(_)),
            "c{i:02} is still to be placed"
        );
        let first = options(&g, &s)[0].clone();
        assert!(first.starts_with(&format!("place c{i:02} ")), "{first}");
        g.apply(&mut s, Choice::Option(0), &mut Journal::off())
            .unwrap();
    }
    assert!(matches!(g.status(&s), Status::Over(_)));
    assert_eq!(int(&g, &s, "len(cells(town[p1]))"), 4);
}

/// One hand-built town and what it scores, from rulesets/circle-the-wagons/cases.
struct Case {
    name: String,
    town: Vec<(i64, i64, String)>,
    opponent: Vec<(i64, i64, String)>,
    expect: serde_yaml::Mapping,
}

fn cells(v: Option<&Yaml>) -> Vec<(i64, i64, String)> {
    let Some(seq) = v.and_then(Yaml::as_sequence) else {
        return Vec::new();
    };
    seq.iter()
        .map(|c| {
            let c = c.as_sequence().expect("[row, col, id]");
            (
                c[0].as_i64().unwrap(),
                c[1].as_i64().unwrap(),
                c[2].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn cases() -> Vec<Case> {
    let dir = workspace().join("rulesets/circle-the-wagons/cases");
    let files = files_with_extension(&dir, "yaml");
    files
        .into_iter()
        .map(|f| {
            let doc: Yaml = serde_yaml::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
            Case {
                name: f.file_stem().unwrap().to_string_lossy().into_owned(),
                town: cells(doc.get("town")),
                opponent: cells(doc.get("opponent")),
                expect: doc
                    .get("expect")
                    .and_then(Yaml::as_mapping)
                    .cloned()
                    .expect("expect:"),
            }
        })
        .collect()
}

/// The case's towns as a position (red is the town scored, blue the opponent) with these
/// scoring conditions laid, played to its end: with an empty circle the game scores at once.
fn case_state(game: &Game, case: &Case, conditions: &[&str]) -> State {
    let list = |cells: &[(i64, i64, String)]| {
        cells
            .iter()
            .map(|(r, c, id)| format!("[{r}, {c}, {id}]"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        "players: [red, blue]\ninitial: rest\nvars: {{ active: red }}\nzones: {{ deck: [], conditions: [{}] }}\nboards:\n  town: {{ red: [{}], blue: [{}] }}\n",
        conditions.join(", "),
        list(&case.town),
        list(&case.opponent)
    );
    let state = game
        .state_from_yaml(&text)
        .unwrap_or_else(|e| panic!("{}: {e}\n{text}", case.name));
    assert!(
        matches!(game.status(&state), Status::Over(_)),
        "{}: nothing is left to place",
        case.name
    );
    state
}

/// Checks one case's expected values; returns the scoring cards it covers. Each card is
/// scored the way a game scores it: laid as the only condition, read from condition_points.
fn check(game: &Game, case: &Case) -> Vec<String> {
    let mut covered = Vec::new();
    for (key, want) in &case.expect {
        let key = key.as_str().unwrap();
        let want = want.clone();
        match key {
            "groups" => {
                let state = case_state(game, case, &[]);
                for (terrain, size) in want.as_mapping().expect("groups: terrain → size") {
                    let t = terrain.as_str().unwrap();
                    let source = format!("len(first(groups(town[red], it.terrain.id == \"{t}\")))");
                    assert_eq!(
                        int(game, &state, &source),
                        size.as_i64().unwrap(),
                        "{}: {source}",
                        case.name
                    );
                }
            }
            "group_total" => {
                let state = case_state(game, case, &[]);
                assert_eq!(
                    int(game, &state, "territory_points[red]"),
                    want.as_i64().unwrap(),
                    "{}: group_total",
                    case.name
                );
            }
            "holes" => {
                let state = case_state(game, case, &[]);
                assert_eq!(
                    int(game, &state, "len(holes(town[red]))"),
                    want.as_i64().unwrap(),
                    "{}: holes",
                    case.name
                );
            }
            card => {
                let state = case_state(game, case, &[card]);
                let got = int(game, &state, "condition_points[red]");
                assert_eq!(got, want.as_i64().unwrap(), "{}: {card}", case.name);
                covered.push(card.to_string());
            }
        }
    }
    covered
}

#[test]
fn hand_built_towns_score_as_computed_by_hand() {
    let g = game();
    let cases = cases();
    assert!(!cases.is_empty());
    let mut covered: Vec<String> = cases.iter().flat_map(|c| check(&g, c)).collect();
    covered.sort();
    covered.dedup();
    // Every scoring card has at least one case.
    let all = text(
        &g,
        &g.start(names(2)).expect("start"),
        "map(scoring_cards, it.id)",
    );
    let missing: Vec<&str> = all
        .split(' ')
        .filter(|id| !covered.iter().any(|c| c == id))
        .collect();
    assert!(
        missing.is_empty(),
        "scoring cards without a hand-computed case: {missing:?}"
    );
}

#[test]
fn final_score_adds_largest_groups_and_the_three_conditions() {
    // Both towns empty but for red's c01 upright at (0,0): forest cow, plains bottle /
    // desert bottle, forest pickaxe. Largest groups: forest 1 (the two forests touch only
    // at a corner), plains 1, desert 1, others 0: 3 territory points.
    let g = game();
    let text = "players: [red, blue]\ninitial: rest\nvars: { active: red }\nzones: { deck: [] }\nboards:\n  town: { red: [[0, 0, c01-tl], [0, 1, c01-tr], [1, 0, c01-bl], [1, 1, c01-br]] }\n";
    let s = g.state_from_yaml(text).unwrap();
    let Status::Over(outcome) = g.status(&s) else {
        panic!("over")
    };
    assert_eq!(int(&g, &s, "territory_points[red]"), 3);
    // No scoring condition was laid (the position's zone is empty): the score is 3, blue 0.
    assert_eq!(outcome.scores, vec![3, 0]);
}

#[test]
fn a_town_is_drawn_as_a_grid_with_terrain_colours_in_a_terminal() {
    use frontier_interpreter::render::Style;
    // c01 upright at (0,0): forest cow, plains bottle / desert bottle, forest pickaxe.
    let g = game();
    let text = "players: [red, blue]\ninitial: rest\nvars: { active: red }\nzones: { deck: [] }\nboards:\n  town: { red: [[0, 0, c01-tl], [0, 1, c01-tr], [1, 0, c01-bl], [1, 1, c01-br]] }\n";
    let s = g.state_from_yaml(text).unwrap();
    let plain = g.render_state(&s, None);
    // Column numbers above, row numbers on the left, terrain letter then symbol letter.
    assert!(
        plain.contains("town[red]:\n     0  1 \n  0  Fc Pb\n  1  Db Fp\n"),
        "{plain}"
    );
    assert!(plain.contains("town[blue]:\n  (empty)\n"), "{plain}");
    // In a terminal each cell takes its terrain's colour: desert yellow (43), forest green (42).
    let coloured = g.render_state_styled(&s, None, Style::Colour);
    assert!(
        coloured.contains("\x1b[30;43mDb\x1b[0m") && coloured.contains("\x1b[30;42mFc\x1b[0m"),
        "{coloured}"
    );
}
