//! Traces: writing a played game as a trace, and replaying a trace against a ruleset
//! (`frontier check`): every decision must be legal, every assertion must hold.

use frontier_grammar::expr::{parse_expr, Expr as Ast, ExprKind};
use frontier_grammar::trace::{Header, HeaderLines, Line, LineKind, RulesetRef, Start, Trace};
use frontier_grammar::{LineCol, Span};
use std::collections::BTreeSet;
use std::sync::Arc;

use crate::eval::Env;
use crate::hints::closest_first;
use crate::load::{Compiler, Decls, Scope};
use crate::machine::{Choice, Journal, Outcome, State, Status};
use crate::model::Game;
use crate::rng::GameRng;
use crate::runner::{sample_chance, Step};
use crate::value::{Type, Value};

/// Builds the trace of a played game; with its outcome, the trace ends with `expect over`
/// and the final scores.
pub fn write_trace(
    ruleset: RulesetRef,
    players: &[String],
    seed: Option<u64>,
    steps: &[Step],
    outcome: Option<&Outcome>,
) -> Trace {
    let mut body: Vec<Line> = steps
        .iter()
        .map(|s| Line {
            line: 0,
            column: 0,
            rule: None,
            kind: match s {
                Step::Decision { player, label } => LineKind::Decision {
                    player: players[*player as usize].clone(),
                    label: label.clone(),
                },
                Step::Chance { label } => LineKind::Chance {
                    label: label.clone(),
                },
            },
        })
        .collect();
    if let Some(outcome) = outcome {
        let scores = players
            .iter()
            .cloned()
            .zip(outcome.scores.iter().copied())
            .collect();
        body.push(Line {
            line: 0,
            column: 0,
            rule: None,
            kind: LineKind::ExpectOver { scores },
        });
    }
    Trace {
        header: Header {
            version: Some(1),
            ruleset,
            variant: None,
            players: players.to_vec(),
            params: Vec::new(),
            seed,
            start: Start::Setup,
            header_lines: HeaderLines::default(),
        },
        body,
    }
}

/// Where and why a replay left the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    pub line: usize,
    pub column: usize,
    /// 1-based number of the step (decision or chance line) in the body, 0 before any.
    pub step: usize,
    pub message: String,
    /// The legal options (or outcomes) there, closest to what the trace says first.
    pub legal: Vec<String>,
    pub rule: Option<String>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The caller puts "file:line:column: " in front.
        let mut context = Vec::new();
        if self.step > 0 {
            context.push(format!("step {}", self.step));
        }
        if let Some(r) = &self.rule {
            context.push(format!("[rule {r}]"));
        }
        if !context.is_empty() {
            write!(f, "{}: ", context.join(" "))?;
        }
        f.write_str(&self.message)?;
        if !self.legal.is_empty() {
            let shown: Vec<&str> = self.legal.iter().take(12).map(String::as_str).collect();
            let more = if self.legal.len() > 12 {
                format!(" … ({} in all)", self.legal.len())
            } else {
                String::new()
            };
            write!(
                f,
                "\n  legal here, closest first: {}{more}",
                shown.join(" | ")
            )?;
        }
        Ok(())
    }
}

/// What a clean replay went through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    pub steps: usize,
    pub assertions: usize,
    pub final_state: State,
}

/// One step of a replay, for `frontier replay`.
pub struct ReplayStep<'a> {
    pub number: usize,
    pub line: &'a Line,
    pub log: &'a [String],
    pub state: &'a State,
}

/// Replays `trace` from `start` (a fresh game, or a position read by the caller).
/// `on_step` sees every applied step.
pub fn replay(
    game: &Game,
    trace: &Trace,
    state: State,
    on_step: impl FnMut(ReplayStep),
) -> Result<Replayed, Divergence> {
    replay_with(game, trace, state, on_step, None)
}

