//! The documentation says what the code does: the table of built-in functions in
//! docs/rulesets.md is the registry's (`builtins::markdown_table`; run with
//! `UPDATE_DOCS=1` to rewrite the table after changing a built-in), its Limits table is
//! the code's, and every ```yaml and ```rhai example of the docs loads in the context its
//! `<!-- example: … -->` comment gives (`check_example`).

use frontier_interpreter::builtins;
use frontier_tests::workspace;

const START: &str = "<!-- built-ins: generated from the registry (interpreter/src/builtins); tests/tests/docs.rs checks it, UPDATE_DOCS=1 rewrites it -->\n";
const END: &str = "<!-- end of built-ins -->";

#[test]
fn the_built_ins_table_is_the_registry() {
    let path = workspace().join("docs/rulesets.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let start = text
        .find(START)
        .expect("docs/rulesets.md marks the start of the built-ins table")
        + START.len();
    let end = start
        + text[start..]
            .find(END)
            .expect("docs/rulesets.md marks the end of the built-ins table");
    let table = builtins::markdown_table();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{table}{}", &text[..start], &text[end..])).unwrap();
        return;
    }
    assert!(
        text[start..end] == table,
        "docs/rulesets.md's built-ins table differs from the registry; run `UPDATE_DOCS=1 cargo test -p frontier-tests --test integration docs::`. The registry's table:\n{table}"
    );
}

/// A number as the docs write it: 10,000,000.
fn thousands(n: u64) -> String {
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

/// The rows of docs/rulesets.md's Limits table, split into cells.
fn limits_table() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(workspace().join("docs/rulesets.md")).unwrap();
    let section = &text[text
        .find("### Limits")
        .expect("docs/rulesets.md has a Limits section")..];
    let section = &section[..section[4..]
        .find("\n### ")
        .map_or(section.len(), |end| end + 4)];
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| What"))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_limits_table_gives_the_code_s_limits() {
    use frontier_interpreter::model::Limits;
    let rows = limits_table();
    let defaults = Limits::default();
    // Every limit a command may change: its row, its default and its --limit name (with
    // its ceiling, where one applies).
    for info in Limits::LIST {
        let row = rows
            .iter()
            .find(|r| r[0] == info.what)
            .unwrap_or_else(|| panic!("no row '{}' in the Limits table", info.what));
        assert_eq!(
            row[1],
            thousands((info.get)(&defaults)),
            "the docs' default of {}",
            info.name
        );
        let named = if info.ceiling < u32::MAX as u64 {
            format!("`{}`, at most {}", info.name, thousands(info.ceiling))
        } else {
            format!("`{}`", info.name)
        };
        assert_eq!(row[2], named, "the docs' --limit of '{}'", info.what);
    }
    // The fixed ones.
    let fixed = [
        (
            "Decisions and chance outcomes of one game in `simulate` and `bench`",
            frontier_interpreter::runner::MAX_STEPS,
        ),
        (
            "Numbers in one `range`",
            frontier_interpreter::builtins::MAX_RANGE as u64 + 1,
        ),
        (
            "Ruleset functions calling one another, nested (one that calls one: 2)",
            frontier_interpreter::model::MAX_FUNCTION_NESTING as u64,
        ),
        (
            "Options one decision lists (each element of a `for:` list, each combination of several)",
            frontier_interpreter::model::MAX_DECISION_OPTIONS as u64,
        ),
        (
            "Locals of the procedure calls under way, together",
            frontier_interpreter::model::MAX_CALL_LOCALS as u64,
        ),
        (
            "Elements of one list an expression builds (`concat`)",
            frontier_interpreter::builtins::MAX_LIST_ELEMENTS as u64,
        ),
        (
            "List elements and text bytes held in locals, together",
            frontier_interpreter::model::MAX_LOCAL_ELEMENTS as u64,
        ),
        (
            "Bytes of one text an expression builds (`text`)",
            frontier_interpreter::builtins::MAX_TEXT_BYTES as u64,
        ),
        (
            "Problems one trace reports (past it: a line that says how many more there are, from where)",
            frontier_interpreter::frontier_grammar::trace::MAX_TRACE_ERRORS as u64,
        ),
        (
            "Mappings and lists nested in one YAML file (a ruleset, a position)",
            frontier_interpreter::MAX_YAML_DEPTH as u64,
        ),
        (
            "Values in one YAML file (texts, numbers, lists and mappings, keys included)",
            frontier_interpreter::MAX_YAML_VALUES as u64,
        ),
        (
            "Functions of a ruleset's scripts",
            frontier_interpreter::script::MAX_SCRIPT_FUNCTIONS as u64,
        ),
    ];
    for (what, limit) in fixed {
        let row = rows
            .iter()
            .find(|r| r[0] == what)
            .unwrap_or_else(|| panic!("no row '{what}'"));
        assert_eq!(
            (row[1].as_str(), row[2].as_str()),
            (thousands(limit).as_str(), "—"),
            "docs say {row:?}, the code {limit}"
        );
    }
    // Every row that names a --limit is one the code has.
    for row in &rows {
        if row[2] != "—" {
            let name = row[2]
                .trim_start_matches('`')
                .split('`')
                .next()
                .unwrap_or_default();
            assert!(
                Limits::LIST.iter().any(|l| l.name == name),
                "the docs name a limit '{name}' the code does not have"
            );
        }
    }
}

