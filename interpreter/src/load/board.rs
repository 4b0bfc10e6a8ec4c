//! Boards: their declarations, the `place` statement's board argument, and the built-ins
//! that read boards and positions (`cells`, `at`, `groups`, `holes`, `placements`, `pos`,
//! `neighbours`, `rotate`).

use std::sync::Arc;

use frontier_grammar::expr::Expr;
use frontier_grammar::Span;
use serde_yaml::Value as Yaml;

use super::expr::{name_and_index, BoardDecl, Compiler, Scope};
use super::{did_you_mean, join, Builder, Decls};
use crate::eval::{Env, Eval, RuntimeError};
use crate::grid::{self, Pos};
use crate::machine::{as_bool, as_int, as_list, as_pos, decode_element};
use crate::model::{Board, BoardId, BoardRef, Element};
use crate::value::{Type, Value};

pub(crate) const BOARD_BUILTINS: &[&str] =
    &["cells", "at", "groups", "holes", "placements", "pos", "neighbours", "rotate"];

/// Reads the board instance an argument names, at run time.
type InstanceEval = Arc<dyn Fn(&Env) -> Result<usize, RuntimeError> + Send + Sync>;

impl Builder {
    pub(super) fn boards(&mut self, value: Option<&Yaml>, decls: &mut Decls, max_players: usize) -> (Vec<Board>, usize) {
        let mut out = Vec::new();
        let mut slots = 0;
        let mut displays = Vec::new();
        let shape = "a board is a mapping: {of: …, per: …, cell_text: …, cell_colour: …}";
        for (name, path, m) in self.declarations(value, "boards", shape) {
            let (name, m) = (name.as_str(), &m);
            self.check_keys(m, &path, &["of", "per", "cell_text", "cell_colour", "doc", "rule"]);
            let of = self.element(m, decls, &path, "board");
            let per = self.domain(m, decls, &path);
            let base = slots;
            slots += Self::domain_len(decls, per, max_players);
            decls.boards.push(BoardDecl { name: name.to_string(), of, per });
            let doc = self.string(m, "doc", &path);
            let rule = self.rule(m, &path);
            displays.push((m.get("cell_text").cloned(), m.get("cell_colour").cloned(), path));
            out.push(Board { name: name.to_string(), of, per, base, cell_text: None, cell_colour: None, doc, rule });
        }
        // Display expressions may read any declaration, so they compile once all are known.
        for (board, (text, colour, path)) in out.iter_mut().zip(displays) {
            let scope = Scope { locals: &[], it: Some(board.of.value_type()) };
            if let Some(text) = text {
                board.cell_text = Some(self.template(decls, &text, &join(&path, "cell_text"), &scope));
            }
            if let Some(colour) = colour {
                board.cell_colour = Some(self.expression(decls, &colour, &join(&path, "cell_colour"), &scope, Some(&Type::Str)).0);
            }
        }
        (out, slots)
    }
}

/// The board instance a statement names: `town` or `town[p]`, with its element type.
pub(super) fn board_ref(b: &mut Builder, decls: &Decls, scope: &Scope, v: &Yaml, path: &str) -> Option<(BoardRef, Type)> {
    let (ast, source) = b.parse_expression(v, path)?;
    let mut compiler = Compiler::new(decls);
    let found = compiler.board_instance(&ast, scope);
    for e in compiler.errors {
        b.expr_error(path, &source, e.span, e.message);
    }
    let (board, index, of) = found?;
    Some((BoardRef { board, index }, of.value_type()))
}

