//! Byte spans into a source text, and their conversion to 1-based line:column.

/// A half-open byte range `start..end` into the text that was parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl LineCol {
    /// The line and column of byte `offset` in `text`. Offsets past the end (or inside a
    /// multi-byte character) are clamped to the nearest valid position before them.
    pub fn of(text: &str, offset: usize) -> LineCol {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        LineCol { line, column }
    }
}

impl std::fmt::Display for LineCol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let text = "ab\ncdé\nf";
        assert_eq!(LineCol::of(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(LineCol::of(text, 3), LineCol { line: 2, column: 1 });
        // "é" is two bytes (5..7): offset 6 is inside it and clamps back to its start.
        assert_eq!(LineCol::of(text, 6), LineCol { line: 2, column: 3 });
        assert_eq!(LineCol::of(text, 100), LineCol { line: 3, column: 2 });
    }
}
