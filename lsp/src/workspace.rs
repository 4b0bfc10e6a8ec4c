//! The documents the editor has open, and what the server knows of them: each ruleset
//! loaded by the real loader from the open texts over the files on disk (what an unsaved
//! buffer says wins over the file), with the index of each of its files; each trace
//! replayed against its ruleset, with the state before each of its lines.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use frontier_interpreter::frontier_grammar::trace::{self as notation, LineKind, RulesetRef};
use frontier_interpreter::model::Limits;
use frontier_interpreter::trace::{assertion_errors, replay_stepped, starting_state};
use frontier_interpreter::{
    load_with, Diagnostic, Game, Optimizer, RulesetSource, State, Status, Stepper,
};
use lsp_types::Uri;

use crate::index::{FileIndex, Symbols};
use crate::yaml::{self, Node};

pub struct Document {
    pub uri: Uri,
    pub text: String,
}

/// What a file is to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A ruleset or a variant (YAML with `play:`, `extends:` or `frontier:` at the top).
    Ruleset,
    Trace,
    /// A Rhai script of a ruleset (`scripts/*.rhai`).
    Script,
    Other,
}

pub fn kind_of(path: &Path, text: &str) -> FileKind {
    match path.extension().and_then(|e| e.to_str()) {
        Some("trace") => FileKind::Trace,
        Some("rhai") => FileKind::Script,
        Some("yaml" | "yml") => {
            let top = |key: &str| {
                text.lines()
                    .any(|l| l.strip_prefix(key).is_some_and(|r| r.starts_with(':')))
            };
            if top("play") || top("extends") || top("frontier") || top("procedures") {
                FileKind::Ruleset
            } else {
                FileKind::Other
            }
        }
        _ => FileKind::Other,
    }
}

/// A path with its `.` and `..` components taken out (as an editor names files).
pub fn normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// One file of a ruleset: its text, its tree and what it declares and names.
pub struct RulesetFile {
    /// On disk (none for an embedded ruleset's file).
    pub path: Option<PathBuf>,
    /// As the loader names it in diagnostics.
    pub name: String,
    pub text: String,
    pub tree: Option<Node>,
    pub index: FileIndex,
}

impl RulesetFile {
    fn new(path: Option<PathBuf>, name: String, text: String) -> RulesetFile {
        let tree = yaml::parse(&text);
        let index = tree.as_ref().map(FileIndex::of).unwrap_or_default();
        RulesetFile {
            path,
            name,
            text,
            tree,
            index,
        }
    }
}

/// A ruleset as loaded from the editor's texts.
pub struct Ruleset {
    /// The ruleset's own file first, then what it extends, in order.
    pub files: Vec<RulesetFile>,
    /// Its scripts: (name as the loader gives it, text).
    pub scripts: Vec<(String, String)>,
    pub symbols: Symbols,
    /// The loaded game, when it loads.
    pub game: Option<Arc<Game>>,
    /// The loader's problems (none when it loads).
    pub problems: Vec<Diagnostic>,
    /// The RULES.md beside the ruleset, if any.
    pub rules_md: Option<String>,
}

impl Ruleset {
    /// Whether `path` is one of its files or scripts (or a RULES.md beside them).
    pub fn depends_on(&self, path: &Path) -> bool {
        let named = path.display().to_string();
        self.files.iter().any(|f| {
            f.path.as_deref() == Some(path)
                || f.path.as_deref().and_then(Path::parent) == path.parent()
                    && path.file_name().is_some_and(|n| n == "RULES.md")
        }) || self.scripts.iter().any(|(n, _)| *n == named)
    }

    /// The file of the ruleset at `path`, and its number.
    pub fn file(&self, path: &Path) -> Option<(usize, &RulesetFile)> {
        self.files
            .iter()
            .enumerate()
            .find(|(_, f)| f.path.as_deref() == Some(path))
    }
}