impl Compiler<'_> {
    /// `name` or `name[index]` where name is a board: the board, its index expression and
    /// what its cells hold. Reports and returns nothing otherwise.
    fn board_instance(&mut self, arg: &Expr, scope: &Scope) -> Option<(BoardId, Option<Eval>, Element)> {
        let Some((name, index)) = name_and_index(arg) else { return self.not_a_board(arg.span) };
        let Some(b) = self.decls.boards.iter().position(|d| d.name == name.text) else {
            let names: Vec<String> = self.decls.boards.iter().map(|d| d.name.clone()).collect();
            let hint = did_you_mean(&name.text, &names);
            self.report(name.span, format!("unknown board '{}'{hint}", name.text));
            return None;
        };
        let decl: &BoardDecl = &self.decls.boards[b];
        let (per, of) = (decl.per, decl.of);
        let index = self.instance_index(arg.span, "board", &name.text, per, index, scope)?;
        Some((b as BoardId, index, of))
    }

    fn not_a_board<T>(&mut self, span: Span) -> Option<T> {
        self.report(span, "expected a board: its name, or name[index]");
        None
    }

    fn board_arg(&mut self, arg: &Expr, scope: &Scope) -> Option<(InstanceEval, Element)> {
        let (board, index, of) = self.board_instance(arg, scope)?;
        let reference = BoardRef { board, index };
        let eval: InstanceEval = Arc::new(move |env: &Env| env.game.board_instance(&reference, env));
        Some((eval, of))
    }

    /// Reads a board's name used as a plain value: boards are read through built-ins.
    pub(super) fn board_as_value(&mut self, span: Span, name: &str) -> (Eval, Type) {
        self.error(span, format!("board '{name}' is read with cells(), at(), groups(), holes() or placements()"))
    }

    pub(super) fn board_call(&mut self, span: Span, f: &str, args: &[Expr], scope: &Scope) -> (Eval, Type) {
        let positions = Type::List(Box::new(Type::Pos));
        let nothing = || (constant_none(), Type::Any);
        match f {
            "pos" => {
                if !self.arity(span, f, args, &[2]) {
                    return nothing();
                }
                let row = self.expect(&args[0], scope, &Type::Int);
                let col = self.expect(&args[1], scope, &Type::Int);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let (r, c) = (as_int(&row(env)?)?, as_int(&col(env)?)?);
                    Ok(Value::Pos(Pos::new(coordinate(r)?, coordinate(c)?)))
                });
                (eval, Type::Pos)
            }
            "neighbours" => {
                if !self.arity(span, f, args, &[1]) {
                    return nothing();
                }
                let p = self.expect(&args[0], scope, &Type::Pos);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let p = as_pos(&p(env)?)?;
                    Ok(Value::list(p.neighbours().iter().map(|n| Value::Pos(*n)).collect()))
                });
                (eval, positions)
            }
            "rotate" => {
                if !self.arity(span, f, args, &[2]) {
                    return nothing();
                }
                let (piece, ty) = self.compile(&args[0], scope);
                let turns = self.expect(&args[1], scope, &Type::Int);
                if !matches!(&ty, Type::List(row) if matches!(**row, Type::List(_) | Type::Any)) && ty != Type::Any {
                    let message = format!("rotate needs a list of rows (lists), found {}", self.type_name(&ty));
                    self.report(args[0].span, message);
                }
                let eval: Eval = Arc::new(move |env: &Env| {
                    let rows = as_list(piece(env)?)?;
                    let rows: Vec<Vec<Value>> =
                        rows.iter().map(|r| as_list(r.clone()).map(|r| r.to_vec())).collect::<Result<_, _>>()?;
                    if rows.iter().any(|r| r.len() != rows[0].len()) {
                        return Err(RuntimeError::new("rotate needs rows of equal length"));
                    }
                    let turned = grid::rotate(&rows, as_int(&turns(env)?)?);
                    Ok(Value::list(turned.into_iter().map(Value::list).collect()))
                });
                (eval, ty)
            }
            _ => self.board_reader(span, f, args, scope),
        }
    }

    /// The built-ins whose first argument is a board.
    fn board_reader(&mut self, span: Span, f: &str, args: &[Expr], scope: &Scope) -> (Eval, Type) {
        let positions = Type::List(Box::new(Type::Pos));
        let arity: &[usize] = match f {
            "cells" | "holes" => &[1],
            "at" | "groups" => &[2],
            _ => &[3],
        };
        if !self.arity(span, f, args, arity) {
            return (constant_none(), Type::Any);
        }
        let Some((board, of)) = self.board_arg(&args[0], scope) else { return (constant_none(), Type::Any) };
        match f {
            "cells" => {
                let eval: Eval = Arc::new(move |env: &Env| {
                    let grid = &env.state.boards[board(env)?];
                    Ok(Value::list(grid.cells().iter().map(|(p, _)| Value::Pos(*p)).collect()))
                });
                (eval, positions)
            }
            "holes" => {
                let eval: Eval = Arc::new(move |env: &Env| {
                    let grid = &env.state.boards[board(env)?];
                    Ok(Value::list(grid.holes().map_err(RuntimeError::new)?.into_iter().map(Value::Pos).collect()))
                });
                (eval, positions)
            }
            "at" => {
                let p = self.expect(&args[1], scope, &Type::Pos);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let grid = &env.state.boards[board(env)?];
                    Ok(grid.get(as_pos(&p(env)?)?).map_or(Value::None, |e| decode_element(of, e)))
                });
                (eval, of.value_type())
            }
            "groups" => {
                let inner = Scope { locals: scope.locals, it: Some(of.value_type()) };
                let pred = self.expect(&args[1], &inner, &Type::Bool);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let grid = &env.state.boards[board(env)?];
                    let groups = grid.groups(|e| as_bool(&pred(&env.with_it(&decode_element(of, e)))?))?;
                    Ok(Value::list(
                        groups.into_iter().map(|g| Value::list(g.into_iter().map(Value::Pos).collect())).collect(),
                    ))
                });
                (eval, Type::List(Box::new(positions)))
            }
            _ => {
                // placements(board, rows, cols)
                let rows = self.expect(&args[1], scope, &Type::Int);
                let cols = self.expect(&args[2], scope, &Type::Int);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let grid = &env.state.boards[board(env)?];
                    let (r, c) = (as_int(&rows(env)?)?, as_int(&cols(env)?)?);
                    if !(1..=64).contains(&r) || !(1..=64).contains(&c) {
                        return Err(RuntimeError::new(format!("placements of a {r}×{c} piece: sizes go from 1 to 64")));
                    }
                    Ok(Value::list(grid.placements(r as i16, c as i16).into_iter().map(Value::Pos).collect()))
                });
                (eval, positions)
            }
        }
    }
}

fn constant_none() -> Eval {
    Arc::new(|_| Ok(Value::None))
}

fn coordinate(n: i64) -> Result<i16, RuntimeError> {
    Pos::coordinate(n).ok_or_else(|| RuntimeError::new(format!("coordinate {n} is out of range")))
}
