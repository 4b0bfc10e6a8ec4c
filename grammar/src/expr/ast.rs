//! The expression AST. Every node carries the byte span of its source text.

use crate::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    None,
    Str(String),
    /// A bare name: a local, a parameter, a state variable, a table, a zone…
    Name(Name),
    /// `base.field`
    Field(Box<Expr>, Name),
    /// `base[index]`; `base[i, j]` is written in the tree as `base[i][j]`.
    Index(Box<Expr>, Box<Expr>),
    /// `function(args…)`: a built-in or a script function.
    Call(Name, Vec<Expr>),
    List(Vec<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `x => body`: a per-element argument that names its element.
    Lambda(Name, Box<Expr>),
    /// `let x = value in body`: `body` with `x` naming `value`.
    Let(Name, Box<Expr>, Box<Expr>),
    /// `@id` or `table@id`: a row of a table by its id (the span of `Name` is the id's).
    Row(Option<Name>, Name),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::In => "in",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }
}

/// A label template such as `play card:{card}`: literal text and expression holes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePart {
    Text(String),
    Hole(Expr),
}
