//! The terminal player: shows the board (the ruleset's display lines, or the state as this
//! player may see it) when it changed, lists the options (numbered, with what their cards
//! are; grouped by first word when there are many), and reads a number, a label or a
//! short form of one. `?` shows the state as this player may see it, `u` undoes, `q`
//! quits, `help` lists the commands. It sees a view: what the deciding player may know.

use std::io::{BufRead, Write};

use frontier_interpreter::agent::View;

/// What a person answered at a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Option(usize),
    Undo,
    Quit,
    InputEnded,
}

/// One or more people at the terminal.
#[derive(Default)]
pub struct HumanAgent {
    /// The board display last shown, so that an unchanged board is not printed again.
    last_board: String,
}

/// Lists longer than this are grouped by first word, several options a line.
const LONG_LIST: usize = 20;
/// The width compact listings wrap at.
const WIDTH: usize = 100;

pub const HELP: &str = "\
commands:
  3            take option 3
  a label      take the option with that label (`play card:gw-12`), or a short form of it:
               words of the label in order, each word or its beginning (`play gw-12`,
               `c15 turned -3 -1`); `:` and `,` count as spaces
  ?            show the state as you may see it
  l, list      list the options again
  u, undo      take back your previous decision: the game returns to it. Chance comes from
               the game's seed, so the same dice and cards come up again (undo does not
               re-roll them)
  q, quit      stop; the trace so far is written (to --trace-out, or a file it names) and
               `frontier play --resume FILE` goes on from it
  help, h      this list";

impl HumanAgent {
    /// Shows the board again before the next decision, even if unchanged.
    pub fn forget_board(&mut self) {
        self.last_board.clear();
    }

    pub fn ask(&mut self, view: &View) -> Result<Answer, String> {
        let labels = view.labels().map_err(|e| e.to_string())?;
        let details = view.details();
        let prompt = view.prompt().map_err(|e| e.to_string())?;
        let name = view.name();
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        let style = crate::output_style();
        // The ruleset's display lines when it has some, else the whole state as this player
        // sees it; shown again only when it changed since the last decision shown.
        let board = match view.display_styled(style) {
            lines if lines.is_empty() => view.render(style),
            lines => lines,
        };
        if !board.is_empty() && board != self.last_board {
            let _ = write!(out, "\n{board}");
            self.last_board = board;
        }
        let _ = writeln!(out, "\n{name}, {prompt}");
        let _ = write!(out, "{}", listing(&labels, &details));
        loop {
            let _ = write!(
                out,
                "{name}, your choice (number, label or short form; help for the commands): "
            );
            let _ = out.flush();
            let mut line = String::new();
            if stdin
                .lock()
                .read_line(&mut line)
                .map_err(|e| e.to_string())?
                == 0
            {
                let _ = writeln!(out);
                return Ok(Answer::InputEnded);
            }
            let answer = line.trim();
            match answer {
                "" => continue,
                "?" => {
                    let _ = write!(out, "{}{}", view.display_styled(style), view.render(style));
                }
                "help" | "h" => {
                    let _ = writeln!(out, "{HELP}");
                }
                "l" | "list" => {
                    let _ = writeln!(out, "\n{name}, {prompt}");
                    let _ = write!(out, "{}", listing(&labels, &details));
                }
                "u" | "undo" => return Ok(Answer::Undo),
                "q" | "quit" => return Ok(Answer::Quit),
                _ => match pick(answer, &labels) {
                    Ok(i) => return Ok(Answer::Option(i)),
                    Err(message) => {
                        let _ = writeln!(out, "{message}");
                    }
                },
            }
        }
    }
}

