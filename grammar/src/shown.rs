//! Texts of the user's (player names, rule references) as a message repeats them: a
//! message may be repeated for every line of a trace, so a name of a million characters
//! is shown by its start and its length, and a list of a hundred thousand names by its
//! first few and their number.

use std::borrow::Cow;

/// The most characters of one name a message shows.
pub const SHOWN_CHARS: usize = 40;

/// The most names of a list a message shows.
pub const SHOWN_NAMES: usize = 12;

/// `text` as a message shows it: whole up to [`SHOWN_CHARS`] characters, else its first
/// ones, `…` and its length.
pub fn shown(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(SHOWN_CHARS) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!(
            "{}… ({} characters)",
            &text[..end],
            text.chars().count()
        )),
    }
}

/// `names` joined by `separator` as a message shows them: each [`shown`], at most
/// [`SHOWN_NAMES`] of them, then how many there are in all.
pub fn shown_list<S: AsRef<str>>(names: &[S], separator: &str) -> String {
    let mut out = names
        .iter()
        .take(SHOWN_NAMES)
        .map(|n| shown(n.as_ref()))
        .collect::<Vec<_>>()
        .join(separator);
    if names.len() > SHOWN_NAMES {
        out.push_str(&format!("{separator}… ({} in all)", names.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_and_lists_are_shown_by_their_start_and_size() {
        assert_eq!(shown("red"), "red");
        let forty = "é".repeat(40);
        assert_eq!(shown(&forty), forty);
        assert_eq!(
            shown(&"a".repeat(2_000_000)),
            format!("{}… (2000000 characters)", "a".repeat(40))
        );
        assert_eq!(shown_list(&["a", "b"], ", "), "a, b");
        let many: Vec<String> = (1..=20).map(|i| format!("p{i}")).collect();
        assert_eq!(
            shown_list(&many, " "),
            "p1 p2 p3 p4 p5 p6 p7 p8 p9 p10 p11 p12 … (20 in all)"
        );
    }
}
