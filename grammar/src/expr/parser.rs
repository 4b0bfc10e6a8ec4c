//! Parses expression and template sources into ASTs (pest grammar + Pratt parser).

use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;
use std::sync::OnceLock;

use super::ast::{BinaryOp, Expr, ExprKind, Name, TemplatePart, UnaryOp};
use crate::Span;

#[derive(pest_derive::Parser)]
#[grammar = "expr/expr.pest"]
struct ExprGrammar;

/// A syntax error: where in the source (byte offset) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// How large one expression or template may be. The parser descends recursively into
/// brackets and conditionals, and a chain of operators is a tree as deep as it is long
/// that every later pass (type checking, lowering, optimizing, evaluating, dropping) walks
/// recursively: these bounds are what keep all of them within a thread's stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// How deep brackets, conditionals and lambdas may nest.
    pub nesting: usize,
    /// How many operators (`and`, `or`, `in`, `not`, `.field`, `[index]`, `if` and `=>`
    /// among them) one source may hold.
    pub operators: usize,
}

impl Bounds {
    /// The bounds a ruleset is held to unless a command changes them.
    pub const DEFAULT: Bounds = Bounds {
        nesting: 64,
        operators: 256,
    };
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds::DEFAULT
    }
}

/// Refuses sources that would make trees too deep to walk safely, before parsing them
/// (the parser itself descends recursively into brackets, conditionals and lambdas).
///
/// Nesting counts brackets, and also conditionals and lambdas, which nest without
/// brackets: `if a then b else if c then …` and `x => y => …` extend as far to the right
/// as they can, so each stays open until the bracket around it closes or a `,` ends the
/// list element it stands in.
fn check_size(source: &str, bounds: Bounds) -> Result<(), SyntaxError> {
    let (mut depth, mut operators, mut in_string) = (0usize, 0usize, false);
    // For each open bracket (and the whole source first): the conditionals and lambdas
    // opened in it so far.
    let mut open_here: Vec<usize> = vec![0];
    let mut previous = ' ';
    // The last character outside a text that is not blank: an index `[` follows a value.
    let mut last_seen = ' ';
    let too_many = |offset| {
        SyntaxError {
        offset,
        message: format!("more than {} operators in one expression: split it (functions: can name its parts), or --limit operators=N raises the limit", bounds.operators),
    }
    };
    let too_deep = |offset| {
        SyntaxError { offset, message: format!("nested more than {} deep (brackets, conditionals, lambdas; --limit nesting=N raises the limit)", bounds.nesting) }
    };
    for (offset, c) in source.char_indices() {
        let word_starts = !(previous.is_alphanumeric() || previous == '_');
        let after = previous;
        previous = c;
        let value_before = last_seen;
        if !in_string && !c.is_whitespace() {
            last_seen = c;
        }
        let mut opens = false;
        match c {
            '"' => in_string = !in_string,
            _ if in_string => {}
            // `not x`, `x.field` and `x[i]` nest like operators do; `and`, `or` and `in`
            // are operators as `+` is.
            'n' if word_starts && is_word_at(source, offset, "not") => operators += 1,
            'a' if word_starts && is_word_at(source, offset, "and") => operators += 1,
            'o' if word_starts && is_word_at(source, offset, "or") => operators += 1,
            'i' if word_starts && is_word_at(source, offset, "in") => operators += 1,
            'i' if word_starts && is_word_at(source, offset, "if") => {
                operators += 1;
                opens = true;
            }
            'l' if word_starts && is_word_at(source, offset, "let") => {
                operators += 1;
                opens = true;
            }
            '(' | '[' | '{' => {
                if c == '['
                    && (value_before.is_alphanumeric()
                        || matches!(value_before, '_' | ')' | ']' | '"'))
                {
                    operators += 1;
                }
                open_here.push(0);
                opens = true;
            }
            ')' | ']' | '}' => {
                let closed = if open_here.len() > 1 {
                    open_here.pop().unwrap_or(0)
                } else {
                    0
                };
                depth = depth.saturating_sub(closed + 1);
            }
            // A list's elements and a call's arguments stand side by side, not nested:
            // no walk goes deeper for a longer list, so a comma is no operator.
            ',' => {
                if let Some(here) = open_here.last_mut() {
                    depth = depth.saturating_sub(*here);
                    *here = 0;
                }
            }
            '>' if after == '=' => {
                operators += 1;
                opens = true;
            }
            '+' | '-' | '*' | '/' | '%' | '<' | '>' | '=' | '!' | '.' => operators += 1,
            _ => {}
        }
        if operators > bounds.operators {
            return Err(too_many(offset));
        }
        if opens {
            depth += 1;
            if c != '(' && c != '[' && c != '{' {
                if let Some(here) = open_here.last_mut() {
                    *here += 1;
                }
            }
            if depth > bounds.nesting {
                return Err(too_deep(offset));
            }
        }
    }
    Ok(())
}

