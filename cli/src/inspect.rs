//! `list`, `validate` and `describe`, as text for people or as JSON for editors and CI
//! (`--json`; docs/json.md gives each document's keys).

use frontier_interpreter::model::{Domain, Element, Visibility};
use frontier_interpreter::value::Type;
use frontier_interpreter::{Diagnostic, Game};
use frontier_study::Settings;
use serde_json::{json, Value};

/// The format number of every `--json` document of these commands: a reader checks it.
const FORMAT: u32 = 1;

/// What these commands print: text for people, or a JSON document (`--json`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Output {
    Text,
    Json,
}

impl Output {
    /// The output a command's `--json` flag asks for.
    pub fn json_if(flag: bool) -> Output {
        if flag {
            Output::Json
        } else {
            Output::Text
        }
    }
}

fn print_json(doc: &Value) {
    println!("{}", serde_json::to_string_pretty(doc).unwrap_or_default());
}

fn players(g: &Game) -> Value {
    json!({ "min": g.meta.min_players, "max": g.meta.max_players })
}

/// `frontier list`.
pub fn list(output: Output, settings: &Settings) -> Result<(), String> {
    let mut entries = Vec::new();
    for e in crate::source::RULESETS {
        match crate::source::load_ruleset(e.name, settings) {
            Ok(g) if output == Output::Json => entries.push(json!({ "name": e.name, "loads": true, "title": g.meta.title, "players": players(&g), "file": e.file })),
            Ok(g) => println!("{}\t{}\t{}", e.name, crate::players_text(&g), g.meta.title),
            Err(_) if output == Output::Json => entries.push(json!({ "name": e.name, "loads": false, "title": null, "players": null, "file": e.file })),
            Err(_) => println!("{}\t(does not load: run frontier validate {})", e.name, e.name),
        }
    }
    if output == Output::Json {
        print_json(&json!({ "frontier_list": FORMAT, "rulesets": entries }));
    }
    Ok(())
}

fn diagnostic(d: &Diagnostic) -> Value {
    json!({
        "file": d.file,
        "line": d.position.map(|p| p.0),
        "column": d.position.map(|p| p.1),
        "path": d.path,
        "message": d.message,
    })
}

/// `frontier validate`: with `--json`, a document on stdout whether the ruleset is valid
/// or not (exit 1 when it is not, as without `--json`).
pub fn validate(ruleset: &str, output: Output, settings: &Settings) -> Result<(), String> {
    if output == Output::Text {
        let g = crate::source::load_ruleset(ruleset, settings)?;
        println!(
            "{}: valid ({}, {} players)",
            ruleset,
            g.meta.title,
            crate::players_text(&g)
        );
        return Ok(());
    }
    let (doc, problems) = match crate::source::load_ruleset_checked(ruleset, settings) {
        Err(unresolved) => (
            json!({ "ruleset": ruleset, "valid": false, "error": unresolved, "diagnostics": [] }),
            1,
        ),
        Ok(Ok(g)) => (
            json!({ "ruleset": ruleset, "valid": true, "name": g.meta.name, "title": g.meta.title, "players": players(&g), "diagnostics": [] }),
            0,
        ),
        Ok(Err(e)) => {
            let n = e.diagnostics.len();
            (
                json!({ "ruleset": ruleset, "valid": false, "diagnostics": e.diagnostics.iter().map(diagnostic).collect::<Vec<_>>() }),
                n.max(1),
            )
        }
    };
    let mut doc = doc;
    doc["frontier_validate"] = json!(FORMAT);
    print_json(&doc);
    match problems {
        0 => Ok(()),
        n => Err(format!(
            "{ruleset}: {n} problem{} (the JSON on standard output lists them)",
            if n == 1 { "" } else { "s" }
        )),
    }
}

/// `frontier describe`.
pub fn describe(ruleset: &str, output: Output, settings: &Settings) -> Result<(), String> {
    let g = crate::source::load_ruleset(ruleset, settings)?;
    match output {
        Output::Json => print_json(&description(&g)),
        Output::Text => print!("{}", g.describe()),
    }
    Ok(())
}

