//! `frontier serve`: a local web server to play, watch and replay any ruleset in a
//! browser. The pages (HTML, JS, CSS in `assets/`) are embedded in the binary; they use
//! the JSON API of `api.rs` (docs/serve.md). The server knows no game: boards are drawn
//! from the ruleset's `view:` hints (`Game::scene`). Games run on their own workers
//! (`live.rs`); `guard.rs` keeps the network out of what it may not reach.

mod api;
mod catalogue;
mod draw;
mod guard;
mod live;
mod pages;
mod session;
mod store;
#[cfg(test)]
mod tests;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use clap::Args;
use frontier_study::Settings;

#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. The default, 127.0.0.1, lets only this machine connect.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Open the start page in a browser (xdg-open, open or explorer).
    #[arg(long)]
    pub open: bool,
    /// Also offer the rulesets of this folder (each subfolder with a ruleset.yaml, each .yaml file).
    #[arg(long, value_name = "DIR")]
    pub rulesets: Option<PathBuf>,
    /// The most games held at once.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_games: u32,
    /// Minutes without a request after which a game is dropped.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=10_080))]
    pub idle_minutes: u64,
    /// The most seconds a bot thinks over one decision (its search stops there if its
    /// iterations are not spent; the game is then not reproducible from its seed).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub move_seconds: u32,
    /// A name by which browsers reach the server (repeatable): requests must name the
    /// address listened on, localhost, or one of these, with the port.
    #[arg(long = "host", value_name = "NAME")]
    pub hosts: Vec<String>,
}

/// The routes: pages, assets and the API (an unknown /api path is a JSON 404), behind
/// the checks of `guard.rs` for the server listening at `hosts`.
pub fn router(app: api::Shared, hosts: guard::Hosts) -> Router {
    Router::new()
        .route("/", get(pages::start))
        .route("/game/{id}", get(pages::game))
        .route("/replay", get(pages::replay))
        .route("/assets/{file}", get(pages::asset))
        .route("/api/rulesets", get(api::rulesets))
        .route("/api/rulesets/{name}", get(api::ruleset))
        .route("/api/games", post(api::create_game))
        .route("/api/games/{id}", get(api::game_view))
        .route("/api/games/{id}/options", get(api::options))
        .route("/api/games/{id}/choice", post(api::choose))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/trace", get(api::trace))
        .route("/api/games/{id}/events", get(api::events))
        .route("/api/replay", post(api::replay))
        .route("/api", get(api::not_found).post(api::not_found))
        .route("/api/{*rest}", get(api::not_found).post(api::not_found))
        .fallback(pages::not_found)
        .with_state(app)
        .layer(DefaultBodyLimit::max(guard::MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            hosts,
            guard::check_host,
        ))
        .layer(axum::middleware::from_fn(guard::headers_and_timeout))
}

/// The application state for these arguments: the rulesets loaded with `settings`, an
/// empty store, bots thinking at most `move_ms` per decision.
pub fn app(
    rulesets: Option<&std::path::Path>,
    max_games: usize,
    idle: Duration,
    move_ms: u32,
    settings: &Settings,
) -> Result<api::Shared, String> {
    let catalogue = catalogue::Catalogue::load(rulesets, settings)?;
    Ok(Arc::new(api::App {
        catalogue,
        store: store::Store::new(max_games, idle),
        workers: live::Workers::new(),
        move_ms,
    }))
}

pub fn run(args: ServeArgs, settings: &Settings) -> Result<(), String> {
    let app = app(
        args.rulesets.as_deref(),
        args.max_games as usize,
        Duration::from_secs(args.idle_minutes * 60),
        args.move_seconds * 1000,
        settings,
    )?;
    // Requests are answered on a thread per core, bots think on the blocking pool; each
    // thread has the stack that expressions at the limits' ceilings need (as main.rs's).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .thread_stack_size(frontier_interpreter::model::STACK_BYTES)
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(async move {
        let address = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        let url = format!("http://{bound}/");
        println!(
            "frontier serve: {} rulesets at {url} (Ctrl-C stops)",
            app.catalogue.entries.len()
        );
        for (name, message) in &app.catalogue.broken {
            eprintln!(
                "not offered: {name}: {}",
                message.lines().next().unwrap_or_default()
            );
        }
        if args.open {
            open_browser(&url);
        }
        let hosts = guard::Hosts::new(bound, args.hosts);
        axum::serve(guard::IdleClosing::new(listener), router(app, hosts))
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

/// Opens `url` with the desktop's opener; says so when there is none (the server runs on).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("cannot open a browser ({opener}: {e}); open {url}");
    }
}
