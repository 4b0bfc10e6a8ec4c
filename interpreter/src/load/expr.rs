//! Type-checks expression ASTs against the declared state and compiles them to closures.

use std::sync::Arc;

use frontier_grammar::expr::{BinaryOp, Expr, ExprKind, Name, UnaryOp};
use frontier_grammar::Span;

use super::board::BOARD_BUILTINS;
use crate::eval::{Env, Eval, RuntimeError};
use crate::machine::{as_bool, as_int, as_list, decode, decode_element, index_of};
use crate::model::{Domain, Element};
use crate::value::{TableId, Type, Value};

/// What expressions may name, known before any expression is compiled.
pub(crate) struct Decls {
    pub tables: Vec<TableDecl>,
    pub params: Vec<(String, i64)>,
    pub vars: Vec<VarDecl>,
    pub zones: Vec<ZoneDecl>,
    pub boards: Vec<BoardDecl>,
    pub script_functions: Vec<(String, usize)>,
    pub scripts: Option<Arc<crate::script::Scripts>>,
}

pub(crate) struct TableDecl {
    pub name: String,
    pub columns: Vec<(String, Type)>,
    pub row_ids: Vec<String>,
}

impl TableDecl {
    pub fn of(t: &crate::model::Table) -> TableDecl {
        TableDecl {
            name: t.name.clone(),
            columns: t.columns.iter().map(|c| (c.name.clone(), c.ty.clone())).collect(),
            row_ids: t.rows.iter().map(|r| r.id.clone()).collect(),
        }
    }
}

pub(crate) struct VarDecl {
    pub name: String,
    pub ty: Type,
    pub per: Domain,
    pub base: usize,
}

pub(crate) struct ZoneDecl {
    pub name: String,
    pub of: Element,
    pub per: Domain,
    pub base: usize,
}

pub(crate) struct BoardDecl {
    pub name: String,
    pub of: Element,
    pub per: Domain,
}

/// The locals visible where an expression stands (slot = position) and the type of `it`.
pub(crate) struct Scope<'a> {
    /// Visible locals: name, type, slot. Later entries shadow earlier ones.
    pub locals: &'a [(String, Type, u16)],
    pub it: Option<Type>,
}

#[derive(Debug, Clone)]
pub(crate) struct ExprError {
    pub span: Span,
    pub message: String,
}

pub(crate) struct Compiler<'a> {
    pub decls: &'a Decls,
    pub errors: Vec<ExprError>,
}

type Compiled = (Eval, Type);

const BUILTINS: &[&str] = &[
    "len", "count", "count_if", "sum", "min", "max", "first", "last", "take", "drop", "filter", "map", "sort_by",
    "reverse", "any", "all", "contains", "index_of", "range", "next_player", "abs", "concat", "text",
];

/// `name` or `name[index]` (how zones and boards are named): the name and the index.
pub(crate) fn name_and_index(e: &Expr) -> Option<(&Name, Option<&Expr>)> {
    match &e.kind {
        ExprKind::Name(n) => Some((n, None)),
        ExprKind::Index(base, index) => match &base.kind {
            ExprKind::Name(n) => Some((n, Some(&**index))),
            _ => None,
        },
        _ => None,
    }
}

pub(crate) fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(&name) || BOARD_BUILTINS.contains(&name)
}

fn constant(v: Value) -> Eval {
    Arc::new(move |_| Ok(v.clone()))
}

