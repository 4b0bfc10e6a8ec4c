//! The server's features on rulesets held in memory (documents the editor has open that
//! exist on no disk), each case a row: where the cursor stands, what must be found.

use std::path::{Path, PathBuf};

use lsp_types::Uri;

use crate::workspace::{Document, Workspace};
use crate::{hover, navigate, tokens};

/// A ruleset that names what it declares in every way a ruleset can: parameters, rows by
/// `@id`, `table@id` and `table["id"]`, columns, locals of `for_each`, `random`, `into:`,
/// lambdas and `let … in`, functions and procedures with parameters.
const NAMES: &str = include_str!("names.yaml");

fn workspace(text: &str) -> (Workspace, PathBuf) {
    let path = PathBuf::from("/nonexistent/frontier-lsp-test/ruleset.yaml");
    let mut ws = Workspace::new(Default::default());
    let uri: Uri = crate::uri::uri_of(&path).unwrap();
    ws.docs.insert(
        path.clone(),
        Document {
            uri,
            text: text.to_string(),
        },
    );
    (ws, path)
}

/// The byte offset `past` bytes into the `nth` (from 1) occurrence of `needle`.
fn offset(text: &str, needle: &str, nth: usize, past: usize) -> usize {
    text.match_indices(needle)
        .nth(nth - 1)
        .unwrap_or_else(|| panic!("{needle:?} occurs fewer than {nth} times"))
        .0
        + past
}

fn line_at(text: &str, line: u32) -> &str {
    text.lines()
        .nth(line as usize)
        .unwrap_or_default()
        .trim_start()
}

/// Go to definition: (the text at the cursor, its occurrence, bytes into it, the start of
/// each line the definitions are on).
const DEFINITIONS: &[(&str, usize, usize, &[&str])] = &[
    // A parameter in a function's value; a function's parameter; a lambda's; a let's.
    ("top + goal", 1, 6, &["goal: { value: 3"]),
    ("hand[p]", 1, 5, &["params: { p: player }"]),
    (
        "c.rank",
        1,
        0,
        &["value: \"let top = max(hand[p], c => c.rank)"],
    ),
    ("in top + goal", 1, 3, &["value: \"let top"]),
    // Columns and rows, three ways.
    ("c.rank", 1, 2, &["columns: { rank: int"]),
    ("@red", 1, 1, &["rows: [red, blue]"]),
    ("cards@kilo", 1, 6, &["rows: [[kilo"]),
    ("cards@kilo", 1, 0, &["cards:"]),
    (
        "cards[\\\"lima\\\"]",
        1,
        8,
        &["rows: [[kilo, 1, red], [lima"],
    ),
    // A table as a type.
    ("colour: colours", 1, 9, &["colours:"]),
    // Locals of statements: random, for_each, into.
    ("item: card", 1, 6, &["- random: { card: deck }"]),
    ("to: p }", 1, 4, &["- for_each: { p: players }"]),
    ("sum + reds", 1, 0, &["into: sum"]),
    // A procedure and its parameter named by call:, a function called.
    ("call: { deal", 1, 8, &["deal:"]),
    ("{ to: p }", 1, 2, &["params: { to: player }"]),
    ("best(active)", 1, 0, &["best:"]),
    ("reds()", 1, 0, &["reds:"]),
    // State and zones.
    ("score[active] + best", 1, 0, &["score: { per: players"]),
    ("to: \"hand[to]\"", 1, 5, &["hand: { of: cards"]),
];

#[test]
fn definitions_of_every_kind_of_name() {
    let (mut ws, path) = workspace(NAMES);
    let ruleset = ws.ruleset(&path);
    assert!(ruleset.game.is_some(), "{:?}", ruleset.problems);
    for &(needle, nth, past, wanted) in DEFINITIONS {
        let at = offset(NAMES, needle, nth, past);
        let found: Vec<&str> = navigate::definition(&ruleset, 0, at)
            .iter()
            .map(|l| line_at(NAMES, l.range.start.line))
            .collect();
        assert_eq!(found.len(), wanted.len(), "{needle:?}: {found:?}");
        for (f, w) in found.iter().zip(wanted) {
            assert!(f.starts_with(w), "{needle:?}: found {f:?}, wanted {w:?}");
        }
    }
}