/// Whether the keyword `word` stands at `offset` (not the start of a longer name).
fn is_word_at(source: &str, offset: usize, word: &str) -> bool {
    source[offset..].starts_with(word)
        && !source[offset + word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

/// Parses one expression, e.g. `count(track[r], it) > 2 and not pawn[active]`.
/// `bounds` limits its size (see [`Bounds`]).
pub fn parse_expr(source: &str, bounds: Bounds) -> Result<Expr, SyntaxError> {
    check_size(source, bounds)?;
    let mut pairs = ExprGrammar::parse(Rule::expression, source).map_err(to_syntax_error)?;
    let root = pairs.next().and_then(|p| p.into_inner().next());
    match root {
        Some(expr) => build_expr(expr),
        None => Err(SyntaxError {
            offset: 0,
            message: "empty expression".into(),
        }),
    }
}

/// Parses a label template, e.g. `move wagon from:{r}`.
/// `bounds` limits the size of the whole template (see [`Bounds`]).
pub fn parse_template(source: &str, bounds: Bounds) -> Result<Vec<TemplatePart>, SyntaxError> {
    check_size(source, bounds)?;
    let mut pairs = ExprGrammar::parse(Rule::template, source).map_err(to_syntax_error)?;
    let mut parts = Vec::new();
    let Some(root) = pairs.next() else {
        return Ok(parts);
    };
    for part in root.into_inner() {
        match part.as_rule() {
            Rule::text => parts.push(TemplatePart::Text(
                part.as_str().replace("{{", "{").replace("}}", "}"),
            )),
            Rule::hole => {
                if let Some(expr) = part.into_inner().next() {
                    parts.push(TemplatePart::Hole(build_expr(expr)?));
                }
            }
            _ => {}
        }
    }
    Ok(parts)
}

fn to_syntax_error(error: pest::error::Error<Rule>) -> SyntaxError {
    let offset = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let message = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut wanted: Vec<(u8, &str)> =
                positives.iter().filter_map(|r| describe_rule(*r)).collect();
            wanted.sort_unstable();
            wanted.dedup();
            let wanted: Vec<&str> = wanted.into_iter().map(|(_, what)| what).collect();
            if wanted.is_empty() {
                "unexpected text".to_string()
            } else {
                format!("expected {}", wanted.join(" or "))
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    SyntaxError { offset, message }
}

/// What a rule the parser expected is called in a syntax error, and how early it is
/// listed there: what closes or continues the construct at hand first (the likeliest
/// fix), then a value, then the ways to extend a value.
fn describe_rule(rule: Rule) -> Option<(u8, &'static str)> {
    Some(match rule {
        Rule::close_paren => (0, "')'"),
        Rule::close_bracket => (0, "']'"),
        Rule::close_brace => (0, "'}'"),
        Rule::kw_then => (0, "'then'"),
        Rule::kw_else => (0, "'else'"),
        Rule::kw_in => (0, "'in'"),
        Rule::assign => (0, "'='"),
        Rule::comma => (1, "','"),
        Rule::expr
        | Rule::primary
        | Rule::paren
        | Rule::int
        | Rule::name
        | Rule::call
        | Rule::list
        | Rule::string
        | Rule::row => (2, "a value"),
        Rule::row_id => (2, "a row id"),
        Rule::hole => (2, "'{'"),
        Rule::field | Rule::index => (3, "'.' or '['"),
        Rule::or | Rule::and | Rule::eq | Rule::ne | Rule::le | Rule::ge | Rule::lt | Rule::gt => {
            (4, "an operator")
        }
        Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::rem | Rule::in_ => (4, "an operator"),
        Rule::EOI => (5, "the end of the expression"),
        _ => return None,
    })
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::prefix(Rule::not))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::in_, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::postfix(Rule::field) | Op::postfix(Rule::index))
    })
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn build_expr(pair: Pair<Rule>) -> Result<Expr, SyntaxError> {
    build_pratt(pair.into_inner())
}

