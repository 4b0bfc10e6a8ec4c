//! The JSON Schema of ruleset files (`frontier schema`) is generated from the types of
//! the file format (interpreter/src/format.rs), which also give the loader its keys. The
//! shipped schema/ruleset.schema.json is that schema (`UPDATE_DOCS=1` rewrites it), and
//! every shipped ruleset is a file of that format; a file with an unknown section is not.

use frontier_interpreter::format::{schema, RulesetFile};
use frontier_tests::{all_ruleset_names, ruleset_path, workspace};

#[test]
fn the_shipped_schema_is_the_generated_one() {
    let path = workspace().join("schema/ruleset.schema.json");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, schema()).unwrap();
        return;
    }
    let shipped = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(shipped == schema(), "schema/ruleset.schema.json is out of date: run `UPDATE_DOCS=1 cargo test -p frontier-tests --test integration schema::`");
    assert!(shipped.contains("\"$schema\": \"http://json-schema.org/draft-07/schema#\""));
}

#[test]
fn every_shipped_ruleset_is_of_the_format() {
    for name in all_ruleset_names() {
        let path = ruleset_path(&name);
        let file = if path.is_dir() {
            path.join("ruleset.yaml")
        } else {
            path
        };
        let text = std::fs::read_to_string(file).unwrap();
        if let Err(e) = serde_yaml::from_str::<RulesetFile>(&text) {
            panic!("{name}: {e}");
        }
    }
}

#[test]
fn an_unknown_section_is_not_of_the_format() {
    let text = "name: x\nplayers: 2\nno_such_section: 1\n";
    assert!(serde_yaml::from_str::<RulesetFile>(text).is_err());
    let text = "name: x\nplayers: 2\ntables: { t: { rows: [a], colour: red } }\n";
    assert!(serde_yaml::from_str::<RulesetFile>(text).is_err());
}
