//! The API in process: the router served on a free loopback port by a thread of the test,
//! spoken to over plain HTTP/1.1. No browser (cli/tests/serve_browser.rs drives one).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use frontier_study::Settings;
use serde_json::{json, Value};

use super::guard::IDLE_CONNECTION;

#[path = "../../tests/support/json_keys.rs"]
mod json_keys;
use json_keys::keys_of;

/// A server for one test, with at most `max_games` games.
fn server(max_games: usize) -> SocketAddr {
    server_with(None, max_games)
}

/// A server that also offers the rulesets of a folder (`frontier serve --rulesets`).
fn server_with(rulesets: Option<&std::path::Path>, max_games: usize) -> SocketAddr {
    let (at, stop) = stoppable_server(rulesets, max_games, IDLE_CONNECTION, 5000);
    // Runs until the test's process ends.
    std::mem::forget(stop);
    at
}

/// A server whose connections close after `idle` and whose bots think at most `move_ms`
/// per decision, stopped (with its games and their bots) when the sender is dropped.
fn stoppable_server(
    rulesets: Option<&std::path::Path>,
    max_games: usize,
    idle: Duration,
    move_ms: u32,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let app = super::app(
        rulesets,
        max_games,
        Duration::from_secs(3600),
        move_ms,
        &Settings::default(),
    )
    .expect("the embedded rulesets load");
    let (tx, rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a free port");
            let bound = listener.local_addr().expect("its address");
            tx.send(bound).expect("the test waits");
            let hosts = super::guard::Hosts::new(bound, Vec::new());
            axum::serve(
                super::guard::IdleClosing::after(listener, idle),
                super::router(app, hosts),
            )
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
            .expect("the server runs");
        });
        // The runtime is dropped here: the games' drivers stop at their next await.
    });
    (rx.recv().expect("the server starts"), stop)
}

/// One request; the status and the body.
fn request(at: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, _, body) = exchange(at, method, path, body, &format!("Host: {at}\r\n"));
    (status, body)
}

