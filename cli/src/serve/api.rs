//! The JSON API under /api (docs/serve.md): rulesets, games (start, a seat's view and
//! options, a choice, undo, the trace, the event stream) and replays of traces. Every
//! refusal is a 4xx with `{"error": "…"}`; a ruleset that fails while running answers 500
//! with its message. A seat's hidden things, its decisions and undo need the seat's token.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use frontier_interpreter::frontier_grammar::trace::{self as notation, RulesetRef, Start};
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::scene::{Scene, Viewer};
use frontier_interpreter::Status;
use serde::{Deserialize, Serialize};

use super::catalogue::Catalogue;
use super::draw::scene_html;
use super::guard::random_hex;
use super::live::{Slot, Workers};
use super::session::{Refusal, Setup, WebGame};
use super::store::{lock, Store};

pub struct App {
    pub catalogue: Catalogue,
    pub store: Store,
    pub workers: Workers,
    /// The most time a bot of the server thinks over one decision, in milliseconds.
    pub move_ms: u32,
}

pub type Shared = Arc<App>;

/// An error answer: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::Invalid(m) => ApiError(StatusCode::BAD_REQUEST, m),
            Refusal::Conflict(m) => ApiError(StatusCode::CONFLICT, m),
            Refusal::Game(m) => ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the ruleset failed: {m}"),
            ),
        }
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// A JSON body, or a 4xx that says what is wrong with it (413 for one over the size limit).
fn body<T>(payload: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    payload.map(|Json(t)| t).map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            return ApiError(
                status,
                format!(
                    "the request body is larger than the {} MB this server takes",
                    super::guard::MAX_BODY_BYTES / (1024 * 1024)
                ),
            );
        }
        ApiError(
            StatusCode::BAD_REQUEST,
            format!(
                "the request body is not what this endpoint takes: {}",
                e.body_text()
            ),
        )
    })
}

pub async fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such endpoint: the API is described in docs/serve.md (GET /api/rulesets, POST /api/games, …)".into())
}

pub async fn rulesets(State(app): State<Shared>) -> Json<serde_json::Value> {
    let broken: Vec<serde_json::Value> = app
        .catalogue
        .broken
        .iter()
        .map(|(n, m)| serde_json::json!({ "name": n, "error": m }))
        .collect();
    Json(serde_json::json!({ "rulesets": app.catalogue.summaries(), "broken": broken }))
}

