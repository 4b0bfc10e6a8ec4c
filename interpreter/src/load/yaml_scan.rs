//! A look at YAML text, in one pass and in time linear in its length, before the YAML
//! reader parses it: flow collections (`[…]`, `{…}`) nested too deep and too many values
//! are refused at the place where the bound is passed. The YAML reader itself takes time
//! in the square of the flow nesting (each token looks at every open level), and about
//! 200 bytes a value, so the bounds must hold before it starts.
//!
//! The scan reads what YAML structure it needs and no more: quoted texts, block scalars
//! (`|`, `>`) and comments are skipped, and a `[` or `{` in block context opens a flow
//! collection only where a value starts (`key: [`, `- {`), not inside a plain text
//! (`if: x[0] > 1`). Where it cannot tell, it counts less, never more: the YAML reader's
//! own bound on nesting (the same 128) still holds after it.

/// The deepest that mappings and lists may be nested: the YAML reader's own bound.
pub const MAX_YAML_DEPTH: usize = 128;

/// The most values (texts, numbers, lists, mappings: keys count) one YAML file may hold.
pub const MAX_YAML_VALUES: usize = 1_000_000;

/// Why a text is refused, and where (line and column from 1, the column in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Whether `text` keeps within [`MAX_YAML_DEPTH`] and [`MAX_YAML_VALUES`].
pub(crate) fn check_yaml_bounds(text: &str) -> Result<(), Refusal> {
    Scan::new(text).run().map(|_| ())
}

/// Where the scan stands in a line of block context.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// A value may start here (the line's start, after `- `, `? `, `: `, an anchor or tag).
    ValueStart,
    /// Inside a plain text or after a value: a `[` here is text.
    InText,
}

struct Scan<'t> {
    bytes: &'t [u8],
    at: usize,
    /// Where the current line starts, and its number from 1.
    line_start: usize,
    line: usize,
    /// Open flow collections.
    depth: usize,
    values: usize,
    block: Block,
    /// In flow context: whether the next token starts an item (after `[`, `{`, `,`, `: `).
    expect_item: bool,
    /// The column (bytes from the line start) of the last token that may be a key.
    token_column: usize,
    /// The column of the node a block scalar's lines must be indented past.
    parent_column: Option<usize>,
}

impl<'t> Scan<'t> {
    fn new(text: &'t str) -> Self {
        Scan {
            bytes: text.as_bytes(),
            at: 0,
            line_start: 0,
            line: 1,
            depth: 0,
            values: 0,
            block: Block::ValueStart,
            expect_item: false,
            token_column: 0,
            parent_column: None,
        }
    }

    /// The values the text holds, or why it is refused.
    fn run(mut self) -> Result<usize, Refusal> {
        while let Some(&b) = self.bytes.get(self.at) {
            match b {
                b'\n' => {
                    self.at += 1;
                    self.new_line();
                }
                b' ' | b'\t' | b'\r' => self.at += 1,
                b'#' if self.after_blank() => self.skip_to_line_end(),
                _ if self.depth > 0 => self.flow_token(b)?,
                _ => self.block_token(b)?,
            }
        }
        Ok(self.values)
    }

    fn new_line(&mut self) {
        self.line += 1;
        self.line_start = self.at;
        if self.depth == 0 {
            self.block = Block::ValueStart;
            self.parent_column = None;
        }
    }

    /// Whether the byte at `at` follows a blank or starts its line (where `#` starts a
    /// comment and a quote starts a quoted text).
    fn after_blank(&self) -> bool {
        self.at == self.line_start || matches!(self.bytes[self.at - 1], b' ' | b'\t' | b'\r')
    }

    fn column(&self) -> usize {
        self.at - self.line_start
    }

    /// Whether the byte after `at` ends a token (a blank, a line end, the end).
    fn blank_follows(&self) -> bool {
        matches!(
            self.bytes.get(self.at + 1),
            None | Some(b' ' | b'\t' | b'\r' | b'\n')
        )
    }

    fn skip_to_line_end(&mut self) {
        while self.bytes.get(self.at).is_some_and(|&b| b != b'\n') {
            self.at += 1;
        }
    }

    fn count_value(&mut self) -> Result<(), Refusal> {
        self.values += 1;
        if self.values > MAX_YAML_VALUES {
            return Err(self.refuse(format!(
                "more than {} values (texts, numbers, lists and mappings, keys included): the YAML reader goes no further",
                thousands(MAX_YAML_VALUES)
            )));
        }
        Ok(())
    }

    fn open_flow(&mut self) -> Result<(), Refusal> {
        self.count_value()?;
        self.depth += 1;
        if self.depth > MAX_YAML_DEPTH {
            return Err(self.refuse(format!(
                "mappings and lists nested more than {MAX_YAML_DEPTH} deep: the YAML reader goes no deeper"
            )));
        }
        self.at += 1;
        self.expect_item = true;
        Ok(())
    }

