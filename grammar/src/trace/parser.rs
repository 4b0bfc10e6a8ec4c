//! Reads trace text line by line with the pest grammar (`trace.pest`) and hands each
//! statement to the assembler, which checks how the lines fit together.

use std::fmt;
use std::str::FromStr;

use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

use super::assemble::Assembler;
use super::ast::{Listed, Ratio, RulesetRef, Start, Trace};
use super::diagnose::{explain_invalid, keyword_of};

#[derive(Parser)]
#[grammar = "trace/trace.pest"]
pub(super) struct TraceParser;

/// Words that start lines, so they cannot be player names.
pub(super) const KEYWORDS: [&str; 13] = [
    "frontier-trace",
    "ruleset",
    "variant",
    "players",
    "param",
    "seed",
    "start",
    "rule",
    "chance",
    "assert",
    "let",
    "expect",
    "reject",
];

/// A problem in a trace, at a 1-based line and column (columns count characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for TraceError {}

/// A problem found while reading one line, at a byte offset into the trace text.
pub(super) struct Problem {
    pub at: usize,
    pub message: String,
}

/// A name as written, with the byte offset where it starts.
#[derive(Clone, Copy)]
pub(super) struct Word<'t> {
    pub text: &'t str,
    pub at: usize,
}

/// One recognised line, starting at byte offset `at`.
pub(super) struct Statement<'t> {
    pub at: usize,
    pub kind: StatementKind<'t>,
}

