//! Loading: YAML text → validated, compiled [`Game`]. Collects every problem it can find
//! and reports each with its file, line and column (or at least its YAML path).

mod board;
mod expr;
mod function;
mod stmt;
mod variant;
mod view;

use std::collections::HashSet;
use std::sync::Arc;

use frontier_grammar::expr::{parse_expr, parse_template, Expr, TemplatePart as AstPart};
use frontier_grammar::Span;
use serde_yaml::{Mapping, Value as Yaml};

use crate::diagnostic::{Diagnostic, LoadError};
use crate::eval::{Template, TemplatePart};
use crate::format;
use crate::hints::did_you_mean;
use crate::ir::Expr as Ir;
use crate::locate::locate_in;
use crate::model::*;
use crate::value::{TableId, Type, Value};
pub(crate) use expr::{nothing, Compiled, Compiler, Decls, Scope};
use expr::{Declared, Named, TableDecl, VarDecl, ZoneDecl, BUILT_IN_NAMES};

/// A ruleset's files as read by the caller (the core does no IO).
#[derive(Debug, Clone)]
pub struct RulesetSource {
    /// How the user named it: an embedded name or a path.
    pub origin: String,
    /// The main file's name for messages.
    pub file: String,
    pub text: String,
    /// Rhai scripts: (file name for messages, text).
    pub scripts: Vec<(String, String)>,
}

/// Finds the ruleset a variant `extends:` (by name or path, as the variant wrote it).
pub type Resolver<'a> = &'a dyn Fn(&str) -> Result<RulesetSource, String>;

/// Loads, validates and compiles a ruleset (or a variant of one), held to the default
/// limits.
pub fn load(source: &RulesetSource, resolve: Resolver) -> Result<Game, LoadError> {
    load_with_params(source, resolve, &[], Limits::default())
}

/// Loads a ruleset with some parameters overridden (as a variant would), held to
/// `limits`: its expressions when they are parsed, its state's size when it is laid out,
/// and its games (`Game::limits`) when they run.
pub fn load_with_params(
    source: &RulesetSource,
    resolve: Resolver,
    params: &[(String, i64)],
    limits: Limits,
) -> Result<Game, LoadError> {
    load_with(source, resolve, params, limits, Optimizer::On)
}

/// [`load_with_params`], with or without the optimizer.
pub fn load_with(
    source: &RulesetSource,
    resolve: Resolver,
    params: &[(String, i64)],
    limits: Limits,
    optimizer: Optimizer,
) -> Result<Game, LoadError> {
    let layers = variant::read_layers(source, resolve)?;
    let mut merged = variant::merge(&layers);
    // Parameters nothing declares are reported with every other problem of the ruleset.
    let mut unknown = variant::unknown_params(&layers);
    if !params.is_empty() {
        let declared = merged
            .get("params")
            .and_then(Yaml::as_mapping)
            .cloned()
            .unwrap_or_default();
        let mut overlay = Mapping::new();
        for (name, value) in params {
            if !declared.contains_key(name.as_str()) {
                let names: Vec<String> = declared
                    .keys()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect();
                let hint = did_you_mean(name, &names);
                unknown.push(Diagnostic {
                    file: source.file.clone(),
                    position: None,
                    path: format!("params.{name}"),
                    message: format!("the ruleset has no parameter '{name}'{hint}"),
                });
            }
            overlay.insert(Yaml::from(name.as_str()), Yaml::from(*value));
        }
        let mut top = Mapping::new();
        top.insert("params".into(), Yaml::Mapping(overlay));
        variant::overlay(&mut merged, &Yaml::Mapping(top));
    }
    let files: Vec<(String, String)> = layers
        .iter()
        .map(|l| (l.source.file.clone(), l.source.text.clone()))
        .collect();
    let scripts: Vec<(String, String)> = layers
        .iter()
        .flat_map(|l| l.source.scripts.clone())
        .collect();
    let mut builder = Builder {
        files,
        diagnostics: unknown,
        limits,
        optimizer,
    };
    let game = builder.build(&merged, &scripts, &source.origin);
    if builder.full() {
        let message = format!(
            "more problems may follow: loading stops after {MAX_DIAGNOSTICS}; mend these first"
        );
        builder.diagnostics.push(Diagnostic {
            file: source.file.clone(),
            position: None,
            path: String::new(),
            message,
        });
    }
    match game {
        Some(mut game) if builder.diagnostics.is_empty() => {
            if layers.len() > 1 {
                game.meta.variant = Some(variant::info(&layers[0].doc));
            }
            Ok(game)
        }
        _ => {
            // A problem in a base names the variant that asked for it.
            let mut diagnostics = builder.diagnostics;
            for d in diagnostics.iter_mut() {
                if let Some(at) = layers
                    .iter()
                    .position(|l| l.source.file == d.file)
                    .filter(|at| *at > 0)
                {
                    d.message.push_str(&format!(
                        " (in the base that {} extends)",
                        layers[at - 1].source.file
                    ));
                }
            }
            Err(LoadError { diagnostics })
        }
    }
}

