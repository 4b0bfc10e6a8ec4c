//! Assignments: `set`, `add` and `let`, `award` (prizes added by place), and the places
//! they write (a local, a variable, `var[index]`, `var[i, j]`, `player.var`).

use std::sync::Arc;

use frontier_grammar::expr::{Expr, ExprKind};
use serde_yaml::Value as Yaml;

use super::bindings::{is_identifier, list_element};
use super::{Procedures, Site};
use crate::hints::did_you_mean;
use crate::ir::Expr as Ir;
use crate::load::{join, Builder, Decls, ProcCtx};
use crate::model::*;
use crate::value::Type;

impl Procedures {
    pub(super) fn assign(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site {
            verb,
            arg,
            ref vpath,
            ..
        } = *site;
        let rule = site.rule.clone();
        let Some(pairs) = arg.as_mapping() else {
            b.error(
                vpath,
                format!("{verb} takes a mapping: {{ target: value, … }}"),
            );
            return;
        };
        for (k, v) in pairs {
            let Some(target) = b.key_name(k, vpath) else {
                continue;
            };
            let tpath = join(vpath, target);
            if verb == "let" {
                if !is_identifier(target) {
                    b.error(&tpath, format!("'{target}' is not a valid local name"));
                    continue;
                }
                let scope = crate::load::Scope {
                    locals: &ctx.visible,
                    it: None,
                };
                let (value, ty) = b.expression(decls, v, &tpath, &scope, None);
                let slot = ctx.declare(target, ty);
                let origin: Arc<str> = Arc::from(tpath.as_str());
                out.push(Stmt {
                    kind: StmtKind::Assign {
                        target: Place::Local(slot),
                        value,
                        mode: AssignMode::Set,
                    },
                    rule: rule.clone(),
                    origin,
                });
                continue;
            }
            let scope = crate::load::Scope {
                locals: &ctx.visible,
                it: None,
            };
            let Some((place, ty)) = place(b, decls, &scope, target, &tpath) else {
                continue;
            };
            let mode = if verb == "add" {
                AssignMode::Add
            } else {
                AssignMode::Set
            };
            if mode == AssignMode::Add && !Type::Int.accepts(&ty) {
                b.error(
                    &tpath,
                    format!("'add' needs a number, and '{target}' is not one"),
                );
            }
            let value = b.expression(decls, v, &tpath, &scope, Some(&ty)).0;
            let origin: Arc<str> = Arc::from(tpath.as_str());
            out.push(Stmt {
                kind: StmtKind::Assign {
                    target: place,
                    value,
                    mode,
                },
                rule: rule.clone(),
                origin,
            });
        }
    }

    /// `award: { among, by, prizes, ties, only, to }`.
    pub(super) fn award(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let (arg, vpath) = (site.arg, &site.vpath);
        let shape = "award takes {among: list, by: key or [keys], prizes: [numbers by place], ties: share|each|next-key, only: condition, to: \"var[it]\"}";
        let Some(m) = arg.as_mapping() else {
            b.error(vpath, shape);
            return;
        };
        b.check_keys(m, vpath, &["among", "by", "prizes", "ties", "only", "to"]);
        let (Some(among), Some(by), Some(prizes), Some(to)) =
            (m.get("among"), m.get("by"), m.get("prizes"), m.get("to"))
        else {
            b.error(
                vpath,
                format!("award needs among, by, prizes and to: {shape}"),
            );
            return;
        };
        let scope = crate::load::Scope {
            locals: &ctx.visible,
            it: None,
        };
        let (among, ty) = b.expression(decls, among, &join(vpath, "among"), &scope, None);
        let elem = list_element(b, &ty, &join(vpath, "among"));
        let each = crate::load::Scope {
            locals: &ctx.visible,
            it: Some(elem),
        };
        let keys: Vec<Ir> = match by {
            Yaml::Sequence(items) => items
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    b.expression(
                        decls,
                        k,
                        &format!("{vpath}.by[{i}]"),
                        &each,
                        Some(&Type::Int),
                    )
                    .0
                })
                .collect(),
            one => vec![
                b.expression(decls, one, &join(vpath, "by"), &each, Some(&Type::Int))
                    .0,
            ],
        };
        let only = m.get("only").map(|c| {
            b.expression(decls, c, &join(vpath, "only"), &each, Some(&Type::Bool))
                .0
        });
        // A YAML list of prizes is the list expression of its items: [5, 3, "bonus"].
        let written;
        let prizes = match prizes {
            Yaml::Sequence(items) => {
                let items: Vec<String> = items
                    .iter()
                    .filter_map(|i| b.expr_source(i, &join(vpath, "prizes")))
                    .collect();
                written = Yaml::String(format!("[{}]", items.join(", ")));
                &written
            }
            one => one,
        };
        let prizes = b
            .expression(
                decls,
                prizes,
                &join(vpath, "prizes"),
                &scope,
                Some(&Type::List(Box::new(Type::Int))),
            )
            .0;
        let ties = match m.get("ties").and_then(Yaml::as_str) {
            None => crate::award::Ties::Share,
            Some(name) => crate::award::Ties::named(name).unwrap_or_else(|| {
                b.error(
                    &join(vpath, "ties"),
                    format!("unknown tie rule '{name}': share, each or next-key"),
                );
                crate::award::Ties::Share
            }),
        };
        let Some(target) = to.as_str() else {
            b.error(
                &join(vpath, "to"),
                "to: the number each prize is added to, such as \"vp[it]\"",
            );
            return;
        };
        let Some((to, to_ty)) = place(b, decls, &each, target, &join(vpath, "to")) else {
            return;
        };
        if !Type::Int.accepts(&to_ty) {
            b.error(
                &join(vpath, "to"),
                format!("prizes are numbers, and '{target}' is not one"),
            );
        }
        out.push(site.stmt(StmtKind::Award(Box::new(Award {
            among,
            keys,
            only,
            prizes,
            ties,
            to,
        }))));
    }
}

