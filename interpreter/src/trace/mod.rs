//! Traces: writing a played game as a trace, and replaying a trace against a ruleset
//! (`frontier check`): every decision must be legal, every assertion must hold.
//!
//! This file writes traces and says where a replay starts and how it diverges;
//! `replay.rs` replays a trace line by line, and `query.rs` compiles and evaluates
//! assertions and queries written outside the ruleset.

mod query;
mod replay;

use std::sync::Arc;

use frontier_grammar::trace::{Header, HeaderLines, Line, LineKind, RulesetRef, Start, Trace};
use frontier_grammar::LineCol;

use crate::machine::{Outcome, State};
use crate::model::Game;
use crate::runner::Step;
pub use query::{assertion_errors, evaluate, Query};
pub use replay::{chance_of_line, replay, replay_covering, replay_stepped};

/// The longest chance outcome a written trace spells out. A longer one (a shuffle of
/// thousands of cards) is written `chance by seed 1` when the trace has a seed, which
/// draws it again exactly as it was drawn: traces stay readable and within the size
/// `check` reads.
pub const LONGEST_CHANCE_LINE: usize = 4096;

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
                Step::Chance { label } if label.len() > LONGEST_CHANCE_LINE && seed.is_some() => {
                    LineKind::ChanceBySeed { count: Some(1) }
                }
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
    pub rule: Option<Arc<str>>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The caller puts "file:line:column: " in front.
        let mut context = Vec::new();
        if self.step > 0 {
            context.push(format!("step {}", self.step));
        }
        if let Some(r) = &self.rule {
            context.push(format!("[rule {}]", frontier_grammar::shown(r)));
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