/// Replays `trace` like `replay`, collecting into `rules` the `rule:` references of what
/// the game runs (statements, options, procedures: see `Game::runnable_rules`). The steps
/// `on_step` sees then carry no log.
pub fn replay_covering(
    game: &Game,
    trace: &Trace,
    state: State,
    rules: &mut BTreeSet<Arc<str>>,
) -> Result<Replayed, Divergence> {
    replay_with(game, trace, state, |_| {}, Some(rules))
}

/// Where a replay's `apply` writes: the step's log, or the rules it runs through.
fn journal<'a>(
    rules: &'a mut Option<&mut BTreeSet<Arc<str>>>,
    log: &'a mut Vec<String>,
) -> Journal<'a> {
    match rules {
        Some(rules) => Journal::rules(rules),
        None => Journal::on(log),
    }
}

fn replay_with(
    game: &Game,
    trace: &Trace,
    mut state: State,
    mut on_step: impl FnMut(ReplayStep),
    mut rules: Option<&mut BTreeSet<Arc<str>>>,
) -> Result<Replayed, Divergence> {
    let mut rng = trace.header.seed.map(GameRng::new);
    let decls = Decls::from_game(game);
    let mut step = 0usize;
    let mut assertions = 0usize;
    let mut log = Vec::new();
    for line in &trace.body {
        let fail = |step: usize, message: String, legal: Vec<String>| Divergence {
            line: line.line,
            column: line.column,
            step,
            message,
            legal,
            rule: line.rule.clone(),
        };
        // Chance points the trace does not record are resolved by the seed.
        if !matches!(line.kind, LineKind::Chance { .. }) {
            while let Status::Chance(chance) = game.status(&state) {
                let Some(rng) = rng.as_mut() else {
                    let what = chance_name(game, &state);
                    return Err(fail(step, format!("{what} needs an outcome: write a 'chance:' line, or give the trace a seed"), Vec::new()));
                };
                let choice = sample_chance(&state, chance, rng);
                let mut journal = match rules.as_deref_mut() {
                    Some(rules) => Journal::rules(rules),
                    None => Journal::off(),
                };
                game.apply(&mut state, choice, &mut journal)
                    .map_err(|e| fail(step, e.to_string(), Vec::new()))?;
            }
        }
        match &line.kind {
            LineKind::Decision { player, label } => {
                step += 1;
                let Status::Decision { player: seat, .. } = game.status(&state) else {
                    return Err(fail(
                        step,
                        format!(
                            "the trace has {player} decide '{label}', but {}",
                            waiting_for(game, &state)
                        ),
                        Vec::new(),
                    ));
                };
                let labels = game
                    .option_labels(&state)
                    .map_err(|e| fail(step, e.to_string(), Vec::new()))?;
                let decider = &state.names[seat as usize];
                if decider != player {
                    let prompt = game.prompt(&state).unwrap_or_default();
                    return Err(fail(step, format!("the trace has {player} decide, but {decider} decides here (\"{prompt}\")"), labels));
                }
                let Some(i) = labels.iter().position(|l| l == label) else {
                    let prompt = game.prompt(&state).unwrap_or_default();
                    return Err(fail(
                        step,
                        format!("'{label}' is not a legal option for {player} at \"{prompt}\""),
                        closest_first(label, labels),
                    ));
                };
                log.clear();
                game.apply(
                    &mut state,
                    Choice::Option(i),
                    &mut journal(&mut rules, &mut log),
                )
                .map_err(|e| fail(step, e.to_string(), Vec::new()))?;
                on_step(ReplayStep {
                    number: step,
                    line,
                    log: &log,
                    state: &state,
                });
            }
            LineKind::Chance { label } => {
                step += 1;
                if !matches!(game.status(&state), Status::Chance(_)) {
                    return Err(fail(
                        step,
                        format!(
                            "the trace gives a chance outcome, but {}",
                            waiting_for(game, &state)
                        ),
                        Vec::new(),
                    ));
                }
                let Some(choice) = game.parse_outcome(&state, label) else {
                    let legal = match &state.pending {
                        crate::machine::Pending::Chance(point) => point
                            .outcomes
                            .iter()
                            .map(|v| game.value_text(v, &state.names))
                            .collect(),
                        _ => vec!["any order of the zone's contents".to_string()],
                    };
                    return Err(fail(
                        step,
                        format!(
                            "'{label}' is not a possible outcome of {}",
                            chance_name(game, &state)
                        ),
                        closest_first(label, legal),
                    ));
                };
                log.clear();
                game.apply(&mut state, choice, &mut journal(&mut rules, &mut log))
                    .map_err(|e| fail(step, e.to_string(), Vec::new()))?;
                on_step(ReplayStep {
                    number: step,
                    line,
                    log: &log,
                    state: &state,
                });
            }
            LineKind::Assert { source, .. } => {
                assertions += 1;
                check_assertion(game, &decls, &state, source)
                    .map_err(|m| fail(step, m, Vec::new()))?;
            }
            LineKind::ExpectOver { scores } => {
                let Status::Over(outcome) = game.status(&state) else {
                    return Err(fail(
                        step,
                        format!(
                            "the trace expects the game to be over, but {}",
                            waiting_for(game, &state)
                        ),
                        Vec::new(),
                    ));
                };
                check_scores(outcome, &state, scores).map_err(|m| fail(step, m, Vec::new()))?;
            }
            LineKind::Reject { player, label } => {
                let labels = options_of(game, &state, player, &format!("rejects '{label}'"))
                    .map_err(|(m, l)| fail(step, m, l))?;
                if labels.iter().any(|l| l == label) {
                    let prompt = game.prompt(&state).unwrap_or_default();
                    return Err(fail(
                        step,
                        format!("'{label}' is a legal option for {player} at \"{prompt}\", but the trace rejects it"),
                        closest_first(label, labels),
                    ));
                }
            }
            LineKind::ExpectOptions {
                player,
                labels: expected,
            } => {
                let labels = options_of(game, &state, player, "expects options")
                    .map_err(|(m, l)| fail(step, m, l))?;
                let missing: Vec<String> = expected
                    .iter()
                    .filter(|e| !labels.contains(e))
                    .map(|e| format!("'{e}'"))
                    .collect();
                let extra: Vec<String> = labels
                    .iter()
                    .filter(|l| !expected.contains(l))
                    .map(|l| format!("'{l}'"))
                    .collect();
                if !missing.is_empty() || !extra.is_empty() {
                    let prompt = game.prompt(&state).unwrap_or_default();
                    let mut parts = Vec::new();
                    let some = |list: Vec<String>| match list.len() {
                        0..=6 => list.join(", "),
                        n => format!("{}, … ({n} in all)", list[..5].join(", ")),
                    };
                    if !missing.is_empty() {
                        parts.push(format!("not legal: {}", some(missing)));
                    }
                    if !extra.is_empty() {
                        parts.push(format!("legal but not listed: {}", some(extra)));
                    }
                    return Err(fail(
                        step,
                        format!(
                            "the options of {player} at \"{prompt}\" differ from the trace's ({})",
                            parts.join("; ")
                        ),
                        labels,
                    ));
                }
            }
            LineKind::ExpectWinner { players } => {
                let Status::Over(outcome) = game.status(&state) else {
                    return Err(fail(
                        step,
                        format!(
                            "the trace expects the game to be over, but {}",
                            waiting_for(game, &state)
                        ),
                        Vec::new(),
                    ));
                };
                let winners: Vec<String> = outcome
                    .winners()
                    .iter()
                    .map(|&p| state.names[p].clone())
                    .collect();
                let same =
                    winners.len() == players.len() && players.iter().all(|p| winners.contains(p));
                if !same {
                    return Err(fail(
                        step,
                        format!(
                            "the trace expects the winner {}, but {}",
                            players.join(" and "),
                            ranking_text(outcome, &state)
                        ),
                        Vec::new(),
                    ));
                }
            }
            LineKind::ExpectRanking { ranks } => {
                let Status::Over(outcome) = game.status(&state) else {
                    return Err(fail(
                        step,
                        format!(
                            "the trace expects the game to be over, but {}",
                            waiting_for(game, &state)
                        ),
                        Vec::new(),
                    ));
                };
                for (name, rank) in ranks {
                    let Some(p) = state.names.iter().position(|n| n == name) else {
                        return Err(fail(step, format!("'{name}' is not a player"), Vec::new()));
                    };
                    if u32::from(outcome.ranks[p]) != *rank {
                        return Err(fail(
                            step,
                            format!(
                                "the trace expects {name} ranked {rank}, but {}",
                                ranking_text(outcome, &state)
                            ),
                            Vec::new(),
                        ));
                    }
                }
            }
        }
    }
    Ok(Replayed {
        steps: step,
        assertions,
        final_state: state,
    })
}

