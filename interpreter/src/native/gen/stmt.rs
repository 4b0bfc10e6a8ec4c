//! Statements as Rust: assignments, moves, draws, branches and loops, each as the
//! walker runs it; `choose` is in `choose.rs`.

use std::fmt::Write;

use super::{element, indent, Gen};
use crate::id::VarId;
use crate::ir::{Expr, Op, ZoneRead};
use crate::model::{AssignMode, Draw, MoveAt, MoveWhat, Place, RemoveWhat, StmtKind};

impl<'g> Gen<'g> {
    pub(super) fn stmt(
        &mut self,
        kind: &'g StmtKind,
        origin: &str,
        depth: usize,
    ) -> Result<String, String> {
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
            } => self.assign_var(var, index, value, mode, &i),
            StmtKind::Move {
                from,
                to,
                what,
                at: MoveAt::Bottom,
            } => self.move_to_bottom(from, to, what, &i),
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
            StmtKind::Draw(draw) => self.draw(draw, &i),
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

    /// `target = value` or `+=` on a state variable, through its slot (the walker's
    /// `Place::Var`): the index is checked against the variable's domain.
    fn assign_var(
        &mut self,
        var: &VarId,
        index: &'g Option<Expr>,
        value: &'g Expr,
        mode: &AssignMode,
        i: &str,
    ) -> String {
        let decl = &self.game.vars[var.index()];
        let len = self.game.domain_len(decl.per);
        let slot = match index {
            Some(index) => format!(
                "{{ let k = {}; if k >= {len} {{ return Err(Stop::Bail); }} {} + k as usize }}",
                self.index(index),
                decl.base
            ),
            None => format!("{}", decl.base),
        };
        let value = match (mode, &decl.ty) {
            (AssignMode::Add, _) => format!("add(cx.state.ints()[s], {})?", self.int(value)),
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
        format!("{i}{{ let s = {slot}; let n = {value}; cx.state.ints_mut()[s] = n; }}\n")
    }

    /// A move to the bottom of a zone: one element, the top `n`, or all.
    fn move_to_bottom(
        &mut self,
        from: &'g ZoneRead,
        to: &'g ZoneRead,
        what: &'g MoveWhat,
        i: &str,
    ) -> String {
        let (f, t) = (self.instance(from), self.instance(to));
        match what {
            MoveWhat::Item(item) => {
                format!(
                    "{i}{{ let f = {f}; let t = {t}; let v = {}; cx.move_item(f, t, {}, &v)?; }}\n",
                    self.value(item),
                    element(from.of)
                )
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

    /// A draw, as the walker's `draw`: the instances are read again every round; a
    /// refilled pile's shuffle is a step, after which the statement runs again.
    fn draw(&mut self, draw: &'g Draw, i: &str) -> String {
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
                    "{i}        if !refilled && cx.state.zones()[source].is_empty() {{"
                );
                let _ = writeln!(s, "{i}            let pile = {pile};\n{i}            cx.move_all(pile, source);\n{i}            source = {from};");
                let _ = writeln!(s, "{i}            if cx.state.zones()[source].len() > 1 {{\n{i}                cx.shuffle(source)?;\n{i}                cx.tick()?;\n{i}                refilled = true;\n{i}                continue;\n{i}            }}\n{i}        }}");
                format!("!cx.state.zones()[{}].is_empty()", self.instance(refill))
            }
            None => "false".to_string(),
        };
        let _ = writeln!(
            s,
            "{i}        refilled = false;\n{i}        if cx.state.zones()[source].is_empty() {{"
        );
        let _ = writeln!(
            s,
            "{i}            if !({refillable}) {{ break; }}\n{i}        }} else {{"
        );
        let _ = writeln!(s, "{i}            let target = {to};\n{i}            cx.move_one(source, target);\n{i}        }}");
        let _ = writeln!(s, "{i}        rounds -= 1;\n{i}    }}\n{i}}}");
        s
    }

    /// The head of a loop that puts each element of `list` in local `slot`, as the
    /// walker's `for_each:` does: over the list as it was when the loop began (the
    /// players and a range are counted; other lists are built, a zone copied).
    fn loop_head(&mut self, list: &'g Expr, slot: usize, depth: usize) -> String {
        let i = indent(depth);
        match list {
            Expr::Players => format!("{i}for p in 0..cx.state.names().len() {{\n{i}    l[{slot}] = Value::Player(p as u8);\n"),
            Expr::Call { op: Op::Range, args } if args.len() == 2 => {
                let (lo, hi) = (self.int(&args[0]), self.int(&args[1]));
                let mut s = format!("{i}let (lo, hi) = ({lo}, {hi});\n{i}if hi.saturating_sub(lo) > {} {{ return Err(Stop::Bail); }}\n", crate::builtins::MAX_RANGE);
                let _ = writeln!(s, "{i}for k in lo..=hi {{\n{i}    l[{slot}] = Value::Int(k);");
                s
            }
            _ => format!("{i}for item in as_list({})?.iter() {{\n{i}    l[{slot}] = item.clone();\n", self.value(list)),
        }
    }
}
