//! Writes a trace in its canonical form, which parses back to the same trace.

use std::fmt::{self, Write};

use super::ast::{Header, LineKind, Listed, RulesetRef, Start, Trace};

impl Trace {
    /// The canonical text: `frontier-trace 1`, the header lines in a fixed order (`seed
    /// none` is written out, `start setup` is not), a blank line, then the steps, with a
    /// `rule` line wherever the reference changes (`rule ""` where it is cleared).
    ///
    /// Parsing the result gives this trace back, apart from locations, provided its
    /// text is writable: no line breaks anywhere, no '"' in paths or quoted references,
    /// and labels without blanks before a '#' (that would start a comment), nor commas in
    /// the labels of `expect options`.
    pub fn to_text(&self) -> String {
        self.to_string()
    }
}

/// The canonical text, as written by [`Trace::to_text`].
impl fmt::Display for Trace {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_header(out, &self.header)?;
        if !self.body.is_empty() {
            out.write_char('\n')?;
        }
        let mut rule = None;
        for line in &self.body {
            if line.rule != rule {
                let reference = line.rule.as_deref().unwrap_or("");
                writeln!(out, "rule {}", rule_reference(reference))?;
                rule.clone_from(&line.rule);
            }
            write_step(out, &line.kind)?;
        }
        Ok(())
    }
}

fn write_header(out: &mut impl Write, header: &Header) -> fmt::Result {
    writeln!(out, "frontier-trace 1")?;
    match &header.ruleset {
        RulesetRef::Name(name) => writeln!(out, "ruleset {name}")?,
        RulesetRef::Path(path) => writeln!(out, "ruleset \"{path}\"")?,
    }
    if let Some(variant) = &header.variant {
        writeln!(out, "variant \"{variant}\"")?;
    }
    writeln!(out, "players {}", header.players.join(" "))?;
    for (name, value) in &header.params {
        writeln!(out, "param {name} = {value}")?;
    }
    match header.seed {
        Some(seed) => writeln!(out, "seed {seed}")?,
        None => writeln!(out, "seed none")?,
    }
    if let Start::Position(path) = &header.start {
        writeln!(out, "start position \"{path}\"")?;
    }
    Ok(())
}

fn write_step(out: &mut impl Write, kind: &LineKind) -> fmt::Result {
    match kind {
        LineKind::Decision { player, label } => writeln!(out, "{player}:{}", spaced(label)),
        LineKind::Chance { label } => writeln!(out, "chance:{}", spaced(label)),
        LineKind::Assert { source, .. } => writeln!(out, "assert {source}"),
        LineKind::Let { name, source, .. } => writeln!(out, "let {name} = {source}"),
        LineKind::ExpectOver { scores } => {
            out.write_str("expect over")?;
            for (player, score) in scores {
                write!(out, " {player}={score}")?;
            }
            out.write_char('\n')
        }
        LineKind::Reject { player, label } => writeln!(out, "reject {player}:{}", spaced(label)),
        LineKind::RejectChance { label } => writeln!(out, "reject chance:{}", spaced(label)),
        LineKind::ChanceBySeed { count: None } => writeln!(out, "chance by seed"),
        LineKind::ChanceBySeed { count: Some(n) } => writeln!(out, "chance by seed {n}"),
        LineKind::ExpectOptions {
            player,
            labels,
            listed: relation,
        } => {
            let which = match relation {
                Listed::Exactly => "",
                Listed::Include => " include",
                Listed::Exclude => " exclude",
            };
            write!(out, "expect options {player}{which}:")?;
            for (i, label) in labels.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                out.write_str(&spaced(&listed(label)))?;
            }
            out.write_char('\n')
        }
        LineKind::ExpectChance { outcomes } => {
            out.write_str("expect chance:")?;
            for (i, (label, p)) in outcomes.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                write!(out, "{}={p}", spaced(&listed(label)))?;
            }
            out.write_char('\n')
        }
        LineKind::ExpectReturns { returns } => {
            out.write_str("expect returns")?;
            for (player, r) in returns {
                write!(out, " {player}={r}")?;
            }
            out.write_char('\n')
        }
        LineKind::ExpectWinner { players } => writeln!(out, "expect winner {}", players.join(" ")),
        LineKind::ExpectDraw => writeln!(out, "expect draw"),
        LineKind::ExpectRanking { ranks } => {
            out.write_str("expect ranking")?;
            for (player, rank) in ranks {
                write!(out, " {player}={rank}")?;
            }
            out.write_char('\n')
        }
    }
}

/// A label as a list of labels writes it: in double quotes when it holds a comma or
/// starts with a quote (a label that holds `",` cannot be listed).
fn listed(label: &str) -> String {
    if label.contains(',') || label.starts_with('"') {
        format!("\"{label}\"")
    } else {
        label.to_string()
    }
}

/// A label with a space before it, unless it starts with '#': after a blank that would
/// start a comment.
fn spaced(label: &str) -> String {
    if label.starts_with('#') {
        label.to_string()
    } else {
        format!(" {label}")
    }
}

/// A reference as a bare token when it reads back as one, else quoted.
fn rule_reference(reference: &str) -> String {
    let is_token = !reference.is_empty()
        && !reference.starts_with(['"', '#'])
        && !reference.contains([' ', '\t', '\r', '\n']);
    if is_token {
        reference.to_string()
    } else {
        format!("\"{reference}\"")
    }
}
