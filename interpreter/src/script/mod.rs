//! Rhai scripts for effects that YAML says badly. Each file is compiled once into one
//! sandboxed engine: no modules, no IO, no floats, and limits on operations, call depth
//! and sizes, so a runaway script stops with an error naming it and the limit.
//!
//! Every script function receives the game as its first parameter: a read-only handle
//! on the state (`game.vp[p]`, `game.deck`, `game.wagons["east"]`, `game.players`,
//! `game.town[p]`) whose entries are converted when read, then the arguments given in the
//! expression. Players are seat numbers from 0, rows their id; a declaration with two
//! keys is the first key's array or map of the second key's (`game.supply[p]["mine"]`). The grid built-ins
//! (`groups`, `holes`, `neighbours`, `placements`, `cells`, `at`) are native functions
//! over boards as scripts see them: arrays of cell maps `#{row, col, id, …}`.

mod board;
mod convert;
mod geometry;
mod handle;
mod sort;

pub(crate) use handle::Reading;
pub use handle::{Boards, GameHandle};
// Read through a handle from outside this module only by the tests of scripts.
#[cfg(test)]
pub(crate) use handle::with_reading;

use std::collections::HashMap;
use std::sync::OnceLock;

use rhai::{Dynamic, Engine, EvalAltResult, AST};

use crate::id::ScriptFnId;
use crate::model::{Game, ScriptFunction, ScriptLibrary};
use crate::state::State;
use crate::value::Value;

use convert::{from_dynamic, Conv};

pub const MAX_OPERATIONS: u64 = 200_000;
pub const MAX_CALL_DEPTH: usize = 32;

/// A problem in a script file: file, line:column if known, message.
pub type ScriptError = (String, Option<(usize, usize)>, String);

/// The one sandboxed engine every game's scripts are compiled and run with: its packages,
/// limits and native functions are the same for every ruleset, and it keeps no state
/// between calls.
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(sandbox)
}

/// The most functions a ruleset's scripts may define: their ids are 16 bits.
pub const MAX_SCRIPT_FUNCTIONS: usize = u16::MAX as usize;

