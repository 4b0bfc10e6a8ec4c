//! "Did you mean" hints: the known name closest to a misspelt one.

/// " (did you mean 'x'?)" when a candidate is close to `word`, else nothing.
pub fn did_you_mean(word: &str, candidates: &[String]) -> String {
    closest(word, candidates)
        .map(|c| format!(" (did you mean '{c}'?)"))
        .unwrap_or_default()
}

/// The candidate closest to `word` by edit distance, if close enough to be a likely typo;
/// of equally close candidates, the first (callers list the likeliest kind first).
pub fn closest(word: &str, candidates: &[String]) -> Option<String> {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.clone())
}

/// The optimal-string-alignment distance: insertions, deletions, substitutions and
/// transpositions of two neighbours each count one, as a typo makes them ("pya" is one
/// edit from "pay", two from "play").
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the distance table: i-2, i-1 and i.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let substitution = prev[j - 1] + (a[i - 1] != b[j - 1]) as usize;
            let mut best = substitution.min(prev[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            row[j] = best;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

/// `candidates` sorted by edit distance to `word` (stable: equal distances keep their order).
pub fn closest_first(word: &str, mut candidates: Vec<String>) -> Vec<String> {
    candidates.sort_by_key(|c| edit_distance(word, c));
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(word: &str, candidates: &[&str], expected: Option<&str>) {
        let candidates: Vec<String> = candidates.iter().map(|c| c.to_string()).collect();
        assert_eq!(
            closest(word, &candidates).as_deref(),
            expected,
            "{word} among {candidates:?}"
        );
    }

    #[test]
    fn the_closest_candidate_is_the_likely_typo() {
        // A transposition is one edit: "pya" is "pay" with two letters swapped.
        check(
            "pya",
            &["setup", "play", "turn", "pay", "play_card"],
            Some("pay"),
        );
        check(
            "crads",
            &["regions", "scoring_cards", "cards"],
            Some("cards"),
        );
        check("csot", &["name", "cost", "moves", "tokens"], Some("cost"));
        check("hnad", &["hand", "track"], Some("hand"));
        // A missing letter, an extra one, a wrong one.
        check("tokns", &["tokens", "vp"], Some("tokens"));
        check("tokenss", &["tokens", "vp"], Some("tokens"));
        check("tokems", &["tokens", "vp"], Some("tokens"));
        // Equally close: the first listed.
        check("pat", &["pay", "pan"], Some("pay"));
        check("pat", &["pan", "pay"], Some("pan"));
        // Nothing close enough.
        check("wagons", &["cards", "hand"], None);
        check("x", &[], None);
    }

    #[test]
    fn edit_distances() {
        for (a, b, expected) in [
            ("", "", 0),
            ("", "abc", 3),
            ("abc", "", 3),
            ("abc", "abc", 0),
            ("abc", "acb", 1),
            ("pya", "pay", 1),
            ("pya", "play", 2),
            ("ca", "abc", 3),
            ("kitten", "sitting", 3),
            ("héllo", "hlélo", 1),
        ] {
            assert_eq!(edit_distance(a, b), expected, "{a:?} to {b:?}");
            assert_eq!(edit_distance(b, a), expected, "{b:?} to {a:?}");
        }
    }
}
