//! Places in a document: byte offsets (what Rust slices and the grammar's spans use), the
//! loader's 1-based line and character column, and LSP positions (0-based lines, columns
//! in UTF-16 code units, as the protocol counts them by default).

use lsp_types::{Position, Range};

/// A document's text with the byte offset of each line's start.
pub struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Lines<'t> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The text of 0-based line `line`, without its line break.
    fn line(&self, line: usize) -> &'t str {
        let Some(&start) = self.starts.get(line) else {
            return "";
        };
        let end = self.starts.get(line + 1).map_or(self.text.len(), |e| e - 1);
        self.text[start..end].trim_end_matches('\r')
    }

    /// The byte offset of an LSP position; a column past the line's end is its end, a
    /// line past the text's end is the text's end.
    pub fn offset(&self, at: Position) -> usize {
        let line = at.line as usize;
        let Some(&start) = self.starts.get(line) else {
            return self.text.len();
        };
        let mut units = 0u32;
        for (i, c) in self.line(line).char_indices() {
            if units >= at.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        start + self.line(line).len()
    }

    /// The LSP position of a byte offset (clamped to the text, and back to the start of a
    /// character it falls inside).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, span: std::ops::Range<usize>) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a 1-based line and 1-based character column (the loader's and
    /// the trace parser's places).
    pub fn offset_of_line_column(&self, line: usize, column: usize) -> usize {
        let line = line.saturating_sub(1);
        let Some(&start) = self.starts.get(line) else {
            return self.text.len();
        };
        let text = self.line(line);
        start
            + text
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(text.len(), |(i, _)| i)
    }

    /// The span of the word (a name, a row id with `-`, a label) at or after `offset` on
    /// its line; empty at a line's end.
    pub fn word_at(&self, offset: usize) -> std::ops::Range<usize> {
        let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
        let rest = &self.text[offset.min(self.text.len())..];
        let len = rest
            .char_indices()
            .find(|&(_, c)| !is_word(c))
            .map_or(rest.len(), |(i, _)| i);
        offset..offset + len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line with characters of one, two (é) and four (𝄞, two UTF-16 units) bytes.
    const TEXT: &str = "ab\nré𝄞x: 1\r\nlast";

    #[test]
    fn positions_count_utf16_units_and_offsets_bytes() {
        let lines = Lines::new(TEXT);
        // (byte offset, LSP line, LSP character)
        let cases = [
            (0, 0, 0),
            (2, 0, 2),
            (3, 1, 0),
            (4, 1, 1),  // é
            (6, 1, 2),  // 𝄞
            (10, 1, 4), // x: after 𝄞's two units
            (16, 2, 0),
            (20, 2, 4),
        ];
        for (offset, line, character) in cases {
            let at = Position::new(line, character);
            assert_eq!(lines.position(offset), at, "offset {offset}");
            assert_eq!(lines.offset(at), offset, "{at:?}");
        }
        // A column past the line's end is the line's end (before "\r\n").
        assert_eq!(lines.offset(Position::new(1, 99)), 14);
        assert_eq!(lines.offset(Position::new(9, 0)), TEXT.len());
        // Inside 𝄞 (offset 7) is its start.
        assert_eq!(lines.position(7), Position::new(1, 2));
    }

    #[test]
    fn the_loaders_columns_count_characters() {
        let lines = Lines::new(TEXT);
        // "x" is the 4th character of line 2.
        assert_eq!(lines.offset_of_line_column(2, 4), 10);
        assert_eq!(lines.position(10), Position::new(1, 4));
        assert_eq!(lines.offset_of_line_column(3, 1), 16);
        assert_eq!(lines.offset_of_line_column(30, 1), TEXT.len());
    }
}
