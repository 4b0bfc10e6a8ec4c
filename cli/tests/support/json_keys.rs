//! Shared by the tests that hold documented JSON to real answers (cli/tests/json.rs and
//! the serve tests, which include this file by path).

/// Every key of a JSON value, at any depth.
pub fn keys_of(value: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone());
                keys_of(v, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| keys_of(v, out)),
        _ => {}
    }
}
