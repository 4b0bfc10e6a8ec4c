//! The JSON API under /api (docs/serve.md): rulesets, games (start, a seat's view and
//! options, a choice, undo, the trace) and replays of traces. Every refusal is a 4xx with
//! `{"error": "…"}`; a ruleset that fails while running answers 500 with its message.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use frontier_interpreter::frontier_grammar::trace::{self as notation, RulesetRef, Start};
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::scene::{Scene, Viewer};
use frontier_interpreter::Status;
use serde::{Deserialize, Serialize};

use super::catalogue::Catalogue;
use super::draw::scene_html;
use super::session::{Refusal, WebGame};
use super::store::{lock, Store};

pub struct App {
    pub catalogue: Catalogue,
    pub store: Store,
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

/// A JSON body, or a 400 that says what is wrong with it.
fn body<T>(payload: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    payload.map(|Json(t)| t).map_err(|e| {
        bad(format!(
            "the request body is not what this endpoint takes: {}",
            e.body_text()
        ))
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

/// The most search iterations a bot of the server may spend on one decision, so that a
/// request is answered within seconds.
const MAX_ITERATIONS: u32 = 5000;

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
        if spec.trim() == "human" {
            continue;
        }
        let agent = AgentSpec::parse(spec).map_err(|e| {
            bad(format!(
                "seat '{spec}': {e} (seats: human, {})",
                frontier_interpreter::roster::names()
            ))
        })?;
        if let Some(config) = agent.search() {
            if config.iterations > MAX_ITERATIONS {
                return Err(bad(format!(
                    "seat '{spec}': at most {MAX_ITERATIONS} iterations on this server"
                )));
            }
            if config.time_ms.is_some() {
                return Err(bad(format!("seat '{spec}': time budgets (ms=) are not taken on this server; give iterations")));
            }
        }
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
    let started = tokio::task::spawn_blocking(move || {
        WebGame::start(game, compile, name, reference, params, specs, seed)
    })
    .await
    .map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the game could not start: {e}"),
        )
    })?
    .map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the ruleset failed during setup: {e}"),
        )
    })?;
    let first_human = started
        .specs
        .iter()
        .position(|s| s == "human")
        .map(|s| s as u8);
    let id = app
        .store
        .insert(started)
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e))?;
    let held = app
        .store
        .get(&id)
        .ok_or_else(|| ApiError(StatusCode::GONE, "the game was dropped".into()))?;
    let view = view_of(&id, &lock(&held), first_human);
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// `?seat=N` (0-based): that seat's view; without it, what every player sees.
fn seat_of(query: &HashMap<String, String>, game: &WebGame) -> Result<Option<u8>, ApiError> {
    let Some(text) = query.get("seat") else {
        return Ok(None);
    };
    let seat: u8 = text
        .parse()
        .map_err(|_| bad(format!("seat={text}: a seat number from 0")))?;
    if seat as usize >= game.table.names.len() {
        return Err(bad(format!(
            "seat={seat}: the game has {} seats (0 to {})",
            game.table.names.len(),
            game.table.names.len() - 1
        )));
    }
    Ok(Some(seat))
}

fn held(app: &App, id: &str) -> Result<Arc<std::sync::Mutex<WebGame>>, ApiError> {
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
) -> Result<Json<GameView>, ApiError> {
    let held = held(&app, &id)?;
    let game = lock(&held);
    let seat = seat_of(&query, &game)?;
    Ok(Json(view_of(&id, &game, seat)))
}

pub async fn options(
    State(app): State<Shared>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let held = held(&app, &id)?;
    let game = lock(&held);
    let seat = seat_of(&query, &game)?.ok_or_else(|| bad("options are a seat's: ?seat=N"))?;
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
    payload: Result<Json<ChoiceRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let asked = body(payload)?;
    let held = held(&app, &id)?;
    let id2 = id.clone();
    tokio::task::spawn_blocking(move || {
        let mut game = lock(&held);
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
        game.choose(asked.seat, option)?;
        Ok(Json(view_of(&id2, &game, Some(asked.seat))))
    })
    .await
    .map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the choice could not be applied: {e}"),
        )
    })?
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    seat: u8,
}

pub async fn undo(
    State(app): State<Shared>,
    Path(id): Path<String>,
    payload: Result<Json<UndoRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let asked = body(payload)?;
    let held = held(&app, &id)?;
    let mut game = lock(&held);
    game.undo(asked.seat)?;
    Ok(Json(view_of(&id, &game, Some(asked.seat))))
}

pub async fn trace(
    State(app): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let held = held(&app, &id)?;
    let text = lock(&held).trace_text();
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
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
    /// The decision, when the view is the deciding person's.
    decision: Option<Decision>,
    outcome: Option<OutcomeView>,
    scene: Scene,
    /// The scene drawn (SVG boards, cards), with `data-key` on what options name.
    html: String,
    log: Vec<String>,
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

pub fn view_of(id: &str, game: &WebGame, seat: Option<u8>) -> GameView {
    let g = &game.game;
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
        decision,
        outcome,
        scene,
        html,
        log: game.log.iter().map(|l| l.text.clone()).collect(),
        undo,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRequest {
    trace: String,
}

/// The most steps a replay shows (each is a drawn frame).
const MAX_FRAMES: usize = 5000;

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
    html: String,
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
    tokio::task::spawn_blocking(move || replay_trace(&app, &asked.trace))
        .await
        .map_err(|e| {
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the replay failed: {e}"),
            )
        })?
        .map(Json)
}

fn replay_trace(app: &App, text: &str) -> Result<Replay, ApiError> {
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
        html: scene_html(&game.scene(&start, Viewer::Everyone), None, &[]),
        log: Vec::new(),
    }];
    let result = frontier_interpreter::trace::replay(&game, &trace, start, |step| {
        if frames.len() <= MAX_FRAMES {
            let decider = match game.status(step.state) {
                Status::Decision { player, .. } => Some(player),
                _ => None,
            };
            let html = scene_html(&game.scene(step.state, Viewer::Everyone), decider, &[]);
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
