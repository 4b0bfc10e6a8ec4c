//! Loading: YAML text → validated, compiled [`Game`]. Collects every problem it can find
//! and reports each with its file, line and column (or at least its YAML path).
//!
//! This file runs the load (`Builder::build`: each section in the order its declarations
//! are needed); each section is read beside it: `header.rs` (name, players, params),
//! `types.rs` (type names), `tables.rs`, `derived.rs` (tables of pairs and products),
//! `geometry.rs` (hex geometries), `layout.rs` (state, zones and the slots they take),
//! `board.rs`, `function.rs`, `stmt/` (procedures and statements), `results.rs`
//! (ranking and stats), `display.rs` and `view.rs` (what people read), `checks.rs`
//! (checks over the whole ruleset), `variant.rs` (extends:). Expressions are compiled
//! by `expr/`, from the YAML by `compile.rs`; `yaml.rs` reads the YAML and places each
//! problem.

mod board;
mod checks;
mod compile;
mod derived;
mod display;
mod expr;
mod function;
mod geometry;
mod header;
mod layout;
mod results;
mod stmt;
mod tables;
mod types;
mod variant;
mod view;
mod yaml;
mod yaml_error;
mod yaml_scan;

use std::sync::Arc;

use serde_yaml::{Mapping, Value as Yaml};

use crate::diagnostic::{Diagnostic, LoadError};
use crate::format;
use crate::hints::did_you_mean;
use crate::model::*;
use crate::value::{Type, Value};
pub(crate) use expr::{nothing, Compiled, Compiler, Decls, Scope};
use expr::{Named, TableDecl};
pub use stmt::verbs as statement_verbs;
pub(crate) use yaml::{join, parse_yaml};
pub use yaml_scan::{MAX_YAML_DEPTH, MAX_YAML_VALUES};

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
        self.visible
            .push((name.to_string(), ty, slot.index() as u16));
        slot
    }

    /// A local no expression can name (a loop's round counter).
    pub fn hidden(&mut self, name: &str, ty: Type) -> Slot {
        // Past the last slot id every further local shares it: the procedure is refused
        // for its number of locals (`MAX_IDS`) before any game runs it.
        let slot = Slot::at(usize::from(
            u16::try_from(self.slots.len()).unwrap_or(u16::MAX),
        ));
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
        self.keys_are_names(top);
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
        let outcome = self.outcome(top.get("outcome"), &decls);
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
            outcome,
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
}
