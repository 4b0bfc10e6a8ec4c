//! "Did you mean" hints: the known name closest to a misspelt one.

/// " (did you mean 'x'?)" when a candidate is close to `word`, else nothing.
pub fn did_you_mean(word: &str, candidates: &[String]) -> String {
    closest(word, candidates)
        .map(|c| format!(" (did you mean '{c}'?)"))
        .unwrap_or_default()
}

/// The candidate closest to `word` by edit distance, if close enough to be a likely typo.
pub fn closest(word: &str, candidates: &[String]) -> Option<String> {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.clone())
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + (ca != *cb) as usize).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// `candidates` sorted by edit distance to `word` (stable: equal distances keep their order).
pub fn closest_first(word: &str, mut candidates: Vec<String>) -> Vec<String> {
    candidates.sort_by_key(|c| edit_distance(word, c));
    candidates
}
