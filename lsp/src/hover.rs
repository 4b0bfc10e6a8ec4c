//! Hover text: a built-in's forms from the registry, a declaration's kind, type and `doc:`
//! with its source, a local's declaration, a `rule:` reference's clauses from RULES.md;
//! and, in a trace, the state before a step as that line's player may see it.

use std::collections::BTreeSet;
use std::sync::Arc;

use frontier_interpreter::builtins::Builtin;
use frontier_interpreter::coverage::{clauses, reaches};
use frontier_interpreter::model::Domain;
use frontier_interpreter::value::Type;
use frontier_interpreter::Game;

use crate::index::{Decl, DeclKind};
use crate::navigate::{target_at, Target};
use crate::workspace::{Ruleset, TraceRun};

/// The hover text (Markdown) of what stands at `offset` of file number `file`.
pub fn of_ruleset(
    ruleset: &Ruleset,
    file: usize,
    offset: usize,
) -> Option<(String, std::ops::Range<usize>)> {
    let (target, span) = target_at(ruleset, file, offset)?;
    let text = match target {
        Target::Builtin(b) => builtin(b),
        Target::Decl((f, d)) => {
            let here = &ruleset.files[file].index;
            let found = match here.use_at(offset) {
                // A column several tables have: the one of the table of the row before
                // the `.` when the game tells, else each of them.
                Some(u) if matches!(u.role, crate::index::Role::Field { .. }) => {
                    crate::receiver::columns_meant(ruleset, file, u)
                }
                _ => vec![(f, d)],
            };
            found
                .iter()
                .map(|&(f, d)| {
                    let file = &ruleset.files[f];
                    declaration(&file.index.decls[d], &file.text, ruleset.game.as_deref())
                })
                .collect::<Vec<_>>()
                .join("\n\n---\n\n")
        }
        Target::Local(f, u) => {
            let text = &ruleset.files[f].text;
            let line_start = text[..u.span.start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[u.span.start..]
                .find('\n')
                .map_or(text.len(), |i| u.span.start + i);
            format!(
                "local `{}`\n\n```yaml\n{}\n```",
                u.name,
                text[line_start..line_end].trim()
            )
        }
        Target::Script(name) => {
            let needle = format!("fn {name}(");
            let found = ruleset.scripts.iter().find_map(|(file, text)| {
                let at = text.find(&needle)?;
                let end = text[at..].find('{').map_or(text.len(), |i| at + i);
                Some(format!(
                    "script function, {file}\n\n```rust\n{}\n```",
                    text[at..end].trim()
                ))
            });
            found.unwrap_or_else(|| {
                format!("`{name}`: no built-in, function or script function has this name")
            })
        }
        Target::Rule(reference) => rule(ruleset, &reference),
        Target::Statement(verb) => statement(&verb),
    };
    Some((text, span))
}

/// The language's reference, whose sections on statements hover over their verbs.
const REFERENCE: &str = include_str!("../../docs/rulesets.md");

/// The section of docs/rulesets.md on a statement: the one titled with the verb alone
/// (`### \`choose\``), else the first whose title names it (`### \`set\`, \`add\`, \`let\``),
/// up to the next title (at most 40 lines).
fn statement(verb: &str) -> String {
    let lines: Vec<&str> = REFERENCE.lines().collect();
    let named = format!("`{verb}`");
    let titled = |l: &&str| l.starts_with('#');
    let exact = lines
        .iter()
        .rposition(|l| titled(l) && l.trim_start_matches('#').trim() == named);
    let Some(start) = exact.or_else(|| lines.iter().position(|l| titled(l) && l.contains(&named)))
    else {
        return format!("statement `{verb}` (docs/rulesets.md, section 7)");
    };
    let mut in_code = false;
    let end = lines[start + 1..]
        .iter()
        .position(|l| {
            if l.starts_with("```") {
                in_code = !in_code;
            }
            !in_code && titled(l)
        })
        .map_or(lines.len(), |i| start + 1 + i);
    let body = &lines[start + 1..end.min(start + 41)];
    let more = if end > start + 41 { "\n…" } else { "" };
    format!(
        "statement `{verb}` (docs/rulesets.md)\n\n{}{more}",
        body.join("\n").trim()
    )
}

/// The hover text of a target that has no place of its own in the ruleset's files (a
/// name of a trace's assertion): a declaration or a built-in.
pub fn of_target(ruleset: &Ruleset, target: &Target) -> Option<String> {
    match target {
        Target::Builtin(b) => Some(builtin(b)),
        Target::Decl((f, d)) => {
            let file = &ruleset.files[*f];
            Some(declaration(
                &file.index.decls[*d],
                &file.text,
                ruleset.game.as_deref(),
            ))
        }
        _ => None,
    }
}

/// A built-in's forms, as docs/rulesets.md lists them.
pub fn builtin(b: &Builtin) -> String {
    let mut out = format!("built-in function `{}`\n", b.name);
    for form in b.forms {
        out.push_str(&format!(
            "\n```\n{} → {}\n```\n{}\n",
            form.call, form.result, form.meaning
        ));
    }
    out
}

fn type_name(game: &Game, ty: &Type) -> String {
    match ty {
        Type::Int => "int".into(),
        Type::Bool => "bool".into(),
        Type::Str => "str".into(),
        Type::Player => "player".into(),
        Type::Row(t) => game.tables[t.index()].name.clone(),
        Type::Pos => "position".into(),
        Type::List(e) => format!("list of {}", type_name(game, e)),
        Type::None => "none".into(),
        Type::Any => "any".into(),
    }
}

fn per(game: &Game, domain: Domain) -> String {
    match domain {
        Domain::Global => String::new(),
        d => format!(", per {}", game.domain_name(d)),
    }
}

/// What the loaded game knows of a declaration: its type.
fn typed(game: &Game, decl: &Decl) -> Option<String> {
    match decl.kind {
        DeclKind::State => {
            let (_, v) = game.var(&decl.name)?;
            Some(format!("{}{}", type_name(game, &v.ty), per(game, v.per)))
        }
        DeclKind::Zone => {
            let (_, z) = game.zone(&decl.name)?;
            Some(format!(
                "list of {}{}",
                type_name(game, &z.of.value_type()),
                per(game, z.per)
            ))
        }
        DeclKind::Table => {
            let (_, t) = game.table(&decl.name)?;
            let columns: Vec<String> = t
                .columns
                .iter()
                .map(|c| format!("{}: {}", c.name, type_name(game, &c.ty)))
                .collect();
            Some(format!(
                "list of {} ({} rows; columns {})",
                t.name,
                t.rows().len(),
                if columns.is_empty() {
                    "none".into()
                } else {
                    columns.join(", ")
                }
            ))
        }
        DeclKind::Column => {
            let (_, t) = game.table(decl.owner.as_deref()?)?;
            let c = t.columns.iter().find(|c| c.name == decl.name)?;
            Some(format!("column of {}: {}", t.name, type_name(game, &c.ty)))
        }
        DeclKind::Row => Some(format!("row of {}", decl.owner.as_deref()?)),
        DeclKind::Function => {
            let f = game.functions.iter().find(|f| f.name == decl.name)?;
            let params: Vec<String> = f
                .params
                .iter()
                .map(|(n, t)| format!("{n}: {}", type_name(game, t)))
                .collect();
            Some(format!(
                "{}({}) → {}",
                f.name,
                params.join(", "),
                type_name(game, &f.returns)
            ))
        }
        DeclKind::Param => {
            let p = game.params.iter().find(|p| p.name == decl.name)?;
            Some(format!("int = {}", p.value))
        }
        DeclKind::Procedure | DeclKind::Board | DeclKind::Stat => None,
    }
}

/// A declaration's kind and name, its type when the game loads, its `doc:` and its source
/// (up to a dozen lines).
pub fn declaration(decl: &Decl, text: &str, game: Option<&Game>) -> String {
    let mut out = format!("{} `{}`", decl.kind.word(), decl.name);
    if let Some(ty) = game.and_then(|g| typed(g, decl)) {
        out.push_str(&format!(": {ty}"));
    }
    out.push('\n');
    if let Some(doc) = &decl.doc {
        out.push_str(&format!("\n{doc}\n"));
    }
    let line_start = text[..decl.whole.start].rfind('\n').map_or(0, |i| i + 1);
    let source = &text[line_start..decl.whole.end.min(text.len())];
    let shown: Vec<&str> = source.lines().take(12).collect();
    let more = if source.lines().count() > 12 {
        "\n…"
    } else {
        ""
    };
    out.push_str(&format!("\n```yaml\n{}{more}\n```", dedent(&shown)));
    out
}

fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or(l.trim_start()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The clauses of RULES.md a rule reference falls under.
fn rule(ruleset: &Ruleset, reference: &str) -> String {
    let Some(md) = &ruleset.rules_md else {
        return format!("rule `{reference}`: no RULES.md beside the ruleset");
    };
    let known: BTreeSet<Arc<str>> = [Arc::from(reference)].into_iter().collect();
    let found: Vec<String> = clauses(md, &known)
        .into_iter()
        .filter(|c| c.reference.as_deref().is_some_and(|r| reaches(r, &known)))
        .map(|c| format!("- {}", c.text))
        .collect();
    if found.is_empty() {
        format!("rule `{reference}`: no clause of RULES.md falls under it")
    } else {
        format!("rule `{reference}` (RULES.md)\n\n{}", found.join("\n"))
    }
}

/// The state before the step at 1-based `line` of a trace, as its player may see it
/// (a chance line: as everyone's), with the options that were legal there; on a line that
/// is no step (an assertion, a comment), the state there as it stands.
pub fn of_trace(run: &TraceRun, line: usize) -> Option<String> {
    let game = run.game.as_deref()?;
    let Some((state, seat)) = run.before.get(&line) else {
        // Between steps: the state before the next one, or at the end.
        let (state, title) = match run.before.range(line..).next() {
            Some((_, (state, _))) => (state, "the state at this line"),
            None => (run.end.as_ref()?, "the state at the end of the trace"),
        };
        return Some(format!(
            "**{title}**, as it stands\n\n```\n{}\n```",
            game.render_state(state, None).trim_end()
        ));
    };
    let who = match seat {
        Some(s) => format!(
            "as {} sees it",
            run.players.get(*s as usize).map_or("?", String::as_str)
        ),
        None => "as it stands".to_string(),
    };
    let mut out = format!(
        "**the state before this line**, {who} (`frontier replay --at`)\n\n```\n{}\n```",
        game.render_state(state, *seat).trim_end()
    );
    if let Some(options) = run.options.get(&line) {
        let shown: Vec<&str> = options.iter().take(40).map(String::as_str).collect();
        let more = if options.len() > 40 {
            format!(" … ({} in all)", options.len())
        } else {
            String::new()
        };
        out.push_str(&format!("\n\nlegal here: {}{more}", shown.join(" | ")));
    }
    Some(out)
}