/// One request with these header lines (each ending with CRLF; the Host among them); the
/// status, the head and the body.
fn exchange(
    at: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &str,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(at).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a timeout");
    let body = body.unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\n{headers}Connection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
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
    (status, head.to_string(), body.to_string())
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

/// A new game: its id, each seat's token (none for bots), and the view that the first
/// person's seat has once the bots before them have played.
fn new_game(at: SocketAddr, ruleset: &str, seats: &[&str], seed: u64) -> Game {
    let (status, view) = post(
        at,
        "/api/games",
        &json!({ "ruleset": ruleset, "seats": seats, "seed": seed }),
    );
    assert_eq!(status, 201, "{view}");
    let id = view["id"].as_str().unwrap().to_string();
    let tokens = view["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().map(str::to_string))
        .collect();
    let mut game = Game {
        at,
        id,
        tokens,
        view,
    };
    let first = game.tokens.iter().position(Option::is_some);
    game.view = game.settled(first.map(|s| s as u8));
    game
}

struct Game {
    at: SocketAddr,
    id: String,
    tokens: Vec<Option<String>>,
    /// The latest view read.
    view: Value,
}

impl Game {
    /// The path of seat `seat`'s view (with its token), or the table's.
    fn path(&self, seat: Option<u8>) -> String {
        match seat {
            Some(s) => format!(
                "/api/games/{}?seat={s}&token={}",
                self.id,
                self.tokens[s as usize].as_deref().unwrap_or_default()
            ),
            None => format!("/api/games/{}", self.id),
        }
    }

    fn read(&self, seat: Option<u8>) -> Value {
        let (status, view) = get(self.at, &self.path(seat));
        assert_eq!(status, 200, "{view}");
        view
    }

    /// The view once the game waits on a person, is over or stopped (its bots and chance
    /// are played by the server after the answer).
    fn settled(&self, seat: Option<u8>) -> Value {
        let started = std::time::Instant::now();
        loop {
            let view = self.read(seat);
            if view["busy"] == false {
                return view;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "the game does not come to a person: {view}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Takes `option` for `seat` (with its token) on the view of `steps` steps; the status
    /// and, when taken, the seat's view once the bots that follow have played.
    fn choose(&mut self, seat: u8, option: usize, steps: Option<&Value>) -> (u16, Value) {
        let mut body = json!({ "seat": seat, "option": option });
        if let Some(steps) = steps {
            body["steps"] = steps.clone();
        }
        let (status, answer) = post(
            self.at,
            &format!(
                "/api/games/{}/choice?token={}",
                self.id,
                self.tokens[seat as usize].as_deref().unwrap_or_default()
            ),
            &body,
        );
        if status != 200 {
            return (status, answer);
        }
        self.view = self.settled(Some(seat));
        (status, self.view.clone())
    }

    fn undo(&self, seat: u8) -> (u16, Value) {
        post(
            self.at,
            &format!(
                "/api/games/{}/undo?token={}",
                self.id,
                self.tokens[seat as usize].as_deref().unwrap_or_default()
            ),
            &json!({ "seat": seat }),
        )
    }
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
    let (id, token) = (&game.id, game.tokens[0].as_deref().unwrap());
    let cases: Vec<(&str, String, Option<String>, u16, &str)> = vec![
        ("GET", "/api/no-such-endpoint".into(), None, 404, "no such endpoint"),
        ("POST", "/api/games".into(), Some("{\"garbage\":".into()), 400, "body"),
        ("POST", "/api/games".into(), Some("[1, 2]".into()), 400, "body"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "nope", "seats": ["human"]}).to_string()), 400, "no ruleset 'nope'"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human"]}).to_string()), 400, "2 to 4 players"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "genius"]}).to_string()), 400, "unknown agent"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "mcts:iterations=99999999"]}).to_string()), 400, "iterations"),
        // A time budget alone is refused for being one, not for its unbounded iterations.
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "mcts:ms=10"]}).to_string()), 400, "time budgets (ms=) are not taken"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "random"], "params": {"nope": 1}}).to_string()), 400, "nope"),
        ("POST", "/api/games".into(), Some(json!({"ruleset": "go-west", "seats": ["human", "random"], "params": {"track_size": 0}}).to_string()), 400, "(at least 1)"),
        ("GET", "/api/games/ffff".into(), None, 404, "no game"),
        ("GET", format!("/api/games/{id}?seat=7"), None, 400, "2 seats"),
        ("GET", format!("/api/games/{id}?seat=x"), None, 400, "seat number"),
        ("GET", format!("/api/games/{id}/options"), None, 400, "seat"),
        // A seat's hidden things and decisions need its token.
        ("GET", format!("/api/games/{id}?seat=0"), None, 403, "need the seat's token"),
        ("GET", format!("/api/games/{id}?seat=0&token=0123"), None, 403, "not p1's"),
        ("GET", format!("/api/games/{id}?seat=1&token={token}"), None, 403, "played by a bot"),
        ("GET", format!("/api/games/{id}/options?seat=0"), None, 403, "token"),
        ("POST", format!("/api/games/{id}/choice"), Some(json!({"seat": 0, "option": 0}).to_string()), 403, "token"),
        ("POST", format!("/api/games/{id}/undo"), Some(json!({"seat": 0}).to_string()), 403, "token"),
        ("GET", format!("/api/games/{id}/trace"), None, 403, "once the game is over"),
        ("POST", format!("/api/games/{id}/choice?token={token}"), Some(json!({"seat": 0, "option": 999}).to_string()), 400, "does not exist"),
        ("POST", format!("/api/games/{id}/choice?token={token}"), Some(json!({"seat": 0, "option": "fly away"}).to_string()), 400, "not an option"),
        ("POST", format!("/api/games/{id}/choice?token={token}"), Some(json!({"seat": 1, "option": 0}).to_string()), 403, "played by a bot"),
        ("POST", format!("/api/games/{id}/choice?token={token}"), Some(json!({"seat": 99, "option": 0}).to_string()), 400, "2 seats"),
        ("POST", format!("/api/games/{id}/choice?token={token}"), Some(json!({"seat": 0, "option": 0, "steps": 9999}).to_string()), 409, "moved on"),
        ("POST", format!("/api/games/{id}/undo?token={token}"), Some(json!({"seat": 0}).to_string()), 409, "no decision to take back"),
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
    // The server still answers, and the seat's token opens its view.
    assert_eq!(get(at, &game.path(Some(0))).0, 200);
}