impl<'a> Compiler<'a> {
    pub fn new(decls: &'a Decls) -> Compiler<'a> {
        Compiler { decls, errors: Vec::new() }
    }

    pub(crate) fn report(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(ExprError { span, message: message.into() });
    }

    /// Reports an error and stands in for the faulty expression.
    pub(crate) fn error(&mut self, span: Span, message: impl Into<String>) -> Compiled {
        self.report(span, message);
        (constant(Value::None), Type::Any)
    }

    pub fn type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Int => "a number".into(),
            Type::Bool => "true/false".into(),
            Type::Str => "a text".into(),
            Type::Player => "a player".into(),
            Type::Pos => "a position".into(),
            Type::Row(t) => format!("a row of {}", self.decls.tables[*t as usize].name),
            Type::List(e) => format!("a list of {}", self.type_name(e).trim_start_matches("a ")),
            Type::None => "none".into(),
            Type::Any => "anything".into(),
        }
    }

    /// Compiles `expr`, requiring its type to be accepted by `want` (if given).
    pub fn expect(&mut self, expr: &Expr, scope: &Scope, want: &Type) -> Eval {
        let (eval, ty) = self.compile(expr, scope);
        if !want.accepts(&ty) {
            let message = format!("expected {}, found {}", self.type_name(want), self.type_name(&ty));
            self.report(expr.span, message);
        }
        eval
    }

    /// The index of an instance of a zone or board named in a statement or a built-in
    /// (`deck`, `town[p]`): none for a single one, else the compiled index. A missing or
    /// superfluous index is reported at `span`.
    pub(crate) fn instance_index(
        &mut self,
        span: Span,
        kind: &str,
        name: &str,
        per: Domain,
        index: Option<&Expr>,
        scope: &Scope,
    ) -> Option<Option<Eval>> {
        match (per, index) {
            (Domain::Global, None) => Some(None),
            (Domain::Global, Some(_)) => {
                self.report(span, format!("{kind} '{name}' is a single {kind}: it cannot be indexed"));
                None
            }
            (_, None) => {
                self.report(span, format!("{kind} '{name}' has one instance per index: write {name}[…]"));
                None
            }
            (per, Some(index)) => Some(Some(self.expect(index, scope, &per.index_type().unwrap_or(Type::Any)))),
        }
    }

    pub fn compile(&mut self, expr: &Expr, scope: &Scope) -> Compiled {
        match &expr.kind {
            ExprKind::Int(n) => (constant(Value::Int(*n)), Type::Int),
            ExprKind::Bool(b) => (constant(Value::Bool(*b)), Type::Bool),
            ExprKind::None => (constant(Value::None), Type::None),
            ExprKind::Str(s) => (constant(Value::Str(Arc::from(s.as_str()))), Type::Str),
            ExprKind::Name(name) => self.name(name, scope),
            ExprKind::Field(base, field) => self.field(base, field, scope),
            ExprKind::Index(base, index) => self.index(expr.span, base, index, scope),
            ExprKind::Call(name, args) => self.call(expr.span, name, args, scope),
            ExprKind::List(items) => self.list(expr.span, items, scope),
            ExprKind::Unary(op, operand) => self.unary(*op, operand, scope),
            ExprKind::Binary(op, a, b) => self.binary(expr.span, *op, a, b, scope),
            ExprKind::If(c, a, b) => {
                let c = self.expect(c, scope, &Type::Bool);
                let (a_eval, a_ty) = self.compile(a, scope);
                let (b_eval, b_ty) = self.compile(b, scope);
                let ty = self.unify(expr.span, &a_ty, &b_ty);
                let eval: Eval = Arc::new(move |env| if as_bool(&c(env)?)? { a_eval(env) } else { b_eval(env) });
                (eval, ty)
            }
        }
    }

    fn unify(&mut self, span: Span, a: &Type, b: &Type) -> Type {
        if a.accepts(b) && *a != Type::None && *a != Type::Any {
            a.clone()
        } else if b.accepts(a) {
            b.clone()
        } else {
            let message = format!("the two branches differ: {} and {}", self.type_name(a), self.type_name(b));
            self.report(span, message);
            Type::Any
        }
    }

    fn all_names(&self, scope: &Scope) -> Vec<String> {
        let d = self.decls;
        let mut names: Vec<String> = scope.locals.iter().map(|(n, _, _)| n.clone()).collect();
        names.extend(d.params.iter().map(|(n, _)| n.clone()));
        names.extend(d.vars.iter().map(|v| v.name.clone()));
        names.extend(d.zones.iter().map(|z| z.name.clone()));
        names.extend(d.boards.iter().map(|b| b.name.clone()));
        names.extend(d.tables.iter().map(|t| t.name.clone()));
        names.push("players".into());
        names
    }

    fn unknown(&mut self, name: &Name, what: &str, candidates: Vec<String>) -> Compiled {
        let hint = did_you_mean(&name.text, &candidates);
        self.error(name.span, format!("unknown {what} '{}'{hint}", name.text))
    }

    fn name(&mut self, name: &Name, scope: &Scope) -> Compiled {
        let text = name.text.as_str();
        if text == "it" {
            return match &scope.it {
                Some(ty) => (Arc::new(|env: &Env| Ok(env.it.clone())), ty.clone()),
                None => self.error(name.span, "'it' is only defined inside a per-element argument (filter, sort_by, …)"),
            };
        }
        if let Some((_, ty, slot)) = scope.locals.iter().rev().find(|(n, _, _)| n == text) {
            let (ty, slot) = (ty.clone(), *slot);
            return (Arc::new(move |env: &Env| Ok(env.local(slot).clone())), ty);
        }
        if let Some((_, v)) = self.decls.params.iter().find(|(n, _)| n == text) {
            return (constant(Value::Int(*v)), Type::Int);
        }
        if text == "players" {
            return (Arc::new(|env: &Env| Ok(players(env))), Type::List(Box::new(Type::Player)));
        }
        if let Some(var) = self.decls.vars.iter().find(|v| v.name == text) {
            if var.per != Domain::Global {
                let message = format!("'{text}' has one value per {}: write {text}[…]", self.domain_word(var.per));
                return self.error(name.span, message);
            }
            let (base, ty) = (var.base, var.ty.clone());
            let out_ty = ty.clone();
            return (Arc::new(move |env: &Env| Ok(decode(&ty, env.state.ints[base]))), out_ty);
        }
        if let Some(zone) = self.decls.zones.iter().find(|z| z.name == text) {
            if zone.per != Domain::Global {
                let message = format!("zone '{text}' has one instance per {}: write {text}[…]", self.domain_word(zone.per));
                return self.error(name.span, message);
            }
            return zone_reader(zone.base, zone.of, None);
        }
        if self.decls.boards.iter().any(|b| b.name == text) {
            return self.board_as_value(name.span, text);
        }
        if let Some(t) = self.decls.tables.iter().position(|t| t.name == text) {
            let t = t as TableId;
            let n = self.decls.tables[t as usize].row_ids.len() as u16;
            let rows = Value::list((0..n).map(|r| Value::Row(t, r)).collect());
            return (constant(rows), Type::List(Box::new(Type::Row(t))));
        }
        let candidates = self.all_names(scope);
        self.unknown(name, "name", candidates)
    }

    fn domain_word(&self, domain: Domain) -> String {
        match domain {
            Domain::Global => "game".into(),
            Domain::Players => "player".into(),
            Domain::Table(t) => format!("row of {}", self.decls.tables[t as usize].name),
        }
    }


    fn field(&mut self, base: &Expr, field: &Name, scope: &Scope) -> Compiled {
        let (base_eval, base_ty) = self.compile(base, scope);
        match base_ty {
            Type::Row(t) => {
                let table = &self.decls.tables[t as usize];
                if field.text == "id" {
                    return (
                        Arc::new(move |env: &Env| match base_eval(env)? {
                            Value::Row(t, r) => Ok(Value::Str(Arc::from(env.game.tables[t as usize].rows[r as usize].id.as_str()))),
                            _ => Err(RuntimeError::new("none has no id")),
                        }),
                        Type::Str,
                    );
                }
                let Some(c) = table.columns.iter().position(|(n, _)| *n == field.text) else {
                    let candidates = table.columns.iter().map(|(n, _)| n.clone()).collect();
                    let what = format!("column of {}", table.name);
                    return self.unknown(field, &what, candidates);
                };
                let ty = table.columns[c].1.clone();
                let name = field.text.clone();
                let eval: Eval = Arc::new(move |env: &Env| match base_eval(env)? {
                    Value::Row(t, r) => Ok(env.game.tables[t as usize].rows[r as usize].values[c].clone()),
                    _ => Err(RuntimeError::new(format!("none has no '{name}'"))),
                });
                (eval, ty)
            }
            Type::Player => {
                let Some(var) = self.decls.vars.iter().find(|v| v.name == field.text && v.per == Domain::Players) else {
                    let candidates =
                        self.decls.vars.iter().filter(|v| v.per == Domain::Players).map(|v| v.name.clone()).collect();
                    return self.unknown(field, "per-player variable", candidates);
                };
                let (base, ty) = (var.base, var.ty.clone());
                let out = ty.clone();
                let eval: Eval = Arc::new(move |env: &Env| match base_eval(env)? {
                    Value::Player(p) => Ok(decode(&ty, env.state.ints[base + p as usize])),
                    _ => Err(RuntimeError::new("none is not a player")),
                });
                (eval, out)
            }
            Type::Pos if field.text == "row" || field.text == "col" => {
                let row = field.text == "row";
                let eval: Eval = Arc::new(move |env: &Env| match base_eval(env)? {
                    Value::Pos(p) => Ok(Value::Int(if row { p.row } else { p.col } as i64)),
                    _ => Err(RuntimeError::new("none has no row or col")),
                });
                (eval, Type::Int)
            }
            Type::Any => (constant(Value::None), Type::Any),
            other => {
                let message = format!("{} has no fields ('.{}')", self.type_name(&other), field.text);
                self.error(field.span, message)
            }
        }
    }

    fn index(&mut self, span: Span, base: &Expr, index: &Expr, scope: &Scope) -> Compiled {
        if let ExprKind::Name(name) = &base.kind {
            let shadowed = scope.locals.iter().any(|(n, _, _)| *n == name.text) || name.text == "it";
            if !shadowed {
                if let Some(var) = self.decls.vars.iter().find(|v| v.name == name.text) {
                    if var.per == Domain::Global {
                        return self.error(name.span, format!("'{}' has a single value: it cannot be indexed", name.text));
                    }
                    let (base, ty, per) = (var.base, var.ty.clone(), var.per);
                    let want = per.index_type().unwrap_or(Type::None);
                    let index = self.expect(index, scope, &want);
                    let out = ty.clone();
                    let what = name.text.clone();
                    let eval: Eval = Arc::new(move |env: &Env| {
                        let i = index_of(&index(env)?, &what)?;
                        Ok(decode(&ty, env.state.ints[base + i]))
                    });
                    return (eval, out);
                }
                if let Some(zone) = self.decls.zones.iter().find(|z| z.name == name.text) {
                    if zone.per == Domain::Global {
                        return self.error(name.span, format!("zone '{}' is a single zone: it cannot be indexed", name.text));
                    }
                    let want = zone.per.index_type().unwrap_or(Type::None);
                    let (zbase, of) = (zone.base, zone.of);
                    let index = self.expect(index, scope, &want);
                    return zone_reader(zbase, of, Some((index, name.text.clone())));
                }
                if self.decls.boards.iter().any(|b| b.name == name.text) {
                    return self.board_as_value(name.span, &name.text);
                }
                if let Some(t) = self.decls.tables.iter().position(|t| t.name == name.text) {
                    let t = t as TableId;
                    if let ExprKind::Str(id) = &index.kind {
                        let table = &self.decls.tables[t as usize];
                        return match table.row_ids.iter().position(|r| r == id) {
                            Some(r) => (constant(Value::Row(t, r as u16)), Type::Row(t)),
                            None => {
                                let candidates = table.row_ids.clone();
                                let hint = did_you_mean(id, &candidates);
                                let message = format!("table {} has no row '{id}'{hint}", table.name);
                                self.error(index.span, message)
                            }
                        };
                    }
                }
            }
        }
        // A list indexed by position.
        let (base_eval, base_ty) = self.compile(base, scope);
        let index = self.expect(index, scope, &Type::Int);
        let elem = match base_ty {
            Type::List(e) => *e,
            Type::Any => Type::Any,
            other => {
                let message = format!("{} cannot be indexed", self.type_name(&other));
                return self.error(span, message);
            }
        };
        let eval: Eval = Arc::new(move |env: &Env| {
            let list = as_list(base_eval(env)?)?;
            let i = as_int(&index(env)?)?;
            usize::try_from(i)
                .ok()
                .and_then(|i| list.get(i).cloned())
                .ok_or_else(|| RuntimeError::new(format!("position {i} is outside a list of {}", list.len())))
        });
        (eval, elem)
    }

    fn list(&mut self, span: Span, items: &[Expr], scope: &Scope) -> Compiled {
        let mut evals = Vec::new();
        let mut ty = Type::Any;
        for item in items {
            let (e, t) = self.compile(item, scope);
            ty = if ty == Type::Any { t } else { self.unify(span, &ty, &t) };
            evals.push(e);
        }
        let eval: Eval = Arc::new(move |env: &Env| {
            Ok(Value::list(evals.iter().map(|e| e(env)).collect::<Result<Vec<_>, _>>()?))
        });
        (eval, Type::List(Box::new(ty)))
    }

    fn unary(&mut self, op: UnaryOp, operand: &Expr, scope: &Scope) -> Compiled {
        match op {
            UnaryOp::Neg => {
                let e = self.expect(operand, scope, &Type::Int);
                (Arc::new(move |env: &Env| Ok(Value::Int(as_int(&e(env)?)?.wrapping_neg()))), Type::Int)
            }
            UnaryOp::Not => {
                let e = self.expect(operand, scope, &Type::Bool);
                (Arc::new(move |env: &Env| Ok(Value::Bool(!as_bool(&e(env)?)?))), Type::Bool)
            }
        }
    }

    fn binary(&mut self, span: Span, op: BinaryOp, a: &Expr, b: &Expr, scope: &Scope) -> Compiled {
        use BinaryOp::*;
        match op {
            And | Or => {
                let a = self.expect(a, scope, &Type::Bool);
                let b = self.expect(b, scope, &Type::Bool);
                let eval: Eval = if op == And {
                    Arc::new(move |env: &Env| Ok(Value::Bool(as_bool(&a(env)?)? && as_bool(&b(env)?)?)))
                } else {
                    Arc::new(move |env: &Env| Ok(Value::Bool(as_bool(&a(env)?)? || as_bool(&b(env)?)?)))
                };
                (eval, Type::Bool)
            }
            Add | Sub | Mul | Div | Rem => {
                let a = self.expect(a, scope, &Type::Int);
                let b = self.expect(b, scope, &Type::Int);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let (x, y) = (as_int(&a(env)?)?, as_int(&b(env)?)?);
                    let r = match op {
                        Add => x.checked_add(y),
                        Sub => x.checked_sub(y),
                        Mul => x.checked_mul(y),
                        // Division rounds down (toward minus infinity), as rulebooks do.
                        Div => (y != 0).then(|| x.div_euclid(y)),
                        _ => (y != 0).then(|| x.rem_euclid(y)),
                    };
                    r.map(Value::Int).ok_or_else(|| RuntimeError::new(format!("{x} {} {y} has no value", op.symbol())))
                });
                (eval, Type::Int)
            }
            Lt | Le | Gt | Ge => {
                let a = self.expect(a, scope, &Type::Int);
                let b = self.expect(b, scope, &Type::Int);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let (x, y) = (as_int(&a(env)?)?, as_int(&b(env)?)?);
                    Ok(Value::Bool(match op {
                        Lt => x < y,
                        Le => x <= y,
                        Gt => x > y,
                        _ => x >= y,
                    }))
                });
                (eval, Type::Bool)
            }
            Eq | Ne => {
                let (a_eval, a_ty) = self.compile(a, scope);
                let (b_eval, b_ty) = self.compile(b, scope);
                if !a_ty.accepts(&b_ty) && !b_ty.accepts(&a_ty) {
                    let message = format!("cannot compare {} with {}", self.type_name(&a_ty), self.type_name(&b_ty));
                    return self.error(span, message);
                }
                let eq = op == Eq;
                (Arc::new(move |env: &Env| Ok(Value::Bool((a_eval(env)? == b_eval(env)?) == eq))), Type::Bool)
            }
            In => {
                let (a_eval, a_ty) = self.compile(a, scope);
                let (b_eval, b_ty) = self.compile(b, scope);
                match &b_ty {
                    Type::List(e) if !e.accepts(&a_ty) => {
                        let message = format!("{} can never be in {}", self.type_name(&a_ty), self.type_name(&b_ty));
                        return self.error(span, message);
                    }
                    Type::List(_) | Type::Any => {}
                    other => {
                        let message = format!("'in' needs a list on its right, found {}", self.type_name(other));
                        return self.error(span, message);
                    }
                }
                let eval: Eval = Arc::new(move |env: &Env| {
                    let x = a_eval(env)?;
                    Ok(Value::Bool(as_list(b_eval(env)?)?.contains(&x)))
                });
                (eval, Type::Bool)
            }
        }
    }

    pub(crate) fn arity(&mut self, span: Span, name: &str, args: &[Expr], allowed: &[usize]) -> bool {
        if allowed.contains(&args.len()) {
            return true;
        }
        let want: Vec<String> = allowed.iter().map(|n| n.to_string()).collect();
        self.report(span, format!("{name} takes {} argument(s), not {}", want.join(" or "), args.len()));
        false
    }

    /// Compiles a list argument and returns its element type.
    fn list_arg(&mut self, arg: &Expr, scope: &Scope) -> (Eval, Type) {
        let (eval, ty) = self.compile(arg, scope);
        match ty {
            Type::List(e) => (eval, *e),
            Type::Any => (eval, Type::Any),
            other => {
                let message = format!("expected a list, found {}", self.type_name(&other));
                self.report(arg.span, message);
                (eval, Type::Any)
            }
        }
    }

    /// Compiles a per-element argument: `it` is the element.
    fn per_element(&mut self, arg: &Expr, scope: &Scope, elem: &Type) -> Compiled {
        let inner = Scope { locals: scope.locals, it: Some(elem.clone()) };
        self.compile(arg, &inner)
    }

    fn call(&mut self, span: Span, name: &Name, args: &[Expr], scope: &Scope) -> Compiled {
        let f = name.text.as_str();
        if BOARD_BUILTINS.contains(&f) {
            return self.board_call(span, f, args, scope);
        }
        if !BUILTINS.contains(&f) {
            return self.script_call(span, name, args, scope);
        }
        if let Some(compiled) = self.zone_in_place(f, args, scope) {
            return compiled;
        }
        match f {
            "len" | "first" | "last" | "reverse" => {
                if !self.arity(span, f, args, &[1]) {
                    return (constant(Value::None), Type::Any);
                }
                let (list, elem) = self.list_arg(&args[0], scope);
                match f {
                    "len" => (Arc::new(move |env: &Env| Ok(Value::Int(as_list(list(env)?)?.len() as i64))), Type::Int),
                    "first" => (Arc::new(move |env: &Env| Ok(as_list(list(env)?)?.first().cloned().unwrap_or_default())), elem),
                    "last" => (Arc::new(move |env: &Env| Ok(as_list(list(env)?)?.last().cloned().unwrap_or_default())), elem),
                    _ => {
                        let eval: Eval = Arc::new(move |env: &Env| {
                            let mut items = as_list(list(env)?)?.to_vec();
                            items.reverse();
                            Ok(Value::list(items))
                        });
                        (eval, Type::List(Box::new(elem)))
                    }
                }
            }
            "count" => {
                if !self.arity(span, f, args, &[1, 2]) {
                    return (constant(Value::None), Type::Any);
                }
                let (list, elem) = self.list_arg(&args[0], scope);
                if args.len() == 1 {
                    return (Arc::new(move |env: &Env| Ok(Value::Int(as_list(list(env)?)?.len() as i64))), Type::Int);
                }
                let x = self.expect(&args[1], scope, &elem);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let x = x(env)?;
                    Ok(Value::Int(as_list(list(env)?)?.iter().filter(|v| **v == x).count() as i64))
                });
                (eval, Type::Int)
            }
            "count_if" | "filter" | "any" | "all" => {
                if !self.arity(span, f, args, &[2]) {
                    return (constant(Value::None), Type::Any);
                }
                let (list, elem) = self.list_arg(&args[0], scope);
                let (pred, pred_ty) = self.per_element(&args[1], scope, &elem);
                if !Type::Bool.accepts(&pred_ty) {
                    let message = format!("the condition of {f} must be true/false, found {}", self.type_name(&pred_ty));
                    self.report(args[1].span, message);
                }
                let test = move |env: &Env, v: &Value| -> Result<bool, RuntimeError> { as_bool(&pred(&env.with_it(v))?) };
                match f {
                    "count_if" => (
                        Arc::new(move |env: &Env| {
                            let mut n = 0;
                            for v in as_list(list(env)?)?.iter() {
                                n += test(env, v)? as i64;
                            }
                            Ok(Value::Int(n))
                        }),
                        Type::Int,
                    ),
                    "filter" => (
                        Arc::new(move |env: &Env| {
                            let mut out = Vec::new();
                            for v in as_list(list(env)?)?.iter() {
                                if test(env, v)? {
                                    out.push(v.clone());
                                }
                            }
                            Ok(Value::list(out))
                        }),
                        Type::List(Box::new(elem)),
                    ),
                    "any" => (
                        Arc::new(move |env: &Env| {
                            for v in as_list(list(env)?)?.iter() {
                                if test(env, v)? {
                                    return Ok(Value::Bool(true));
                                }
                            }
                            Ok(Value::Bool(false))
                        }),
                        Type::Bool,
                    ),
                    _ => (
                        Arc::new(move |env: &Env| {
                            for v in as_list(list(env)?)?.iter() {
                                if !test(env, v)? {
                                    return Ok(Value::Bool(false));
                                }
                            }
                            Ok(Value::Bool(true))
                        }),
                        Type::Bool,
                    ),
                }
            }
            "map" => {
                if !self.arity(span, f, args, &[2]) {
                    return (constant(Value::None), Type::Any);
                }
                let (list, elem) = self.list_arg(&args[0], scope);
                let (g, out) = self.per_element(&args[1], scope, &elem);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let items = as_list(list(env)?)?;
                    Ok(Value::list(items.iter().map(|v| g(&env.with_it(v))).collect::<Result<Vec<_>, _>>()?))
                });
                (eval, Type::List(Box::new(out)))
            }
            "sort_by" => {
                if !self.arity(span, f, args, &[2]) {
                    return (constant(Value::None), Type::Any);
                }
                let (list, elem) = self.list_arg(&args[0], scope);
                let (key, key_ty) = self.per_element(&args[1], scope, &elem);
                if !Type::Int.accepts(&key_ty) {
                    let message = format!("sort_by needs a number as key, found {}", self.type_name(&key_ty));
                    self.report(args[1].span, message);
                }
                let eval: Eval = Arc::new(move |env: &Env| {
                    let items = as_list(list(env)?)?;
                    let mut keyed = Vec::with_capacity(items.len());
                    for v in items.iter() {
                        keyed.push((as_int(&key(&env.with_it(v))?)?, v.clone()));
                    }
                    // Stable: equal keys keep their order (rulebooks break ties by position).
                    keyed.sort_by_key(|(k, _)| *k);
                    Ok(Value::list(keyed.into_iter().map(|(_, v)| v).collect()))
                });
                (eval, Type::List(Box::new(elem)))
            }
            "sum" => {
                if !self.arity(span, f, args, &[1, 2]) {
                    return (constant(Value::None), Type::Any);
                }
                let (list, elem) = self.list_arg(&args[0], scope);
                if args.len() == 1 {
                    if !Type::Int.accepts(&elem) {
                        let message = format!("sum needs numbers, found {}", self.type_name(&elem));
                        self.report(args[0].span, message);
                    }
                    let eval: Eval = Arc::new(move |env: &Env| {
                        let mut total = 0i64;
                        for v in as_list(list(env)?)?.iter() {
                            total = total.saturating_add(as_int(v)?);
                        }
                        Ok(Value::Int(total))
                    });
                    return (eval, Type::Int);
                }
                let (key, key_ty) = self.per_element(&args[1], scope, &elem);
                if !Type::Int.accepts(&key_ty) {
                    let message = format!("sum needs a number per element, found {}", self.type_name(&key_ty));
                    self.report(args[1].span, message);
                }
                let eval: Eval = Arc::new(move |env: &Env| {
                    let mut total = 0i64;
                    for v in as_list(list(env)?)?.iter() {
                        total = total.saturating_add(as_int(&key(&env.with_it(v))?)?);
                    }
                    Ok(Value::Int(total))
                });
                (eval, Type::Int)
            }
            "min" | "max" => {
                if args.is_empty() {
                    return self.error(span, format!("{f} needs a list or at least two numbers"));
                }
                let is_max = f == "max";
                let pick = move |values: &mut dyn Iterator<Item = Result<i64, RuntimeError>>| -> Result<Value, RuntimeError> {
                    let mut best: Option<i64> = None;
                    for v in values {
                        let v = v?;
                        best = Some(match best {
                            None => v,
                            Some(b) if is_max => b.max(v),
                            Some(b) => b.min(v),
                        });
                    }
                    Ok(best.map(Value::Int).unwrap_or(Value::Int(0)))
                };
                if args.len() == 1 {
                    let (list, elem) = self.list_arg(&args[0], scope);
                    if !Type::Int.accepts(&elem) {
                        let message = format!("{f} needs numbers, found {}", self.type_name(&elem));
                        self.report(args[0].span, message);
                    }
                    let eval: Eval = Arc::new(move |env: &Env| {
                        let items = as_list(list(env)?)?;
                        pick(&mut items.iter().map(as_int))
                    });
                    return (eval, Type::Int);
                }
                let parts: Vec<Eval> = args.iter().map(|a| self.expect(a, scope, &Type::Int)).collect();
                let eval: Eval = Arc::new(move |env: &Env| pick(&mut parts.iter().map(|p| as_int(&p(env)?))));
                (eval, Type::Int)
            }
            "take" | "drop" => {
                if !self.arity(span, f, args, &[2]) {
                    return (constant(Value::None), Type::Any);
                }
                let (list, elem) = self.list_arg(&args[0], scope);
                let n = self.expect(&args[1], scope, &Type::Int);
                let take = f == "take";
                let eval: Eval = Arc::new(move |env: &Env| {
                    let items = as_list(list(env)?)?;
                    let n = (as_int(&n(env)?)?.max(0) as usize).min(items.len());
                    Ok(Value::list(if take { items[..n].to_vec() } else { items[n..].to_vec() }))
                });
                (eval, Type::List(Box::new(elem)))
            }
            "contains" | "index_of" => {
                if !self.arity(span, f, args, &[2]) {
                    return (constant(Value::None), Type::Any);
                }
                let (list, elem) = self.list_arg(&args[0], scope);
                let x = self.expect(&args[1], scope, &elem);
                if f == "contains" {
                    let eval: Eval = Arc::new(move |env: &Env| {
                        let x = x(env)?;
                        Ok(Value::Bool(as_list(list(env)?)?.contains(&x)))
                    });
                    return (eval, Type::Bool);
                }
                let eval: Eval = Arc::new(move |env: &Env| {
                    let x = x(env)?;
                    Ok(Value::Int(as_list(list(env)?)?.iter().position(|v| *v == x).map_or(-1, |i| i as i64)))
                });
                (eval, Type::Int)
            }
            "concat" => {
                if !self.arity(span, f, args, &[2]) {
                    return (constant(Value::None), Type::Any);
                }
                let (a, a_elem) = self.list_arg(&args[0], scope);
                let (b, b_elem) = self.list_arg(&args[1], scope);
                let elem = self.unify(span, &a_elem, &b_elem);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let mut items = as_list(a(env)?)?.to_vec();
                    items.extend(as_list(b(env)?)?.iter().cloned());
                    Ok(Value::list(items))
                });
                (eval, Type::List(Box::new(elem)))
            }
            "range" => {
                if !self.arity(span, f, args, &[2]) {
                    return (constant(Value::None), Type::Any);
                }
                let lo = self.expect(&args[0], scope, &Type::Int);
                let hi = self.expect(&args[1], scope, &Type::Int);
                let eval: Eval = Arc::new(move |env: &Env| {
                    let (lo, hi) = (as_int(&lo(env)?)?, as_int(&hi(env)?)?);
                    if hi.saturating_sub(lo) > 100_000 {
                        return Err(RuntimeError::new(format!("range({lo}, {hi}) is too long")));
                    }
                    Ok(Value::list((lo..=hi).map(Value::Int).collect()))
                });
                (eval, Type::List(Box::new(Type::Int)))
            }
            "text" => {
                // Any number of values of any type, written as a template writes them
                // (players by name, rows by id, lists space-separated) and joined.
                if args.is_empty() {
                    return self.error(span, "text needs at least one value");
                }
                let parts: Vec<Eval> = args.iter().map(|a| self.compile(a, scope).0).collect();
                let eval: Eval = Arc::new(move |env: &Env| {
                    let mut out = String::new();
                    for part in &parts {
                        let v = part(env)?;
                        env.game.write_value(&mut out, &v, &env.state.names);
                    }
                    Ok(Value::Str(Arc::from(out.as_str())))
                });
                (eval, Type::Str)
            }
            "next_player" => {
                if !self.arity(span, f, args, &[1]) {
                    return (constant(Value::None), Type::Any);
                }
                let p = self.expect(&args[0], scope, &Type::Player);
                let eval: Eval = Arc::new(move |env: &Env| match p(env)? {
                    Value::Player(p) => Ok(Value::Player(((p as usize + 1) % env.state.names.len()) as u8)),
                    _ => Err(RuntimeError::new("next_player(none)")),
                });
                (eval, Type::Player)
            }
            _ => {
                // abs
                if !self.arity(span, f, args, &[1]) {
                    return (constant(Value::None), Type::Any);
                }
                let x = self.expect(&args[0], scope, &Type::Int);
                (Arc::new(move |env: &Env| Ok(Value::Int(as_int(&x(env)?)?.saturating_abs()))), Type::Int)
            }
        }
    }

    fn script_call(&mut self, span: Span, name: &Name, args: &[Expr], scope: &Scope) -> Compiled {
        let found = self.decls.script_functions.iter().find(|(n, _)| *n == name.text).cloned();
        let (Some((_, arity)), Some(scripts)) = (found, self.decls.scripts.clone()) else {
            let mut candidates: Vec<String> = BUILTINS.iter().chain(BOARD_BUILTINS).map(|s| s.to_string()).collect();
            candidates.extend(self.decls.script_functions.iter().map(|(n, _)| n.clone()));
            return self.unknown(name, "function", candidates);
        };
        if arity != args.len() {
            return self.error(span, format!("script function {} takes {arity} argument(s), not {}", name.text, args.len()));
        }
        let evals: Vec<Eval> = args.iter().map(|a| self.compile(a, scope).0).collect();
        let fname = name.text.clone();
        let eval: Eval = Arc::new(move |env: &Env| {
            let values = evals.iter().map(|e| e(env)).collect::<Result<Vec<_>, _>>()?;
            scripts.call(env, &fname, values)
        });
        (eval, Type::Any)
    }
}

