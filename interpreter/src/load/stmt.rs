//! Compiles procedures and their statements into blocks.

use std::sync::Arc;

use frontier_grammar::expr::{Expr, ExprKind};
use serde_yaml::{Mapping, Value as Yaml};

use super::expr::{Declared, Named};
use super::{join, Builder, Decls, ProcCtx, MAX_IDS};
use crate::eval::Template;
use crate::hints::{closest, did_you_mean};
use crate::ir::{CmpOp, Expr as Ir};
use crate::model::*;
use crate::value::{Type, Value};

/// A statement of the procedure language: its verb, the keys it takes beside the verb
/// (and `rule`, `doc`), and how it compiles. Adding a statement is one entry here and
/// its compile function.
struct Statement {
    verb: &'static str,
    keys: &'static [&'static str],
    compile: fn(&mut Procedures, &mut Builder, &Decls, &mut ProcCtx, &Site, &mut Vec<Stmt>),
}

/// A statement being compiled: its mapping, the verb's argument and where it stands.
struct Site<'y> {
    verb: &'static str,
    m: &'y Mapping,
    arg: &'y Yaml,
    path: &'y str,
    vpath: String,
    rule: RuleRef,
    origin: Arc<str>,
}

const STATEMENTS: &[Statement] = &[
    Statement {
        verb: "set",
        keys: &[],
        compile: Procedures::assign,
    },
    Statement {
        verb: "add",
        keys: &[],
        compile: Procedures::assign,
    },
    Statement {
        verb: "let",
        keys: &[],
        compile: Procedures::assign,
    },
    Statement {
        verb: "move",
        keys: &[],
        compile: Procedures::move_,
    },
    Statement {
        verb: "push",
        keys: &[],
        compile: Procedures::push_,
    },
    Statement {
        verb: "remove",
        keys: &[],
        compile: Procedures::remove,
    },
    Statement {
        verb: "shuffle",
        keys: &[],
        compile: Procedures::shuffle,
    },
    Statement {
        verb: "clear",
        keys: &[],
        compile: Procedures::clear,
    },
    Statement {
        verb: "reveal",
        keys: &[],
        compile: Procedures::reveal,
    },
    Statement {
        verb: "place",
        keys: &[],
        compile: Procedures::place,
    },
    Statement {
        verb: "draw",
        keys: &[],
        compile: Procedures::draw,
    },
    Statement {
        verb: "if",
        keys: &["then", "else"],
        compile: Procedures::if_,
    },
    Statement {
        verb: "for_each",
        keys: &["do"],
        compile: Procedures::for_each,
    },
    Statement {
        verb: "repeat",
        keys: &["do"],
        compile: Procedures::repeat,
    },
    Statement {
        verb: "while",
        keys: &["do"],
        compile: Procedures::while_,
    },
    Statement {
        verb: "choose",
        keys: &[],
        compile: Procedures::choose_stmt,
    },
    Statement {
        verb: "random",
        keys: &["weights"],
        compile: Procedures::random,
    },
    Statement {
        verb: "call",
        keys: &["into"],
        compile: Procedures::call,
    },
    Statement {
        verb: "return",
        keys: &[],
        compile: Procedures::return_,
    },
    Statement {
        verb: "log",
        keys: &[],
        compile: Procedures::log,
    },
    Statement {
        verb: "award",
        keys: &[],
        compile: Procedures::award,
    },
    Statement {
        verb: "match",
        keys: &["cases", "else"],
        compile: Procedures::match_,
    },
    Statement {
        verb: "end_game",
        keys: &[],
        compile: Procedures::end_game,
    },
];

impl Site<'_> {
    /// A compiled statement standing where this one does.
    fn stmt(&self, kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            rule: self.rule.clone(),
            origin: self.origin.clone(),
        }
    }
}

fn statement_named(verb: &str) -> Option<&'static Statement> {
    STATEMENTS.iter().find(|s| s.verb == verb)
}

fn verbs_list() -> impl Iterator<Item = &'static str> {
    STATEMENTS.iter().map(|s| s.verb)
}

fn verbs_joined() -> String {
    verbs_list().collect::<Vec<_>>().join(", ")
}

struct Signature {
    name: String,
    params: Vec<(String, Type)>,
    /// The type of the value the procedure gives back with `return:`, if it gives one.
    returns: Option<Type>,
    path: String,
}

impl Declared for Signature {
    fn name(&self) -> &str {
        &self.name
    }
}

pub(crate) struct Procedures {
    signatures: Named<Signature>,
    blocks: Vec<Block>,
    /// While the statements of a `repeat: { up_to }` round compile (its `do:`, and the
    /// branches of `if`s there): the `done` option its decisions get.
    round: Option<RoundDone>,
}

