//! Puts parsed statements together into a `Trace`, checking what the grammar cannot:
//! header lines come first and at most once, names are distinct, steps name known players.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::ast::{Header, HeaderLines, Line, LineKind, RulesetRef, Start, Trace};
use super::parser::{Problem, Statement, StatementKind, TraceError, Word, KEYWORDS};
use crate::{shown, shown_list, LineCol};

/// The most problems one trace reports; past them, one more line says how many are left
/// out. A trace of many bad lines would otherwise print without end.
pub const MAX_TRACE_ERRORS: usize = 200;

pub(super) struct Assembler<'t> {
    index: LineIndex<'t>,
    header: HeaderDraft,
    body: Vec<Line>,
    /// The reference set by the latest `rule` line, shared by the steps under it.
    rule: Option<Arc<str>>,
    /// The line of the first body line, once there is one.
    first_step: Option<usize>,
    /// Whether a missing `ruleset` or `players` line has already been reported.
    missing_header_reported: bool,
    /// Whether any line other than blanks and comments has been seen.
    seen_statement: bool,
    /// Keywords of lines that could not be read, so they are not also reported missing.
    attempted: Vec<&'static str>,
    /// The players (once the `players` line is read), to look each name up at once.
    seated: HashSet<String>,
    /// Each `param` line's name, with its place in `Header::params`.
    param_index: HashMap<String, usize>,
    errors: Vec<TraceError>,
    /// Problems past [`MAX_TRACE_ERRORS`]: how many, and where the first stands.
    left_out: usize,
    first_left_out: Option<LineCol>,
}

/// The header as it is being read: required lines may still be missing.
#[derive(Default)]
struct HeaderDraft {
    version: Option<u32>,
    ruleset: Option<RulesetRef>,
    variant: Option<String>,
    players: Option<Vec<String>>,
    params: Vec<(String, i64)>,
    seed: Option<u64>,
    start: Start,
    lines: HeaderLines,
}

impl<'t> Assembler<'t> {
    pub fn new(text: &'t str) -> Self {
        Assembler {
            index: LineIndex::new(text),
            header: HeaderDraft::default(),
            body: Vec::new(),
            rule: None,
            first_step: None,
            missing_header_reported: false,
            seen_statement: false,
            attempted: Vec::new(),
            seated: HashSet::new(),
            param_index: HashMap::new(),
            errors: Vec::new(),
            left_out: 0,
            first_left_out: None,
        }
    }

    /// Records a line that could not be read.
    pub fn reject(&mut self, problem: Problem) {
        self.seen_statement = true;
        self.report(problem.at, problem.message);
    }

    /// Notes that a line with this keyword was written, though it could not be read.
    pub fn note_attempt(&mut self, keyword: &'static str) {
        self.attempted.push(keyword);
    }

    pub fn add(&mut self, statement: Statement<'t>) {
        use StatementKind as K;

        let is_first = !std::mem::replace(&mut self.seen_statement, true);
        let at = statement.at;
        match statement.kind {
            K::Version(_) if !is_first => self.report(
                at,
                "the 'frontier-trace' line must come first (only comments may precede it)"
                    .to_string(),
            ),
            K::Version(version) => self.version(at, version),
            K::Ruleset(ruleset) => {
                if self.place_header("ruleset", at, |lines| &mut lines.ruleset) {
                    self.header.ruleset = Some(ruleset);
                }
            }
            K::Variant(path) => {
                if self.place_header("variant", at, |lines| &mut lines.variant) {
                    self.header.variant = Some(path);
                }
            }
            K::Players(names) => self.players(at, names),
            K::Param(name, value) => self.param(at, name, value),
            K::Seed(seed) => {
                if self.place_header("seed", at, |lines| &mut lines.seed) {
                    self.header.seed = seed;
                }
            }
            K::Start(start) => {
                if self.place_header("start", at, |lines| &mut lines.start) {
                    self.header.start = start;
                }
            }
            K::Rule(reference) => {
                self.start_body(at);
                self.rule = reference.map(Arc::from);
            }
            K::Decision { player, label } => {
                if self.start_body(at) && self.is_player(&player) {
                    let player = player.text.to_string();
                    self.push_step(at, LineKind::Decision { player, label });
                }
            }
            K::Chance { label } => {
                if self.start_body(at) {
                    self.push_step(at, LineKind::Chance { label });
                }
            }
            K::Assert { source, offset } => {
                if self.start_body(at) {
                    let column = self.index.line_col(offset).column;
                    self.push_step(
                        at,
                        LineKind::Assert {
                            source,
                            offset,
                            column,
                        },
                    );
                }
            }
            K::Let {
                name,
                source,
                offset,
            } => {
                if self.start_body(at) {
                    let name = name.text.to_string();
                    let column = self.index.line_col(offset).column;
                    self.push_step(
                        at,
                        LineKind::Let {
                            name,
                            source,
                            offset,
                            column,
                        },
                    );
                }
            }
            K::ExpectOver(scores) => self.expect_over(at, scores),
            K::Reject { player, label } => {
                if self.start_body(at) && self.is_player(&player) {
                    let player = player.text.to_string();
                    self.push_step(at, LineKind::Reject { player, label });
                }
            }
            K::ExpectOptions {
                player,
                labels,
                listed,
            } => {
                if self.start_body(at) && self.is_player(&player) {
                    let player = player.text.to_string();
                    let kind = LineKind::ExpectOptions {
                        player,
                        labels,
                        listed,
                    };
                    self.push_step(at, kind);
                }
            }
            K::RejectChance { label } => {
                if self.start_body(at) {
                    self.push_step(at, LineKind::RejectChance { label });
                }
            }
            K::ChanceBySeed { count } => {
                if self.start_body(at) {
                    self.push_step(at, LineKind::ChanceBySeed { count });
                }
            }
            K::ExpectDraw => {
                if self.start_body(at) {
                    self.push_step(at, LineKind::ExpectDraw);
                }
            }
            K::ExpectWinner(names) => {
                if !self.start_body(at) {
                    return;
                }
                let Some(players) = self.distinct_players(names, "winner") else {
                    return;
                };
                self.push_step(at, LineKind::ExpectWinner { players });
            }
            K::ExpectChance(outcomes) => {
                if self.start_body(at) {
                    self.push_step(at, LineKind::ExpectChance { outcomes });
                }
            }
            K::ExpectReturns(shares) => {
                if !self.start_body(at) {
                    return;
                }
                let (names, values): (Vec<_>, Vec<_>) = shares.into_iter().unzip();
                let Some(players) = self.distinct_players(names, "return") else {
                    return;
                };
                let returns = players.into_iter().zip(values).collect();
                self.push_step(at, LineKind::ExpectReturns { returns });
            }
            K::ExpectRanking(places) => {
                if !self.start_body(at) {
                    return;
                }
                let (names, ranks): (Vec<_>, Vec<_>) = places.into_iter().unzip();
                let Some(players) = self.distinct_players(names, "rank") else {
                    return;
                };
                let ranks = players.into_iter().zip(ranks).collect();
                self.push_step(at, LineKind::ExpectRanking { ranks });
            }
        }
    }