fn players(env: &Env) -> Value {
    Value::list((0..env.state.names.len()).map(|p| Value::Player(p as u8)).collect())
}

fn zone_reader(base: usize, of: Element, index: Option<(Eval, String)>) -> Compiled {
    let elem_ty = of.value_type();
    let eval: Eval = Arc::new(move |env: &Env| {
        let i = match &index {
            Some((index, what)) => index_of(&index(env)?, what)?,
            None => 0,
        };
        let zone = &env.state.zones[base + i];
        Ok(Value::list(zone.iter().map(|e| decode_element(of, *e)).collect()))
    });
    (eval, Type::List(Box::new(elem_ty)))
}

/// " (did you mean 'x'?)" when a candidate is close to `word`, else nothing.
pub(crate) fn did_you_mean(word: &str, candidates: &[String]) -> String {
    closest(word, candidates).map(|c| format!(" (did you mean '{c}'?)")).unwrap_or_default()
}

/// The candidate closest to `word` by edit distance, if close enough to be a likely typo.
pub(crate) fn closest(word: &str, candidates: &[String]) -> Option<String> {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.clone())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + (ca != *cb) as usize).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

impl Decls {
    /// The declarations of a loaded game, to compile expressions against it later
    /// (trace assertions).
    pub(crate) fn from_game(game: &crate::model::Game) -> Decls {
        Decls {
            tables: game.tables.iter().map(TableDecl::of).collect(),
            params: game.params.iter().map(|p| (p.name.clone(), p.value)).collect(),
            vars: game.vars.iter().map(|v| VarDecl { name: v.name.clone(), ty: v.ty.clone(), per: v.per, base: v.base }).collect(),
            zones: game.zones.iter().map(|z| ZoneDecl { name: z.name.clone(), of: z.of, per: z.per, base: z.base }).collect(),
            boards: game.boards.iter().map(|b| BoardDecl { name: b.name.clone(), of: b.of, per: b.per }).collect(),
            script_functions: game.scripts.as_ref().map(|s| s.functions()).unwrap_or_default(),
            scripts: game.scripts.clone(),
        }
    }
}

/// `candidates` sorted by edit distance to `word` (stable: equal distances keep their order).
pub(crate) fn closest_first(word: &str, mut candidates: Vec<String>) -> Vec<String> {
    candidates.sort_by_key(|c| edit_distance(word, c));
    candidates
}