#[test]
fn references_of_a_local_stay_in_its_procedure() {
    let (mut ws, path) = workspace(NAMES);
    let ruleset = ws.ruleset(&path);
    // `p` is both best's parameter and play's loop name: each is its own.
    let at = offset(NAMES, "hand[p]", 1, 5);
    let lines: Vec<u32> = navigate::references(&ruleset, 0, at, true)
        .iter()
        .map(|l| l.range.start.line)
        .collect();
    let texts: Vec<&str> = lines.iter().map(|l| line_at(NAMES, *l)).collect();
    assert_eq!(
        texts,
        [
            "params: { p: player }",
            "value: \"let top = max(hand[p], c => c.rank) in top + goal\""
        ]
    );
}

/// Hover: (the text at the cursor, bytes into it, what the hover holds).
const HOVERS: &[(&str, usize, &[&str])] = &[
    (
        "score[active] + best",
        0,
        &["state variable `score`: int, per players", "points so far"],
    ),
    (
        "top + goal",
        6,
        &["parameter `goal`: int = 3", "points to win"],
    ),
    (
        "best(active)",
        0,
        &["function `best`: best(p: player) → int"],
    ),
    ("max(hand", 0, &["built-in function `max`"]),
    ("c.rank", 2, &["column of cards: int"]),
    ("@red", 1, &["row `red`: row of colours"]),
    (
        "to: \"hand[to]\"",
        5,
        &["zone `hand`: list of cards, per players"],
    ),
];

/// Two tables with a column `cost`: a `x.cost` is the column of the table of `x` where the
/// game tells, each of them where it does not. (The text at the cursor, its occurrence,
/// bytes into it, the tables of the columns found.)
const SHARED_COLUMNS: &[(&str, usize, usize, &[&str])] = &[
    // A parameter's declared type, in a function and in a procedure.
    ("c.cost", 1, 2, &["cards"]),
    ("t.cost + tiles", 1, 2, &["tiles"]),
    // A table indexed, a function's value.
    ("tiles[0].cost", 1, 9, &["tiles"]),
    ("cheapest().cost", 1, 11, &["tiles"]),
    // for_each over a keyed zone, random from an unkeyed one, let of a row, let of a let.
    ("card.cost", 1, 5, &["cards"]),
    ("tile.cost", 1, 5, &["tiles"]),
    ("row.cost", 1, 4, &["cards"]),
    ("other.cost", 1, 6, &["cards"]),
    // A keyed state variable indexed; a column of a row-typed state variable.
    ("marked[active].cost", 1, 15, &["tiles"]),
    ("held.next.cost", 1, 10, &["tiles"]),
    // A lambda's element: not known here, so both.
    ("t.cost > 1", 1, 2, &["cards", "tiles"]),
];

#[test]
fn a_column_several_tables_have_is_the_one_of_the_row_before_the_dot() {
    const TEXT: &str = include_str!("shared_columns.yaml");
    let (mut ws, path) = workspace(TEXT);
    let ruleset = ws.ruleset(&path);
    assert!(ruleset.game.is_some(), "{:?}", ruleset.problems);
    let columns_line = |table: &str| {
        let at = TEXT.find(&format!("  {table}:\n")).unwrap();
        TEXT[at..].lines().nth(1).unwrap().trim_start()
    };
    for &(needle, nth, past, tables) in SHARED_COLUMNS {
        let at = offset(TEXT, needle, nth, past);
        let found: Vec<&str> = navigate::definition(&ruleset, 0, at)
            .iter()
            .map(|l| line_at(TEXT, l.range.start.line))
            .collect();
        let wanted: Vec<&str> = tables.iter().map(|t| columns_line(t)).collect();
        assert_eq!(found, wanted, "{needle:?}");
        let (hover, _) =
            hover::of_ruleset(&ruleset, 0, at).unwrap_or_else(|| panic!("{needle:?}: no hover"));
        for table in ["cards", "tiles"] {
            let column = format!("column of {table}: int");
            assert_eq!(
                hover.contains(&column),
                tables.contains(&table),
                "{needle:?}: {hover:?}"
            );
        }
    }
}