#[test]
fn every_limit_can_be_set_by_name_up_to_its_ceiling() {
    use frontier_interpreter::model::Limits;
    for info in Limits::LIST {
        let mut limits = Limits::default();
        limits.set(info.name, 7).unwrap();
        assert_eq!((info.get)(&limits), 7, "{}", info.name);
        assert_eq!(
            limits.set(info.name, 0).unwrap_err(),
            format!("limit {}: at least 1", info.name)
        );
        if info.ceiling < u64::MAX {
            assert_eq!(
                limits.set(info.name, info.ceiling + 1).unwrap_err(),
                format!("limit {}: at most {}", info.name, info.ceiling)
            );
        }
        limits.set(info.name, info.ceiling).unwrap();
        assert_eq!((info.get)(&limits), info.ceiling, "{}", info.name);
    }
    assert!(Limits::default()
        .set("moves", 5)
        .unwrap_err()
        .starts_with("unknown limit 'moves': one of nesting, operators, statements, calls, elements, cells, slots, bytes, work"));
}

/// A ```yaml or ```rhai example of the docs, with the context the comment line before
/// it gives (`<!-- example: … -->`).
struct Example {
    line: usize,
    script: bool,
    context: Option<String>,
    text: String,
}

/// The ```yaml and ```rhai blocks of a markdown file, each with the `<!-- example: … -->`
/// comment that precedes it, if any.
fn examples(markdown: &str) -> Vec<Example> {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_end();
        if fence == "```yaml" || fence == "```rhai" {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].starts_with("```"))
                .unwrap_or(lines.len());
            let context = i
                .checked_sub(1)
                .and_then(|p| lines[p].trim().strip_prefix("<!-- example:"))
                .and_then(|c| c.strip_suffix("-->"))
                .map(|c| c.trim().to_string());
            out.push(Example {
                line: i + 1,
                script: fence == "```rhai",
                context,
                text: lines[i + 1..end].join("\n"),
            });
            i = end;
        }
        i += 1;
    }
    out
}

