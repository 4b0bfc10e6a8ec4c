//! Type-checks expression ASTs against the declared state and lowers them to the IR
//! ([`crate::ir::Expr`]). Built-in calls are checked and lowered by their entry in the
//! registry ([`crate::builtins`]); this folder handles names, operators and fields.
//!
//! This file holds the [`Compiler`] and what every node needs (types expected and
//! unified, errors, per-element arguments); `decls.rs` what expressions may name,
//! `names.rs` names, rows, fields and indexes, `operators.rs` lists and operators,
//! `calls.rs` calls of built-ins, ruleset functions and script functions.

mod calls;
mod decls;
mod names;
mod operators;

use std::sync::Arc;

use frontier_grammar::expr::{Expr as Ast, ExprKind, Name};
use frontier_grammar::Span;

use crate::ir::Expr;
use crate::model::Domain;
use crate::value::{Type, Value};
pub(crate) use decls::{
    blanks, BoardDecl, Declared, Decls, FunctionSig, Named, TableDecl, VarDecl, ZoneDecl,
    BUILT_IN_NAMES,
};

/// The locals visible where an expression stands (slot = position) and the type of `it`.
pub(crate) struct Scope<'a> {
    /// Visible locals: name, type, slot. Later entries shadow earlier ones.
    pub locals: &'a [(String, Type, u16)],
    pub it: Option<Type>,
}

impl Scope<'_> {
    /// Whether a local (or `it`) hides a declaration of this name.
    pub fn hides(&self, name: &str) -> bool {
        name == "it" || self.locals.iter().any(|(n, _, _)| n == name)
    }
}

#[derive(Debug, Clone)]
pub(crate) struct ExprError {
    pub span: Span,
    pub message: String,
}

pub(crate) struct Compiler<'a> {
    pub decls: &'a Decls,
    pub errors: Vec<ExprError>,
    /// The expression's source text, so that runtime errors can quote the part at fault.
    source: Option<&'a str>,
    /// The parameters of the function whose body is being compiled (none elsewhere).
    function_params: &'a [(String, Type)],
    /// The per-element arguments and `let`s being compiled, innermost last: the name a
    /// lambda gives its element (`x => …`) or a `let` its value, if any, the type, and
    /// which of the two it is. Each is one level of elements at run time.
    lambdas: Vec<(Option<String>, Type, Level)>,
}

/// What binds a level of elements while an expression is evaluated.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// A per-element argument: `it` is its element.
    Element,
    /// A `let`: its value has a name, and `it` stays what it was outside.
    Let,
}

pub(crate) use crate::builtins::Compiled;

/// How deep per-element arguments may nest (each level is an `Outer` step at run time).
const MAX_LAMBDA_DEPTH: usize = 16;

/// `name`, `name[index]` or `name[i, j]` (how zones and boards are named): the name and
/// its indexes in order (`name[i, j]` and `name[i][j]` are the same tree).
pub(crate) fn name_and_indexes(e: &Ast) -> Option<(&Name, Vec<&Ast>)> {
    let mut indexes = Vec::new();
    let mut node = e;
    loop {
        match &node.kind {
            ExprKind::Name(n) => {
                indexes.reverse();
                return Some((n, indexes));
            }
            ExprKind::Index(base, index) => {
                indexes.push(&**index);
                node = base;
            }
            _ => return None,
        }
    }
}

/// What `'it'` undefined is reported as; the loader adds to it where `it` is undefined on
/// purpose (the init of a two-key declaration).
pub(crate) const IT_UNDEFINED: &str =
    "'it' is only defined inside a per-element argument (filter, sort_by, …)";

/// How a state slot of this type stores its value.
impl<'a> Compiler<'a> {
    pub fn new(decls: &'a Decls) -> Compiler<'a> {
        Compiler {
            decls,
            errors: Vec::new(),
            source: None,
            function_params: &[],
            lambdas: Vec::new(),
        }
    }

    /// A compiler that knows the source text of what it compiles.
    pub fn with_source(decls: &'a Decls, source: &'a str) -> Compiler<'a> {
        Compiler {
            decls,
            errors: Vec::new(),
            source: Some(source),
            function_params: &[],
            lambdas: Vec::new(),
        }
    }