/// Compiles a ruleset's script files (file name, text) into one library, or says what is
/// wrong with each.
pub fn compile(files: &[(String, String)]) -> Result<ScriptLibrary, Vec<ScriptError>> {
    let engine = engine();
    let mut compiled = Vec::new();
    let mut functions: Vec<ScriptFunction> = Vec::new();
    let mut by_name: HashMap<String, ScriptFnId> = HashMap::new();
    let mut errors = Vec::new();
    for (file, text) in files {
        match engine.compile(text) {
            Ok(ast) => {
                for f in ast.iter_functions() {
                    if f.params.is_empty() {
                        errors.push((
                            file.clone(),
                            None,
                            format!(
                                "script function {} must take the game as its first parameter",
                                f.name
                            ),
                        ));
                        continue;
                    }
                    if functions.len() == MAX_SCRIPT_FUNCTIONS {
                        errors.push((
                            file.clone(),
                            None,
                            format!("the scripts define more than {MAX_SCRIPT_FUNCTIONS} functions, as many as an id can name"),
                        ));
                        break;
                    }
                    if by_name.contains_key(f.name) {
                        errors.push((
                            file.clone(),
                            None,
                            format!("script function {} is defined twice", f.name),
                        ));
                    } else {
                        by_name.insert(f.name.to_string(), ScriptFnId::at(functions.len()));
                    }
                    functions.push(ScriptFunction {
                        name: f.name.to_string(),
                        arity: f.params.len() - 1,
                        file: compiled.len(),
                    });
                }
                compiled.push((file.clone(), ast));
            }
            Err(e) => {
                let pos = e.position();
                let at = pos.line().map(|l| (l, pos.position().unwrap_or(1)));
                errors.push((
                    file.clone(),
                    at,
                    format!("script syntax error: {}", e.err_type()),
                ));
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut all = AST::empty();
    for (_, ast) in &compiled {
        all = all.merge(ast);
    }
    let files = compiled.into_iter().map(|(file, _)| file).collect();
    Ok(ScriptLibrary {
        ast: all,
        files,
        functions,
        by_name,
        rows: OnceLock::new(),
    })
}

/// Calls the game's script function `function` with these arguments, the game handle
/// reading `state`; an error is the message a runtime error gives.
pub fn call(
    game: &Game,
    state: &State,
    function: ScriptFnId,
    args: Vec<Value>,
) -> Result<Value, String> {
    let Some(library) = game.scripts.as_deref() else {
        return Err("the ruleset has no scripts".to_string());
    };
    let Some(f) = library.functions.get(function.index()) else {
        return Err(format!("no script function number {}", function.index()));
    };
    let (name, file_name) = (f.name.as_str(), &library.files[f.file]);
    // The handle reads game and state only while `reading` lives: until the end of this
    // function, within their borrows (see `Reading`).
    // The call is a step; each element of its arguments converted for it, another.
    let left = crate::work::work_left();
    let converted = args
        .iter()
        .fold(1, |n: u64, v| n.saturating_add(values_in(v, left)));
    crate::work::charge_work(converted)
        .map_err(|spent| format!("script {file_name}, function {name}: {spent}"))?;
    let reading = Reading::enter(game, state);
    let mut call_args: Vec<Dynamic> = vec![Dynamic::from(reading.handle())];
    let conv = Conv::new(game);
    call_args.extend(args.iter().map(|v| conv.value(v)));
    let mut scope = rhai::Scope::new();
    let result = engine().call_fn_with_options::<Dynamic>(
        rhai::CallFnOptions::new().eval_ast(false),
        &mut scope,
        &library.ast,
        name,
        call_args,
    );
    drop(reading);
    match result {
        Ok(value) => {
            from_dynamic(value).map_err(|m| format!("script {file_name}, function {name}: {m}"))
        }
        Err(e) => {
            let message = match *e {
                rhai::EvalAltResult::ErrorTooManyOperations(_) => {
                    format!("stopped after {MAX_OPERATIONS} operations (the script limit): does it loop forever?")
                }
                rhai::EvalAltResult::ErrorStackOverflow(_) => {
                    format!("exceeded the call depth limit of {MAX_CALL_DEPTH}")
                }
                // Stopped by the work budget (the progress callback), or a read of the
                // game past it: the budget's message.
                rhai::EvalAltResult::ErrorTerminated(..) => crate::work::WorkSpent {
                    limit: game.limits.work,
                }
                .to_string(),
                ref other => other.to_string(),
            };
            Err(format!("script {file_name}, function {name}: {message}"))
        }
    }
}

/// How many values converting `v` makes (a list and each of its elements), counted up
/// to a little past `cap`: a list of lists may share its parts.
fn values_in(v: &Value, cap: u64) -> u64 {
    match v {
        Value::List(items) => {
            let mut n = 1u64;
            for item in items.iter() {
                if n > cap {
                    break;
                }
                n = n.saturating_add(values_in(item, cap - n));
            }
            n
        }
        _ => 1,
    }
}

fn sandbox() -> Engine {
    let mut engine = Engine::new_raw();
    // Rhai's core package without its language core (`sleep`, which blocks the thread
    // uncounted, `exit`, `parse_json`, tags, function metadata): scripts compute values.
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::BasicStringPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::BasicIteratorPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::BasicFnPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::BasicArrayPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::BasicMapPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::LogicPackage::new(),
    ));
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::ArithmeticPackage::new(),
    ));
    engine.set_max_operations(MAX_OPERATIONS);
    // Each operation is also a step of the game's work budget (`crate::work`), which a
    // script shares with the expression that called it.
    engine.on_progress(|_| crate::work::charge_work(1).err().map(|_| Dynamic::UNIT));
    engine.set_max_call_levels(MAX_CALL_DEPTH);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(10_000);
    engine.set_max_array_size(10_000);
    engine.set_max_map_size(1_000);
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    handle::register_game_handle(&mut engine);
    geometry::register_geometry(&mut engine);
    board::register_grid(&mut engine);
    sort::register_sort(&mut engine);
    engine
}

/// What a native function registered in the engine gives.
type Native<T> = Result<T, Box<EvalAltResult>>;
