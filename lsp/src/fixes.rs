//! Code actions: a "did you mean 'x'" of the loader, offered as the edit that writes `x`
//! in place of the name the diagnostic spans.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, TextEdit, Uri, WorkspaceEdit,
};

use crate::text::Lines;

/// The fixes for these diagnostics of the document `uri` with this text.
pub fn of(uri: &Uri, text: &str, diagnostics: &[Diagnostic]) -> Vec<CodeActionOrCommand> {
    let lines = Lines::new(text);
    let mut out = Vec::new();
    for d in diagnostics {
        let Some(suggested) = d
            .message
            .split("did you mean '")
            .nth(1)
            .and_then(|rest| rest.split('\'').next())
        else {
            continue;
        };
        let span = lines.offset(d.range.start)..lines.offset(d.range.end);
        let written = &text[span.start..span.end.max(span.start)];
        let is_name = !written.is_empty()
            && written
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
        if !is_name || written == suggested {
            continue;
        }
        let edit = WorkspaceEdit {
            changes: Some(HashMap::from([(
                uri.clone(),
                vec![TextEdit::new(d.range, suggested.to_string())],
            )])),
            ..WorkspaceEdit::default()
        };
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Replace '{written}' with '{suggested}'"),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            edit: Some(edit),
            is_preferred: Some(true),
            ..CodeAction::default()
        }));
    }
    out
}
