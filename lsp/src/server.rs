//! The protocol loop: the capabilities, one table entry per request and notification
//! the server answers, and diagnostics published once the messages waiting are handled
//! (a burst of edits loads the ruleset once).

use std::collections::HashSet;
use std::path::PathBuf;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{Notification as _, PublishDiagnostics};
use lsp_types::{
    CompletionOptions, CompletionParams, CompletionResponse, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentSymbolParams,
    DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents,
    HoverParams, HoverProviderCapability, InitializeResult, MarkupContent, MarkupKind, OneOf,
    PublishDiagnosticsParams, ReferenceParams, ServerCapabilities, ServerInfo,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind,
};
use serde_json::Value;

use crate::text::Lines;
use crate::uri::{path_of, uri_of};
use crate::workspace::{kind_of, Document, FileKind, Workspace};
use crate::{complete, diagnostics, fixes, hover, navigate, outline, tokens, trace_names};

pub struct Server {
    pub workspace: Workspace,
    /// Files that were last published with diagnostics (to clear them when mended).
    published: HashSet<PathBuf>,
    /// Whether a document changed since diagnostics were last published.
    stale: bool,
}

type RequestHandler = fn(&mut Server, Value) -> Result<Value, String>;
type NotificationHandler = fn(&mut Server, Value) -> Result<(), String>;

/// The requests answered: one entry each.
const REQUESTS: &[(&str, RequestHandler)] = &[
    ("textDocument/hover", Server::hover),
    ("textDocument/definition", Server::definition),
    ("textDocument/references", Server::references),
    ("textDocument/completion", Server::completion),
    ("textDocument/documentSymbol", Server::document_symbols),
    ("textDocument/semanticTokens/full", Server::semantic_tokens),
    ("textDocument/codeAction", Server::code_actions),
];

/// The notifications heeded: one entry each.
const NOTIFICATIONS: &[(&str, NotificationHandler)] = &[
    ("textDocument/didOpen", Server::did_open),
    ("textDocument/didChange", Server::did_change),
    ("textDocument/didClose", Server::did_close),
    ("textDocument/didSave", Server::did_save),
];

pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(
            lsp_types::SemanticTokensOptions {
                legend: tokens::legend(),
                full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
                ..lsp_types::SemanticTokensOptions::default()
            }
            .into(),
        ),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), "@".into(), "{".into(), ":".into()]),
            ..CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// Serves `connection` until the client shuts the server down.
pub fn serve(connection: &Connection, workspace: Workspace) -> Result<(), String> {
    let result = InitializeResult {
        capabilities: capabilities(),
        server_info: Some(ServerInfo {
            name: "frontier".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    };
    let result = serde_json::to_value(result).map_err(|e| e.to_string())?;
    let (id, _) = connection
        .initialize_start()
        .map_err(|e| format!("the client did not initialize: {e}"))?;
    connection
        .initialize_finish(id, result)
        .map_err(|e| format!("the client did not initialize: {e}"))?;
    let mut server = Server {
        workspace,
        published: HashSet::new(),
        stale: false,
    };
    loop {
        let message = match connection.receiver.try_recv() {
            Ok(m) => m,
            Err(_) => {
                // Nothing waiting: publish what the edits so far changed, then wait.
                if server.stale {
                    server.publish(connection)?;
                }
                match connection.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return Ok(()),
                }
            }
        };
        match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| e.to_string())?
                {
                    return Ok(());
                }
                let response = server.answer(request);
                send(connection, Message::Response(response))?;
            }
            Message::Notification(notification) => server.heed(notification),
            Message::Response(_) => {}
        }
    }
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection
        .sender
        .send(message)
        .map_err(|_| "the client's connection is closed".to_string())
}

/// Runs a handler; a fault of the server (a panic) becomes an error for that one message
/// rather than the end of the server.
fn guarded<T>(run: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| {
        Err("the language server failed on this request (a bug: please report it)".into())
    })
}