pub async fn ruleset(
    State(app): State<Shared>,
    Path(name): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let entry = app
        .catalogue
        .get(&name)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no ruleset '{name}'")))?;
    Ok(Json(
        serde_json::json!({ "ruleset": entry.summary(), "description": entry.game.describe() }),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    ruleset: String,
    /// One per seat: human, random, mcts[:options], ismcts[:options].
    seats: Vec<String>,
    seed: Option<u64>,
    #[serde(default)]
    params: HashMap<String, i64>,
}

/// The most search iterations a bot of the server may spend on one decision.
const MAX_ITERATIONS: u32 = 5000;

/// Random bytes of a seat's token (128 bits).
const TOKEN_BYTES: usize = 16;

/// Checks a seat's spec as the server takes it: a person, or a bot within the server's
/// bounds (no time budget of its own: the server's time per move bounds every search).
fn check_seat(spec: &str) -> Result<(), ApiError> {
    if spec.trim() == "human" {
        return Ok(());
    }
    let agent = AgentSpec::parse(spec).map_err(|e| {
        bad(format!(
            "seat '{spec}': {e} (seats: human, {})",
            frontier_interpreter::roster::names()
        ))
    })?;
    if let Some(config) = agent.search() {
        // Before iterations: a time budget alone sets no bound on iterations.
        if config.time_ms.is_some() {
            return Err(bad(format!("seat '{spec}': time budgets (ms=) are not taken on this server, whose bots all think within its time per move (--move-seconds); give iterations")));
        }
        if config.iterations > MAX_ITERATIONS {
            return Err(bad(format!(
                "seat '{spec}': at most {MAX_ITERATIONS} iterations on this server"
            )));
        }
    }
    Ok(())
}

/// The spec a seat's bot is built from: a search stops at its iterations or at the
/// server's time per move, whichever comes first (`mcts:iterations=N,ms=M`).
fn bounded_spec(spec: &str, move_ms: u32) -> String {
    match AgentSpec::parse(spec) {
        Ok(agent) => match agent.search() {
            Some(config) => {
                let options = spec
                    .split_once(':')
                    .map_or(String::new(), |(_, o)| format!("{o},"));
                format!(
                    "{}:{options}iterations={},ms={move_ms}",
                    agent.kind.name, config.iterations
                )
            }
            None => spec.to_string(),
        },
        Err(_) => spec.to_string(),
    }
}

pub async fn create_game(
    State(app): State<Shared>,
    payload: Result<Json<NewGame>, JsonRejection>,
) -> Result<Response, ApiError> {
    let asked = body(payload)?;
    let entry = app.catalogue.get(&asked.ruleset).ok_or_else(|| {
        bad(format!(
            "no ruleset '{}' (GET /api/rulesets lists them)",
            asked.ruleset
        ))
    })?;
    let n = asked.seats.len();
    let meta = &entry.game.meta;
    if n < meta.min_players as usize || n > meta.max_players as usize {
        return Err(bad(format!(
            "{} seats given: {}",
            n,
            entry.game.player_count_message(n)
        )));
    }
    for spec in &asked.seats {
        check_seat(spec)?;
    }
    let mut params: Vec<(String, i64)> = asked.params.into_iter().collect();
    params.sort();
    let game = entry.with_params(&params).map_err(bad)?;
    let seed = asked.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    });
    let (name, reference, compile) = (entry.name.clone(), entry.reference(), entry.compile());
    let specs: Vec<String> = asked.seats.iter().map(|s| s.trim().to_string()).collect();
    let bots: Vec<String> = specs.iter().map(|s| bounded_spec(s, app.move_ms)).collect();
    let internal = |e: String| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e);
    let tokens = specs
        .iter()
        .map(|s| (s == "human").then(|| random_hex(TOKEN_BYTES)).transpose())
        .collect::<Result<Vec<Option<String>>, String>>()
        .map_err(internal)?;
    // The setup only: the game's driver plays its chance and bots from there.
    let setup = Setup {
        game,
        compile,
        ruleset: name,
        reference,
        params,
        specs,
        seed,
        bot_specs: bots,
    };
    let started = tokio::task::spawn_blocking(move || WebGame::start(setup))
        .await
        .map_err(|e| internal(format!("the game could not start: {e}")))?
        .map_err(|e| internal(format!("the ruleset failed during setup: {e}")))?;
    let first_human = tokens.iter().position(Option::is_some).map(|s| s as u8);
    let slot = Arc::new(Slot::new(started, tokens));
    let id = app
        .store
        .insert(slot.clone())
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e))?;
    app.workers.kick(&slot);
    let view = view_of(&id, &lock(&slot.game), first_human);
    let mut answer = serde_json::to_value(view).map_err(|e| internal(e.to_string()))?;
    let links: Vec<Option<String>> = slot
        .tokens()
        .iter()
        .enumerate()
        .map(|(seat, t)| {
            t.as_ref()
                .map(|t| format!("/game/{id}?seat={seat}#token={t}"))
        })
        .collect();
    let hotseat = format!(
        "/game/{id}?hotseat=1#tokens={}",
        slot.tokens()
            .iter()
            .map(|t| t.clone().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(",")
    );
    if let Some(object) = answer.as_object_mut() {
        object.insert("tokens".into(), serde_json::json!(slot.tokens()));
        object.insert("links".into(), serde_json::json!(links));
        object.insert("hotseat_link".into(), serde_json::json!(hotseat));
    }
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// A seat's token, from the `X-Seat-Token` header or the `token` query parameter.
fn token_of<'a>(headers: &'a HeaderMap, query: &'a HashMap<String, String>) -> Option<&'a str> {
    headers
        .get("x-seat-token")
        .and_then(|v| v.to_str().ok())
        .or_else(|| query.get("token").map(String::as_str))
}

/// A seat number that the game has (400 otherwise).
fn seat_number(seat: u8, game: &WebGame) -> Result<u8, ApiError> {
    let seats = game.table.names.len();
    if seat as usize >= seats {
        return Err(bad(format!(
            "seat {seat}: the game has {seats} seats (0 to {})",
            seats - 1
        )));
    }
    Ok(seat)
}

/// May the asker act as `seat`: the seat is a person's and the token is theirs (403).
fn check_token(slot: &Slot, game: &WebGame, seat: u8, token: Option<&str>) -> Result<(), ApiError> {
    if slot.holds(seat, token) {
        return Ok(());
    }
    let name = &game.table.names[seat as usize];
    let why = if !game.is_human(seat) {
        format!("{name} is played by a bot: no one may see its hidden things or act for it")
    } else if token.is_none() {
        format!("{name}'s view and decisions need the seat's token (X-Seat-Token or ?token=), given to whoever created the game")
    } else {
        format!("the token given is not {name}'s")
    };
    Err(ApiError(StatusCode::FORBIDDEN, why))
}

/// `?seat=N` (0-based), with that seat's token: that seat's view; without it, what every
/// player sees.
fn asker(
    query: &HashMap<String, String>,
    headers: &HeaderMap,
    slot: &Slot,
    game: &WebGame,
) -> Result<Option<u8>, ApiError> {
    let Some(text) = query.get("seat") else {
        return Ok(None);
    };
    let seat: u8 = text
        .parse()
        .map_err(|_| bad(format!("seat={text}: a seat number from 0")))?;
    let seat = seat_number(seat, game)?;
    check_token(slot, game, seat, token_of(headers, query))?;
    Ok(Some(seat))
}

fn held(app: &App, id: &str) -> Result<Arc<Slot>, ApiError> {
    app.store.get(id).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("no game '{id}' (games are dropped when idle)"),
        )
    })
}