/// The state a trace starts from: a fresh game after the ruleset's setup, or a position
/// (read by `read_position`, given the path the trace names) that seats its players.
pub fn starting_state(
    game: &Game,
    trace: &Trace,
    read_position: impl FnOnce(&str) -> Result<String, String>,
) -> Result<State, Divergence> {
    let path = match &trace.header.start {
        Start::Setup => {
            return game
                .start(trace.header.players.clone())
                .map_err(|e| header_error(trace, e.to_string()))
        }
        Start::Position(path) => path,
    };
    let text = read_position(path).map_err(|e| header_error(trace, e))?;
    let state = game
        .state_from_yaml(&text)
        .map_err(|e| header_error(trace, format!("position {path}: {e}")))?;
    if *state.names != trace.header.players {
        return Err(header_error(
            trace,
            format!(
                "the position seats {} but the trace's players are {}",
                state.names.join(" "),
                trace.header.players.join(" ")
            ),
        ));
    }
    Ok(state)
}

fn header_error(trace: &Trace, message: String) -> Divergence {
    let at = trace
        .header
        .header_lines
        .start
        .or(trace.header.header_lines.players)
        .unwrap_or(LineCol { line: 1, column: 1 });
    Divergence {
        line: at.line,
        column: at.column,
        step: 0,
        message,
        legal: Vec::new(),
        rule: None,
    }
}

