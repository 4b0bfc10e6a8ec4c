//! The generator of the native back end: Rust source from a game's optimized IR.
//!
//! Statements become straight-line Rust in one function per procedure; expressions
//! become Rust where their node is one of the common ones (numbers and true/false read
//! from the state, arithmetic, comparisons, unrolled searches, columns, zone reads,
//! functions without parameters, the built-ins `Gen::builtin` knows) and a call into the
//! walker otherwise, by the node's index in [`Generated::exprs`]. Everything the code takes from the game (slots, zone
//! instances, columns, row conditions) is written into the text, so that the text is all
//! a compiled ruleset depends on besides the nodes it hands to the walker.

mod builtin;
mod choose;
mod expr;
mod stmt;

use std::fmt::Write;

use crate::ir::Expr;
use crate::model::{BlockId, Element, Game, StmtKind};

/// Generated source and the IR nodes its walker calls read.
pub struct Generated<'g> {
    pub text: String,
    pub exprs: Vec<&'g Expr>,
    /// The most frames the walker could hold at once for this ruleset (blocks and calls).
    pub max_depth: usize,
}

/// Generates the native code of `game`, or says which statement it cannot compile.
pub fn generate(game: &Game) -> Result<Generated<'_>, String> {
    let mut g = Gen {
        game,
        exprs: Vec::new(),
        functions: Vec::new(),
        constants: Vec::new(),
        it: false,
        listing: None,
    };
    let max_depth = g.check_procedures()?;
    let mut body = String::new();
    for (i, p) in game.procedures.iter().enumerate() {
        let mut f = String::new();
        let params = p.params.len();
        let _ = writeln!(
            f,
            "\n/// procedures.{}\nfn p{i}(cx: &mut Cx, args: [Value; {params}]) -> Flow {{",
            p.name
        );
        let _ = writeln!(
            f,
            "    let mut l: [Value; {}] = [NONE; {}];",
            p.locals, p.locals
        );
        if params > 0 {
            let names: Vec<String> = (0..params).map(|k| format!("a{k}")).collect();
            let _ = writeln!(f, "    let [{}] = args;", names.join(", "));
            for (k, slot) in p.params.iter().enumerate() {
                let _ = writeln!(f, "    l[{}] = a{k};", slot.index());
            }
        } else {
            let _ = writeln!(f, "    let [] = args;");
        }
        f.push_str(&g.block(p.body, 1)?);
        f.push_str("    Ok(())\n}\n");
        body.push_str(&f);
    }
    let mut functions = String::new();
    let mut done = 0;
    // Functions are generated as their calls are met, and a body may call another.
    while done < g.functions.len() {
        let id = g.functions[done];
        done += 1;
        functions.push_str(&g.function(id)?);
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "//! Native code of the ruleset `{}`, generated from its optimized IR by",
        game.meta.name
    );
    text.push_str("//! `frontier_interpreter::native::generate`. Do not edit: `FRONTIER_NATIVE_WRITE=1 cargo test\n");
    text.push_str("//! -p frontier-tests --test integration native_modules::` writes it again, and that test fails while it\n");
    text.push_str("//! is not what the generator makes of the ruleset.\n");
    text.push_str("#![allow(clippy::all, unused_parens, unreachable_code, non_upper_case_globals, while_true, unused_mut, unused_assignments, unused_variables)]\n\n");
    text.push_str("use frontier_interpreter::native::rt::*;\n\n");
    let _ = writeln!(
        text,
        "/// Calls of the walker's evaluator: {} IR nodes. Deepest nesting: {max_depth} frames.",
        g.exprs.len()
    );
    text.push_str("pub fn play(cx: &mut Cx) -> Flow {\n");
    let _ = writeln!(
        text,
        "    p{}(cx, [])?;\n    p{}(cx, [])?;\n    Ok(())\n}}",
        game.setup.index(),
        game.play.index()
    );
    text.push_str(&body);
    text.push_str(&functions);
    for constant in &g.constants {
        text.push_str(constant);
    }
    Ok(Generated {
        text,
        exprs: g.exprs,
        max_depth,
    })
}