pub async fn game_view(
    State(app): State<Shared>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let slot = held(&app, &id)?;
    let game = lock(&slot.game);
    let seat = asker(&query, &headers, &slot, &game)?;
    Ok(Json(view_of(&id, &game, seat)))
}

pub async fn options(
    State(app): State<Shared>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let slot = held(&app, &id)?;
    let game = lock(&slot.game);
    let seat = asker(&query, &headers, &slot, &game)?
        .ok_or_else(|| bad("options are a seat's: ?seat=N"))?;
    Ok(Json(
        serde_json::json!({ "decision": decision_of(&game, seat) }),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceRequest {
    seat: u8,
    /// The option's index, or its label.
    option: OptionRef,
    /// The number of steps the asker saw: a choice made on an older view is refused.
    steps: Option<usize>,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub enum OptionRef {
    Index(usize),
    Label(String),
}

pub async fn choose(
    State(app): State<Shared>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    payload: Result<Json<ChoiceRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let asked = body(payload)?;
    let slot = held(&app, &id)?;
    let token = token_of(&headers, &query).map(str::to_string);
    let worker = slot.clone();
    let view = tokio::task::spawn_blocking(move || {
        let mut game = lock(&worker.game);
        let seat = seat_number(asked.seat, &game)?;
        check_token(&worker, &game, seat, token.as_deref())?;
        if let Some(steps) = asked.steps.filter(|s| *s != game.table.steps.len()) {
            return Err(ApiError(
                StatusCode::CONFLICT,
                format!(
                    "the game moved on: {} steps taken, the choice was made at {steps}",
                    game.table.steps.len()
                ),
            ));
        }
        let option = match asked.option {
            OptionRef::Index(i) => i,
            OptionRef::Label(label) => {
                let labels = game
                    .game
                    .option_labels(&game.table.state)
                    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
                labels
                    .iter()
                    .position(|l| *l == label)
                    .ok_or_else(|| bad(format!("'{label}' is not an option here")))?
            }
        };
        game.choose(seat, option)?;
        Ok(view_of(&id, &game, Some(seat)))
    })
    .await
    .map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the choice could not be applied: {e}"),
        )
    })??;
    app.workers.kick(&slot);
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    seat: u8,
}

pub async fn undo(
    State(app): State<Shared>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    payload: Result<Json<UndoRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let asked = body(payload)?;
    let slot = held(&app, &id)?;
    let view = {
        let mut game = lock(&slot.game);
        let seat = seat_number(asked.seat, &game)?;
        check_token(&slot, &game, seat, token_of(&headers, &query))?;
        game.undo(seat)?;
        view_of(&id, &game, Some(seat))
    };
    app.workers.kick(&slot);
    Ok(Json(view))
}

/// The trace shows every chance result (a shuffled deck's order): it is given once the
/// game is over.
pub async fn trace(
    State(app): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = held(&app, &id)?;
    let text = {
        let game = lock(&slot.game);
        if !game.is_over() {
            return Err(ApiError(StatusCode::FORBIDDEN, "the trace shows what the players may not see yet (the shuffles, the cards drawn): it is given once the game is over".into()));
        }
        game.trace_text()
    };
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// The game's progress as server-sent events: one `progress` event now and one at each
/// change (a step, a bot starting to think), with only what every player sees; the page
/// then reads its view again.
pub async fn events(
    State(app): State<Shared>,
    Path(id): Path<String>,
) -> Result<Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let slot = held(&app, &id)?;
    let receiver = slot.subscribe();
    drop(slot);
    let stream =
        futures_util::stream::unfold((receiver, true), |(mut receiver, first)| async move {
            if !first && receiver.changed().await.is_err() {
                return None; // the game was dropped
            }
            let progress = receiver.borrow_and_update().clone();
            let event = Event::default()
                .event("progress")
                .json_data(&progress)
                .unwrap_or_else(|_| Event::default().comment("unwritable progress"));
            Some((Ok(event), (receiver, false)))
        });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(std::time::Duration::from_secs(15))))
}

