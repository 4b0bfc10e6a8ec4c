//! The crate's top-level modules stand in layers (ARCHITECTURE.md, "Layers"): every
//! `crate::` path in `src/` is read, and the test fails on a module with no layer, an
//! edge from a module to one in a higher layer, or an import cycle, listing the edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first: a module may reach modules of its own layer or below.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "data",
        &[
            "id",
            "grid",
            "hex",
            "award",
            "colour",
            "locate",
            "format",
            "diagnostic",
            "rng",
            "hints",
            "work",
            "value",
            "ir",
            "model",
            "state",
        ],
    ),
    ("compile halves", &["builtins"]),
    ("evaluating", &["eval", "script"]),
    ("running", &["machine", "knowledge"]),
    ("loading", &["load", "optimize", "verify"]),
    (
        "front ends of the core",
        &[
            "trace", "runner", "actions", "episode", "agent", "search", "roster", "position",
            "scene", "render", "display", "narrate", "coverage", "perft", "tests",
        ],
    ),
];

/// Top-level module → the top-level modules its files name, each with a file that does.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

fn strip_comments(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find('/') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("//") {
            rest = tail.find('\n').map_or("", |n| &tail[n..]);
        } else if tail.starts_with("/*") {
            rest = tail.find("*/").map_or("", |n| &tail[n + 2..]);
        } else {
            out.push('/');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The names `crate::` paths in `code` start with, `crate::{a, b::c}` included.
fn crate_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        if i > 0 && code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut current = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => names.push(std::mem::take(&mut current)),
                    _ if depth == 1 => current.push(c),
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
            names.push(current);
        } else {
            names.push(rest.to_string());
        }
    }
    names
        .iter()
        .filter_map(|n| {
            let n = n.trim_start();
            let end = n
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(n.len());
            (end > 0).then(|| n[..end].to_string())
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn graph(src: &Path) -> Graph {
    let mut modules: BTreeMap<String, Vec<std::path::PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(src).expect("src is readable") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            modules.insert(name, files);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            modules.insert(name, vec![path]);
        }
    }
    let mut graph = Graph::new();
    for (module, files) in &modules {
        let edges = graph.entry(module.clone()).or_default();
        for file in files {
            let code = strip_comments(&std::fs::read_to_string(file).expect("a readable file"));
            for name in crate_names(&code) {
                if &name != module && modules.contains_key(&name) {
                    let shown = file.strip_prefix(src).unwrap_or(file).display().to_string();
                    edges.entry(name).or_insert(shown);
                }
            }
        }
    }
    graph
}

/// The groups of modules that reach each other (strongly connected, more than one).
fn cycles(graph: &Graph) -> Vec<BTreeSet<String>> {
    let reaches = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for next in graph.get(&m).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reaches(m))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for m in graph.keys() {
        let group: BTreeSet<String> = graph
            .keys()
            .filter(|n| *n == m || (reach[m].contains(*n) && reach[*n].contains(m)))
            .cloned()
            .collect();
        if group.len() > 1 && !groups.contains(&group) {
            groups.push(group);
        }
    }
    groups
}

#[test]
fn the_top_level_modules_stand_in_layers_without_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph(&src);
    let layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, modules))| modules.iter().map(move |m| (*m, i)))
        .collect();
    let mut problems = Vec::new();
    for (module, edges) in &graph {
        let Some(&layer) = layer_of.get(module.as_str()) else {
            problems.push(format!("{module} has no layer: add it to LAYERS"));
            continue;
        };
        for (to, file) in edges {
            let to_layer = layer_of.get(to.as_str()).copied().unwrap_or(usize::MAX);
            if to_layer > layer {
                problems.push(format!(
                    "{module} ({}) reaches up to {to} ({}) in {file}",
                    LAYERS[layer].0,
                    LAYERS.get(to_layer).map_or("no layer", |l| l.0)
                ));
            }
        }
    }
    for group in cycles(&graph) {
        let edges: Vec<String> = group
            .iter()
            .flat_map(|a| {
                graph[a]
                    .iter()
                    .filter(|(b, _)| group.contains(*b))
                    .map(move |(b, file)| format!("{a} -> {b} ({file})"))
            })
            .collect();
        problems.push(format!("import cycle: {}", edges.join(", ")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn paths_are_read_as_the_modules_they_name() {
    let code = strip_comments(
        "use crate::ir::Expr; // crate::load\n/* crate::machine */ use crate::{value::Value, eval::{Env, Result}};\nsupercrate::x",
    );
    assert_eq!(crate_names(&code), ["ir", "value", "eval"]);
}