    /// A compiler for the body of a function with these parameters.
    pub fn for_function(
        decls: &'a Decls,
        source: &'a str,
        params: &'a [(String, Type)],
    ) -> Compiler<'a> {
        Compiler {
            decls,
            errors: Vec::new(),
            source: Some(source),
            function_params: params,
            lambdas: Vec::new(),
        }
    }

    /// Whether a local, `it` or a parameter of the function being compiled hides a
    /// declaration of this name.
    fn hides(&self, scope: &Scope, name: &str) -> bool {
        scope.hides(name)
            || self.function_params.iter().any(|(n, _)| n == name)
            || self
                .lambdas
                .iter()
                .any(|(n, _, _)| n.as_deref() == Some(name))
    }

    pub(crate) fn report(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(ExprError {
            span,
            message: message.into(),
        });
    }

    /// Reports an error and stands in for the faulty expression.
    pub(crate) fn error(&mut self, span: Span, message: impl Into<String>) -> Compiled {
        self.report(span, message);
        nothing()
    }

    /// The text of a node, for runtime messages.
    fn text(&self, span: Span) -> Arc<str> {
        Arc::from(
            self.source
                .and_then(|s| s.get(span.start..span.end))
                .unwrap_or("?"),
        )
    }

    pub fn type_name(&self, ty: &Type) -> String {
        type_name(self.decls, ty)
    }

    /// Compiles `expr`, requiring its type to be accepted by `want` (if given).
    pub fn expect(&mut self, expr: &Ast, scope: &Scope, want: &Type) -> Expr {
        let (eval, ty) = self.compile(expr, scope);
        if !want.accepts(&ty) {
            let message = format!(
                "expected {}, found {}",
                self.type_name(want),
                self.type_name(&ty)
            );
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
        indexes: &[&Ast],
        scope: &Scope,
    ) -> Option<Option<Box<Expr>>> {
        let keys = per.keys().len();
        match (per, indexes.len()) {
            (Domain::Global, 0) => Some(None),
            (Domain::Global, _) => {
                self.report(
                    span,
                    format!("{kind} '{name}' is a single {kind}: it cannot be indexed"),
                );
                None
            }
            (Domain::Players | Domain::Table(_), 0) => {
                self.report(
                    span,
                    format!("{kind} '{name}' has one instance per index: write {name}[…]"),
                );
                None
            }
            (_, n) if n == keys => Some(Some(self.keyed_index(per, indexes, scope))),
            _ => {
                let message = self.keys_message(&format!("{kind} '{name}'"), name, per);
                self.report(span, message);
                None
            }
        }
    }

    /// The index of an entry of a declaration with keys, from as many indexes as it has
    /// keys, each checked against its key.
    pub(crate) fn keyed_index(
        &mut self,
        per: Domain,
        indexes: &[&Ast],
        scope: &Scope,
    ) -> Box<Expr> {
        let parts = per
            .keys()
            .iter()
            .zip(indexes)
            .map(|(key, index)| self.expect(index, scope, &key.index_type()))
            .collect();
        self.decls.key_index(per, parts).boxed()
    }

    pub(crate) fn keys_message(&self, what: &str, name: &str, per: Domain) -> String {
        self.decls.keys_message(what, name, per)
    }

    pub fn compile(&mut self, expr: &Ast, scope: &Scope) -> Compiled {
        match &expr.kind {
            ExprKind::Int(n) => (Expr::Const(Value::Int(*n)), Type::Int),
            ExprKind::Bool(b) => (Expr::Const(Value::Bool(*b)), Type::Bool),
            ExprKind::None => (Expr::Const(Value::None), Type::None),
            ExprKind::Str(s) => (Expr::Const(Value::Str(Arc::from(s.as_str()))), Type::Str),
            ExprKind::Name(name) => self.name(name, scope),
            ExprKind::Field(base, field) => self.field(base, field, scope),
            ExprKind::Index(base, index) => self.index(expr.span, base, index, scope),
            ExprKind::Call(name, args) => self.call(expr.span, name, args, scope),
            ExprKind::List(items) => self.list(expr.span, items, scope),
            ExprKind::Unary(op, operand) => self.unary(expr.span, *op, operand, scope),
            ExprKind::Binary(op, a, b) => self.binary(expr.span, *op, a, b, scope),
            ExprKind::Row(table, id) => self.row(table.as_ref(), id),
            ExprKind::Let(name, value, body) => self.binding(name, value, body, scope),
            ExprKind::Lambda(..) => self.error(
                expr.span,
                "a lambda (x => …) stands only as the per-element argument of a built-in (filter, map, sort_by, …)",
            ),
            ExprKind::If(c, a, b) => {
                let cond = self.expect(c, scope, &Type::Bool).boxed();
                let (then, a_ty) = self.compile(a, scope);
                let (otherwise, b_ty) = self.compile(b, scope);
                let ty = self.unify(expr.span, &a_ty, &b_ty, "the two branches differ");
                (Expr::If { cond, then: then.boxed(), otherwise: otherwise.boxed() }, ty)
            }
        }
    }

    /// The type both `a` and `b` may be read as; if none, reported as `differ` (what
    /// differs: two branches, a list's elements) followed by both types.
    pub(crate) fn unify(&mut self, span: Span, a: &Type, b: &Type, differ: &str) -> Type {
        if a.accepts(b) && *a != Type::None && *a != Type::Any {
            a.clone()
        } else if b.accepts(a) {
            b.clone()
        } else {
            let message = format!("{differ}: {} and {}", self.type_name(a), self.type_name(b));
            self.report(span, message);
            Type::Any
        }
    }

    pub(crate) fn arity(
        &mut self,
        span: Span,
        name: &str,
        args: &[Ast],
        allowed: &[usize],
    ) -> bool {
        if allowed.contains(&args.len()) {
            return true;
        }
        let want: Vec<String> = allowed.iter().map(|n| n.to_string()).collect();
        self.report(
            span,
            format!(
                "{name} takes {} argument(s), not {}",
                want.join(" or "),
                args.len()
            ),
        );
        false
    }

    /// Compiles a list argument and returns its element type.
    pub(crate) fn list_arg(&mut self, arg: &Ast, scope: &Scope) -> (Expr, Type) {
        let (ir, ty) = self.compile(arg, scope);
        match ty {
            Type::List(e) => (ir, *e),
            Type::Any => (ir, Type::Any),
            other => {
                let message = format!("expected a list, found {}", self.type_name(&other));
                self.report(arg.span, message);
                (ir, Type::Any)
            }
        }
    }

    /// Compiles a per-element argument into a lambda: `it` is the element, and so is `x`
    /// in `x => …`.
    pub(crate) fn per_element(&mut self, arg: &Ast, scope: &Scope, elem: &Type) -> Compiled {
        let (name, body) = match &arg.kind {
            ExprKind::Lambda(name, body) => (Some(name.text.clone()), &**body),
            _ => (None, arg),
        };
        if self.lambdas.len() >= MAX_LAMBDA_DEPTH {
            return self.error(
                arg.span,
                format!("lambdas are nested more than {MAX_LAMBDA_DEPTH} deep"),
            );
        }
        self.lambdas.push((name, elem.clone(), Level::Element));
        let inner = Scope {
            locals: scope.locals,
            it: Some(elem.clone()),
        };
        let (body, ty) = self.compile(body, &inner);
        self.lambdas.pop();
        (Expr::Lambda(body.boxed()), ty)
    }
}