    /// The trace, or every problem found, in text order.
    pub fn finish(mut self) -> Result<Trace, Vec<TraceError>> {
        if !self.missing_header_reported {
            if let Some(missing) = self.missing_header() {
                self.report(0, missing.to_string());
            }
        }
        if !self.errors.is_empty() {
            self.errors.sort_by_key(|error| (error.line, error.column));
            if let Some(at) = self.first_left_out {
                self.errors.push(TraceError {
                    line: at.line,
                    column: at.column,
                    message: format!(
                        "and {} more problem{} from here on, left out past the first {MAX_TRACE_ERRORS}: mend these first",
                        self.left_out,
                        if self.left_out == 1 { "" } else { "s" }
                    ),
                });
            }
            return Err(self.errors);
        }
        let draft = self.header;
        match (draft.ruleset, draft.players) {
            (Some(ruleset), Some(players)) => Ok(Trace {
                header: Header {
                    version: draft.version,
                    ruleset,
                    variant: draft.variant,
                    players,
                    params: draft.params,
                    seed: draft.seed,
                    start: draft.start,
                    header_lines: draft.lines,
                },
                body: self.body,
            }),
            // Unreachable: a missing line was reported above.
            _ => Err(self.errors),
        }
    }

    /// The `frontier-trace` line, first in the file.
    fn version(&mut self, at: usize, version: u32) {
        if version != 1 {
            self.report(
                at,
                format!("unsupported trace format version {version} (only version 1 exists)"),
            );
        } else {
            self.header.version = Some(version);
            self.header.lines.version = Some(self.index.line_col(at));
        }
    }

    fn players(&mut self, at: usize, names: Vec<Word<'t>>) {
        if !self.place_header("players", at, |lines| &mut lines.players) {
            return;
        }
        let mut players: Vec<String> = Vec::new();
        let mut problem = None;
        for name in names {
            if KEYWORDS.contains(&name.text) {
                problem.get_or_insert((
                    name.at,
                    format!("'{}' cannot be a player name: it is a keyword", name.text),
                ));
            } else if !self.seated.insert(name.text.to_string()) {
                problem.get_or_insert((
                    name.at,
                    format!("player '{}' is listed twice", shown(name.text)),
                ));
            } else {
                players.push(name.text.to_string());
            }
        }
        if let Some((at, message)) = problem {
            self.report(at, message);
        }
        // Keep the valid names so later steps are still checked against them.
        self.header.players = Some(players);
    }

    fn param(&mut self, at: usize, name: Word<'t>, value: i64) {
        if self.is_after_body("param", at) {
            return;
        }
        if let Some(&first) = self.param_index.get(name.text) {
            let first_line = self.header.lines.params.get(first).map_or(0, |at| at.line);
            let message = format!(
                "parameter '{}' is set twice (first on line {first_line})",
                shown(name.text)
            );
            self.report(name.at, message);
            return;
        }
        self.param_index
            .insert(name.text.to_string(), self.header.params.len());
        self.header.params.push((name.text.to_string(), value));
        self.header.lines.params.push(self.index.line_col(at));
    }

