//! Rules coverage: the clause map of a ruleset's RULES.md (the table whose first column is
//! "Clause") and which rule references reach each clause. Pure: the caller reads the file
//! and replays the traces (`trace::replay_covering` gathers the references they run).

use std::collections::BTreeSet;
use std::sync::Arc;

/// One row of the clause map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// The first column, as written.
    pub text: String,
    /// The rule reference it falls under (see [`clauses`]); none when it names none that
    /// the ruleset knows (its coverage is then not judged).
    pub reference: Option<String>,
    /// The traces its "Covered by" column names (`traces/x.trace`), as written.
    pub traces: Vec<String>,
}

/// The clause map of a RULES.md, in order; empty when it has none. `known` holds the
/// ruleset's rule references. A clause falls under, in this order: the section it starts
/// with (`§5.1 …`); the text before its first colon, when that names a known reference
/// (`Comptez vos points/Territoires: …`); the nearest heading above its table, without
/// its numbering (`### 2 - Actions` → `Actions`), when that names one.
pub fn clauses(rules_md: &str, known: &BTreeSet<Arc<str>>) -> Vec<Clause> {
    let names_known = |candidate: &str| reaches(candidate, known);
    let mut out = Vec::new();
    let mut in_map = false;
    let mut heading: Option<String> = None;
    for line in rules_md.lines() {
        if let Some(title) = line.trim_start().strip_prefix('#') {
            let title = title.trim_start_matches('#').trim();
            // "2 - Actions", "1. Setup": the numbering is not part of the reference.
            let title = title
                .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | '-' | ' '));
            heading = Some(title.to_string()).filter(|t| !t.is_empty());
        }
        let Some(row) = line.trim().strip_prefix('|') else {
            in_map = false;
            continue;
        };
        let columns: Vec<&str> = row.split('|').map(str::trim).collect();
        let first = columns.first().copied().unwrap_or_default();
        if first == "Clause" {
            in_map = true;
            continue;
        }
        if !in_map || first.starts_with("---") || first.is_empty() {
            continue;
        }
        let section = first
            .strip_prefix('§')
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string);
        let before_colon = first
            .split_once(':')
            .map(|(r, _)| r.trim().to_string())
            .filter(|r| names_known(r));
        let under_heading = heading.clone().filter(|h| names_known(h));
        let reference = section.or(before_colon).or(under_heading);
        let covered_by = columns.get(2).copied().unwrap_or_default();
        out.push(Clause {
            text: first.to_string(),
            reference,
            traces: trace_names(covered_by),
        });
    }
    out
}

/// The `traces/….trace` paths named in a cell (in backquotes or not).
fn trace_names(cell: &str) -> Vec<String> {
    cell.split(|c: char| c.is_whitespace() || matches!(c, '`' | ',' | ';' | '(' | ')'))
        .filter(|w| w.starts_with("traces/") && w.ends_with(".trace"))
        .map(str::to_string)
        .collect()
}

/// Whether a clause's reference is reached by these rule references: a reference, or one
/// part of a `Part/Subpart` reference, and the clause's are equal, or one is the other
/// followed by more words (`5.1` reaches `5.1`, not `5.10`; `Mise en place` reaches the
/// heading `Mise en place du jeu`).
pub fn reaches(reference: &str, ran: &BTreeSet<Arc<str>>) -> bool {
    let words = |long: &str, short: &str| {
        long.strip_prefix(short)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
    };
    ran.iter()
        .flat_map(|r| std::iter::once(&**r).chain(r.split('/')))
        .any(|p| words(p, reference) || words(reference, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clause_map_gives_references_and_traces() {
        let md = "intro\n\n| Clause | Where | Covered by |\n|---|---|---|\n\
                  | §5.1 Play a card. | `play` | `traces/a.trace`, `traces/b.trace` |\n\
                  | Comptez vos points/Territoires: the largest group | `ranking` | tests |\n\
                  | A note without reference | — | — |\n\nafter\n| not | a | map |\n";
        let known: BTreeSet<Arc<str>> = ["5.1", "Comptez vos points/Territoires"]
            .into_iter()
            .map(Arc::from)
            .collect();
        let c = clauses(md, &known);
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].reference.as_deref(), Some("5.1"));
        assert_eq!(c[0].traces, ["traces/a.trace", "traces/b.trace"]);
        assert_eq!(
            c[1].reference.as_deref(),
            Some("Comptez vos points/Territoires")
        );
        assert!(c[1].traces.is_empty());
        assert_eq!(c[2].reference, None);
        // Under a heading that names a reference, a clause without one falls under it.
        let md = "### 2 - Territoires\n| Clause | a | b |\n|---|---|---|\n| A turn is: this. | x | y |\n";
        assert_eq!(
            clauses(md, &known)[0].reference.as_deref(),
            Some("Territoires")
        );
        let md = "### Elsewhere\n| Clause | a | b |\n|---|---|---|\n| A turn is: this. | x | y |\n";
        assert_eq!(clauses(md, &known)[0].reference, None);
    }

    #[test]
    fn a_reference_reaches_its_clause_as_a_whole_word() {
        let ran: BTreeSet<Arc<str>> = ["5.10", "Comptez vos points/Territoires"]
            .into_iter()
            .map(Arc::from)
            .collect();
        assert!(reaches("5.10", &ran));
        assert!(!reaches("5.1", &ran));
        assert!(reaches("Territoires", &ran));
        assert!(reaches("Comptez vos points", &ran));
        assert!(reaches("Territoires du jeu", &ran));
        assert!(!reaches("Territ", &ran));
    }
}
