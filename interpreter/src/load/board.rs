//! Boards: their declarations and the board a statement or a built-in names. The
//! built-ins that read boards are in `builtins/board.rs`.

use std::sync::Arc;

use frontier_grammar::expr::Expr;
use serde_yaml::Value as Yaml;

use super::expr::{name_and_indexes, BoardDecl, Compiler, Scope};
use super::{join, Builder, Decls};
use crate::hints::did_you_mean;
use crate::id::BoardSlot;
use crate::ir::BoardRead;
use crate::model::Board;
use crate::value::Type;

impl Builder {
    pub(super) fn boards(
        &mut self,
        value: Option<&Yaml>,
        decls: &mut Decls,
        max_players: usize,
    ) -> (Vec<Board>, usize) {
        let mut out = Vec::new();
        let mut slots = 0;
        let mut displays = Vec::new();
        let shape = "a board is a mapping: {of: …, per: …, cell_text: …, cell_colour: …}";
        for (name, path, m) in self.declarations(value, "boards", shape) {
            if self.full() {
                break;
            }
            let (name, m) = (name.as_str(), &m);
            self.check_keys(m, &path, &crate::format::key_lists().board);
            let of = self.element(m, decls, &path, "board");
            let mut per = self.domain(m, decls, &path);
            if let crate::model::Domain::Pair(..) = per {
                self.error(&join(&path, "per"), "a board is single, per players or per a table: two keys are for state variables and zones");
                per = crate::model::Domain::Global;
            }
            let base = slots;
            let len = Self::domain_len(decls, per, max_players);
            slots += len;
            decls.boards.push(BoardDecl {
                name: name.to_string(),
                of,
                per,
                base,
                len,
            });
            let doc = self.string(m, "doc", &path);
            let rule = self.rule(m, &path);
            displays.push((
                m.get("cell_text").cloned(),
                m.get("cell_colour").cloned(),
                path,
            ));
            out.push(Board {
                name: name.to_string(),
                of,
                per,
                base,
                cell_text: None,
                cell_colour: None,
                doc,
                rule,
            });
        }
        // Display expressions may read any declaration, so they compile once all are known.
        for (board, (text, colour, path)) in out.iter_mut().zip(displays) {
            let scope = Scope {
                locals: &[],
                it: Some(board.of.value_type()),
            };
            if let Some(text) = text {
                board.cell_text =
                    Some(self.template(decls, &text, &join(&path, "cell_text"), &scope));
            }
            if let Some(colour) = colour {
                board.cell_colour = Some(
                    self.expression(
                        decls,
                        &colour,
                        &join(&path, "cell_colour"),
                        &scope,
                        Some(&Type::Str),
                    )
                    .0,
                );
            }
        }
        (out, slots)
    }
}

/// The board instance a statement names: `town` or `town[p]`, with its element type.
pub(super) fn board_ref(
    b: &mut Builder,
    decls: &Decls,
    scope: &Scope,
    v: &Yaml,
    path: &str,
) -> Option<(BoardRead, Type)> {
    let (ast, source) = b.parse_expression(v, path)?;
    let mut compiler = Compiler::with_source(decls, &source);
    let found = compiler.board_read(&ast, scope);
    for e in compiler.errors {
        b.expr_error(path, &source, e.span, e.message);
    }
    let read = found?;
    let of = read.of.value_type();
    Some((read, of))
}

impl Compiler<'_> {
    /// `name` or `name[index]` where name is a board: the board instance to read.
    /// Reports and returns nothing otherwise.
    pub(crate) fn board_read(&mut self, arg: &Expr, scope: &Scope) -> Option<BoardRead> {
        let Some((name, indexes)) = name_and_indexes(arg) else {
            self.report(arg.span, "expected a board: its name, or name[index]");
            return None;
        };
        let Some(b) = self.decls.boards.position(&name.text) else {
            let names: Vec<String> = self.decls.boards.iter().map(|d| d.name.clone()).collect();
            let hint = did_you_mean(&name.text, &names);
            self.report(name.span, format!("unknown board '{}'{hint}", name.text));
            return None;
        };
        let decl: &BoardDecl = &self.decls.boards[b];
        let (per, of, base, len) = (decl.per, decl.of, BoardSlot::at(decl.base), decl.len as u32);
        let index = self.instance_index(arg.span, "board", &name.text, per, &indexes, scope)?;
        Some(BoardRead {
            base,
            len,
            index,
            of,
            name: Arc::from(name.text.as_str()),
        })
    }
}
