//! Rhai scripts for effects that YAML says badly. Each file is compiled once into one
//! sandboxed engine: no modules, no IO, no floats, and limits on operations, call depth
//! and sizes, so a runaway script stops with an error naming it and the limit.
//!
//! Every script function receives the game as its first parameter: a read-only map of
//! the state (`game.vp[p]`, `game.deck`, `game.wagons["east"]`, `game.players`), then
//! the arguments given in the expression. Players are seat numbers from 0, rows their id.

use std::sync::Arc;

use rhai::{Array, Dynamic, Engine, Map, AST};

use crate::eval::{Env, RuntimeError};
use crate::machine::decode;
use crate::model::Domain;
use crate::value::Value;

pub const MAX_OPERATIONS: u64 = 200_000;
pub const MAX_CALL_DEPTH: usize = 32;

pub struct Scripts {
    engine: Engine,
    /// Every file's functions in one script, so that a function may call one defined in
    /// another file.
    all: AST,
    /// The file names, for messages.
    files: Vec<String>,
    /// (name, arity without the game parameter, file index)
    functions: Vec<(String, usize, usize)>,
}

/// A problem in a script file: file, line:column if known, message.
pub type ScriptError = (String, Option<(usize, usize)>, String);

impl Scripts {
    pub fn compile(files: &[(String, String)]) -> Result<Scripts, Vec<ScriptError>> {
        let engine = sandbox();
        let mut compiled = Vec::new();
        let mut functions = Vec::new();
        let mut errors = Vec::new();
        for (file, text) in files {
            match engine.compile(text) {
                Ok(ast) => {
                    for f in ast.iter_functions() {
                        if f.params.is_empty() {
                            errors.push((file.clone(), None, format!("script function {} must take the game as its first parameter", f.name)));
                            continue;
                        }
                        if functions.iter().any(|(n, _, _): &(String, usize, usize)| n == f.name) {
                            errors.push((file.clone(), None, format!("script function {} is defined twice", f.name)));
                        }
                        functions.push((f.name.to_string(), f.params.len() - 1, compiled.len()));
                    }
                    compiled.push((file.clone(), ast));
                }
                Err(e) => {
                    let pos = e.position();
                    let at = pos.line().map(|l| (l, pos.position().unwrap_or(1)));
                    errors.push((file.clone(), at, format!("script syntax error: {}", e.err_type())));
                }
            }
        }
        if errors.is_empty() {
            let mut all = AST::empty();
            for (_, ast) in &compiled {
                all = all.merge(ast);
            }
            let files = compiled.into_iter().map(|(file, _)| file).collect();
            Ok(Scripts { engine, all, files, functions })
        } else {
            Err(errors)
        }
    }

    /// The file that defines a function.
    pub fn file_of(&self, name: &str) -> Option<&str> {
        self.functions.iter().find(|(n, _, _)| n == name).map(|(_, _, f)| self.files[*f].as_str())
    }

    pub fn functions(&self) -> Vec<(String, usize)> {
        self.functions.iter().map(|(n, a, _)| (n.clone(), *a)).collect()
    }

    pub fn call(&self, env: &Env, name: &str, args: Vec<Value>) -> Result<Value, RuntimeError> {
        let Some((_, _, file)) = self.functions.iter().find(|(n, _, _)| n == name) else {
            return Err(RuntimeError::new(format!("no script function {name}")));
        };
        let (file_name, ast) = (&self.files[*file], &self.all);
        let mut call_args: Vec<Dynamic> = vec![Dynamic::from_map(game_map(env))];
        call_args.extend(args.iter().map(|v| to_dynamic(env, v)));
        let mut scope = rhai::Scope::new();
        let result = self
            .engine
            .call_fn_with_options::<Dynamic>(rhai::CallFnOptions::new().eval_ast(false), &mut scope, ast, name, call_args);
        match result {
            Ok(value) => from_dynamic(env, value).map_err(|m| RuntimeError::new(format!("script {file_name}, function {name}: {m}"))),
            Err(e) => {
                let message = match *e {
                    rhai::EvalAltResult::ErrorTooManyOperations(_) => {
                        format!("stopped after {MAX_OPERATIONS} operations (the script limit): does it loop forever?")
                    }
                    rhai::EvalAltResult::ErrorStackOverflow(_) => format!("exceeded the call depth limit of {MAX_CALL_DEPTH}"),
                    ref other => other.to_string(),
                };
                Err(RuntimeError::new(format!("script {file_name}, function {name}: {message}")))
            }
        }
    }
}

