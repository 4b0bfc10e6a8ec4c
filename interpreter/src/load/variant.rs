//! Variants: a ruleset that `extends:` another and overrides parameters, procedures,
//! table rows or any top-level entry. Merged at the YAML level before compiling.

use serde_yaml::{Mapping, Value as Yaml};

use super::{parse_yaml, RulesetSource, Resolver};
use crate::diagnostic::{Diagnostic, LoadError};

pub(crate) struct Layer {
    pub source: RulesetSource,
    pub doc: Yaml,
}

const MAX_DEPTH: usize = 8;

/// The variant chain: the ruleset given first, then what it extends, and so on.
pub(crate) fn read_layers(source: &RulesetSource, resolve: Resolver) -> Result<Vec<Layer>, LoadError> {
    let mut layers = Vec::new();
    let mut current = source.clone();
    loop {
        let doc = parse_yaml(&current.file, &current.text).map_err(|d| LoadError { diagnostics: vec![d] })?;
        let base = doc.get("extends").cloned();
        let file = current.file.clone();
        layers.push(Layer { source: current, doc });
        let Some(base) = base else { break };
        let fail = |message: String| LoadError {
            diagnostics: vec![Diagnostic { file: file.clone(), position: None, path: "extends".into(), message }],
        };
        let Some(name) = base.as_str() else { return Err(fail("extends: expected a ruleset name or path".into())) };
        if layers.len() > MAX_DEPTH {
            return Err(fail(format!("variants extend each other more than {MAX_DEPTH} deep (a cycle?)")));
        }
        current = resolve(name).map_err(|e| fail(format!("cannot load '{name}': {e}")))?;
    }
    Ok(layers)
}

/// Merges the layers, the most basic first: each later layer overrides earlier ones.
pub(crate) fn merge(layers: &[Layer]) -> Yaml {
    let mut merged = Yaml::Mapping(Mapping::new());
    for layer in layers.iter().rev() {
        overlay(&mut merged, &layer.doc);
    }
    if let Some(m) = merged.as_mapping_mut() {
        m.remove("extends");
    }
    merged
}

pub(crate) fn overlay(base: &mut Yaml, top: &Yaml) {
    let (Some(base), Some(top)) = (base.as_mapping_mut(), top.as_mapping()) else {
        *base = top.clone();
        return;
    };
    for (key, value) in top {
        match key.as_str() {
            Some("params") => merge_params(base, value),
            Some("procedures") | Some("state") | Some("zones") => merge_by_key(base, key, value),
            Some("tables") => merge_tables(base, value),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

fn merge_by_key(base: &mut Mapping, key: &Yaml, value: &Yaml) {
    let entry = base.entry(key.clone()).or_insert_with(|| Yaml::Mapping(Mapping::new()));
    match (entry.as_mapping_mut(), value.as_mapping()) {
        (Some(b), Some(v)) => {
            for (k, x) in v {
                b.insert(k.clone(), x.clone());
            }
        }
        _ => *entry = value.clone(),
    }
}

/// A variant's `params: {n: 5}` changes the value and keeps the documentation.
fn merge_params(base: &mut Mapping, value: &Yaml) {
    let entry = base.entry(Yaml::from("params")).or_insert_with(|| Yaml::Mapping(Mapping::new()));
    let (Some(b), Some(v)) = (entry.as_mapping_mut(), value.as_mapping()) else { return };
    for (k, x) in v {
        match (b.get_mut(k).and_then(Yaml::as_mapping_mut), x) {
            (Some(decl), Yaml::Number(_)) => {
                decl.insert(Yaml::from("value"), x.clone());
            }
            _ => {
                b.insert(k.clone(), x.clone());
            }
        }
    }
}

/// A variant's table rows replace the rows with the same id and add the others.
fn merge_tables(base: &mut Mapping, value: &Yaml) {
    let entry = base.entry(Yaml::from("tables")).or_insert_with(|| Yaml::Mapping(Mapping::new()));
    let (Some(b), Some(v)) = (entry.as_mapping_mut(), value.as_mapping()) else { return };
    for (name, table) in v {
        let Some(existing) = b.get_mut(name).and_then(Yaml::as_mapping_mut) else {
            b.insert(name.clone(), table.clone());
            continue;
        };
        let Some(t) = table.as_mapping() else { continue };
        for (k, x) in t {
            if k.as_str() != Some("rows") {
                existing.insert(k.clone(), x.clone());
                continue;
            }
            let rows = existing.entry(k.clone()).or_insert_with(|| Yaml::Sequence(Vec::new()));
            let (Some(rows), Some(new_rows)) = (rows.as_sequence_mut(), x.as_sequence()) else { continue };
            for row in new_rows {
                let id = row_id(row);
                match rows.iter_mut().find(|r| row_id(r).is_some() && row_id(r) == id) {
                    Some(slot) => *slot = row.clone(),
                    None => rows.push(row.clone()),
                }
            }
        }
    }
}

fn row_id(row: &Yaml) -> Option<String> {
    match row {
        Yaml::Sequence(items) => items.first().and_then(|v| v.as_str().map(str::to_string)),
        Yaml::Mapping(m) => m.get("id").and_then(|v| v.as_str().map(str::to_string)),
        Yaml::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// What a variant file changes, key by key, for `frontier describe`.
pub(crate) fn info(doc: &Yaml) -> crate::model::VariantInfo {
    let extends = doc.get("extends").and_then(Yaml::as_str).unwrap_or_default().to_string();
    let mut changes = Vec::new();
    let names = |v: &Yaml| -> Vec<String> {
        v.as_mapping().map(|m| m.keys().filter_map(|k| k.as_str().map(str::to_string)).collect()).unwrap_or_default()
    };
    if let Some(top) = doc.as_mapping() {
        for (key, value) in top {
            let Some(key) = key.as_str() else { continue };
            match key {
                "extends" | "name" | "title" | "summary" | "rulebook" | "frontier" => {}
                "params" => {
                    let parts: Vec<String> = value
                        .as_mapping()
                        .map(|m| {
                            m.iter()
                                .map(|(k, v)| {
                                    let v = v.get("value").unwrap_or(v);
                                    format!("{} = {}", k.as_str().unwrap_or("?"), scalar(v))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    changes.push(format!("params: {}", parts.join(", ")));
                }
                "tables" | "procedures" | "state" | "zones" | "functions" => changes.push(format!("{key}: {}", names(value).join(", "))),
                "players" => changes.push(format!("players: {}", scalar(value))),
                _ => changes.push(format!("{key} (replaced)")),
            }
        }
    }
    crate::model::VariantInfo { extends, changes }
}

fn scalar(v: &Yaml) -> String {
    match v {
        Yaml::Sequence(s) => format!("[{}]", s.iter().map(scalar).collect::<Vec<_>>().join(", ")),
        Yaml::String(s) => s.clone(),
        Yaml::Number(n) => n.to_string(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Null => "~".into(),
        _ => "…".into(),
    }
}