#[test]
fn completion_gives_the_locals_above_with_their_types() {
    const TEXT: &str = include_str!("shared_columns.yaml");
    let (mut ws, path) = workspace(TEXT);
    let ruleset = ws.ruleset(&path);
    let at = offset(TEXT, "tile.cost + row.cost", 1, 0);
    let locals: Vec<(String, String)> = crate::complete::in_ruleset(&ruleset, 0, at)
        .into_iter()
        .filter(|i| i.detail.as_deref().is_some_and(|d| d.starts_with("local")))
        .map(|i| (i.label, i.detail.unwrap_or_default()))
        .collect();
    let wanted = [
        ("other", "local: cards"),
        ("row", "local: cards"),
        ("tile", "local: tiles"),
        ("card", "local: cards"),
    ];
    let wanted: Vec<(String, String)> = wanted
        .iter()
        .map(|(l, d)| (l.to_string(), d.to_string()))
        .collect();
    assert_eq!(locals, wanted);
    // A parameter's declared type that is no table.
    let at = offset(NAMES, "hand[p], c", 1, 5);
    let (mut ws, path) = workspace(NAMES);
    let ruleset = ws.ruleset(&path);
    let p = crate::complete::in_ruleset(&ruleset, 0, at)
        .into_iter()
        .find(|i| i.label == "p")
        .and_then(|i| i.detail);
    assert_eq!(p.as_deref(), Some("local: player"));
}

#[test]
fn hover_of_every_kind_of_name() {
    let (mut ws, path) = workspace(NAMES);
    let ruleset = ws.ruleset(&path);
    for &(needle, past, wanted) in HOVERS {
        let at = offset(NAMES, needle, 1, past);
        let (text, _) =
            hover::of_ruleset(&ruleset, 0, at).unwrap_or_else(|| panic!("{needle:?}: no hover"));
        for w in wanted {
            assert!(text.contains(w), "{needle:?}: {text:?} lacks {w:?}");
        }
    }
}

#[test]
fn semantic_tokens_colour_the_names_inside_strings() {
    let (mut ws, path) = workspace(NAMES);
    let ruleset = ws.ruleset(&path);
    let found = tokens::of_file(&ruleset, 0).data;
    // Decode the relative positions back to (line, character, length, type).
    let legend = tokens::legend().token_types;
    let (mut line, mut start) = (0, 0);
    let mut decoded = Vec::new();
    for t in found {
        if t.delta_line > 0 {
            start = 0;
        }
        line += t.delta_line;
        start += t.delta_start;
        let text: String = NAMES
            .lines()
            .nth(line as usize)
            .unwrap()
            .chars()
            .skip(start as usize)
            .take(t.length as usize)
            .collect();
        decoded.push((text, legend[t.token_type as usize].as_str().to_string()));
    }
    for (name, ty) in [
        ("goal", "macro"),
        ("max", "function"),
        ("rank", "property"),
        ("red", "enumMember"),
        ("deal", "method"),
        ("top", "parameter"),
        ("score", "variable"),
        ("colours", "type"),
    ] {
        assert!(
            decoded.iter().any(|(n, t)| n == name && t == ty),
            "{name} as {ty} in {decoded:?}"
        );
    }
}

