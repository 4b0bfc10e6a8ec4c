//! The journal a step writes to: the game's log (bounded by [`MAX_LOG_BYTES`]), the
//! `rule:` references it runs through, or nothing.

use std::sync::Arc;

use crate::model::RuleRef;

/// Where `apply` writes the game's log, if anywhere. A journal serves one step (one
/// `apply`, or a game's start): what a step logs is bounded by [`MAX_LOG_BYTES`].
pub struct Journal<'a> {
    sink: Sink<'a>,
    /// Bytes of log written in this step.
    written: usize,
    /// Where the lines that name a chance outcome are noted, when the caller shows the log
    /// to players who may not all see it.
    secrets: Option<&'a mut Vec<Secret>>,
}

/// A log line that may name what some players cannot see, noted so that each reader is
/// shown what they may know ([`crate::Game::hide_unseen`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Secret {
    /// The line (by its place in the log) that names a chance outcome: shown to a player
    /// who cannot see that element where it went, it says only that something was drawn.
    Outcome {
        line: usize,
        outcome: crate::value::Value,
    },
    /// A line whose holes hold table rows (a `log:` line, a decision's label): written
    /// again from its pieces, with the rows a reader may not know as `?`. A reader knows
    /// a row they saw where it lay when the line was written (`seen`: each row named,
    /// with one bit per seat that saw it then; a card shown face up in transit) or see
    /// after the step (a card played face up).
    Named {
        line: usize,
        pieces: Vec<crate::eval::Piece>,
        seen: Vec<(crate::value::Value, u64)>,
    },
}

impl Secret {
    /// Whether every seat of `viewer` saw `row` where it lay when the line was written
    /// (never, for a chance outcome's line).
    pub fn seen_when_written(
        &self,
        row: &crate::value::Value,
        viewer: crate::Viewer,
        seats: usize,
    ) -> bool {
        let Secret::Named { seen, .. } = self else {
            return false;
        };
        let Some(&(_, bits)) = seen.iter().find(|(v, _)| v == row) else {
            return false;
        };
        viewer.within(bits, seats)
    }
}

enum Sink<'a> {
    Off,
    On(&'a mut Vec<String>),
    Rules(&'a mut std::collections::BTreeSet<Arc<str>>),
}

/// The most bytes of log lines one step writes. A ruleset may log large texts in a loop
/// (`text(range(1, 100000))` is 600 kB, and 10,000,000 statements may run in a step):
/// past this, the step's log says it stops, and its further lines are left out.
pub const MAX_LOG_BYTES: usize = 1 << 20;

impl<'a> Journal<'a> {
    /// No log.
    pub fn off() -> Self {
        Journal {
            sink: Sink::Off,
            written: 0,
            secrets: None,
        }
    }

    /// The log's lines appended to `lines`.
    pub fn on(lines: &'a mut Vec<String>) -> Self {
        Journal {
            sink: Sink::On(lines),
            written: 0,
            secrets: None,
        }
    }

    /// The log's lines appended to `lines`, and the lines that name chance outcomes noted
    /// in `secrets`.
    pub fn on_noting(lines: &'a mut Vec<String>, secrets: &'a mut Vec<Secret>) -> Self {
        Journal {
            sink: Sink::On(lines),
            written: 0,
            secrets: Some(secrets),
        }
    }

    /// No log: the `rule:` references of the statements, procedures and options that run
    /// are collected instead (`frontier check --coverage`).
    pub fn rules(seen: &'a mut std::collections::BTreeSet<Arc<str>>) -> Self {
        Journal {
            sink: Sink::Rules(seen),
            written: 0,
            secrets: None,
        }
    }
}

impl Journal<'_> {
    pub(super) fn is_on(&self) -> bool {
        matches!(self.sink, Sink::On(_)) && self.written <= MAX_LOG_BYTES
    }
    /// Whether lines that may name hidden things are noted, to be written again for
    /// each reader.
    pub(super) fn is_noting(&self) -> bool {
        self.is_on() && self.secrets.is_some()
    }
    pub(super) fn write(&mut self, mut line: String) {
        let Sink::On(lines) = &mut self.sink else {
            return;
        };
        if self.written > MAX_LOG_BYTES {
            return;
        }
        self.written += line.len();
        if self.written > MAX_LOG_BYTES {
            let mut cut = line.len().saturating_sub(self.written - MAX_LOG_BYTES);
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
            line.push_str(&format!(
                "… (this step's log stops here: it passed {MAX_LOG_BYTES} bytes)"
            ));
        }
        lines.push(line);
    }
    /// Writes the line that names a chance outcome, noted as such.
    pub(super) fn write_outcome(&mut self, line: String, outcome: &crate::value::Value) {
        self.write_noted(line, |line| Secret::Outcome {
            line,
            outcome: outcome.clone(),
        });
    }
    /// Writes a line rendered from `pieces`, noted when they name table rows, with who
    /// sees each row now (`seen_by`).
    pub(super) fn write_pieces(
        &mut self,
        line: String,
        pieces: Vec<crate::eval::Piece>,
        seen_by: impl Fn(&crate::value::Value) -> u64,
    ) {
        let mut seen: Vec<(crate::value::Value, u64)> = Vec::new();
        let mut note = |v: &crate::value::Value| {
            if matches!(v, crate::value::Value::Row(..)) && !seen.iter().any(|(s, _)| s == v) {
                seen.push((v.clone(), seen_by(v)));
            }
        };
        for piece in &pieces {
            match piece {
                crate::eval::Piece::Value(crate::value::Value::List(items)) => {
                    items.iter().for_each(&mut note)
                }
                crate::eval::Piece::Value(v) => note(v),
                crate::eval::Piece::Text(_) => {}
            }
        }
        if seen.is_empty() {
            return self.write(line);
        }
        self.write_noted(line, |line| Secret::Named { line, pieces, seen });
    }
    fn write_noted(&mut self, line: String, secret: impl FnOnce(usize) -> Secret) {
        let before = match &self.sink {
            Sink::On(lines) => lines.len(),
            _ => return,
        };
        self.write(line);
        let written = matches!(&self.sink, Sink::On(lines) if lines.len() > before);
        if let (true, Some(secrets)) = (written, self.secrets.as_deref_mut()) {
            secrets.push(secret(before));
        }
    }
    /// Whether it collects `rule:` references.
    pub(super) fn is_covering(&self) -> bool {
        matches!(self.sink, Sink::Rules(_))
    }
    #[inline]
    pub(super) fn cover(&mut self, rule: &RuleRef) {
        if let (Sink::Rules(seen), Some(rule)) = (&mut self.sink, rule) {
            if !seen.contains(rule) {
                seen.insert(rule.clone());
            }
        }
    }
}