    fn expect_over(&mut self, at: usize, scores: Vec<(Word<'t>, i64)>) {
        if !self.start_body(at) {
            return;
        }
        let mut recorded: Vec<(String, i64)> = Vec::new();
        let mut seen = HashSet::new();
        for (name, value) in scores {
            if !self.is_player(&name) {
                return;
            }
            if !seen.insert(name.text) {
                let message = format!("score for '{}' is given twice", shown(name.text));
                self.report(name.at, message);
                return;
            }
            recorded.push((name.text.to_string(), value));
        }
        self.push_step(at, LineKind::ExpectOver { scores: recorded });
    }

    /// The names as players, each at most once; `None` after reporting the first problem.
    fn distinct_players(&mut self, names: Vec<Word<'t>>, what: &str) -> Option<Vec<String>> {
        let mut players: Vec<String> = Vec::new();
        let mut seen = HashSet::new();
        for name in names {
            if !self.is_player(&name) {
                return None;
            }
            if !seen.insert(name.text) {
                self.report(
                    name.at,
                    format!("{what} for '{}' is given twice", shown(name.text)),
                );
                return None;
            }
            players.push(name.text.to_string());
        }
        Some(players)
    }

    /// Notes where a single-use header line is; false (after reporting why) if it is
    /// misplaced or repeats an earlier one.
    fn place_header(
        &mut self,
        keyword: &str,
        at: usize,
        slot: impl Fn(&mut HeaderLines) -> &mut Option<LineCol>,
    ) -> bool {
        if self.is_after_body(keyword, at) {
            return false;
        }
        if let Some(first) = *slot(&mut self.header.lines) {
            self.report(
                at,
                format!("duplicate '{keyword}' line (first on line {})", first.line),
            );
            return false;
        }
        *slot(&mut self.header.lines) = Some(self.index.line_col(at));
        true
    }

    /// Reports (and returns true) if the body has already started.
    fn is_after_body(&mut self, keyword: &str, at: usize) -> bool {
        let Some(first_step) = self.first_step else {
            return false;
        };
        let message = format!(
            "'{keyword}' is a header line: header lines must come before the first step (line {first_step})"
        );
        self.report(at, message);
        true
    }

    /// Marks the start of the body; false (after reporting it) if the header is then
    /// still missing required lines.
    fn start_body(&mut self, at: usize) -> bool {
        if self.first_step.is_some() {
            return true;
        }
        self.first_step = Some(self.index.line_col(at).line);
        match self.missing_header() {
            Some(missing) => {
                self.missing_header_reported = true;
                self.report(at, format!("{missing} before the first step"));
                false
            }
            None => true,
        }
    }

    /// Reports (and returns false) if the name is not one of the players. Without a
    /// `players` line there is nothing to check against: that is reported on its own.
    fn is_player(&mut self, name: &Word<'t>) -> bool {
        let Some(players) = &self.header.players else {
            return true;
        };
        if self.seated.contains(name.text) {
            return true;
        }
        let message = format!(
            "unknown player '{}' (players are {})",
            shown(name.text),
            shown_list(players, ", ")
        );
        self.report(name.at, message);
        false
    }

    fn missing_header(&self) -> Option<&'static str> {
        let is_missing = |present: bool, keyword| !present && !self.attempted.contains(&keyword);
        let ruleset = is_missing(self.header.ruleset.is_some(), "ruleset");
        let players = is_missing(self.header.players.is_some(), "players");
        match (ruleset, players) {
            (true, true) => Some("missing 'ruleset' and 'players' lines"),
            (true, false) => Some("missing 'ruleset' line"),
            (false, true) => Some("missing 'players' line"),
            (false, false) => None,
        }
    }

    fn push_step(&mut self, at: usize, kind: LineKind) {
        let LineCol { line, column } = self.index.line_col(at);
        let rule = self.rule.clone();
        self.body.push(Line {
            line,
            column,
            rule,
            kind,
        });
    }

    fn report(&mut self, at: usize, message: String) {
        let LineCol { line, column } = self.index.line_col(at);
        if self.errors.len() >= MAX_TRACE_ERRORS {
            self.left_out += 1;
            self.first_left_out.get_or_insert(LineCol { line, column });
            return;
        }
        self.errors.push(TraceError {
            line,
            column,
            message,
        });
    }
}

/// Converts byte offsets to line:column without rescanning the text each time.
struct LineIndex<'t> {
    text: &'t str,
    /// Byte offset where each line starts.
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        LineIndex { text, starts }
    }

    /// Same result as `LineCol::of`: offsets past the end or inside a character are
    /// moved back to the nearest character start.
    fn line_col(&self, offset: usize) -> LineCol {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        // `starts[0]` is 0, so at least one line starts at or before `offset`.
        let line = self.starts.partition_point(|&start| start <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |before| before.chars().count())
            + 1;
        LineCol { line, column }
    }
}
