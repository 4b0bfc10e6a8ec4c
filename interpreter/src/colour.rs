//! Colour marks in text: how the `colour` built-in marks a span, and how a display shows
//! it (ANSI escapes for a terminal, or nothing). A leaf: plain text in, text out.

use std::fmt::Write;

/// Whether rendered text may carry terminal colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    /// ANSI colour escapes, for a terminal.
    Colour,
}

// Colour marks in text: COLOUR_START name COLOUR_TEXT text COLOUR_END, written by the
// `colour` built-in (characters of Unicode's private use area, which rulesets do not
// write), turned into ANSI escapes or taken out when a display line is shown.
const COLOUR_START: char = '\u{E000}';
const COLOUR_TEXT: char = '\u{E001}';
const COLOUR_END: char = '\u{E002}';

/// `text` marked to be shown in the colour `name`.
pub fn mark_colour(text: &str, name: &str) -> String {
    format!("{COLOUR_START}{name}{COLOUR_TEXT}{text}{COLOUR_END}")
}

/// The characters of `text` a reader sees: colour marks and names do not count.
pub fn visible_width(text: &str) -> usize {
    strip_colours(text).chars().count()
}

/// `text` without colour marks.
pub fn strip_colours(text: &str) -> std::borrow::Cow<'_, str> {
    apply(text, |_| None)
}

/// `text` with colour marks as ANSI foreground colours, or without them.
pub fn apply_colours(text: &str, style: Style) -> String {
    match style {
        Style::Plain => strip_colours(text).into_owned(),
        Style::Colour => apply(text, ansi_foreground).into_owned(),
    }
}

fn apply(text: &str, code: impl Fn(&str) -> Option<&'static str>) -> std::borrow::Cow<'_, str> {
    if !text.contains([COLOUR_START, COLOUR_END]) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut rest = text;
    // Escapes written and not yet reset (a colour inside a colour ends both).
    let mut open = false;
    while let Some(i) = rest.find([COLOUR_START, COLOUR_END]) {
        out.push_str(&rest[..i]);
        let c = rest[i..].chars().next().unwrap_or(COLOUR_END);
        rest = &rest[i + c.len_utf8()..];
        if c == COLOUR_END {
            if open {
                out.push_str("\x1b[0m");
                open = false;
            }
            continue;
        }
        let (name, after) = rest.split_once(COLOUR_TEXT).unwrap_or(("", rest));
        rest = after;
        if let Some(params) = code(name) {
            let _ = write!(out, "\x1b[{params}m");
            open = true;
        }
    }
    out.push_str(rest);
    if open {
        out.push_str("\x1b[0m");
    }
    std::borrow::Cow::Owned(out)
}

/// The ANSI escape parameters for a colour name as a text colour.
fn ansi_foreground(name: &str) -> Option<&'static str> {
    Some(match name {
        "black" => "30",
        "red" => "31",
        "green" => "32",
        "yellow" => "33",
        "blue" => "34",
        "magenta" => "35",
        "cyan" => "36",
        "white" => "37",
        "grey" | "gray" => "90",
        "bright_red" => "91",
        "bright_green" => "92",
        "bright_yellow" => "93",
        "bright_blue" => "94",
        "bright_magenta" => "95",
        "bright_cyan" => "96",
        "bright_white" => "97",
        _ => return None,
    })
}

/// The ANSI escape parameters for a colour name: black text on that background.
pub(crate) fn ansi_background(name: &str) -> Option<&'static str> {
    Some(match name {
        "black" => "97;40",
        "red" => "30;41",
        "green" => "30;42",
        "yellow" => "30;43",
        "blue" => "97;44",
        "magenta" => "30;45",
        "cyan" => "30;46",
        "white" => "30;47",
        "grey" | "gray" => "30;100",
        "bright_red" => "30;101",
        "bright_green" => "30;102",
        "bright_yellow" => "30;103",
        "bright_blue" => "30;104",
        "bright_magenta" => "30;105",
        "bright_cyan" => "30;106",
        "bright_white" => "30;107",
        _ => return None,
    })
}
