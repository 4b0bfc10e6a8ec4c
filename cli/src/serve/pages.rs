//! The pages and their assets, embedded in the binary. The start page lists the rulesets
//! in its HTML (readable without scripts); the game and replay pages are filled by their
//! scripts from the JSON API.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};

use super::api::Shared;
use super::draw::esc;

const LAYOUT: &str = include_str!("assets/layout.html");
const STYLE: &str = include_str!("assets/style.css");
const START_JS: &str = include_str!("assets/start.js");
const GAME_JS: &str = include_str!("assets/game.js");
const REPLAY_JS: &str = include_str!("assets/replay.js");

/// A page: the layout with its title, body and script.
fn page(title: &str, body: &str, script: &str) -> Html<String> {
    Html(
        LAYOUT
            .replace("{title}", &esc(title))
            .replace("{script}", script)
            .replace("{body}", body),
    )
}

pub async fn start(State(app): State<Shared>) -> Html<String> {
    let mut body = String::from("<main><h1>Frontier</h1><p class=\"lead\">Pick a ruleset, seat people and bots, and play. Or <a href=\"/replay\">replay a trace</a>.</p><div id=\"rulesets\">");
    for entry in &app.catalogue.entries {
        let s = entry.summary();
        let players = if s.min_players == s.max_players {
            format!("{} players", s.min_players)
        } else {
            format!("{}–{} players", s.min_players, s.max_players)
        };
        let variant = s
            .variant_of
            .as_ref()
            .map(|v| {
                format!(
                    "<p class=\"variant\">a variant of {}: {}</p>",
                    esc(v),
                    esc(&s.changes.join("; "))
                )
            })
            .unwrap_or_default();
        let params: String = s
            .params
            .iter()
            .map(|p| {
                // The browser keeps the value within the parameter's bounds; the server
                // checks them again when the ruleset loads.
                let bound = |attr: &str, b: Option<i64>| b.map(|b| format!(" {attr}=\"{b}\"")).unwrap_or_default();
                format!(
                    "<label class=\"param\" title=\"{}\">{} <input type=\"number\" name=\"{}\" value=\"{}\"{}{}></label>",
                    esc(p.doc.as_deref().unwrap_or_default()),
                    esc(&p.name),
                    esc(&p.name),
                    p.value,
                    bound("min", p.min),
                    bound("max", p.max)
                )
            })
            .collect();
        let params = if params.is_empty() {
            String::new()
        } else {
            format!("<details class=\"params\"><summary>parameters</summary>{params}</details>")
        };
        body.push_str(&format!(
            "<article class=\"ruleset\" data-name=\"{name}\" data-min=\"{min}\" data-max=\"{max}\"><h2>{title} <code>{name}</code></h2><p class=\"players\">{players}</p>{variant}<p class=\"summary\" tabindex=\"0\">{summary}</p>{params}<form class=\"new-game\"></form></article>",
            name = esc(&s.name),
            min = s.min_players,
            max = s.max_players,
            title = esc(&s.title),
            summary = esc(s.summary.as_deref().unwrap_or_default()),
        ));
    }
    body.push_str("</div>");
    for (name, message) in &app.catalogue.broken {
        body.push_str(&format!(
            "<p class=\"broken\">not offered: <code>{}</code>: {}</p>",
            esc(name),
            esc(message.lines().next().unwrap_or_default())
        ));
    }
    body.push_str("</main>");
    page("Frontier", &body, "start.js")
}

pub async fn game(Path(_id): Path<String>) -> Html<String> {
    let body = r##"<header class="bar"><a href="/">Frontier</a> <h1 id="title">Game</h1> <span id="seats"></span> <a id="trace-link" href="#" hidden>trace</a></header>
<div id="announce" class="visually-hidden" role="status" aria-live="polite"></div>
<main class="game"><section id="board" aria-label="board"></section><aside aria-label="decision and log"><div id="status"></div><div id="decision"></div><div id="controls"><button id="undo" disabled hidden aria-keyshortcuts="u">Undo</button></div><h2>Log</h2><ol id="log" tabindex="0" aria-label="log"></ol></aside></main>"##;
    page("Frontier game", body, "game.js")
}

pub async fn replay() -> Html<String> {
    let body = r##"<header class="bar"><a href="/">Frontier</a> <h1 id="title">Replay a trace</h1></header>
<main><section id="load" aria-label="load a trace"><p id="load-help">Paste a trace (as <code>frontier play --trace-out</code>, <code>simulate --trace-out</code> or a ruleset's <code>traces/</code> hold them) or open a file.</p>
<textarea id="trace-text" rows="8" spellcheck="false" aria-label="the trace" aria-describedby="load-help"></textarea><br><label>or a file: <input type="file" id="trace-file" accept=".trace,.txt"></label> <button id="load-trace">Replay</button> <span id="load-error" class="error" role="alert"></span></section>
<section id="player" hidden><div class="stepper"><button id="first" title="first step (Home)" aria-label="first step">«</button><button id="prev" title="previous step (←)" aria-label="previous step">‹</button><input type="range" id="slider" min="0" value="0" aria-label="step"><button id="next" title="next step (→)" aria-label="next step">›</button><button id="last" title="last step (End)" aria-label="last step">»</button> <span id="position" aria-live="polite"></span></div>
<div id="failure" hidden role="alert"></div>
<div class="game"><section id="board" aria-label="board"></section><aside aria-label="trace and log"><h2>Trace</h2><ol id="lines" tabindex="0" aria-label="trace lines"></ol><h2>Log of this step</h2><ul id="log"></ul></aside></div></section></main>"##;
    page("Frontier replay", body, "replay.js")
}

pub async fn asset(Path(file): Path<String>) -> Response {
    let (text, kind) = match file.as_str() {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "start.js" => (START_JS, "text/javascript; charset=utf-8"),
        "game.js" => (GAME_JS, "text/javascript; charset=utf-8"),
        "replay.js" => (REPLAY_JS, "text/javascript; charset=utf-8"),
        _ => return (StatusCode::NOT_FOUND, "no such asset").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

pub async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html("<p>No such page. <a href=\"/\">The start page</a>.</p>"),
    )
        .into_response()
}
