//! The modules of `frontier-native` are what the generator makes of their rulesets
//! today. Kept out of that crate so that a module that no longer compiles can be
//! written again.

use frontier_interpreter::native::{fingerprint, generate};

/// The text of a module: the generated code, then the fingerprint it is matched by.
fn module(text: &str) -> String {
    format!(
        "{text}\npub const FINGERPRINT: u64 = {:#018x};\n",
        fingerprint(text)
    )
}

/// The rulesets compiled in `frontier-native`, and each one's module.
const NATIVE_RULESETS: &[(&str, &str)] = &[("go-west", "native/src/go_west.rs")];

#[test]
fn compiled_modules_are_current() {
    let write = std::env::var_os("FRONTIER_NATIVE_WRITE").is_some();
    for (name, file) in NATIVE_RULESETS {
        let game = frontier_tests::load_ruleset(name);
        let generated = generate(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = module(&generated.text);
        let path = frontier_tests::workspace().join(file);
        let found = std::fs::read_to_string(&path).unwrap_or_default();
        if write {
            if found != expected {
                std::fs::write(&path, &expected).unwrap();
            }
        } else {
            assert!(found == expected, "{file} is not what the generator makes of {name}: run FRONTIER_NATIVE_WRITE=1 cargo test -p frontier-tests --test integration native_modules::");
        }
    }
}