fn sandbox() -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(rhai::packages::Package::as_shared_module(&rhai::packages::CorePackage::new()));
    engine.register_global_module(rhai::packages::Package::as_shared_module(&rhai::packages::BasicArrayPackage::new()));
    engine.register_global_module(rhai::packages::Package::as_shared_module(&rhai::packages::BasicMapPackage::new()));
    engine.register_global_module(rhai::packages::Package::as_shared_module(&rhai::packages::LogicPackage::new()));
    engine.register_global_module(rhai::packages::Package::as_shared_module(&rhai::packages::ArithmeticPackage::new()));
    engine.set_max_operations(MAX_OPERATIONS);
    engine.set_max_call_levels(MAX_CALL_DEPTH);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(10_000);
    engine.set_max_array_size(10_000);
    engine.set_max_map_size(1_000);
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine
}

fn to_dynamic(env: &Env, v: &Value) -> Dynamic {
    match v {
        Value::None => Dynamic::UNIT,
        Value::Int(n) => Dynamic::from_int(*n),
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::Player(p) => Dynamic::from_int(*p as i64),
        Value::Row(t, r) => Dynamic::from(env.game.tables[*t as usize].rows[*r as usize].id.clone()),
        Value::Str(s) => Dynamic::from(s.to_string()),
        Value::List(items) => Dynamic::from_array(items.iter().map(|i| to_dynamic(env, i)).collect()),
        Value::Pos(p) => {
            let mut m = Map::new();
            m.insert("row".into(), Dynamic::from_int(p.row as i64));
            m.insert("col".into(), Dynamic::from_int(p.col as i64));
            Dynamic::from_map(m)
        }
    }
}

fn from_dynamic(env: &Env, d: Dynamic) -> Result<Value, String> {
    if d.is_unit() {
        return Ok(Value::None);
    }
    if let Some(n) = d.clone().try_cast::<i64>() {
        return Ok(Value::Int(n));
    }
    if let Some(b) = d.clone().try_cast::<bool>() {
        return Ok(Value::Bool(b));
    }
    if d.is_string() {
        return Ok(Value::Str(Arc::from(d.into_string().unwrap_or_default().as_str())));
    }
    if d.is_array() {
        let items: Array = d.cast();
        return Ok(Value::list(items.into_iter().map(|i| from_dynamic(env, i)).collect::<Result<_, _>>()?));
    }
    Err(format!("returned a {}, expected a number, true/false, a text or a list", d.type_name()))
}

/// The read-only view of the state a script receives.
fn game_map(env: &Env) -> Map {
    let game = env.game;
    let state = env.state;
    let mut map = Map::new();
    map.insert("players".into(), Dynamic::from_int(state.names.len() as i64));
    for var in &game.vars {
        let read = |i: usize| to_dynamic(env, &decode(&var.ty, state.ints[var.base + i]));
        let value = by_index(env, var.per, read);
        map.insert(var.name.as_str().into(), value);
    }
    for zone in &game.zones {
        let read = |i: usize| {
            let items: Array = state.zones[zone.base + i]
                .iter()
                .map(|e| to_dynamic(env, &crate::machine::decode_element(zone.of, *e)))
                .collect();
            Dynamic::from_array(items)
        };
        let value = by_index(env, zone.per, read);
        map.insert(zone.name.as_str().into(), value);
    }
    for board in &game.boards {
        let read = |i: usize| {
            let cells: Array = state.boards[board.base + i]
                .cells()
                .iter()
                .map(|(p, e)| Dynamic::from_map(cell_map(env, *p, &crate::machine::decode_element(board.of, *e))))
                .collect();
            Dynamic::from_array(cells)
        };
        let value = by_index(env, board.per, read);
        map.insert(board.name.as_str().into(), value);
    }
    map
}

/// A board cell as scripts see it: `#{row, col, id}` and, for a row of a table, its columns.
fn cell_map(env: &Env, p: crate::grid::Pos, element: &Value) -> Map {
    let mut m = Map::new();
    m.insert("row".into(), Dynamic::from_int(p.row as i64));
    m.insert("col".into(), Dynamic::from_int(p.col as i64));
    m.insert("id".into(), to_dynamic(env, element));
    if let Value::Row(t, r) = element {
        let table = &env.game.tables[*t as usize];
        for (column, value) in table.columns.iter().zip(&table.rows[*r as usize].values) {
            m.insert(column.name.as_str().into(), to_dynamic(env, value));
        }
    }
    m
}

/// A value per index of a domain: one value, an array by seat, or a map by row id.
fn by_index(env: &Env, per: Domain, read: impl Fn(usize) -> Dynamic) -> Dynamic {
    match per {
        Domain::Global => read(0),
        Domain::Players => Dynamic::from_array((0..env.state.names.len()).map(read).collect()),
        Domain::Table(t) => {
            let mut m = Map::new();
            for (i, row) in env.game.tables[t as usize].rows.iter().enumerate() {
                m.insert(row.id.as_str().into(), read(i));
            }
            Dynamic::from_map(m)
        }
    }
}