#[derive(Serialize)]
pub struct GameView {
    id: String,
    ruleset: String,
    title: String,
    names: Vec<String>,
    /// Who sits at each seat (human, random, mcts…).
    seats: Vec<String>,
    seed: u64,
    steps: usize,
    /// The seat this view is for (none: what every player sees).
    seat: Option<u8>,
    /// The seat deciding now.
    decider: Option<u8>,
    decider_is_human: bool,
    /// The seat whose bot is thinking now.
    thinking: Option<u8>,
    /// Whether the server is playing the game on (chance, bots, a person's single
    /// option): the view is a moment of it, and another follows.
    busy: bool,
    /// Why the game stopped before its end (the ruleset failed, the bound on steps).
    failure: Option<String>,
    /// The decision, when the view is the deciding person's.
    decision: Option<Decision>,
    outcome: Option<OutcomeView>,
    scene: Scene,
    /// The scene drawn (SVG boards, cards), with `data-key` on what options name.
    html: String,
    /// The log's last lines (at most [`LOG_LINES`]); `log_from` is the number of the
    /// first one given (0: the log is whole).
    log: Vec<String>,
    log_from: usize,
    /// Whether this seat may take back its last decision, and why not.
    undo: UndoView,
}

/// Whether a seat may take back its last decision: `reason` says why not.
#[derive(Serialize)]
pub struct UndoView {
    allowed: bool,
    reason: Option<String>,
}

#[derive(Serialize)]
pub struct Decision {
    seat: u8,
    prompt: String,
    options: Vec<OptionView>,
}

