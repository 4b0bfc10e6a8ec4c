//! The API in process: the router served on a free loopback port by a thread of the test,
//! spoken to over plain HTTP/1.1. No browser (cli/tests/serve_browser.rs drives one).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use frontier_study::Settings;
use serde_json::{json, Value};

#[path = "../../tests/support/json_keys.rs"]
mod json_keys;
use json_keys::keys_of;

/// A server for one test, with at most `max_games` games.
fn server(max_games: usize) -> SocketAddr {
    server_with(None, max_games)
}

/// A server that also offers the rulesets of a folder (`frontier serve --rulesets`).
fn server_with(rulesets: Option<&std::path::Path>, max_games: usize) -> SocketAddr {
    let app = super::app(
        rulesets,
        max_games,
        Duration::from_secs(3600),
        &Settings::default(),
    )
    .expect("the embedded rulesets load");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a free port");
            tx.send(listener.local_addr().expect("its address"))
                .expect("the test waits");
            axum::serve(listener, super::router(app))
                .await
                .expect("the server runs");
        });
    });
    rx.recv().expect("the server starts")
}

/// One request; the status and the body.
fn request(at: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(at).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a timeout");
    let body = body.unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {at}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|_| stream.write_all(body.as_bytes()))
        .expect("sends");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("reads");
    let answer = String::from_utf8(answer).expect("UTF-8");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, body.to_string())
}

