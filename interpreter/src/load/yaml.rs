//! The YAML as the loader reads it: syntax errors placed at their line and column, keys
//! checked against those a mapping may have, texts read; every problem reported at its
//! YAML path, placed in the file it stands in.

use std::sync::Arc;

use frontier_grammar::Span;
use serde_yaml::{Mapping, Value as Yaml};

use super::yaml_error::{explain, path_at, Reported};
use super::yaml_scan::{check_yaml_bounds, MAX_YAML_DEPTH};
use super::{Builder, MAX_DIAGNOSTICS};
use crate::diagnostic::Diagnostic;
use crate::hints::did_you_mean;
use crate::locate::locate_in;
use crate::model::RuleRef;

/// A YAML value as the user wrote it, short: `"six"`, `1.5`, `a list`.
pub(super) fn yaml_text(v: &Yaml) -> String {
    match v {
        Yaml::String(s) => format!("\"{s}\""),
        Yaml::Number(n) => n.to_string(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Null => "nothing".into(),
        Yaml::Sequence(_) => "a list".into(),
        Yaml::Mapping(_) => "a mapping".into(),
        Yaml::Tagged(_) => "a tagged value".into(),
    }
}

/// Parses YAML text, reporting a syntax error with its line and column. Nesting and size
/// are bounded before the YAML reader starts (`yaml_scan`).
pub(crate) fn parse_yaml(file: &str, text: &str) -> Result<Yaml, Diagnostic> {
    if let Err(refusal) = check_yaml_bounds(text) {
        return Err(Diagnostic {
            file: file.to_string(),
            position: Some((refusal.line, refusal.column)),
            path: path_at(text, refusal.line, refusal.column),
            message: refusal.message,
        });
    }
    serde_yaml::from_str::<Yaml>(text).map_err(|e| {
        let mut position = e.location().map(|l| (l.line(), l.column()));
        let said = e.to_string();
        let reported = Reported::read(&said);
        let (mut message, place) = explain(text, &reported);
        // serde_yaml places a duplicate key at the start of its mapping: the mistake is the
        // key's second occurrence.
        let duplicate = message
            .split_once("duplicate entry with key ")
            .map(|(_, k)| k.trim_matches('"').to_string());
        if let (Some(key), Some(at)) = (duplicate, position) {
            position = second_occurrence(text, &key, at).or(position);
        }
        // YAML indents with spaces only; a tab there gives a puzzling message.
        let upto = position.map_or(usize::MAX, |(line, _)| line);
        let tab_line = text
            .lines()
            .enumerate()
            .take(upto)
            .find(|(_, l)| l.trim_start_matches(' ').starts_with('\t'));
        if let Some((i, _)) = tab_line {
            message = format!(
                "a tab in the indentation of line {}: YAML indents with spaces only ({})",
                i + 1,
                strip_location(&said)
            );
        } else if message == "recursion limit exceeded" {
            message = format!("mappings and lists nested more than {MAX_YAML_DEPTH} deep: the YAML reader goes no deeper");
        }
        // The key it stands under, from the lines before it (where a bracket, a quote or
        // a list began, for one left open or indented apart).
        let mut path = place
            .or(position)
            .map(|(line, column)| path_at(text, line, column))
            .unwrap_or_default();
        // serde_yaml says a duplicate key's mapping by its path itself.
        if let Some((at, rest)) = message.split_once(": duplicate entry with key ") {
            path = at.to_string();
            message = format!("duplicate entry with key {rest}");
        }
        if let Some((at, number)) = integer_too_large(&message) {
            if !at.is_empty() {
                path = at.to_string();
            }
            message = format!("{number} is beyond the whole numbers a ruleset holds, {} to {}", i64::MIN, i64::MAX);
        }
        Diagnostic {
            file: file.to_string(),
            position,
            path,
            message,
        }
    })
}

/// Where `key` is written a second time in the block mapping that starts at `at` (line
/// and column, from 1): lines indented as the mapping's first key, until one less indented.
fn second_occurrence(text: &str, key: &str, at: (usize, usize)) -> Option<(usize, usize)> {
    let (line, column) = at;
    let indent = column.saturating_sub(1);
    let mut seen = 0;
    for (i, l) in text.lines().enumerate().skip(line.saturating_sub(1)) {
        let body = l.trim_start_matches(' ');
        let here = l.len() - body.len();
        let first = i + 1 == line;
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if !first && here < indent {
            break;
        }
        // The mapping's first line may begin with `- ` (a mapping in a list).
        let body = if first {
            l.get(indent..).unwrap_or(body)
        } else if here == indent {
            body
        } else {
            continue;
        };
        let named = body
            .strip_prefix(key)
            .or_else(|| body.strip_prefix(&format!("\"{key}\"")))
            .or_else(|| body.strip_prefix(&format!("'{key}'")));
        if named.is_some_and(|rest| rest.trim_start().starts_with(':')) {
            seen += 1;
            if seen == 2 {
                return Some((i + 1, indent + 1));
            }
        }
    }
    None
}

/// A whole number the YAML reader read but no YAML value holds (past 64 bits): serde_yaml
/// says `[PATH: ]invalid type: integer `N` as u128, expected any YAML value`. Its path (or
/// nothing) and the number.
fn integer_too_large(message: &str) -> Option<(&str, &str)> {
    let (at, rest) = match message.split_once(": invalid type: integer `") {
        Some((at, rest)) => (at, rest),
        None => ("", message.strip_prefix("invalid type: integer `")?),
    };
    let (number, rest) = rest.split_once('`')?;
    (rest.starts_with(" as u128") || rest.starts_with(" as i128")).then_some((at, number))
}

/// serde's messages end with " at line L column C": the position is reported separately.
fn strip_location(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

impl Builder {
    pub fn error(&mut self, path: &str, message: impl Into<String>) {
        if self.full() {
            return;
        }
        let (file, position) = self.locate(path, None);
        self.diagnostics.push(Diagnostic {
            file,
            position,
            path: path.to_string(),
            message: message.into(),
        });
    }

    /// Whether [`MAX_DIAGNOSTICS`] problems are reported: what follows is left out, and
    /// expressions and statements are no longer compiled.
    pub fn full(&self) -> bool {
        self.diagnostics.len() >= MAX_DIAGNOSTICS
    }

    /// Where `path` (and optionally an expression source inside it) stands.
    fn locate(&self, path: &str, inner: Option<(&str, usize)>) -> (String, Option<(usize, usize)>) {
        locate_in(&self.files, path, inner)
    }

    pub fn expr_error(&mut self, path: &str, source: &str, span: Span, message: String) {
        if self.full() {
            return;
        }
        let (file, position) = self.locate(path, Some((source, span.start)));
        let snippet = source.get(span.start..span.end).unwrap_or(source);
        let message = if snippet.is_empty() || snippet == source {
            format!("{message} in \"{source}\"")
        } else {
            format!("{message}: '{snippet}' in \"{source}\"")
        };
        self.diagnostics.push(Diagnostic {
            file,
            position,
            path: path.to_string(),
            message,
        });
    }

    pub fn check_keys<S: AsRef<str>>(&mut self, map: &Mapping, path: &str, allowed: &[S]) {
        for key in map.keys() {
            let Some(k) = key.as_str() else {
                self.error(path, "keys must be names");
                continue;
            };
            if !allowed.iter().any(|a| a.as_ref() == k) {
                let candidates: Vec<String> =
                    allowed.iter().map(|s| s.as_ref().to_string()).collect();
                let hint = did_you_mean(k, &candidates);
                let sub = join(path, k);
                self.error(
                    &sub,
                    format!(
                        "unknown key '{k}'{hint}; expected one of: {}",
                        candidates.join(", ")
                    ),
                );
            }
        }
    }

    /// A mapping's key as a name; a key that is not a text (a number, true/false, `~`, a
    /// list) is reported, at the key where it can be placed, and gives `None`.
    pub fn key_name<'y>(&mut self, key: &'y Yaml, path: &str) -> Option<&'y str> {
        if let Some(name) = key.as_str() {
            return Some(name);
        }
        let (at, what) = match scalar_text(key) {
            Some(written) => (join(path, &written), format!("the key {written}")),
            None if key.is_null() => (path.to_string(), "the key ~ (nothing)".to_string()),
            None => (
                path.to_string(),
                format!("a key that is {}", yaml_text(key)),
            ),
        };
        self.error(
            &at,
            format!(
                "{what} is not a name: a key here names something, as a word (score, hand_size)"
            ),
        );
        None
    }

    pub fn string(&mut self, map: &Mapping, key: &str, path: &str) -> Option<String> {
        match map.get(key) {
            None | Some(Yaml::Null) => None,
            Some(Yaml::String(s)) => Some(s.clone()),
            Some(Yaml::Number(n)) => Some(n.to_string()),
            Some(_) => {
                self.error(&join(path, key), "expected a text");
                None
            }
        }
    }

    pub fn rule(&mut self, map: &Mapping, path: &str) -> RuleRef {
        self.string(map, "rule", path).map(Arc::from)
    }
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

pub(super) fn scalar_text(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Number(n) => Some(n.to_string()),
        Yaml::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