/// What an example of the docs must do, from its text and its comment:
/// - a script (```rhai) loads as a script of the ruleset the comment names
///   (`<!-- example: script circle-the-wagons -->`);
/// - a whole ruleset (`frontier:`) or variant (`extends:`) loads as it is;
/// - sections of a ruleset (a mapping) load as a variant of the ruleset the comment names
///   (`<!-- example: way-out-west -->`; Go West when it names none), merged as variants
///   are;
/// - statements (a list) load as the body of a new procedure of that ruleset, whose
///   parameters the comment gives after the name for the names the statements use from
///   their surroundings (`<!-- example: go-west { card: cards } -->`); with `options` at
///   the end, the list is the options of a `choose` in that procedure;
/// - `<!-- example: position go-west -->`: a position of that ruleset, read as a trace's
///   `start position` is;
/// - `<!-- example: not checked: REASON -->` says why a block is not a ruleset part (a
///   single key shown alone, a "before" of a rewrite).
fn check_example(example: &Example) -> Result<(), String> {
    let context = example.context.as_deref().unwrap_or("go-west");
    if context.starts_with("not checked:") {
        return Ok(());
    }
    if example.script {
        let ruleset = context
            .strip_prefix("script ")
            .ok_or("a script example's comment is `<!-- example: script RULESET -->`")?;
        let mut src = frontier_tests::source(&frontier_tests::ruleset_path(ruleset));
        src.scripts
            .push(("doc-example.rhai".into(), example.text.clone()));
        return frontier_tests::load_source(&src)
            .map(|_| ())
            .map_err(|e| e.to_string());
    }
    if let Some(ruleset) = context.strip_prefix("position ") {
        let game = frontier_tests::load_ruleset(ruleset);
        return game.state_from_yaml(&example.text).map(|_| ());
    }
    let (context, options) = match context.strip_suffix(" options") {
        Some(context) => (context, true),
        None => (context, false),
    };
    let (base, params) = match context.split_once(' ') {
        Some((base, params)) => (base, params.trim()),
        None => (context, "{}"),
    };
    let value: serde_yaml::Value =
        serde_yaml::from_str(&example.text).map_err(|e| format!("not YAML: {e}"))?;
    let text = match &value {
        serde_yaml::Value::Mapping(m)
            if m.contains_key("frontier") || m.contains_key("extends") =>
        {
            example.text.clone()
        }
        serde_yaml::Value::Mapping(_) => {
            format!("extends: {base}\nname: doc-example\n{}\n", example.text)
        }
        serde_yaml::Value::Sequence(_) if options => {
            let body: String = example
                .text
                .lines()
                .map(|l| format!("            {l}\n"))
                .collect();
            format!("extends: {base}\nname: doc-example\nprocedures:\n  doc_example:\n    params: {params}\n    do:\n      - choose:\n          who: \"players[0]\"\n          options:\n{body}")
        }
        serde_yaml::Value::Sequence(_) => {
            let body: String = example
                .text
                .lines()
                .map(|l| format!("      {l}\n"))
                .collect();
            format!("extends: {base}\nname: doc-example\nprocedures:\n  doc_example:\n    params: {params}\n    do:\n{body}")
        }
        _ => {
            return Err(
                "neither a mapping nor a list: mark it `<!-- example: not checked: REASON -->`"
                    .into(),
            )
        }
    };
    let src = frontier_tests::text_source("doc-example", "doc-example.yaml", text);
    frontier_tests::load_source(&src)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Every YAML and Rhai example of the docs loads in its context: the documentation shows
/// no key, statement, expression, position or script the loader refuses.
#[test]
fn every_yaml_and_rhai_example_of_the_docs_loads() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in frontier_tests::files_with_extension(&workspace().join("docs"), "md")
        .into_iter()
        .chain([workspace().join("README.md")])
    {
        let markdown = std::fs::read_to_string(&file).unwrap();
        let name = file
            .strip_prefix(workspace())
            .unwrap()
            .display()
            .to_string();
        for example in examples(&markdown) {
            checked += 1;
            if let Err(message) = check_example(&example) {
                failures.push(format!(
                    "{name}:{} ({}):\n{message}",
                    example.line,
                    example.context.as_deref().unwrap_or("go-west")
                ));
            }
        }
    }
    assert!(checked > 60, "only {checked} examples found");
    assert!(
        failures.is_empty(),
        "{} of {checked} examples do not load:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