fn get(at: SocketAddr, path: &str) -> (u16, Value) {
    let (status, body) = request(at, "GET", path, None);
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

fn post(at: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (status, body) = request(at, "POST", path, Some(&body.to_string()));
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

fn new_game(at: SocketAddr, ruleset: &str, seats: &[&str], seed: u64) -> Value {
    let (status, view) = post(
        at,
        "/api/games",
        &json!({ "ruleset": ruleset, "seats": seats, "seed": seed }),
    );
    assert_eq!(status, 201, "{view}");
    view
}

#[test]
fn the_start_page_and_the_ruleset_list_name_every_ruleset() {
    let at = server(4);
    let (status, page) = request(at, "GET", "/", None);
    assert_eq!(status, 200);
    let (_, list) = get(at, "/api/rulesets");
    let names: Vec<&str> = list["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    for e in crate::source::RULESETS {
        assert!(
            page.contains(&format!("data-name=\"{}\"", e.name)),
            "the start page lacks {}",
            e.name
        );
        assert!(names.contains(&e.name), "/api/rulesets lacks {}", e.name);
    }
    let go_west = list["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "go-west")
        .unwrap();
    assert_eq!(
        (
            go_west["min_players"].as_u64(),
            go_west["max_players"].as_u64()
        ),
        (Some(2), Some(4))
    );
    assert!(go_west["params"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "track_size" && p["min"] == 1));
    let (status, one) = get(at, "/api/rulesets/go-west");
    assert_eq!(status, 200);
    assert!(one["description"].as_str().unwrap().contains("Go West"));
    for asset in ["style.css", "start.js", "game.js", "replay.js"] {
        assert_eq!(
            request(at, "GET", &format!("/assets/{asset}"), None).0,
            200,
            "{asset}"
        );
    }
}

#[test]
fn bad_requests_get_a_4xx_with_a_message() {
    let at = server(4);
    let game = new_game(at, "circle-the-wagons", &["human", "random"], 1);
    let id = game["id"].as_str().unwrap();
    let cases: Vec<(&str, String, Option<String>, u16, &str)> = vec![
        ("GET", "/api/no-such-endpoint".into(), None, 404, "no such endpoint"),
        ("POST", "/api/games".into(), Some("{\"garbage\":".into()), 400, "body"),
        ("POST", "/api/games".into(), Some("[1, 2]".into()), 400, "body"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "nope", "seats": ["human"]}).to_string()), 400, "no ruleset 'nope'"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human"]}).to_string()), 400, "2 to 4 players"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "genius"]}).to_string()), 400, "unknown agent"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "mcts:iterations=99999999"]}).to_string()), 400, "iterations"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "random"], "params": {"nope": 1}}).to_string()), 400, "nope"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "random"], "params": {"track_size": 0}}).to_string()), 400, "(at least 1)"),
        ("GET", "/api/games/ffff".into(), None, 404, "no game"),
        ("GET", format!("/api/games/{id}?seat=7"), None, 400, "2 seats"),
        ("GET", format!("/api/games/{id}?seat=x"), None, 400, "seat number"),
        ("GET", format!("/api/games/{id}/options"), None, 400, "seat"),
        ("POST", format!("/api/games/{id}/choice"), Some(json!({"seat": 0, "option": 999}).to_string()), 400, "does not exist"),
        ("POST", format!("/api/games/{id}/choice"), Some(json!({"seat": 0, "option": "fly away"}).to_string()), 400, "not an option"),
        ("POST", format!("/api/games/{id}/choice"), Some(json!({"seat": 1, "option": 0}).to_string()), 409, "decision"),
        ("POST", format!("/api/games/{id}/choice"), Some(json!({"seat": 0, "option": 0, "steps": 9999}).to_string()), 409, "moved on"),
        ("POST", format!("/api/games/{id}/undo"), Some(json!({"seat": 0}).to_string()), 409, "no decision to take back"),
        ("POST", "/api/replay".into(), Some(json!({"trace": "frontier-trace 1\nruleset nowhere\nplayers a b\n"}).to_string()), 400, "nowhere"),
    ];
    for (method, path, body, want, says) in cases {
        let (status, answer) = request(at, method, &path, body.as_deref());
        assert_eq!(status, want, "{method} {path} {body:?}: {answer}");
        let error: Value = serde_json::from_str(&answer)
            .unwrap_or_else(|_| panic!("{method} {path}: not JSON: {answer}"));
        let message = error["error"].as_str().unwrap_or_default();
        assert!(
            message.contains(says),
            "{method} {path}: {message:?} does not say {says:?}"
        );
    }
    // The server still answers.
    assert_eq!(get(at, &format!("/api/games/{id}?seat=0")).0, 200);
}

#[test]
fn a_game_against_a_bot_runs_to_its_end_and_its_trace_checks_clean() {
    let at = server(4);
    let mut view = new_game(at, "circle-the-wagons", &["human", "random"], 7);
    let id = view["id"].as_str().unwrap().to_string();
    let mut choices = 0;
    while view["outcome"].is_null() {
        let decision = &view["decision"];
        assert!(
            decision.is_object(),
            "a person's seat waits on a decision or the game is over: {view}"
        );
        // Placements name the cells they take; the drawn board marks them as targets.
        if let Some(option) = decision["options"].as_array().unwrap().iter().find(|o| {
            o["keys"][0]
                .as_str()
                .is_some_and(|k| k.starts_with("cell:"))
        }) {
            let key = option["keys"][0].as_str().unwrap();
            assert!(
                view["html"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("data-key=\"{key}\"")),
                "{key} is drawn"
            );
        }
        let (status, next) = post(
            at,
            &format!("/api/games/{id}/choice"),
            &json!({ "seat": 0, "option": 0, "steps": view["steps"] }),
        );
        assert_eq!(status, 200, "{next}");
        view = next;
        choices += 1;
        assert!(choices < 500, "the game does not end");
    }
    assert_eq!(view["outcome"]["scores"].as_array().unwrap().len(), 2);
    let (status, trace) = request(at, "GET", &format!("/api/games/{id}/trace"), None);
    assert_eq!(status, 200);
    assert!(
        trace.contains("ruleset circle-the-wagons") && trace.contains("seed 7"),
        "{trace}"
    );
    let parsed =
        frontier_interpreter::frontier_grammar::trace::parse(&trace).expect("the trace parses");
    let game = crate::source::load_ruleset("circle-the-wagons", &Settings::default()).unwrap();
    let start =
        frontier_interpreter::trace::starting_state(&game, &parsed, |_| Err("no position".into()))
            .unwrap();
    frontier_interpreter::trace::replay(&game, &parsed, start, |_| {})
        .expect("the trace checks clean");
    // The replay page's endpoint replays it too, one frame per step.
    let (status, replay) = post(at, "/api/replay", &json!({ "trace": trace }));
    assert_eq!(status, 200, "{replay}");
    assert!(replay["error"].is_null());
    assert_eq!(
        replay["frames"].as_array().unwrap().len(),
        parsed
            .body
            .iter()
            .filter(|l| matches!(
                l.kind,
                frontier_interpreter::frontier_grammar::trace::LineKind::Decision { .. }
                    | frontier_interpreter::frontier_grammar::trace::LineKind::Chance { .. }
            ))
            .count()
            + 1
    );
}

#[test]
fn a_seat_sees_its_own_hand_and_not_the_others() {
    let at = server(4);
    let view = new_game(at, "go-west", &["human", "human"], 3);
    let id = view["id"].as_str().unwrap();
    let hand = |seat: u64, of: usize| -> Vec<Value> {
        let (_, v) = get(at, &format!("/api/games/{id}?seat={seat}"));
        let zones = v["scene"]["players"][of]["zones"]
            .as_array()
            .unwrap()
            .clone();
        zones.into_iter().find(|z| z["name"] == "hand").unwrap()["cards"]
            .as_array()
            .unwrap()
            .clone()
    };
    assert!(
        !hand(0, 0).is_empty()
            && hand(0, 0)
                .iter()
                .all(|c| c["face_down"] == false && c["key"].is_string())
    );
    assert!(hand(0, 1)
        .iter()
        .all(|c| c["face_down"] == true && c["key"].is_null() && c["id"] == ""));
    assert!(hand(1, 1).iter().all(|c| c["face_down"] == false));
    // What every player sees (hot seat between two hands): no hand, no decision.
    let (_, table) = get(at, &format!("/api/games/{id}"));
    assert!(table["decision"].is_null());
    let hands = table["scene"]["players"].as_array().unwrap();
    assert!(hands.iter().all(|p| p["zones"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|z| z["name"] == "hand")
        .all(|z| z["cards"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["face_down"] == true))));
    // Only the deciding seat gets the options.
    let decider = table["decider"].as_u64().unwrap();
    assert!(get(at, &format!("/api/games/{id}/options?seat={decider}")).1["decision"].is_object());
    assert!(
        get(at, &format!("/api/games/{id}/options?seat={}", 1 - decider)).1["decision"].is_null()
    );
}

#[test]
fn undo_goes_back_to_the_seat_s_last_decision() {
    let at = server(4);
    // Two people: nothing hidden is drawn between a decision and the next one of Circle
    // the Wagons' draft (the deck was shuffled at setup; the circle is face up).
    let view = new_game(at, "circle-the-wagons", &["human", "human"], 4);
    let id = view["id"].as_str().unwrap();
    let seat = view["decider"].as_u64().unwrap();
    let before = get(at, &format!("/api/games/{id}?seat={seat}")).1;
    let (status, after) = post(
        at,
        &format!("/api/games/{id}/choice"),
        &json!({ "seat": seat, "option": 1 }),
    );
    assert_eq!(status, 200, "{after}");
    assert_ne!(after["steps"], before["steps"]);
    // Whoever decides now, the seat takes back its own last decision.
    let (status, undone) = post(
        at,
        &format!("/api/games/{id}/undo"),
        &json!({ "seat": seat }),
    );
    assert_eq!(status, 200, "{undone}");
    assert_eq!(undone["steps"], before["steps"]);
    assert_eq!(undone["html"], before["html"]);
    assert_eq!(undone["log"], before["log"]);
}

#[test]
fn undo_is_refused_once_a_chance_result_came_up() {
    let at = server(4);
    // Go West draws cards (hidden until drawn) and shuffles: play until a chance step or a
    // draw comes between two decisions of seat 0, then undo must be refused.
    let mut view = new_game(at, "go-west", &["human", "random"], 12);
    let id = view["id"].as_str().unwrap().to_string();
    let mut refused = false;
    for _ in 0..80 {
        if view["outcome"].is_object() {
            break;
        }
        let (status, next) = post(
            at,
            &format!("/api/games/{id}/choice"),
            &json!({ "seat": 0, "option": 0 }),
        );
        assert_eq!(status, 200, "{next}");
        view = next;
        if let Some(reason) = view["undo"]["reason"].as_str() {
            if reason.contains("cannot be taken back") {
                let (status, answer) =
                    post(at, &format!("/api/games/{id}/undo"), &json!({ "seat": 0 }));
                assert_eq!(status, 409, "{answer}");
                refused = true;
                break;
            }
        }
    }
    assert!(
        refused,
        "no decision of seat 0 was followed by a hidden card or a chance result"
    );
}

#[test]
fn a_tampered_trace_shows_where_it_fails_and_the_legal_options() {
    let at = server(4);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../rulesets/circle-the-wagons/traces/full-game.trace");
    let text = std::fs::read_to_string(path).unwrap();
    let (status, clean) = post(at, "/api/replay", &json!({ "trace": text }));
    assert_eq!(status, 200);
    assert!(clean["error"].is_null(), "{}", clean["error"]);
    assert_eq!(
        clean["frames"].as_array().unwrap().len(),
        22,
        "the start and 21 steps"
    );
    let tampered = text.replacen(
        "p1: place c13 upright at (0,0)",
        "p1: place c13 upright at (5,5)",
        1,
    );
    let line = tampered.lines().position(|l| l.contains("(5,5)")).unwrap() + 1;
    let (status, failed) = post(at, "/api/replay", &json!({ "trace": tampered }));
    assert_eq!(status, 200);
    assert_eq!(
        failed["error"]["line"].as_u64(),
        Some(line as u64),
        "{}",
        failed["error"]
    );
    assert!(failed["error"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o == "place c13 upright at (0,0)"));
    // The frames stop before the failing step.
    assert!(failed["frames"].as_array().unwrap().len() < clean["frames"].as_array().unwrap().len());
}

#[test]
fn the_server_holds_a_bounded_number_of_games() {
    let at = server(2);
    new_game(at, "circle-the-wagons", &["human", "random"], 1);
    new_game(at, "circle-the-wagons", &["human", "random"], 2);
    let (status, answer) = post(
        at,
        "/api/games",
        &json!({ "ruleset": "circle-the-wagons", "seats": ["human", "random"] }),
    );
    assert_eq!(status, 503, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("--max-games"));
}

/// Every shipped ruleset draws its game at the start: a board, a map, cards, or (a game of
/// numbers only, as Pig) its counters.
#[test]
fn every_shipped_ruleset_draws_its_game_at_its_start() {
    let at = server(20);
    for e in crate::source::RULESETS {
        let game = crate::source::load_ruleset(e.name, &Settings::default()).unwrap();
        let seats: Vec<&str> = (0..game.meta.min_players)
            .map(|i| if i == 0 { "human" } else { "random" })
            .collect();
        let view = new_game(at, e.name, &seats, 1);
        let html = view["html"].as_str().unwrap();
        assert!(
            html.contains("<svg")
                || html.contains("class=\"card\"")
                || html.contains("class=\"counter\""),
            "{}: nothing drawn",
            e.name
        );
        assert!(
            !html.contains("(display error") && !html.contains("runtime error"),
            "{}: {html}",
            e.name
        );
    }
}

/// The keys a documented JSON example names (`"key":`), in the order written.
fn documented_keys(example: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut rest = example;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('"') else { break };
        let (word, tail) = (&after[..end], &after[end + 1..]);
        if tail.trim_start().starts_with(':') && !word.is_empty() && !word.contains('…') {
            keys.push(word.to_string());
        }
        rest = tail;
    }
    keys
}