/// A trace replayed against its ruleset.
#[derive(Default)]
pub struct TraceRun {
    pub problems: Vec<TraceProblem>,
    pub game: Option<Arc<Game>>,
    /// The main file of the ruleset it plays, when on disk.
    pub ruleset: Option<PathBuf>,
    /// For each 1-based line of a step: the state before it, and the seat of the line's
    /// player (none for a chance line).
    pub before: BTreeMap<usize, (State, Option<u8>)>,
    /// The labels of the options legal at each decision line.
    pub options: BTreeMap<usize, Vec<String>>,
    /// The state after the last step replayed.
    pub end: Option<State>,
    pub players: Vec<String>,
    /// The files its replay read (its ruleset's, a position's).
    pub depends: Vec<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceProblem {
    /// 1-based line and column.
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The legal options (or outcomes) there, closest to what the trace says first.
    pub legal: Vec<String>,
}

pub struct Workspace {
    pub limits: Limits,
    pub docs: HashMap<PathBuf, Document>,
    rulesets: HashMap<PathBuf, Arc<Ruleset>>,
    traces: HashMap<PathBuf, Arc<TraceRun>>,
}

impl Workspace {
    pub fn new(limits: Limits) -> Workspace {
        Workspace {
            limits,
            docs: HashMap::new(),
            rulesets: HashMap::new(),
            traces: HashMap::new(),
        }
    }

    /// A document opened, changed or closed: what was computed from it is stale (a
    /// ruleset of which it is a file or script, a trace it is or whose ruleset it is part
    /// of); with none, everything is (files on disk may have changed).
    pub fn changed(&mut self, path: Option<&Path>) {
        let Some(path) = path else {
            self.rulesets.clear();
            self.traces.clear();
            return;
        };
        self.rulesets
            .retain(|main, r| main != path && !r.depends_on(path));
        self.traces
            .retain(|trace, run| trace != path && !run.depends.iter().any(|p| p == path));
    }

    /// The text of a file: the editor's when it is open, else the file's on disk.
    pub fn text(&self, path: &Path) -> Result<String, String> {
        match self.docs.get(path) {
            Some(d) => Ok(d.text.clone()),
            None => frontier_sources::read_text(path, &self.limits),
        }
    }

    /// The ruleset file a document belongs to: itself for a ruleset or variant, the
    /// `ruleset.yaml` above `scripts/` for a script.
    pub fn ruleset_of(&self, path: &Path) -> Option<PathBuf> {
        let text = self.text(path).ok()?;
        match kind_of(path, &text) {
            FileKind::Ruleset => Some(path.to_path_buf()),
            FileKind::Script => {
                let dir = path.parent()?;
                (dir.file_name()? == "scripts")
                    .then(|| dir.parent().map(|d| d.join("ruleset.yaml")))?
            }
            FileKind::Trace | FileKind::Other => None,
        }
    }

    /// A ruleset's source read from the open texts over the disk: its file, and the
    /// scripts of its folder.
    fn source(&self, path: &Path) -> Result<RulesetSource, String> {
        let text = self.text(path)?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut scripts = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir.join("scripts")) {
            let mut paths: Vec<PathBuf> =
                entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            paths.retain(|p| p.extension().is_some_and(|x| x == "rhai"));
            paths.sort();
            for p in paths {
                scripts.push((p.display().to_string(), self.text(&p)?));
            }
        }
        Ok(RulesetSource {
            origin: path.display().to_string(),
            file: path.display().to_string(),
            text,
            scripts,
        })
    }

    /// What `extends:` (or a trace's ruleset line) names, resolved as the binary does
    /// (an embedded name, else a path relative to `dir`), read from the open texts.
    fn resolve(&self, name: &str, dir: Option<&Path>) -> Result<RulesetSource, String> {
        let found = frontier_sources::resolve(name, dir, &self.limits)?;
        // `ruleset ../ruleset.yaml`: the file as the editor names it, without `..`.
        let mut path = normal(Path::new(&found.file));
        if frontier_sources::embedded(name).is_some() {
            // An embedded ruleset named from inside a checkout of rulesets/ (a shipped
            // variant's `extends: grand-junction`): its file there, as the editor shows it.
            match dir.and_then(|d| {
                d.ancestors()
                    .take(4)
                    .map(|a| a.join(&found.file))
                    .find(|p| p.is_file())
            }) {
                Some(on_disk) => path = on_disk,
                None => return Ok(found),
            }
        }
        if path.is_file() {
            let mut source = self.source(&path)?;
            source.origin = found.origin;
            return Ok(source);
        }
        Ok(found)
    }

