//! Decisions and chance: `choose` (its options, one group each, with their `for:`
//! lists, labels, conditions and bodies; a round's `done` added last) and `random`.

use serde_yaml::Value as Yaml;

use super::bindings::{bound_list, list_element, option_bindings};
use super::{Procedures, RoundDone, Site};
use crate::eval::Template;
use crate::load::{join, Builder, Decls, ProcCtx, MAX_IDS};
use crate::model::*;
use crate::value::Type;

impl Procedures {
    pub(super) fn random(
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
        let Some((var, outcomes, elem)) = bound_list(b, decls, &scope, arg, vpath) else {
            return;
        };
        let weights = m.get("weights").map(|w| {
            b.expression(
                decls,
                w,
                &join(path, "weights"),
                &scope,
                Some(&Type::List(Box::new(Type::Int))),
            )
            .0
        });
        let slot = ctx.declare(&var, elem);
        out.push(Stmt {
            kind: StmtKind::Random {
                slot,
                outcomes,
                weights,
            },
            rule,
            origin,
        });
    }

    pub(super) fn choose_stmt(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site { arg, ref vpath, .. } = *site;
        let (rule, origin) = (site.rule.clone(), site.origin.clone());
        // The blocks of the options are not the round's: their decisions get no `done`.
        let round = self.round.take();
        if let Some(mut choose) = self.choose(b, decls, ctx, arg, vpath) {
            if let Some(done) = &round {
                choose.groups.push(done.option());
            }
            out.push(Stmt {
                kind: StmtKind::Choose(Box::new(choose)),
                rule,
                origin,
            });
        }
        self.round = round.map(|r| RoundDone {
            used: r.used + 1,
            ..r
        });
    }

    fn choose(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        arg: &Yaml,
        path: &str,
    ) -> Option<Choose> {
        let Some(m) = arg.as_mapping() else {
            b.error(
                path,
                "choose takes a mapping: {who: …, prompt: …, options: [...]}",
            );
            return None;
        };
        b.check_keys(m, path, &["who", "prompt", "options"]);
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let who = match m.get("who") {
            Some(w) => {
                b.expression(decls, w, &join(path, "who"), &scope, Some(&Type::Player))
                    .0
            }
            None => {
                b.error(path, "choose needs 'who': the player who decides");
                return None;
            }
        };
        let prompt = match m.get("prompt") {
            Some(p) => b.template(decls, p, &join(path, "prompt"), &scope),
            None => Template::literal("choose"),
        };
        let Some(options) = m.get("options").and_then(Yaml::as_sequence) else {
            b.error(
                path,
                "choose needs 'options': a list of {label: …, do: [...]}",
            );
            return None;
        };
        // An option is numbered by 16 bits, one number kept for a round's `done`.
        if options.len() >= MAX_IDS {
            b.error(
                &join(path, "options"),
                format!(
                    "a choose has at most {} options, not {}",
                    MAX_IDS - 1,
                    options.len()
                ),
            );
            return None;
        }
        let mut groups = Vec::new();
        for (i, opt) in options.iter().enumerate() {
            let opath = format!("{path}.options[{i}]");
            groups.extend(self.option_group(b, decls, ctx, opt, &opath));
        }
        Some(Choose {
            who,
            prompt,
            groups,
        })
    }

    /// One option of a `choose`: its `for:` names bound (seen by its label, condition
    /// and body only), its label, `if:` and body compiled.
    fn option_group(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        opt: &Yaml,
        opath: &str,
    ) -> Option<OptionGroup> {
        let Some(om) = opt.as_mapping() else {
            b.error(
                opath,
                "an option is a mapping: {label: …, for: {x: list}, if: …, do: [...]}",
            );
            return None;
        };
        b.check_keys(om, opath, &["label", "for", "if", "do", "rule", "doc"]);
        let visible = ctx.visible.len();
        let mut bindings = Vec::new();
        let mut element_types = Vec::new();
        if let Some(f) = om.get("for") {
            let fpath = join(opath, "for");
            let names = option_bindings(b, f, &fpath)?;
            // Each list may read the names before it (the lists are nested loops).
            for (var, list_yaml) in names {
                let so_far = ctx.visible.clone();
                let scope = crate::load::Scope {
                    locals: &so_far,
                    it: None,
                };
                let (list, ty) = b.expression(decls, &list_yaml, &join(&fpath, &var), &scope, None);
                let elem = list_element(b, &ty, &join(&fpath, &var));
                element_types.push(elem.clone());
                bindings.push((ctx.declare(&var, elem), list));
            }
        }
        let inner_locals = ctx.visible.clone();
        let inner = crate::load::Scope {
            locals: &inner_locals,
            it: None,
        };
        let label = match om.get("label") {
            Some(l) => b.template(decls, l, &join(opath, "label"), &inner),
            None => {
                b.error(
                    opath,
                    "an option needs a 'label' (what traces and players see)",
                );
                Template::literal("?")
            }
        };
        let condition = om.get("if").map(|c| {
            b.expression(decls, c, &join(opath, "if"), &inner, Some(&Type::Bool))
                .0
        });
        let body = match om.get("do") {
            Some(d) => self.block(b, decls, ctx, d, &join(opath, "do")),
            None => self.block(b, decls, ctx, &Yaml::Null, opath),
        };
        ctx.visible.truncate(visible);
        let rule = b.rule(om, opath);
        Some(OptionGroup {
            label,
            bindings,
            element_types,
            condition,
            by_row: None,
            body,
            rule,
        })
    }
}