/// A type as the ruleset language writes it: int, bool, player, a table's name, list of ….
fn type_name(g: &Game, ty: &Type) -> String {
    match ty {
        Type::Int => "int".into(),
        Type::Bool => "bool".into(),
        Type::Player => "player".into(),
        Type::Row(t) => g
            .tables
            .get(t.index())
            .map_or_else(|| "row".into(), |t| t.name.clone()),
        Type::Str => "str".into(),
        Type::Pos => "pos".into(),
        Type::List(of) => format!("list of {}", type_name(g, of)),
        Type::None => "none".into(),
        Type::Any => "any".into(),
    }
}

fn per(g: &Game, d: Domain) -> Value {
    match d {
        Domain::Global => Value::Null,
        other => json!(g.domain_name(other)),
    }
}

fn element(g: &Game, e: Element) -> String {
    match e {
        Element::Player => "players".into(),
        Element::Row(t) => g
            .tables
            .get(t.index())
            .map_or_else(|| "rows".into(), |t| t.name.clone()),
    }
}

/// The declarations of a ruleset as data: what `describe` says in words, minus the
/// statements.
fn description(g: &Game) -> Value {
    let m = &g.meta;
    let rule = |r: &Option<std::sync::Arc<str>>| r.as_deref().map(str::to_string);
    json!({
        "frontier_describe": FORMAT,
        "name": m.name,
        "title": m.title,
        "players": players(g),
        "rulebook": m.rulebook,
        "summary": m.summary,
        "variant": m.variant.as_ref().map(|v| json!({ "extends": v.extends, "changes": v.changes })),
        "params": g.params.iter().map(|p| json!({ "name": p.name, "value": p.value, "min": p.min, "max": p.max, "doc": p.doc, "rule": rule(&p.rule) })).collect::<Vec<_>>(),
        "tables": g.tables.iter().map(|t| json!({
            "name": t.name,
            "columns": t.columns.iter().map(|c| json!({ "name": c.name, "type": type_name(g, &c.ty) })).collect::<Vec<_>>(),
            "rows": t.rows().iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
            "doc": t.doc, "rule": rule(&t.rule), "reconstructed": t.reconstructed,
        })).collect::<Vec<_>>(),
        "state": g.vars.iter().filter(|v| !v.stat).map(|v| json!({
            "name": v.name, "type": type_name(g, &v.ty), "per": per(g, v.per), "internal": v.internal, "doc": v.doc, "rule": rule(&v.rule),
        })).collect::<Vec<_>>(),
        "zones": g.zones.iter().map(|z| json!({
            "name": z.name, "of": element(g, z.of), "per": per(g, z.per),
            "visibility": match z.visibility { Visibility::All => "all", Visibility::Owner => "owner", Visibility::Count => "count", Visibility::Hidden => "none", Visibility::Top => "top" },
            "doc": z.doc, "rule": rule(&z.rule),
        })).collect::<Vec<_>>(),
        "boards": g.boards.iter().map(|b| json!({ "name": b.name, "of": element(g, b.of), "per": per(g, b.per), "doc": b.doc, "rule": rule(&b.rule) })).collect::<Vec<_>>(),
        "functions": g.functions.iter().map(|f| json!({
            "name": f.name,
            "params": f.params.iter().map(|(n, t)| json!({ "name": n, "type": type_name(g, t) })).collect::<Vec<_>>(),
            "returns": type_name(g, &f.returns), "value": f.source, "doc": f.doc, "rule": rule(&f.rule),
        })).collect::<Vec<_>>(),
        "procedures": g.procedures.iter().map(|p| json!({ "name": p.name, "params": p.param_names, "doc": p.doc, "rule": rule(&p.rule) })).collect::<Vec<_>>(),
        "stats": g.stats.iter().map(|s| json!({
            "name": s.name, "kind": if s.counter { "counter" } else { "value" }, "type": type_name(g, &s.ty), "doc": s.doc, "rule": rule(&s.rule),
        })).collect::<Vec<_>>(),
    })
}