#[test]
fn a_game_against_a_bot_runs_to_its_end_and_its_trace_checks_clean() {
    let at = server(4);
    let mut game = new_game(at, "circle-the-wagons", &["human", "random"], 7);
    let id = game.id.clone();
    let mut view = game.view.clone();
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
        let steps = view["steps"].clone();
        let (status, next) = game.choose(0, 0, Some(&steps));
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
    let game = new_game(at, "go-west", &["human", "human"], 3);
    let id = &game.id;
    let hand = |seat: u8, of: usize| -> Vec<Value> {
        let v = game.read(Some(seat));
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
    let decider = table["decider"].as_u64().unwrap() as usize;
    let options = |seat: usize| {
        let token = game.tokens[seat].as_deref().unwrap();
        get(
            at,
            &format!("/api/games/{id}/options?seat={seat}&token={token}"),
        )
        .1
    };
    assert!(options(decider)["decision"].is_object());
    assert!(options(1 - decider)["decision"].is_null());
}

#[test]
fn undo_goes_back_to_the_seat_s_last_decision() {
    let at = server(4);
    // Two people: nothing hidden is drawn between a decision and the next one of Circle
    // the Wagons' draft (the deck was shuffled at setup; the circle is face up).
    let mut game = new_game(at, "circle-the-wagons", &["human", "human"], 4);
    let seat = game.view["decider"].as_u64().unwrap() as u8;
    let before = game.read(Some(seat));
    let (status, after) = game.choose(seat, 1, None);
    assert_eq!(status, 200, "{after}");
    assert_ne!(after["steps"], before["steps"]);
    // Whoever decides now, the seat takes back its own last decision.
    let (status, undone) = game.undo(seat);
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
    let mut game = new_game(at, "go-west", &["human", "random"], 12);
    let mut view = game.view.clone();
    let mut refused = false;
    for _ in 0..80 {
        if view["outcome"].is_object() {
            break;
        }
        let (status, next) = game.choose(0, 0, None);
        assert_eq!(status, 200, "{next}");
        view = next;
        if let Some(reason) = view["undo"]["reason"].as_str() {
            if reason.contains("cannot be taken back") {
                let (status, answer) = game.undo(0);
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
        let view = new_game(at, e.name, &seats, 1).view;
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
    let mut game = new_game(at, "circle-the-wagons", &["human", "random"], 7);
    let mut view = game.view.clone();
    for _ in 0..2 {
        let (status, next) = game.choose(0, 0, None);
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

/// Every answer carries the headers that keep other sites' pages from framing, sniffing or
/// reading it; a request naming another host (DNS rebinding) is refused.
#[test]
fn answers_carry_security_headers_and_a_foreign_host_is_refused() {
    let at = server(2);
    for path in ["/", "/assets/game.js", "/api/rulesets", "/api/nowhere"] {
        let (_, head, _) = exchange(at, "GET", path, None, &format!("Host: {at}\r\n"));
        let head = head.to_ascii_lowercase();
        for header in [
            "content-security-policy: default-src 'self'",
            "frame-ancestors 'none'",
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
            "referrer-policy: no-referrer",
        ] {
            assert!(head.contains(header), "{path} lacks {header}:\n{head}");
        }
    }
    let port = at.port();
    for (host, want) in [
        (format!("localhost:{port}"), 200),
        (format!("attacker.example:{port}"), 421),
        ("attacker.example".to_string(), 421),
        (format!("127.0.0.1:{}", port.wrapping_add(1)), 421),
    ] {
        let (status, _, body) = exchange(
            at,
            "GET",
            "/api/rulesets",
            None,
            &format!("Host: {host}\r\n"),
        );
        assert_eq!(status, want, "Host: {host}: {body}");
    }
}

/// A body over the limit is refused with 413, not read whole.
#[test]
fn an_oversized_body_gets_413() {
    let at = server(2);
    let big = format!(
        "{{\"trace\": \"{}\"}}",
        "a".repeat(super::guard::MAX_BODY_BYTES + 1)
    );
    let (status, body) = request(at, "POST", "/api/replay", Some(&big));
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("larger than"), "{body}");
}

/// Game ids and seat tokens are 128 random bits: one game's id says nothing of the next's.
/// Only people's seats have tokens, and the creator gets each with a link to hand out.
#[test]
fn ids_and_tokens_are_random_and_only_people_have_tokens() {
    let at = server(4);
    let (_, one) = post(
        at,
        "/api/games",
        &json!({"ruleset": "go-west", "seats": ["human", "random", "human"], "seed": 1}),
    );
    let (_, two) = post(
        at,
        "/api/games",
        &json!({"ruleset": "go-west", "seats": ["human", "random", "human"], "seed": 1}),
    );
    let hex = |v: &Value| {
        let s = v.as_str().unwrap_or_default().to_string();
        assert!(
            s.len() == 32 && s.chars().all(|c| c.is_ascii_hexdigit()),
            "not 128 bits in hex: {v}"
        );
        s
    };
    let (id1, id2) = (hex(&one["id"]), hex(&two["id"]));
    assert_ne!(id1, id2);
    let tokens = one["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 3);
    assert!(tokens[1].is_null(), "a bot's seat has no token");
    let (t0, t2) = (hex(&tokens[0]), hex(&tokens[2]));
    assert_ne!(t0, t2);
    assert_ne!(t0, hex(&two["tokens"][0]));
    assert_eq!(
        one["links"],
        json!([
            format!("/game/{id1}?seat=0#token={t0}"),
            null,
            format!("/game/{id1}?seat=2#token={t2}")
        ])
    );
    assert_eq!(
        one["hotseat_link"],
        json!(format!("/game/{id1}?hotseat=1#tokens={t0},,{t2}"))
    );
    // One seat's token opens that seat only; the header does what the query does.
    let with_header = |seat: u8, token: &str| {
        exchange(
            at,
            "GET",
            &format!("/api/games/{id1}?seat={seat}"),
            None,
            &format!("Host: {at}\r\nX-Seat-Token: {token}\r\n"),
        )
        .0
    };
    assert_eq!(with_header(0, &t0), 200);
    assert_eq!(with_header(2, &t2), 200);
    assert_eq!(with_header(2, &t0), 403);
    assert_eq!(with_header(1, &t0), 403);
}

/// A spectator (no seat) reads no one's hidden cards, not even in the log: a person's
/// private lines are not written to the log that everyone reads.
#[test]
fn a_spectator_sees_only_what_every_player_sees() {
    let at = server(4);
    let game = new_game(at, "go-west", &["human", "random"], 5);
    let table = game.read(None);
    let own = game.read(Some(0));
    let hand = |view: &Value| -> Vec<String> {
        view["scene"]["players"][0]["zones"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|z| z["name"] == "hand")
            .flat_map(|z| z["cards"].as_array().unwrap().clone())
            .map(|c| c["id"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let cards = hand(&own);
    assert!(!cards.is_empty() && cards.iter().all(|c| !c.is_empty()));
    assert!(
        hand(&table).iter().all(String::is_empty),
        "{}",
        table["scene"]
    );
    assert!(table["decision"].is_null());
    let log = table["log"].to_string();
    for card in &cards {
        assert!(
            !log.contains(&format!("{card} ")) && !log.contains(&format!("{card}\"")),
            "the spectator's log names {card} of p1's hand: {log}"
        );
    }
}

/// A person reads their own private lines in the log (the card dealt to them), which the
/// spectator's log and the other person's hide: each reader has their log.
#[test]
fn each_person_reads_their_own_private_lines_in_the_log() {
    let at = server(4);
    let lines = |view: &Value| -> Vec<String> {
        view["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect()
    };
    let face_down = "chance: drawn face down";
    // Kuhn poker deals p1 then p2 a card (0, 1 or 2) by chance.
    let game = new_game(at, "kuhn-poker", &["human", "random"], 5);
    let own = lines(&game.read(Some(0)));
    let table = lines(&game.read(None));
    assert_eq!(table[..2], [face_down, face_down], "{table:?}");
    assert!(
        ["chance: 0", "chance: 1", "chance: 2"].contains(&own[0].as_str()),
        "p1 reads the card dealt to them: {own:?}"
    );
    assert_eq!(own[1], face_down, "{own:?}");
    // Two people: each reads their own card, not the other's.
    let game = new_game(at, "kuhn-poker", &["human", "human"], 5);
    let p1 = lines(&game.read(Some(0)));
    let p2 = lines(&game.read(Some(1)));
    assert_eq!(p1[1], face_down, "{p1:?}");
    assert_ne!(p1[0], face_down, "{p1:?}");
    assert_eq!(p2[0], face_down, "{p2:?}");
    assert_ne!(p2[1], face_down, "{p2:?}");
    assert_eq!(lines(&game.read(None))[..2], [face_down, face_down]);
    // Bots only: one log of everything.
    let game = new_game(at, "kuhn-poker", &["random", "random"], 5);
    assert!(!lines(&game.read(None)).iter().any(|l| l == face_down));
}

/// Bots think on the server's own time: a game of four search bots is created at once,
/// its page is told who thinks, and reads (of it and of the server) answer while they do.
#[test]
fn reads_answer_while_bots_think() {
    let (at, stop) = stoppable_server(None, 4, IDLE_CONNECTION, 5000);
    let started = std::time::Instant::now();
    let (status, created) = post(
        at,
        "/api/games",
        &json!({"ruleset": "go-west", "seats": ["mcts:iterations=3000", "mcts:iterations=3000", "mcts:iterations=3000", "mcts:iterations=3000"], "seed": 1}),
    );
    assert_eq!(status, 201, "{created}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "creating the game waited {:?} for its bots",
        started.elapsed()
    );
    let id = created["id"].as_str().unwrap();
    let mut saw_thinking = false;
    for _ in 0..10 {
        for path in [format!("/api/games/{id}"), "/api/rulesets".to_string()] {
            let asked = std::time::Instant::now();
            let (status, view) = get(at, &path);
            let took = asked.elapsed();
            assert_eq!(status, 200, "{view}");
            assert!(took < Duration::from_millis(500), "{path} took {took:?}");
            saw_thinking |= view["thinking"].is_u64();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(saw_thinking, "no view said that a bot was thinking");
    // The event stream says so too, and carries only what every player sees.
    let mut stream = TcpStream::connect(at).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: {at}\r\n\r\n"
    )
    .unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    while !seen.contains("\ndata:") || !seen.split("\ndata:").nth(1).unwrap().contains("\n\n") {
        let n = stream.read(&mut buffer).expect("the stream answers");
        assert!(n > 0, "the stream ended: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    assert!(
        seen.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{seen}"
    );
    assert!(seen.contains("event: progress"), "{seen}");
    let data = seen
        .split("\ndata:")
        .nth(1)
        .unwrap()
        .split('\n')
        .next()
        .unwrap();
    let progress: Value =
        serde_json::from_str(data.trim()).unwrap_or_else(|e| panic!("{e}: {seen:?}"));
    for key in ["version", "steps", "decider", "thinking", "over", "failure"] {
        assert!(progress.get(key).is_some(), "{key} in {progress}");
    }
    drop(stop);
}

/// A game stops at the server's bound on steps (a parameter far over its default made a
/// bot game run for 494,000 steps), with a message; a view gives the log's last lines.
#[test]
fn a_game_stops_at_the_bound_on_steps_and_views_give_the_log_s_end() {
    let (at, stop) = stoppable_server(None, 2, IDLE_CONNECTION, 5000);
    let (status, created) = post(
        at,
        "/api/games",
        &json!({"ruleset": "go-west", "seats": ["random", "random"], "seed": 3, "params": {"wagon_count": 30000}}),
    );
    assert_eq!(status, 201, "{created}");
    let game = Game {
        at,
        id: created["id"].as_str().unwrap().to_string(),
        tokens: vec![None, None],
        view: created,
    };
    let view = game.settled(None);
    let failure = view["failure"].as_str().unwrap_or_default();
    assert!(
        failure.contains(&format!("after {} steps", super::session::MAX_STEPS)),
        "{failure}"
    );
    assert_eq!(view["steps"], super::session::MAX_STEPS);
    assert!(view["outcome"].is_null());
    let lines = view["log"].as_array().unwrap().len();
    assert!(lines <= 500 && lines > 0, "{lines} log lines");
    assert!(view["log_from"].as_u64().unwrap() > 0);
    drop(stop);
}

/// A connection that sends nothing (or stops half-way) is closed once idle.
#[test]
fn an_idle_connection_is_closed() {
    let (at, stop) = stoppable_server(None, 1, Duration::from_millis(300), 5000);
    let mut stream = TcpStream::connect(at).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
    let started = std::time::Instant::now();
    let mut buffer = [0u8; 64];
    // Closed: end of stream (or a reset), well before the read's own timeout.
    let closed = match stream.read(&mut buffer) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    };
    assert!(closed, "the idle connection answered");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    drop(stop);
}

/// The replay draws the boards of the frames asked for only (a page at a time), but lists
/// every frame's line and log.
#[test]
fn a_replay_draws_only_the_frames_asked_for() {
    let at = server(2);
    let trace = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulesets/circle-the-wagons/traces/full-game.trace"),
    )
    .unwrap();
    let drawn = |answer: &Value| -> Vec<usize> {
        answer["frames"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .filter(|(_, f)| f["html"].is_string())
            .map(|(i, _)| i)
            .collect()
    };
    let (status, first) = post(at, "/api/replay", &json!({ "trace": trace }));
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["frames"].as_array().unwrap().len(), 22);
    assert_eq!(
        drawn(&first),
        (0..22).collect::<Vec<_>>(),
        "the first page holds them all"
    );
    let (_, page) = post(
        at,
        "/api/replay",
        &json!({ "trace": trace, "from": 10, "count": 3 }),
    );
    assert_eq!(drawn(&page), vec![10, 11, 12]);
    assert_eq!(page["frames"][15]["line"], first["frames"][15]["line"]);
    assert_eq!(page["frames"][11]["html"], first["frames"][11]["html"]);
    let (_, past) = post(
        at,
        "/api/replay",
        &json!({ "trace": trace, "from": 20, "count": 1000 }),
    );
    assert_eq!(drawn(&past), vec![20, 21]);
}

/// Circle the Wagons: each player places in their own town; the opponent's town, whose
/// cells have the same coordinates, is not pickable.
#[test]
fn only_the_deciding_player_s_board_is_pickable() {
    let at = server(2);
    let mut game = new_game(at, "circle-the-wagons", &["human", "random"], 7);
    // Play until a placement is asked while p2's town has cards.
    let p2_has_cells = |html: &str| {
        html.split("town[p2]").nth(1).is_some_and(|b| {
            b.split("</figure>")
                .next()
                .unwrap()
                .contains("class=\"cell\"")
        })
    };
    for _ in 0..60 {
        let placing = game.view["decision"]["options"][0]["keys"][0]
            .as_str()
            .is_some_and(|k| k.starts_with("cell:"));
        if placing && p2_has_cells(game.view["html"].as_str().unwrap()) {
            break;
        }
        let (status, next) = game.choose(0, 0, None);
        assert_eq!(status, 200, "{next}");
    }
    let html = game.view["html"].as_str().unwrap();
    let boards: Vec<&str> = html
        .split("<figure class=\"board\">")
        .skip(1)
        .map(|b| b.split("</figure>").next().unwrap())
        .collect();
    assert_eq!(boards.len(), 2, "{html}");
    let (mine, theirs): (Vec<&str>, Vec<&str>) = boards.iter().partition(|b| b.contains("p1"));
    assert!(
        mine.len() == 1 && mine[0].contains("data-key=\"cell:"),
        "p1's town takes the placement: {html}"
    );
    assert!(
        theirs[0].contains("class=\"cell\"") && !theirs[0].contains("data-key=\"cell:"),
        "p2's town is drawn, not pickable: {}",
        theirs[0]
    );
}

/// A bot's decision stops at the server's time per move (--move-seconds) when its
/// iterations are not spent by then: 5,000 iterations of Go West take seconds each in a
/// test build, 50 ms here.
#[test]
fn a_bot_s_decision_stops_at_the_time_per_move() {
    let (at, stop) = stoppable_server(None, 2, IDLE_CONNECTION, 50);
    let (status, created) = post(
        at,
        "/api/games",
        &json!({"ruleset": "go-west", "seats": ["mcts:iterations=5000", "mcts:iterations=5000"], "seed": 2}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let started = std::time::Instant::now();
    let decisions = |view: &Value| {
        view["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| {
                l.as_str()
                    .is_some_and(|l| l.starts_with("p1") || l.starts_with("p2"))
            })
            .count()
    };
    loop {
        let (_, view) = get(at, &format!("/api/games/{id}"));
        if view["steps"].as_u64().unwrap() >= 12 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the bots took {:?} for {} steps ({} logged decisions)",
            started.elapsed(),
            view["steps"],
            decisions(&view)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(stop);
}