fn build_pratt(pairs: Pairs<Rule>) -> Result<Expr, SyntaxError> {
    pratt()
        .map_primary(build_primary)
        .map_prefix(|op, rhs| {
            let rhs = rhs?;
            let span = Span::new(op.as_span().start(), rhs.span.end);
            let op = if op.as_rule() == Rule::neg {
                UnaryOp::Neg
            } else {
                UnaryOp::Not
            };
            // Fold `-5` into a literal so that i64::MIN is expressible and constants stay constants.
            if let (UnaryOp::Neg, ExprKind::Int(n)) = (op, &rhs.kind) {
                return Ok(Expr {
                    kind: ExprKind::Int(n.wrapping_neg()),
                    span,
                });
            }
            Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(rhs)),
                span,
            })
        })
        .map_postfix(|lhs, op| {
            let lhs = lhs?;
            let span = Span::new(lhs.span.start, op.as_span().end());
            let kind = match op.as_rule() {
                Rule::field => {
                    let name = op
                        .into_inner()
                        .next()
                        .map(build_name)
                        .ok_or_else(|| missing(span))?;
                    ExprKind::Field(Box::new(lhs), name)
                }
                _ => {
                    // `base[i, j]` is `base[i][j]`: each index wraps the node before it.
                    let mut indexes = op.into_inner().filter(|p| p.as_rule() == Rule::expr);
                    let first = indexes.next().ok_or_else(|| missing(span))?;
                    let mut node = Expr {
                        kind: ExprKind::Index(Box::new(lhs), Box::new(build_expr(first)?)),
                        span,
                    };
                    for index in indexes {
                        node = Expr {
                            kind: ExprKind::Index(Box::new(node), Box::new(build_expr(index)?)),
                            span,
                        };
                    }
                    return Ok(node);
                }
            };
            Ok(Expr { kind, span })
        })
        .map_infix(|lhs, op, rhs| {
            let (lhs, rhs) = (lhs?, rhs?);
            let op = match op.as_rule() {
                Rule::or => BinaryOp::Or,
                Rule::and => BinaryOp::And,
                Rule::eq => BinaryOp::Eq,
                Rule::ne => BinaryOp::Ne,
                Rule::lt => BinaryOp::Lt,
                Rule::le => BinaryOp::Le,
                Rule::gt => BinaryOp::Gt,
                Rule::ge => BinaryOp::Ge,
                Rule::in_ => BinaryOp::In,
                Rule::add => BinaryOp::Add,
                Rule::sub => BinaryOp::Sub,
                Rule::mul => BinaryOp::Mul,
                Rule::div => BinaryOp::Div,
                _ => BinaryOp::Rem,
            };
            let span = Span::new(lhs.span.start, rhs.span.end);
            Ok(Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            })
        })
        .parse(pairs)
}

fn missing(span: Span) -> SyntaxError {
    SyntaxError {
        offset: span.start,
        message: "incomplete expression".into(),
    }
}

fn build_name(pair: Pair<Rule>) -> Name {
    Name {
        text: pair.as_str().to_string(),
        span: span_of(&pair),
    }
}

fn build_primary(pair: Pair<Rule>) -> Result<Expr, SyntaxError> {
    let span = span_of(&pair);
    let kind = match pair.as_rule() {
        Rule::int => {
            let digits = pair.as_str();
            let value = digits.parse::<i64>().map_err(|_| SyntaxError {
                offset: span.start,
                message: format!("number {digits} is too large"),
            })?;
            ExprKind::Int(value)
        }
        Rule::boolean => ExprKind::Bool(pair.as_str() == "true"),
        Rule::none => ExprKind::None,
        Rule::string => {
            let inner = pair
                .into_inner()
                .next()
                .map(|p| p.as_str().to_string())
                .unwrap_or_default();
            ExprKind::Str(inner)
        }
        Rule::name => ExprKind::Name(build_name(pair)),
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = inner.next().map(build_name).ok_or_else(|| missing(span))?;
            let args = inner
                .filter(|p| p.as_rule() == Rule::expr)
                .map(build_expr)
                .collect::<Result<Vec<_>, _>>()?;
            ExprKind::Call(name, args)
        }
        Rule::list => ExprKind::List(
            pair.into_inner()
                .filter(|p| p.as_rule() == Rule::expr)
                .map(build_expr)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Rule::conditional => {
            let mut parts = pair
                .into_inner()
                .filter(|p| p.as_rule() == Rule::expr)
                .map(build_expr);
            let mut next = || parts.next().unwrap_or_else(|| Err(missing(span)));
            let (c, a, b) = (next()?, next()?, next()?);
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        Rule::row => {
            let mut table = None;
            let mut id = None;
            for part in pair.into_inner() {
                match part.as_rule() {
                    Rule::name => table = Some(build_name(part)),
                    _ => id = Some(build_name(part)),
                }
            }
            ExprKind::Row(table, id.ok_or_else(|| missing(span))?)
        }
        Rule::lambda => {
            let mut inner = pair.into_inner();
            let name = inner.next().map(build_name).ok_or_else(|| missing(span))?;
            let body = inner
                .next()
                .map(build_expr)
                .ok_or_else(|| missing(span))??;
            ExprKind::Lambda(name, Box::new(body))
        }
        Rule::binding => {
            let mut inner = pair
                .into_inner()
                .filter(|p| !matches!(p.as_rule(), Rule::kw_let | Rule::kw_in | Rule::assign));
            let name = inner.next().map(build_name).ok_or_else(|| missing(span))?;
            let value = inner
                .next()
                .map(|v| build_pratt(v.into_inner()))
                .ok_or_else(|| missing(span))??;
            let body = inner
                .next()
                .map(build_expr)
                .ok_or_else(|| missing(span))??;
            ExprKind::Let(name, Box::new(value), Box::new(body))
        }
        Rule::paren => {
            let inner = pair.into_inner().next().ok_or_else(|| missing(span))?;
            return Ok(Expr {
                span,
                ..build_expr(inner)?
            });
        }
        _ => return Err(missing(span)),
    };
    Ok(Expr { kind, span })
}
