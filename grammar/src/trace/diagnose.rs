//! Explains a line the grammar did not recognise, in terms of the line it seems meant to be.

use pest::Parser as _;

use super::parser::{error_offset, Problem, Rule, TraceParser, BLANKS, KEYWORDS};

/// The problem with `line` (an `invalid` line starting at byte offset `at`, blanks
/// before it already skipped), placed where the line stops making sense.
pub(super) fn explain_invalid(line: &str, at: usize) -> Problem {
    let word = leading_word(line);
    match what_is_missing(line, word) {
        Some(message) => Problem {
            at: at + failure_offset(line),
            message,
        },
        None => Problem {
            at,
            message: unrecognised(line, word),
        },
    }
}

/// What a line that starts like a known kind of line lacks; `None` if it looks like none.
fn what_is_missing(line: &str, word: &str) -> Option<String> {
    let colon_follows = line[word.len()..]
        .trim_start_matches(BLANKS)
        .starts_with(':');
    if let Some(form) = expected_form(word) {
        // Labels and expressions may hold any quotes; other lines only pairs of them.
        let holds_text = matches!(word, "assert" | "chance" | "reject" | "let");
        let message = if !holds_text && line.matches('"').count() % 2 == 1 {
            "missing closing '\"'"
        } else if word == "chance" && colon_follows {
            "missing outcome after 'chance:'"
        } else {
            form
        };
        return Some(message.to_string());
    }
    if word.is_empty() || !colon_follows {
        return None;
    }
    Some(if is_name(word) {
        format!("missing option label after '{word}:'")
    } else {
        format!(
            "'{word}' is not a player name (names start with a letter or '_' and hold \
             letters, digits, '_' and '-')"
        )
    })
}

/// The keyword a line starts with, if any.
pub(super) fn keyword_of(line: &str) -> Option<&'static str> {
    let word = leading_word(line);
    KEYWORDS.into_iter().find(|keyword| *keyword == word)
}

/// The leading run of name characters (which includes every keyword).
fn leading_word(line: &str) -> &str {
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(line.len());
    &line[..end]
}

fn is_name(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// How a line starting with this keyword should look.
fn expected_form(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "frontier-trace" => "expected 'frontier-trace 1'",
        "ruleset" => "expected 'ruleset <name>' or 'ruleset \"path\"'",
        "variant" => "expected 'variant \"path\"'",
        "players" => "expected 'players' then player names (letters, digits, '_' and '-', starting with a letter or '_')",
        "param" => "expected 'param <name> = <integer>'",
        "seed" => "expected 'seed <number>' or 'seed none'",
        "start" => "expected 'start setup' or 'start position \"file\"'",
        "rule" => "expected 'rule' then a reference such as 5.2 or a \"quoted text\"",
        "chance" => "expected 'chance: <outcome>' or 'chance by seed' (optionally with a number of chance points)",
        "assert" => "expected an expression after 'assert'",
        "let" => "expected 'let <name> = <expression>'",
        "expect" => "expected 'expect over' (optionally with scores such as red=12), 'expect winner <players>', 'expect draw', 'expect ranking red=1 …', 'expect returns red=1 …', 'expect options <player>: <label>, …' (or 'include:'/'exclude:' a part of them) or 'expect chance: <outcome>=<probability>, …'",
        "reject" => "expected 'reject <player>: <option>' or 'reject chance: <outcome>'",
        _ => return None,
    })
}

fn unrecognised(line: &str, word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    if lower != word && KEYWORDS.contains(&lower.as_str()) {
        return format!("unrecognised line: did you mean '{lower}'? (keywords are lower case)");
    }
    format!(
        "unrecognised line '{}': expected a header line or a step ('player: option', 'chance: outcome', \
         'reject player: option', 'assert <expression>', 'let <name> = <expression>', 'rule <reference>' or 'expect …')",
        excerpt(line)
    )
}

/// The start of a line, short enough to quote in a message.
fn excerpt(line: &str) -> String {
    const LONGEST: usize = 30;
    let line = line.trim_end_matches(BLANKS);
    match line.char_indices().nth(LONGEST) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// Byte offset in `line` of the first character the grammar could not accept.
fn failure_offset(line: &str) -> usize {
    match TraceParser::parse(Rule::line_check, line) {
        Err(error) => error_offset(&error).min(line.len()),
        Ok(_) => 0,
    }
}
