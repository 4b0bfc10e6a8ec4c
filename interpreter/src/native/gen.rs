//! The generator of the native back end: Rust source from a game's optimized IR.
//!
//! Statements become straight-line Rust in one function per procedure; expressions
//! become Rust where their node is one of the common ones (numbers and true/false read
//! from the state, arithmetic, comparisons, unrolled searches, columns, zone reads,
//! functions without parameters, the built-ins `Gen::builtin` knows) and a call into the
//! walker otherwise, by the node's index in [`Generated::exprs`]. Everything the code takes from the game (slots, zone
//! instances, columns, row conditions) is written into the text, so that the text is all
//! a compiled ruleset depends on besides the nodes it hands to the walker.

use std::fmt::Write;

use crate::ir::{ArithOp, Code, Expr, Key, Op, Quantifier, Total, ZoneRead};
use crate::model::{
    AssignMode, BlockId, Element, Game, MoveAt, MoveWhat, OptionGroup, Place, RemoveWhat, StmtKind,
};
use crate::value::Value;

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
    text.push_str("//! -p frontier-tests --test native_modules` writes it again, and that test fails while it\n");
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

    fn stmt(&mut self, kind: &'g StmtKind, origin: &str, depth: usize) -> Result<String, String> {
        let i = indent(depth);
        let unsupported = |what: &str| Err(format!("{origin}: {what} is not compiled natively"));
        Ok(match kind {
            StmtKind::Assign {
                target: Place::Local(slot),
                value,
                mode,
            } => match mode {
                AssignMode::Set => format!("{i}l[{}] = {};\n", slot.index(), self.value(value)),
                AssignMode::Add => {
                    format!("{i}{{ let v = {}; l[{s}] = Value::Int(add(as_int(&l[{s}])?, as_int(&v)?)?); }}\n", self.value(value), s = slot.index())
                }
            },
            StmtKind::Assign {
                target: Place::Var { var, index },
                value,
                mode,
            } => {
                let decl = &self.game.vars[var.index()];
                let len = self.game.domain_len(decl.per);
                let slot = match index {
                    Some(index) => format!("{{ let k = {}; if k >= {len} {{ return Err(Stop::Bail); }} {} + k as usize }}", self.index(index), decl.base),
                    None => format!("{}", decl.base),
                };
                let value = match (mode, &decl.ty) {
                    (AssignMode::Add, _) => format!("add(cx.state.ints[s], {})?", self.int(value)),
                    (AssignMode::Set, crate::value::Type::Int) => self.int(value),
                    (AssignMode::Set, crate::value::Type::Bool) => {
                        format!("({}) as i64", self.truth(value))
                    }
                    (AssignMode::Set, _) => format!(
                        "{{ let v = {}; cx.stored({}, &v)? }}",
                        self.value(value),
                        var.index()
                    ),
                };
                format!("{i}{{ let s = {slot}; let n = {value}; cx.state.ints[s] = n; }}\n")
            }
            StmtKind::Move {
                from,
                to,
                what,
                at: MoveAt::Bottom,
            } => {
                let (f, t) = (self.instance(from), self.instance(to));
                match what {
                    MoveWhat::Item(item) => {
                        format!("{i}{{ let f = {f}; let t = {t}; let v = {}; cx.move_item(f, t, {}, &v)?; }}\n", self.value(item), element(from.of))
                    }
                    MoveWhat::Top(n) => format!(
                        "{i}{{ let f = {f}; let t = {t}; let n = {}; cx.move_top(f, t, n); }}\n",
                        self.int(n)
                    ),
                    MoveWhat::All => {
                        format!("{i}{{ let f = {f}; let t = {t}; cx.move_all(f, t); }}\n")
                    }
                }
            }
            StmtKind::Move { .. } => return unsupported("a move to the top or a position"),
            StmtKind::Push { to, value } => {
                format!(
                    "{i}{{ let z = {}; let v = {}; cx.push(z, {}, &v)?; }}\n",
                    self.instance(to),
                    self.value(value),
                    element(to.of)
                )
            }
            StmtKind::Remove { from, what } => match what {
                RemoveWhat::At(at) => format!(
                    "{i}{{ let z = {}; let at = {}; cx.remove_at(z, at)?; }}\n",
                    self.instance(from),
                    self.int(at)
                ),
                RemoveWhat::Item(item) => format!(
                    "{i}{{ let z = {}; let v = {}; cx.remove_item(z, &v); }}\n",
                    self.instance(from),
                    self.value(item)
                ),
            },
            StmtKind::Shuffle { zone } => format!(
                "{i}{{ let z = {}; cx.shuffle(z)?; }}\n",
                self.instance(zone)
            ),
            StmtKind::Draw(draw) => {
                // As the walker's `draw`: the instances are read again every round; a
                // refilled pile's shuffle is a step, after which the statement runs again.
                let (from, to, count) = (
                    self.instance(&draw.from),
                    self.instance(&draw.to),
                    self.int(&draw.count),
                );
                let mut s = format!("{i}{{\n{i}    let mut rounds = {count};\n{i}    let mut refilled = false;\n{i}    while rounds > 0 {{\n");
                let _ = writeln!(s, "{i}        let mut source = {from};");
                let refillable = match &draw.refill {
                    Some(refill) => {
                        let pile = self.instance(refill);
                        let _ = writeln!(
                            s,
                            "{i}        if !refilled && cx.state.zones[source].is_empty() {{"
                        );
                        let _ = writeln!(s, "{i}            let pile = {pile};\n{i}            cx.move_all(pile, source);\n{i}            source = {from};");
                        let _ = writeln!(s, "{i}            if cx.state.zones[source].len() > 1 {{\n{i}                cx.shuffle(source)?;\n{i}                cx.tick()?;\n{i}                refilled = true;\n{i}                continue;\n{i}            }}\n{i}        }}");
                        format!("!cx.state.zones[{}].is_empty()", self.instance(refill))
                    }
                    None => "false".to_string(),
                };
                let _ = writeln!(s, "{i}        refilled = false;\n{i}        if cx.state.zones[source].is_empty() {{");
                let _ = writeln!(
                    s,
                    "{i}            if !({refillable}) {{ break; }}\n{i}        }} else {{"
                );
                let _ = writeln!(s, "{i}            let target = {to};\n{i}            cx.move_one(source, target);\n{i}        }}");
                let _ = writeln!(s, "{i}        rounds -= 1;\n{i}    }}\n{i}}}");
                s
            }
            StmtKind::Clear { .. } => return unsupported("clear"),
            StmtKind::Reveal { .. } => return unsupported("reveal"),
            StmtKind::Place { .. } => return unsupported("place"),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let mut s = format!("{i}if {} {{\n", self.truth(cond));
                s.push_str(&self.block(*then, depth + 1)?);
                if let Some(o) = otherwise {
                    let _ = writeln!(s, "{i}}} else {{");
                    s.push_str(&self.block(*o, depth + 1)?);
                }
                let _ = writeln!(s, "{i}}}");
                s
            }
            StmtKind::ForEach { slot, list, body } => {
                let mut s = self.loop_head(list, slot.index(), depth);
                s.push_str(&self.block(*body, depth + 1)?);
                let _ = writeln!(s, "{i}}}");
                s
            }
            StmtKind::Repeat { count, body } => {
                let mut s = format!(
                    "{i}{{ let mut left = {}; while left > 0 {{ left -= 1;\n",
                    self.int(count)
                );
                s.push_str(&self.block(*body, depth + 1)?);
                let _ = writeln!(s, "{i}}} }}");
                s
            }
            StmtKind::While { cond, body } => {
                let mut s = format!("{i}while {} {{\n", self.truth(cond));
                s.push_str(&self.block(*body, depth + 1)?);
                let _ = writeln!(s, "{i}}}");
                s
            }
            StmtKind::RepeatUpTo { .. } | StmtKind::EndLoop => {
                return unsupported("repeat: { up_to }")
            }
            StmtKind::Choose(choose) => self.choose(choose, origin, depth)?,
            StmtKind::Random { .. } => return unsupported("random"),
            StmtKind::Call {
                proc,
                args,
                into: None,
            } => {
                let args: Vec<String> = args.iter().map(|a| self.value(a)).collect();
                format!("{i}p{}(cx, [{}])?;\n", proc.index(), args.join(", "))
            }
            StmtKind::Call { .. } | StmtKind::Return(_) => {
                return unsupported("a procedure's return value")
            }
            // Logs are written only for readers; games played natively keep none.
            StmtKind::Log(_) => String::new(),
            StmtKind::EndGame => format!("{i}return Err(Stop::End({origin:?}));\n"),
            StmtKind::Award(_) => return unsupported("award"),
        })
    }

    fn choose(
        &mut self,
        choose: &'g crate::model::Choose,
        origin: &str,
        depth: usize,
    ) -> Result<String, String> {
        let i = indent(depth);
        let mut s = format!(
            "{i}{{\n{i}    let player = {};\n{i}    let mut options = cx.options();\n",
            self.code(&choose.who)
        );
        self.listing = Some(Vec::new());
        let mut listing = String::new();
        let mut kept = Vec::new();
        for (g, group) in choose.groups.iter().enumerate() {
            let (text, k) = self.group(group, g, depth + 1, origin)?;
            listing.push_str(&text);
            kept.push(k);
        }
        for id in self.listing.take().unwrap_or_default() {
            let ty = if self.game.functions[id].returns == crate::value::Type::Int {
                "i64"
            } else {
                "bool"
            };
            let _ = writeln!(s, "{i}    let mut m{id}: Option<{ty}> = None;");
        }
        if kept.contains(&Kept::Listed) {
            // The elements of lists the walker built, kept for the one decided.
            let _ = writeln!(s, "{i}    let mut values: Vec<Value> = Vec::new();");
        }
        s.push_str(&listing);
        let _ = writeln!(
            s,
            "{i}    let (group, chosen) = cx.decide(player, options)?;"
        );
        let _ = writeln!(s, "{i}    match group {{");
        for ((g, group), kept) in choose.groups.iter().enumerate().zip(kept) {
            let _ = writeln!(s, "{i}        {g} => {{");
            if let [(slot, _)] = group.bindings.as_slice() {
                let value = match kept {
                    Kept::Element(of) => format!("element_value({}, chosen)", element(of)),
                    Kept::Listed => "std::mem::take(&mut values[chosen as usize])".to_string(),
                    Kept::Nothing => "Value::None".to_string(),
                };
                let _ = writeln!(s, "{i}            l[{}] = {value};", slot.index());
            }
            s.push_str(&self.block(group.body, depth + 3)?);
            let _ = writeln!(s, "{i}        }}");
        }
        let _ = writeln!(
            s,
            "{i}        _ => return Err(Stop::Bail),\n{i}    }}\n{i}}}"
        );
        Ok(s)
    }

    /// The listing of one option group, as the walker's `enumerate_options`: the options
    /// whose condition holds, in list order, and how the chosen one's element is kept.
    fn group(
        &mut self,
        group: &'g OptionGroup,
        g: usize,
        depth: usize,
        origin: &str,
    ) -> Result<(String, Kept), String> {
        let i = indent(depth);
        let (slot, list) = match group.bindings.as_slice() {
            [] => {
                let condition = group
                    .condition
                    .as_ref()
                    .map_or_else(|| "true".to_string(), |c| self.truth(c));
                return Ok((
                    format!("{i}if {condition} {{ options.push(({g}, 0)); }}\n"),
                    Kept::Nothing,
                ));
            }
            [(slot, list)] => (slot.index(), list),
            _ => {
                return Err(format!(
                    "{origin}: an option with several for: lists is not compiled natively"
                ))
            }
        };
        // The element is put in its local only for conditions that read it; the local
        // is given back its value after the listing.
        let bind = match &group.by_row {
            Some(by_row) => by_row.conditions.iter().any(|c| reads_local(c, slot)),
            None => group
                .condition
                .as_ref()
                .is_some_and(|c| reads_local(c, slot)),
        };
        let mut s = format!("{i}{{\n");
        if bind {
            let _ = writeln!(s, "{i}    let saved = l[{slot}].clone();");
        }
        let (head, kept) = match (
            list,
            group.by_row.as_ref().and_then(|b| b.filtered.as_ref()),
        ) {
            // Rows of one table, tested one by one below (none: no option, whatever the table).
            (_, Some(filtered)) => {
                let table = match filtered.rows.first() {
                    Some(Value::Row(t, _)) => *t,
                    _ => crate::ir::TableId(0),
                };
                (String::new(), Kept::Element(Element::Row(table)))
            }
            (Expr::Zone(z), None) => {
                // Nothing moves while options are listed: the zone is read where it lies.
                let mut head = format!("{i}    let z = {};\n{i}    for &elem in cx.state.zones[z].iter() {{\n{i}        let elem = elem as u32;\n", self.instance(z));
                if bind {
                    let _ = writeln!(
                        head,
                        "{i}        l[{slot}] = element_value({}, elem);",
                        element(z.of)
                    );
                }
                (head, Kept::Element(z.of))
            }
            (list, None) => {
                let mut head = format!("{i}    for item in as_list({})?.iter() {{\n{i}        let elem = values.len() as u32;\n", self.value(list));
                if bind {
                    let _ = writeln!(head, "{i}        l[{slot}] = item.clone();");
                }
                (head, Kept::Listed)
            }
        };
        // What an allowed element adds to the options.
        let push = match kept {
            Kept::Listed => format!("{{ values.push(item.clone()); options.push(({g}, elem)); }}"),
            _ => format!("options.push(({g}, elem));"),
        };
        match &group.by_row {
            Some(by_row) => {
                // One condition per kind of row, tested once per listing (the first 64).
                let conditions: Vec<String> =
                    by_row.conditions.iter().map(|c| self.truth(c)).collect();
                let rows: Vec<String> = by_row.of_row.iter().map(|k| k.to_string()).collect();
                let name = self.constant("OF_ROW", "u16", &rows);
                let row = match kept {
                    Kept::Listed => "code(item)".to_string(),
                    _ => "elem as i64".to_string(),
                };
                let _ = writeln!(s, "{i}    let (mut tested, mut held) = (0u64, 0u64);");
                let mut test = format!("{i}        let k = column(&{name}, {row})? as usize;\n");
                let _ = writeln!(
                    test,
                    "{i}        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);"
                );
                let _ = writeln!(
                    test,
                    "{i}        let allowed = if tested & bit != 0 {{ held & bit != 0 }} else {{"
                );
                let _ = writeln!(test, "{i}            let holds = match k {{");
                for (k, c) in conditions.iter().enumerate() {
                    let _ = writeln!(test, "{i}                {k} => {c},");
                }
                let _ = writeln!(
                    test,
                    "{i}                _ => return Err(Stop::Bail),\n{i}            }};"
                );
                let _ = writeln!(test, "{i}            tested |= bit;\n{i}            if holds {{ held |= bit; }}\n{i}            holds\n{i}        }};");
                let _ = writeln!(test, "{i}        if allowed {{ {push} }}");
                match &by_row.filtered {
                    Some(filtered) => {
                        for item in filtered.rows.iter() {
                            let Value::Row(t, r) = item else {
                                return Err(format!("{origin}: a filtered row that is not a row"));
                            };
                            let pass = filtered
                                .pass
                                .get(*r as usize)
                                .ok_or_else(|| format!("{origin}: a row without its filter"))?;
                            // The filter is tested where the binding is not yet made.
                            if bind && reads_local(pass, slot) {
                                let _ = writeln!(s, "{i}    l[{slot}] = saved.clone();");
                            }
                            let _ = writeln!(
                                s,
                                "{i}    if {} {{\n{i}        let elem = {r}u32;",
                                self.truth(pass)
                            );
                            if bind {
                                let _ = writeln!(
                                    s,
                                    "{i}        l[{slot}] = Value::Row(TableId({}), {r});",
                                    t.0
                                );
                            }
                            s.push_str(&test);
                            let _ = writeln!(s, "{i}    }}");
                        }
                    }
                    None => {
                        s.push_str(&head);
                        s.push_str(&test);
                        let _ = writeln!(s, "{i}    }}");
                    }
                }
            }
            None => {
                let condition = group
                    .condition
                    .as_ref()
                    .map_or_else(|| "true".to_string(), |c| self.truth(c));
                s.push_str(&head);
                let _ = writeln!(s, "{i}        if {condition} {{ {push} }}\n{i}    }}");
            }
        }
        if bind {
            let _ = writeln!(s, "{i}    l[{slot}] = saved;");
        }
        let _ = writeln!(s, "{i}}}");
        Ok((s, kept))
    }

    /// The head of a loop that puts each element of `list` in local `slot`, as the
    /// walker's `for_each:` does: over the list as it was when the loop began (the
    /// players and a range are counted; other lists are built, a zone copied).
    fn loop_head(&mut self, list: &'g Expr, slot: usize, depth: usize) -> String {
        let i = indent(depth);
        match list {
            Expr::Players => format!("{i}for p in 0..cx.state.names.len() {{\n{i}    l[{slot}] = Value::Player(p as u8);\n"),
            Expr::Call { op: Op::Range, args } if args.len() == 2 => {
                let (lo, hi) = (self.int(&args[0]), self.int(&args[1]));
                let mut s = format!("{i}let (lo, hi) = ({lo}, {hi});\n{i}if hi.saturating_sub(lo) > {} {{ return Err(Stop::Bail); }}\n", crate::builtins::MAX_RANGE);
                let _ = writeln!(s, "{i}for k in lo..=hi {{\n{i}    l[{slot}] = Value::Int(k);");
                s
            }
            _ => format!("{i}for item in as_list({})?.iter() {{\n{i}    l[{slot}] = item.clone();\n", self.value(list)),
        }
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

    /// The zone instance a read names (the walker's `ZoneRead::instance`).
    fn instance(&mut self, z: &'g ZoneRead) -> String {
        match &z.index {
            None => format!("{}usize", z.base),
            Some(index) => format!(
                "Cx::instance({}, {}, {})?",
                z.base,
                z.len,
                self.index(index)
            ),
        }
    }

    /// A seat or row number that must not be none (the walker's `Expr::index`).
    fn index(&mut self, e: &'g Expr) -> String {
        match e {
            Expr::Pair {
                first,
                second,
                stride,
            } => format!(
                "({} * {stride} + {})",
                self.index(first),
                self.index(second)
            ),
            _ => format!("index({})?", self.code(e)),
        }
    }

    fn key(&mut self, key: Key) -> String {
        match key {
            Key::Local(slot) => format!("code(&l[{}])", slot.index()),
            // Outside a per-element argument `it` is none.
            Key::It => self.it_code(),
            Key::Var(slot) => format!("stored_code(cx.state.ints[{slot}])"),
            Key::Param(_) => "{ return Err(Stop::Bail); }".to_string(),
        }
    }

    /// A column's values as a constant array, when they are all of one simple kind.
    fn column(&mut self, values: &[Value], kind: ColumnKind) -> Option<String> {
        let items: Option<Vec<String>> = values
            .iter()
            .map(|v| match (kind, v) {
                (ColumnKind::Int, Value::Int(n)) => Some(int_literal(*n)),
                (ColumnKind::Bool, Value::Bool(b)) => Some(format!("{b}")),
                (ColumnKind::Code, Value::None) => Some("-1".to_string()),
                (ColumnKind::Code, Value::Row(_, r)) => Some(format!("{r}")),
                (ColumnKind::Code, Value::Player(p)) => Some(format!("{p}")),
                _ => None,
            })
            .collect();
        let items = items?;
        let ty = match kind {
            ColumnKind::Bool => "bool",
            _ => "i64",
        };
        Some(self.constant("COLUMN", ty, &items))
    }

    /// A column of rows (or none) as a constant array of values.
    fn value_column(&mut self, values: &[Value]) -> String {
        let items: Vec<String> = values
            .iter()
            .map(|v| match v {
                Value::Row(t, r) => format!("Value::Row(TableId({}), {r})", t.0),
                _ => "Value::None".to_string(),
            })
            .collect();
        self.constant("COLUMN", "Value", &items)
    }

    /// A constant array of `items` of Rust type `ty`, named after `kind`: its name.
    fn constant(&mut self, kind: &str, ty: &str, items: &[String]) -> String {
        let name = format!("{kind}_{}", self.constants.len());
        self.constants.push(format!(
            "\nconst {name}: [{ty}; {}] = [{}];\n",
            items.len(),
            items.join(", ")
        ));
        name
    }

    /// An expression whose value is a number, as Rust of type `i64`.
    fn int(&mut self, e: &'g Expr) -> String {
        match e {
            Expr::Const(Value::Int(n)) => int_literal(*n),
            Expr::Var {
                slot,
                code: Code::Int,
            } => format!("cx.state.ints[{slot}]"),
            Expr::VarAtKey {
                base,
                code: Code::Int,
                key,
                ..
            } => format!("cx.at({base}, {})?", self.key(*key)),
            Expr::VarAt {
                base,
                code: Code::Int,
                index,
                ..
            } => format!("cx.at({base}, {})?", self.index(index)),
            Expr::Local(slot) => format!("as_int(&l[{}])?", slot.index()),
            Expr::ColumnKey { values, key, .. } => match self.column(values, ColumnKind::Int) {
                Some(c) => format!("column(&{c}, index({})?)?", self.key(*key)),
                None => self.int_fallback(e),
            },
            Expr::Arith { op, a, b, .. } => {
                let f = match op {
                    ArithOp::Add => "add",
                    ArithOp::Sub => "sub",
                    ArithOp::Mul => "mul",
                    ArithOp::Div => "div",
                    ArithOp::Rem => "rem",
                };
                format!("{f}({}, {})?", self.int(a), self.int(b))
            }
            Expr::Neg(a, _) => format!("neg({})?", self.int(a)),
            Expr::ZoneLen(z) => format!("cx.len({})", self.instance(z)),
            Expr::ZoneCount(z, x) => format!(
                "{{ let c = {}; cx.count({}, c) }}",
                self.code(x),
                self.instance(z)
            ),
            Expr::PlayerCount => "cx.players()".to_string(),
            Expr::If {
                cond,
                then,
                otherwise,
            } => format!(
                "(if {} {{ {} }} else {{ {} }})",
                self.truth(cond),
                self.int(then),
                self.int(otherwise)
            ),
            Expr::UnrolledTotal {
                op: Total::Sum,
                items,
            } => {
                let mut s = "{ let t = 0i64;".to_string();
                for item in items {
                    let _ = write!(s, " let t = sum_add(t, {})?;", self.int(item));
                }
                s.push_str(" t }");
                s
            }
            Expr::UnrolledTotal {
                op: Total::Count,
                items,
            } => {
                let terms: Vec<String> = items
                    .iter()
                    .map(|item| format!("({}) as i64", self.truth(item)))
                    .collect();
                format!(
                    "({})",
                    if terms.is_empty() {
                        "0i64".to_string()
                    } else {
                        terms.join(" + ")
                    }
                )
            }
            Expr::Function { id, args } if self.callable(*id, args) => self.call(*id),
            Expr::It if self.it => "as_int(it)?".to_string(),
            Expr::Column { values, row, .. } => match self.column(values, ColumnKind::Int) {
                Some(c) => format!("column(&{c}, index({})?)?", self.code(row)),
                None => self.int_fallback(e),
            },
            Expr::Call { op, args } => match self.builtin(*op, args) {
                Some(BuiltinCode::Int(n)) => n,
                Some(BuiltinCode::Value(v)) => format!("as_int(&{v})?"),
                _ => self.int_fallback(e),
            },
            _ => self.int_fallback(e),
        }
    }

    fn int_fallback(&mut self, e: &'g Expr) -> String {
        self.walker("int", e)
    }

    /// A call of the walker's evaluator (`entry`: int, truth, value or code) for `e`.
    fn walker(&mut self, entry: &str, e: &'g Expr) -> String {
        let id = self.fallback(e);
        match self.it {
            true => format!("cx.{entry}_it({id}, &l, it)?"),
            false => format!("cx.{entry}({id}, &l)?"),
        }
    }

    /// The element of the per-element argument being generated (none outside one).
    fn it_code(&self) -> String {
        if self.it {
            "code(it)".to_string()
        } else {
            "-1i64".to_string()
        }
    }

    /// A built-in call in Rust, for the built-ins generated code knows (by their op: a
    /// form of a built-in is one op); none for the others.
    fn builtin(&mut self, op: Op, args: &'g [Expr]) -> Option<BuiltinCode> {
        let is = |o: Op| op == o;
        if (is(Op::Min) || is(Op::Max)) && !args.is_empty() {
            let pick = if is(Op::Min) { "min" } else { "max" };
            let mut terms = args.iter().map(|a| self.int(a));
            let first = terms.next()?;
            return Some(BuiltinCode::Int(
                terms.fold(first, |acc, t| format!("{acc}.{pick}({t})")),
            ));
        }
        if is(Op::NextPlayer) && args.len() == 1 {
            let p = self.value(&args[0]);
            return Some(BuiltinCode::Value(format!(
                "(match {p} {{ Value::Player(p) => Value::Player(((p as usize + 1) % cx.state.names.len()) as u8), _ => return Err(Stop::Bail) }})"
            )));
        }
        if is(Op::Count) && args.len() == 2 {
            // A local list is read where it lies.
            let list = match &args[0] {
                Expr::Local(slot) => format!("l[{}]", slot.index()),
                list => self.value(list),
            };
            return Some(BuiltinCode::Int(format!(
                "{{ let x = {}; count_in(&{list}, &x) }}",
                self.value(&args[1])
            )));
        }
        if let (true, [list, Expr::Lambda(key)], false) = (is(Op::SortBy), args, self.it) {
            // Stable, as the walker's: equal keys keep their order.
            if !plain_body(key) {
                return None;
            }
            self.it = true;
            let key = self.int(key);
            self.it = false;
            let list = self.elements(list);
            return Some(BuiltinCode::Value(format!(
                "{{ let mut keyed: Vec<(i64, Value)> = Vec::with_capacity(8); for it in {list} {{ let k = {{ let it = &it; {key} }}; keyed.push((k, it)); }} keyed.sort_by_key(|(k, _)| *k); Value::list(keyed.into_iter().map(|(_, v)| v).collect()) }}"
            )));
        }
        if is(Op::Take) && args.len() == 2 {
            return Some(BuiltinCode::Value(format!(
                "take_list({}, {})?",
                self.value(&args[0]),
                self.int(&args[1])
            )));
        }
        let quantifier = if is(Op::Any) {
            Some(true)
        } else if is(Op::All) {
            Some(false)
        } else {
            None
        };
        if let (Some(any), [list, Expr::Lambda(body)], false) = (quantifier, args, self.it) {
            if !plain_body(body) {
                return None;
            }
            self.it = true;
            let test = self.truth(body);
            self.it = false;
            let (list, decides) = (self.elements(list), any);
            return Some(BuiltinCode::Bool(format!(
                "{{ let mut found = {}; for it in {list} {{ let it = &it; if {test} == {decides} {{ found = {decides}; break; }} }} found }}",
                !decides
            )));
        }
        None
    }

    /// The elements of a list, as a Rust iterator of `Value`s: the players and zones where
    /// they lie, other lists built by the walker.
    fn elements(&mut self, list: &'g Expr) -> String {
        match list {
            Expr::Players => "(0..cx.state.names.len()).map(|p| Value::Player(p as u8))".to_string(),
            Expr::Zone(z) => format!("{{ let z = {}; let cx = &*cx; (0..cx.state.zones[z].len()).map(move |at| cx.element(z, at, {})) }}", self.instance(z), element(z.of)),
            _ => format!("{{ let items = as_list({})?; (0..items.len()).map(move |at| items[at].clone()) }}", self.value(list)),
        }
    }

    /// An expression whose value is true or false, as Rust of type `bool`.
    fn truth(&mut self, e: &'g Expr) -> String {
        match e {
            Expr::Const(Value::Bool(b)) => format!("{b}"),
            Expr::Compare { op, a, b } => {
                let op = match op {
                    crate::ir::CmpOp::Lt => "<",
                    crate::ir::CmpOp::Le => "<=",
                    crate::ir::CmpOp::Gt => ">",
                    crate::ir::CmpOp::Ge => ">=",
                    crate::ir::CmpOp::Eq => "==",
                    crate::ir::CmpOp::Ne => "!=",
                };
                format!("({} {op} {})", self.int(a), self.int(b))
            }
            Expr::IsNone { value, negate } => format!("(({} < 0) != {negate})", self.code(value)),
            Expr::Same { a, b, negate } => {
                format!("(({} == {}) != {negate})", self.code(a), self.code(b))
            }
            Expr::VarAtKey {
                base,
                code: Code::Bool,
                key,
                ..
            } => format!("(cx.at({base}, {})? != 0)", self.key(*key)),
            Expr::VarAt {
                base,
                code: Code::Bool,
                index,
                ..
            } => format!("(cx.at({base}, {})? != 0)", self.index(index)),
            Expr::ColumnKey { values, key, .. } => match self.column(values, ColumnKind::Bool) {
                Some(c) => format!("column(&{c}, index({})?)?", self.key(*key)),
                None => self.truth_fallback(e),
            },
            Expr::And(a, b) => format!("({} && {})", self.truth(a), self.truth(b)),
            Expr::Or(a, b) => format!("({} || {})", self.truth(a), self.truth(b)),
            Expr::Not(a) => format!("!{}", self.truth(a)),
            Expr::Var {
                slot,
                code: Code::Bool,
            } => format!("(cx.state.ints[{slot}] != 0)"),
            Expr::Local(slot) => format!("as_bool(&l[{}])?", slot.index()),
            Expr::UnrolledTest { op, items } => {
                let (join, empty) = match op {
                    Quantifier::Any => (" || ", "false"),
                    Quantifier::All => (" && ", "true"),
                };
                let terms: Vec<String> = items.iter().map(|item| self.truth(item)).collect();
                format!(
                    "({})",
                    if terms.is_empty() {
                        empty.to_string()
                    } else {
                        terms.join(join)
                    }
                )
            }
            Expr::ZoneContains(z, x) => format!(
                "{{ let c = {}; cx.contains({}, c) }}",
                self.code(x),
                self.instance(z)
            ),
            Expr::If {
                cond,
                then,
                otherwise,
            } => format!(
                "(if {} {{ {} }} else {{ {} }})",
                self.truth(cond),
                self.truth(then),
                self.truth(otherwise)
            ),
            Expr::Function { id, args } if self.callable(*id, args) => self.call(*id),
            Expr::It if self.it => "as_bool(it)?".to_string(),
            Expr::Call { op, args } => match self.builtin(*op, args) {
                Some(BuiltinCode::Bool(b)) => b,
                _ => self.truth_fallback(e),
            },
            _ => self.truth_fallback(e),
        }
    }

    fn truth_fallback(&mut self, e: &'g Expr) -> String {
        self.walker("truth", e)
    }

    /// An expression whose value is a player, a row or none, as its code (`i64`, -1 for none).
    fn code(&mut self, e: &'g Expr) -> String {
        match e {
            Expr::Local(slot) => format!("code(&l[{}])", slot.index()),
            Expr::Var {
                slot,
                code: Code::Player | Code::Row(_),
            } => format!("stored_code(cx.state.ints[{slot}])"),
            Expr::VarAtKey {
                base,
                code: Code::Player | Code::Row(_),
                key,
                ..
            } => format!("stored_code(cx.at({base}, {})?)", self.key(*key)),
            Expr::ColumnKey { values, key, .. } => match self.column(values, ColumnKind::Code) {
                Some(c) => format!("column(&{c}, index({})?)?", self.key(*key)),
                None => self.walker("code", e),
            },
            Expr::Const(v @ (Value::None | Value::Player(_) | Value::Row(..))) => {
                format!("({}i64)", crate::eval::code_of(v).map_or(-1, i64::from))
            }
            Expr::It => self.it_code(),
            Expr::Column { values, row, .. } => match self.column(values, ColumnKind::Code) {
                Some(c) => format!("column(&{c}, index({})?)?", self.code(row)),
                None => self.walker("code", e),
            },
            Expr::RowAt { count, at, .. } => format!(
                "{{ let i = {}; if i < 0 || i >= {count} {{ return Err(Stop::Bail); }} i }}",
                self.int(at)
            ),
            _ => self.walker("code", e),
        }
    }

    /// Any expression, as a `Value`.
    fn value(&mut self, e: &'g Expr) -> String {
        match e {
            Expr::Const(Value::Int(n)) => format!("Value::Int({})", int_literal(*n)),
            Expr::Const(Value::Bool(b)) => format!("Value::Bool({b})"),
            Expr::Const(Value::None) => "Value::None".to_string(),
            Expr::Const(Value::Player(p)) => format!("Value::Player({p})"),
            Expr::Const(Value::Row(t, r)) => format!("Value::Row(TableId({}), {r})", t.0),
            Expr::Local(slot) => format!("l[{}].clone()", slot.index()),
            Expr::Var { slot, code } => match code {
                Code::Int => format!("Value::Int(cx.state.ints[{slot}])"),
                Code::Bool => format!("Value::Bool(cx.state.ints[{slot}] != 0)"),
                Code::Player => format!("player(cx.state.ints[{slot}])"),
                Code::Row(t) => format!("row(TableId({}), cx.state.ints[{slot}])", t.0),
            },
            Expr::Arith { .. } | Expr::Neg(..) | Expr::ZoneLen(_) | Expr::ZoneCount(..) | Expr::PlayerCount | Expr::UnrolledTotal { .. } => {
                format!("Value::Int({})", self.int(e))
            }
            Expr::VarAtKey { code: Code::Int, .. } | Expr::VarAt { code: Code::Int, .. } => format!("Value::Int({})", self.int(e)),
            Expr::Compare { .. } | Expr::And(..) | Expr::Or(..) | Expr::Not(_) | Expr::IsNone { .. } | Expr::Same { .. } | Expr::UnrolledTest { .. } | Expr::ZoneContains(..) => {
                format!("Value::Bool({})", self.truth(e))
            }
            Expr::It if self.it => "it.clone()".to_string(),
            Expr::ColumnKey { values, .. } | Expr::Column { values, .. } if values.iter().all(|v| matches!(v, Value::Int(_))) => format!("Value::Int({})", self.int(e)),
            Expr::ColumnKey { values, key, .. } if values.iter().all(|v| matches!(v, Value::None | Value::Row(..))) => {
                let c = self.value_column(values);
                format!("column_value(&{c}, index({})?)?", self.key(*key))
            }
            Expr::ZoneFirst(z) => format!("{{ let z = {}; if cx.state.zones[z].is_empty() {{ Value::None }} else {{ cx.element(z, 0, {}) }} }}", self.instance(z), element(z.of)),
            Expr::ZoneLast(z) => format!("{{ let z = {}; let n = cx.state.zones[z].len(); if n == 0 {{ Value::None }} else {{ cx.element(z, n - 1, {}) }} }}", self.instance(z), element(z.of)),
            Expr::Call { op, args } => match self.builtin(*op, args) {
                Some(BuiltinCode::Value(v)) => v,
                Some(BuiltinCode::Int(n)) => format!("Value::Int({n})"),
                Some(BuiltinCode::Bool(b)) => format!("Value::Bool({b})"),
                None => self.walker("value", e),
            },
            _ => self.walker("value", e),
        }
    }
}

