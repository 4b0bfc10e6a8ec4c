//! The Frontier language server (`frontier lsp`): the Language Server Protocol on stdio
//! for rulesets (ruleset.yaml, variants, scripts) and traces. Diagnostics come from the
//! real loader and trace checker, run on the editor's unsaved texts over the files on
//! disk; hover, definitions, references, completion and the outline come from an index
//! of where each name is written (`index.rs`, over a YAML tree with places, `yaml.rs`)
//! and from the loaded game (types), the built-in registry (signatures and docs) and
//! RULES.md (clauses).
//!
//! Modules: `server.rs` (the protocol loop and its tables of requests and
//! notifications), `workspace.rs` (open documents, rulesets loaded and traces replayed),
//! `diagnostics.rs`, `fixes.rs` (code actions), `hover.rs`, `navigate.rs` (definition, references), `receiver.rs` (the table of the row before a `.`), `complete.rs`,
//! `outline.rs` (document symbols), `tokens.rs` (semantic tokens), `index.rs`, `yaml.rs`, `text.rs` (positions: bytes,
//! the loader's line:column, LSP's UTF-16 units), `uri.rs`.

mod complete;
mod diagnostics;
mod fixes;
mod hover;
mod index;
mod navigate;
mod outline;
mod receiver;
mod server;
mod text;
mod tokens;
mod trace_names;
mod uri;
mod workspace;
mod yaml;

#[cfg(test)]
mod tests;

use frontier_interpreter::model::Limits;
use lsp_server::Connection;

pub use server::capabilities;

/// Serves the protocol on standard input and output until the client shuts it down,
/// each ruleset held to `limits`.
pub fn run_stdio(limits: Limits) -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection, limits)?;
    drop(connection);
    io_threads
        .join()
        .map_err(|e| format!("the connection failed: {e}"))
}

/// Serves the protocol on `connection` (a test may pass one end of
/// `Connection::memory()`).
pub fn serve(connection: &Connection, limits: Limits) -> Result<(), String> {
    server::serve(connection, workspace::Workspace::new(limits))
}