    /// The ruleset whose main file is `path`, loaded (once per change of any document).
    pub fn ruleset(&mut self, path: &Path) -> Arc<Ruleset> {
        if let Some(r) = self.rulesets.get(path) {
            return r.clone();
        }
        let ruleset = Arc::new(self.load(path, &[]));
        self.rulesets.insert(path.to_path_buf(), ruleset.clone());
        ruleset
    }

    fn load(&self, path: &Path, params: &[(String, i64)]) -> Ruleset {
        let mut files = Vec::new();
        let mut scripts = Vec::new();
        let (game, problems) = match self.source(path) {
            Ok(source) => {
                files.push(RulesetFile::new(
                    Some(path.to_path_buf()),
                    source.file.clone(),
                    source.text.clone(),
                ));
                scripts.extend(source.scripts.iter().cloned());
                let layers = std::cell::RefCell::new(Vec::new());
                let resolver = |name: &str| {
                    // Relative to the file that names it: the last layer read.
                    let dir = layers
                        .borrow()
                        .last()
                        .map(|s: &RulesetSource| s.file.clone())
                        .unwrap_or_else(|| source.file.clone());
                    let dir = Path::new(&dir).parent().map(Path::to_path_buf);
                    let found = self.resolve(name, dir.as_deref())?;
                    layers.borrow_mut().push(found.clone());
                    Ok(found)
                };
                let loaded = load_with(&source, &resolver, params, self.limits, Optimizer::On);
                for layer in layers.into_inner() {
                    let on_disk = PathBuf::from(&layer.file);
                    let path = on_disk.is_absolute().then_some(on_disk);
                    scripts.extend(layer.scripts.iter().cloned());
                    files.push(RulesetFile::new(path, layer.file, layer.text));
                }
                match loaded {
                    Ok(game) => (Some(Arc::new(game)), Vec::new()),
                    Err(e) => (None, e.diagnostics),
                }
            }
            Err(message) => (
                None,
                vec![Diagnostic {
                    file: path.display().to_string(),
                    position: None,
                    path: String::new(),
                    message,
                }],
            ),
        };
        let symbols = Symbols::of(&files.iter().map(|f| &f.index).collect::<Vec<_>>());
        let rules_md = path
            .parent()
            .and_then(|d| self.text(&d.join("RULES.md")).ok());
        Ruleset {
            files,
            scripts,
            symbols,
            game,
            problems,
            rules_md,
        }
    }

    /// The trace at `path` replayed against its ruleset (once per change of any document).
    pub fn trace(&mut self, path: &Path) -> Arc<TraceRun> {
        if let Some(t) = self.traces.get(path) {
            return t.clone();
        }
        let run = Arc::new(self.replay(path));
        self.traces.insert(path.to_path_buf(), run.clone());
        run
    }