/// The `done` option of a `repeat: { up_to }` loop, added last to each decision of a round.
struct RoundDone {
    label: Template,
    condition: Option<Ir>,
    /// A block of one statement: end the loop.
    body: BlockId,
    rule: RuleRef,
    /// How many decisions received it.
    used: usize,
}

impl RoundDone {
    fn option(&self) -> OptionGroup {
        OptionGroup {
            label: clone_template(&self.label),
            bindings: Vec::new(),
            condition: self.condition.clone(),
            by_row: None,
            body: self.body,
            rule: self.rule.clone(),
        }
    }
}

fn clone_template(t: &Template) -> Template {
    use crate::eval::TemplatePart;
    let parts = t
        .parts
        .iter()
        .map(|p| match p {
            TemplatePart::Text(s) => TemplatePart::Text(s.clone()),
            TemplatePart::Hole(e) => TemplatePart::Hole(e.clone()),
        })
        .collect();
    Template {
        parts,
        source: t.source.clone(),
    }
}

impl Procedures {
    pub fn new() -> Procedures {
        Procedures {
            signatures: Named::default(),
            blocks: Vec::new(),
            round: None,
        }
    }

    /// Declares `setup`, `play` and every named procedure, so calls may name any of them.
    pub fn declare(&mut self, b: &mut Builder, decls: &Decls, top: &Mapping) {
        for name in ["setup", "play"] {
            self.signatures.push(Signature {
                name: name.into(),
                params: Vec::new(),
                returns: None,
                path: name.into(),
            });
        }
        if !top.contains_key("play") {
            b.error(
                "play",
                "missing 'play': the statements that run the game after setup",
            );
        }
        let Some(procs) = top.get("procedures") else {
            return;
        };
        let Some(map) = procs.as_mapping() else {
            b.error(
                "procedures",
                "expected a mapping of procedure names to procedures",
            );
            return;
        };
        for (key, v) in map {
            let Some(name) = key.as_str() else { continue };
            let path = format!("procedures.{name}");
            if self.signatures.position(name).is_some() {
                b.error(
                    &path,
                    format!(
                        "procedure '{name}' is declared twice (setup and play are procedures too)"
                    ),
                );
                continue;
            }
            let mut params = Vec::new();
            let mut returns = None;
            if let Some(m) = v.as_mapping() {
                b.check_keys(m, &path, &crate::format::key_lists().procedure);
                returns = match m.get("returns") {
                    None => None,
                    Some(Yaml::String(t)) => {
                        Some(b.value_type_named(t, &decls.tables, &join(&path, "returns")))
                    }
                    Some(_) => {
                        b.error(&join(&path, "returns"), "the type of the value the procedure returns: int, bool, player or a table name");
                        None
                    }
                };
                params = b.typed_params(m.get("params"), &decls.tables, &path);
            }
            self.signatures.push(Signature {
                name: name.to_string(),
                params,
                returns,
                path,
            });
        }
    }

