//! `frontier lsp` driven over stdio by a small LSP client, as an editor drives it:
//! initialize, didOpen, didChange, hover, definition, references, completion, document
//! symbols, shutdown; on shipped rulesets, variants and traces and on broken copies.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

/// How long any one answer may take before the test calls the server hung.
const PATIENCE: Duration = Duration::from_secs(120);

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Diagnostics received, by URI, the latest last.
    diagnostics: Vec<(String, Vec<Value>)>,
}

impl Client {
    /// Starts `frontier lsp` and initializes it with `root` as the workspace.
    fn start(root: &Path) -> Client {
        Client::start_binary(Path::new(env!("CARGO_BIN_EXE_frontier")), root)
    }

    fn start_binary(binary: &Path, root: &Path) -> Client {
        let mut child = Command::new(binary)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length:") {
                        length = n.trim().parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.unwrap()];
                reader.read_exact(&mut body).unwrap();
                if sender.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            messages,
            next_id: 0,
            diagnostics: Vec::new(),
        };
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
        );
        for capability in [
            "hoverProvider",
            "definitionProvider",
            "referencesProvider",
            "completionProvider",
            "documentSymbolProvider",
        ] {
            assert!(
                !result["capabilities"][capability].is_null(),
                "{capability} in {result}"
            );
        }
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self) -> Value {
        let message = self
            .messages
            .recv_timeout(PATIENCE)
            .expect("frontier lsp answers");
        if message["method"] == "textDocument/publishDiagnostics" {
            let params = &message["params"];
            self.diagnostics.push((
                params["uri"].as_str().unwrap().to_string(),
                params["diagnostics"].as_array().unwrap().clone(),
            ));
        }
        message
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next();
            if message["id"] == id {
                assert!(message["error"].is_null(), "{method}: {message}");
                return message["result"].clone();
            }
        }
    }

    fn open(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "yaml", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(path), "version": 2}, "contentChanges": [{"text": text}]}),
        );
    }

    /// The diagnostics published for `path` next (after an open or a change).
    fn diagnostics_of(&mut self, path: &Path) -> Vec<Value> {
        let wanted = uri(path);
        self.diagnostics.clear();
        loop {
            self.next();
            if let Some((_, found)) = self.diagnostics.iter().find(|(u, _)| *u == wanted) {
                return found.clone();
            }
        }
    }

    /// The first diagnostics published for `path` that `wanted` accepts (a burst of
    /// changes may publish several times).
    fn diagnostics_until(&mut self, path: &Path, wanted: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        loop {
            let found = self.diagnostics_of(path);
            if wanted(&found) {
                return found;
            }
        }
    }

    fn at(&mut self, method: &str, path: &Path, position: Value) -> Value {
        let mut params = json!({"textDocument": {"uri": uri(path)}, "position": position});
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        self.request(method, params)
    }

    fn shut_down(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "frontier lsp exits with {status}");
    }
}

fn uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn rulesets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../rulesets")
        .canonicalize()
        .unwrap()
}

