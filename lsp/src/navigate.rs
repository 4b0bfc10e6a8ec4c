//! What a name at a place means (a declaration of the ruleset, a local, a built-in, a
//! script function, a rule reference), where it is declared and where it is used: go to
//! definition and find references, across the files of a variant and what it extends.

use std::ops::Range;
use std::path::Path;

use frontier_interpreter::builtins::{Builtin, BUILTINS};
use lsp_types::Location;

use crate::index::{local_of, procedure_param, DeclKind, Found, Role, Use};
use crate::text::Lines;
use crate::uri::uri_of;
use crate::workspace::Ruleset;

/// What a name means.
#[derive(Debug, Clone)]
pub enum Target {
    /// A declaration: (file number, declaration number) in the ruleset.
    Decl(Found),
    /// A local: the file it is declared in and its declaration.
    Local(usize, Use),
    Builtin(&'static Builtin),
    /// A function of the ruleset's scripts.
    Script(String),
    /// A `rule:` reference.
    Rule(String),
    /// A statement's verb.
    Statement(String),
}

/// What stands at byte `offset` of file number `file`, and the span of its name.
pub fn target_at(ruleset: &Ruleset, file: usize, offset: usize) -> Option<(Target, Range<usize>)> {
    let index = &ruleset.files.get(file)?.index;
    if let Some(rule) = index.rule_at(offset) {
        return Some((Target::Rule(rule.text.clone()), rule.span.clone()));
    }
    if let Some(u) = index.use_at(offset) {
        return meaning(ruleset, file, u).map(|t| (t, u.span.clone()));
    }
    let decl = index.decl_at(offset)?;
    let d = index.decls.iter().position(|x| x == decl)?;
    Some((Target::Decl((file, d)), decl.span.clone()))
}

/// What a use in file number `file` means.
pub fn meaning(ruleset: &Ruleset, file: usize, u: &Use) -> Option<Target> {
    let index = &ruleset.files[file].index;
    match &u.role {
        Role::Declares => return Some(Target::Local(file, u.clone())),
        Role::Statement => return Some(Target::Statement(u.name.clone())),
        Role::Name => {
            if let Some(local) = local_of(index, u) {
                return Some(Target::Local(file, local.clone()));
            }
        }
        Role::ProcedureParam { procedure } => {
            let (pf, _) = ruleset.symbols.get(DeclKind::Procedure, procedure, None)?;
            let param = procedure_param(&ruleset.files[pf].index, procedure, &u.name)?;
            return Some(Target::Local(pf, param.clone()));
        }
        _ => {}
    }
    if let Some(found) = ruleset.symbols.resolve(u).first() {
        return Some(Target::Decl(*found));
    }
    if u.role == Role::Call {
        if let Some(b) = BUILTINS.iter().find(|b| b.name == u.name) {
            return Some(Target::Builtin(b));
        }
        return Some(Target::Script(u.name.clone()));
    }
    None
}

fn location(ruleset: &Ruleset, file: usize, span: Range<usize>) -> Option<Location> {
    let f = ruleset.files.get(file)?;
    let uri = uri_of(f.path.as_deref()?)?;
    Some(Location::new(uri, Lines::new(&f.text).range(span)))
}

/// Where a script function is written (`fn name(`), in the ruleset's scripts.
fn script_function(ruleset: &Ruleset, name: &str) -> Option<Location> {
    let needle = format!("fn {name}(");
    ruleset.scripts.iter().find_map(|(file, text)| {
        let at = text.find(&needle)? + 3;
        let path = Path::new(file);
        let uri = uri_of(path).filter(|_| path.is_absolute())?;
        Some(Location::new(
            uri,
            Lines::new(text).range(at..at + name.len()),
        ))
    })
}

/// Where what stands at `offset` is declared.
pub fn definition(ruleset: &Ruleset, file: usize, offset: usize) -> Vec<Location> {
    let Some((target, _)) = target_at(ruleset, file, offset) else {
        return Vec::new();
    };
    match target {
        Target::Decl((f, d)) => {
            let all: Vec<Found> = match ruleset.files[file].index.use_at(offset) {
                // A column several tables have: the one of the table of the row before
                // the `.` when the game tells, else each of them.
                Some(u) if matches!(u.role, Role::Field { .. }) => {
                    crate::receiver::columns_meant(ruleset, file, u)
                }
                // A row id several tables have: each of them.
                Some(u) if matches!(u.role, Role::Row { table: None }) => {
                    ruleset.symbols.resolve(u)
                }
                // A declaration that a variant writes again (a parameter it sets): the
                // declarations of the rulesets it extends.
                None if f == file => {
                    let again = same_in_files(ruleset, (f, d), f + 1);
                    if again.is_empty() {
                        vec![(f, d)]
                    } else {
                        again
                    }
                }
                _ => vec![(f, d)],
            };
            all.into_iter()
                .filter_map(|(f, d)| {
                    location(ruleset, f, ruleset.files[f].index.decls[d].span.clone())
                })
                .collect()
        }
        Target::Local(f, u) => location(ruleset, f, u.span).into_iter().collect(),
        Target::Script(name) => script_function(ruleset, &name).into_iter().collect(),
        Target::Builtin(_) | Target::Rule(_) | Target::Statement(_) => Vec::new(),
    }
}

/// The declarations of the same kind and name (and table) as `found`, in the files from
/// number `from` on (a variant's declaration and its base's are one name).
fn same_in_files(ruleset: &Ruleset, found: Found, from: usize) -> Vec<Found> {
    let decl = &ruleset.files[found.0].index.decls[found.1];
    let mut out = Vec::new();
    for (f, file) in ruleset.files.iter().enumerate().skip(from) {
        for (d, other) in file.index.decls.iter().enumerate() {
            if other.kind == decl.kind && other.name == decl.name && other.owner == decl.owner {
                out.push((f, d));
            }
        }
    }
    out
}

/// Every place that names what stands at `offset` (its declaration too when asked).
pub fn references(
    ruleset: &Ruleset,
    file: usize,
    offset: usize,
    with_declaration: bool,
) -> Vec<Location> {
    let Some((target, _)) = target_at(ruleset, file, offset) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match &target {
        Target::Decl(found) => {
            // The declaration in every file that writes it (a variant and its base).
            let all = same_in_files(ruleset, *found, 0);
            if with_declaration {
                for (f, d) in &all {
                    out.extend(location(
                        ruleset,
                        *f,
                        ruleset.files[*f].index.decls[*d].span.clone(),
                    ));
                }
            }
            for (f, file) in ruleset.files.iter().enumerate() {
                for u in &file.index.uses {
                    if u.role == Role::Declares {
                        continue;
                    }
                    let same = match meaning(ruleset, f, u) {
                        Some(Target::Decl(x)) => {
                            all.contains(&x)
                                || ruleset.symbols.resolve(u).iter().any(|r| all.contains(r))
                        }
                        _ => false,
                    };
                    if same {
                        out.extend(location(ruleset, f, u.span.clone()));
                    }
                }
            }
        }
        Target::Local(f, decl) => {
            if with_declaration {
                out.extend(location(ruleset, *f, decl.span.clone()));
            }
            for (uf, file) in ruleset.files.iter().enumerate() {
                for u in &file.index.uses {
                    if u.role == Role::Declares {
                        continue;
                    }
                    if let Some(Target::Local(lf, l)) = meaning(ruleset, uf, u) {
                        if lf == *f && l.span == decl.span {
                            out.extend(location(ruleset, uf, u.span.clone()));
                        }
                    }
                }
            }
        }
        Target::Builtin(b) => {
            for (f, file) in ruleset.files.iter().enumerate() {
                for u in &file.index.uses {
                    if u.role == Role::Call && u.name == b.name {
                        if let Some(Target::Builtin(_)) = meaning(ruleset, f, u) {
                            out.extend(location(ruleset, f, u.span.clone()));
                        }
                    }
                }
            }
        }
        Target::Script(name) => {
            if with_declaration {
                out.extend(script_function(ruleset, name));
            }
            for (f, file) in ruleset.files.iter().enumerate() {
                for u in &file.index.uses {
                    if u.role == Role::Call && &u.name == name {
                        out.extend(location(ruleset, f, u.span.clone()));
                    }
                }
            }
        }
        Target::Statement(verb) => {
            for (f, file) in ruleset.files.iter().enumerate() {
                for u in &file.index.uses {
                    if u.role == Role::Statement && &u.name == verb {
                        out.extend(location(ruleset, f, u.span.clone()));
                    }
                }
            }
        }
        Target::Rule(text) => {
            for (f, file) in ruleset.files.iter().enumerate() {
                for r in &file.index.rules {
                    if &r.text == text {
                        out.extend(location(ruleset, f, r.span.clone()));
                    }
                }
            }
        }
    }
    out
}
