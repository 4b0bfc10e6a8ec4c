//! Statements on zones and boards: `move`, `push`, `remove`, `draw`, `shuffle`,
//! `clear`, `reveal` and `place`, and the zone instances they name (`deck`, `hand[p]`).

use serde_yaml::{Mapping, Value as Yaml};

use super::bindings::is_identifier;
use super::{Procedures, Site};
use crate::hints::did_you_mean;
use crate::ir::Expr as Ir;
use crate::load::{join, Builder, Decls, ProcCtx};
use crate::model::*;
use crate::value::{Type, Value};

impl Procedures {
    pub(super) fn place(
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
        let Some(mm) = arg.as_mapping() else {
            b.error(
                vpath,
                "place takes a mapping: { on: board, at: position, piece: rows of cells }",
            );
            return;
        };
        b.check_keys(mm, vpath, &["on", "at", "piece"]);
        let (Some(on), Some(at), Some(piece)) = (mm.get("on"), mm.get("at"), mm.get("piece"))
        else {
            b.error(vpath, "place needs 'on' (a board), 'at' (a position) and 'piece' (a list of rows of cells)");
            return;
        };
        let board = crate::load::board::board_ref(b, decls, &scope, on, &join(vpath, "on"));
        let at = b
            .expression(decls, at, &join(vpath, "at"), &scope, Some(&Type::Pos))
            .0;
        let Some((board, cell)) = board else { return };
        let want = Type::List(Box::new(Type::List(Box::new(cell))));
        let piece = b
            .expression(decls, piece, &join(vpath, "piece"), &scope, Some(&want))
            .0;
        out.push(site.stmt(StmtKind::Place { board, at, piece }));
    }

    pub(super) fn shuffle(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        on_zone(b, decls, ctx, site, out, |zone| StmtKind::Shuffle { zone });
    }

    pub(super) fn clear(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        on_zone(b, decls, ctx, site, out, |zone| StmtKind::Clear { zone });
    }

    /// `reveal: { what: element, in: zone, to: player or list of players }`.
    pub(super) fn reveal(
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
        let scope = crate::load::Scope {
            locals: &ctx.visible,
            it: None,
        };
        let Some(mm) = arg.as_mapping() else {
            b.error(
                vpath,
                format!(
                    "{verb} takes a mapping: {{ what: element, in: zone, to: player or players }}"
                ),
            );
            return;
        };
        b.check_keys(mm, vpath, &["what", "in", "to"]);
        let Some((zone, element)) = zone_arg(b, decls, &scope, mm, "in", vpath) else {
            return;
        };
        let (Some(what), Some(to)) = (mm.get("what"), mm.get("to")) else {
            b.error(vpath, "reveal needs 'what' (an element of the zone) and 'to' (a player or a list of players)");
            return;
        };
        let what = b
            .expression(decls, what, &join(vpath, "what"), &scope, Some(&element))
            .0;
        let tpath = join(vpath, "to");
        let (to, ty) = b.expression(decls, to, &tpath, &scope, None);
        if !Type::Player.accepts(&ty) && !Type::List(Box::new(Type::Player)).accepts(&ty) {
            let found = crate::load::expr::type_name(decls, &ty);
            b.error(
                &tpath,
                format!("reveal shows an element to a player or a list of players, not to {found}"),
            );
            return;
        }
        out.push(site.stmt(StmtKind::Reveal { zone, what, to }));
    }

    pub(super) fn move_(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site { ref vpath, .. } = *site;
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let Some(mm) = mapping_arg(b, site) else {
            return;
        };
        b.check_keys(mm, vpath, &["from", "to", "item", "count", "all", "at"]);
        let from = zone_arg(b, decls, &scope, mm, "from", vpath);
        let to = zone_arg(b, decls, &scope, mm, "to", vpath);
        let (Some((from, fe)), Some((to, te))) = (from, to) else {
            return;
        };
        if fe != te {
            b.error(vpath, "the two zones hold different kinds of things");
        }
        let what = if let Some(item) = mm.get("item") {
            MoveWhat::Item(
                b.expression(decls, item, &join(vpath, "item"), &scope, Some(&fe))
                    .0,
            )
        } else if let Some(count) = mm.get("count") {
            MoveWhat::Top(
                b.expression(
                    decls,
                    count,
                    &join(vpath, "count"),
                    &scope,
                    Some(&Type::Int),
                )
                .0,
            )
        } else if mm.get("all").and_then(Yaml::as_bool) == Some(true) {
            MoveWhat::All
        } else {
            MoveWhat::Top(Ir::Const(Value::Int(1)))
        };
        let at = match mm.get("at") {
            None => MoveAt::Bottom,
            Some(Yaml::String(s)) if s == "bottom" => MoveAt::Bottom,
            Some(Yaml::String(s)) if s == "top" => MoveAt::Top,
            Some(k) => {
                let apath = join(vpath, "at");
                let before = b.diagnostics.len();
                let k_ir = b.expression(decls, k, &apath, &scope, Some(&Type::Int)).0;
                // A word that names nothing is a misspelt place, not a missing variable.
                if let Some(word) = k
                    .as_str()
                    .filter(|w| is_identifier(w) && b.diagnostics.len() > before)
                {
                    b.diagnostics.truncate(before);
                    b.error(
                        &apath,
                        format!(
                            "expected top, bottom or a position (a number, 0 = top), not '{word}'"
                        ),
                    );
                }
                MoveAt::Index(k_ir)
            }
        };
        out.push(site.stmt(StmtKind::Move { from, to, what, at }));
    }

