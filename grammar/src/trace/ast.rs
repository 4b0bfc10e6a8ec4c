//! What a parsed trace holds: a header describing the game, then its steps in order.

use std::sync::Arc;

use crate::LineCol;

/// One recorded game (or scenario): the header, then the body's steps in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    pub header: Header,
    pub body: Vec<Line>,
}

/// The header: which game to set up and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The `frontier-trace` format version, when the trace states it (only 1 exists).
    pub version: Option<u32>,
    pub ruleset: RulesetRef,
    /// Path of a variant file, as written.
    pub variant: Option<String>,
    /// Player names in seat order; at least one, all distinct.
    pub players: Vec<String>,
    /// `param` lines in the order written; names are distinct.
    pub params: Vec<(String, i64)>,
    /// `None` when the trace has no seed (every chance outcome must then be recorded).
    pub seed: Option<u64>,
    pub start: Start,
    /// Where each header line was written, for reporting problems with its value.
    pub header_lines: HeaderLines,
}

/// The 1-based line and column of each header line; `None` for lines the trace did not
/// contain (or for a trace built in code rather than parsed).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeaderLines {
    pub version: Option<LineCol>,
    pub ruleset: Option<LineCol>,
    pub variant: Option<LineCol>,
    pub players: Option<LineCol>,
    /// One entry per `param` line, in the order of `Header::params`.
    pub params: Vec<LineCol>,
    pub seed: Option<LineCol>,
    pub start: Option<LineCol>,
}

/// The ruleset a trace plays: one embedded in Frontier by name, or a folder or file path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesetRef {
    Name(String),
    Path(String),
}

/// Where the game starts: the ruleset's own setup, or a saved position file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Start {
    #[default]
    Setup,
    Position(String),
}

/// One step of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line of the step in the trace text (0 for a step built in code).
    pub line: usize,
    /// 1-based column (in characters) where the step starts.
    pub column: usize,
    /// The rulebook reference set by the closest `rule` line above, if any: one text
    /// shared by every step under that line.
    pub rule: Option<Arc<str>>,
    pub kind: LineKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    /// A player chose the option with this label.
    Decision { player: String, label: String },
    /// A chance point resolved to the outcome with this label.
    Chance { label: String },
    /// An expression that must hold at this point, kept as written.
    Assert {
        source: String,
        /// Byte offset of `source` in the whole trace text, to place expression errors.
        offset: usize,
        /// 1-based column (in characters) of `source`'s first character in its line (0 for
        /// a step built in code): an expression error at byte `b` of `source` stands at
        /// this column plus the characters of `source[..b]`.
        column: usize,
    },
    /// The value of an expression here, kept under a name that later assertions and
    /// captures read (`let before = tokens[red]`).
    Let {
        name: String,
        source: String,
        /// Byte offset of `source` in the whole trace text, to place expression errors.
        offset: usize,
        /// 1-based column of `source` in its line, as for `Assert` (0 for a step built in
        /// code).
        column: usize,
    },
    /// The game is over here; the listed players have these final scores.
    ExpectOver { scores: Vec<(String, i64)> },
    /// The player decides here and this option is not legal; the trace goes on.
    Reject { player: String, label: String },
    /// The player decides here and the legal options are exactly these, in any order
    /// (or include them all, or include none of them: `listed`).
    ExpectOptions {
        player: String,
        labels: Vec<String>,
        listed: Listed,
    },
    /// A chance point is here, and this outcome is not one of its possible outcomes.
    RejectChance { label: String },
    /// The trace's seed draws the chance points where the game stops: `count` of them, or
    /// all of them up to the next decision or the end.
    ChanceBySeed { count: Option<u32> },
    /// A chance point is here, and its outcomes are exactly these, each with this
    /// probability, in any order.
    ExpectChance { outcomes: Vec<(String, Ratio)> },
    /// The game is over and the listed players have these returns (`outcome:`).
    ExpectReturns { returns: Vec<(String, Ratio)> },
    /// The game is over and exactly these players share rank 1.
    ExpectWinner { players: Vec<String> },
    /// The game is over and drawn: every return is equal (`outcome:`).
    ExpectDraw,
    /// The game is over and the listed players have these ranks (1 = first; equal ranks
    /// are shared places).
    ExpectRanking { ranks: Vec<(String, u32)> },
}

/// An exact number a trace writes (`-1`, `0.5`, `1/3`): a fraction in lowest terms with
/// a positive denominator, so that equal numbers are equal values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    numerator: i128,
    denominator: i128,
}

impl Ratio {
    /// `numerator / denominator`, none when the denominator is 0.
    pub fn new(numerator: i128, denominator: i128) -> Option<Ratio> {
        if denominator == 0 {
            return None;
        }
        let g = gcd(numerator.unsigned_abs(), denominator.unsigned_abs()) as i128;
        let sign = denominator.signum();
        Some(Ratio {
            numerator: sign * numerator / g,
            denominator: sign * denominator / g,
        })
    }

    pub fn numerator(self) -> i128 {
        self.numerator
    }

    pub fn denominator(self) -> i128 {
        self.denominator
    }

    /// Reads `-1`, `0.5` or `1/3` (up to 18 digits in each part).
    pub fn parse(text: &str) -> Option<Ratio> {
        let digits = |t: &str| -> Option<i128> {
            (!t.is_empty() && t.len() <= 18 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse().ok())
                .flatten()
        };
        let (negative, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let sign = if negative { -1 } else { 1 };
        if let Some((whole, fraction)) = body.split_once('.') {
            let scale = 10i128.pow(fraction.len() as u32);
            let n = digits(whole)? * scale + digits(fraction)?;
            return Ratio::new(sign * n, scale);
        }
        if let Some((n, d)) = body.split_once('/') {
            return Ratio::new(sign * digits(n)?, digits(d)?);
        }
        Ratio::new(sign * digits(body)?, 1)
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// `3`, `-1/2`: whole numbers without a denominator.
impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.denominator == 1 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator)
        }
    }
}

/// How the labels of `expect options` relate to the legal options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// `expect options p: …`: exactly these are legal.
    Exactly,
    /// `expect options p include: …`: these are legal, and maybe others.
    Include,
    /// `expect options p exclude: …`: none of these is legal.
    Exclude,
}
