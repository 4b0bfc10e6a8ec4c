//! The loader's and the trace checker's problems as LSP diagnostics: each at its place
//! (the loader's line and column, else where its YAML path stands), spanning the word it
//! names, with the declaration a "did you mean" suggests as related information.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, Range,
};

use crate::index::DeclKind;
use crate::text::Lines;
use crate::uri::uri_of;
use crate::workspace::{Ruleset, TraceRun};

/// Every problem of a ruleset, by the file it is in (files on disk only: a problem in an
/// embedded base is shown on the variant's `extends:`).
pub fn of_ruleset(main: &Path, ruleset: &Ruleset) -> HashMap<PathBuf, Vec<LspDiagnostic>> {
    let mut out: HashMap<PathBuf, Vec<LspDiagnostic>> = HashMap::new();
    for d in &ruleset.problems {
        let (path, text, tree) = match place_of(main, ruleset, &d.file) {
            Some(p) => p,
            None => {
                // An embedded file: shown where the main file names what it extends.
                let Some(file) = ruleset.files.first() else {
                    continue;
                };
                let range = file
                    .tree
                    .as_ref()
                    .and_then(|t| t.get("extends"))
                    .map(|n| Lines::new(&file.text).range(n.span.clone()))
                    .unwrap_or_default();
                out.entry(main.to_path_buf()).or_default().push(diagnostic(
                    range,
                    format!("{d}"),
                    Vec::new(),
                ));
                continue;
            }
        };
        let lines = Lines::new(text);
        let node = tree.and_then(|t| {
            if d.path.is_empty() {
                None
            } else {
                t.at_path(&d.path)
            }
        });
        let span = match d.position {
            Some((line, column)) => {
                let at = lines.offset_of_line_column(line, column);
                let word = lines.word_at(at);
                match node {
                    _ if !word.is_empty() => word,
                    Some(n) if n.span.start == at => n.span.clone(),
                    _ => at..text[at..].chars().next().map_or(at, |c| at + c.len_utf8()),
                }
            }
            None => node.map_or(0..0, |n| n.span.clone()),
        };
        let message = if d.path.is_empty() {
            d.message.clone()
        } else {
            format!("{}: {}", d.path, d.message)
        };
        let related = suggested(ruleset, &d.message);
        out.entry(path)
            .or_default()
            .push(diagnostic(lines.range(span), message, related));
    }
    out
}

/// The path, text and tree of the file a diagnostic names.
fn place_of<'r>(
    main: &Path,
    ruleset: &'r Ruleset,
    file: &str,
) -> Option<(PathBuf, &'r str, Option<&'r crate::yaml::Node>)> {
    if let Some(f) = ruleset.files.iter().find(|f| f.name == file) {
        return Some((f.path.clone()?, &f.text, f.tree.as_ref()));
    }
    if let Some((name, text)) = ruleset.scripts.iter().find(|(n, _)| n == file) {
        let path = PathBuf::from(name);
        return path.is_absolute().then_some((path, text.as_str(), None));
    }
    // A problem found before any file was read (the file itself cannot be read).
    let first = ruleset.files.first();
    (Path::new(file) == main).then(|| {
        (
            main.to_path_buf(),
            first.map_or("", |f| f.text.as_str()),
            first.and_then(|f| f.tree.as_ref()),
        )
    })
}

/// The declarations a message's "did you mean 'x'" names.
fn suggested(ruleset: &Ruleset, message: &str) -> Vec<DiagnosticRelatedInformation> {
    let Some(name) = message
        .split("did you mean '")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
    else {
        return Vec::new();
    };
    // "unknown column of cards 'csot' (did you mean 'cost'?)": the column of that table.
    let table = message
        .split("column of ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next());
    let mut out = Vec::new();
    for (kind, declared, (f, d)) in ruleset.symbols.iter() {
        if declared != name {
            continue;
        }
        let file = &ruleset.files[f];
        let (Some(path), decl) = (&file.path, &file.index.decls[d]) else {
            continue;
        };
        if table.is_some() && (kind != DeclKind::Column || decl.owner.as_deref() != table) {
            continue;
        }
        let Some(uri) = uri_of(path) else { continue };
        out.push(DiagnosticRelatedInformation {
            location: Location::new(uri, Lines::new(&file.text).range(decl.span.clone())),
            message: format!("the {} '{name}' is declared here", kind.word()),
        });
    }
    out.sort_by_key(|r| (r.location.uri.as_str().to_string(), r.location.range.start));
    out
}

fn diagnostic(
    range: Range,
    message: String,
    related: Vec<DiagnosticRelatedInformation>,
) -> LspDiagnostic {
    LspDiagnostic {
        range,
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("frontier".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..LspDiagnostic::default()
    }
}

/// A trace's problems: where it fails to parse, names a ruleset that does not load,
/// asserts what does not hold, or leaves the game (with the legal options there).
pub fn of_trace(text: &str, run: &TraceRun) -> Vec<LspDiagnostic> {
    let lines = Lines::new(text);
    run.problems
        .iter()
        .map(|p| {
            let at = lines.offset_of_line_column(p.line, p.column);
            // The rest of the line, up to a comment.
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            let end = text[at..line_end].find(" #").map_or(line_end, |i| at + i);
            let end = at + text[at..end].trim_end().len();
            diagnostic(lines.range(at..end.max(at)), p.message.clone(), Vec::new())
        })
        .collect()
}