    pub fn compile(
        mut self,
        b: &mut Builder,
        decls: &Decls,
        top: &Mapping,
    ) -> (Vec<Procedure>, Vec<Block>, ProcId, ProcId) {
        let mut procedures = Vec::new();
        let empty = Yaml::Sequence(Vec::new());
        for i in 0..self.signatures.len() {
            let sig = &self.signatures[i];
            let (name, path) = (sig.name.clone(), sig.path.clone());
            let params = sig.params.clone();
            let node = match name.as_str() {
                "setup" | "play" => top.get(name.as_str()).unwrap_or(&empty),
                _ => top
                    .get("procedures")
                    .and_then(|p| p.get(name.as_str()))
                    .unwrap_or(&empty),
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
            ctx.returns = sig.returns.clone();
            let slots: Vec<Slot> = params
                .iter()
                .map(|(n, t)| ctx.declare(n, t.clone()))
                .collect();
            let body = self.block(b, decls, &mut ctx, body_yaml, &body_path);
            if ctx.slots.len() > MAX_IDS {
                let message = format!(
                    "a procedure has at most {} parameters and locals, not {}",
                    MAX_IDS,
                    ctx.slots.len()
                );
                b.error(&path, message);
            }
            let returns = self.signatures[i].returns.clone();
            procedures.push(Procedure {
                name,
                returns,
                params: slots,
                param_names: params.into_iter().map(|(n, _)| n).collect(),
                body,
                locals: ctx.slots.len(),
                doc,
                rule,
            });
        }
        (procedures, self.blocks, ProcId(0), ProcId(1))
    }

    fn block(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        yaml: &Yaml,
        path: &str,
    ) -> BlockId {
        let id = BlockId::at(self.blocks.len());
        self.blocks.push(Vec::new());
        let visible = ctx.visible.len();
        let mut stmts = Vec::new();
        match yaml {
            Yaml::Sequence(items) => {
                for (i, item) in items.iter().enumerate() {
                    if b.full() {
                        break;
                    }
                    self.statement(b, decls, ctx, item, &format!("{path}[{i}]"), &mut stmts);
                }
            }
            Yaml::Null => {}
            _ => b.error(path, "expected a list of statements"),
        }
        ctx.visible.truncate(visible);
        self.blocks[id.index()] = stmts;
        id
    }

    fn statement(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        yaml: &Yaml,
        path: &str,
        out: &mut Vec<Stmt>,
    ) {
        let origin: Arc<str> = Arc::from(path);
        if yaml.as_str() == Some("end_game") {
            out.push(Stmt {
                kind: StmtKind::EndGame,
                rule: None,
                origin,
            });
            return;
        }
        let Some(m) = yaml.as_mapping() else {
            b.error(
                path,
                format!("a statement is a mapping with one of: {}", verbs_joined()),
            );
            return;
        };
        let verbs: Vec<&Statement> = m
            .keys()
            .filter_map(Yaml::as_str)
            .filter_map(statement_named)
            .collect();
        let statement = match verbs.as_slice() {
            [v] => *v,
            [] => {
                let keys: Vec<String> = m
                    .keys()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect();
                let verbs_owned: Vec<String> = verbs_list().map(str::to_string).collect();
                let hint = keys
                    .iter()
                    .find_map(|k| closest(k, &verbs_owned))
                    .map(|c| format!(" (did you mean '{c}'?)"))
                    .unwrap_or_default();
                b.error(
                    path,
                    format!(
                        "no statement verb among keys {keys:?}{hint}; expected one of: {}",
                        verbs_joined()
                    ),
                );
                return;
            }
            many => {
                let names: Vec<&str> = many.iter().map(|s| s.verb).collect();
                b.error(
                    path,
                    format!("one verb per statement, found {}", names.join(" and ")),
                );
                return;
            }
        };
        let verb = statement.verb;
        let mut allowed = vec![verb];
        allowed.extend_from_slice(statement.keys);
        allowed.extend(["rule", "doc"]);
        b.check_keys(m, path, &allowed);
        let site = Site {
            verb,
            m,
            arg: &m[verb],
            path,
            vpath: join(path, verb),
            rule: b.rule(m, path),
            origin,
        };
        // The decisions of a `repeat: { up_to }` round are the `choose`s of its `do:` and
        // of the branches of `if`s there; any other statement's blocks have none.
        let round_level = matches!(verb, "if" | "choose");
        let outer_round = if round_level { None } else { self.round.take() };
        (statement.compile)(self, b, decls, ctx, &site, out);
        if !round_level {
            self.round = outer_round;
        }
    }

    fn assign(
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
            let Some(target) = k.as_str() else { continue };
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

    fn place(
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
        let board = super::board::board_ref(b, decls, &scope, on, &join(vpath, "on"));
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

    fn shuffle(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        site: &Site,
        out: &mut Vec<Stmt>,
    ) {
        on_zone(b, decls, ctx, site, out, |zone| StmtKind::Shuffle { zone });
    }

    fn clear(
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
    fn reveal(
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
            let found = super::expr::type_name(decls, &ty);
            b.error(
                &tpath,
                format!("reveal shows an element to a player or a list of players, not to {found}"),
            );
            return;
        }
        out.push(site.stmt(StmtKind::Reveal { zone, what, to }));
    }

    fn if_(
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

    fn for_each(
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

    fn repeat(
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

    fn while_(
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

    fn random(
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

    fn choose_stmt(
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

    fn call(
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
            let names: Vec<String> = self.signatures.iter().map(|s| s.name.clone()).collect();
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
    fn return_(
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

    fn log(
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

    fn end_game(
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

    fn move_(
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

    fn push_(
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

    fn remove(
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

    fn draw(
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

    /// `match: value` with `cases:` (a row id or a literal each, and its statements) and an
    /// optional `else:`. Compiled as the value kept in a hidden local and a chain of `if`s.
    fn match_(
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

    /// `award: { among, by, prizes, ties, only, to }`.
    fn award(
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

    fn loop_body(
        &mut self,
        b: &mut Builder,
        decls: &Decls,
        ctx: &mut ProcCtx,
        m: &Mapping,
        path: &str,
    ) -> BlockId {
        match m.get("do") {
            Some(body) => self.block(b, decls, ctx, body, &join(path, "do")),
            None => {
                b.error(path, "a loop needs 'do:' (a list of statements)");
                self.block(b, decls, ctx, &Yaml::Null, path)
            }
        }
    }

    fn push_block(&mut self, stmts: Vec<Stmt>) -> BlockId {
        self.blocks.push(stmts);
        BlockId::at(self.blocks.len() - 1)
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
            let Some(om) = opt.as_mapping() else {
                b.error(
                    &opath,
                    "an option is a mapping: {label: …, for: {x: list}, if: …, do: [...]}",
                );
                continue;
            };
            b.check_keys(om, &opath, &["label", "for", "if", "do", "rule", "doc"]);
            let visible = ctx.visible.len();
            let mut bindings = Vec::new();
            if let Some(f) = om.get("for") {
                let fpath = join(&opath, "for");
                let Some(names) = option_bindings(b, f, &fpath) else {
                    continue;
                };
                // Each list may read the names before it (the lists are nested loops).
                for (var, list_yaml) in names {
                    let so_far = ctx.visible.clone();
                    let scope = crate::load::Scope {
                        locals: &so_far,
                        it: None,
                    };
                    let (list, ty) =
                        b.expression(decls, &list_yaml, &join(&fpath, &var), &scope, None);
                    let elem = list_element(b, &ty, &join(&fpath, &var));
                    bindings.push((ctx.declare(&var, elem), list));
                }
            }
            let inner_locals = ctx.visible.clone();
            let inner = crate::load::Scope {
                locals: &inner_locals,
                it: None,
            };
            let label = match om.get("label") {
                Some(l) => b.template(decls, l, &join(&opath, "label"), &inner),
                None => {
                    b.error(
                        &opath,
                        "an option needs a 'label' (what traces and players see)",
                    );
                    Template::literal("?")
                }
            };
            let condition = om.get("if").map(|c| {
                b.expression(decls, c, &join(&opath, "if"), &inner, Some(&Type::Bool))
                    .0
            });
            let body = match om.get("do") {
                Some(d) => self.block(b, decls, ctx, d, &join(&opath, "do")),
                None => self.block(b, decls, ctx, &Yaml::Null, &opath),
            };
            ctx.visible.truncate(visible);
            let rule = b.rule(om, &opath);
            groups.push(OptionGroup {
                label,
                bindings,
                condition,
                by_row: None,
                body,
                rule,
            });
        }
        Some(Choose {
            who,
            prompt,
            groups,
        })
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

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The verb's argument as a mapping (`move: { from: …, to: … }`), or an error saying so.
fn mapping_arg<'y>(b: &mut Builder, site: &Site<'y>) -> Option<&'y Mapping> {
    let m = site.arg.as_mapping();
    if m.is_none() {
        b.error(&site.vpath, format!("{} takes a mapping", site.verb));
    }
    m
}

/// `{x: list}` compiled: the name, the list and the type of its elements.
fn bound_list(
    b: &mut Builder,
    decls: &Decls,
    scope: &crate::load::Scope,
    arg: &Yaml,
    vpath: &str,
) -> Option<(String, Ir, Type)> {
    let (var, list_yaml) = single_binding(b, arg, vpath)?;
    let (list, ty) = b.expression(decls, &list_yaml, &join(vpath, &var), scope, None);
    let elem = list_element(b, &ty, &join(vpath, &var));
    Some((var, list, elem))
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

/// An option's `for:`: `{x: list}`, or `{a: list1, b: list2, …}` for one option per
/// combination of elements (list1 outermost).
fn option_bindings(b: &mut Builder, arg: &Yaml, path: &str) -> Option<Vec<(String, Yaml)>> {
    let shape = "expected bindings {name: \"list expression\", …}: one option per element, or per combination of elements of several lists";
    let Some(m) = arg.as_mapping().filter(|m| !m.is_empty()) else {
        b.error(path, shape);
        return None;
    };
    let mut names = Vec::new();
    for (k, v) in m {
        let Some(name) = k.as_str() else {
            b.error(path, shape);
            return None;
        };
        if !is_identifier(name) {
            b.error(path, format!("'{name}' is not a valid local name"));
            return None;
        }
        names.push((name.to_string(), v.clone()));
    }
    Some(names)
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
                return Some((Place::Local(Slot(*slot)), ty.clone()));
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
                        super::expr::blanks(decls.vars[i].per)
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
                ExprKind::Index(..) => match super::expr::name_and_indexes(&ast) {
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
    let (name, indexes) = match super::expr::name_and_indexes(&ast) {
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
    let mut compiler = super::Compiler::with_source(decls, &source);
    let index = compiler.instance_index(ast.span, "zone", name, zone.per, &indexes, scope);
    for e in compiler.errors {
        b.expr_error(path, &source, e.span, e.message);
    }
    Some((zone.read(index?), zone.of.value_type()))
}
