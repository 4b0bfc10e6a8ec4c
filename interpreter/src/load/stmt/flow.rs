//! Statements that steer the procedure: `if`, the loops (`for_each`, `repeat`, `repeat:
//! { up_to }` with its `done` option, `while`), `match` (a chain of `if`s), `log` and
//! `end_game`.

use std::sync::Arc;

use serde_yaml::{Mapping, Value as Yaml};

use super::bindings::{bound_list, is_identifier};
use super::{Procedures, RoundDone, Site};
use crate::eval::Template;
use crate::ir::{CmpOp, Expr as Ir};
use crate::load::{join, Builder, Decls, ProcCtx};
use crate::model::*;
use crate::value::{Type, Value};

impl Procedures {
    pub(super) fn if_(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site {
            m,
            arg,
            path,
            ref vpath,
            ..
        } = *site;
        let (rule, origin) = (site.rule.clone(), site.origin.clone());
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let cond = b.expression(decls, arg, vpath, &scope, Some(&Type::Bool)).0;
        let then = match m.get("then") {
            Some(t) => self.block(b, decls, ctx, t, &join(path, "then")),
            None => {
                b.error(path, "if needs 'then:' (a list of statements)");
                return;
            }
        };
        let otherwise = m
            .get("else")
            .map(|e| self.block(b, decls, ctx, e, &join(path, "else")));
        out.push(Stmt {
            kind: StmtKind::If {
                cond,
                then,
                otherwise,
            },
            rule,
            origin,
        });
    }

    pub(super) fn for_each(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site {
            m,
            arg,
            path,
            ref vpath,
            ..
        } = *site;
        let (rule, origin) = (site.rule.clone(), site.origin.clone());
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let Some((var, list, elem)) = bound_list(b, decls, &scope, arg, vpath) else {
            return;
        };
        let visible = ctx.visible.len();
        let slot = ctx.declare(&var, elem);
        let body = self.loop_body(b, decls, ctx, m, path);
        ctx.visible.truncate(visible);
        out.push(Stmt {
            kind: StmtKind::ForEach { slot, list, body },
            rule,
            origin,
        });
    }

    pub(super) fn repeat(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site {
            m,
            arg,
            path,
            ref vpath,
            ..
        } = *site;
        if let Some(mm) = arg.as_mapping() {
            self.repeat_up_to(b, decls, ctx, site, mm, out);
            return;
        }
        let (rule, origin) = (site.rule.clone(), site.origin.clone());
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let count = b.expression(decls, arg, vpath, &scope, Some(&Type::Int)).0;
        let body = self.loop_body(b, decls, ctx, m, path);
        out.push(Stmt {
            kind: StmtKind::Repeat { count, body },
            rule,
            origin,
        });
    }

