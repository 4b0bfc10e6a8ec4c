//! Compiles procedures and their statements into blocks.

use std::sync::Arc;

use frontier_grammar::expr::{Expr, ExprKind};
use serde_yaml::{Mapping, Value as Yaml};

use super::{closest, did_you_mean, join, Builder, Decls, ProcCtx};
use crate::eval::{Env, Eval, Template};
use crate::model::*;
use crate::value::{Type, Value};

const VERBS: &[&str] = &[
    "set", "add", "let", "move", "push", "remove", "shuffle", "place", "draw", "if", "for_each", "repeat", "while", "choose",
    "random", "call", "log", "end_game",
];

struct Signature {
    name: String,
    params: Vec<(String, Type)>,
    path: String,
}

pub(crate) struct Procedures {
    signatures: Vec<Signature>,
    blocks: Vec<Block>,
}

impl Procedures {
    pub fn new() -> Procedures {
        Procedures { signatures: Vec::new(), blocks: Vec::new() }
    }

    /// Declares `setup`, `play` and every named procedure, so calls may name any of them.
    pub fn declare(&mut self, b: &mut Builder, decls: &Decls, top: &Mapping) {
        let tables: Vec<String> = decls.tables.iter().map(|t| t.name.clone()).collect();
        for name in ["setup", "play"] {
            self.signatures.push(Signature { name: name.into(), params: Vec::new(), path: name.into() });
        }
        if !top.contains_key("play") {
            b.error("play", "missing 'play': the statements that run the game after setup");
        }
        let Some(procs) = top.get("procedures") else { return };
        let Some(map) = procs.as_mapping() else {
            b.error("procedures", "expected a mapping of procedure names to procedures");
            return;
        };
        for (key, v) in map {
            let Some(name) = key.as_str() else { continue };
            let path = format!("procedures.{name}");
            if self.signatures.iter().any(|s| s.name == name) {
                b.error(&path, format!("procedure '{name}' is declared twice (setup and play are procedures too)"));
                continue;
            }
            let mut params = Vec::new();
            if let Some(m) = v.as_mapping() {
                b.check_keys(m, &path, &["params", "do", "doc", "rule"]);
                match m.get("params") {
                    None => {}
                    Some(Yaml::Mapping(ps)) => {
                        for (p, ty) in ps {
                            let pname = p.as_str().unwrap_or_default().to_string();
                            let ppath = format!("{path}.params.{pname}");
                            let ty = match ty.as_str() {
                                Some(t) => b.type_named(t, &tables, &ppath),
                                None => {
                                    b.error(&ppath, "a parameter's type: int, bool, str, player or a table name");
                                    Type::Any
                                }
                            };
                            params.push((pname, ty));
                        }
                    }
                    Some(_) => b.error(&join(&path, "params"), "expected a mapping of parameter names to types"),
                }
            }
            self.signatures.push(Signature { name: name.to_string(), params, path });
        }
    }

    pub fn compile(mut self, b: &mut Builder, decls: &Decls, top: &Mapping) -> (Vec<Procedure>, Vec<Block>, ProcId, ProcId) {
        let mut procedures = Vec::new();
        let empty = Yaml::Sequence(Vec::new());
        for i in 0..self.signatures.len() {
            let sig = &self.signatures[i];
            let (name, path) = (sig.name.clone(), sig.path.clone());
            let params = sig.params.clone();
            let node = match name.as_str() {
                "setup" | "play" => top.get(name.as_str()).unwrap_or(&empty),
                _ => top.get("procedures").and_then(|p| p.get(name.as_str())).unwrap_or(&empty),
            };
            let (body_yaml, body_path, doc, rule) = match node {
                Yaml::Mapping(m) => {
                    let doc = b.string(m, "doc", &path);
                    let rule = b.rule(m, &path);
                    (m.get("do").unwrap_or(&empty), join(&path, "do"), doc, rule)
                }
                other => (other, path.clone(), None, None),
            };
            let mut ctx = ProcCtx::new();
            let slots: Vec<Slot> = params.iter().map(|(n, t)| ctx.declare(n, t.clone())).collect();
            let body = self.block(b, decls, &mut ctx, body_yaml, &body_path);
            procedures.push(Procedure {
                name,
                params: slots,
                param_names: params.into_iter().map(|(n, _)| n).collect(),
                body,
                locals: ctx.slots.len(),
                doc,
                rule,
            });
        }
        (procedures, self.blocks, 0, 1)
    }

