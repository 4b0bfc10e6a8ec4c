//! Completion: inside an expression or template, the names in scope there (locals above
//! it, the ruleset's declarations with their types, built-ins with their forms); after
//! `.` a column or a per-player variable; after `@` a row; at a statement's key the
//! verbs; after `call:` the procedures; in a trace, the labels of the options legal at a
//! decision line and the players' names.

use std::collections::BTreeSet;

use frontier_interpreter::builtins::BUILTINS;
use frontier_interpreter::statement_verbs;
use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};

use crate::hover;
use crate::index::{DeclKind, Role};
use crate::workspace::{Ruleset, TraceRun};

fn item(label: &str, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        ..CompletionItem::default()
    }
}

fn kind_of(kind: DeclKind) -> CompletionItemKind {
    match kind {
        DeclKind::Param => CompletionItemKind::CONSTANT,
        DeclKind::Table => CompletionItemKind::STRUCT,
        DeclKind::Column => CompletionItemKind::FIELD,
        DeclKind::Row => CompletionItemKind::ENUM_MEMBER,
        DeclKind::State | DeclKind::Stat => CompletionItemKind::VARIABLE,
        DeclKind::Zone | DeclKind::Board => CompletionItemKind::VALUE,
        DeclKind::Function => CompletionItemKind::FUNCTION,
        DeclKind::Procedure => CompletionItemKind::METHOD,
    }
}

/// The completions at byte `offset` of file number `file`.
pub fn in_ruleset(ruleset: &Ruleset, file: usize, offset: usize) -> Vec<CompletionItem> {
    let f = &ruleset.files[file];
    let text = &f.text;
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    // The part of a name already typed.
    let typed = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '-')
        .last()
        .map_or(before.len(), |(i, _)| i);
    let prefix_char = before[..typed].chars().next_back();
    let declared = |kinds: &[DeclKind]| -> Vec<CompletionItem> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for (kind, name, (df, dd)) in ruleset.symbols.iter() {
            if kinds.contains(&kind) && seen.insert((kind, name.to_string())) {
                let decl = &ruleset.files[df].index.decls[dd];
                let detail =
                    hover::declaration(decl, &ruleset.files[df].text, ruleset.game.as_deref());
                let mut it = item(name, kind_of(kind), Some(first_line(&detail)));
                it.documentation = Some(markdown(detail));
                out.push(it);
            }
        }
        out
    };
    if let Some(source) = f.index.source_at(offset) {
        return match prefix_char {
            Some('.') => {
                let mut out = declared(&[DeclKind::Column]);
                out.push(item(
                    "id",
                    CompletionItemKind::FIELD,
                    Some("a row's id, as text".into()),
                ));
                out.extend(declared(&[DeclKind::State]));
                out
            }
            Some('@') => declared(&[DeclKind::Row]),
            _ => {
                let mut out = Vec::new();
                // Locals declared above, in the same procedure, nearest first.
                let mut seen = BTreeSet::new();
                for u in f.index.uses.iter().rev() {
                    if u.role == Role::Declares
                        && u.scope == source.scope
                        && u.span.end <= offset
                        && seen.insert(u.name.clone())
                    {
                        let detail = match crate::receiver::local_type(ruleset, file, u) {
                            Some(ty) => format!("local: {ty}"),
                            None => "local".into(),
                        };
                        out.push(item(&u.name, CompletionItemKind::VARIABLE, Some(detail)));
                    }
                }
                out.extend(declared(&[
                    DeclKind::Param,
                    DeclKind::State,
                    DeclKind::Zone,
                    DeclKind::Board,
                    DeclKind::Table,
                    DeclKind::Function,
                ]));
                for b in BUILTINS {
                    let form = b.forms.first();
                    let mut it = item(
                        b.name,
                        CompletionItemKind::FUNCTION,
                        form.map(|f| format!("{} → {}", f.call, f.result)),
                    );
                    it.documentation = Some(markdown(hover::builtin(b)));
                    out.push(it);
                }
                out.push(item(
                    "players",
                    CompletionItemKind::VARIABLE,
                    Some("list of player: the players in seat order".into()),
                ));
                out.push(item(
                    "it",
                    CompletionItemKind::VARIABLE,
                    Some("the current element".into()),
                ));
                for word in [
                    "and", "or", "not", "in", "if", "then", "else", "let", "true", "false", "none",
                ] {
                    out.push(item(word, CompletionItemKind::KEYWORD, None));
                }
                out
            }
        };
    }
    let trimmed = before[..typed].trim_end();
    if trimmed.ends_with("call:") || trimmed.ends_with("call: {") || trimmed.ends_with("call: {{") {
        return declared(&[DeclKind::Procedure]);
    }
    // A key of a section or of a declaration (from the file format's own lists).
    let indent = before.len() - before.trim_start_matches(' ').len();
    if before[..typed].trim().is_empty() {
        if let Some(keys) = parents(text, line_start, indent).and_then(|chain| keys_under(&chain)) {
            return keys
                .iter()
                .map(|k| item(k, CompletionItemKind::PROPERTY, None))
                .collect();
        }
    }
    // A statement's key: the line holds `- ` or blanks, then what is typed.
    let at_key = before[..typed]
        .trim_start()
        .trim_start_matches("- ")
        .trim()
        .is_empty();
    let in_block = f
        .index
        .blocks
        .iter()
        .any(|b| b.start <= offset && offset <= b.end + 1);
    if at_key && (in_block || before.trim_start().starts_with('-')) {
        let mut out: Vec<CompletionItem> = statement_verbs()
            .map(|(verb, keys)| {
                let detail = if keys.is_empty() {
                    "statement".to_string()
                } else {
                    format!("statement; with {}", keys.join(", "))
                };
                item(verb, CompletionItemKind::KEYWORD, Some(detail))
            })
            .collect();
        out.push(item(
            "rule",
            CompletionItemKind::PROPERTY,
            Some("the rulebook reference".into()),
        ));
        out.push(item(
            "doc",
            CompletionItemKind::PROPERTY,
            Some("a comment for readers".into()),
        ));
        return out;
    }
    Vec::new()
}