struct Gen<'g> {
    game: &'g Game,
    exprs: Vec<&'g Expr>,
    /// Functions without parameters called by generated code, in the order first met.
    functions: Vec<usize>,
    /// Constants (columns, row tables), each a `const` item, after the functions.
    constants: Vec<String>,
    /// Whether the code being generated is a per-element argument's body, with its
    /// element in the Rust variable `it: &Value`.
    it: bool,
    /// While an option listing is generated: the functions without parameters it calls,
    /// each computed once per listing (the state does not change while options are
    /// listed) into a local `m<id>`, as the walker's memo does.
    listing: Option<Vec<usize>>,
}

fn indent(depth: usize) -> String {
    "    ".repeat(depth)
}

impl<'g> Gen<'g> {
    /// Refuses recursion (generated procedures would recurse without the walker's
    /// bound) and gives the deepest nesting of frames.
    fn check_procedures(&self) -> Result<usize, String> {
        fn depth(game: &Game, block: BlockId, visiting: &mut Vec<usize>) -> Result<usize, String> {
            let mut deepest = 0;
            for stmt in &game.blocks[block.index()] {
                let inner = match &stmt.kind {
                    StmtKind::Call { proc, .. } => {
                        if visiting.contains(&proc.index()) {
                            return Err(format!("{}: a procedure that calls itself", stmt.origin));
                        }
                        visiting.push(proc.index());
                        let d = depth(game, game.procedures[proc.index()].body, visiting)?;
                        visiting.pop();
                        d
                    }
                    // Every other statement: the deepest of the blocks it runs.
                    kind => {
                        let mut m = 0;
                        for inner in kind.blocks() {
                            m = m.max(depth(game, inner, visiting)?);
                        }
                        m
                    }
                };
                deepest = deepest.max(inner);
            }
            Ok(deepest + 1)
        }
        // Setup runs above play's frame.
        let (setup, play) = (self.game.setup.index(), self.game.play.index());
        let setup = 1 + depth(
            self.game,
            self.game.procedures[setup].body,
            &mut vec![setup],
        )?;
        let play = depth(self.game, self.game.procedures[play].body, &mut vec![play])?;
        Ok(setup.max(play))
    }

    fn fallback(&mut self, e: &'g Expr) -> usize {
        self.exprs.push(e);
        self.exprs.len() - 1
    }

    fn block(&mut self, block: BlockId, depth: usize) -> Result<String, String> {
        let mut s = String::new();
        let game = self.game;
        for stmt in &game.blocks[block.index()] {
            let _ = writeln!(s, "{}// {}", indent(depth), stmt.origin);
            s.push_str(&format!("{}cx.tick()?;\n", indent(depth)));
            s.push_str(&self.stmt(&stmt.kind, &stmt.origin, depth)?);
        }
        Ok(s)
    }

    fn function(&mut self, id: usize) -> Result<String, String> {
        let f = &self.game.functions[id];
        let (ty, body) = match &f.returns {
            crate::value::Type::Int => ("i64", self.int(&f.body)),
            crate::value::Type::Bool => ("bool", self.truth(&f.body)),
            _ => {
                return Err(format!(
                    "functions.{}: only number and true/false functions are compiled",
                    f.name
                ))
            }
        };
        Ok(format!("\n/// functions.{}\nfn f{id}(cx: &Cx) -> Result<{ty}, Stop> {{\n    let l: [Value; 0] = [];\n    Ok({body})\n}}\n", f.name))
    }

    /// A call of a function without parameters whose value is a number or true/false.
    fn call(&mut self, id: crate::ir::FunctionId) -> String {
        if !self.functions.contains(&id.index()) {
            self.functions.push(id.index());
        }
        let id = id.index();
        match &mut self.listing {
            Some(memo) => {
                if !memo.contains(&id) {
                    memo.push(id);
                }
                format!("(match m{id} {{ Some(v) => v, None => {{ let v = f{id}(cx)?; m{id} = Some(v); v }} }})")
            }
            None => format!("f{id}(cx)?"),
        }
    }

    fn callable(&self, id: crate::ir::FunctionId, args: &[Expr]) -> bool {
        args.is_empty()
            && matches!(
                self.game.functions[id.index()].returns,
                crate::value::Type::Int | crate::value::Type::Bool
            )
    }
}

/// A number as a Rust literal (the smallest has no literal of its own).
fn int_literal(n: i64) -> String {
    if n == i64::MIN {
        "i64::MIN".to_string()
    } else {
        format!("({n}i64)")
    }
}

fn element(of: Element) -> String {
    match of {
        Element::Player => "Element::Player".to_string(),
        Element::Row(t) => format!("Element::Row(TableId::at({}))", t.index()),
    }
}
