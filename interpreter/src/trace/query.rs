//! Expressions written outside a ruleset, with the players' names bound to the players:
//! trace assertions (compiled up front, checked during a replay, their two sides shown
//! when they fail) and queries (`evaluate`, `Query`).

use frontier_grammar::expr::{parse_expr, Expr as Ast, ExprKind};
use frontier_grammar::trace::{Line, LineKind, Trace};
use frontier_grammar::Span;

use super::Divergence;
use crate::eval::Env;
use crate::load::{Compiler, Decls, Scope};
use crate::machine::State;
use crate::model::Game;
use crate::value::{Type, Value};

/// Evaluates an expression of the ruleset's language against a state, with the players'
/// names bound to the players (as in trace assertions): `score[red] + len(cells(town[red]))`.
pub fn evaluate(game: &Game, state: &State, source: &str) -> Result<Value, String> {
    Query::compile(game, state, source)?.evaluate(game, state)
}

/// An expression compiled once, as `evaluate` compiles it, to evaluate against many
/// states of the same game with the same players.
pub struct Query {
    source: String,
    expr: crate::ir::Expr,
    values: Vec<Value>,
}

impl Query {
    /// Compiles `source` with the names of `state`'s players bound.
    pub fn compile(game: &Game, state: &State, source: &str) -> Result<Query, String> {
        let decls = Decls::from_game(game);
        let names = Names::of_players(state);
        let (_, mut expr, _) = compile_source(game, &decls, &names.scope(), source, None)
            .map_err(|p| p.said(source, source))?;
        crate::optimize::expression(game, &mut expr);
        Ok(Query {
            source: source.to_string(),
            expr,
            values: names.values,
        })
    }

    /// The optimized IR the query evaluates.
    pub fn ir(&self) -> &crate::ir::Expr {
        &self.expr
    }

    /// The locals the IR reads: the players' names it binds (`p1`, `p2`, …).
    pub fn locals(&self) -> &[Value] {
        &self.values
    }

    pub fn evaluate(&self, game: &Game, state: &State) -> Result<Value, String> {
        self.expr
            .eval(&Env::new(game, state, &self.values))
            .map_err(|e| format!("{}: {e}", self.source))
    }
}

/// The players' names as locals bound to the players, for expressions written outside a
/// ruleset (assertions, queries).
fn player_locals(state: &State) -> (Vec<(String, Type, u16)>, Vec<Value>) {
    let locals = state
        .names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), Type::Player, i as u16))
        .collect();
    let values = (0..state.names.len())
        .map(|p| Value::Player(p as u8))
        .collect();
    (locals, values)
}

/// The assertions of `trace` that do not compile (a syntax error, an unknown name, a
/// value that is not true/false), each as a divergence at its line: found before the
/// replay, all of them, so that a trace's mistakes are not reported one run at a time.
/// `state` gives the players' names the assertions may use.
pub fn assertion_errors(game: &Game, trace: &Trace, state: &State) -> Vec<Divergence> {
    let decls = Decls::from_game(game);
    let mut names = Names::of_players(state);
    let mut out = Vec::new();
    for line in &trace.body {
        let problem = match &line.kind {
            LineKind::Assert { source, .. } => {
                compile_assertion(game, &decls, &names.scope(), source).err()
            }
            LineKind::Let { name, source, .. } => names.declare(game, &decls, name, source).err(),
            _ => continue,
        };
        if let Some(wrong) = problem {
            out.push(Divergence {
                line: line.line,
                column: wrong.column(line),
                step: 0,
                message: wrong.message,
                legal: Vec::new(),
                rule: line.rule.clone(),
            });
        }
    }
    out
}

/// The names a trace's assertions read: the players', then each `let`'s in turn, with
/// their types and, during a replay, their values.
pub(super) struct Names {
    locals: Vec<(String, Type, u16)>,
    values: Vec<Value>,
}

impl Names {
    pub(super) fn of_players(state: &State) -> Names {
        let (locals, values) = player_locals(state);
        Names { locals, values }
    }

    fn scope(&self) -> Scope<'_> {
        Scope {
            locals: &self.locals,
            it: None,
        }
    }

    /// Compiles a `let`'s expression and adds its name with its type; the IR to evaluate.
    fn declare(
        &mut self,
        game: &Game,
        decls: &Decls,
        name: &str,
        source: &str,
    ) -> Result<crate::ir::Expr, Wrong> {
        if self.locals.iter().any(|(n, _, _)| n == name) {
            return Err(Wrong::at_line(format!(
                "let {name}: '{name}' already names a player or an earlier value"
            )));
        }
        let (_, mut expr, ty) = compile_source(game, decls, &self.scope(), source, None)
            .map_err(|p| p.placed(&format!("let {name}"), &format!("let {name} = {source}")))?;
        crate::optimize::expression(game, &mut expr);
        let slot = self.locals.len() as u16;
        self.locals.push((name.to_string(), ty, slot));
        Ok(expr)
    }

    /// `let name = source` at this point of a replay: its value kept under its name.
    pub(super) fn capture(
        &mut self,
        game: &Game,
        decls: &Decls,
        state: &State,
        name: &str,
        source: &str,
    ) -> Result<(), Wrong> {
        let expr = self.declare(game, decls, name, source)?;
        let value = expr
            .eval(&Env::new(game, state, &self.values))
            .map_err(|e| Wrong::at_line(format!("let {name} = {source}: {e}")))?;
        self.values.push(value);
        Ok(())
    }
}

