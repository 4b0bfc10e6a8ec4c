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