impl Server {
    fn answer(&mut self, request: Request) -> Response {
        let Request { id, method, params } = request;
        let Some((_, handler)) = REQUESTS.iter().find(|(m, _)| *m == method) else {
            return Response::new_err(
                id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("frontier lsp does not answer {method}"),
            );
        };
        match guarded(|| handler(self, params)) {
            Ok(result) => Response::new_ok(id, result),
            Err(message) => error(id, message),
        }
    }

    fn heed(&mut self, notification: Notification) {
        if let Some((_, handler)) = NOTIFICATIONS
            .iter()
            .find(|(m, _)| *m == notification.method)
        {
            // A notification has no answer: a bad one is dropped.
            let _ = guarded(|| handler(self, notification.params));
        }
    }

    fn did_open(&mut self, params: Value) -> Result<(), String> {
        let p: DidOpenTextDocumentParams = parse(params)?;
        let Some(path) = path_of(&p.text_document.uri) else {
            return Ok(());
        };
        self.workspace.docs.insert(
            path.clone(),
            Document {
                uri: p.text_document.uri,
                text: p.text_document.text,
            },
        );
        self.touched(Some(&path));
        Ok(())
    }

    fn did_change(&mut self, params: Value) -> Result<(), String> {
        let p: DidChangeTextDocumentParams = parse(params)?;
        let Some(path) = path_of(&p.text_document.uri) else {
            return Ok(());
        };
        // Full synchronisation: the last change is the whole text.
        if let (Some(doc), Some(change)) = (
            self.workspace.docs.get_mut(&path),
            p.content_changes.into_iter().last(),
        ) {
            doc.text = change.text;
        }
        self.touched(Some(&path));
        Ok(())
    }

    fn did_close(&mut self, params: Value) -> Result<(), String> {
        let p: DidCloseTextDocumentParams = parse(params)?;
        if let Some(path) = path_of(&p.text_document.uri) {
            self.workspace.docs.remove(&path);
            self.touched(Some(&path));
        }
        Ok(())
    }

    fn did_save(&mut self, _params: Value) -> Result<(), String> {
        // Files not open (a script, a base) may have changed on disk too.
        self.touched(None);
        Ok(())
    }

    fn touched(&mut self, path: Option<&std::path::Path>) {
        self.workspace.changed(path);
        self.stale = true;
    }

