//! Calls of procedures: `call` (the arguments checked against the procedure's
//! parameters, its value kept `into:` a new local) and `return`.

use serde_yaml::Value as Yaml;

use super::bindings::is_identifier;
use super::{Procedures, Site};
use crate::hints::did_you_mean;
use crate::ir::Expr as Ir;
use crate::load::{join, Builder, Decls, ProcCtx};
use crate::model::*;
use crate::value::Value;

impl Procedures {
    pub(super) fn call(
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
        let (name, args_yaml) = match arg {
            Yaml::String(s) => (s.clone(), None),
            Yaml::Mapping(cm) if cm.len() == 1 => match cm.iter().next() {
                Some((k, v)) => (k.as_str().unwrap_or_default().to_string(), Some(v)),
                None => return,
            },
            _ => {
                b.error(
                    vpath,
                    "call takes a procedure name, or {name: {param: value, …}}",
                );
                return;
            }
        };
        let Some(proc) = self.signatures.position(&name) else {
            // The procedures of `procedures:` first: a call names one of them far more
            // often than setup or play, which win ties otherwise ("pya": pay, not play).
            let (sections, mut names): (Vec<String>, Vec<String>) = self
                .signatures
                .iter()
                .map(|s| s.name.clone())
                .partition(|n| n == "setup" || n == "play");
            names.extend(sections);
            let hint = did_you_mean(&name, &names);
            b.error(vpath, format!("unknown procedure '{name}'{hint}"));
            return;
        };
        let params = self.signatures[proc].params.clone();
        let given = args_yaml
            .and_then(Yaml::as_mapping)
            .cloned()
            .unwrap_or_default();
        if args_yaml.is_some_and(|a| !a.is_mapping() && !a.is_null()) {
            b.error(
                vpath,
                "the arguments of a call are a mapping {param: value, …}",
            );
        }
        let apath = join(vpath, &name);
        for k in given.keys().filter_map(Yaml::as_str) {
            if !params.iter().any(|(p, _)| p == k) {
                b.error(
                    &join(&apath, k),
                    format!("procedure '{name}' has no parameter '{k}'"),
                );
            }
        }
        let mut args = Vec::new();
        for (p, ty) in &params {
            match given.get(p.as_str()) {
                Some(v) => args.push(b.expression(decls, v, &join(&apath, p), &scope, Some(ty)).0),
                None => {
                    b.error(vpath, format!("call to '{name}' lacks its parameter '{p}'"));
                    args.push(Ir::Const(Value::None));
                }
            }
        }
        // `into: x` keeps the procedure's value in a new local x.
        let into = match (site.m.get("into"), &self.signatures[proc].returns) {
            (None, _) => None,
            (Some(Yaml::String(local)), Some(ty)) if is_identifier(local) => {
                Some(ctx.declare(local, ty.clone()))
            }
            (Some(_), Some(_)) => {
                b.error(
                    &join(site.path, "into"),
                    "into: the name of a new local that receives the procedure's value",
                );
                None
            }
            (Some(_), None) => {
                b.error(
                    &join(site.path, "into"),
                    format!("procedure '{name}' returns no value (it declares no 'returns:')"),
                );
                None
            }
        };
        out.push(site.stmt(StmtKind::Call {
            proc: ProcId::at(proc),
            args,
            into,
        }));
    }

    /// `return: value` ends the procedure and gives the value to the call's `into:`;
    /// `return: ~` ends a procedure that returns nothing.
    pub(super) fn return_(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let value = match (site.arg, ctx.returns.clone()) {
            (Yaml::Null, None) => None,
            (Yaml::Null, Some(_)) => {
                b.error(
                    &site.vpath,
                    "this procedure returns a value (its 'returns:'): return: <expression>",
                );
                None
            }
            (arg, Some(ty)) => {
                let scope = crate::load::Scope {
                    locals: &ctx.visible,
                    it: None,
                };
                Some(b.expression(decls, arg, &site.vpath, &scope, Some(&ty)).0)
            }
            (_, None) => {
                b.error(&site.vpath, "this procedure declares no 'returns:': it ends with return: ~ and gives no value");
                None
            }
        };
        out.push(site.stmt(StmtKind::Return(value)));
    }
}