/// A copy of a shipped ruleset's folder in a scratch folder of its own.
fn copy_of(ruleset: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("frontier-lsp-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&rulesets().join(ruleset), &dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The LSP position (0-based line, UTF-16 units) of the `nth` (from 1) occurrence of
/// `needle` in `text`, plus `past` characters, counted here independently of the server.
fn position(text: &str, needle: &str, nth: usize, past: usize) -> Value {
    let (at, _) = text
        .match_indices(needle)
        .nth(nth - 1)
        .unwrap_or_else(|| panic!("{needle:?} occurs {nth} times"));
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let units: usize = text[line_start..at].encode_utf16().count()
        + needle
            .chars()
            .take(past)
            .map(char::len_utf16)
            .sum::<usize>();
    json!({"line": line, "character": units})
}

/// The 0-based line of the first line of `text` that, trimmed, starts with `start`.
fn line_of(text: &str, start: &str) -> u64 {
    text.lines()
        .position(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("no line starts with {start:?}")) as u64
}

#[test]
fn shipped_rulesets_variants_and_traces_open_without_diagnostics() {
    let root = rulesets();
    let mut client = Client::start(&root);
    let files = [
        "go-west/ruleset.yaml",
        "way-out-west/ruleset.yaml",
        "circle-the-wagons/ruleset.yaml",
        "grand-junction/variants/simplified.yaml",
        "go-west/traces/double-action.trace",
        "kuhn-poker/ruleset.yaml",
    ];
    for file in files {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        client.open(&path, &text);
        let found = client.diagnostics_of(&path);
        assert!(found.is_empty(), "{file}: {found:?}");
    }
    client.shut_down();
}

/// Broken copies: (ruleset, what is replaced, by what, where the problem is (the start of
/// its line, trimmed), the message, where the name it suggests is declared (the start of
/// that line, trimmed)). Each is an unsaved edit (didChange) of a file that loads clean on
/// disk.
const BROKEN: &[(&str, &str, &str, &str, &str, &str)] = &[
    (
        "go-west",
        "card.cost and can_carry_out(card)",
        "card.csot and can_carry_out(card)",
        "if: \"tokens[active] + vp[active] >= card.csot",
        "procedures.action.do[0].choose.options[0].if: unknown column of cards 'csot' (did you mean 'cost'?): 'csot' in \"tokens[active] + vp[active] >= card.csot and can_carry_out(card)\"",
        "columns: { region:",
    ),
    (
        "go-west",
        "- call: { pay: { amount: card.cost } }",
        "- call: { pya: { amount: card.cost } }",
        "- call: { pya:",
        "procedures.play_card.do[1].call: unknown procedure 'pya' (did you mean 'pay'?)",
        "pay:",
    ),
    (
        "go-west",
        "hand: { of: cards, per: players, visibility: owner, rule: \"3.4\" }",
        "hand: { of: crads, per: players, visibility: owner, rule: \"3.4\" }",
        "hand: { of: crads",
        "zones.hand.of: unknown table 'crads' (did you mean 'cards'?): a zone holds rows of a table, or players",
        "cards:",
    ),
];

#[test]
fn broken_copies_get_the_loaders_diagnostics_as_they_are_typed() {
    for (case, &(ruleset, from, to, line_start, expected, suggested)) in BROKEN.iter().enumerate() {
        let dir = copy_of(ruleset, &format!("broken-{case}"));
        let path = dir.join("ruleset.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{ruleset}: {from:?}");
        let mut client = Client::start(&dir);
        client.open(&path, &text);
        assert_eq!(
            client.diagnostics_of(&path),
            Vec::<Value>::new(),
            "{ruleset} loads"
        );
        let broken = text.replacen(from, to, 1);
        client.change(&path, &broken);
        let found = client.diagnostics_of(&path);
        let first = found
            .first()
            .unwrap_or_else(|| panic!("case {case}: no diagnostic"));
        assert_eq!(
            first["range"]["start"]["line"],
            line_of(&broken, line_start),
            "case {case}: {first}"
        );
        assert_eq!(first["message"], expected, "case {case}: {first}");
        let declared = line_of(&broken, suggested);
        // That declaration alone (not a column of the same name in another table).
        let related: Vec<&Value> = first["relatedInformation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["location"]["range"]["start"]["line"])
            .collect();
        assert_eq!(related, [declared], "case {case}: {first}");
        // Mended: the diagnostics are cleared.
        client.change(&path, &text);
        assert_eq!(
            client.diagnostics_of(&path),
            Vec::<Value>::new(),
            "case {case} mended"
        );
        client.shut_down();
    }
}

#[test]
fn a_typo_is_placed_in_utf16_units_with_the_suggested_declaration_related() {
    let dir = copy_of("go-west", "utf16");
    let path = dir.join("ruleset.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    // A log line with characters of two and four bytes (𝄞: two UTF-16 units) before a
    // misspelt name.
    let from = "- call: { pay: { amount: card.cost } }";
    let broken = text.replacen(
        from,
        "- log: \"é𝄞 {tokenz[active]}\"\n      - call: { pay: { amount: card.cost } }",
        1,
    );
    assert_ne!(broken, text);
    let mut client = Client::start(&dir);
    client.open(&path, &broken);
    let found = client.diagnostics_of(&path);
    let first = &found[0];
    assert_eq!(
        first["range"]["start"],
        position(&broken, "tokenz", 1, 0),
        "{first}"
    );
    assert_eq!(
        first["range"]["end"],
        position(&broken, "tokenz", 1, 6),
        "{first}"
    );
    // The state variable the loader suggests is among the declarations related.
    let declared = line_of(&text, "tokens: { per: players");
    let related = first["relatedInformation"].as_array().unwrap();
    assert!(
        related
            .iter()
            .any(|r| r["location"]["range"]["start"]["line"] == declared),
        "{first}"
    );
    client.shut_down();
}

/// Hover: (file under rulesets/, needle, its occurrence, characters into it, words the
/// hover holds).
const HOVERS: &[(&str, &str, usize, usize, &[&str])] = &[
    // A built-in: its forms from the registry.
    (
        "go-west/ruleset.yaml",
        "filter(",
        1,
        2,
        &["filter(list", "→"],
    ),
    // A state variable named inside an expression: its type and doc.
    (
        "go-west/ruleset.yaml",
        "tokens[active] + vp[active]",
        1,
        1,
        &[
            "state variable `tokens`",
            "int, per players",
            "tokens in hand",
        ],
    ),
    // A zone: its element type.
    (
        "go-west/ruleset.yaml",
        "hand[active]",
        1,
        1,
        &["zone `hand`", "list of cards, per players"],
    ),
    // A procedure named by call:.
    (
        "go-west/ruleset.yaml",
        "call: { pay:",
        1,
        9,
        &["procedure `pay`"],
    ),
    // A rule reference: its clauses in RULES.md.
    (
        "go-west/ruleset.yaml",
        "rule: \"3.1.1\"",
        1,
        8,
        &["§3.1.1", "8 circles"],
    ),
    // A column.
    (
        "go-west/ruleset.yaml",
        "card.cost",
        1,
        6,
        &["column of cards: int"],
    ),
];

#[test]
fn hover_gives_builtins_declarations_and_rules() {
    let root = rulesets();
    let mut client = Client::start(&root);
    for &(file, needle, nth, past, words) in HOVERS {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        client.open(&path, &text);
        let hover = client.at(
            "textDocument/hover",
            &path,
            position(&text, needle, nth, past),
        );
        let value = hover["contents"]["value"].as_str().unwrap_or_default();
        for word in words {
            assert!(
                value.contains(word),
                "{file} {needle:?}: {value:?} lacks {word:?}"
            );
        }
    }
    client.shut_down();
}

/// Go to definition: (file under rulesets/, needle at the use, its occurrence, characters
/// into it, the file and the start of the declaration's line).
const DEFINITIONS: &[(&str, &str, usize, usize, &str, &str)] = &[
    (
        "go-west/ruleset.yaml",
        "call: { pay:",
        1,
        9,
        "go-west/ruleset.yaml",
        "pay:",
    ),
    (
        "go-west/ruleset.yaml",
        "tokens[active] + vp",
        1,
        1,
        "go-west/ruleset.yaml",
        "tokens: { per: players",
    ),
    (
        "go-west/ruleset.yaml",
        "of: cards",
        1,
        5,
        "go-west/ruleset.yaml",
        "cards:",
    ),
    // A local: the for: name of an option.
    (
        "go-west/ruleset.yaml",
        "card.cost and can_carry_out",
        1,
        1,
        "go-west/ruleset.yaml",
        "for: { card:",
    ),
    // A function's parameter.
    (
        "go-west/ruleset.yaml",
        "card.moves <= wagon_moves_left",
        1,
        1,
        "go-west/ruleset.yaml",
        "params: { card: cards }",
    ),
    // A function called inside an expression.
    (
        "go-west/ruleset.yaml",
        "wagon_moves_left()",
        1,
        1,
        "go-west/ruleset.yaml",
        "wagon_moves_left:",
    ),
    // Across extends: the variant's parameter is the base's declaration.
    (
        "grand-junction/variants/simplified.yaml",
        "use_handshakes: 0",
        1,
        2,
        "grand-junction/ruleset.yaml",
        "use_handshakes:",
    ),
];

#[test]
fn definitions_inside_expressions_and_across_extends() {
    let root = rulesets();
    let mut client = Client::start(&root);
    for &(file, needle, nth, past, target, line_start) in DEFINITIONS {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        client.open(&path, &text);
        let found = client.at(
            "textDocument/definition",
            &path,
            position(&text, needle, nth, past),
        );
        let location = &found[0];
        let target_path = root.join(target);
        let target_text = std::fs::read_to_string(&target_path).unwrap();
        assert_eq!(
            location["uri"].as_str(),
            Some(uri(&target_path).as_str()),
            "{file} {needle:?}: {found}"
        );
        let line = location["range"]["start"]["line"].as_u64().unwrap();
        assert!(
            target_text
                .lines()
                .nth(line as usize)
                .unwrap()
                .trim_start()
                .starts_with(line_start),
            "{file} {needle:?}: line {line} of {target}, wanted one starting {line_start:?}"
        );
    }
    client.shut_down();
}

#[test]
fn references_of_a_procedure_are_its_calls() {
    let root = rulesets();
    let path = root.join("go-west/ruleset.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut client = Client::start(&root);
    client.open(&path, &text);
    let found = client.at(
        "textDocument/references",
        &path,
        position(&text, "call: { pay:", 1, 9),
    );
    let lines: Vec<u64> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    let mut wanted: Vec<u64> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("call: { pay:") || l.trim() == "pay:")
        .map(|(i, _)| i as u64)
        .collect();
    let mut lines_sorted = lines.clone();
    lines_sorted.sort();
    wanted.sort();
    assert_eq!(lines_sorted, wanted);
    client.shut_down();
}

#[test]
fn completion_in_expressions_statements_and_traces() {
    let root = rulesets();
    let mut client = Client::start(&root);
    let path = root.join("go-west/ruleset.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    client.open(&path, &text);
    let labels = |result: &Value| -> Vec<String> {
        result
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // Inside an expression: variables, zones, built-ins, the option's local.
    let inside = client.at(
        "textDocument/completion",
        &path,
        position(&text, "card.cost and can_carry_out", 1, 0),
    );
    let names = labels(&inside);
    for want in ["tokens", "hand", "count_if", "card", "players"] {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }
    // After a dot: columns.
    let after_dot = client.at(
        "textDocument/completion",
        &path,
        position(&text, "card.cost and can_carry_out", 1, 5),
    );
    assert!(labels(&after_dot).iter().any(|n| n == "cost"));
    // At a statement's key: the verbs.
    let at_key = client.at(
        "textDocument/completion",
        &path,
        position(&text, "- call: { pay:", 1, 2),
    );
    let verbs = labels(&at_key);
    for want in ["move", "choose", "for_each", "call"] {
        assert!(verbs.iter().any(|n| n == want), "{want} in {verbs:?}");
    }
    // In a trace, after a player's name: the labels legal there.
    let trace = root.join("go-west/traces/double-action.trace");
    let trace_text = std::fs::read_to_string(&trace).unwrap();
    client.open(&trace, &trace_text);
    let decision = trace_text
        .lines()
        .position(|l| l.starts_with("red: play card"))
        .unwrap();
    let options = client.at(
        "textDocument/completion",
        &trace,
        json!({"line": decision, "character": 5}),
    );
    let offered = labels(&options);
    let chosen = trace_text.lines().nth(decision).unwrap()["red: ".len()..]
        .split(" #")
        .next()
        .unwrap()
        .trim()
        .to_string();
    assert!(offered.contains(&chosen), "{chosen} in {offered:?}");
    client.shut_down();
}

#[test]
fn a_trace_shows_the_state_at_a_step_and_where_it_diverges() {
    let dir = copy_of("go-west", "trace");
    let trace = dir.join("traces/double-action.trace");
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut client = Client::start(&dir);
    client.open(&trace, &text);
    assert_eq!(client.diagnostics_of(&trace), Vec::<Value>::new());
    let decision = text.lines().position(|l| l.starts_with("red: ")).unwrap();
    let hover = client.at(
        "textDocument/hover",
        &trace,
        json!({"line": decision, "character": 1}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("as red sees it") && value.contains("legal here"),
        "{value}"
    );
    // The state as red sees it: the other players' hands hidden.
    assert!(value.contains("hand"), "{value}");
    // An assertion's line (not on a name): the state there.
    let assertion = text
        .lines()
        .position(|l| l.starts_with("assert active == green"))
        .unwrap();
    let hover = client.at(
        "textDocument/hover",
        &trace,
        json!({"line": assertion, "character": 2}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("the state at this line") && value.contains("active: green"),
        "{value}"
    );
    // A label no option has: the diagnostic is on that line, with the legal options.
    let line = text.lines().nth(decision).unwrap();
    let broken = text.replacen(line, "red: fly to the moon", 1);
    client.change(&trace, &broken);
    let found = client.diagnostics_of(&trace);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["range"]["start"]["line"], decision as u64);
    let message = found[0]["message"].as_str().unwrap();
    assert!(message.contains("legal here"), "{message}");
    client.shut_down();
}

#[test]
fn document_symbols_outline_the_sections() {
    let root = rulesets();
    let path = root.join("go-west/ruleset.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut client = Client::start(&root);
    client.open(&path, &text);
    let found = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&path)}}),
    );
    let sections: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    for want in ["params", "tables", "state", "zones", "procedures"] {
        assert!(sections.contains(&want), "{want} in {sections:?}");
    }
    let procedures = found
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "procedures")
        .unwrap();
    let names: Vec<&str> = procedures["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"pay") && names.contains(&"turn"),
        "{names:?}"
    );
    client.shut_down();
}

/// How long the server takes to answer, on each shipped ruleset of the launch games: the
/// first load (didOpen to diagnostics), an edit (didChange to diagnostics), then hover,
/// definition and completion. A measurement, not a test (nothing is asserted of the
/// times): docs/lsp.md gives the numbers of a release build, measured with
/// `FRONTIER_BIN=target/release/frontier cargo test -p frontier --test integration
/// lsp::response_times -- --ignored --nocapture`.
#[test]
#[ignore]
fn response_times() {
    let root = rulesets();
    let bin = std::env::var("FRONTIER_BIN").ok();
    let mut client = match &bin {
        Some(path) => Client::start_binary(Path::new(path), &root),
        None => Client::start(&root),
    };
    let ms = |since: std::time::Instant| since.elapsed().as_secs_f64() * 1000.0;
    println!("ruleset             open   edit  hover  definition  completion (ms)");
    for name in [
        "go-west",
        "way-out-west",
        "circle-the-wagons",
        "gold-west",
        "grand-junction",
    ] {
        let path = root.join(name).join("ruleset.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        let t = std::time::Instant::now();
        client.open(&path, &text);
        client.diagnostics_of(&path);
        let open = ms(t);
        let t = std::time::Instant::now();
        client.change(&path, &format!("{text}\n# edited\n"));
        client.diagnostics_of(&path);
        let edit = ms(t);
        // The first name of the first condition.
        let at = position(&text, "if: \"", 1, 5);
        let t = std::time::Instant::now();
        client.at("textDocument/hover", &path, at.clone());
        let hover = ms(t);
        let t = std::time::Instant::now();
        client.at("textDocument/definition", &path, at.clone());
        let definition = ms(t);
        let t = std::time::Instant::now();
        client.at("textDocument/completion", &path, at);
        let completion = ms(t);
        println!(
            "{name:<18} {open:>6.0} {edit:>6.0} {hover:>6.1} {definition:>11.1} {completion:>11.1}"
        );
    }
    // A trace: replayed when opened; then the state at a step.
    let trace = root.join("grand-junction/traces/full-game-6p.trace");
    if let Ok(text) = std::fs::read_to_string(&trace) {
        let t = std::time::Instant::now();
        client.open(&trace, &text);
        client.diagnostics_of(&trace);
        let open = ms(t);
        let line = text.lines().count() / 2;
        let t = std::time::Instant::now();
        client.at(
            "textDocument/hover",
            &trace,
            json!({"line": line, "character": 1}),
        );
        let hover = ms(t);
        println!("grand-junction/traces/full-game-6p.trace: open {open:.0}, hover {hover:.1}");
    }
    client.shut_down();
}

#[test]
fn a_script_being_typed_gets_its_problems_and_a_trace_follows_its_rulesets_edits() {
    // In a folder of rulesets, as in a checkout: the trace's `ruleset circle-the-wagons`
    // is the file beside it, as the editor has it.
    let dir = copy_of("circle-the-wagons", "script").join("circle-the-wagons");
    std::fs::create_dir_all(&dir).unwrap();
    copy_dir(&rulesets().join("circle-the-wagons"), &dir);
    let script = std::fs::read_dir(dir.join("scripts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "rhai"))
        .unwrap();
    let text = std::fs::read_to_string(&script).unwrap();
    let mut client = Client::start(&dir);
    client.open(&script, &text);
    assert_eq!(client.diagnostics_of(&script), Vec::<Value>::new());
    // An unsaved syntax error at the end of the script.
    let broken = format!("{text}\nfn broken( {{\n");
    client.change(&script, &broken);
    let found = client.diagnostics_of(&script);
    assert!(!found.is_empty(), "no diagnostic for the script");
    let line = found[0]["range"]["start"]["line"].as_u64().unwrap();
    assert!(line >= text.lines().count() as u64, "{found:?}");

    // A trace of the ruleset: clean, then the ruleset it plays is broken in the editor.
    let ruleset = dir.join("ruleset.yaml");
    let ruleset_text = std::fs::read_to_string(&ruleset).unwrap();
    client.change(&script, &text);
    let trace = std::fs::read_dir(dir.join("traces"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "trace"))
        .unwrap();
    let trace_text = std::fs::read_to_string(&trace).unwrap();
    client.open(&trace, &trace_text);
    assert_eq!(client.diagnostics_of(&trace), Vec::<Value>::new());
    client.open(&ruleset, &ruleset_text);
    client.change(
        &ruleset,
        &ruleset_text.replacen(
            "procedures:",
            "procedures:\n  broken: { do: [{ set: { nosuch: 1 } }] }",
            1,
        ),
    );
    let found = client.diagnostics_until(&trace, |d| !d.is_empty());
    assert!(
        found.iter().any(|d| d["message"]
            .as_str()
            .unwrap()
            .contains("the ruleset does not load")),
        "{found:?}"
    );
    client.shut_down();
}

#[test]
fn names_in_a_traces_assertions_are_the_rulesets() {
    let root = rulesets();
    let trace = root.join("go-west/traces/setup.trace");
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut client = Client::start(&root);
    client.open(&trace, &text);
    let at = position(&text, "sum(regions, wagons[it])", 1, 14);
    let hover = client.at("textDocument/hover", &trace, at.clone());
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("state variable `wagons`"), "{value}");
    let hover = client.at(
        "textDocument/hover",
        &trace,
        position(&text, "sum(regions", 1, 1),
    );
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("built-in function `sum`"));
    let found = client.at("textDocument/definition", &trace, at);
    let ruleset = root.join("go-west/ruleset.yaml");
    assert_eq!(
        found["uri"].as_str(),
        Some(uri(&ruleset).as_str()),
        "{found}"
    );
    let line = found["range"]["start"]["line"].as_u64().unwrap();
    let ruleset_text = std::fs::read_to_string(&ruleset).unwrap();
    assert!(
        ruleset_text
            .lines()
            .nth(line as usize)
            .unwrap()
            .trim_start()
            .starts_with("wagons:"),
        "{found}"
    );
    client.shut_down();
}