/// The options as a person reads them: one a line with its details, or, for long lists,
/// grouped by first word with several options a line.
pub fn listing(labels: &[String], details: &[String]) -> String {
    let mut out = String::new();
    let full = |i: usize| match details.get(i).filter(|d| !d.is_empty()) {
        Some(d) => format!("{} — {d}", labels[i]),
        None => labels[i].clone(),
    };
    if labels.len() <= LONG_LIST {
        for i in 0..labels.len() {
            out.push_str(&format!("  {:>2}. {}\n", i + 1, full(i)));
        }
        return out;
    }
    // Options that differ only in their last word (a place, an amount): one line per
    // group, the last words compacted.
    if let Some(text) = by_last_word(labels) {
        return text;
    }
    // Groups in order of first appearance.
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, l) in labels.iter().enumerate() {
        let first = first_word(l);
        match groups.iter_mut().find(|(w, _)| *w == first) {
            Some((_, members)) => members.push(i),
            None => groups.push((first, vec![i])),
        }
    }
    let width = labels.len().to_string().len();
    for (word, members) in &groups {
        out.push_str(&format!("  {word} ({}):\n", members.len()));
        let mut line = String::from("    ");
        for &i in members {
            let rest = labels[i][word.len()..].trim_start_matches([' ', ':']);
            let rest = if rest.is_empty() {
                labels[i].as_str()
            } else {
                rest
            };
            let item = match details.get(i).filter(|d| !d.is_empty()) {
                Some(d) => format!("{:>width$}. {rest} ({d})", i + 1),
                None => format!("{:>width$}. {rest}", i + 1),
            };
            if line.len() > 4 && line.len() + 3 + item.len() > WIDTH {
                out.push_str(line.trim_end());
                out.push('\n');
                line = String::from("    ");
            }
            if line.len() > 4 {
                line.push_str("   ");
            }
            line.push_str(&item);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The long list grouped by all but the last word of each label, when that makes few
/// groups: `place c06 upright at (options 1-142): row -3: -1..2 | row -2: …`.
fn by_last_word(labels: &[String]) -> Option<String> {
    let mut groups: Vec<(&str, Vec<(usize, &str)>)> = Vec::new();
    for (i, l) in labels.iter().enumerate() {
        let (head, tail) = l.rsplit_once(' ').unwrap_or(("", l.as_str()));
        match groups.last_mut() {
            Some((h, members)) if *h == head => members.push((i, tail)),
            _ => groups.push((head, vec![(i, tail)])),
        }
    }
    if groups.len() > 12 || groups.len() * 4 > labels.len() {
        return None;
    }
    let mut out = String::new();
    for (head, members) in &groups {
        let (first, last) = (members[0].0 + 1, members[members.len() - 1].0 + 1);
        let numbers = if members.len() == 1 {
            format!("option {first}")
        } else {
            format!("options {first}-{last}")
        };
        let head = if head.is_empty() { "" } else { head };
        let tails: Vec<&str> = members.iter().map(|(_, t)| *t).collect();
        let intro = format!("  {head} ({numbers}): ");
        out.push_str(&wrap(&intro, &compact_tails(&tails)));
    }
    out.push_str("  (type a short form, such as the words that differ: a number picks an option by its number)\n");
    Some(out)
}

/// Lines of at most [`WIDTH`] characters: `intro` then the items, separated by `sep`
/// (items carry their separator), continuation lines indented.
fn wrap(intro: &str, items: &[String]) -> String {
    let mut out = String::new();
    let mut line = intro.to_string();
    let mut fresh = true;
    for item in items {
        if !fresh && line.chars().count() + item.chars().count() + 1 > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from("      ");
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(item);
        fresh = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The last words of a group, shorter: positions `(r,c)` by row with runs of columns
/// (`row -3: -1..2,`), whole numbers as runs (`1..21`), anything else as it is.
fn compact_tails(tails: &[&str]) -> Vec<String> {
    let position = |t: &str| -> Option<(i64, i64)> {
        let inner = t.strip_prefix('(')?.strip_suffix(')')?;
        let (r, c) = inner.split_once(',')?;
        Some((r.trim().parse().ok()?, c.trim().parse().ok()?))
    };
    if let Some(cells) = tails
        .iter()
        .map(|t| position(t))
        .collect::<Option<Vec<_>>>()
    {
        let mut rows: Vec<(i64, Vec<i64>)> = Vec::new();
        for (r, c) in cells {
            match rows.iter_mut().find(|(row, _)| *row == r) {
                Some((_, cols)) => cols.push(c),
                None => rows.push((r, vec![c])),
            }
        }
        let n = rows.len();
        return rows
            .into_iter()
            .enumerate()
            .map(|(i, (r, cols))| {
                format!(
                    "row {r}: {}{}",
                    runs(&cols),
                    if i + 1 < n { ";" } else { "" }
                )
            })
            .collect();
    }
    if let Some(numbers) = tails
        .iter()
        .map(|t| t.parse::<i64>().ok())
        .collect::<Option<Vec<_>>>()
    {
        return vec![runs(&numbers)];
    }
    tails.iter().map(|t| t.to_string()).collect()
}

/// `1 2 3 5 7 8` as `1..3, 5, 7..8` (in the order given).
fn runs(numbers: &[i64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}..{}", numbers[i], numbers[j])
        } else {
            numbers[i].to_string()
        });
        i = j + 1;
    }
    parts.join(", ")
}

fn first_word(label: &str) -> &str {
    let end = label.find([' ', ':']).unwrap_or(label.len());
    &label[..end]
}

/// The words of a label or an answer: `:` and `,` separate words as spaces do, brackets
/// and parentheses are dropped, case is ignored.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace([':', ',', '(', ')', '[', ']'], " ")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// How a typed word fits a word of a label.
#[derive(Clone, Copy)]
enum Fit {
    /// The whole word.
    Whole,
    /// The start of the word.
    Start,
}

/// Whether each of `typed`, in order, fits a word of `label`, skipping label words as
/// needed.
fn follows(typed: &[String], label: &[String], fit: Fit) -> bool {
    let mut rest = label.iter();
    typed.iter().all(|t| {
        rest.any(|w| match fit {
            Fit::Whole => w == t,
            Fit::Start => w.starts_with(t.as_str()),
        })
    })
}

/// The option a person means: its number, its label, or a short form that fits one option
/// only (whole words first, then beginnings of words). Otherwise what went wrong.
pub fn pick(answer: &str, labels: &[String]) -> Result<usize, String> {
    if let Ok(n) = answer.parse::<usize>() {
        if (1..=labels.len()).contains(&n) {
            return Ok(n - 1);
        }
        return Err(format!(
            "there is no option {n}: the options are numbered 1 to {}",
            labels.len()
        ));
    }
    if let Some(i) = labels.iter().position(|l| l == answer) {
        return Ok(i);
    }
    let typed = words(answer);
    let label_words: Vec<Vec<String>> = labels.iter().map(|l| words(l)).collect();
    if let Some(i) = label_words.iter().position(|w| *w == typed) {
        return Ok(i);
    }
    for fit in [Fit::Whole, Fit::Start] {
        let fits: Vec<usize> = (0..labels.len())
            .filter(|&i| follows(&typed, &label_words[i], fit))
            .collect();
        match fits.len() {
            0 => continue,
            1 => return Ok(fits[0]),
            n => {
                let shown: Vec<String> = fits
                    .iter()
                    .take(8)
                    .map(|&i| format!("{}. {}", i + 1, labels[i]))
                    .collect();
                let more = if n > 8 {
                    format!(" … ({n} in all)")
                } else {
                    String::new()
                };
                return Err(format!(
                    "'{answer}' fits {n} options: {}{more}; say more, or type a number",
                    shown.join(" | ")
                ));
            }
        }
    }
    Err(format!(
        "'{answer}' is not one of the options: type its number (1-{}), its label or a short form of it (help lists the commands)",
        labels.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(ls: &[&str]) -> Vec<String> {
        ls.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn numbers_labels_and_short_forms() {
        let ls = labels(&[
            "play card:gw-12",
            "play card:gw-03",
            "score",
            "sell card:gw-12",
            "sell card:gw-03",
        ]);
        assert_eq!(pick("2", &ls), Ok(1));
        assert_eq!(pick("score", &ls), Ok(2));
        assert_eq!(pick("sell card:gw-03", &ls), Ok(4));
        assert_eq!(pick("sell gw-03", &ls), Ok(4));
        assert_eq!(pick("SELL card gw-12", &ls), Ok(3));
        assert_eq!(pick("sc", &ls), Ok(2));
        assert!(pick("gw-12", &ls).unwrap_err().contains("fits 2 options"));
        assert!(pick("9", &ls).unwrap_err().contains("numbered 1 to 5"));
        assert!(pick("pass", &ls)
            .unwrap_err()
            .contains("not one of the options"));
    }

    #[test]
    fn whole_words_before_beginnings() {
        let ls = labels(&["bid 1", "bid 7", "bid 17", "pass"]);
        assert_eq!(pick("bid 7", &ls), Ok(1));
        assert_eq!(pick("bid 1", &ls), Ok(0));
        assert_eq!(pick("bid 17", &ls), Ok(2));
        let places = labels(&[
            "place c15 upright at (-3,-1)",
            "place c15 turned at (-3,-1)",
            "place c15 turned at (-3,-2)",
        ]);
        assert_eq!(pick("c15 turned -3 -1", &places), Ok(1));
        assert_eq!(pick("turned -3 -2", &places), Ok(2));
    }

    #[test]
    fn long_lists_are_grouped_by_first_word() {
        let mut ls = Vec::new();
        for i in 0..30 {
            ls.push(format!("place c15 upright at ({i},0)"));
        }
        ls.push("pass".to_string());
        let text = listing(&ls, &vec![String::new(); ls.len()]);
        assert!(
            text.starts_with("  place c15 upright at (options 1-30): row 0: 0; row 1: 0;"),
            "{text}"
        );
        assert!(text.contains("  (option 31): pass\n"), "{text}");
        assert!(text.lines().count() < 8, "{text}");
        // Places in rows, columns in runs.
        let places: Vec<String> = ["(-1,0)", "(-1,1)", "(-1,2)", "(0,-3)", "(0,5)", "(2,2)"]
            .iter()
            .map(|p| format!("place c01 turned at {p}"))
            .collect();
        let mut ls = places.clone();
        ls.extend((1..=21).map(|b| format!("bid {b}")));
        let text = listing(&ls, &vec![String::new(); ls.len()]);
        assert_eq!(
            text,
            "  place c01 turned at (options 1-6): row -1: 0..2; row 0: -3, 5; row 2: 2\n  bid (options 7-27): 1..21\n  (type a short form, such as the words that differ: a number picks an option by its number)\n"
        );
        // Labels that differ in their first words: grouped by the first word.
        let mut ls: Vec<String> = (0..15).map(|i| format!("take c{i:02}")).collect();
        ls.extend((0..15).map(|i| format!("skip {i} and take c{i:02}")));
        let text = listing(&ls, &vec![String::new(); ls.len()]);
        assert!(text.starts_with("  take (15):\n"), "{text}");
        assert!(text.contains("  skip (15):\n"), "{text}");
    }
}
