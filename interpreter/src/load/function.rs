//! The `functions:` section: named, typed expressions of typed parameters, callable from
//! any expression (`free_corrals(t)`). Signatures are declared first, so that a body may
//! call any function; a function that calls itself, directly or through others, is a
//! load error.

use serde_yaml::Value as Yaml;

use super::expr::{FunctionSig, Scope};
use super::{join, Builder, Decls};
use crate::ir::Expr;
use crate::model::Function;
use crate::value::{Type, Value};

/// A function declared but not compiled yet.
pub(super) struct Declared {
    path: String,
    body: Option<Yaml>,
    doc: Option<String>,
    rule: crate::model::RuleRef,
}

impl Builder {
    /// Reads the signatures of `functions:` into `decls.functions`.
    pub(super) fn declare_functions(&mut self, value: Option<&Yaml>, decls: &mut Decls) -> Vec<Declared> {
        let shape = "a function is a mapping: {params: {name: type, …}, returns: type, value: \"expression\"}";
        let tables: Vec<String> = decls.tables.iter().map(|t| t.name.clone()).collect();
        let mut out = Vec::new();
        for (name, path, m) in self.declarations(value, "functions", shape) {
            self.check_keys(&m, &path, &crate::format::key_lists().function);
            if crate::builtins::is_builtin(&name) || decls.script_functions.iter().any(|(n, _)| *n == name) {
                self.error(&path, format!("function '{name}' has the name of a built-in or script function: rename it"));
            } else if decls.functions.iter().any(|f| f.name == name) {
                self.error(&path, format!("function '{name}' is declared twice"));
            }
            let params = self.typed_params(m.get("params"), &tables, &path);
            let returns = match m.get("returns").and_then(Yaml::as_str) {
                Some(t) => self.value_type_named(t, &tables, &join(&path, "returns")),
                None => {
                    self.error(&path, "missing 'returns': the type of the function's value (int, bool, player, a table name…)");
                    Type::Any
                }
            };
            if m.get("value").is_none() {
                self.error(&path, "missing 'value': the expression the function computes");
            }
            decls.functions.push(FunctionSig { name, params, returns });
            let (doc, rule) = (self.string(&m, "doc", &path), self.rule(&m, &path));
            out.push(Declared { body: m.get("value").cloned(), path, doc, rule });
        }
        out
    }

    /// Compiles the bodies of the declared functions and refuses recursion.
    pub(super) fn functions(&mut self, declared: Vec<Declared>, decls: &Decls) -> Vec<Function> {
        let mut out = Vec::new();
        for (sig, d) in decls.functions.iter().zip(declared) {
            let vpath = join(&d.path, "value");
            let (body, source) = match d.body.as_ref().and_then(|b| self.parse_expression(b, &vpath)) {
                Some((ast, source)) => {
                    let mut compiler = super::Compiler::for_function(decls, &source, &sig.params);
                    let body = compiler.expect(&ast, &Scope { locals: &[], it: None }, &sig.returns);
                    for e in compiler.errors {
                        self.expr_error(&vpath, &source, e.span, e.message);
                    }
                    (body, source)
                }
                None => (Expr::Const(Value::None), String::new()),
            };
            out.push(Function {
                name: sig.name.clone(),
                params: sig.params.clone(),
                returns: sig.returns.clone(),
                body,
                source,
                doc: d.doc,
                rule: d.rule,
            });
        }
        self.refuse_recursion(&mut out);
        out
    }

    /// A function that calls itself, directly or through others, could never end.
    fn refuse_recursion(&mut self, functions: &mut [Function]) {
        let calls: Vec<Vec<usize>> = functions.iter_mut().map(|f| called(&mut f.body)).collect();
        for start in 0..functions.len() {
            // Depth-first from each function, along its calls, looking for the way back.
            let mut path = vec![start];
            if let Some(cycle) = back_to(start, &calls, &mut path) {
                let names: Vec<&str> = cycle.iter().map(|&i| functions[i].name.as_str()).collect();
                let message = format!("function '{}' calls itself ({}): recursion is not allowed", functions[start].name, names.join(" → "));
                self.error(&format!("functions.{}", functions[start].name), message);
            }
        }
    }
}

/// The functions an expression calls.
fn called(e: &mut Expr) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if let Expr::Function { id, .. } = e {
            out.push(id.index());
        }
        stack.extend(e.children_mut());
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A path of calls from the last function of `path` back to `start`, if there is one.
fn back_to(start: usize, calls: &[Vec<usize>], path: &mut Vec<usize>) -> Option<Vec<usize>> {
    let last = *path.last()?;
    for &next in &calls[last] {
        if next == start {
            let mut cycle = path.clone();
            cycle.push(start);
            return Some(cycle);
        }
        if !path.contains(&next) {
            path.push(next);
            if let Some(cycle) = back_to(start, calls, path) {
                return Some(cycle);
            }
            path.pop();
        }
    }
    None
}