    /// `repeat: { up_to: n, as: i, while: condition, done: label, at_least: k }`: at most
    /// n rounds, each begun only while the condition holds; from round k + 1 on, each
    /// decision of a round offers one more option, `done`, which ends the loop.
    fn repeat_up_to(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        mm: &Mapping,
        out: &mut Vec<Stmt>,
    ) {
        let Site {
            m, path, ref vpath, ..
        } = *site;
        let (rule, origin) = (site.rule.clone(), site.origin.clone());
        b.check_keys(mm, vpath, &["up_to", "as", "while", "done", "at_least"]);
        let Some(up_to) = mm.get("up_to") else {
            b.error(vpath, "repeat takes a number of rounds, or { up_to: n, as: name, while: condition, done: label, at_least: k }");
            return;
        };
        let outer = ctx.visible.clone();
        let count = b
            .expression(
                decls,
                up_to,
                &join(vpath, "up_to"),
                &crate::load::Scope {
                    locals: &outer,
                    it: None,
                },
                Some(&Type::Int),
            )
            .0;
        let visible = ctx.visible.len();
        // The round number the `done` option reads: a local no expression can name (and
        // so no body can change).
        let round = ctx.hidden("#round", Type::Int);
        let name = match mm.get("as") {
            Some(Yaml::String(n)) if is_identifier(n) => Some(ctx.declare(n, Type::Int)),
            Some(other) => {
                let shown = other
                    .as_str()
                    .map(|n| format!("'{n}' is not a valid local name"))
                    .unwrap_or_else(|| "expected a local name".into());
                b.error(
                    &join(vpath, "as"),
                    format!("{shown}: 'as' names the round number (1, 2, …)"),
                );
                None
            }
            None => None,
        };
        let inner = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &inner,
            it: None,
        };
        let cond = mm.get("while").map(|c| {
            b.expression(decls, c, &join(vpath, "while"), &scope, Some(&Type::Bool))
                .0
        });
        let label = match mm.get("done") {
            Some(l) => b.template(decls, l, &join(vpath, "done"), &scope),
            None => Template::literal("done"),
        };
        let condition = mm.get("at_least").map(|k| {
            let k = b
                .expression(decls, k, &join(vpath, "at_least"), &scope, Some(&Type::Int))
                .0;
            Ir::Compare {
                op: CmpOp::Gt,
                a: Ir::Local(round).boxed(),
                b: k.boxed(),
            }
        });
        let end = self.push_block(vec![Stmt {
            kind: StmtKind::EndLoop,
            rule: rule.clone(),
            origin: origin.clone(),
        }]);
        self.round = Some(RoundDone {
            label,
            condition,
            body: end,
            rule: rule.clone(),
            used: 0,
        });
        let body = self.loop_body(b, decls, ctx, m, path);
        if self.round.take().is_some_and(|r| r.used == 0) && m.contains_key("do") {
            b.error(
                path,
                "repeat up_to adds its 'done' option to the decisions of its rounds, and its do: has none \
                 (a choose in the do: list or in an if there); for a fixed number of rounds write repeat: n",
            );
        }
        ctx.visible.truncate(visible);
        out.push(Stmt {
            kind: StmtKind::RepeatUpTo {
                count,
                round,
                name,
                cond,
                body,
            },
            rule,
            origin,
        });
    }

    pub(super) fn while_(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site {
            m,
            arg,
            path,
            ref vpath,
            ..
        } = *site;
        let (rule, origin) = (site.rule.clone(), site.origin.clone());
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let cond = b.expression(decls, arg, vpath, &scope, Some(&Type::Bool)).0;
        let body = self.loop_body(b, decls, ctx, m, path);
        out.push(Stmt {
            kind: StmtKind::While { cond, body },
            rule,
            origin,
        });
    }

    pub(super) fn log(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site { arg, ref vpath, .. } = *site;
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let t = b.template(decls, arg, vpath, &scope);
        out.push(site.stmt(StmtKind::Log(t)));
    }

    pub(super) fn end_game(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site { arg, ref vpath, .. } = *site;
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        // end_game (optionally with a log line)
        if !arg.is_null() {
            let t = b.template(decls, arg, vpath, &scope);
            out.push(site.stmt(StmtKind::Log(t)));
        }
        out.push(site.stmt(StmtKind::EndGame));
    }

    /// `match: value` with `cases:` (a row id or a literal each, and its statements) and an
    /// optional `else:`. Compiled as the value kept in a hidden local and a chain of `if`s.
    pub(super) fn match_(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site {
            m,
            arg,
            path,
            ref vpath,
            ..
        } = *site;
        let scope = crate::load::Scope {
            locals: &ctx.visible,
            it: None,
        };
        let (value, ty) = b.expression(decls, arg, vpath, &scope, None);
        let Some(cases) = m.get("cases").and_then(Yaml::as_mapping) else {
            b.error(
                path,
                "match needs 'cases:': a mapping of row ids or literals to statements",
            );
            return;
        };
        // The value, evaluated once; a name no ruleset can write, and not visible.
        let visible = ctx.visible.len();
        let slot = ctx.declare("#match", ty.clone());
        ctx.visible.truncate(visible);
        out.push(site.stmt(StmtKind::Assign {
            target: Place::Local(slot),
            value,
            mode: AssignMode::Set,
        }));
        let mut tests = Vec::new();
        for (key, body) in cases {
            let cpath = join(&join(path, "cases"), &scalar_text(key));
            let Some(case) = case_value(b, decls, &ty, key, &cpath) else {
                continue;
            };
            if tests.iter().any(|(v, _): &(Value, BlockId)| *v == case) {
                b.error(&cpath, "this case is listed twice");
            }
            tests.push((case, self.block(b, decls, ctx, body, &cpath)));
        }
        // From the last case back: each case's `else` is the test of the next; the first
        // test stands in the procedure.
        let mut otherwise = m
            .get("else")
            .map(|e| self.block(b, decls, ctx, e, &join(path, "else")));
        let mut tests = tests.into_iter().rev().peekable();
        while let Some((case, then)) = tests.next() {
            let read = Ir::Local(slot).boxed();
            let cond = match case {
                Value::Int(_) => Ir::Compare {
                    op: CmpOp::Eq,
                    a: read,
                    b: Ir::Const(case).boxed(),
                },
                _ => Ir::Equal {
                    a: read,
                    b: Ir::Const(case).boxed(),
                    negate: false,
                },
            };
            let test = site.stmt(StmtKind::If {
                cond,
                then,
                otherwise,
            });
            if tests.peek().is_none() {
                out.push(test);
                return;
            }
            otherwise = Some(self.push_block(vec![test]));
        }
        // No case: only the else.
        if let Some(only) = otherwise {
            out.push(site.stmt(StmtKind::If {
                cond: Ir::Const(Value::Bool(true)),
                then: only,
                otherwise: None,
            }));
        }
    }
}

/// A YAML key as text, for paths.
fn scalar_text(v: &Yaml) -> String {
    match v {
        Yaml::String(s) => s.clone(),
        Yaml::Number(n) => n.to_string(),
        Yaml::Bool(b) => b.to_string(),
        _ => "?".into(),
    }
}

/// The value a `match` case stands for: a row id of the value's table, a number, true or
/// false, or a text, as the matched value's type requires.
fn case_value(b: &mut Builder, decls: &Decls, ty: &Type, key: &Yaml, path: &str) -> Option<Value> {
    match (ty, key) {
        (Type::Row(t), Yaml::String(id)) => {
            let table = &decls.tables[t.index()];
            match table.row_index.get(id.as_str()).map(|&r| r as usize) {
                Some(r) => Some(Value::Row(*t, r as u16)),
                None => {
                    let hint = crate::hints::did_you_mean(id, &table.row_ids);
                    b.error(
                        path,
                        format!("table {} has no row '{id}'{hint}", table.name),
                    );
                    None
                }
            }
        }
        (Type::Int, Yaml::Number(n)) if n.as_i64().is_some() => n.as_i64().map(Value::Int),
        (Type::Bool, Yaml::Bool(v)) => Some(Value::Bool(*v)),
        (Type::Str, Yaml::String(text)) => Some(Value::Str(Arc::from(text.as_str()))),
        (Type::Any, _) => {
            b.error(
                path,
                "match needs a value of a known type (a row, a number, true/false or a text)",
            );
            None
        }
        _ => {
            b.error(path, "a case of match is a row id of the value's table, a number, true/false or a text, as the value is");
            None
        }
    }
}