/// How an option group's element waits in the option list for the decision: as its
/// code (a zone's element, a row of a filtered table), as an index into the listing's
/// `values` (an element of a list the walker built), or not at all (no `for:`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kept {
    Element(Element),
    Listed,
    Nothing,
}

/// A built-in call generated in Rust, by the type of its value.
enum BuiltinCode {
    Int(String),
    Bool(String),
    Value(String),
}

/// A number as a Rust literal (the smallest has no literal of its own).
fn int_literal(n: i64) -> String {
    if n == i64::MIN {
        "i64::MIN".to_string()
    } else {
        format!("({n}i64)")
    }
}

/// Whether `e` reads local `slot`.
fn reads_local(e: &Expr, slot: usize) -> bool {
    matches!(e, Expr::Local(s) if s.index() == slot)
        || matches!(e, Expr::VarAtKey { key: Key::Local(s), .. } | Expr::ColumnKey { key: Key::Local(s), .. } if s.index() == slot)
        || e.children().into_iter().any(|c| reads_local(c, slot))
}

/// Whether a per-element argument's body can be generated with its element in a Rust
/// variable: it reads no enclosing element and no lifted value.
fn plain_body(e: &Expr) -> bool {
    !matches!(e, Expr::Outer(_) | Expr::Hoisted { .. } | Expr::With { .. })
        && e.children().into_iter().all(plain_body)
}

#[derive(Clone, Copy)]
enum ColumnKind {
    Int,
    Bool,
    Code,
}

fn element(of: Element) -> String {
    match of {
        Element::Player => "Element::Player".to_string(),
        Element::Row(t) => format!("Element::Row(TableId({}))", t.0),
    }
}
