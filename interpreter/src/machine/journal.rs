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
        }
    }

    /// The log's lines appended to `lines`.
    pub fn on(lines: &'a mut Vec<String>) -> Self {
        Journal {
            sink: Sink::On(lines),
            written: 0,
        }
    }

    /// No log: the `rule:` references of the statements, procedures and options that run
    /// are collected instead (`frontier check --coverage`).
    pub fn rules(seen: &'a mut std::collections::BTreeSet<Arc<str>>) -> Self {
        Journal {
            sink: Sink::Rules(seen),
            written: 0,
        }
    }
}

impl Journal<'_> {
    pub(super) fn is_on(&self) -> bool {
        matches!(self.sink, Sink::On(_)) && self.written <= MAX_LOG_BYTES
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