    /// Publishes the diagnostics of every open document (and of the files of their
    /// rulesets), and clears those of files that have none any more.
    fn publish(&mut self, connection: &Connection) -> Result<(), String> {
        self.stale = false;
        let mut by_file: std::collections::HashMap<PathBuf, Vec<lsp_types::Diagnostic>> =
            Default::default();
        let open: Vec<PathBuf> = self.workspace.docs.keys().cloned().collect();
        let mut rulesets = HashSet::new();
        for path in &open {
            by_file.entry(path.clone()).or_default();
            let text = self.workspace.docs[path].text.clone();
            match kind_of(path, &text) {
                FileKind::Trace => {
                    let run = self.workspace.trace(path);
                    let found =
                        guarded(|| Ok(diagnostics::of_trace(&text, &run))).unwrap_or_default();
                    by_file.insert(path.clone(), found);
                }
                FileKind::Ruleset | FileKind::Script => {
                    if let Some(main) = self.workspace.ruleset_of(path) {
                        rulesets.insert(main);
                    }
                }
                FileKind::Other => {}
            }
        }
        for main in rulesets {
            let ruleset = self.workspace.ruleset(&main);
            let found =
                guarded(|| Ok(diagnostics::of_ruleset(&main, &ruleset))).unwrap_or_default();
            by_file.entry(main.clone()).or_default();
            for (path, mut list) in found {
                by_file.entry(path).or_default().append(&mut list);
            }
        }
        let cleared: Vec<PathBuf> = self
            .published
            .iter()
            .filter(|p| !by_file.contains_key(*p))
            .cloned()
            .collect();
        for path in cleared {
            by_file.insert(path, Vec::new());
        }
        self.published.clear();
        for (path, diagnostics) in by_file {
            if !diagnostics.is_empty() {
                self.published.insert(path.clone());
            }
            let uri = match self.workspace.docs.get(&path) {
                Some(d) => d.uri.clone(),
                None => match uri_of(&path) {
                    Some(u) => u,
                    None => continue,
                },
            };
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics,
                version: None,
            };
            send(
                connection,
                Message::Notification(Notification::new(PublishDiagnostics::METHOD.into(), params)),
            )?;
        }
        Ok(())
    }

    /// The document at a position: its path, text and the byte offset.
    fn place(&self, at: &TextDocumentPositionParams) -> Option<(PathBuf, String, usize)> {
        let path = path_of(&at.text_document.uri)?;
        let text = self.workspace.text(&path).ok()?;
        let offset = Lines::new(&text).offset(at.position);
        Some((path, text, offset))
    }

    /// The ruleset of a document at a position, and the document's number among its files.
    fn ruleset_at(
        &mut self,
        at: &TextDocumentPositionParams,
    ) -> Option<(std::sync::Arc<crate::workspace::Ruleset>, usize, usize)> {
        let (path, _, offset) = self.place(at)?;
        let main = self.workspace.ruleset_of(&path)?;
        let ruleset = self.workspace.ruleset(&main);
        let (file, _) = ruleset.file(&path)?;
        Some((ruleset, file, offset))
    }

    fn hover(&mut self, params: Value) -> Result<Value, String> {
        let p: HoverParams = parse(params)?;
        let at = &p.text_document_position_params;
        let Some((path, text, offset)) = self.place(at) else {
            return Ok(Value::Null);
        };
        let lines = Lines::new(&text);
        let found = if kind_of(&path, &text) == FileKind::Trace {
            let run = self.workspace.trace(&path);
            // A name of an assertion: what it means in the ruleset; else the state there.
            let named = trace_names::name_at(&text, offset).and_then(|u| {
                let ruleset = self.workspace.ruleset(run.ruleset.as_deref()?);
                let target = trace_names::meaning(&ruleset, &u)?;
                hover::of_target(&ruleset, &target).map(|t| (t, Some(lines.range(u.span.clone()))))
            });
            let line = at.position.line as usize + 1;
            named.or_else(|| hover::of_trace(&run, line).map(|t| (t, None)))
        } else {
            self.ruleset_at(at).and_then(|(ruleset, file, offset)| {
                hover::of_ruleset(&ruleset, file, offset)
                    .map(|(t, span)| (t, Some(lines.range(span))))
            })
        };
        let Some((value, range)) = found else {
            return Ok(Value::Null);
        };
        to_json(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range,
        })
    }

    fn definition(&mut self, params: Value) -> Result<Value, String> {
        let p: GotoDefinitionParams = parse(params)?;
        let at = &p.text_document_position_params;
        if let Some((path, text, _)) = self.place(at) {
            if kind_of(&path, &text) == FileKind::Trace {
                let run = self.workspace.trace(&path);
                // A name of an assertion: its declaration in the ruleset.
                let offset = Lines::new(&text).offset(at.position);
                if let Some(u) = trace_names::name_at(&text, offset) {
                    if let Some(main) = run.ruleset.clone() {
                        let ruleset = self.workspace.ruleset(&main);
                        if let Some(navigate::Target::Decl((f, d))) =
                            trace_names::meaning(&ruleset, &u)
                        {
                            let file = &ruleset.files[f];
                            if let Some(uri) = file.path.as_deref().and_then(uri_of) {
                                let range =
                                    Lines::new(&file.text).range(file.index.decls[d].span.clone());
                                return to_json(GotoDefinitionResponse::Scalar(
                                    lsp_types::Location::new(uri, range),
                                ));
                            }
                        }
                    }
                }
                // Elsewhere: the ruleset the trace plays.
                return match run.ruleset.as_deref().and_then(uri_of) {
                    Some(uri) => to_json(GotoDefinitionResponse::Scalar(lsp_types::Location::new(
                        uri,
                        Default::default(),
                    ))),
                    None => Ok(Value::Null),
                };
            }
        }
        let Some((ruleset, file, offset)) = self.ruleset_at(at) else {
            return Ok(Value::Null);
        };
        let found = navigate::definition(&ruleset, file, offset);
        if found.is_empty() {
            return Ok(Value::Null);
        }
        to_json(GotoDefinitionResponse::Array(found))
    }

    fn references(&mut self, params: Value) -> Result<Value, String> {
        let p: ReferenceParams = parse(params)?;
        let Some((ruleset, file, offset)) = self.ruleset_at(&p.text_document_position) else {
            return Ok(Value::Null);
        };
        to_json(navigate::references(
            &ruleset,
            file,
            offset,
            p.context.include_declaration,
        ))
    }

    fn completion(&mut self, params: Value) -> Result<Value, String> {
        let p: CompletionParams = parse(params)?;
        let at = &p.text_document_position;
        let Some((path, text, offset)) = self.place(at) else {
            return Ok(Value::Null);
        };
        let items = if kind_of(&path, &text) == FileKind::Trace {
            let run = self.workspace.trace(&path);
            let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            complete::in_trace(
                &run,
                at.position.line as usize + 1,
                &text[line_start..offset],
            )
        } else {
            match self.ruleset_at(at) {
                Some((ruleset, file, offset)) => complete::in_ruleset(&ruleset, file, offset),
                None => Vec::new(),
            }
        };
        to_json(CompletionResponse::Array(items))
    }

    fn code_actions(&mut self, params: Value) -> Result<Value, String> {
        let p: lsp_types::CodeActionParams = parse(params)?;
        let Some(path) = path_of(&p.text_document.uri) else {
            return Ok(Value::Null);
        };
        let Ok(text) = self.workspace.text(&path) else {
            return Ok(Value::Null);
        };
        to_json(fixes::of(
            &p.text_document.uri,
            &text,
            &p.context.diagnostics,
        ))
    }

    fn semantic_tokens(&mut self, params: Value) -> Result<Value, String> {
        let p: lsp_types::SemanticTokensParams = parse(params)?;
        let Some(path) = path_of(&p.text_document.uri) else {
            return Ok(Value::Null);
        };
        let Some(main) = self.workspace.ruleset_of(&path) else {
            return Ok(Value::Null);
        };
        let ruleset = self.workspace.ruleset(&main);
        let Some((file, _)) = ruleset.file(&path) else {
            return Ok(Value::Null);
        };
        to_json(tokens::of_file(&ruleset, file))
    }

    fn document_symbols(&mut self, params: Value) -> Result<Value, String> {
        let p: DocumentSymbolParams = parse(params)?;
        let Some(path) = path_of(&p.text_document.uri) else {
            return Ok(Value::Null);
        };
        let Some(main) = self.workspace.ruleset_of(&path) else {
            return Ok(Value::Null);
        };
        let ruleset = self.workspace.ruleset(&main);
        let Some((_, file)) = ruleset.file(&path) else {
            return Ok(Value::Null);
        };
        let Some(tree) = &file.tree else {
            return Ok(Value::Null);
        };
        to_json(DocumentSymbolResponse::Nested(outline::of_ruleset(
            &file.text,
            tree,
            &file.index,
        )))
    }
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, String> {
    serde_json::from_value(params).map_err(|e| format!("bad parameters: {e}"))
}

fn to_json(value: impl serde::Serialize) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

fn error(id: RequestId, message: String) -> Response {
    Response::new_err(id, lsp_server::ErrorCode::InternalError as i32, message)
}
