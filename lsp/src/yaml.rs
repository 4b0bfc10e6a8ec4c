//! A ruleset's YAML with the place of every key and value, for finding what stands at a
//! cursor and where a name is declared. The loader reads the meaning (and reports every
//! problem); this tree only says where things are written, so a text that is not valid
//! YAML simply has no tree.

use std::ops::Range;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Bytes of the text the node is written in (a quoted scalar's quotes included).
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Scalar(Scalar),
    Map(Vec<(Node, Node)>),
    Seq(Vec<Node>),
    /// An alias (`*name`): not followed.
    Alias,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar {
    pub value: String,
    /// Where each byte of `value` (and its end) is written in the text, when the value is
    /// written on one line (plain, or quoted with its escapes): names inside an expression
    /// are then placed exactly.
    origin: Option<Vec<usize>>,
}

impl Scalar {
    /// Where the value starts in the text.
    pub fn start(&self) -> Option<usize> {
        self.origin.as_ref().and_then(|o| o.first().copied())
    }

    /// Where bytes `span` of the value are written in the text.
    pub fn place(&self, span: Range<usize>) -> Option<Range<usize>> {
        let origin = self.origin.as_ref()?;
        let start = *origin.get(span.start)?;
        let end = if span.end > span.start {
            origin.get(span.end - 1).map(|last| {
                last + self.value[span.end - 1..]
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8)
            })?
        } else {
            start
        };
        Some(start..end)
    }
}

impl Node {
    pub fn scalar(&self) -> Option<&Scalar> {
        match &self.kind {
            Kind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn text(&self) -> Option<&str> {
        self.scalar().map(|s| s.value.as_str())
    }

    pub fn entries(&self) -> &[(Node, Node)] {
        match &self.kind {
            Kind::Map(entries) => entries,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Node] {
        match &self.kind {
            Kind::Seq(items) => items,
            _ => &[],
        }
    }

    /// The value under `key` of a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, v)| v)
    }

    /// The key node and value under `key` of a mapping.
    pub fn entry(&self, key: &str) -> Option<(&Node, &Node)> {
        self.entries()
            .iter()
            .find(|(k, _)| k.text() == Some(key))
            .map(|(k, v)| (k, v))
    }

    /// The node at a YAML path as the loader writes it (`procedures.deal.do[1].move.to`;
    /// keys with dots or brackets, `set.score[p]`, are matched whole when they exist).
    pub fn at_path(&self, path: &str) -> Option<&Node> {
        let mut node = self;
        let mut rest = path;
        while !rest.is_empty() {
            rest = rest.strip_prefix('.').unwrap_or(rest);
            if let Some(after) = rest.strip_prefix('[') {
                let close = after.find(']')?;
                let index: usize = after[..close].parse().ok()?;
                node = node.items().get(index)?;
                rest = &after[close + 1..];
                continue;
            }
            // The longest key of this mapping that starts the rest of the path (a key
            // may itself hold dots and brackets: `"score[p]"`).
            let (key, value) = node
                .entries()
                .iter()
                .filter_map(|(k, v)| k.text().map(|t| (t, v)))
                .filter(|(t, _)| {
                    rest.starts_with(t)
                        && matches!(rest.as_bytes().get(t.len()), None | Some(b'.' | b'['))
                })
                .max_by_key(|(t, _)| t.len())?;
            node = value;
            rest = &rest[key.len()..];
        }
        Some(node)
    }

    /// Every node under this one (itself first), with the key each stands under.
    pub fn walk<'n>(&'n self, visit: &mut impl FnMut(&'n Node, Option<&'n Node>)) {
        self.walk_under(None, visit);
    }

    fn walk_under<'n>(
        &'n self,
        key: Option<&'n Node>,
        visit: &mut impl FnMut(&'n Node, Option<&'n Node>),
    ) {
        visit(self, key);
        match &self.kind {
            Kind::Map(entries) => {
                for (k, v) in entries {
                    visit(k, None);
                    v.walk_under(Some(k), visit);
                }
            }
            Kind::Seq(items) => {
                for item in items {
                    item.walk_under(key, visit);
                }
            }
            Kind::Scalar(_) | Kind::Alias => {}
        }
    }
}

/// The first document of `text` as a tree; none when it is not valid YAML.
pub fn parse(text: &str) -> Option<Node> {
    let bytes = CharOffsets::new(text);
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Building> = Vec::new();
    loop {
        let (event, span) = parser.next_event()?.ok()?;
        let node = match event {
            Event::StreamStart | Event::DocumentStart(_) | Event::Nothing => continue,
            Event::StreamEnd | Event::DocumentEnd => return None,
            Event::MappingStart(..) => {
                stack.push(Building::Map(
                    bytes.at(span.start.index()),
                    Vec::new(),
                    None,
                ));
                continue;
            }
            Event::SequenceStart(..) => {
                stack.push(Building::Seq(bytes.at(span.start.index()), Vec::new()));
                continue;
            }
            Event::MappingEnd | Event::SequenceEnd => {
                let end = bytes.at(span.end.index());
                match stack.pop()? {
                    Building::Map(start, entries, _) => Node {
                        span: start..end.max(start),
                        kind: Kind::Map(entries),
                    },
                    Building::Seq(start, items) => Node {
                        span: start..end.max(start),
                        kind: Kind::Seq(items),
                    },
                }
            }
            Event::Scalar(value, style, ..) => {
                scalar(text, &bytes, value.into_owned(), style, span)
            }
            Event::Alias(_) => Node {
                span: bytes.at(span.start.index())..bytes.at(span.end.index()),
                kind: Kind::Alias,
            },
        };
        let Some(parent) = stack.last_mut() else {
            return Some(node);
        };
        match parent {
            Building::Seq(start, items) => {
                *start = (*start).min(node.span.start);
                items.push(node);
            }
            Building::Map(_, entries, key) => match key.take() {
                Some(k) => entries.push((k, node)),
                None => *key = Some(node),
            },
        }
    }
}