#[test]
fn a_file_that_is_not_on_disk_loads_from_its_text() {
    let (mut ws, path) = workspace("name: broken\nplay: [{ set: { nosuch: 1 } }]\n");
    let ruleset = ws.ruleset(Path::new(&path));
    assert!(ruleset.game.is_none());
    assert!(
        ruleset
            .problems
            .iter()
            .any(|d| d.message.contains("nosuch")),
        "{:?}",
        ruleset.problems
    );
}

/// Every feature at every place of the ruleset, and of copies cut short anywhere (broken
/// YAML, half-written expressions): answers or nothing, never a panic.
#[test]
fn every_place_of_whole_and_broken_texts_is_answered_without_a_fault() {
    let mut cuts: Vec<usize> = (0..NAMES.len())
        .step_by(29)
        .filter(|&c| NAMES.is_char_boundary(c))
        .collect();
    cuts.push(NAMES.len());
    for cut in cuts {
        let text = &NAMES[..cut];
        let (mut ws, path) = workspace(text);
        let ruleset = ws.ruleset(&path);
        let _ = crate::diagnostics::of_ruleset(&path, &ruleset);
        if ruleset.files.is_empty() {
            continue;
        }
        let _ = tokens::of_file(&ruleset, 0);
        let step = if cut == NAMES.len() { 1 } else { 7 };
        // Places come from LSP positions: always at a character's start.
        for at in (0..=text.len())
            .step_by(step)
            .filter(|&at| text.is_char_boundary(at))
        {
            let _ = hover::of_ruleset(&ruleset, 0, at);
            let _ = navigate::definition(&ruleset, 0, at);
            let _ = navigate::references(&ruleset, 0, at, true);
            let _ = crate::complete::in_ruleset(&ruleset, 0, at);
        }
    }
}

#[test]
fn a_did_you_mean_is_offered_as_a_fix() {
    let text = NAMES.replacen("score[active] + best", "scroe[active] + best", 1);
    let (mut ws, path) = workspace(&text);
    let ruleset = ws.ruleset(&path);
    let found = crate::diagnostics::of_ruleset(&path, &ruleset);
    let diagnostics = &found[&path];
    let uri = crate::uri::uri_of(&path).unwrap();
    let fixes = crate::fixes::of(&uri, &text, diagnostics);
    let json = serde_json::to_string(&fixes).unwrap();
    assert!(json.contains("Replace 'scroe' with 'score'"), "{json}");
    assert!(json.contains("\"newText\":\"score\""), "{json}");
}

/// Completion at a key: (text put in a line of its own after the line that starts with
/// this, its indentation, keys that must be offered).
const KEYS: &[(&str, &str, &[&str])] = &[
    (
        "  deck: { of: cards",
        "",
        &["zones", "procedures", "ranking"],
    ),
    ("    of: cards", "    ", &["visibility", "per", "of"]),
    ("  total:", "    ", &["params", "returns", "do"]),
];

#[test]
fn completion_of_keys_of_sections_and_declarations() {
    for &(after, indent, wanted) in KEYS {
        // A declaration written as a block, its keys one a line.
        let text = NAMES.replacen(
            "  hand: { of: cards, per: players, visibility: owner }",
            "  hand:\n    of: cards",
            1,
        );
        let at = offset(&text, after, 1, 0);
        let line_end = at + text[at..].find('\n').unwrap() + 1;
        let text = format!("{}{indent}\n{}", &text[..line_end], &text[line_end..]);
        let (mut ws, path) = workspace(&text);
        let ruleset = ws.ruleset(&path);
        let labels: Vec<String> = crate::complete::in_ruleset(&ruleset, 0, line_end + indent.len())
            .into_iter()
            .map(|i| i.label)
            .collect();
        for w in wanted {
            assert!(
                labels.iter().any(|l| l == w),
                "after {after:?}: {w} in {labels:?}"
            );
        }
    }
}
