//! Names inside a trace's assertions and `let` lines (`assert tokens[red] == 30`): what
//! they mean in the ruleset the trace plays, for hover and definition.

use frontier_interpreter::builtins::BUILTINS;
use frontier_interpreter::frontier_grammar::expr::{parse_expr, Bounds};
use frontier_interpreter::frontier_grammar::trace::{self as notation, LineKind};

use crate::index::{walk_names, Role, Use};
use crate::navigate::Target;
use crate::workspace::Ruleset;

/// The name of an assertion or `let` of the trace `text` written at byte `offset`.
pub fn name_at(text: &str, offset: usize) -> Option<Use> {
    let trace = notation::parse(text).ok()?;
    let (source, at) = trace.body.iter().find_map(|line| match &line.kind {
        LineKind::Assert {
            source, offset: at, ..
        }
        | LineKind::Let {
            source, offset: at, ..
        } if *at <= offset && offset <= at + source.len() => Some((source, *at)),
        _ => None,
    })?;
    let expr = parse_expr(source, Bounds::DEFAULT).ok()?;
    let mut found = None;
    walk_names(&expr, source, &mut |name, role| {
        let span = at + name.span.start..at + name.span.end;
        if span.start <= offset && offset <= span.end && found.is_none() {
            found = Some(Use {
                name: name.text.clone(),
                span,
                role,
                scope: None,
            });
        }
    });
    found
}

/// What a name of a trace's assertion means in its ruleset.
pub fn meaning(ruleset: &Ruleset, u: &Use) -> Option<Target> {
    if let Some(found) = ruleset.symbols.resolve(u).first() {
        return Some(Target::Decl(*found));
    }
    if u.role == Role::Call {
        return BUILTINS
            .iter()
            .find(|b| b.name == u.name)
            .map(Target::Builtin);
    }
    None
}
