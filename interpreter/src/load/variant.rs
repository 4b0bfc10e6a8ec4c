//! Variants: a ruleset that `extends:` another and overrides parameters, named
//! declarations (procedures, functions, variables…), table rows or any top-level entry.
//! Merged at the YAML level before compiling.

use serde_yaml::{Mapping, Value as Yaml};

use super::{parse_yaml, Resolver, RulesetSource};
use crate::diagnostic::{Diagnostic, LoadError};
use crate::hints::did_you_mean;

pub(crate) struct Layer {
    pub source: RulesetSource,
    pub doc: Yaml,
}

const MAX_DEPTH: usize = 8;

/// The variant chain: the ruleset given first, then what it extends, and so on.
pub(crate) fn read_layers(
    source: &RulesetSource,
    resolve: Resolver,
) -> Result<Vec<Layer>, LoadError> {
    let mut layers: Vec<Layer> = Vec::new();
    let mut current = source.clone();
    loop {
        let asker = layers.last().map(|l| l.source.file.clone());
        let doc = parse_yaml(&current.file, &current.text).map_err(|mut d| {
            if let Some(asker) = &asker {
                d.message
                    .push_str(&format!(" (in the base that {asker} extends)"));
            }
            LoadError {
                diagnostics: vec![d],
            }
        })?;
        if let (Some(variant), false) = (layers.last(), doc.is_mapping()) {
            // An empty file or a list would otherwise merge as no base at all.
            let what = match &doc {
                Yaml::Null => "is empty",
                Yaml::Sequence(_) => "is a list",
                _ => "is a single value",
            };
            let position = crate::locate::locate(&variant.source.text, "extends");
            let message = format!(
                "{} {what}, not a ruleset (a mapping of keys such as name, players, play)",
                current.file
            );
            return Err(LoadError {
                diagnostics: vec![Diagnostic {
                    file: variant.source.file.clone(),
                    position,
                    path: "extends".into(),
                    message,
                }],
            });
        }
        let base = doc.get("extends").cloned();
        let file = current.file.clone();
        layers.push(Layer {
            source: current,
            doc,
        });
        let Some(base) = base else { break };
        let position = layers
            .last()
            .and_then(|l| crate::locate::locate(&l.source.text, "extends"));
        let fail = |message: String| LoadError {
            diagnostics: vec![Diagnostic {
                file: file.clone(),
                position,
                path: "extends".into(),
                message,
            }],
        };
        let Some(name) = base.as_str() else {
            let found = match base {
                Yaml::Null => "nothing",
                Yaml::Sequence(_) => "a list",
                Yaml::Mapping(_) => "a mapping",
                _ => "a number or true/false",
            };
            return Err(fail(format!(
                "expected a ruleset name or path, found {found}"
            )));
        };
        if layers.len() > MAX_DEPTH {
            return Err(fail(format!(
                "variants extend each other more than {MAX_DEPTH} deep"
            )));
        }
        current = resolve(name).map_err(|e| fail(format!("cannot load '{name}': {e}")))?;
        // The same file again (by the path it was reached by): the chain would never end.
        if let Some(first) = layers.iter().position(|l| l.source.file == current.file) {
            let chain: Vec<&str> = layers[first..]
                .iter()
                .map(|l| l.source.file.as_str())
                .chain([current.file.as_str()])
                .collect();
            return Err(fail(format!(
                "variants extend each other in a cycle: {}",
                chain.join(" extends ")
            )));
        }
    }
    Ok(layers)
}

/// A variant's `params:` entry that gives only a new value (`hand_size: 6`) must name a
/// parameter of what it extends: a misspelt name would otherwise declare a new parameter
/// that nothing reads, and the game would play with the base's value. Reported with the
/// problems of the merged ruleset, which still loads them as parameters.
pub(crate) fn unknown_params(layers: &[Layer]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let names = |doc: &Yaml| -> Vec<String> {
        doc.get("params")
            .and_then(Yaml::as_mapping)
            .map(|m| {
                m.keys()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    for (i, layer) in layers.iter().enumerate() {
        if i + 1 >= layers.len() {
            break;
        }
        let base = layer
            .doc
            .get("extends")
            .and_then(Yaml::as_str)
            .unwrap_or("its base");
        let Some(params) = layer.doc.get("params").and_then(Yaml::as_mapping) else {
            continue;
        };
        let declared: Vec<String> = layers[i + 1..].iter().flat_map(|l| names(&l.doc)).collect();
        for (key, value) in params {
            let Some(name) = key.as_str() else { continue };
            if value.is_mapping() || declared.iter().any(|d| d == name) {
                continue;
            }
            let path = format!("params.{name}");
            out.push(Diagnostic {
                file: layer.source.file.clone(),
                position: crate::locate::locate(&layer.source.text, &path),
                path,
                message: format!(
                    "'{name}' is not a parameter of {}{} (a variant changes the base's parameters; to declare a new one, give it as {{ value: … }})",
                    base,
                    did_you_mean(name, &declared)
                ),
            });
        }
    }
    out
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
            // Sections that map names to declarations: entry by entry.
            Some(
                "procedures" | "functions" | "state" | "zones" | "boards" | "stats" | "conserve",
            ) => merge_by_key(base, key, value),
            Some("tables") => merge_tables(base, value),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

fn merge_by_key(base: &mut Mapping, key: &Yaml, value: &Yaml) {
    let entry = base
        .entry(key.clone())
        .or_insert_with(|| Yaml::Mapping(Mapping::new()));
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
    let entry = base
        .entry(Yaml::from("params"))
        .or_insert_with(|| Yaml::Mapping(Mapping::new()));
    let (Some(b), Some(v)) = (entry.as_mapping_mut(), value.as_mapping()) else {
        return;
    };
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
    let entry = base
        .entry(Yaml::from("tables"))
        .or_insert_with(|| Yaml::Mapping(Mapping::new()));
    let (Some(b), Some(v)) = (entry.as_mapping_mut(), value.as_mapping()) else {
        return;
    };
    for (name, table) in v {
        let Some(existing) = b.get_mut(name).and_then(Yaml::as_mapping_mut) else {
            b.insert(name.clone(), table.clone());
            continue;
        };
        let Some(t) = table.as_mapping() else {
            continue;
        };
        for (k, x) in t {
            if k.as_str() != Some("rows") {
                existing.insert(k.clone(), x.clone());
                continue;
            }
            let rows = existing
                .entry(k.clone())
                .or_insert_with(|| Yaml::Sequence(Vec::new()));
            let (Some(rows), Some(new_rows)) = (rows.as_sequence_mut(), x.as_sequence()) else {
                continue;
            };
            for row in new_rows {
                let id = row_id(row);
                match rows
                    .iter_mut()
                    .find(|r| row_id(r).is_some() && row_id(r) == id)
                {
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
    let extends = doc
        .get("extends")
        .and_then(Yaml::as_str)
        .unwrap_or_default()
        .to_string();
    let mut changes = Vec::new();
    let names = |v: &Yaml| -> Vec<String> {
        v.as_mapping()
            .map(|m| {
                m.keys()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
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
                "tables" | "procedures" | "functions" | "state" | "zones" | "boards" | "stats"
                | "conserve" => changes.push(format!("{key}: {}", names(value).join(", "))),
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