fn waiting_for(game: &Game, state: &State) -> String {
    match game.status(state) {
        Status::Decision { player, .. } => {
            format!(
                "{} must decide \"{}\"",
                state.names[player as usize],
                game.prompt(state).unwrap_or_default()
            )
        }
        Status::Chance(_) => format!("the game waits for {}", chance_name(game, state)),
        Status::Over(_) => "the game is over".into(),
    }
}

fn chance_name(game: &Game, state: &State) -> String {
    match &state.pending {
        crate::machine::Pending::Shuffle { zone } => {
            format!("the shuffle of {}", game.zone_instance_name(*zone))
        }
        _ => "a random outcome".into(),
    }
}

/// The labels of the options `player` has here; an error (message, legal options) if the
/// game is not waiting for that player's decision. `what` says what the trace does.
fn options_of(
    game: &Game,
    state: &State,
    player: &str,
    what: &str,
) -> Result<Vec<String>, (String, Vec<String>)> {
    let Status::Decision { player: seat, .. } = game.status(state) else {
        return Err((
            format!(
                "the trace has {player} decide ({what}), but {}",
                waiting_for(game, state)
            ),
            Vec::new(),
        ));
    };
    let labels = game
        .option_labels(state)
        .map_err(|e| (e.to_string(), Vec::new()))?;
    let decider = &state.names[seat as usize];
    if decider != player {
        let prompt = game.prompt(state).unwrap_or_default();
        return Err((
            format!(
                "the trace has {player} decide ({what}), but {decider} decides here (\"{prompt}\")"
            ),
            labels,
        ));
    }
    Ok(labels)
}