impl Compiler<'_> {
    /// `let name = value in body`: the body as a per-element argument whose element is
    /// the value, read by its name.
    fn binding(&mut self, name: &Name, value: &Ast, body: &Ast, scope: &Scope) -> Compiled {
        let (value, ty) = self.compile(value, scope);
        if self.lambdas.len() >= MAX_LAMBDA_DEPTH {
            return self.error(
                name.span,
                format!("lambdas and lets are nested more than {MAX_LAMBDA_DEPTH} deep"),
            );
        }
        if name.text == "it" {
            return self.error(name.span, "'it' cannot be the name of a let");
        }
        self.lambdas.push((Some(name.text.clone()), ty, Level::Let));
        let (body, body_ty) = self.compile(body, scope);
        self.lambdas.pop();
        (
            Expr::Let {
                value: value.boxed(),
                body: Expr::Lambda(body.boxed()).boxed(),
            },
            body_ty,
        )
    }

    /// How many `let`s are between `it` and the element it reads: `it` reads that many
    /// levels out.
    fn lets_inside_element(&self) -> usize {
        self.lambdas
            .iter()
            .rev()
            .take_while(|(_, _, level)| *level == Level::Let)
            .count()
    }
}

/// What stands for an expression that failed to check.
pub(crate) use crate::builtins::nothing;

/// A type as diagnostics name it: "a number", "a list of players".
pub(crate) fn type_name(decls: &Decls, ty: &Type) -> String {
    match ty {
        Type::Int => "a number".into(),
        Type::Bool => "true/false".into(),
        Type::Str => "a text".into(),
        Type::Player => "a player".into(),
        Type::Pos => "a position".into(),
        Type::Row(t) => format!("a row of {}", decls.tables[t.index()].name),
        Type::List(e) => format!("a list of {}", type_name(decls, e).trim_start_matches("a ")),
        Type::None => "none".into(),
        Type::Any => "anything".into(),
    }
}