    fn refuse(&self, message: String) -> Refusal {
        // Characters, not bytes: every byte but a UTF-8 continuation byte starts one.
        let before = &self.bytes[self.line_start..self.at];
        Refusal {
            line: self.line,
            column: before.iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1,
            message,
        }
    }

    fn block_token(&mut self, b: u8) -> Result<(), Refusal> {
        let column = self.column();
        if self.at == self.line_start && self.starts_marker() {
            // `---` or `...`: a document's start or end; a value may follow `---`.
            self.at += 3;
            return Ok(());
        }
        if self.at == self.line_start && b == b'%' {
            // A directive (`%YAML 1.2`).
            self.skip_to_line_end();
            return Ok(());
        }
        match (self.block, b) {
            (Block::ValueStart, b'-' | b'?') if self.blank_follows() => {
                self.parent_column = Some(column);
                self.at += 1;
            }
            (_, b':') if self.blank_follows() => {
                self.parent_column = Some(self.token_column);
                self.block = Block::ValueStart;
                self.at += 1;
            }
            (Block::ValueStart, b'&' | b'!') => {
                // An anchor or a tag: the value comes after it.
                while self
                    .bytes
                    .get(self.at)
                    .is_some_and(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                {
                    self.at += 1;
                }
            }
            (Block::ValueStart, b'[' | b'{') => {
                self.token_column = column;
                self.block = Block::InText;
                self.open_flow()?;
            }
            (Block::ValueStart, b'|' | b'>') => self.skip_block_scalar()?,
            (Block::ValueStart, b'"' | b'\'') => {
                self.token_column = column;
                self.block = Block::InText;
                self.count_value()?;
                self.skip_quoted(b);
            }
            (Block::ValueStart, _) => {
                self.token_column = column;
                self.block = Block::InText;
                self.count_value()?;
                self.at += 1;
            }
            (Block::InText, _) => self.at += 1,
        }
        Ok(())
    }

    fn flow_token(&mut self, b: u8) -> Result<(), Refusal> {
        match b {
            b'[' | b'{' => self.open_flow()?,
            b']' | b'}' => {
                self.depth -= 1;
                self.at += 1;
                self.expect_item = false;
                if self.depth == 0 {
                    // Back in block context, after a value (which a `: ` may make a key).
                    self.block = Block::InText;
                }
            }
            b',' => {
                self.expect_item = true;
                self.at += 1;
            }
            // `: ` (or `:` right after a quoted key, as JSON writes it) starts a value.
            b':' if self.blank_follows()
                || matches!(self.bytes.get(self.at + 1), Some(b','))
                || matches!(self.bytes[self.at - 1], b'"' | b'\'') =>
            {
                self.expect_item = true;
                self.at += 1;
            }
            b'"' | b'\'' if self.expect_item || self.after_blank() => {
                self.expect_item = false;
                self.count_value()?;
                self.skip_quoted(b);
            }
            _ => {
                if std::mem::replace(&mut self.expect_item, false) {
                    self.count_value()?;
                }
                self.at += 1;
            }
        }
        Ok(())
    }

    fn starts_marker(&self) -> bool {
        let rest = &self.bytes[self.at..];
        (rest.starts_with(b"---") || rest.starts_with(b"..."))
            && matches!(rest.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
    }

    /// A quoted text from its opening quote `q` past its closing one (or to the end):
    /// `\` escapes in double quotes, `''` is a quote in single quotes. Lines are counted.
    fn skip_quoted(&mut self, q: u8) {
        self.at += 1;
        while let Some(&b) = self.bytes.get(self.at) {
            self.at += 1;
            match b {
                b'\\' if q == b'"' => {
                    if self.bytes.get(self.at) == Some(&b'\n') {
                        self.line += 1;
                        self.line_start = self.at + 1;
                    }
                    self.at += 1;
                }
                b'\'' if q == b'\'' && self.bytes.get(self.at) == Some(&b'\'') => self.at += 1,
                b'\n' => {
                    self.line += 1;
                    self.line_start = self.at;
                }
                _ if b == q => return,
                _ => {}
            }
        }
    }

    /// A block scalar (`|`, `>`): its header line, then every line that is blank or
    /// indented past the node that holds it.
    fn skip_block_scalar(&mut self) -> Result<(), Refusal> {
        self.count_value()?;
        // With no key or `- ` before it on its line, the node that holds it stands left of
        // it (or it is a document of its own, at the line's start).
        let parent = self.parent_column.or_else(|| self.column().checked_sub(1));
        self.skip_to_line_end();
        while self.at < self.bytes.len() {
            // At a line's '\n': look at the next line.
            let start = self.at + 1;
            let rest = &self.bytes[start.min(self.bytes.len())..];
            let indent = rest.iter().take_while(|&&b| b == b' ').count();
            let blank = matches!(rest.get(indent), None | Some(b'\n' | b'\r'));
            let inside = match parent {
                Some(p) => indent > p,
                // A block scalar with no parent node (a document of its own): every line.
                None => true,
            };
            if !(blank || inside) {
                break;
            }
            self.at += 1;
            self.new_line();
            self.skip_to_line_end();
        }
        Ok(())
    }
}

/// `1,000,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal of `text` as `line:column: message`, or "ok".
    fn scanned(text: &str) -> String {
        match check_yaml_bounds(text) {
            Ok(()) => "ok".into(),
            Err(r) => format!("{}:{}: {}", r.line, r.column, r.message),
        }
    }

    fn nested(depth: usize) -> String {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn flow_nesting_past_the_bound_is_refused_where_it_is_passed() {
        let deep = "mappings and lists nested more than 128 deep: the YAML reader goes no deeper";
        let cases = [
            (format!("a: {}\n", nested(128)), "ok".to_string()),
            (format!("a: {}\n", nested(129)), format!("1:132: {deep}")),
            (
                format!("name: x\nb:\n  - {}\n", nested(100_000)),
                format!("3:133: {deep}"),
            ),
            // Mappings count as lists do; a flow collection may span lines.
            (
                format!("a: {}\n", "{b: ".repeat(129)),
                format!("1:{}: {deep}", 4 + 128 * 4),
            ),
            (
                format!("a: [\n{}\n]\n", "[".repeat(128)),
                format!("2:128: {deep}"),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(scanned(&text), want, "{:.60}", text);
        }
    }

    #[test]
    fn brackets_in_texts_comments_and_block_scalars_are_not_nesting() {
        let many = "[".repeat(200);
        let cases = [
            // Inside a plain text of block context.
            format!("if: x{many}\n"),
            format!("- a {many}\n"),
            // Quoted, single or double, with escapes, over lines.
            format!("a: \"{many}\"\n"),
            format!("a: \"\\\" {many}\"\n"),
            format!("a: 'it''s {many}'\n"),
            format!("a: [\"x\n{many}\"]\n"),
            format!("a: ['{many}', \"{many}\"]\n"),
            // Comments.
            format!("a: 1 # {many}\n"),
            format!("# {many}\n"),
            format!("a: [1, # {many}\n  2]\n"),
            // Block scalars, under a key, a list item, a key in a list item.
            format!("a: |\n  {many}\n\n  {many}\nb: 1\n"),
            format!("- >-\n   {many}\n- 2\n"),
            format!("- a: |\n    {many}\n  b: [1]\n"),
            // A quote inside a plain text is text.
            format!("a: it's {many}\n"),
            format!("a: [it's, x]\nb: '{many}'\n"),
        ];
        for text in cases {
            assert_eq!(scanned(&text), "ok", "{:.60}", text);
        }
    }

    #[test]
    fn after_a_block_scalar_or_a_quote_the_structure_is_read_again() {
        let cases = [
            format!("a: |\n  x\nb: {}\n", nested(129)),
            format!("a: \"x\ny\"\nb: {}\n", nested(129)),
            format!("a: 'x'\nb: {}\n", nested(129)),
            format!("- |\n  x\n- {}\n", nested(129)),
        ];
        for text in cases {
            assert!(
                scanned(&text).contains("nested more than 128"),
                "{text:.60}"
            );
        }
    }

    #[test]
    fn values_past_the_bound_are_refused() {
        let at_bound = format!("a: [{}]\n", vec!["1"; MAX_YAML_VALUES - 2].join(","));
        assert_eq!(scanned(&at_bound), "ok");
        let past = format!("a: [{}]\n", vec!["1"; MAX_YAML_VALUES - 1].join(","));
        let column = 4 + 2 * (MAX_YAML_VALUES - 2) + 1;
        assert_eq!(
            scanned(&past),
            format!("1:{column}: more than 1,000,000 values (texts, numbers, lists and mappings, keys included): the YAML reader goes no further")
        );
        // Block lists and mappings count their keys and items.
        let block = "- a: 1\n  b: x\n".repeat(MAX_YAML_VALUES / 4 + 1);
        assert!(scanned(&block).starts_with(&format!("{}:", (MAX_YAML_VALUES / 4 + 1) * 2 - 1)));
    }

    #[test]
    fn the_values_counted_are_those_the_yaml_reader_reads() {
        // key, value; a list and its two items; a mapping, its key and value; a text.
        let text = "a: 1\nb: [x, 'y']\nc: {d: e}\n- f\n";
        let values = Scan::new(text).run().unwrap();
        assert_eq!(values, 2 + 4 + 4 + 1);
    }
}
