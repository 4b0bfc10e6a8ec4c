//! Expressions as Rust, by the type wanted (`int`, `truth`, `code`, `value`), with the
//! reads they share (zone instances, indices, keys, columns as constants) and the call
//! into the walker for any node not generated.

use std::fmt::Write;

use super::builtin::BuiltinCode;
use super::{element, int_literal, Gen};
use crate::ir::{ArithOp, Code, Expr, Key, Quantifier, Total, ZoneRead};
use crate::value::Value;

impl<'g> Gen<'g> {
    /// The zone instance a read names (the walker's `ZoneRead::instance`).
    pub(super) fn instance(&mut self, z: &'g ZoneRead) -> String {
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
    pub(super) fn index(&mut self, e: &'g Expr) -> String {
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
            Key::Var(slot) => format!("stored_code(cx.state.ints()[{slot}])"),
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
                Value::Row(t, r) => format!("Value::Row(TableId::at({}), {r})", t.index()),
                _ => "Value::None".to_string(),
            })
            .collect();
        self.constant("COLUMN", "Value", &items)
    }

    /// A constant array of `items` of Rust type `ty`, named after `kind`: its name.
    pub(super) fn constant(&mut self, kind: &str, ty: &str, items: &[String]) -> String {
        let name = format!("{kind}_{}", self.constants.len());
        self.constants.push(format!(
            "\nconst {name}: [{ty}; {}] = [{}];\n",
            items.len(),
            items.join(", ")
        ));
        name
    }

    /// An expression whose value is a number, as Rust of type `i64`.
    pub(super) fn int(&mut self, e: &'g Expr) -> String {
        match e {
            Expr::Const(Value::Int(n)) => int_literal(*n),
            Expr::Var {
                slot,
                code: Code::Int,
            } => format!("cx.state.ints()[{slot}]"),
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

    /// An expression whose value is true or false, as Rust of type `bool`.
    pub(super) fn truth(&mut self, e: &'g Expr) -> String {
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
            } => format!("(cx.state.ints()[{slot}] != 0)"),
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
    pub(super) fn code(&mut self, e: &'g Expr) -> String {
        match e {
            Expr::Local(slot) => format!("code(&l[{}])", slot.index()),
            Expr::Var {
                slot,
                code: Code::Player | Code::Row(_),
            } => format!("stored_code(cx.state.ints()[{slot}])"),
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
    pub(super) fn value(&mut self, e: &'g Expr) -> String {
        match e {
            Expr::Const(Value::Int(n)) => format!("Value::Int({})", int_literal(*n)),
            Expr::Const(Value::Bool(b)) => format!("Value::Bool({b})"),
            Expr::Const(Value::None) => "Value::None".to_string(),
            Expr::Const(Value::Player(p)) => format!("Value::Player({p})"),
            Expr::Const(Value::Row(t, r)) => format!("Value::Row(TableId::at({}), {r})", t.index()),
            Expr::Local(slot) => format!("l[{}].clone()", slot.index()),
            Expr::Var { slot, code } => match code {
                Code::Int => format!("Value::Int(cx.state.ints()[{slot}])"),
                Code::Bool => format!("Value::Bool(cx.state.ints()[{slot}] != 0)"),
                Code::Player => format!("player(cx.state.ints()[{slot}])"),
                Code::Row(t) => format!("row(TableId::at({}), cx.state.ints()[{slot}])", t.index()),
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
            Expr::ZoneFirst(z) => format!("{{ let z = {}; if cx.state.zones()[z].is_empty() {{ Value::None }} else {{ cx.element(z, 0, {}) }} }}", self.instance(z), element(z.of)),
            Expr::ZoneLast(z) => format!("{{ let z = {}; let n = cx.state.zones()[z].len(); if n == 0 {{ Value::None }} else {{ cx.element(z, n - 1, {}) }} }}", self.instance(z), element(z.of)),
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

#[derive(Clone, Copy)]
enum ColumnKind {
    Int,
    Bool,
    Code,
}
