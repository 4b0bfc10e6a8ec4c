//! Expressions and templates written in the YAML: their text read, parsed by the grammar,
//! compiled against the declarations by the [`Compiler`], and their errors placed in
//! their source.

use frontier_grammar::expr::{parse_expr, parse_template, Expr, TemplatePart as AstPart};
use frontier_grammar::Span;
use serde_yaml::Value as Yaml;

use super::{nothing, Builder, Compiled, Compiler, Decls, Scope};
use crate::eval::{Template, TemplatePart};
use crate::ir::Expr as Ir;
use crate::value::Type;

impl Builder {
    /// The text of an expression written in YAML (a string, a number or a boolean).
    pub fn expr_source(&mut self, value: &Yaml, path: &str) -> Option<String> {
        match value {
            Yaml::String(s) => Some(s.clone()),
            Yaml::Number(n) => Some(n.to_string()),
            Yaml::Bool(b) => Some(b.to_string()),
            Yaml::Null => Some("none".into()),
            _ => {
                self.error(
                    path,
                    "expected an expression (a text such as \"vp[p] + 1\", or a number)",
                );
                None
            }
        }
    }

    pub fn parse_expression(&mut self, value: &Yaml, path: &str) -> Option<(Expr, String)> {
        let source = self.expr_source(value, path)?;
        match parse_expr(&source, self.limits.expression) {
            Ok(e) => Some((e, source)),
            Err(err) => {
                let span = Span::new(err.offset, err.offset);
                self.expr_error(
                    path,
                    &source,
                    span,
                    format!("syntax error: {}", err.message),
                );
                None
            }
        }
    }

    /// Compiles an already-parsed expression of type `want`, reporting its errors at `path`.
    pub fn compile_ast(
        &mut self,
        decls: &Decls,
        ast: &Expr,
        source: &str,
        path: &str,
        scope: &Scope,
        want: &Type,
    ) -> Ir {
        if self.full() {
            return nothing().0;
        }
        let mut compiler = Compiler::with_source(decls, source);
        let eval = compiler.expect(ast, scope, want);
        for e in compiler.errors {
            self.expr_error(path, source, e.span, e.message);
        }
        eval
    }

    /// Parses and compiles an expression of type `want` (any type if `None`).
    pub fn expression(
        &mut self,
        decls: &Decls,
        value: &Yaml,
        path: &str,
        scope: &Scope,
        want: Option<&Type>,
    ) -> Compiled {
        if self.full() {
            return nothing();
        }
        let Some((ast, source)) = self.parse_expression(value, path) else {
            return nothing();
        };
        let mut compiler = Compiler::with_source(decls, &source);
        let (eval, ty) = match want {
            Some(want) => (compiler.expect(&ast, scope, want), want.clone()),
            None => compiler.compile(&ast, scope),
        };
        for e in compiler.errors {
            self.expr_error(path, &source, e.span, e.message);
        }
        (eval, ty)
    }

    pub fn template(&mut self, decls: &Decls, value: &Yaml, path: &str, scope: &Scope) -> Template {
        if self.full() {
            return Template::literal("");
        }
        let source = match value {
            Yaml::String(s) => s.clone(),
            Yaml::Number(n) => n.to_string(),
            Yaml::Bool(b) => b.to_string(),
            _ => {
                self.error(path, "expected a text");
                return Template::literal("");
            }
        };
        let parts = match parse_template(&source, self.limits.expression) {
            Ok(parts) => parts,
            Err(err) => {
                self.expr_error(
                    path,
                    &source,
                    Span::new(err.offset, err.offset),
                    format!("syntax error: {}", err.message),
                );
                return Template::literal(&source);
            }
        };
        let mut compiler = Compiler::with_source(decls, &source);
        let parts = parts
            .into_iter()
            .map(|p| match p {
                AstPart::Text(t) => TemplatePart::Text(t),
                AstPart::Hole(e) => TemplatePart::Hole(compiler.compile(&e, scope).0),
            })
            .collect();
        for e in compiler.errors {
            self.expr_error(path, &source, e.span, e.message);
        }
        Template { parts, source }
    }
}