/// An assignable place: a local, a global variable, `var[index]`, `var[i, j]` or `player.var`.
fn place(
    b: &mut Builder,
    decls: &Decls,
    scope: &crate::load::Scope,
    target: &str,
    path: &str,
) -> Option<(Place, Type)> {
    let (ast, source) = b.parse_expression(&Yaml::String(target.to_string()), path)?;
    let fail = |b: &mut Builder, msg: String| {
        b.expr_error(path, &source, ast.span, msg);
        None
    };
    match &ast.kind {
        ExprKind::Name(n) => {
            if let Some((_, ty, slot)) = scope.locals.iter().rev().find(|(l, _, _)| *l == n.text) {
                return Some((Place::Local(Slot::at(usize::from(*slot))), ty.clone()));
            }
            match decls.vars.position(&n.text) {
                Some(i) if decls.vars[i].per == Domain::Global => Some((
                    Place::Var {
                        var: VarId::at(i),
                        index: None,
                    },
                    decls.vars[i].ty.clone(),
                )),
                Some(i) => fail(
                    b,
                    format!(
                        "'{}' has one value per index: write {}{}",
                        n.text,
                        n.text,
                        crate::load::expr::blanks(decls.vars[i].per)
                    ),
                ),
                None => {
                    let mut names: Vec<String> =
                        decls.vars.iter().map(|v| v.name.clone()).collect();
                    names.extend(scope.locals.iter().map(|(l, _, _)| l.clone()));
                    let hint = did_you_mean(&n.text, &names);
                    fail(b, format!("unknown variable '{}'{hint}", n.text))
                }
            }
        }
        ExprKind::Index(..) | ExprKind::Field(..) => {
            // `var[i]`, `var[i, j]` (two keys) or `player.var`: the name and the indexes.
            let (var_name, indexes): (String, Vec<&Expr>) = match &ast.kind {
                ExprKind::Index(..) => match crate::load::expr::name_and_indexes(&ast) {
                    Some((n, indexes)) => (n.text.clone(), indexes),
                    None => return fail(b, "cannot assign to this: expected a variable, var[index], player.var or a local".into()),
                },
                ExprKind::Field(base, field) => (field.text.clone(), vec![&**base]),
                _ => return None,
            };
            let Some(i) = decls.vars.position(&var_name) else {
                let names: Vec<String> = decls.vars.iter().map(|v| v.name.clone()).collect();
                let hint = did_you_mean(&var_name, &names);
                return fail(b, format!("unknown variable '{var_name}'{hint}"));
            };
            let var = &decls.vars[i];
            if var.per == Domain::Global {
                return fail(
                    b,
                    format!("'{var_name}' has a single value: it cannot be indexed"),
                );
            }
            let keys = var.per.keys();
            if indexes.len() != keys.len() {
                return fail(
                    b,
                    decls.keys_message(&format!("'{var_name}'"), &var_name, var.per),
                );
            }
            let parts = keys
                .iter()
                .zip(indexes)
                .map(|(key, index)| {
                    b.compile_ast(decls, index, &source, path, scope, &key.index_type())
                })
                .collect();
            Some((
                Place::Var {
                    var: VarId::at(i),
                    index: Some(decls.key_index(var.per, parts)),
                },
                var.ty.clone(),
            ))
        }
        _ => fail(
            b,
            "cannot assign to this: expected a variable, var[index], player.var or a local".into(),
        ),
    }
}
