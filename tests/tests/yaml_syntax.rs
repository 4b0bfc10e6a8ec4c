//! YAML syntax errors said in plain words: each file of tests/cases/yaml-syntax/ is a
//! broken ruleset whose first lines (`# expect: …`) give the whole message its loading
//! must give, worked out by hand: the line and column the YAML reader stops at, the YAML
//! path of the key it stands under (found from the lines above it) and the hint for the
//! parser's words, which follow in brackets.

use frontier_tests::*;

/// Loads `file` and compares its diagnostics with its `# expect:` lines, one each.
fn check(file: &std::path::Path) -> Result<(), String> {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(file).unwrap();
    let expected: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# expect: "))
        .collect();
    if expected.is_empty() {
        return Err(format!("{name}: no '# expect: ' line"));
    }
    let src = text_source("case", &name, text.clone());
    let said = match load_source(&src) {
        Ok(_) => return Err(format!("{name}: loads, but its YAML is broken")),
        Err(e) => e.to_string(),
    };
    let said: Vec<&str> = said.lines().collect();
    if said != expected {
        return Err(format!(
            "{name}:\n  expected: {}\n  said:     {}",
            expected.join("\n            "),
            said.join("\n            ")
        ));
    }
    Ok(())
}

#[test]
fn yaml_syntax_errors_name_their_key_and_say_what_is_wrong() {
    let dir = workspace().join("tests/cases/yaml-syntax");
    let files = files_with_extension(&dir, "yaml");
    assert!(files.len() >= 12, "{} cases", files.len());
    let failures: Vec<String> = files.iter().filter_map(|f| check(f).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// The YAML reader takes time in the square of the flow nesting (each token looks at
/// every open level) before its own bound of 128 stops it: 100,000 levels took 17 s. The
/// nesting is refused by a scan before it reads, at the bracket that passes the bound
/// (`summary: ` is 9 characters, so the 129th `[` stands at column 10 + 128).
#[test]
fn flow_nesting_past_the_bound_is_refused_before_the_yaml_reader_reads_it() {
    let depth = 100_000;
    let text = format!(
        "name: x\nsummary: {}{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let said = load_source(&text_source("case", "h5.yaml", text))
        .expect_err("nested too deep")
        .to_string();
    assert_eq!(
        said,
        "h5.yaml:2:138: summary: mappings and lists nested more than 128 deep: the YAML reader goes no deeper"
    );
    assert_eq!(frontier_interpreter::MAX_YAML_DEPTH, 128);
}

/// The YAML reader holds about 200 bytes a value: a 16 MB flow list of 8 million numbers
/// took 1.56 GiB. Past a million values a file is refused before it is read, at the value
/// that passes the bound (`summary: [` is 10 characters; the values are the key
/// `summary`, the list, then the numbers, one every 2 characters).
#[test]
fn a_file_of_more_than_a_million_values_is_refused_before_it_is_read() {
    let max = frontier_interpreter::MAX_YAML_VALUES;
    assert_eq!(max, 1_000_000);
    let numbers = |n: usize| vec!["1"; n].join(",");
    let within = format!("name: x\nsummary: [{}]\n", numbers(max - 4));
    let said = load_source(&text_source("case", "m3.yaml", within))
        .expect_err("no play")
        .to_string();
    assert!(said.contains("missing 'play'"), "{said}");
    // name, x, summary, the list: 4, then the numbers.
    let past = format!("name: x\nsummary: [{}]\n", numbers(max - 3));
    let said = load_source(&text_source("case", "m3.yaml", past))
        .expect_err("too many values")
        .to_string();
    let column = 11 + 2 * (max - 4);
    assert_eq!(
        said,
        format!("m3.yaml:2:{column}: summary: more than 1,000,000 values (texts, numbers, lists and mappings, keys included): the YAML reader goes no further")
    );
}