#[derive(Serialize)]
pub struct OptionView {
    index: usize,
    label: String,
    /// What the option's rows are (their tables' `show:`).
    details: String,
    /// What the option names on the board: `table:id`, `player:N`, `cell:row,col`.
    keys: Vec<String>,
}

#[derive(Serialize)]
pub struct OutcomeView {
    scores: Vec<i64>,
    ranks: Vec<u8>,
    winners: Vec<String>,
}

fn decision_of(game: &WebGame, seat: u8) -> Option<Decision> {
    if game.decider() != Some(seat) || !game.is_human(seat) {
        return None;
    }
    let g = &game.game;
    let labels = g.option_labels(&game.table.state).unwrap_or_default();
    let options = labels
        .into_iter()
        .enumerate()
        .map(|(index, label)| OptionView {
            index,
            label,
            details: g.option_details(&game.table.state, index),
            keys: g.option_keys(&game.table.state, index),
        })
        .collect();
    Some(Decision {
        seat,
        prompt: g
            .prompt(&game.table.state)
            .unwrap_or_else(|e| format!("({e})")),
        options,
    })
}

/// The most log lines a view gives (the latest).
const LOG_LINES: usize = 500;

pub fn view_of(id: &str, game: &WebGame, seat: Option<u8>) -> GameView {
    let g = &game.game;
    let log = game.log_for(seat);
    let log_from = log.len().saturating_sub(LOG_LINES);
    let scene = g.scene(&game.table.state, game.viewer(seat));
    let decision = seat.and_then(|s| decision_of(game, s));
    let targets: Vec<String> = decision
        .iter()
        .flat_map(|d| {
            d.options
                .iter()
                .flat_map(|o| o.keys.iter().filter(|k| k.starts_with("cell:")).cloned())
        })
        .collect();
    let html = scene_html(&scene, game.decider(), &targets);
    let outcome = match g.status(&game.table.state) {
        Status::Over(o) => Some(OutcomeView {
            scores: o.scores.clone(),
            ranks: o.ranks.clone(),
            winners: o
                .winners()
                .into_iter()
                .map(|p| game.table.names[p].clone())
                .collect(),
        }),
        _ => None,
    };
    let refusal = match seat {
        Some(s) => game.undo_point(s).err().map(|r| r.message().to_string()),
        None => Some("a seat's view is needed to undo".into()),
    };
    let undo = UndoView {
        allowed: refusal.is_none(),
        reason: refusal,
    };
    GameView {
        id: id.to_string(),
        ruleset: game.ruleset.clone(),
        title: g.meta.title.clone(),
        names: game.table.names.clone(),
        seats: game.specs.clone(),
        seed: game.seed,
        steps: game.table.steps.len(),
        seat,
        decider: game.decider(),
        decider_is_human: game.decider().is_some_and(|s| game.is_human(s)),
        thinking: game.thinking,
        busy: game.thinking.is_some() || game.has_work(),
        failure: game.failure.clone(),
        decision,
        outcome,
        scene,
        html,
        log: log[log_from..].iter().map(|l| l.text.clone()).collect(),
        log_from,
        undo,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    trace: String,
    /// The first frame to draw (0 unless given).
    from: Option<usize>,
    /// How many frames to draw from `from` (at most [`FRAMES_DRAWN`], which is also
    /// the default): the others come without their board.
    count: Option<usize>,
}

/// The most steps a replay goes through.
const MAX_FRAMES: usize = 100_000;

/// The most frames one answer draws: a long trace's boards are asked for a page at a time.
const FRAMES_DRAWN: usize = 25;

#[derive(Serialize)]
pub struct Replay {
    ruleset: String,
    title: String,
    names: Vec<String>,
    /// Frame 0 is the start; frame k follows the k-th step.
    frames: Vec<Frame>,
    /// Where the trace stops being legal (or does not parse), if it does.
    error: Option<ReplayError>,
}

#[derive(Serialize)]
pub struct Frame {
    /// The trace line of the step (0 for the start).
    line: usize,
    /// The board drawn, for the frames asked for; null for the others.
    html: Option<String>,
    log: Vec<String>,
}

#[derive(Serialize)]
pub struct ReplayError {
    line: usize,
    column: usize,
    message: String,
    /// The legal options (or outcomes) there, closest to what the trace says first.
    legal: Vec<String>,
}

pub async fn replay(
    State(app): State<Shared>,
    payload: Result<Json<ReplayRequest>, JsonRejection>,
) -> Result<Json<Replay>, ApiError> {
    let asked = body(payload)?;
    let from = asked.from.unwrap_or(0);
    let drawn = from..from.saturating_add(asked.count.unwrap_or(FRAMES_DRAWN).min(FRAMES_DRAWN));
    // Replays go through a trace each: as many at once as there are cores, the others wait.
    let _turn = app
        .workers
        .replays
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    tokio::task::spawn_blocking(move || replay_trace(&app, &asked.trace, drawn))
        .await
        .map_err(|e| {
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the replay failed: {e}"),
            )
        })?
        .map(Json)
}