enum Building {
    Map(usize, Vec<(Node, Node)>, Option<Node>),
    Seq(usize, Vec<Node>),
}

fn scalar(text: &str, bytes: &CharOffsets, value: String, style: ScalarStyle, span: Span) -> Node {
    let start = bytes.at(span.start.index());
    let end = bytes.at(span.end.index()).max(start);
    let content = match style {
        ScalarStyle::Plain => Some(start),
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            // The span may or may not take the quotes in: find the value after the quote.
            let quote = if style == ScalarStyle::SingleQuoted {
                '\''
            } else {
                '"'
            };
            let from = if text[start..].starts_with(quote) {
                start + 1
            } else {
                start
            };
            Some(from)
        }
        ScalarStyle::Literal | ScalarStyle::Folded => None,
    };
    let origin = content.and_then(|at| origin(text, at, &value, style));
    let span = match (style, origin.as_ref().and_then(|o| o.last())) {
        (ScalarStyle::Plain, Some(&end)) => start..end,
        (ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted, Some(&end)) => {
            let at = content.unwrap_or(start);
            at.saturating_sub(1)..(end + 1).min(text.len())
        }
        // The parser's end may take the blanks after a value in.
        _ => start..start + text[start..end].trim_end().len(),
    };
    Node {
        span,
        kind: Kind::Scalar(Scalar { value, origin }),
    }
}

/// Where each byte of `value` (and its end) is written, reading the text from `at` as a
/// scalar of this style on one line: a plain one as it is, a single-quoted one with `''`
/// for a quote, a double-quoted one with its backslash escapes. None when the text does
/// not give the value that way (a value folded over several lines).
fn origin(text: &str, at: usize, value: &str, style: ScalarStyle) -> Option<Vec<usize>> {
    let raw = text.get(at..)?;
    let mut out = Vec::with_capacity(value.len() + 1);
    let mut rest = value;
    let mut i = 0;
    while let Some(c) = rest.chars().next() {
        let written = raw.get(i..)?;
        let width = match style {
            ScalarStyle::SingleQuoted if c == '\'' => written.starts_with("''").then_some(2)?,
            ScalarStyle::DoubleQuoted if written.starts_with('\\') => {
                match written[1..].chars().next()? {
                    'x' => 4,
                    'u' => 6,
                    'U' => 10,
                    e => 1 + e.len_utf8(),
                }
            }
            _ if written.starts_with(c) && c != '\n' => c.len_utf8(),
            _ => return None,
        };
        for _ in 0..c.len_utf8() {
            out.push(at + i);
        }
        i += width;
        rest = &rest[c.len_utf8()..];
    }
    out.push(at + i);
    Some(out)
}

/// The byte offset of each character index (the parser counts characters).
struct CharOffsets {
    offsets: Vec<usize>,
}

impl CharOffsets {
    fn new(text: &str) -> CharOffsets {
        let mut offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        offsets.push(text.len());
        CharOffsets { offsets }
    }

    fn at(&self, index: usize) -> usize {
        self.offsets
            .get(index)
            .copied()
            .unwrap_or_else(|| self.offsets.last().copied().unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
procedures:
  déal:
    do:
      - move: { item: card, to: \"hand[to]\" }
      - set: { \"score[p]\": 'first(x)' }
play:
  - call: { déal: { to: p } }
";

    fn place(node: &Node) -> &str {
        &TEXT[node.span.clone()]
    }

    #[test]
    fn nodes_know_where_they_are_written() {
        let root = parse(TEXT).unwrap();
        let to = root.at_path("procedures.déal.do[0].move.to").unwrap();
        assert_eq!(place(to), "\"hand[to]\"");
        let s = to.scalar().unwrap();
        assert_eq!(&TEXT[s.start().unwrap()..][..8], "hand[to]");
        let first = root.at_path("procedures.déal.do[1].set.score[p]").unwrap();
        assert_eq!(place(first), "'first(x)'");
        let (key, _) = root.at_path("play[0].call").unwrap().entries()[0].clone();
        assert_eq!(place(&key), "déal");
        let (key, _) = root.get("procedures").unwrap().entries()[0].clone();
        assert_eq!(place(&key), "déal");
        assert_eq!(root.at_path("play[1]"), None);
        assert_eq!(root.at_path("nothing"), None);
    }

    #[test]
    fn names_inside_escaped_and_quoted_strings_are_placed() {
        // (YAML, the name in the value, where it is written in the YAML)
        let cases = [
            (r#"a: "if x then \"é\" else water""#, "water", 26..31),
            (r#"a: 'say ''hi'' to water'"#, "water", 18..23),
            (r#"a: "\u00e9 + water""#, "water", 13..18),
            ("a: plain + water", "water", 11..16),
        ];
        for (text, name, written) in cases {
            let root = parse(text).unwrap();
            let s = root.get("a").unwrap().scalar().unwrap();
            let at = s.value.find(name).unwrap();
            assert_eq!(
                s.place(at..at + name.len()),
                Some(written.clone()),
                "{text}"
            );
            assert_eq!(&text[written], name);
        }
        // Folded over lines: no places.
        let root = parse("a: \"one\n  two\"").unwrap();
        assert_eq!(root.get("a").unwrap().scalar().unwrap().start(), None);
    }

    #[test]
    fn text_that_is_not_yaml_has_no_tree() {
        assert_eq!(parse("a: [1, 2"), None);
        assert_eq!(parse("a: b: c"), None);
    }
}