    fn block(&mut self, b: &mut Builder, decls: &Decls, ctx: &mut ProcCtx, yaml: &Yaml, path: &str) -> BlockId {
        let id = self.blocks.len() as BlockId;
        self.blocks.push(Vec::new());
        let visible = ctx.visible.len();
        let mut stmts = Vec::new();
        match yaml {
            Yaml::Sequence(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.statement(b, decls, ctx, item, &format!("{path}[{i}]"), &mut stmts);
                }
            }
            Yaml::Null => {}
            _ => b.error(path, "expected a list of statements"),
        }
        ctx.visible.truncate(visible);
        self.blocks[id as usize] = stmts;
        id
    }

    fn statement(&mut self, b: &mut Builder, decls: &Decls, ctx: &mut ProcCtx, yaml: &Yaml, path: &str, out: &mut Vec<Stmt>) {
        let origin: Arc<str> = Arc::from(path);
        if yaml.as_str() == Some("end_game") {
            out.push(Stmt { kind: StmtKind::EndGame, rule: None, origin });
            return;
        }
        let Some(m) = yaml.as_mapping() else {
            b.error(path, format!("a statement is a mapping with one of: {}", VERBS.join(", ")));
            return;
        };
        let verbs: Vec<&str> = m.keys().filter_map(Yaml::as_str).filter(|k| VERBS.contains(k)).collect();
        let verb = match verbs.as_slice() {
            [v] => *v,
            [] => {
                let keys: Vec<String> = m.keys().filter_map(|k| k.as_str().map(str::to_string)).collect();
                let verbs_owned: Vec<String> = VERBS.iter().map(|s| s.to_string()).collect();
                let hint = keys.iter().find_map(|k| closest(k, &verbs_owned)).map(|c| format!(" (did you mean '{c}'?)")).unwrap_or_default();
                b.error(path, format!("no statement verb among keys {keys:?}{hint}; expected one of: {}", VERBS.join(", ")));
                return;
            }
            many => {
                b.error(path, format!("one verb per statement, found {}", many.join(" and ")));
                return;
            }
        };
        let allowed: &[&str] = match verb {
            "if" => &["if", "then", "else", "rule", "doc"],
            "for_each" | "repeat" | "while" => &[verb, "do", "rule", "doc"],
            "random" => &["random", "weights", "rule", "doc"],
            _ => &[verb, "rule", "doc"],
        };
        b.check_keys(m, path, allowed);
        let rule = b.rule(m, path);
        let arg = &m[verb];
        let vpath = join(path, verb);
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope { locals: &scope_locals, it: None };
        let mut push = |kind: StmtKind| out.push(Stmt { kind, rule: rule.clone(), origin: origin.clone() });
        match verb {
            "set" | "add" | "let" => {
                let Some(pairs) = arg.as_mapping() else {
                    b.error(&vpath, format!("{verb} takes a mapping: {{ target: value, … }}"));
                    return;
                };
                for (k, v) in pairs {
                    let Some(target) = k.as_str() else { continue };
                    let tpath = join(&vpath, target);
                    if verb == "let" {
                        if !is_identifier(target) {
                            b.error(&tpath, format!("'{target}' is not a valid local name"));
                            continue;
                        }
                        let scope = crate::load::Scope { locals: &ctx.visible, it: None };
                        let (value, ty) = b.expression(decls, v, &tpath, &scope, None);
                        let slot = ctx.declare(target, ty);
                        push(StmtKind::Assign { target: Place::Local(slot), value, mode: AssignMode::Set });
                        continue;
                    }
                    let scope = crate::load::Scope { locals: &ctx.visible, it: None };
                    let Some((place, ty)) = place(b, decls, &scope, target, &tpath) else { continue };
                    let mode = if verb == "add" { AssignMode::Add } else { AssignMode::Set };
                    if mode == AssignMode::Add && !Type::Int.accepts(&ty) {
                        b.error(&tpath, format!("'add' needs a number, and '{target}' is not one"));
                    }
                    let value = b.expression(decls, v, &tpath, &scope, Some(&ty)).0;
                    push(StmtKind::Assign { target: place, value, mode });
                }
            }
            "place" => {
                let Some(mm) = arg.as_mapping() else {
                    b.error(&vpath, "place takes a mapping: { on: board, at: position, piece: rows of cells }");
                    return;
                };
                b.check_keys(mm, &vpath, &["on", "at", "piece"]);
                let (Some(on), Some(at), Some(piece)) = (mm.get("on"), mm.get("at"), mm.get("piece")) else {
                    b.error(&vpath, "place needs 'on' (a board), 'at' (a position) and 'piece' (a list of rows of cells)");
                    return;
                };
                let board = super::board::board_ref(b, decls, &scope, on, &join(&vpath, "on"));
                let at = b.expression(decls, at, &join(&vpath, "at"), &scope, Some(&Type::Pos)).0;
                let Some((board, cell)) = board else { return };
                let want = Type::List(Box::new(Type::List(Box::new(cell))));
                let piece = b.expression(decls, piece, &join(&vpath, "piece"), &scope, Some(&want)).0;
                push(StmtKind::Place { board, at, piece });
            }
            "move" | "push" | "remove" | "draw" => {
                let Some(mm) = arg.as_mapping() else {
                    b.error(&vpath, format!("{verb} takes a mapping"));
                    return;
                };
                match verb {
                    "move" => {
                        b.check_keys(mm, &vpath, &["from", "to", "item", "count", "all"]);
                        let from = zone_arg(b, decls, &scope, mm, "from", &vpath);
                        let to = zone_arg(b, decls, &scope, mm, "to", &vpath);
                        let (Some((from, fe)), Some((to, te))) = (from, to) else { return };
                        if fe != te {
                            b.error(&vpath, "the two zones hold different kinds of things");
                        }
                        let what = if let Some(item) = mm.get("item") {
                            MoveWhat::Item(b.expression(decls, item, &join(&vpath, "item"), &scope, Some(&fe)).0)
                        } else if let Some(count) = mm.get("count") {
                            MoveWhat::Top(b.expression(decls, count, &join(&vpath, "count"), &scope, Some(&Type::Int)).0)
                        } else if mm.get("all").and_then(Yaml::as_bool) == Some(true) {
                            MoveWhat::All
                        } else {
                            MoveWhat::Top(Arc::new(|_| Ok(Value::Int(1))))
                        };
                        push(StmtKind::Move { from, to, what });
                    }
                    "push" => {
                        b.check_keys(mm, &vpath, &["to", "value"]);
                        let Some((to, te)) = zone_arg(b, decls, &scope, mm, "to", &vpath) else { return };
                        let Some(v) = mm.get("value") else {
                            b.error(&vpath, "push needs 'value'");
                            return;
                        };
                        let value = b.expression(decls, v, &join(&vpath, "value"), &scope, Some(&te)).0;
                        push(StmtKind::Push { to, value });
                    }
                    "remove" => {
                        b.check_keys(mm, &vpath, &["from", "item", "at"]);
                        let Some((from, fe)) = zone_arg(b, decls, &scope, mm, "from", &vpath) else { return };
                        let what = match (mm.get("item"), mm.get("at")) {
                            (Some(item), None) => RemoveWhat::Item(b.expression(decls, item, &join(&vpath, "item"), &scope, Some(&fe)).0),
                            (None, Some(at)) => RemoveWhat::At(b.expression(decls, at, &join(&vpath, "at"), &scope, Some(&Type::Int)).0),
                            _ => {
                                b.error(&vpath, "remove takes either 'item' or 'at' (a position, 0 = first)");
                                return;
                            }
                        };
                        push(StmtKind::Remove { from, what });
                    }
                    _ => {
                        // draw: repeat count { refill if empty; move the top card }
                        b.check_keys(mm, &vpath, &["from", "to", "count", "refill_from"]);
                        let from = zone_arg(b, decls, &scope, mm, "from", &vpath);
                        let to = zone_arg(b, decls, &scope, mm, "to", &vpath);
                        let (Some((from, fe)), Some((to, te))) = (from, to) else { return };
                        if fe != te {
                            b.error(&vpath, "the two zones hold different kinds of things");
                        }
                        let count = match mm.get("count") {
                            Some(c) => b.expression(decls, c, &join(&vpath, "count"), &scope, Some(&Type::Int)).0,
                            None => Arc::new(|_: &Env| Ok(Value::Int(1))) as Eval,
                        };
                        let refill = match mm.get("refill_from") {
                            Some(_) => zone_arg(b, decls, &scope, mm, "refill_from", &vpath).map(|(z, _)| z),
                            None => None,
                        };
                        let body = self.draw_body(from, to, refill, &origin, &rule);
                        push(StmtKind::Repeat { count, body });
                    }
                }
            }
            "shuffle" => {
                if let Some((zone, _)) = zone_expr(b, decls, &scope, arg, &vpath) {
                    push(StmtKind::Shuffle { zone });
                }
            }
            "if" => {
                let cond = b.expression(decls, arg, &vpath, &scope, Some(&Type::Bool)).0;
                let then = match m.get("then") {
                    Some(t) => self.block(b, decls, ctx, t, &join(path, "then")),
                    None => {
                        b.error(path, "if needs 'then:' (a list of statements)");
                        return;
                    }
                };
                let otherwise = m.get("else").map(|e| self.block(b, decls, ctx, e, &join(path, "else")));
                out.push(Stmt { kind: StmtKind::If { cond, then, otherwise }, rule, origin });
            }
            "for_each" => {
                let Some((var, list_yaml)) = single_binding(b, arg, &vpath) else { return };
                let (list, ty) = b.expression(decls, &list_yaml, &join(&vpath, &var), &scope, None);
                let elem = list_element(b, &ty, &join(&vpath, &var));
                let visible = ctx.visible.len();
                let slot = ctx.declare(&var, elem);
                let body = self.loop_body(b, decls, ctx, m, path);
                ctx.visible.truncate(visible);
                out.push(Stmt { kind: StmtKind::ForEach { slot, list, body }, rule, origin });
            }
            "repeat" => {
                let count = b.expression(decls, arg, &vpath, &scope, Some(&Type::Int)).0;
                let body = self.loop_body(b, decls, ctx, m, path);
                out.push(Stmt { kind: StmtKind::Repeat { count, body }, rule, origin });
            }
            "while" => {
                let cond = b.expression(decls, arg, &vpath, &scope, Some(&Type::Bool)).0;
                let body = self.loop_body(b, decls, ctx, m, path);
                out.push(Stmt { kind: StmtKind::While { cond, body }, rule, origin });
            }
            "random" => {
                let Some((var, list_yaml)) = single_binding(b, arg, &vpath) else { return };
                let (outcomes, ty) = b.expression(decls, &list_yaml, &join(&vpath, &var), &scope, None);
                let elem = list_element(b, &ty, &join(&vpath, &var));
                let weights = m.get("weights").map(|w| {
                    b.expression(decls, w, &join(path, "weights"), &scope, Some(&Type::List(Box::new(Type::Int)))).0
                });
                let slot = ctx.declare(&var, elem);
                out.push(Stmt { kind: StmtKind::Random { slot, outcomes, weights }, rule, origin });
            }
            "choose" => {
                if let Some(choose) = self.choose(b, decls, ctx, arg, &vpath) {
                    out.push(Stmt { kind: StmtKind::Choose(Box::new(choose)), rule, origin });
                }
            }
            "call" => {
                let (name, args_yaml) = match arg {
                    Yaml::String(s) => (s.clone(), None),
                    Yaml::Mapping(cm) if cm.len() == 1 => match cm.iter().next() {
                        Some((k, v)) => (k.as_str().unwrap_or_default().to_string(), Some(v)),
                        None => return,
                    },
                    _ => {
                        b.error(&vpath, "call takes a procedure name, or {name: {param: value, …}}");
                        return;
                    }
                };
                let Some(proc) = self.signatures.iter().position(|s| s.name == name) else {
                    let names: Vec<String> = self.signatures.iter().map(|s| s.name.clone()).collect();
                    let hint = did_you_mean(&name, &names);
                    b.error(&vpath, format!("unknown procedure '{name}'{hint}"));
                    return;
                };
                let params = self.signatures[proc].params.clone();
                let given = args_yaml.and_then(Yaml::as_mapping).cloned().unwrap_or_default();
                if args_yaml.is_some_and(|a| !a.is_mapping() && !a.is_null()) {
                    b.error(&vpath, "the arguments of a call are a mapping {param: value, …}");
                }
                let apath = join(&vpath, &name);
                for k in given.keys().filter_map(Yaml::as_str) {
                    if !params.iter().any(|(p, _)| p == k) {
                        b.error(&join(&apath, k), format!("procedure '{name}' has no parameter '{k}'"));
                    }
                }
                let mut args = Vec::new();
                for (p, ty) in &params {
                    match given.get(p.as_str()) {
                        Some(v) => args.push(b.expression(decls, v, &join(&apath, p), &scope, Some(ty)).0),
                        None => {
                            b.error(&vpath, format!("call to '{name}' lacks its parameter '{p}'"));
                            args.push(Arc::new(|_: &Env| Ok(Value::None)) as Eval);
                        }
                    }
                }
                push(StmtKind::Call { proc: proc as ProcId, args });
            }
            "log" => {
                let t = b.template(decls, arg, &vpath, &scope);
                push(StmtKind::Log(t));
            }
            _ => {
                // end_game (optionally with a log line)
                if !arg.is_null() {
                    let t = b.template(decls, arg, &vpath, &scope);
                    push(StmtKind::Log(t));
                }
                push(StmtKind::EndGame);
            }
        }
    }

    fn loop_body(&mut self, b: &mut Builder, decls: &Decls, ctx: &mut ProcCtx, m: &Mapping, path: &str) -> BlockId {
        match m.get("do") {
            Some(body) => self.block(b, decls, ctx, body, &join(path, "do")),
            None => {
                b.error(path, "a loop needs 'do:' (a list of statements)");
                self.block(b, decls, ctx, &Yaml::Null, path)
            }
        }
    }

    /// `draw` is `repeat count { if from is empty: move all refill → from, shuffle from;
    /// if from is not empty: move its top to `to` }`.
    fn draw_body(&mut self, from: ZoneRef, to: ZoneRef, refill: Option<ZoneRef>, origin: &Arc<str>, rule: &RuleRef) -> BlockId {
        let stmt = |kind| Stmt { kind, rule: rule.clone(), origin: origin.clone() };
        let is_empty = |zone: ZoneRef, empty: bool| -> Eval {
            Arc::new(move |env: &Env| {
                let i = env.game.zone_instance(&zone, env)?;
                Ok(Value::Bool(env.state.zones[i].is_empty() == empty))
            })
        };
        let mut body = Vec::new();
        if let Some(refill) = refill {
            let refill_block = self.push_block(vec![
                stmt(StmtKind::Move { from: refill, to: from.clone(), what: MoveWhat::All }),
                stmt(StmtKind::Shuffle { zone: from.clone() }),
            ]);
            body.push(stmt(StmtKind::If { cond: is_empty(from.clone(), true), then: refill_block, otherwise: None }));
        }
        let one: Eval = Arc::new(|_: &Env| Ok(Value::Int(1)));
        let move_block = self.push_block(vec![stmt(StmtKind::Move { from: from.clone(), to, what: MoveWhat::Top(one) })]);
        body.push(stmt(StmtKind::If { cond: is_empty(from, false), then: move_block, otherwise: None }));
        self.push_block(body)
    }

    fn push_block(&mut self, stmts: Vec<Stmt>) -> BlockId {
        self.blocks.push(stmts);
        (self.blocks.len() - 1) as BlockId
    }

    fn choose(&mut self, b: &mut Builder, decls: &Decls, ctx: &mut ProcCtx, arg: &Yaml, path: &str) -> Option<Choose> {
        let Some(m) = arg.as_mapping() else {
            b.error(path, "choose takes a mapping: {who: …, prompt: …, options: [...]}");
            return None;
        };
        b.check_keys(m, path, &["who", "prompt", "options"]);
        let scope_locals = ctx.visible.clone();
        let scope = crate::load::Scope { locals: &scope_locals, it: None };
        let who = match m.get("who") {
            Some(w) => b.expression(decls, w, &join(path, "who"), &scope, Some(&Type::Player)).0,
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
            b.error(path, "choose needs 'options': a list of {label: …, do: [...]}");
            return None;
        };
        let mut groups = Vec::new();
        for (i, opt) in options.iter().enumerate() {
            let opath = format!("{path}.options[{i}]");
            let Some(om) = opt.as_mapping() else {
                b.error(&opath, "an option is a mapping: {label: …, for: {x: list}, if: …, do: [...]}");
                continue;
            };
            b.check_keys(om, &opath, &["label", "for", "if", "do", "rule", "doc"]);
            let visible = ctx.visible.len();
            let binding = match om.get("for") {
                Some(f) => {
                    let fpath = join(&opath, "for");
                    let Some((var, list_yaml)) = single_binding(b, f, &fpath) else { continue };
                    let (list, ty) = b.expression(decls, &list_yaml, &join(&fpath, &var), &scope, None);
                    let elem = list_element(b, &ty, &join(&fpath, &var));
                    Some((ctx.declare(&var, elem), list))
                }
                None => None,
            };
            let inner_locals = ctx.visible.clone();
            let inner = crate::load::Scope { locals: &inner_locals, it: None };
            let label = match om.get("label") {
                Some(l) => b.template(decls, l, &join(&opath, "label"), &inner),
                None => {
                    b.error(&opath, "an option needs a 'label' (what traces and players see)");
                    Template::literal("?")
                }
            };
            let condition = om.get("if").map(|c| b.expression(decls, c, &join(&opath, "if"), &inner, Some(&Type::Bool)).0);
            let body = match om.get("do") {
                Some(d) => self.block(b, decls, ctx, d, &join(&opath, "do")),
                None => self.block(b, decls, ctx, &Yaml::Null, &opath),
            };
            ctx.visible.truncate(visible);
            let rule = b.rule(om, &opath);
            groups.push(OptionGroup { label, binding, condition, body, rule });
        }
        Some(Choose { who, prompt, groups })
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `{x: list}`: one name bound to each element of a list.
fn single_binding(b: &mut Builder, arg: &Yaml, path: &str) -> Option<(String, Yaml)> {
    match arg.as_mapping() {
        Some(m) if m.len() == 1 => {
            let (k, v) = m.iter().next()?;
            let name = k.as_str()?.to_string();
            if !is_identifier(&name) {
                b.error(path, format!("'{name}' is not a valid local name"));
                return None;
            }
            Some((name, v.clone()))
        }
        _ => {
            b.error(path, "expected one binding: {name: \"list expression\"}");
            None
        }
    }
}

fn list_element(b: &mut Builder, ty: &Type, path: &str) -> Type {
    match ty {
        Type::List(e) => (**e).clone(),
        Type::Any => Type::Any,
        _ => {
            b.error(path, "expected a list");
            Type::Any
        }
    }
}

/// An assignable place: a local, a global variable, `var[index]` or `player.var`.
fn place(b: &mut Builder, decls: &Decls, scope: &crate::load::Scope, target: &str, path: &str) -> Option<(Place, Type)> {
    let (ast, source) = b.parse_expression(&Yaml::String(target.to_string()), path)?;
    let fail = |b: &mut Builder, msg: String| {
        b.expr_error(path, &source, ast.span, msg);
        None
    };
    let name_of = |e: &Expr| match &e.kind {
        ExprKind::Name(n) => Some(n.text.clone()),
        _ => None,
    };
    match &ast.kind {
        ExprKind::Name(n) => {
            if let Some((_, ty, slot)) = scope.locals.iter().rev().find(|(l, _, _)| *l == n.text) {
                return Some((Place::Local(*slot), ty.clone()));
            }
            match decls.vars.iter().position(|v| v.name == n.text) {
                Some(i) if decls.vars[i].per == Domain::Global => Some((Place::Var { var: i as VarId, index: None }, decls.vars[i].ty.clone())),
                Some(_) => fail(b, format!("'{}' has one value per index: write {}[…]", n.text, n.text)),
                None => {
                    let mut names: Vec<String> = decls.vars.iter().map(|v| v.name.clone()).collect();
                    names.extend(scope.locals.iter().map(|(l, _, _)| l.clone()));
                    let hint = did_you_mean(&n.text, &names);
                    fail(b, format!("unknown variable '{}'{hint}", n.text))
                }
            }
        }
        ExprKind::Index(..) | ExprKind::Field(..) => {
            let (var_name, index_expr) = match &ast.kind {
                ExprKind::Index(base, index) => match name_of(base) {
                    Some(n) => (n, (**index).clone()),
                    None => return fail(b, "cannot assign to this: expected a variable, var[index], player.var or a local".into()),
                },
                ExprKind::Field(base, field) => (field.text.clone(), (**base).clone()),
                _ => return None,
            };
            let Some(i) = decls.vars.iter().position(|v| v.name == var_name) else {
                let names: Vec<String> = decls.vars.iter().map(|v| v.name.clone()).collect();
                let hint = did_you_mean(&var_name, &names);
                return fail(b, format!("unknown variable '{var_name}'{hint}"));
            };
            let var = &decls.vars[i];
            let Some(want) = var.per.index_type() else {
                return fail(b, format!("'{var_name}' has a single value: it cannot be indexed"));
            };
            let index = b.compile_ast(decls, &index_expr, &source, path, scope, &want);
            Some((Place::Var { var: i as VarId, index: Some(index) }, var.ty.clone()))
        }
        _ => fail(b, "cannot assign to this: expected a variable, var[index], player.var or a local".into()),
    }
}

fn zone_arg(b: &mut Builder, decls: &Decls, scope: &crate::load::Scope, m: &Mapping, key: &str, path: &str) -> Option<(ZoneRef, Type)> {
    match m.get(key) {
        Some(v) => zone_expr(b, decls, scope, v, &join(path, key)),
        None => {
            b.error(path, format!("missing '{key}' (a zone)"));
            None
        }
    }
}

/// A zone instance named in a statement: `deck` or `hand[p]`.
fn zone_expr(b: &mut Builder, decls: &Decls, scope: &crate::load::Scope, v: &Yaml, path: &str) -> Option<(ZoneRef, Type)> {
    let (ast, source) = b.parse_expression(v, path)?;
    let (name, index) = match super::expr::name_and_index(&ast) {
        Some((n, index)) => (n.text.as_str(), index),
        None => ("", None),
    };
    let Some(z) = decls.zones.iter().position(|z| z.name == name) else {
        let names: Vec<String> = decls.zones.iter().map(|z| z.name.clone()).collect();
        let hint = did_you_mean(name, &names);
        b.expr_error(path, &source, ast.span, format!("expected a zone{hint}"));
        return None;
    };
    let zone = &decls.zones[z];
    let mut compiler = super::Compiler::new(decls);
    let index = compiler.instance_index(ast.span, "zone", name, zone.per, index, scope);
    for e in compiler.errors {
        b.expr_error(path, &source, e.span, e.message);
    }
    Some((ZoneRef { zone: z as ZoneId, index: index? }, zone.of.value_type()))
}