/// The keys a line at `indent` above `line_start` stands under, outermost first (`zones`,
/// `hand`); none inside a list (statements are completed apart).
fn parents(text: &str, line_start: usize, indent: usize) -> Option<Vec<&str>> {
    let mut chain = Vec::new();
    let mut limit = indent;
    for line in text[..line_start].lines().rev() {
        if limit == 0 {
            break;
        }
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let at = line.len() - content.len();
        if at >= limit {
            continue;
        }
        if content.starts_with("- ") || content == "-" {
            return None;
        }
        let key = content.split(':').next()?.trim();
        chain.push(key);
        limit = at;
    }
    chain.reverse();
    Some(chain)
}

/// The keys the file format allows under this chain of keys, if the server knows them.
fn keys_under(chain: &[&str]) -> Option<&'static [String]> {
    let keys = frontier_interpreter::format::key_lists();
    Some(match chain {
        [] => &keys.top,
        ["ranking"] => &keys.ranking,
        ["outcome"] => &keys.outcome,
        ["view"] => &keys.view,
        ["params", _] => &keys.param,
        ["tables", _] => &keys.table,
        ["state", _] => &keys.state,
        ["zones", _] => &keys.zone,
        ["boards", _] => &keys.board,
        ["functions", _] => &keys.function,
        ["procedures", _] => &keys.procedure,
        ["stats", _] => &keys.stat,
        ["conserve", _] => &keys.conserve,
        ["tables", _, "geometry"] => &keys.geometry,
        ["tables", _, "pairs"] => &keys.pairs,
        ["tables", _, "grid"] => &keys.grid,
        _ => return None,
    })
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().replace('`', "")
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

/// The completions on 1-based `line` of a trace, `before` being the line's text up to the
/// cursor: after `player:`, the labels legal there; at the start, the players' names and
/// the line keywords.
pub fn in_trace(run: &TraceRun, line: usize, before: &str) -> Vec<CompletionItem> {
    if let Some((who, _)) = before.split_once(':') {
        let who = who.trim();
        if run.players.iter().any(|p| p == who) || who == "reject" {
            let labels = run.options.get(&line).cloned().or_else(|| {
                let (state, _) = run.before.get(&line)?;
                run.game.as_deref()?.option_labels(state).ok()
            });
            return labels
                .unwrap_or_default()
                .iter()
                .map(|l| {
                    item(
                        l,
                        CompletionItemKind::ENUM_MEMBER,
                        Some("a legal option here".into()),
                    )
                })
                .collect();
        }
        return Vec::new();
    }
    let mut out: Vec<CompletionItem> = run
        .players
        .iter()
        .map(|p| {
            item(
                p,
                CompletionItemKind::VARIABLE,
                Some("a player: their decision".into()),
            )
        })
        .collect();
    for word in ["chance", "assert", "let", "reject", "expect", "rule"] {
        out.push(item(word, CompletionItemKind::KEYWORD, None));
    }
    out
}
