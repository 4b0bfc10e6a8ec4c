//! Written-out lists and operators: arithmetic (checked when it runs), comparisons,
//! equality of any two values of one type, `in`, `and`, `or`, `not` and negation.

use frontier_grammar::expr::{BinaryOp, Expr as Ast, UnaryOp};
use frontier_grammar::Span;

use super::{Compiled, Compiler, Scope};
use crate::ir::{ArithOp, CmpOp, Expr};
use crate::value::Type;

impl Compiler<'_> {
    pub(super) fn list(&mut self, span: Span, items: &[Ast], scope: &Scope) -> Compiled {
        let mut out = Vec::new();
        let mut ty = Type::Any;
        for item in items {
            let (e, t) = self.compile(item, scope);
            ty = if ty == Type::Any {
                t
            } else {
                self.unify(span, &ty, &t, "the list's elements differ in type")
            };
            out.push(e);
        }
        (Expr::List(out), Type::List(Box::new(ty)))
    }

    pub(super) fn unary(
        &mut self,
        span: Span,
        op: UnaryOp,
        operand: &Ast,
        scope: &Scope,
    ) -> Compiled {
        match op {
            UnaryOp::Neg => {
                let e = self.expect(operand, scope, &Type::Int);
                (Expr::Neg(e.boxed(), self.text(span)), Type::Int)
            }
            UnaryOp::Not => {
                let e = self.expect(operand, scope, &Type::Bool);
                (Expr::Not(e.boxed()), Type::Bool)
            }
        }
    }

    pub(super) fn binary(
        &mut self,
        span: Span,
        op: BinaryOp,
        a: &Ast,
        b: &Ast,
        scope: &Scope,
    ) -> Compiled {
        use BinaryOp::*;
        match op {
            And | Or => {
                let a = self.expect(a, scope, &Type::Bool).boxed();
                let b = self.expect(b, scope, &Type::Bool).boxed();
                (
                    if op == And {
                        Expr::And(a, b)
                    } else {
                        Expr::Or(a, b)
                    },
                    Type::Bool,
                )
            }
            Add | Sub | Mul | Div | Rem => {
                let a = self.expect(a, scope, &Type::Int).boxed();
                let b = self.expect(b, scope, &Type::Int).boxed();
                let op = match op {
                    Add => ArithOp::Add,
                    Sub => ArithOp::Sub,
                    Mul => ArithOp::Mul,
                    Div => ArithOp::Div,
                    _ => ArithOp::Rem,
                };
                (
                    Expr::Arith {
                        op,
                        a,
                        b,
                        source: self.text(span),
                    },
                    Type::Int,
                )
            }
            Lt | Le | Gt | Ge => {
                let a = self.expect(a, scope, &Type::Int).boxed();
                let b = self.expect(b, scope, &Type::Int).boxed();
                let op = match op {
                    Lt => CmpOp::Lt,
                    Le => CmpOp::Le,
                    Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                (Expr::Compare { op, a, b }, Type::Bool)
            }
            Eq | Ne => self.equality(span, op, a, b, scope),
            In => self.membership(span, a, b, scope),
        }
    }

    /// `a == b`, `a != b`: numbers compared as numbers, players and rows as elements,
    /// other values of one type as values.
    fn equality(&mut self, span: Span, op: BinaryOp, a: &Ast, b: &Ast, scope: &Scope) -> Compiled {
        use BinaryOp::{Eq, Ne};
        let (a_ir, a_ty) = self.compile(a, scope);
        let (b_ir, b_ty) = self.compile(b, scope);
        if !a_ty.accepts(&b_ty) && !b_ty.accepts(&a_ty) {
            let message = format!(
                "cannot compare {} with {}",
                self.type_name(&a_ty),
                self.type_name(&b_ty)
            );
            return self.error(span, message);
        }
        let (a, b) = (a_ir.boxed(), b_ir.boxed());
        if a_ty == Type::Int && b_ty == Type::Int {
            return (
                Expr::Compare {
                    op: if op == Eq { CmpOp::Eq } else { CmpOp::Ne },
                    a,
                    b,
                },
                Type::Bool,
            );
        }
        let element = |t: &Type| matches!(t, Type::Player | Type::Row(_));
        if element(&a_ty) && a_ty == b_ty {
            return (
                Expr::Same {
                    a,
                    b,
                    negate: op == Ne,
                },
                Type::Bool,
            );
        }
        (
            Expr::Equal {
                a,
                b,
                negate: op == Ne,
            },
            Type::Bool,
        )
    }

    /// `item in list`: the item of a type the list's elements may be.
    fn membership(&mut self, span: Span, a: &Ast, b: &Ast, scope: &Scope) -> Compiled {
        let (item, a_ty) = self.compile(a, scope);
        let (list, b_ty) = self.compile(b, scope);
        match &b_ty {
            Type::List(e) if !e.accepts(&a_ty) => {
                let message = format!(
                    "{} can never be in {}",
                    self.type_name(&a_ty),
                    self.type_name(&b_ty)
                );
                return self.error(span, message);
            }
            Type::List(_) | Type::Any => {}
            other => {
                let message = format!(
                    "'in' needs a list on its right, found {}",
                    self.type_name(other)
                );
                return self.error(span, message);
            }
        }
        (
            Expr::In {
                item: item.boxed(),
                list: list.boxed(),
            },
            Type::Bool,
        )
    }
}