/// A YAML value as the user wrote it, short: `"six"`, `1.5`, `a list`.
fn yaml_text(v: &Yaml) -> String {
    match v {
        Yaml::String(s) => format!("\"{s}\""),
        Yaml::Number(n) => n.to_string(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Null => "nothing".into(),
        Yaml::Sequence(_) => "a list".into(),
        Yaml::Mapping(_) => "a mapping".into(),
        Yaml::Tagged(_) => "a tagged value".into(),
    }
}

/// Parses YAML text, reporting a syntax error with its line and column.
pub(crate) fn parse_yaml(file: &str, text: &str) -> Result<Yaml, Diagnostic> {
    serde_yaml::from_str::<Yaml>(text).map_err(|e| {
        let mut position = e.location().map(|l| (l.line(), l.column()));
        let mut message = strip_location(&e.to_string());
        // serde_yaml places a duplicate key at the start of its mapping: the mistake is the
        // key's second occurrence.
        let duplicate = message
            .split_once("duplicate entry with key ")
            .map(|(_, k)| k.trim_matches('"').to_string());
        if let (Some(key), Some(at)) = (duplicate, position) {
            position = second_occurrence(text, &key, at).or(position);
        }
        // YAML indents with spaces only; a tab there gives a puzzling message.
        let upto = position.map_or(usize::MAX, |(line, _)| line);
        let tab_line = text
            .lines()
            .enumerate()
            .take(upto)
            .find(|(_, l)| l.trim_start_matches(' ').starts_with('\t'));
        if let Some((i, _)) = tab_line {
            message = format!(
                "a tab in the indentation of line {}: YAML indents with spaces only ({message})",
                i + 1
            );
        } else if message == "recursion limit exceeded" {
            message =
                "mappings and lists nested more than 128 deep: the YAML reader goes no deeper"
                    .into();
        }
        Diagnostic {
            file: file.to_string(),
            position,
            path: String::new(),
            message,
        }
    })
}

/// Where `key` is written a second time in the block mapping that starts at `at` (line
/// and column, from 1): lines indented as the mapping's first key, until one less indented.
fn second_occurrence(text: &str, key: &str, at: (usize, usize)) -> Option<(usize, usize)> {
    let (line, column) = at;
    let indent = column.saturating_sub(1);
    let mut seen = 0;
    for (i, l) in text.lines().enumerate().skip(line.saturating_sub(1)) {
        let body = l.trim_start_matches(' ');
        let here = l.len() - body.len();
        let first = i + 1 == line;
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if !first && here < indent {
            break;
        }
        // The mapping's first line may begin with `- ` (a mapping in a list).
        let body = if first {
            l.get(indent..).unwrap_or(body)
        } else if here == indent {
            body
        } else {
            continue;
        };
        let named = body
            .strip_prefix(key)
            .or_else(|| body.strip_prefix(&format!("\"{key}\"")))
            .or_else(|| body.strip_prefix(&format!("'{key}'")));
        if named.is_some_and(|rest| rest.trim_start().starts_with(':')) {
            seen += 1;
            if seen == 2 {
                return Some((i + 1, indent + 1));
            }
        }
    }
    None
}

/// serde's messages end with " at line L column C": the position is reported separately.
fn strip_location(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

pub(crate) struct Builder {
    /// The files that make up the ruleset: a variant first, then what it extends.
    pub files: Vec<(String, String)>,
    /// The problems found, at most [`MAX_DIAGNOSTICS`] (see [`Builder::full`]).
    pub diagnostics: Vec<Diagnostic>,
    pub limits: Limits,
    pub optimizer: Optimizer,
}

/// A local variable's declaration inside a procedure.
pub(crate) struct ProcCtx {
    pub slots: Vec<(String, Type)>,
    pub visible: Vec<(String, Type, u16)>,
    /// The type of the value the procedure returns, if it returns one.
    pub returns: Option<Type>,
}

impl ProcCtx {
    pub fn new() -> ProcCtx {
        ProcCtx {
            slots: Vec::new(),
            visible: Vec::new(),
            returns: None,
        }
    }
    pub fn declare(&mut self, name: &str, ty: Type) -> Slot {
        let slot = self.hidden(name, ty.clone());
        self.visible.push((name.to_string(), ty, slot.0));
        slot
    }

    /// A local no expression can name (a loop's round counter).
    pub fn hidden(&mut self, name: &str, ty: Type) -> Slot {
        // Past the last slot id every further local shares it: the procedure is refused
        // for its number of locals (`MAX_IDS`) before any game runs it.
        let slot = Slot(u16::try_from(self.slots.len()).unwrap_or(u16::MAX));
        self.slots.push((name.to_string(), ty));
        slot
    }
}

/// The most rows a table may have: zones and boards store rows as 16-bit codes.
pub const MAX_ROWS: usize = u16::MAX as usize;

/// The most problems one load reports. Past it the loader stops compiling: finding where
/// each problem stands, and the names it may be a misspelling of, takes time in the
/// size of the ruleset, so a large ruleset with a mistake repeated everywhere would
/// otherwise take time in its size squared.
pub const MAX_DIAGNOSTICS: usize = 200;

/// The most tables, state variables (with stat counters), zones, boards, functions or
/// procedures a ruleset may declare, and the most locals or parameters of one procedure
/// or function: their ids are 16 bits ([`crate::ir::TableId`], [`crate::ir::VarId`]…).
pub const MAX_IDS: usize = u16::MAX as usize;

impl Builder {
    pub fn error(&mut self, path: &str, message: impl Into<String>) {
        if self.full() {
            return;
        }
        let (file, position) = self.locate(path, None);
        self.diagnostics.push(Diagnostic {
            file,
            position,
            path: path.to_string(),
            message: message.into(),
        });
    }

    /// Whether [`MAX_DIAGNOSTICS`] problems are reported: what follows is left out, and
    /// expressions and statements are no longer compiled.
    pub fn full(&self) -> bool {
        self.diagnostics.len() >= MAX_DIAGNOSTICS
    }

    /// Where `path` (and optionally an expression source inside it) stands.
    fn locate(&self, path: &str, inner: Option<(&str, usize)>) -> (String, Option<(usize, usize)>) {
        locate_in(&self.files, path, inner)
    }

    pub fn expr_error(&mut self, path: &str, source: &str, span: Span, message: String) {
        if self.full() {
            return;
        }
        let (file, position) = self.locate(path, Some((source, span.start)));
        let snippet = source.get(span.start..span.end).unwrap_or(source);
        let message = if snippet.is_empty() || snippet == source {
            format!("{message} in \"{source}\"")
        } else {
            format!("{message}: '{snippet}' in \"{source}\"")
        };
        self.diagnostics.push(Diagnostic {
            file,
            position,
            path: path.to_string(),
            message,
        });
    }

    /// The text of an expression written in YAML (a string, a number or a boolean).
    pub fn expr_source(&mut self, value: &Yaml, path: &str) -> Option<String> {
        match value {
            Yaml::String(s) => Some(s.clone()),
            Yaml::Number(n) => Some(n.to_string()),
            Yaml::Bool(b) => Some(b.to_string()),
            Yaml::Null => Some("none".into()),
            _ => {
                self.error(
                    path,
                    "expected an expression (a text such as \"vp[p] + 1\", or a number)",
                );
                None
            }
        }
    }

    pub fn parse_expression(&mut self, value: &Yaml, path: &str) -> Option<(Expr, String)> {
        let source = self.expr_source(value, path)?;
        match parse_expr(&source, self.limits.expression) {
            Ok(e) => Some((e, source)),
            Err(err) => {
                let span = Span::new(err.offset, err.offset);
                self.expr_error(
                    path,
                    &source,
                    span,
                    format!("syntax error: {}", err.message),
                );
                None
            }
        }
    }

    /// Compiles an already-parsed expression of type `want`, reporting its errors at `path`.
    pub fn compile_ast(
        &mut self,
        decls: &Decls,
        ast: &Expr,
        source: &str,
        path: &str,
        scope: &Scope,
        want: &Type,
    ) -> Ir {
        if self.full() {
            return nothing().0;
        }
        let mut compiler = Compiler::with_source(decls, source);
        let eval = compiler.expect(ast, scope, want);
        for e in compiler.errors {
            self.expr_error(path, source, e.span, e.message);
        }
        eval
    }

    /// Parses and compiles an expression of type `want` (any type if `None`).
    pub fn expression(
        &mut self,
        decls: &Decls,
        value: &Yaml,
        path: &str,
        scope: &Scope,
        want: Option<&Type>,
    ) -> Compiled {
        if self.full() {
            return nothing();
        }
        let Some((ast, source)) = self.parse_expression(value, path) else {
            return nothing();
        };
        let mut compiler = Compiler::with_source(decls, &source);
        let (eval, ty) = match want {
            Some(want) => (compiler.expect(&ast, scope, want), want.clone()),
            None => compiler.compile(&ast, scope),
        };
        for e in compiler.errors {
            self.expr_error(path, &source, e.span, e.message);
        }
        (eval, ty)
    }

    pub fn template(&mut self, decls: &Decls, value: &Yaml, path: &str, scope: &Scope) -> Template {
        if self.full() {
            return Template::literal("");
        }
        let source = match value {
            Yaml::String(s) => s.clone(),
            Yaml::Number(n) => n.to_string(),
            Yaml::Bool(b) => b.to_string(),
            _ => {
                self.error(path, "expected a text");
                return Template::literal("");
            }
        };
        let parts = match parse_template(&source, self.limits.expression) {
            Ok(parts) => parts,
            Err(err) => {
                self.expr_error(
                    path,
                    &source,
                    Span::new(err.offset, err.offset),
                    format!("syntax error: {}", err.message),
                );
                return Template::literal(&source);
            }
        };
        let mut compiler = Compiler::with_source(decls, &source);
        let parts = parts
            .into_iter()
            .map(|p| match p {
                AstPart::Text(t) => TemplatePart::Text(t),
                AstPart::Hole(e) => TemplatePart::Hole(compiler.compile(&e, scope).0),
            })
            .collect();
        for e in compiler.errors {
            self.expr_error(path, &source, e.span, e.message);
        }
        Template { parts, source }
    }

    pub fn check_keys<S: AsRef<str>>(&mut self, map: &Mapping, path: &str, allowed: &[S]) {
        for key in map.keys() {
            let Some(k) = key.as_str() else {
                self.error(path, "keys must be names");
                continue;
            };
            if !allowed.iter().any(|a| a.as_ref() == k) {
                let candidates: Vec<String> =
                    allowed.iter().map(|s| s.as_ref().to_string()).collect();
                let hint = did_you_mean(k, &candidates);
                let sub = join(path, k);
                self.error(
                    &sub,
                    format!(
                        "unknown key '{k}'{hint}; expected one of: {}",
                        candidates.join(", ")
                    ),
                );
            }
        }
    }

    pub fn string(&mut self, map: &Mapping, key: &str, path: &str) -> Option<String> {
        match map.get(key) {
            None | Some(Yaml::Null) => None,
            Some(Yaml::String(s)) => Some(s.clone()),
            Some(Yaml::Number(n)) => Some(n.to_string()),
            Some(_) => {
                self.error(&join(path, key), "expected a text");
                None
            }
        }
    }

    pub fn rule(&mut self, map: &Mapping, path: &str) -> RuleRef {
        self.string(map, "rule", path).map(Arc::from)
    }

    fn build(&mut self, doc: &Yaml, scripts: &[(String, String)], origin: &str) -> Option<Game> {
        let Some(top) = doc.as_mapping() else {
            self.error(
                "",
                "a ruleset is a YAML mapping (name:, title:, players:, …)",
            );
            return None;
        };
        self.check_keys(top, "", &format::key_lists().top);
        if let Some(v) = top.get("frontier") {
            if v.as_u64() != Some(1) {
                self.error(
                    "frontier",
                    "this version of frontier reads ruleset format 1",
                );
            }
        }
        let meta = self.meta(top, origin);
        if !self.ids_fit(top) {
            return None;
        }
        let params = self.params(top.get("params"));
        let mut tables = self.tables(top.get("tables"));
        let scripts_unreadable = !scripts.is_empty();
        let scripts = self.scripts(scripts);
        let scripts_unreadable = scripts_unreadable && scripts.is_none();
        let mut decls = Decls {
            max_players: meta.max_players as usize,
            tables: tables.iter().map(TableDecl::of).collect(),
            params: params.iter().map(|p| (p.name.clone(), p.value)).collect(),
            vars: Named::default(),
            zones: Named::default(),
            boards: Named::default(),
            script_functions: scripts.as_ref().map(|s| s.functions()).unwrap_or_default(),
            scripts: scripts.clone(),
            scripts_unreadable,
            functions: Vec::new(),
            function_ids: Default::default(),
            rows_by_id: Default::default(),
        };
        decls.index_rows();
        let max_players = meta.max_players as usize;
        // Signatures first, so that any expression may call a function; bodies once every
        // declaration they may read is known.
        let declared = self.declare_functions(top.get("functions"), &mut decls);
        let (mut vars, mut int_slots) = self.vars(top.get("state"), &mut decls, max_players);
        let (zones, zone_slots) = self.zones(top.get("zones"), &mut decls, max_players);
        let (boards, board_slots) = self.boards(top.get("boards"), &mut decls, max_players);
        let stat_entries = self.stat_entries(top.get("stats"));
        let counters = self.stat_counters(&stat_entries, &mut decls, &mut vars, &mut int_slots);
        if vars.len() > MAX_IDS {
            let message = format!("a ruleset declares at most {MAX_IDS} state variables and stat counters together, not {}", vars.len());
            self.error("stats", message);
            return None;
        }
        self.check_state_size([
            ("state", int_slots),
            ("zones", zone_slots),
            ("boards", board_slots),
        ]);
        self.table_shows(top.get("tables"), &mut tables, &decls);
        let functions = self.functions(declared, &decls);
        self.check_unique_names(&decls);
        let mut procs = stmt::Procedures::new();
        procs.declare(self, &decls, top);
        let (procedures, blocks, setup, play) = procs.compile(self, &decls, top);
        self.refuse_endless_calls(&procedures, &blocks);
        let ranking = self.ranking(top.get("ranking"), &decls);
        let stats = self.stats(stat_entries, &decls, &counters);
        let display = self.display(top.get("display"), &decls);
        let conserve = self.conserve(top.get("conserve"), &decls);
        let view = self.view(top.get("view"), &decls, &tables, &vars, &zones, &boards);
        let mut game = Game {
            meta,
            params,
            tables,
            vars,
            zones,
            boards,
            procedures,
            functions,
            blocks,
            setup,
            play,
            ranking,
            stats,
            conserve,
            display,
            view,
            scripts,
            int_slots,
            zone_slots,
            board_slots,
            sources: Vec::new(),
            seats: (0..=max_players)
                .map(|n| Value::list((0..n).map(|p| Value::Player(p as u8)).collect()))
                .collect(),
            limits: self.limits,
            optimizer: self.optimizer,
        };
        game.sources = self.files.clone();
        // A game with problems is not run: its IR may hold what stood for a faulty
        // expression, which neither the verifier nor the optimizer need see.
        if self.diagnostics.is_empty() {
            if let Err(message) = crate::optimize::run(&mut game) {
                self.error("", message);
                return None;
            }
        }
        Some(game)
    }

    /// A procedure that calls itself (directly or through others) before anything could
    /// end it or the game would grow its calls until the `calls` limit stops the game:
    /// where the loader can see that, it is a load error. Each procedure's body is read up
    /// to its first call, over statements that always go on to the next one; a loop, a
    /// branch, a decision or a `return` before it may end the procedure, and is left to the
    /// runtime limit.
    fn refuse_endless_calls(&mut self, procedures: &[Procedure], blocks: &[Block]) {
        let first_call: Vec<Option<(usize, &Stmt)>> = procedures
            .iter()
            .map(|p| {
                for stmt in &blocks[p.body.index()] {
                    match &stmt.kind {
                        StmtKind::Call { proc, .. } => return Some((proc.index(), stmt)),
                        StmtKind::Assign { .. }
                        | StmtKind::Move { .. }
                        | StmtKind::Push { .. }
                        | StmtKind::Remove { .. }
                        | StmtKind::Shuffle { .. }
                        | StmtKind::Draw(_)
                        | StmtKind::Clear { .. }
                        | StmtKind::Reveal { .. }
                        | StmtKind::Place { .. }
                        | StmtKind::Random { .. }
                        | StmtKind::Log(_)
                        | StmtKind::Award(_) => {}
                        _ => return None,
                    }
                }
                None
            })
            .collect();
        // Each procedure has at most one such call: walks along them end, or run into an
        // earlier walk, or into themselves (a cycle), each procedure being visited once.
        let mut walk_of = vec![usize::MAX; procedures.len()];
        let mut reported = 0;
        for start in 0..procedures.len() {
            let mut way = Vec::new();
            let mut at = start;
            while walk_of[at] == usize::MAX {
                walk_of[at] = start;
                way.push(at);
                match first_call[at] {
                    Some((next, _)) => at = next,
                    None => break,
                }
            }
            if walk_of[at] != start || first_call[at].is_none() {
                continue;
            }
            // `at` is on a cycle: the way from it comes back to it.
            let from = way.iter().position(|&p| p == at).unwrap_or(0);
            let cycle = &way[from..];
            for (i, &p) in cycle.iter().enumerate() {
                if reported == 20 {
                    return;
                }
                reported += 1;
                let names: Vec<&str> = cycle[i..]
                    .iter()
                    .chain(&cycle[..=i])
                    .map(|&q| procedures[q].name.as_str())
                    .collect();
                let origin = first_call[p]
                    .map(|(_, s)| s.origin.to_string())
                    .unwrap_or_default();
                let message = format!(
                    "procedure '{}' always calls itself before anything could end it ({}): the calls would never end",
                    procedures[p].name,
                    names.join(" → ")
                );
                self.error(&origin, message);
            }
        }
    }

    /// Whether every section whose declarations are numbered by 16-bit ids (tables, state
    /// variables, zones, boards, functions, procedures) has at most `MAX_IDS`, each that
    /// has more reported. Checked before any is numbered, so that no id wraps.
    fn ids_fit(&mut self, top: &Mapping) -> bool {
        let mut fit = true;
        for section in [
            "tables",
            "state",
            "zones",
            "boards",
            "functions",
            "procedures",
        ] {
            let n = top
                .get(section)
                .and_then(Yaml::as_mapping)
                .map_or(0, Mapping::len);
            if n > MAX_IDS {
                let what = if section == "state" {
                    "state variables"
                } else {
                    section
                };
                self.error(
                    section,
                    format!("a ruleset declares at most {MAX_IDS} {what}, not {n}"),
                );
                fit = false;
            }
        }
        fit
    }

    /// A state holds a number per variable slot, a list per zone instance and a grid per
    /// board instance, made when a game starts: a declaration per two large tables could
    /// ask for billions. `sections` are each section's slots, in the order they are laid out.
    fn check_state_size(&mut self, sections: [(&str, usize); 3]) {
        let limit = self.limits.state_slots;
        let mut total = 0usize;
        for (section, slots) in sections {
            total = total.saturating_add(slots);
            if total > limit {
                self.error(
                    section,
                    format!("the state would hold {total} numbers, zones and boards with these declarations, more than {limit} (--limit slots=N raises the limit): a declaration per player or per row takes one for each, per two keys one for each pair"),
                );
                return;
            }
        }
    }

    fn meta(&mut self, top: &Mapping, origin: &str) -> Meta {
        let name = self.string(top, "name", "").unwrap_or_else(|| {
            self.error(
                "name",
                "missing 'name' (the ruleset's short name, e.g. go-west)",
            );
            String::new()
        });
        if name.is_empty() && top.contains_key("name") {
            self.error(
                "name",
                "a ruleset name cannot be empty (the ruleset's short name, e.g. go-west)",
            );
        } else if !name.is_empty() && !crate::model::is_ruleset_name(&name) {
            self.error(
                "name",
                "a ruleset name uses letters, digits, '-' and '_' only",
            );
        }
        let title = self
            .string(top, "title", "")
            .unwrap_or_else(|| name.clone());
        let (min_players, max_players) = match top.get("players") {
            Some(Yaml::Number(n)) if n.as_u64().is_some_and(|n| (1..=16).contains(&n)) => {
                let n = n.as_u64().unwrap_or(1) as u8;
                (n, n)
            }
            Some(Yaml::Sequence(s)) if s.len() == 2 => {
                let lo = s[0].as_u64().filter(|n| (1..=16).contains(n));
                let hi = s[1].as_u64().filter(|n| (1..=16).contains(n));
                match (lo, hi) {
                    (Some(lo), Some(hi)) if lo <= hi => (lo as u8, hi as u8),
                    _ => {
                        self.error("players", "expected [min, max] with 1 <= min <= max <= 16");
                        (1, 1)
                    }
                }
            }
            None => {
                self.error("players", "missing 'players' (a number, or [min, max])");
                (1, 1)
            }
            Some(_) => {
                self.error(
                    "players",
                    "expected a number of players, or [min, max] with 1 <= min <= max <= 16",
                );
                (1, 1)
            }
        };
        Meta {
            name,
            title,
            min_players,
            max_players,
            rulebook: self.string(top, "rulebook", ""),
            summary: self.string(top, "summary", ""),
            origin: origin.to_string(),
            variant: None,
        }
    }

    fn params(&mut self, value: Option<&Yaml>) -> Vec<Param> {
        let mut out = Vec::new();
        let Some(value) = value else { return out };
        let Some(map) = value.as_mapping() else {
            self.error("params", "expected a mapping of parameter names to numbers");
            return out;
        };
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("params.{name}");
            let (value, doc, rule, min, max) = match v {
                Yaml::Number(n) => (n.as_i64(), None, None, None, None),
                Yaml::Mapping(m) => {
                    self.check_keys(m, &path, &format::key_lists().param);
                    let doc = self.string(m, "doc", &path);
                    let rule = self.rule(m, &path);
                    let bound = |b: &mut Self, key: &str| match m.get(key) {
                        None => None,
                        Some(y) => y.as_i64().or_else(|| {
                            b.error(
                                &join(&path, key),
                                format!("expected a whole number, found {}", yaml_text(y)),
                            );
                            None
                        }),
                    };
                    let (min, max) = (bound(self, "min"), bound(self, "max"));
                    (m.get("value").and_then(Yaml::as_i64), doc, rule, min, max)
                }
                _ => (None, None, None, None, None),
            };
            match value {
                Some(value) => {
                    let param = Param {
                        name: name.to_string(),
                        value,
                        min,
                        max,
                        doc,
                        rule,
                    };
                    self.check_param_range(&path, &param);
                    out.push(param);
                }
                None => {
                    let found = match v {
                        Yaml::Mapping(m) => m
                            .get("value")
                            .map(yaml_text)
                            .unwrap_or_else(|| "no value".into()),
                        other => yaml_text(other),
                    };
                    self.error(&path, format!("a parameter is a whole number, or {{value: N, doc: …, rule: …}}; found {found}"));
                    // Declared all the same, so that the expressions reading it do not
                    // report it unknown: one mistake, one error.
                    out.push(Param {
                        name: name.to_string(),
                        value: 0,
                        min: None,
                        max: None,
                        doc: None,
                        rule: None,
                    });
                }
            }
        }
        out
    }

    /// A parameter's value (its own, a variant's or a trace's) lies within its `min:` and
    /// `max:`, which are in order.
    fn check_param_range(&mut self, path: &str, param: &Param) {
        match (param.min, param.max, param.range()) {
            (Some(min), Some(max), _) if min > max => self.error(
                path,
                format!("min {min} is more than max {max}: no value fits"),
            ),
            (_, _, Some(range)) if !param.in_range() => self.error(
                path,
                format!(
                    "{} is outside the values this parameter takes ({range})",
                    param.value
                ),
            ),
            _ => {}
        }
    }

    /// `params: {name: type, …}` of a procedure or a function, in order.
    pub(crate) fn typed_params<T: Declared>(
        &mut self,
        value: Option<&Yaml>,
        tables: &Named<T>,
        path: &str,
    ) -> Vec<(String, Type)> {
        let mut params = Vec::new();
        match value {
            None => {}
            Some(Yaml::Mapping(ps)) => {
                if ps.len() > MAX_IDS {
                    self.error(
                        path,
                        format!("at most {MAX_IDS} parameters, not {}", ps.len()),
                    );
                }
                for (p, ty) in ps.iter().take(MAX_IDS) {
                    let pname = p.as_str().unwrap_or_default().to_string();
                    let ppath = format!("{path}.params.{pname}");
                    let ty = match ty.as_str() {
                        Some(t) => self.value_type_named(t, tables, &ppath),
                        None => {
                            self.error(&ppath, "a parameter's type: int, bool, str, player, a table name, or list of one of these");
                            Type::Any
                        }
                    };
                    params.push((pname, ty));
                }
            }
            Some(_) => self.error(
                &join(path, "params"),
                "expected a mapping of parameter names to types",
            ),
        }
        params
    }

    /// The type of a value passed around (a parameter, a function's or a procedure's
    /// value): a type name, or `list of <type>`.
    pub(crate) fn value_type_named<T: Declared>(
        &mut self,
        text: &str,
        tables: &Named<T>,
        path: &str,
    ) -> Type {
        match text.strip_prefix("list of ") {
            Some(element) => Type::List(Box::new(self.value_type_named(
                element.trim(),
                tables,
                path,
            ))),
            None => self.type_named(text, tables, path),
        }
    }

    pub(crate) fn type_named<T: Declared>(
        &mut self,
        text: &str,
        tables: &Named<T>,
        path: &str,
    ) -> Type {
        let base = text.trim_end_matches('?');
        match base {
            "int" => Type::Int,
            "bool" => Type::Bool,
            "str" => Type::Str,
            "player" => Type::Player,
            other => match tables.position(other) {
                Some(t) => Type::Row(TableId::at(t)),
                None => {
                    let mut candidates: Vec<String> = ["int", "bool", "str", "player"]
                        .iter()
                        .map(|s| s.to_string())
                        .collect();
                    candidates.extend(tables.iter().map(|t| t.name().to_string()));
                    let hint = did_you_mean(other, &candidates);
                    self.error(path, format!("unknown type '{other}'{hint}: use int, bool, str, player or a table name"));
                    Type::Any
                }
            },
        }
    }

    fn tables(&mut self, value: Option<&Yaml>) -> Vec<Table> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(map) = value.as_mapping() else {
            self.error("tables", "expected a mapping of table names to tables");
            return Vec::new();
        };
        let map = &self.derive_pairs(map);
        // Only the tables that will be built: a type naming one refers to it by position.
        let names: Named<String> = map
            .iter()
            .filter(|(_, v)| v.is_mapping())
            .filter_map(|(k, _)| k.as_str().map(str::to_string))
            .collect();
        let mut tables = Vec::new();
        // Row values may name rows of any table: read all rows first, then resolve.
        let mut raw_rows: Vec<Vec<(String, Vec<Yaml>, String)>> = Vec::new();
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("tables.{name}");
            let Some(t) = v.as_mapping() else {
                self.error(&path, "a table is a mapping with columns: and rows:");
                continue;
            };
            self.check_keys(t, &path, &format::key_lists().table);
            let mut columns = Vec::new();
            if let Some(cols) = t.get("columns") {
                match cols.as_mapping() {
                    Some(cols) => {
                        for (c, ty) in cols {
                            let cname = c.as_str().unwrap_or_default().to_string();
                            let cpath = format!("{path}.columns.{cname}");
                            let ty = match ty.as_str() {
                                Some(ty) => self.type_named(ty, &names, &cpath),
                                None => {
                                    self.error(&cpath, "a column type is a name: int, bool, str, player or a table");
                                    Type::Any
                                }
                            };
                            if cname == "id" {
                                self.error(&cpath, "'id' is every row's first value; it is not declared as a column");
                            }
                            columns.push(Column { name: cname, ty });
                        }
                    }
                    None => self.error(
                        &format!("{path}.columns"),
                        "expected a mapping of column names to types",
                    ),
                }
            }
            let mut rows = Vec::new();
            let mut ids: HashSet<String> = HashSet::new();
            match t.get("rows").and_then(Yaml::as_sequence) {
                Some(seq) => {
                    for (i, row) in seq.iter().enumerate() {
                        if self.full() {
                            break;
                        }
                        let rpath = format!("{path}.rows[{i}]");
                        let (id, values) = match row {
                            Yaml::Sequence(items) => {
                                let id = items.first().and_then(scalar_text);
                                (id, items.iter().skip(1).cloned().collect::<Vec<_>>())
                            }
                            Yaml::Mapping(m) => {
                                let id = m.get("id").and_then(scalar_text);
                                let values = columns
                                    .iter()
                                    .map(|c| m.get(c.name.as_str()).cloned().unwrap_or(Yaml::Null))
                                    .collect();
                                for k in m.keys().filter_map(Yaml::as_str) {
                                    if k != "id" && !columns.iter().any(|c| c.name == k) {
                                        self.error(
                                            &format!("{rpath}.{k}"),
                                            format!("table {name} has no column '{k}'"),
                                        );
                                    }
                                }
                                (id, values)
                            }
                            Yaml::String(s) if columns.is_empty() => (Some(s.clone()), Vec::new()),
                            _ => (None, Vec::new()),
                        };
                        let Some(id) = id else {
                            self.error(&rpath, "a row is [id, value, …] in column order, or {id: …, column: value, …}");
                            continue;
                        };
                        if values.len() != columns.len() {
                            self.error(
                                &rpath,
                                format!(
                                    "row '{id}' has {} values for {} columns",
                                    values.len(),
                                    columns.len()
                                ),
                            );
                            continue;
                        }
                        if !ids.insert(id.clone()) {
                            self.error(&rpath, format!("duplicate row id '{id}'"));
                        }
                        rows.push((id, values, rpath));
                    }
                }
                None => self.error(&path, "a table needs rows: a list of rows"),
            }
            if rows.len() > MAX_ROWS {
                // Zones and boards store a row as a 16-bit code.
                self.error(
                    &format!("{path}.rows"),
                    format!("a table holds at most {MAX_ROWS} rows, not {}", rows.len()),
                );
                rows.truncate(MAX_ROWS);
            }
            raw_rows.push(rows);
            tables.push(Table {
                name: name.to_string(),
                columns,
                rows: Vec::new(),
                doc: self.string(t, "doc", &path),
                rule: self.rule(t, &path),
                reconstructed: self.string(t, "reconstructed", &path),
                show: None,
                geometry: None,
                ids: Default::default(),
            });
        }
        // Each table's rows by id (the first of a duplicated id, which is reported).
        let ids: Vec<std::collections::HashMap<String, usize>> = raw_rows
            .iter()
            .map(|rows| {
                rows.iter()
                    .enumerate()
                    .rev()
                    .map(|(i, r)| (r.0.clone(), i))
                    .collect()
            })
            .collect();
        for (t, rows) in raw_rows.into_iter().enumerate() {
            for (id, values, rpath) in rows {
                let mut row = Vec::new();
                for (c, v) in values.iter().enumerate() {
                    let ty = tables[t].columns[c].ty.clone();
                    let cpath = format!("{rpath}[{}]", c + 1);
                    row.push(self.cell(v, &ty, &ids, &tables[t].columns[c].name, &cpath));
                }
                let at = tables[t].rows.len() as u16;
                tables[t].ids.entry(id.clone()).or_insert(at);
                tables[t].rows.push(Row { id, values: row });
            }
        }
        for table in &mut tables {
            let path = format!("tables.{}", table.name);
            if let Some(g) = map.get(table.name.as_str()).and_then(|t| t.get("geometry")) {
                table.geometry = self.geometry(g, table, &join(&path, "geometry"));
            }
        }
        tables
    }

    /// The tables section with each table declared `pairs: { of: <table> }` written out:
    /// one row per ordered pair of different rows of the other table (`a--b`, from `a`,
    /// to `b`), in the other table's order, with the columns `from` and `to`.
    fn derive_pairs(&mut self, map: &Mapping) -> Mapping {
        let mut out = self.derive_products(map);
        for (key, v) in map {
            if self.full() {
                break;
            }
            let (Some(name), Some(pairs)) = (key.as_str(), v.get("pairs")) else {
                continue;
            };
            let path = format!("tables.{name}.pairs");
            if v.get("rows").is_some() || v.get("columns").is_some() {
                self.error(
                    &path,
                    "a table of pairs has no rows or columns of its own: they are derived",
                );
                continue;
            }
            let Some(of) = pairs
                .as_mapping()
                .and_then(|p| p.get("of"))
                .and_then(Yaml::as_str)
            else {
                self.error(
                    &path,
                    "pairs takes {of: <table>}: every ordered pair of different rows of that table",
                );
                continue;
            };
            if let Some(p) = pairs.as_mapping() {
                self.check_keys(p, &path, &format::key_lists().pairs);
            }
            let ids: Option<Vec<String>> = map
                .get(of)
                .and_then(|t| t.get("rows"))
                .and_then(Yaml::as_sequence)
                .map(|rows| {
                    rows.iter()
                        .filter_map(|r| match r {
                            Yaml::Sequence(items) => items.first().and_then(scalar_text),
                            Yaml::Mapping(m) => m.get("id").and_then(scalar_text),
                            other => scalar_text(other),
                        })
                        .collect()
                });
            let Some(ids) = ids.filter(|_| map.get(of).and_then(|t| t.get("pairs")).is_none())
            else {
                let names: Vec<String> = map
                    .iter()
                    .filter(|(_, t)| t.get("pairs").is_none())
                    .filter_map(|(k, _)| k.as_str().map(str::to_string))
                    .collect();
                let hint = did_you_mean(of, &names);
                self.error(
                    &join(&path, "of"),
                    format!("'{of}' is not a table with rows of its own{hint}"),
                );
                // Reported once: the table stands with no rows.
                let mut table = v.as_mapping().cloned().unwrap_or_default();
                table.insert("rows".into(), Yaml::Sequence(Vec::new()));
                out.insert(key.clone(), Yaml::Mapping(table));
                continue;
            };
            let mut rows = Vec::new();
            for a in &ids {
                for b in ids.iter().filter(|b| *b != a) {
                    rows.push(Yaml::Sequence(vec![
                        format!("{a}--{b}").into(),
                        a.as_str().into(),
                        b.as_str().into(),
                    ]));
                }
            }
            let mut table = v.as_mapping().cloned().unwrap_or_default();
            table.remove("pairs");
            let mut columns = Mapping::new();
            columns.insert("from".into(), of.into());
            columns.insert("to".into(), of.into());
            table.insert("columns".into(), Yaml::Mapping(columns));
            table.insert("rows".into(), Yaml::Sequence(rows));
            out.insert(key.clone(), Yaml::Mapping(table));
        }
        out
    }

    /// The tables section with each table declared `product: { <column>: <table>, … }`
    /// written out: one row per combination of a row of each table, the first table
    /// outermost, its id the rows' ids joined by `-` (`abilene-bank`), its columns the
    /// keys, each holding that table's row.
    fn derive_products(&mut self, map: &Mapping) -> Mapping {
        let mut out = map.clone();
        let derived = |t: &Yaml| t.get("pairs").is_some() || t.get("product").is_some();
        for (key, v) in map {
            if self.full() {
                break;
            }
            let (Some(name), Some(product)) = (key.as_str(), v.get("product")) else {
                continue;
            };
            let path = format!("tables.{name}.product");
            if v.get("rows").is_some() || v.get("columns").is_some() || v.get("pairs").is_some() {
                self.error(
                    &path,
                    "a product table has no rows, columns or pairs of its own: they are derived",
                );
                continue;
            }
            let factors: Vec<(String, String)> = product
                .as_mapping()
                .map(|m| {
                    m.iter()
                        .filter_map(|(c, t)| {
                            Some((c.as_str()?.to_string(), t.as_str()?.to_string()))
                        })
                        .collect()
                })
                .unwrap_or_default();
            // Reported once: a faulty product stands as a table without rows or columns.
            let mut table = v.as_mapping().cloned().unwrap_or_default();
            table.remove("product");
            table.insert("rows".into(), Yaml::Sequence(Vec::new()));
            if factors.len() < 2 || factors.len() != product.as_mapping().map_or(0, Mapping::len) {
                self.error(&path, "product takes {<column>: <table>, <column>: <table>, …}: two or more tables, each row of one with each row of the others");
                out.insert(key.clone(), Yaml::Mapping(table));
                continue;
            }
            // Each combination is the ids of its rows, one per factor.
            let mut combinations: Vec<Vec<String>> = vec![Vec::new()];
            let mut ok = true;
            for (column, of) in &factors {
                let ids = map
                    .get(of.as_str())
                    .filter(|t| !derived(t))
                    .and_then(|t| t.get("rows"))
                    .and_then(Yaml::as_sequence)
                    .map(|rows| {
                        rows.iter()
                            .filter_map(|r| match r {
                                Yaml::Sequence(items) => items.first().and_then(scalar_text),
                                Yaml::Mapping(m) => m.get("id").and_then(scalar_text),
                                other => scalar_text(other),
                            })
                            .collect::<Vec<_>>()
                    });
                let Some(ids) = ids else {
                    let names: Vec<String> = map
                        .iter()
                        .filter(|(_, t)| !derived(t))
                        .filter_map(|(k, _)| k.as_str().map(str::to_string))
                        .collect();
                    let hint = did_you_mean(of, &names);
                    self.error(
                        &join(&path, column),
                        format!("'{of}' is not a table with rows of its own{hint}"),
                    );
                    ok = false;
                    continue;
                };
                combinations = combinations
                    .into_iter()
                    .flat_map(|c| {
                        ids.iter()
                            .map(move |i| c.iter().chain(std::iter::once(i)).cloned().collect())
                    })
                    .collect();
            }
            if ok {
                let columns: Mapping = factors
                    .iter()
                    .map(|(c, t)| (Yaml::from(c.as_str()), Yaml::from(t.as_str())))
                    .collect();
                let rows = combinations
                    .into_iter()
                    .map(|c| {
                        Yaml::Sequence(
                            std::iter::once(c.join("-"))
                                .chain(c)
                                .map(Yaml::from)
                                .collect(),
                        )
                    })
                    .collect();
                table.insert("columns".into(), Yaml::Mapping(columns));
                table.insert("rows".into(), Yaml::Sequence(rows));
            }
            out.insert(key.clone(), Yaml::Mapping(table));
        }
        out
    }

    /// `geometry: { hex: even-q, x: <int column>, y: <int column> }`: the table's rows are
    /// hexes at those coordinates.
    fn geometry(
        &mut self,
        value: &Yaml,
        table: &Table,
        path: &str,
    ) -> Option<crate::hex::HexTable> {
        let shape = "a geometry is {hex: even-q, odd-q or axial, x: <column>, y: <column>} or {neighbours: <column>}";
        let Some(m) = value.as_mapping() else {
            self.error(path, shape);
            return None;
        };
        self.check_keys(m, path, &format::key_lists().geometry);
        if let Some(column) = m.get("neighbours") {
            if m.len() > 1 {
                self.error(
                    path,
                    "a geometry lists neighbours or gives coordinates (hex, x, y), not both",
                );
                return None;
            }
            return self.listed_neighbours(column, table, &join(path, "neighbours"));
        }
        let layout = match m.get("hex").and_then(Yaml::as_str) {
            Some(name) => match crate::hex::Layout::named(name) {
                Some(layout) => layout,
                None => {
                    let message = format!("unknown hex layout '{name}': even-q (even columns half a hex lower), odd-q or axial");
                    self.error(&join(path, "hex"), message);
                    return None;
                }
            },
            None => {
                self.error(path, shape);
                return None;
            }
        };
        let mut column = |key: &str| -> Option<usize> {
            let name = m.get(key).and_then(Yaml::as_str)?;
            match table.column_index(name) {
                Some(c) if table.columns[c].ty == Type::Int => Some(c),
                Some(_) => {
                    self.error(
                        &join(path, key),
                        format!("column '{name}' must hold whole numbers to be a coordinate"),
                    );
                    None
                }
                None => {
                    let names: Vec<String> = table.columns.iter().map(|c| c.name.clone()).collect();
                    let hint = did_you_mean(name, &names);
                    self.error(
                        &join(path, key),
                        format!("table {} has no column '{name}'{hint}", table.name),
                    );
                    None
                }
            }
        };
        let (x, y) = (column("x"), column("y"));
        let (Some(x), Some(y)) = (x, y) else {
            if m.get("x").is_none() || m.get("y").is_none() {
                self.error(path, shape);
            }
            return None;
        };
        let int = |v: &Value| if let Value::Int(n) = v { *n } else { 0 };
        let coords = table
            .rows
            .iter()
            .map(|r| (int(&r.values[x]), int(&r.values[y])))
            .collect();
        crate::hex::HexTable::new(layout, coords)
            .map_err(|e| self.error(path, e))
            .ok()
    }

    /// `geometry: { neighbours: <text column> }`: each row lists its neighbours' ids.
    fn listed_neighbours(
        &mut self,
        column: &Yaml,
        table: &Table,
        path: &str,
    ) -> Option<crate::hex::HexTable> {
        let name = column.as_str().unwrap_or_default();
        let Some(c) = table.column_index(name) else {
            let names: Vec<String> = table.columns.iter().map(|c| c.name.clone()).collect();
            self.error(
                path,
                format!(
                    "table {} has no column '{name}'{}",
                    table.name,
                    did_you_mean(name, &names)
                ),
            );
            return None;
        };
        if table.columns[c].ty != Type::Str {
            self.error(
                path,
                format!("column '{name}' must be text: the neighbours' ids, separated by blanks"),
            );
            return None;
        }
        let ids: Vec<String> = table.rows.iter().map(|r| r.id.clone()).collect();
        let mut neighbours = Vec::with_capacity(ids.len());
        for row in &table.rows {
            let Value::Str(text) = &row.values[c] else {
                return None;
            };
            let mut around = Vec::new();
            for id in text.split_whitespace() {
                match table.row_index(id) {
                    Some(n) if !around.contains(&n) => around.push(n),
                    Some(_) => {}
                    None => {
                        self.error(
                            path,
                            format!(
                                "row '{}' lists '{id}', which is no row of {}",
                                row.id, table.name
                            ),
                        );
                        return None;
                    }
                }
            }
            neighbours.push(around);
        }
        crate::hex::HexTable::listed(neighbours, &ids)
            .map_err(|e| self.error(path, e))
            .ok()
    }

    fn cell(
        &mut self,
        v: &Yaml,
        ty: &Type,
        ids: &[std::collections::HashMap<String, usize>],
        column: &str,
        path: &str,
    ) -> Value {
        if self.full() {
            return Value::None;
        }
        match (ty, v) {
            (Type::Int, Yaml::Number(n)) if n.as_i64().is_some() => {
                Value::Int(n.as_i64().unwrap_or(0))
            }
            (Type::Bool, Yaml::Bool(b)) => Value::Bool(*b),
            (Type::Str, _) if scalar_text(v).is_some() => {
                Value::Str(Arc::from(scalar_text(v).unwrap_or_default().as_str()))
            }
            (Type::Row(_) | Type::Player, Yaml::Null) => Value::None,
            (Type::Row(_), Yaml::String(s)) if s == "none" => Value::None,
            (Type::Row(t), _) if scalar_text(v).is_some() => {
                let id = scalar_text(v).unwrap_or_default();
                match ids[t.index()].get(&id) {
                    Some(&r) => Value::Row(*t, r as u16),
                    None => {
                        self.error(
                            path,
                            format!("column '{column}': no row '{id}' in the table it refers to"),
                        );
                        Value::None
                    }
                }
            }
            (Type::Any, _) => Value::None,
            _ => {
                self.error(
                    path,
                    format!("column '{column}' holds {}", simple_type_name(ty)),
                );
                Value::None
            }
        }
    }

    fn scripts(&mut self, files: &[(String, String)]) -> Option<Arc<ScriptLibrary>> {
        if files.is_empty() {
            return None;
        }
        match crate::script::compile(files) {
            Ok(s) => {
                for (name, _) in s.functions() {
                    if crate::builtins::is_builtin(&name) {
                        let message = format!(
                            "script function {name} has the name of a built-in function: rename it"
                        );
                        let file = s.file_of(&name).unwrap_or_default().to_string();
                        self.diagnostics.push(Diagnostic {
                            file,
                            position: None,
                            path: String::new(),
                            message,
                        });
                    }
                }
                Some(Arc::new(s))
            }
            Err(errors) => {
                for (file, position, message) in errors {
                    self.diagnostics.push(Diagnostic {
                        file,
                        position,
                        path: String::new(),
                        message,
                    });
                }
                None
            }
        }
    }

    /// Each table's `show:` template (how a row reads in state displays), compiled once
    /// every declaration is known.
    fn table_shows(&mut self, value: Option<&Yaml>, tables: &mut [Table], decls: &Decls) {
        let Some(map) = value.and_then(Yaml::as_mapping) else {
            return;
        };
        for (t, table) in tables.iter_mut().enumerate() {
            let Some(show) = map.get(table.name.as_str()).and_then(|v| v.get("show")) else {
                continue;
            };
            let scope = Scope {
                locals: &[],
                it: Some(Type::Row(TableId::at(t))),
            };
            table.show =
                Some(self.template(decls, show, &format!("tables.{}.show", table.name), &scope));
        }
    }

    /// The entries of a section of named declarations (`zones:`, `boards:`): name, YAML
    /// path and mapping. A section or entry of the wrong shape is reported and skipped.
    fn declarations(
        &mut self,
        value: Option<&Yaml>,
        section: &str,
        shape: &str,
    ) -> Vec<(String, String, Mapping)> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(map) = value.as_mapping() else {
            self.error(
                section,
                format!("expected a mapping of names to declarations ({shape})"),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("{section}.{name}");
            match v.as_mapping() {
                Some(m) => out.push((name.to_string(), path, m.clone())),
                None => self.error(&path, shape),
            }
        }
        out
    }

    /// What a zone or a board holds: `of: players` or `of: <table>`.
    fn element(&mut self, m: &Mapping, decls: &Decls, path: &str, what: &str) -> Element {
        match m.get("of").and_then(Yaml::as_str) {
            Some("players") => Element::Player,
            Some(t) => match decls.tables.position(t) {
                Some(i) => Element::Row(TableId::at(i)),
                None => {
                    self.error(
                        &join(path, "of"),
                        format!("unknown table '{t}': a {what} holds rows of a table, or players"),
                    );
                    Element::Player
                }
            },
            None => {
                self.error(
                    path,
                    format!("missing 'of': what the {what} holds (a table name, or players)"),
                );
                Element::Player
            }
        }
    }

    /// `per:` a key (`players` or a table name), two keys in a list (`[players,
    /// sections]`), or nothing.
    fn domain(&mut self, m: &Mapping, decls: &Decls, path: &str) -> Domain {
        let ppath = join(path, "per");
        if let Some(keys) = m.get("per").and_then(Yaml::as_sequence) {
            if keys.len() != 2 {
                let message = "expected two keys, [players or a table, players or a table] (one key is written alone: per: players)";
                self.error(&ppath, message);
                return Domain::Global;
            }
            let first = self.axis(&keys[0], decls, &format!("{ppath}[0]"));
            let second = self.axis(&keys[1], decls, &format!("{ppath}[1]"));
            return match (first, second) {
                (Some(a), Some(b)) => Domain::Pair(a, b),
                _ => Domain::Global,
            };
        }
        match m.get("per") {
            None => Domain::Global,
            Some(key) => self
                .axis(key, decls, &ppath)
                .map_or(Domain::Global, Axis::domain),
        }
    }

    /// One key of `per:`: `players` or a table name.
    fn axis(&mut self, key: &Yaml, decls: &Decls, path: &str) -> Option<Axis> {
        match key.as_str() {
            None => {
                self.error(path, "expected 'players' or a table name");
                None
            }
            Some("players") => Some(Axis::Players),
            Some(t) => match decls.tables.position(t) {
                Some(i) => Some(Axis::Table(TableId::at(i))),
                None => {
                    let mut candidates: Vec<String> =
                        decls.tables.iter().map(|d| d.name.clone()).collect();
                    candidates.push("players".into());
                    let hint = did_you_mean(t, &candidates);
                    self.error(
                        path,
                        format!("unknown domain '{t}'{hint}: use 'players' or a table name"),
                    );
                    None
                }
            },
        }
    }

    fn domain_len(decls: &Decls, domain: Domain, max_players: usize) -> usize {
        match domain {
            Domain::Global => 1,
            Domain::Players => max_players,
            Domain::Table(t) => decls.tables[t.index()].row_ids.len(),
            Domain::Pair(a, b) => {
                Self::domain_len(decls, a.domain(), max_players)
                    * Self::domain_len(decls, b.domain(), max_players)
            }
        }
    }

    /// After compiling the `init` of a two-key declaration (its diagnostics from `from`
    /// on): says why `it` is undefined there.
    fn note_two_key_it(&mut self, per: Domain, from: usize) {
        if !matches!(per, Domain::Pair(..)) {
            return;
        }
        let why = "'it' is not defined in the init of a declaration with two keys: the init gives every entry the same value (set entries in setup)";
        for d in &mut self.diagnostics[from..] {
            if d.message.starts_with(expr::IT_UNDEFINED) {
                d.message.replace_range(..expr::IT_UNDEFINED.len(), why);
            }
        }
    }

    fn vars(
        &mut self,
        value: Option<&Yaml>,
        decls: &mut Decls,
        max_players: usize,
    ) -> (Vec<Var>, usize) {
        let mut out = Vec::new();
        let mut slots = 0;
        let Some(value) = value else {
            return (out, slots);
        };
        let Some(map) = value.as_mapping() else {
            self.error(
                "state",
                "expected a mapping of variable names to declarations",
            );
            return (out, slots);
        };
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("state.{name}");
            let empty = Mapping::new();
            let (m, short_init) = match v {
                Yaml::Mapping(m) => (m, None),
                scalar => (&empty, Some(scalar.clone())),
            };
            self.check_keys(m, &path, &format::key_lists().state);
            let ty = match m.get("type").and_then(Yaml::as_str) {
                Some(t) => {
                    let ty = self.type_named(t, &decls.tables, &join(&path, "type"));
                    if ty == Type::Str {
                        // State is stored as numbers: a text would read back as one.
                        self.error(&join(&path, "type"), "a state variable cannot hold text (state is numbers, true/false, players and rows): keep texts in a table and store its row");
                    }
                    ty
                }
                None => match &short_init {
                    Some(Yaml::Bool(_)) => Type::Bool,
                    _ => Type::Int,
                },
            };
            let per = self.domain(m, decls, &path);
            let base = slots;
            slots += Self::domain_len(decls, per, max_players);
            let init_yaml = short_init.or_else(|| m.get("init").cloned());
            let it = per.index_type();
            let init: Ir = match init_yaml {
                Some(init) => {
                    let scope = Scope { locals: &[], it };
                    let ipath = if m.contains_key("init") {
                        join(&path, "init")
                    } else {
                        path.clone()
                    };
                    let from = self.diagnostics.len();
                    let init = self.expression(decls, &init, &ipath, &scope, Some(&ty)).0;
                    self.note_two_key_it(per, from);
                    init
                }
                None => {
                    let zero = match ty {
                        Type::Bool => Value::Bool(false),
                        Type::Int => Value::Int(0),
                        _ => Value::None,
                    };
                    Ir::Const(zero)
                }
            };
            decls.vars.push(VarDecl {
                name: name.to_string(),
                ty: ty.clone(),
                per,
                base,
            });
            out.push(Var {
                name: name.to_string(),
                ty,
                per,
                base,
                init,
                doc: self.string(m, "doc", &path),
                rule: self.rule(m, &path),
                internal: match m.get("internal") {
                    None => false,
                    Some(Yaml::Bool(b)) => *b,
                    Some(_) => {
                        self.error(&join(&path, "internal"), "expected true or false");
                        false
                    }
                },
                stat: false,
            });
        }
        (out, slots)
    }

    /// The entries of `stats:`, each with its path and mapping (an expression alone is
    /// `{value: EXPRESSION}`).
    fn stat_entries(&mut self, value: Option<&Yaml>) -> Vec<(String, String, Mapping)> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(map) = value.as_mapping() else {
            self.error("stats", "expected a mapping of names to statistics (an expression, {value: …} or {counter: true})");
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("stats.{name}");
            let m = match v {
                Yaml::Mapping(m) => m.clone(),
                Yaml::Sequence(_) | Yaml::Tagged(_) => {
                    self.error(&path, "a statistic is an expression, {value: EXPRESSION, doc: …} or {counter: true, doc: …}");
                    continue;
                }
                scalar => Mapping::from_iter([(Yaml::String("value".into()), scalar.clone())]),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                self.error(&path, "a statistic's name uses letters, digits and '_' only (it is a column of the results)");
            }
            out.push((name.to_string(), path, m));
        }
        out
    }

    fn is_counter(&mut self, m: &Mapping, path: &str) -> bool {
        match m.get("counter") {
            None | Some(Yaml::Bool(false)) => false,
            Some(Yaml::Bool(true)) => true,
            Some(_) => {
                self.error(&join(path, "counter"), "expected true or false");
                false
            }
        }
    }

    /// The counters of `stats:` (`{counter: true}`) are state variables, whole numbers from
    /// 0 that statements change by name; marked `stat` so that nothing but results shows
    /// them. Declared before the procedures are compiled, which may add to them. Returns
    /// the names of the counters declared.
    fn stat_counters(
        &mut self,
        entries: &[(String, String, Mapping)],
        decls: &mut Decls,
        vars: &mut Vec<Var>,
        slots: &mut usize,
    ) -> HashSet<String> {
        let mut declared = HashSet::new();
        // Looked up once per counter: a set, so that many counters load in linear time.
        let mut taken_names: HashSet<String> =
            decls.declared_names().map(|(n, _)| n.to_string()).collect();
        for (name, path, m) in entries {
            if self.full() {
                break;
            }
            let (name, path) = (name.clone(), path.as_str());
            self.check_keys(m, path, &format::key_lists().stat);
            let counter = self.is_counter(m, path);
            match (counter, m.contains_key("value")) {
                (true, true) => self.error(path, "a statistic is a counter or a value, not both"),
                // A `counter:` that is not true/false was reported as such.
                (false, false) if !m.contains_key("counter") => self.error(
                    path,
                    "missing 'value' (an expression of the final state) or 'counter: true'",
                ),
                _ => {}
            }
            if !counter {
                continue;
            }
            let taken =
                BUILT_IN_NAMES.contains(&name.as_str()) || !taken_names.insert(name.clone());
            if taken {
                self.error(path, format!("'{name}' is declared already: a counter is a state variable, and shares the namespace of params, tables, state, zones and boards"));
                continue;
            }
            declared.insert(name.clone());
            let base = *slots;
            *slots += 1;
            decls.vars.push(VarDecl {
                name: name.clone(),
                ty: Type::Int,
                per: Domain::Global,
                base,
            });
            vars.push(Var {
                name,
                ty: Type::Int,
                per: Domain::Global,
                base,
                init: Ir::Const(Value::Int(0)),
                doc: self.string(m, "doc", path),
                rule: self.rule(m, path),
                internal: true,
                stat: true,
            });
        }
        declared
    }

    /// `stats:` as the game records them: each value's expression (whole number or
    /// true/false, no `it`), a counter reading its variable.
    fn stats(
        &mut self,
        entries: Vec<(String, String, Mapping)>,
        decls: &Decls,
        counters: &HashSet<String>,
    ) -> Vec<Stat> {
        let mut out = Vec::new();
        let scope = Scope {
            locals: &[],
            it: None,
        };
        // The entries' shape was checked, and its errors reported, with the counters.
        for (name, path, m) in entries {
            if self.full() {
                break;
            }
            let counter = m.get("counter") == Some(&Yaml::Bool(true));
            if counter && !counters.contains(&name) {
                continue;
            }
            let (expr, ty) = if counter {
                self.expression(
                    decls,
                    &Yaml::String(name.clone()),
                    &path,
                    &scope,
                    Some(&Type::Int),
                )
            } else {
                let Some(v) = m.get("value") else { continue };
                let vpath = join(&path, "value");
                let (expr, ty) = self.expression(decls, v, &vpath, &scope, None);
                if !matches!(ty, Type::Int | Type::Bool | Type::Any) {
                    self.error(
                        &vpath,
                        format!(
                            "a statistic is a whole number or true/false, not {}",
                            expr::type_name(decls, &ty)
                        ),
                    );
                }
                (expr, ty)
            };
            out.push(Stat {
                name,
                value: expr,
                ty,
                counter,
                doc: self.string(&m, "doc", &path),
                rule: self.rule(&m, &path),
            });
        }
        out
    }

    fn zones(
        &mut self,
        value: Option<&Yaml>,
        decls: &mut Decls,
        max_players: usize,
    ) -> (Vec<Zone>, usize) {
        let mut out = Vec::new();
        let mut slots = 0;
        // Declare every zone before compiling initial contents, which may name others.
        let mut pending = Vec::new();
        for (name, path, m) in self.declarations(
            value,
            "zones",
            "a zone is a mapping: {of: …, per: …, visibility: …}",
        ) {
            if self.full() {
                break;
            }
            let (name, m) = (name.as_str(), &m);
            self.check_keys(m, &path, &format::key_lists().zone);
            let of = self.element(m, decls, &path, "zone");
            let per = self.domain(m, decls, &path);
            let visibility = match m.get("visibility").and_then(Yaml::as_str) {
                None | Some("all") => Visibility::All,
                Some("owner") => Visibility::Owner,
                Some("count") => Visibility::Count,
                Some("none") => Visibility::Hidden,
                Some("top") => Visibility::Top,
                Some(other) => {
                    self.error(
                        &join(&path, "visibility"),
                        format!("unknown visibility '{other}': use all, owner, count, top or none"),
                    );
                    Visibility::All
                }
            };
            if visibility == Visibility::Owner && per != Domain::Players {
                self.error(
                    &join(&path, "visibility"),
                    "'owner' visibility needs a zone per players",
                );
            }
            let base = slots;
            let len = Self::domain_len(decls, per, max_players);
            slots += len;
            decls.zones.push(ZoneDecl {
                name: name.to_string(),
                of,
                per,
                base,
                len,
            });
            let doc = self.string(m, "doc", &path);
            let rule = self.rule(m, &path);
            pending.push((m.get("init").cloned(), m.get("visible_if").cloned(), path));
            out.push(Zone {
                name: name.to_string(),
                of,
                per,
                base,
                visibility,
                visible_if: None,
                init: None,
                doc,
                rule,
            });
        }
        for (zone, (init, visible_if, path)) in out.iter_mut().zip(pending) {
            if let Some(cond) = visible_if {
                if zone.visibility == Visibility::All {
                    self.error(
                        &join(&path, "visible_if"),
                        "the zone's visibility is 'all': every element is already seen",
                    );
                }
                let locals = [("viewer".to_string(), Type::Player, 0u16)];
                let scope = Scope {
                    locals: &locals,
                    it: Some(zone.of.value_type()),
                };
                zone.visible_if = Some(
                    self.expression(
                        decls,
                        &cond,
                        &join(&path, "visible_if"),
                        &scope,
                        Some(&Type::Bool),
                    )
                    .0,
                );
            }
            let Some(init) = init else { continue };
            let elem = zone.of.value_type();
            if init.as_str() == Some("all") {
                if let Element::Row(t) = zone.of {
                    let n = decls.tables[t.index()].row_ids.len() as u16;
                    let all = Value::list((0..n).map(|r| Value::Row(t, r)).collect());
                    zone.init = Some(Ir::Const(all));
                    continue;
                }
            }
            let scope = Scope {
                locals: &[],
                it: zone.per.index_type(),
            };
            let want = Type::List(Box::new(elem));
            let from = self.diagnostics.len();
            zone.init = Some(
                self.expression(decls, &init, &join(&path, "init"), &scope, Some(&want))
                    .0,
            );
            self.note_two_key_it(zone.per, from);
        }
        (out, slots)
    }

    fn check_unique_names(&mut self, decls: &Decls) {
        let mut seen: HashSet<&str> = HashSet::new();
        for (name, section) in decls.declared_names() {
            let path = format!("{section}.{name}");
            if BUILT_IN_NAMES.contains(&name) {
                self.error(&path, format!("'{name}' is a built-in name"));
            } else if !seen.insert(name) {
                self.error(&path, format!("'{name}' is declared twice (params, tables, state, zones and boards share one namespace)"));
            }
        }
    }

    /// `display:` a list of templates, the lines that show the board to a person; an entry
    /// `{ for: { name: list }, line: template }` is one line per element of the list.
    fn display(&mut self, value: Option<&Yaml>, decls: &Decls) -> Vec<crate::model::DisplayLine> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(items) = value.as_sequence() else {
            self.error(
                "display",
                "expected a list of texts (templates), one per line",
            );
            return Vec::new();
        };
        let mut lines = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("display[{i}]");
            let Some(m) = item.as_mapping() else {
                let line = self.template(
                    decls,
                    item,
                    &path,
                    &Scope {
                        locals: &[],
                        it: None,
                    },
                );
                lines.push(crate::model::DisplayLine { each: None, line });
                continue;
            };
            self.check_keys(m, &path, &["for", "line"]);
            let binding = m
                .get("for")
                .and_then(Yaml::as_mapping)
                .filter(|f| f.len() == 1)
                .and_then(|f| f.iter().next());
            let (Some((name, list)), Some(line)) = (
                binding.and_then(|(n, l)| Some((n.as_str()?, l))),
                m.get("line"),
            ) else {
                self.error(&path, "a display entry is a template, or {for: {<name>: <list>}, line: <template>}: one line per element");
                continue;
            };
            let (each, ty) = self.expression(
                decls,
                list,
                &join(&join(&path, "for"), name),
                &Scope {
                    locals: &[],
                    it: None,
                },
                None,
            );
            let element = match ty {
                Type::List(e) => *e,
                Type::Any => Type::Any,
                _ => {
                    self.error(&join(&join(&path, "for"), name), "expected a list");
                    Type::Any
                }
            };
            let locals = [(name.to_string(), element, 0u16)];
            let line = self.template(
                decls,
                line,
                &join(&path, "line"),
                &Scope {
                    locals: &locals,
                    it: None,
                },
            );
            lines.push(crate::model::DisplayLine {
                each: Some(each),
                line,
            });
        }
        lines
    }

    /// `conserve: { name: { per: players, holds: "…" } }`.
    fn conserve(&mut self, value: Option<&Yaml>, decls: &Decls) -> Vec<crate::model::Conserved> {
        let mut out = Vec::new();
        for (name, path, m) in self.declarations(
            value,
            "conserve",
            "each {per: …, holds: \"<true/false expression>\"}",
        ) {
            if self.full() {
                break;
            }
            self.check_keys(&m, &path, &format::key_lists().conserve);
            let per = self.domain(&m, decls, &path);
            if let Domain::Pair(..) = per {
                self.error(
                    &join(&path, "per"),
                    "a conserved total is checked per players, per row of a table, or once",
                );
                continue;
            }
            let Some(holds) = m.get("holds") else {
                self.error(
                    &path,
                    "missing 'holds': what must stay true (an expression of it, the player or row)",
                );
                continue;
            };
            let scope = Scope {
                locals: &[],
                it: per.index_type(),
            };
            let source = scalar_text(holds).unwrap_or_default();
            let holds = self
                .expression(
                    decls,
                    holds,
                    &join(&path, "holds"),
                    &scope,
                    Some(&Type::Bool),
                )
                .0;
            out.push(crate::model::Conserved {
                name: name.to_string(),
                per,
                holds,
                source,
                rule: self.rule(&m, &path),
            });
        }
        out
    }

    fn ranking(&mut self, value: Option<&Yaml>, decls: &Decls) -> Ranking {
        let fallback = || Ranking {
            score: Ir::Const(Value::Int(0)),
            tiebreak: Vec::new(),
            rule: None,
        };
        let Some(m) = value.and_then(Yaml::as_mapping) else {
            self.error(
                "ranking",
                "missing 'ranking': {score: \"<expression of it, the player>\", tiebreak: [...]}",
            );
            return fallback();
        };
        self.check_keys(m, "ranking", &format::key_lists().ranking);
        let scope = Scope {
            locals: &[],
            it: Some(Type::Player),
        };
        let score = match m.get("score") {
            Some(v) => {
                self.expression(decls, v, "ranking.score", &scope, Some(&Type::Int))
                    .0
            }
            None => {
                self.error("ranking", "missing 'score'");
                return fallback();
            }
        };
        let mut tiebreak = Vec::new();
        if let Some(list) = m.get("tiebreak") {
            match list.as_sequence() {
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        let path = format!("ranking.tiebreak[{i}]");
                        tiebreak.push(
                            self.expression(decls, item, &path, &scope, Some(&Type::Int))
                                .0,
                        );
                    }
                }
                None => self.error("ranking.tiebreak", "expected a list of expressions"),
            }
        }
        Ranking {
            score,
            tiebreak,
            rule: self.rule(m, "ranking"),
        }
    }
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn scalar_text(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Number(n) => Some(n.to_string()),
        Yaml::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn simple_type_name(ty: &Type) -> &'static str {
    match ty {
        Type::Int => "whole numbers",
        Type::Bool => "true or false",
        Type::Str => "texts",
        Type::Player => "players",
        Type::Row(_) => "row ids",
        _ => "values",
    }
}