pub(super) enum StatementKind<'t> {
    Version(u32),
    Ruleset(RulesetRef),
    Variant(String),
    Players(Vec<Word<'t>>),
    Param(Word<'t>, i64),
    Seed(Option<u64>),
    Start(Start),
    /// `None` for `rule ""`, which clears the reference.
    Rule(Option<String>),
    Decision {
        player: Word<'t>,
        label: String,
    },
    Chance {
        label: String,
    },
    Assert {
        source: String,
        offset: usize,
    },
    Let {
        name: Word<'t>,
        source: String,
        offset: usize,
    },
    ExpectOver(Vec<(Word<'t>, i64)>),
    Reject {
        player: Word<'t>,
        label: String,
    },
    ExpectOptions {
        player: Word<'t>,
        labels: Vec<String>,
        listed: Listed,
    },
    RejectChance {
        label: String,
    },
    ChanceBySeed {
        count: Option<u32>,
    },
    ExpectWinner(Vec<Word<'t>>),
    ExpectDraw,
    ExpectRanking(Vec<(Word<'t>, u32)>),
    ExpectChance(Vec<(String, Ratio)>),
    ExpectReturns(Vec<(Word<'t>, Ratio)>),
}

/// Parses a whole trace.
///
/// # Errors
///
/// Every problem found, in text order: one per bad line, plus missing header lines.
pub fn parse(text: &str) -> Result<Trace, Vec<TraceError>> {
    let mut assembler = Assembler::new(text);
    match TraceParser::parse(Rule::trace, text) {
        Ok(pairs) => {
            for pair in pairs.flat_map(Pair::into_inner) {
                match pair.as_rule() {
                    Rule::EOI | Rule::gap => {}
                    Rule::invalid => {
                        let line = pair.as_str();
                        if let Some(keyword) = keyword_of(line) {
                            assembler.note_attempt(keyword);
                        }
                        assembler.reject(explain_invalid(line, pair.as_span().start()));
                    }
                    _ => match read_statement(pair) {
                        Ok(statement) => assembler.add(statement),
                        Err(problem) => assembler.reject(problem),
                    },
                }
            }
        }
        // The grammar accepts any text (a bad line is `invalid`), so this is only a
        // safety net: report it rather than panic.
        Err(error) => assembler.reject(Problem {
            at: error_offset(&error),
            message: "this trace cannot be read".to_string(),
        }),
    }
    assembler.finish()
}

/// The byte offset a pest error points at.
pub(super) fn error_offset(error: &pest::error::Error<Rule>) -> usize {
    match error.location {
        pest::error::InputLocation::Pos(at) => at,
        pest::error::InputLocation::Span((start, _)) => start,
    }
}

fn read_statement(pair: Pair<'_, Rule>) -> Result<Statement<'_>, Problem> {
    use StatementKind as K;

    let at = pair.as_span().start();
    let rule = pair.as_rule();
    let parts = meaningful_parts(pair);
    let kind = match (rule, parts.as_slice()) {
        (Rule::version_line, [version]) => K::Version(number(version)?),
        (Rule::ruleset_line, [name]) if name.as_rule() == Rule::name => {
            K::Ruleset(RulesetRef::Name(name.as_str().to_string()))
        }
        (Rule::ruleset_line, [path]) => K::Ruleset(RulesetRef::Path(unquote(path))),
        (Rule::variant_line, [path]) => K::Variant(unquote(path)),
        (Rule::players_line, names) => K::Players(names.iter().map(word).collect()),
        (Rule::param_line, [name, value]) => K::Param(word(name), number(value)?),
        (Rule::seed_line, [seed]) if seed.as_rule() == Rule::none => K::Seed(None),
        (Rule::seed_line, [seed]) => K::Seed(Some(number(seed)?)),
        (Rule::start_line, [start]) if start.as_rule() == Rule::setup => K::Start(Start::Setup),
        (Rule::start_line, [path]) => K::Start(Start::Position(unquote(path))),
        (Rule::rule_line, [reference]) if reference.as_rule() == Rule::reference => {
            K::Rule(Some(reference.as_str().to_string()))
        }
        (Rule::rule_line, [quoted]) => K::Rule(Some(unquote(quoted)).filter(|r| !r.is_empty())),
        (Rule::decision_line, [player, label]) => K::Decision {
            player: word(player),
            label: trim_blanks(label.as_str()).to_string(),
        },
        (Rule::chance_line, [label]) => K::Chance {
            label: trim_blanks(label.as_str()).to_string(),
        },
        (Rule::seeded_line, []) => K::ChanceBySeed { count: None },
        (Rule::seeded_line, [count]) => K::ChanceBySeed {
            count: Some(count.as_str().parse().map_err(|_| Problem {
                at,
                message: "the number of chance points is too large".to_string(),
            })?),
        },
        (Rule::assert_line, [expression]) => {
            let written = expression.as_str();
            let source = trim_blanks(written);
            // The expression may start after blanks; point at its first character.
            let leading = written.len() - written.trim_start_matches(BLANKS).len();
            K::Assert {
                source: source.to_string(),
                offset: expression.as_span().start() + leading,
            }
        }
        (Rule::let_line, [name, expression]) => {
            let written = expression.as_str();
            let leading = written.len() - written.trim_start_matches(BLANKS).len();
            K::Let {
                name: word(name),
                source: trim_blanks(written).to_string(),
                offset: expression.as_span().start() + leading,
            }
        }
        (Rule::reject_line, [chance, label]) if chance.as_rule() == Rule::outcomes => {
            K::RejectChance {
                label: trim_blanks(label.as_str()).to_string(),
            }
        }
        (Rule::reject_line, [player, label]) => K::Reject {
            player: word(player),
            label: trim_blanks(label.as_str()).to_string(),
        },
        (Rule::expect_line, _) => expectation(parts)?,
        _ => {
            return Err(Problem {
                at,
                message: "this line cannot be read".to_string(),
            })
        }
    };
    Ok(Statement { at, kind })
}

/// An `expect` line: its parts start with the word after `expect`.
fn expectation(parts: Vec<Pair<'_, Rule>>) -> Result<StatementKind<'_>, Problem> {
    use StatementKind as K;

    let (first, rest) = match parts.split_first() {
        Some((first, rest)) => (first.as_rule(), rest),
        None => (Rule::over, &[][..]),
    };
    Ok(match (first, rest) {
        (Rule::winner, names) => K::ExpectWinner(names.iter().map(word).collect()),
        (Rule::draw, []) => K::ExpectDraw,
        (Rule::ranking, places) => {
            K::ExpectRanking(places.iter().map(place).collect::<Result<_, _>>()?)
        }
        (Rule::options, [player, label]) => K::ExpectOptions {
            player: word(player),
            labels: label_list(label)?,
            listed: Listed::Exactly,
        },
        (Rule::options, [player, which, label]) => K::ExpectOptions {
            player: word(player),
            labels: label_list(label)?,
            listed: if which.as_rule() == Rule::include {
                Listed::Include
            } else {
                Listed::Exclude
            },
        },
        (Rule::outcomes, [list]) => K::ExpectChance(chance_list(list)?),
        (Rule::returns, shares) => {
            K::ExpectReturns(shares.iter().map(share).collect::<Result<_, _>>()?)
        }
        (_, scores) => K::ExpectOver(scores.iter().map(score).collect::<Result<_, _>>()?),
    })
}

/// The labels of `expect options`, separated by commas. A label in double quotes may hold
/// commas; the quotes are not part of it.
fn label_list(pair: &Pair<'_, Rule>) -> Result<Vec<String>, Problem> {
    // With ',' as what may follow a closing quote, nothing else can.
    Ok(list_entries(pair, ',')?
        .into_iter()
        .map(|(label, _, _)| label)
        .collect())
}

/// The outcomes of `expect chance`: `label=probability`, separated by commas; a label in
/// double quotes may hold commas (`"x(0,2)"=1/2`).
fn chance_list(pair: &Pair<'_, Rule>) -> Result<Vec<(String, Ratio)>, Problem> {
    let bad = |at, entry: &str| {
        Problem {
        at,
        message: format!(
            "expected an outcome and its probability, such as 3=1/6 or \"x(0,2)\"=0.5, found '{entry}'"
        ),
    }
    };
    let mut outcomes = Vec::new();
    for (label, rest, at) in list_entries(pair, '=')? {
        // Unquoted, the probability follows the last '=' of the entry.
        let (label, probability) = match rest.strip_prefix('=') {
            Some(p) => (label, p.to_string()),
            None => match label.rsplit_once('=') {
                Some((l, p)) => (trim_blanks(l).to_string(), p.to_string()),
                None => return Err(bad(at, &label)),
            },
        };
        match Ratio::parse(trim_blanks(&probability)) {
            Some(p)
                if !label.is_empty() && p.numerator() >= 0 && p.numerator() <= p.denominator() =>
            {
                outcomes.push((label, p));
            }
            _ => return Err(bad(at, &format!("{label}={probability}"))),
        }
    }
    Ok(outcomes)
}

/// The comma-separated entries of a list, each as (text, what follows its closing quote,
/// byte offset). An entry that starts with '"' is quoted up to the first '"' followed by
/// blanks and then the end of the entry (a comma or the end of the list) or `after`; any
/// other entry runs to the next comma, without the blanks around it.
fn list_entries(
    pair: &Pair<'_, Rule>,
    after: char,
) -> Result<Vec<(String, String, usize)>, Problem> {
    let text = pair.as_str();
    let start = pair.as_span().start();
    let mut entries = Vec::new();
    let mut pos = 0;
    loop {
        let rest = &text[pos..];
        let lead = rest.len() - rest.trim_start_matches(BLANKS).len();
        let at = pos + lead;
        let body = &text[at..];
        let closing = body.strip_prefix('"').and_then(|inner| {
            inner.match_indices('"').map(|(i, _)| i).find(|&i| {
                let tail = inner[i + 1..].trim_start_matches(BLANKS);
                tail.is_empty() || tail.starts_with(',') || tail.starts_with(after)
            })
        });
        let (entry, tail_at) = match closing {
            Some(i) => (body[1..1 + i].to_string(), at + i + 2),
            None => {
                let end = body.find(',').map_or(text.len(), |c| at + c);
                (trim_blanks(&text[at..end]).to_string(), end)
            }
        };
        let comma = text[tail_at..].find(',').map(|c| tail_at + c);
        let tail = trim_blanks(&text[tail_at..comma.unwrap_or(text.len())]).to_string();
        if entry.is_empty() {
            return Err(Problem {
                at: start + at,
                message: "expected a label between commas".to_string(),
            });
        }
        entries.push((entry, tail, start + at));
        match comma {
            Some(c) => pos = c + 1,
            None => return Ok(entries),
        }
    }
}

/// One return of `expect returns`: `p1=-1/2`.
fn share<'t>(pair: &Pair<'t, Rule>) -> Result<(Word<'t>, Ratio), Problem> {
    let parts = meaningful_parts(pair.clone());
    let bad = |at| Problem {
        at,
        message: "expected a return such as p1=1, p2=-0.5 or p3=1/3".to_string(),
    };
    match parts.as_slice() {
        [name, value] => match Ratio::parse(value.as_str()) {
            Some(r) => Ok((word(name), r)),
            None => Err(bad(value.as_span().start())),
        },
        _ => Err(bad(pair.as_span().start())),
    }
}

/// The parts of a line that carry values, without the separators between them.
fn meaningful_parts(pair: Pair<'_, Rule>) -> Vec<Pair<'_, Rule>> {
    pair.into_inner()
        .filter(|part| !matches!(part.as_rule(), Rule::gap | Rule::colon | Rule::equals))
        .collect()
}

/// The text between the quotes of a `quoted` token.
fn unquote(pair: &Pair<'_, Rule>) -> String {
    let quoted = pair.as_str();
    let inner = quoted
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'));
    inner.unwrap_or(quoted).to_string()
}

/// The characters the grammar treats as blanks.
pub(super) const BLANKS: [char; 3] = [' ', '\t', '\r'];

fn trim_blanks(text: &str) -> &str {
    text.trim_matches(BLANKS)
}

fn word<'t>(pair: &Pair<'t, Rule>) -> Word<'t> {
    Word {
        text: pair.as_str(),
        at: pair.as_span().start(),
    }
}

fn score<'t>(pair: &Pair<'t, Rule>) -> Result<(Word<'t>, i64), Problem> {
    let parts = meaningful_parts(pair.clone());
    match parts.as_slice() {
        [name, value] => Ok((word(name), number(value)?)),
        _ => Err(Problem {
            at: pair.as_span().start(),
            message: "expected a score such as red=12".to_string(),
        }),
    }
}

fn place<'t>(pair: &Pair<'t, Rule>) -> Result<(Word<'t>, u32), Problem> {
    let parts = meaningful_parts(pair.clone());
    match parts.as_slice() {
        [name, value] => {
            let rank: u32 = number(value)?;
            if rank == 0 {
                return Err(Problem {
                    at: value.as_span().start(),
                    message: "ranks start at 1".to_string(),
                });
            }
            Ok((word(name), rank))
        }
        _ => Err(Problem {
            at: pair.as_span().start(),
            message: "expected a rank such as red=1".to_string(),
        }),
    }
}

/// Reads digits the grammar already checked; the only way this fails is a number past
/// what the line's field holds, which the message gives.
fn number<T: Ranged>(pair: &Pair<'_, Rule>) -> Result<T, Problem> {
    pair.as_str().parse().map_err(|_| Problem {
        at: pair.as_span().start(),
        message: format!("number out of range: {} here", T::RANGE),
    })
}

/// The kinds of number a trace line holds, and their range in words.
trait Ranged: FromStr {
    const RANGE: &'static str;
}

impl Ranged for u32 {
    const RANGE: &'static str = "from 0 to 4294967295";
}

impl Ranged for u64 {
    const RANGE: &'static str = "from 0 to 18446744073709551615";
}

impl Ranged for i64 {
    const RANGE: &'static str = "from -9223372036854775808 to 9223372036854775807";
}