/// An assertion parsed and compiled as true/false, or what is wrong with it.
fn compile_assertion(
    game: &Game,
    decls: &Decls,
    scope: &Scope,
    source: &str,
) -> Result<(Ast, crate::ir::Expr), Wrong> {
    let (ast, eval, _) = compile_source(game, decls, scope, source, Some(&Type::Bool))
        .map_err(|p| p.placed("assert", &format!("assert {source}")))?;
    Ok((ast, eval))
}

/// What is wrong with an expression written outside a ruleset, and where in it (a byte
/// offset into the expression).
enum Problem {
    Syntax {
        at: usize,
        message: String,
    },
    Check {
        at: usize,
        message: String,
        snippet: String,
    },
}

impl Problem {
    /// The message, after `syntax` for a syntax error and after `check` for the others;
    /// a syntax error says its column in the expression.
    fn said(self, syntax: &str, check: &str) -> String {
        match self {
            Problem::Syntax { at, message } => {
                format!("{syntax}: syntax error at column {}: {message}", at + 1)
            }
            Problem::Check {
                message, snippet, ..
            } => format!("{check}: {message} at '{snippet}'"),
        }
    }

    /// The problem of an expression of a trace line, placed where it stands in the line
    /// (which the trace's file:line:column then says).
    fn placed(self, syntax: &str, check: &str) -> Wrong {
        match self {
            Problem::Syntax { at, message } => Wrong {
                at: Some(at),
                message: format!("{syntax}: syntax error: {message}"),
            },
            Problem::Check { at, .. } => Wrong {
                at: Some(at),
                message: self.said(syntax, check),
            },
        }
    }
}

/// What is wrong at a trace's `assert` or `let` line: the message, and the byte offset in
/// the line's expression where it stands (none: the line as a whole).
pub(super) struct Wrong {
    at: Option<usize>,
    pub(super) message: String,
}

impl Wrong {
    fn at_line(message: String) -> Wrong {
        Wrong { at: None, message }
    }

    /// The column of `line` the problem stands at: in its expression, counted in
    /// characters from the expression's own column; else the line's.
    pub(super) fn column(&self, line: &Line) -> usize {
        let (LineKind::Assert { source, column, .. } | LineKind::Let { source, column, .. }) =
            &line.kind
        else {
            return line.column;
        };
        match self.at {
            Some(at) if *column > 0 => {
                column + source.get(..at).map_or(0, |before| before.chars().count())
            }
            _ => line.column,
        }
    }
}

/// Parses and checks `source` with the names of `scope` (as a value of type `expected`,
/// when given): its syntax tree, its IR (not optimized) and its type.
fn compile_source(
    game: &Game,
    decls: &Decls,
    scope: &Scope,
    source: &str,
    expected: Option<&Type>,
) -> Result<(Ast, crate::ir::Expr, Type), Problem> {
    let ast = parse_expr(source, game.limits.expression).map_err(|e| Problem::Syntax {
        at: e.offset,
        message: e.message,
    })?;
    let mut compiler = Compiler::with_source(decls, source);
    let (expr, ty) = match expected {
        Some(ty) => (compiler.expect(&ast, scope, ty), ty.clone()),
        None => compiler.compile(&ast, scope),
    };
    match compiler.errors.first() {
        Some(e) => Err(Problem::Check {
            at: e.span.start,
            message: e.message.clone(),
            snippet: snippet(source, e.span).to_string(),
        }),
        None => Ok((ast, expr, ty)),
    }
}

/// Compiles an assertion with the players' names and the values captured so far bound,
/// evaluates it, and on failure says the values of its two sides.
pub(super) fn check_assertion(
    game: &Game,
    decls: &Decls,
    state: &State,
    names: &Names,
    source: &str,
) -> Result<(), Wrong> {
    let scope = names.scope();
    let values = &names.values;
    let (ast, mut eval) = compile_assertion(game, decls, &scope, source)?;
    // Evaluated as the game's own expressions are (the up-front check only compiles).
    crate::optimize::expression(game, &mut eval);
    let env = Env::new(game, state, values);
    match eval.eval(&env) {
        Ok(Value::Bool(true)) => Ok(()),
        Ok(_) => {
            let mut parts = String::new();
            if let ExprKind::Binary(_, a, b) = &ast.kind {
                for side in [a, b] {
                    let mut c = Compiler::new(decls);
                    let (e, _) = c.compile(side, &scope);
                    if let Ok(v) = e.eval(&env) {
                        parts.push_str(&format!(
                            "; {} = {}",
                            snippet(source, side.span),
                            game.value_text(&v, &state.names)
                        ));
                    }
                }
            }
            Err(Wrong::at_line(format!("assertion failed: {source}{parts}")))
        }
        Err(e) => Err(Wrong::at_line(format!("assert {source}: {e}"))),
    }
}

fn snippet(source: &str, span: Span) -> &str {
    source.get(span.start..span.end).unwrap_or(source)
}
