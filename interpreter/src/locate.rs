//! Finds where a YAML path (`procedures.turn.do[2].if`) stands in a block-style YAML
//! text, so that errors found after parsing can still name a line and column.
//! Best effort: a path into a flow collection (`{…}`, `[…]`) stops at its line.

use frontier_grammar::LineCol;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    Key(String),
    Index(usize),
}

/// Splits `a.b[2].c` into segments.
pub(crate) fn segments(path: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let mut rest = part;
        if let Some(open) = rest.find('[') {
            if open > 0 {
                out.push(Segment::Key(rest[..open].to_string()));
            }
            rest = &rest[open..];
            while let Some(stripped) = rest.strip_prefix('[') {
                let Some(close) = stripped.find(']') else {
                    break;
                };
                if let Ok(i) = stripped[..close].parse() {
                    out.push(Segment::Index(i));
                }
                rest = &stripped[close + 1..];
            }
        } else if !rest.is_empty() {
            out.push(Segment::Key(rest.to_string()));
        }
    }
    out
}

struct Line<'a> {
    /// Column (0-based) of the first key or item content after indentation and dashes.
    content_col: usize,
    /// Columns of the dashes that open sequence items on this line.
    dashes: Vec<usize>,
    content: &'a str,
}

fn analyse(line: &str) -> Option<Line<'_>> {
    let trimmed = line.trim_start_matches(' ');
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let mut col = line.len() - trimmed.len();
    let mut rest = trimmed;
    let mut dashes = Vec::new();
    while rest == "-" || rest.starts_with("- ") {
        dashes.push(col);
        let after = rest[1..].trim_start_matches(' ');
        col += rest.len() - after.len();
        rest = after;
    }
    Some(Line {
        content_col: col,
        dashes,
        content: rest,
    })
}

fn key_of(content: &str) -> Option<&str> {
    let colon = content.find(':')?;
    let key = content[..colon].trim().trim_matches('"').trim_matches('\'');
    let after = &content[colon + 1..];
    (after.is_empty() || after.starts_with(' ')).then_some(key)
}

/// The 1-based line and column where `path` stands in `text`; when only a prefix of the
/// path is found (a missing key, a flow collection), where that prefix stands.
pub(crate) fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    let lines: Vec<Option<Line>> = text.lines().map(analyse).collect();
    let mut start = 0usize; // first line of the current node's children (inclusive)
    let mut end = lines.len();
    let mut parent_col: isize = -1;
    let mut found: Option<(usize, usize)> = None;
    for segment in segments(path) {
        match segment {
            Segment::Key(key) => {
                // The direct children are the keys at the first content column in range.
                let Some(child_col) =
                    (start..end).find_map(|i| lines[i].as_ref().map(|l| l.content_col))
                else {
                    return found;
                };
                if child_col as isize <= parent_col && found.is_some() {
                    return found;
                }
                let Some(i) = (start..end).find(|&i| {
                    lines[i].as_ref().is_some_and(|l| {
                        l.content_col == child_col && key_of(l.content) == Some(key.as_str())
                    })
                }) else {
                    return found;
                };
                found = Some((i + 1, child_col + 1));
                parent_col = child_col as isize;
                start = i + 1;
                end = block_end(&lines, start, child_col);
            }
            Segment::Index(n) => {
                // Items are lines whose dash stands at the first dash column in range, or the
                // line of the key itself when it opens a flow sequence.
                let items: Vec<(usize, usize)> = (start..end)
                    .filter_map(|i| {
                        lines[i]
                            .as_ref()
                            .and_then(|l| l.dashes.first().map(|d| (i, *d)))
                    })
                    .collect();
                let Some(&(_, item_col)) = items.first() else {
                    return found;
                };
                let mut matching = items.iter().filter(|(_, d)| *d == item_col);
                let Some(&(i, d)) = matching.nth(n) else {
                    return found;
                };
                let Some(line) = lines[i].as_ref() else {
                    return found;
                };
                found = Some((i + 1, line.content_col + 1));
                parent_col = d as isize;
                // The item's own keys begin on its dash line.
                start = i;
                end = item_end(&lines, i + 1, d);
            }
        }
    }
    found
}

/// The first line at or after `from` whose content stands at or left of `col`.
fn block_end(lines: &[Option<Line>], from: usize, col: usize) -> usize {
    (from..lines.len())
        .find(|&i| {
            lines[i]
                .as_ref()
                .is_some_and(|l| l.dashes.first().copied().unwrap_or(l.content_col) <= col)
        })
        .unwrap_or(lines.len())
}

fn item_end(lines: &[Option<Line>], from: usize, dash_col: usize) -> usize {
    (from..lines.len())
        .find(|&i| {
            lines[i]
                .as_ref()
                .is_some_and(|l| l.dashes.first().copied().unwrap_or(l.content_col) <= dash_col)
        })
        .unwrap_or(lines.len())
}

/// Where `path` (and optionally an expression source inside it) stands in the files of
/// a ruleset (a variant first, then what it extends): the file, and line and column.
pub(crate) fn locate_in(
    files: &[(String, String)],
    path: &str,
    inner: Option<(&str, usize)>,
) -> (String, Option<(usize, usize)>) {
    for (file, text) in files {
        let Some((line, column)) = locate(text, path) else {
            continue;
        };
        if let Some((source, offset)) = inner {
            let line_start: usize = text
                .split_inclusive('\n')
                .take(line - 1)
                .map(str::len)
                .sum();
            if let Some(found) = text[line_start..].find(source) {
                let lc = LineCol::of(text, line_start + found + offset);
                return (file.clone(), Some((lc.line, lc.column)));
            }
        }
        return (file.clone(), Some((line, column)));
    }
    (files.first().map(|f| f.0.clone()).unwrap_or_default(), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
name: test
params:
  size: 3
procedures:
  turn:
    do:
      - set: { a: 1 }
      - if: \"a > 1\"
        then:
          - log: hello
  other: []
";

    fn check(path: &str, expected: Option<(usize, usize)>) {
        assert_eq!(locate(TEXT, path), expected, "path {path}");
    }

    #[test]
    fn finds_keys_and_items() {
        check("name", Some((1, 1)));
        check("params.size", Some((3, 3)));
        check("procedures.turn.do", Some((6, 5)));
        check("procedures.turn.do[0]", Some((7, 9)));
        check("procedures.turn.do[1].if", Some((8, 9)));
        check("procedures.turn.do[1].then[0].log", Some((10, 13)));
        check("procedures.other", Some((11, 3)));
        check("procedures.turn.do[1].else", Some((8, 9)));
        check("nothing", None);
    }

    #[test]
    fn flow_collections_stop_at_their_line() {
        check("procedures.turn.do[0].set.a", Some((7, 9)));
    }
}