fn replay_trace(app: &App, text: &str, drawn: std::ops::Range<usize>) -> Result<Replay, ApiError> {
    let trace = match notation::parse(text) {
        Ok(t) => t,
        Err(errors) => {
            let first = errors.first();
            return Ok(Replay {
                ruleset: String::new(),
                title: String::new(),
                names: Vec::new(),
                frames: Vec::new(),
                error: Some(ReplayError {
                    line: first.map_or(0, |e| e.line),
                    column: first.map_or(0, |e| e.column),
                    message: errors
                        .iter()
                        .map(|e| format!("{}:{}: {}", e.line, e.column, e.message))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    legal: Vec::new(),
                }),
            });
        }
    };
    let name = match (&trace.header.variant, &trace.header.ruleset) {
        (Some(v), _) => v.clone(),
        (None, RulesetRef::Name(n)) => n.clone(),
        (None, RulesetRef::Path(p)) => {
            return Err(bad(format!("the trace names the ruleset by its path ({p}): the replay page reads traces of the server's rulesets, by name")))
        }
    };
    if let Start::Position(p) = &trace.header.start {
        return Err(bad(format!("the trace starts from a position file ({p}): the replay page replays traces that start with the setup")));
    }
    let entry = app.catalogue.get(&name).ok_or_else(|| {
        bad(format!(
            "the trace's ruleset '{name}' is not one of the server's (GET /api/rulesets)"
        ))
    })?;
    let game = entry.with_params(&trace.header.params).map_err(bad)?;
    let start = game
        .start(trace.header.players.clone())
        .map_err(|e| bad(format!("the trace's players: {e}")))?;
    let mut frames = vec![Frame {
        line: 0,
        html: drawn
            .contains(&0)
            .then(|| scene_html(&game.scene(&start, Viewer::Everyone), None, &[])),
        log: Vec::new(),
    }];
    let result = frontier_interpreter::trace::replay(&game, &trace, start, |step| {
        if frames.len() <= MAX_FRAMES {
            let decider = match game.status(step.state) {
                Status::Decision { player, .. } => Some(player),
                _ => None,
            };
            let html = drawn
                .contains(&frames.len())
                .then(|| scene_html(&game.scene(step.state, Viewer::Everyone), decider, &[]));
            frames.push(Frame {
                line: step.line.line,
                html,
                log: step.log.to_vec(),
            });
        }
    });
    if frames.len() > MAX_FRAMES {
        return Err(bad(format!("the trace has more than {MAX_FRAMES} steps: too long to show here (frontier replay shows it)")));
    }
    let error = result.err().map(|d| ReplayError {
        line: d.line,
        column: d.column,
        message: d.to_string(),
        legal: d.legal.clone(),
    });
    Ok(Replay {
        ruleset: name,
        title: game.meta.title.clone(),
        names: trace.header.players.clone(),
        frames,
        error,
    })
}