/// docs/serve.md's examples of answers name only keys the API gives, and name every key
/// at the top of the answer: the ruleset list, a seat's view of a game, a replay.
#[test]
fn the_documented_answers_have_the_api_s_keys() {
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/serve.md"),
    )
    .unwrap();
    let blocks: Vec<&str> = docs
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap_or_default())
        .collect();
    // A folder with a broken ruleset, so that the list has its `broken` entry too.
    let folder = std::env::temp_dir().join(format!("frontier-serve-docs-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("broken.yaml"), "frontier: 1\nname: broken\n").unwrap();
    let at = server_with(Some(&folder), 4);
    let (_, rulesets) = get(at, "/api/rulesets");
    let _ = std::fs::remove_dir_all(&folder);
    // A view a few steps in, once the board has cells: take a card, then place it.
    let mut view = new_game(at, "circle-the-wagons", &["human", "random"], 7);
    let id = view["id"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let (status, next) = post(
            at,
            &format!("/api/games/{id}/choice"),
            &json!({ "seat": 0, "option": 0 }),
        );
        assert_eq!(status, 200, "{next}");
        view = next;
    }
    let trace = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulesets/circle-the-wagons/traces/full-game.trace"),
    )
    .unwrap();
    let tampered = trace.replacen(
        "p1: place c13 upright at (0,0)",
        "p1: place c13 upright at (5,5)",
        1,
    );
    let (_, replay) = post(at, "/api/replay", &json!({ "trace": tampered }));
    // The five ```json blocks, in order: the ruleset list, a new game's request, a view,
    // a choice's request, a replay.
    assert_eq!(
        blocks.len(),
        5,
        "docs/serve.md's JSON examples changed: update this test"
    );
    let answers = [
        ("GET /api/rulesets", &rulesets, blocks[0]),
        ("a seat's view", &view, blocks[2]),
        ("POST /api/replay", &replay, blocks[4]),
    ];
    for (what, answer, example) in answers {
        let mut given = std::collections::BTreeSet::new();
        keys_of(answer, &mut given);
        let named = documented_keys(example);
        let unknown: Vec<&String> = named.iter().filter(|k| !given.contains(*k)).collect();
        assert!(
            unknown.is_empty(),
            "{what}: docs/serve.md names {unknown:?}, which the answer lacks:\n{answer}"
        );
        let top: Vec<&String> = answer
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| !named.contains(k))
            .collect();
        assert!(
            top.is_empty(),
            "{what}: the answer has {top:?}, which docs/serve.md does not show"
        );
    }
}