    fn replay(&self, path: &Path) -> TraceRun {
        let mut run = TraceRun::default();
        let problem = |line: usize, column: usize, message: String| TraceProblem {
            line,
            column,
            message,
            legal: Vec::new(),
        };
        let text = match self.text(path) {
            Ok(t) => t,
            Err(e) => {
                run.problems.push(problem(1, 1, e));
                return run;
            }
        };
        let trace = match notation::parse(&text) {
            Ok(t) => t,
            Err(errors) => {
                run.problems = errors
                    .into_iter()
                    .map(|e| problem(e.line, e.column, e.message))
                    .collect();
                return run;
            }
        };
        run.players = trace.header.players.clone();
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let lines = &trace.header.header_lines;
        let (named, at) = match (&trace.header.variant, &trace.header.ruleset) {
            (Some(v), _) => (v, lines.variant),
            (None, RulesetRef::Name(n) | RulesetRef::Path(n)) => (n, lines.ruleset),
        };
        let at = at.map_or((1, 1), |l| (l.line, l.column));
        let source = match self.resolve(named, Some(&dir)) {
            Ok(s) => s,
            Err(e) => {
                run.problems.push(problem(at.0, at.1, e));
                return run;
            }
        };
        let main = PathBuf::from(&source.file);
        if main.is_absolute() {
            run.ruleset = Some(main.clone());
        }
        let ruleset = if main.is_absolute() {
            let loaded = self.load(&main, &trace.header.params);
            run.depends
                .extend(loaded.files.iter().filter_map(|f| f.path.clone()));
            run.depends
                .extend(loaded.scripts.iter().map(|(n, _)| PathBuf::from(n)));
            loaded
        } else {
            // An embedded ruleset, by name.
            let resolver = |name: &str| self.resolve(name, None);
            let loaded = load_with(
                &source,
                &resolver,
                &trace.header.params,
                self.limits,
                Optimizer::On,
            );
            let (game, problems) = match loaded {
                Ok(g) => (Some(Arc::new(g)), Vec::new()),
                Err(e) => (None, e.diagnostics),
            };
            Ruleset {
                files: Vec::new(),
                scripts: Vec::new(),
                symbols: Symbols::default(),
                game,
                problems,
                rules_md: None,
            }
        };
        let Some(game) = ruleset.game.clone() else {
            let shown: Vec<String> = ruleset
                .problems
                .iter()
                .take(5)
                .map(|d| d.to_string())
                .collect();
            let more = ruleset.problems.len().saturating_sub(5);
            let mut message = format!("the ruleset does not load:\n{}", shown.join("\n"));
            if more > 0 {
                message.push_str(&format!("\n… and {more} more"));
            }
            run.problems.push(problem(at.0, at.1, message));
            return run;
        };
        run.game = Some(game.clone());
        let start = match starting_state(&game, &trace, |p| {
            self.text(&dir.join(p))
                .map_err(|e| format!("position: {e}"))
        }) {
            Ok(s) => s,
            Err(d) => {
                run.problems.push(problem(d.line, d.column, d.message));
                return run;
            }
        };
        let wrong = assertion_errors(&game, &trace, &start);
        if !wrong.is_empty() {
            run.problems = wrong
                .into_iter()
                .map(|d| TraceProblem {
                    line: d.line,
                    column: d.column,
                    message: d.to_string(),
                    legal: d.legal,
                })
                .collect();
            return run;
        }
        let seat_of = |name: &str| {
            trace
                .header
                .players
                .iter()
                .position(|p| p == name)
                .map(|i| i as u8)
        };
        let mut previous = start.clone();
        let mut before = BTreeMap::new();
        let mut options = BTreeMap::new();
        let result = replay_stepped(Stepper::walker(&game), &trace, start, |s| {
            let seat = match &s.line.kind {
                LineKind::Decision { player, .. } => seat_of(player),
                _ => None,
            };
            // The last step of a line is its own (chance points the seed draws before
            // it are reported with it).
            before.insert(s.line.line, (previous.clone(), seat));
            if let (Some(_), Status::Decision { .. }) = (seat, game.status(&previous)) {
                if let Ok(labels) = game.option_labels(&previous) {
                    options.insert(s.line.line, labels);
                }
            }
            previous = s.state.clone();
        });
        if let Err(d) = result {
            // Where it stops, the state it stopped in.
            if let Some(line) = trace.body.iter().find(|l| l.line == d.line) {
                let seat = match &line.kind {
                    LineKind::Decision { player, .. } | LineKind::Reject { player, .. } => {
                        seat_of(player)
                    }
                    _ => None,
                };
                before.insert(d.line, (previous.clone(), seat));
            }
            run.problems.push(TraceProblem {
                line: d.line,
                column: d.column,
                message: d.to_string(),
                legal: d.legal,
            });
        }
        run.end = Some(previous);
        run.before = before;
        run.options = options;
        run
    }
}
