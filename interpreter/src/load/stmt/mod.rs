//! Compiles procedures and their statements into blocks.
//!
//! This file holds the statement table (`STATEMENTS`: verb, keys, compile function),
//! declares the procedures and compiles their bodies; the statements compile beside it:
//! `assign.rs` (set, add, let, award), `zones.rs` (statements on zones and boards),
//! `flow.rs` (if, loops, match, log, end_game), `calls.rs` (call, return), `choose.rs`
//! (choose, random); `bindings.rs` reads the names statements bind.

mod assign;
mod bindings;
mod calls;
mod choose;
mod flow;
mod zones;

use std::sync::Arc;

use serde_yaml::{Mapping, Value as Yaml};

use super::expr::{Declared, Named};
use super::{join, Builder, Decls, ProcCtx, MAX_IDS};
use crate::eval::Template;
use crate::hints::closest;
use crate::ir::Expr as Ir;
use crate::model::*;
use crate::value::Type;

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

/// The statement verbs in the table's order, each with the keys it takes beside it (for
/// editors: completion of statement keys).
pub fn verbs() -> impl Iterator<Item = (&'static str, &'static [&'static str])> {
    STATEMENTS.iter().map(|s| (s.verb, s.keys))
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
            element_types: Vec::new(),
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
                    // A named procedure's keys were checked where it was declared.
                    if matches!(name.as_str(), "setup" | "play") {
                        b.check_keys(m, &path, &crate::format::key_lists().body);
                    }
                    let doc = b.string(m, "doc", &path);
                    let rule = b.rule(m, &path);
                    let body = match m.get("do") {
                        None | Some(Yaml::Null) => {
                            b.error(&path, format!("'{name}' has no statements: write them under 'do:' (an empty list, do: [], for none)"));
                            &empty
                        }
                        Some(body) => body,
                    };
                    (body, join(&path, "do"), doc, rule)
                }
                Yaml::Null => {
                    b.error(&path, format!("'{name}' has no statements: write a list of them (an empty list, [], for none)"));
                    (&empty, path.clone(), None, None)
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
        (procedures, self.blocks, ProcId::at(0), ProcId::at(1))
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

    /// A loop's `do:` block (reported, and empty, when it has none).
    pub(super) fn loop_body(
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

    /// A block of statements compiled already (a `match`'s chain of `if`s, a round's
    /// `done`).
    pub(super) fn push_block(&mut self, stmts: Vec<Stmt>) -> BlockId {
        self.blocks.push(stmts);
        BlockId::at(self.blocks.len() - 1)
    }
}
