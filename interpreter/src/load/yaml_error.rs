//! A YAML syntax error said in plain words: the YAML path of the key it stands under,
//! found from the text before it, and what the parser's words mean for the common
//! mistakes (a bracket, brace or quote left open, a list item or key indented apart from
//! its neighbours, a `: ` inside an unquoted value).

/// What the YAML reader says: its problem, where, and what it was reading (the context,
/// and where that began), from serde's message
/// `PROBLEM at line L column C[, CONTEXT at line L column C]`.
pub(super) struct Reported<'m> {
    pub problem: &'m str,
    pub at: Option<(usize, usize)>,
    pub context: Option<(&'m str, Option<(usize, usize)>)>,
}

impl<'m> Reported<'m> {
    pub fn read(message: &'m str) -> Reported<'m> {
        let (head, context) = match message.split_once(", while ") {
            Some((head, context)) => (head, Some(context)),
            None => (message, None),
        };
        let (problem, at) = split_mark(head);
        let context = context.map(|c| {
            let (what, at) = split_mark(c);
            (what, at)
        });
        Reported {
            problem,
            at,
            context,
        }
    }
}

/// `words at line L column C` as the words and (L, C).
fn split_mark(text: &str) -> (&str, Option<(usize, usize)>) {
    let Some((words, mark)) = text.rsplit_once(" at line ") else {
        return (text, None);
    };
    let mark = mark
        .split_once(" column ")
        .and_then(|(line, column)| Some((line.trim().parse().ok()?, column.trim().parse().ok()?)));
    match mark {
        Some(mark) => (words, Some(mark)),
        None => (text, None),
    }
}

/// The message for a syntax error: the plain-words hint first when the parser's words are
/// a common mistake, the parser's words after it in brackets; and the place in the text
/// whose YAML path names where it stands.
pub(super) fn explain(text: &str, reported: &Reported) -> (String, Option<(usize, usize)>) {
    let problem = reported.problem;
    let opened = |what: &str| {
        reported
            .context
            .filter(|(c, _)| c.ends_with(what))
            .and_then(|(_, at)| at)
    };
    let said = |hint: String| format!("{hint} ({problem})");
    if problem.starts_with("did not find expected ',' or ']'") {
        if let Some((line, column)) = opened("flow sequence") {
            let hint = format!("a '[' opened at line {line} column {column} is not closed: end the list with ']', its items separated by ','");
            return (said(hint), Some((line, column)));
        }
    }
    if problem.starts_with("did not find expected ',' or '}'") {
        if let Some((line, column)) = opened("flow mapping") {
            let hint = format!("a '{{' opened at line {line} column {column} is not closed: end the mapping with '}}', its entries separated by ','");
            return (said(hint), Some((line, column)));
        }
    }
    if let Some((line, column)) = opened("quoted scalar") {
        if problem == "found unexpected end of stream" {
            let hint = format!("a quote opened at line {line} column {column} is not closed");
            return (said(hint), Some((line, column)));
        }
        if problem == "found unknown escape character" {
            let hint = "a '\\' between double quotes starts an escape (\\n, \\\", \\\\): write '\\\\' for a backslash, or put the value between single quotes".to_string();
            return (said(hint), reported.at);
        }
    }
    if problem == "did not find expected '-' indicator" {
        if let Some((line, column)) = opened("block collection") {
            let hint = format!("a list item indented differently from the others: every '-' of a list stands in the same column, that of its first item (line {line}, column {column})");
            return (said(hint), Some((line, column)));
        }
    }
    if problem == "did not find expected key" {
        if let Some((line, column)) = reported.at {
            let before = line_text(text, line)
                .chars()
                .take(column.saturating_sub(1))
                .collect::<String>();
            if before.trim_end().ends_with(['"', '\'']) {
                let hint = "text after the closing quote of a value: put all of the value inside the quotes".to_string();
                return (said(hint), reported.at);
            }
            if let Some((_, Some((first, key_column)))) = reported.context {
                let hint = format!("a key indented differently from the keys above it: the keys of one mapping stand in the same column, that of its first key (line {first}, column {key_column})");
                return (said(hint), reported.at);
            }
        }
    }
    if problem == "mapping values are not allowed in this context" {
        if let Some((line, column)) = reported.at {
            let written = line_text(text, line);
            let before: String = written.chars().take(column.saturating_sub(1)).collect();
            let hint = if before.contains(": ") || before.trim_start().starts_with("- ") {
                "a ': ' inside a value not in quotes: put the value in quotes (\"…\")".to_string()
            } else {
                match previous_line(text, line) {
                    Some((above, written)) if !written.contains(':') => format!(
                        "line {above} above has no ':' (a key is written `name: value`), so YAML reads this line as more of its text"
                    ),
                    Some((above, _)) => format!(
                        "this line is indented deeper than the key of line {above}, so YAML reads it as more of that key's value: indent it as the keys beside it"
                    ),
                    None => "a ': ' inside a value not in quotes: put the value in quotes (\"…\")".to_string(),
                }
            };
            return (said(hint), reported.at);
        }
    }
    if problem == "block sequence entries are not allowed in this context" {
        let hint = "a list cannot start on the line of its key: put each '- ' item on a line of its own, indented under the key".to_string();
        return (said(hint), reported.at);
    }
    (problem.to_string(), reported.at)
}

/// The text of line `line` (from 1), or nothing past the end.
fn line_text(text: &str, line: usize) -> &str {
    text.lines().nth(line.saturating_sub(1)).unwrap_or_default()
}

/// The nearest line above `line` that holds more than blanks and a comment, with its number.
fn previous_line(text: &str, line: usize) -> Option<(usize, &str)> {
    text.lines()
        .enumerate()
        .take(line.saturating_sub(1))
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .last()
        .map(|(i, l)| (i + 1, l))
}

/// One step of a YAML path: a key, or a list item by its position.
enum Step {
    Key(String),
    Item(usize),
}

/// The YAML path (`play[3].choose`) of the block keys and list items that hold the place
/// at `line`, `column` (from 1), read from the indentation of the lines before it and of
/// its own line up to it. Flow collections (`{ … }`, `[ … ]`) count as their key's value.
pub(super) fn path_at(text: &str, line: usize, column: usize) -> String {
    // Each open key or list item with the column (from 0) it stands at.
    let mut open: Vec<(usize, Step)> = Vec::new();
    for (i, written) in text.lines().enumerate().take(line) {
        let written = written.strip_suffix('\r').unwrap_or(written);
        let written: String = if i + 1 == line {
            written.chars().take(column.saturating_sub(1)).collect()
        } else {
            written.to_string()
        };
        let mut indent = written.len() - written.trim_start_matches(' ').len();
        let mut rest = &written[indent..];
        if rest.is_empty() || rest.starts_with('#') || rest.starts_with('\t') {
            if i + 1 == line {
                // The place starts the line's content: what is open at its column or
                // deeper is done.
                open.retain(|(at, _)| *at < indent);
            }
            continue;
        }
        loop {
            open.retain(|(at, _)| *at <= indent);
            if rest == "-" || rest.starts_with("- ") {
                match open.last_mut() {
                    Some((at, Step::Item(n))) if *at == indent => *n += 1,
                    _ => open.push((indent, Step::Item(0))),
                }
                let after = &rest[1..];
                let content = after.trim_start_matches(' ');
                indent += 1 + after.len() - content.len();
                rest = content;
                if rest.is_empty() {
                    break;
                }
                continue;
            }
            if let Some(key) = key_of(rest) {
                open.retain(|(at, _)| *at < indent);
                open.push((indent, Step::Key(key)));
            }
            break;
        }
    }
    let mut path = String::new();
    for (_, step) in &open {
        match step {
            Step::Key(key) if path.is_empty() => path.push_str(key),
            Step::Key(key) => {
                path.push('.');
                path.push_str(key);
            }
            Step::Item(n) => path.push_str(&format!("[{n}]")),
        }
    }
    path
}

/// The key a block mapping's line starts with (`name:`, `"name":`), if it starts with one.
fn key_of(line: &str) -> Option<String> {
    let quoted = |q: char| {
        let inner = line.strip_prefix(q)?;
        let (key, after) = inner.split_once(q)?;
        let after = after.trim_start_matches(' ');
        (after == ":" || after.starts_with(": ")).then(|| key.to_string())
    };
    if let Some(key) = quoted('"').or_else(|| quoted('\'')) {
        return Some(key);
    }
    if line.starts_with(['{', '[', '#', '&', '*', '!', '|', '>', '"', '\'']) {
        return None;
    }
    let end = line
        .char_indices()
        .find(|&(i, c)| c == ':' && matches!(line[i + 1..].chars().next(), None | Some(' ')))
        .map(|(i, _)| i)?;
    let key = line[..end].trim_end();
    (!key.is_empty()).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_are_read_with_their_marks() {
        let r = Reported::read("did not find expected ',' or ']' at line 3 column 5, while parsing a flow sequence at line 2 column 10");
        assert_eq!(r.problem, "did not find expected ',' or ']'");
        assert_eq!(r.at, Some((3, 5)));
        assert_eq!(r.context, Some(("parsing a flow sequence", Some((2, 10)))));
        let r =
            Reported::read("mapping values are not allowed in this context at line 4 column 15");
        assert_eq!(r.problem, "mapping values are not allowed in this context");
        assert_eq!(r.at, Some((4, 15)));
        assert!(r.context.is_none());
        let r = Reported::read("recursion limit exceeded");
        assert_eq!((r.problem, r.at), ("recursion limit exceeded", None));
    }

    #[test]
    fn the_path_of_a_place_comes_from_the_lines_above_it() {
        let text = "name: x\nplay:\n  - log: a\n  - if: \"x\"\n    then:\n      - log: b\n      - log: c d\nsetup:\n- a\n- b\n";
        assert_eq!(path_at(text, 1, 7), "name");
        // Line 3, at `a`: the first item's log.
        assert_eq!(path_at(text, 3, 10), "play[0].log");
        assert_eq!(path_at(text, 4, 3), "play");
        assert_eq!(path_at(text, 6, 9), "play[1].then[0]");
        assert_eq!(path_at(text, 7, 16), "play[1].then[1].log");
        // A list at the column of its key.
        assert_eq!(path_at(text, 10, 3), "setup[1]");
        assert_eq!(path_at("\"a b\": { c: [1\n", 1, 14), "a b");
    }
}