    pub(super) fn push_(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site { ref vpath, .. } = *site;
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let Some(mm) = mapping_arg(b, site) else {
            return;
        };
        b.check_keys(mm, vpath, &["to", "value"]);
        let Some((to, te)) = zone_arg(b, decls, &scope, mm, "to", vpath) else {
            return;
        };
        let Some(v) = mm.get("value") else {
            b.error(vpath, "push needs 'value'");
            return;
        };
        let value = b
            .expression(decls, v, &join(vpath, "value"), &scope, Some(&te))
            .0;
        out.push(site.stmt(StmtKind::Push { to, value }));
    }

    pub(super) fn remove(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site { ref vpath, .. } = *site;
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let Some(mm) = mapping_arg(b, site) else {
            return;
        };
        b.check_keys(mm, vpath, &["from", "item", "at"]);
        let Some((from, fe)) = zone_arg(b, decls, &scope, mm, "from", vpath) else {
            return;
        };
        let what = match (mm.get("item"), mm.get("at")) {
            (Some(item), None) => RemoveWhat::Item(
                b.expression(decls, item, &join(vpath, "item"), &scope, Some(&fe))
                    .0,
            ),
            (None, Some(at)) => RemoveWhat::At(
                b.expression(decls, at, &join(vpath, "at"), &scope, Some(&Type::Int))
                    .0,
            ),
            _ => {
                b.error(
                    vpath,
                    "remove takes either 'item' or 'at' (a position, 0 = first)",
                );
                return;
            }
        };
        out.push(site.stmt(StmtKind::Remove { from, what }));
    }

    pub(super) fn draw(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        let Site { ref vpath, .. } = *site;
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope {
            locals: &scope_locals,
            it: None,
        };
        let Some(mm) = mapping_arg(b, site) else {
            return;
        };
        b.check_keys(mm, vpath, &["from", "to", "count", "refill_from"]);
        let from = zone_arg(b, decls, &scope, mm, "from", vpath);
        let to = zone_arg(b, decls, &scope, mm, "to", vpath);
        let (Some((from, fe)), Some((to, te))) = (from, to) else {
            return;
        };
        if fe != te {
            b.error(vpath, "the two zones hold different kinds of things");
        }
        let count = match mm.get("count") {
            Some(c) => {
                b.expression(decls, c, &join(vpath, "count"), &scope, Some(&Type::Int))
                    .0
            }
            None => Ir::Const(Value::Int(1)),
        };
        let refill = match mm.get("refill_from") {
            Some(_) => zone_arg(b, decls, &scope, mm, "refill_from", vpath).map(|(z, _)| z),
            None => None,
        };
        // The rounds left while the draw waits for a shuffle: a name no ruleset can write.
        let visible = ctx.visible.len();
        let left = ctx.declare("#draw", Type::Int);
        ctx.visible.truncate(visible);
        out.push(site.stmt(StmtKind::Draw(Box::new(crate::model::Draw {
            from,
            to,
            count,
            refill,
            left,
        }))));
    }
}

/// A statement whose argument is a zone instance (`shuffle: deck`, `clear: "hand[p]"`).
fn on_zone(
    b: &mut Builder,
    decls: &Decls,
    ctx: &ProcCtx,
    site: &Site,
    out: &mut Vec<Stmt>,
    kind: fn(ZoneRead) -> StmtKind,
) {
    let scope = crate::load::Scope {
        locals: &ctx.visible,
        it: None,
    };
    if let Some((zone, _)) = zone_expr(b, decls, &scope, site.arg, &site.vpath) {
        out.push(site.stmt(kind(zone)));
    }
}

/// The verb's argument as a mapping (`move: { from: …, to: … }`), or an error saying so.
fn mapping_arg<'y>(b: &mut Builder, site: &Site<'y>) -> Option<&'y Mapping> {
    let m = site.arg.as_mapping();
    if m.is_none() {
        b.error(&site.vpath, format!("{} takes a mapping", site.verb));
    }
    m
}

fn zone_arg(
    b: &mut Builder,
    decls: &Decls,
    scope: &crate::load::Scope,
    m: &Mapping,
    key: &str,
    path: &str,
) -> Option<(ZoneRead, Type)> {
    match m.get(key) {
        Some(v) => zone_expr(b, decls, scope, v, &join(path, key)),
        None => {
            b.error(path, format!("missing '{key}' (a zone)"));
            None
        }
    }
}

/// A zone instance named in a statement: `deck` or `hand[p]`.
fn zone_expr(
    b: &mut Builder,
    decls: &Decls,
    scope: &crate::load::Scope,
    v: &Yaml,
    path: &str,
) -> Option<(ZoneRead, Type)> {
    let (ast, source) = b.parse_expression(v, path)?;
    let (name, indexes) = match crate::load::expr::name_and_indexes(&ast) {
        Some((n, indexes)) => (n.text.as_str(), indexes),
        None => ("", Vec::new()),
    };
    let Some(z) = decls.zones.position(name) else {
        let names: Vec<String> = decls.zones.iter().map(|z| z.name.clone()).collect();
        let hint = did_you_mean(name, &names);
        b.expr_error(path, &source, ast.span, format!("expected a zone{hint}"));
        return None;
    };
    let zone = &decls.zones[z];
    let mut compiler = crate::load::Compiler::with_source(decls, &source);
    let index = compiler.instance_index(ast.span, "zone", name, zone.per, &indexes, scope);
    for e in compiler.errors {
        b.expr_error(path, &source, e.span, e.message);
    }
    Some((zone.read(index?), zone.of.value_type()))
}
