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

use crate::model::MAX_FUNCTION_NESTING;

impl Builder {
    /// Reads the signatures of `functions:` into `decls.functions`.
    pub(super) fn declare_functions(
        &mut self,
        value: Option<&Yaml>,
        decls: &mut Decls,
    ) -> Vec<Declared> {
        let shape = "a function is a mapping: {params: {name: type, …}, returns: type, value: \"expression\"}";
        let mut out = Vec::new();
        for (name, path, m) in self.declarations(value, "functions", shape) {
            if self.full() {
                break;
            }
            self.check_keys(&m, &path, &crate::format::key_lists().function);
            if crate::builtins::is_builtin(&name)
                || decls.script_functions.iter().any(|(n, _)| *n == name)
            {
                self.error(&path, format!("function '{name}' has the name of a built-in or script function: rename it"));
            } else if decls.function_ids.contains_key(&name) {
                self.error(&path, format!("function '{name}' is declared twice"));
            }
            let params = self.typed_params(m.get("params"), &decls.tables, &path);
            let returns = match m.get("returns").and_then(Yaml::as_str) {
                Some(t) => self.value_type_named(t, &decls.tables, &join(&path, "returns")),
                None => {
                    self.error(&path, "missing 'returns': the type of the function's value (int, bool, player, a table name…)");
                    Type::Any
                }
            };
            if m.get("value").is_none() {
                self.error(
                    &path,
                    "missing 'value': the expression the function computes",
                );
            }
            decls
                .function_ids
                .entry(name.clone())
                .or_insert(decls.functions.len());
            decls.functions.push(FunctionSig {
                name,
                params,
                returns,
            });
            let (doc, rule) = (self.string(&m, "doc", &path), self.rule(&m, &path));
            out.push(Declared {
                body: m.get("value").cloned(),
                path,
                doc,
                rule,
            });
        }
        out
    }

    /// Compiles the bodies of the declared functions and refuses recursion.
    pub(super) fn functions(&mut self, declared: Vec<Declared>, decls: &Decls) -> Vec<Function> {
        let mut out = Vec::new();
        for (sig, d) in decls.functions.iter().zip(declared) {
            let vpath = join(&d.path, "value");
            let (body, source) = match d
                .body
                .as_ref()
                .and_then(|b| self.parse_expression(b, &vpath))
            {
                Some((ast, source)) => {
                    let mut compiler = super::Compiler::for_function(decls, &source, &sig.params);
                    let body = compiler.expect(
                        &ast,
                        &Scope {
                            locals: &[],
                            it: None,
                        },
                        &sig.returns,
                    );
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

    /// A function that calls itself, directly or through others, could never end; and
    /// calls nested deeper than [`MAX_FUNCTION_NESTING`] would take the evaluator's stack
    /// with them (each call walks its body recursively).
    fn refuse_recursion(&mut self, functions: &mut [Function]) {
        let calls: Vec<Vec<usize>> = functions.iter_mut().map(|f| called(&mut f.body)).collect();
        let CallGraph { on_cycle, depth } = call_graph(&calls);
        for (reported, &f) in on_cycle.iter().enumerate() {
            if reported == MAX_REPORTED_CYCLES {
                let message = format!(
                    "{} more functions call themselves: recursion is not allowed",
                    on_cycle.len() - reported
                );
                self.error("functions", message);
                break;
            }
            let cycle = way_back(f, &calls);
            let names: Vec<&str> = cycle.iter().map(|&i| functions[i].name.as_str()).collect();
            let message = format!(
                "function '{}' calls itself ({}): recursion is not allowed",
                functions[f].name,
                names.join(" → ")
            );
            self.error(&format!("functions.{}", functions[f].name), message);
        }
        if let Some(f) = (0..functions.len()).find(|&f| depth[f] > MAX_FUNCTION_NESTING) {
            let message = format!(
                "function '{}' calls functions nested {} deep (it calls one that calls one…), more than {MAX_FUNCTION_NESTING}",
                functions[f].name, depth[f]
            );
            self.error(&format!("functions.{}", functions[f].name), message);
        }
    }
}

/// Functions reported as recursive, each with its way back to itself; any more are
/// counted in one message.
const MAX_REPORTED_CYCLES: usize = 20;

struct CallGraph {
    /// The functions that can reach themselves, in declaration order.
    on_cycle: Vec<usize>,
    /// For each function, the longest chain of calls it starts (1: it calls none), counting
    /// only what lies off cycles.
    depth: Vec<usize>,
}

/// The functions on cycles and the call depths, in time linear in the calls (without
/// recursion: the chains may be long).
fn call_graph(calls: &[Vec<usize>]) -> CallGraph {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let n = calls.len();
    let mut mark = vec![Mark::New; n];
    let mut depth = vec![1usize; n];
    let mut finished = Vec::with_capacity(n);
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        // (function, index of the next call to follow)
        let mut stack = vec![(root, 0usize)];
        mark[root] = Mark::Open;
        while let Some(&mut (f, ref mut next)) = stack.last_mut() {
            if let Some(&g) = calls[f].get(*next) {
                *next += 1;
                match mark[g] {
                    Mark::New => {
                        mark[g] = Mark::Open;
                        stack.push((g, 0));
                    }
                    // A way back: a cycle, refused; its depth does not count.
                    Mark::Open => {}
                    Mark::Done => depth[f] = depth[f].max(depth[g].saturating_add(1)),
                }
            } else {
                mark[f] = Mark::Done;
                finished.push(f);
                stack.pop();
                if let Some(&(caller, _)) = stack.last() {
                    depth[caller] = depth[caller].max(depth[f].saturating_add(1));
                }
            }
        }
    }
    // Kosaraju: the strongly connected groups, from the callers' side in reverse finishing
    // order. A function is on a cycle when its group has others, or it calls itself.
    let mut callers = vec![Vec::new(); n];
    for (f, called) in calls.iter().enumerate() {
        for &g in called {
            callers[g].push(f);
        }
    }
    let mut group = vec![usize::MAX; n];
    let mut size = Vec::new();
    for &root in finished.iter().rev() {
        if group[root] != usize::MAX {
            continue;
        }
        let id = size.len();
        size.push(0usize);
        group[root] = id;
        let mut stack = vec![root];
        while let Some(f) = stack.pop() {
            size[id] += 1;
            for &g in &callers[f] {
                if group[g] == usize::MAX {
                    group[g] = id;
                    stack.push(g);
                }
            }
        }
    }
    let on_cycle = (0..n)
        .filter(|&f| size[group[f]] > 1 || calls[f].contains(&f))
        .collect();
    CallGraph { on_cycle, depth }
}

/// The shortest way of calls from `start` back to itself (`start`, …, `start`), or
/// nothing (breadth first, without recursion).
fn way_back(start: usize, calls: &[Vec<usize>]) -> Vec<usize> {
    let mut came_from: Vec<Option<usize>> = vec![None; calls.len()];
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(f) = queue.pop_front() {
        for &g in &calls[f] {
            if g == start {
                // f, the function that called it, …, back to one `start` calls.
                let mut chain = vec![f];
                while let Some(caller) =
                    came_from[*chain.last().unwrap_or(&start)].filter(|&c| c != start)
                {
                    chain.push(caller);
                }
                chain.reverse();
                let mut way = vec![start];
                way.extend(chain.into_iter().filter(|&c| c != start));
                way.push(start);
                return way;
            }
            if came_from[g].is_none() && g != start {
                came_from[g] = Some(f);
                queue.push_back(g);
            }
        }
    }
    Vec::new()
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