/// "the ranking is 1. red (12), 2. blue (10), 2. green (10)".
fn ranking_text(outcome: &Outcome, state: &State) -> String {
    let mut seats: Vec<usize> = (0..outcome.ranks.len()).collect();
    seats.sort_by_key(|&p| outcome.ranks[p]);
    let places: Vec<String> = seats
        .iter()
        .map(|&p| {
            format!(
                "{}. {} ({})",
                outcome.ranks[p], state.names[p], outcome.scores[p]
            )
        })
        .collect();
    format!("the ranking is {}", places.join(", "))
}

fn check_scores(outcome: &Outcome, state: &State, scores: &[(String, i64)]) -> Result<(), String> {
    for (name, expected) in scores {
        let Some(p) = state.names.iter().position(|n| n == name) else {
            return Err(format!("'{name}' is not a player"));
        };
        if outcome.scores[p] != *expected {
            return Err(format!(
                "{name} ends with {}, the trace expects {expected}",
                outcome.scores[p]
            ));
        }
    }
    Ok(())
}

/// Compiles an assertion with the players' names bound, evaluates it, and on failure
/// says the values of its two sides.
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
        let ast = parse_expr(source, game.limits.expression).map_err(|e| {
            format!(
                "{source}: syntax error at column {}: {}",
                e.offset + 1,
                e.message
            )
        })?;
        let (locals, values) = player_locals(state);
        let scope = Scope {
            locals: &locals,
            it: None,
        };
        let mut compiler = Compiler::with_source(&decls, source);
        let (mut expr, _) = compiler.compile(&ast, &scope);
        if let Some(e) = compiler.errors.first() {
            return Err(format!(
                "{source}: {} at '{}'",
                e.message,
                snippet(source, e.span)
            ));
        }
        crate::optimize::expression(game, &mut expr);
        Ok(Query {
            source: source.to_string(),
            expr,
            values,
        })
    }

    /// The optimized IR the query evaluates.
    #[cfg(test)]
    pub(crate) fn ir(&self) -> &crate::ir::Expr {
        &self.expr
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
    let (locals, _) = player_locals(state);
    let scope = Scope {
        locals: &locals,
        it: None,
    };
    let mut out = Vec::new();
    for line in &trace.body {
        let LineKind::Assert { source, .. } = &line.kind else {
            continue;
        };
        if let Err(message) = compile_assertion(game, &decls, &scope, source) {
            out.push(Divergence {
                line: line.line,
                column: line.column,
                step: 0,
                message,
                legal: Vec::new(),
                rule: line.rule.clone(),
            });
        }
    }
    out
}

/// An assertion parsed and compiled as true/false, or what is wrong with it.
fn compile_assertion(
    game: &Game,
    decls: &Decls,
    scope: &Scope,
    source: &str,
) -> Result<(Ast, crate::ir::Expr), String> {
    let ast = parse_expr(source, game.limits.expression).map_err(|e| {
        format!(
            "assert: syntax error at column {}: {}",
            e.offset + 1,
            e.message
        )
    })?;
    let mut compiler = Compiler::with_source(decls, source);
    let eval = compiler.expect(&ast, scope, &Type::Bool);
    if let Some(e) = compiler.errors.first() {
        return Err(format!(
            "assert {source}: {} at '{}'",
            e.message,
            snippet(source, e.span)
        ));
    }
    Ok((ast, eval))
}

fn check_assertion(game: &Game, decls: &Decls, state: &State, source: &str) -> Result<(), String> {
    let (locals, values) = player_locals(state);
    let scope = Scope {
        locals: &locals,
        it: None,
    };
    let (ast, mut eval) = compile_assertion(game, decls, &scope, source)?;
    // Evaluated as the game's own expressions are (the up-front check only compiles).
    crate::optimize::expression(game, &mut eval);
    let env = Env::new(game, state, &values);
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
            Err(format!("assertion failed: {source}{parts}"))
        }
        Err(e) => Err(format!("assert {source}: {e}")),
    }
}

fn snippet(source: &str, span: Span) -> &str {
    source.get(span.start..span.end).unwrap_or(source)
}
