//! Calls: of a built-in (lowered by its registry entry, through [`Lowering`]), of a
//! function of the ruleset (`functions:`), or of a script function.

use frontier_grammar::expr::{Expr as Ast, Name};
use frontier_grammar::Span;

use super::{nothing, Compiled, Compiler, Scope};
use crate::builtins::{self, Builtin, Lowering};
use crate::ir::Expr;
use crate::value::{TableId, Type};

impl Compiler<'_> {
    pub(super) fn call(
        &mut self,
        span: Span,
        name: &Name,
        args: &[Ast],
        scope: &Scope,
    ) -> Compiled {
        if let Some(builtin) = builtins::find(&name.text) {
            return (builtin.lower)(&mut BuiltinCall {
                compiler: self,
                builtin,
                span,
                args,
                scope,
            });
        }
        match self.decls.function_ids.get(&name.text).copied() {
            Some(id) => self.function_call(span, id, args, scope),
            None => self.script_call(span, name, args, scope),
        }
    }

    /// A call of a function of the ruleset: each argument of its parameter's type.
    fn function_call(&mut self, span: Span, id: usize, args: &[Ast], scope: &Scope) -> Compiled {
        let sig = &self.decls.functions[id];
        if sig.params.len() != args.len() {
            let message = format!(
                "function {} takes {} argument(s), not {}",
                sig.name,
                sig.params.len(),
                args.len()
            );
            return self.error(span, message);
        }
        let returns = sig.returns.clone();
        let args = sig
            .params
            .iter()
            .zip(args)
            .map(|((_, ty), arg)| self.expect(arg, scope, ty))
            .collect();
        (
            Expr::Function {
                id: crate::ir::FunctionId::at(id),
                args,
            },
            returns,
        )
    }

    fn script_call(&mut self, span: Span, name: &Name, args: &[Ast], scope: &Scope) -> Compiled {
        let found = self
            .decls
            .script_functions
            .iter()
            .find(|(n, _)| *n == name.text)
            .cloned();
        if self.decls.scripts_unreadable {
            // What the call would mean is unknown until the scripts compile.
            return nothing();
        }
        let function = self.decls.scripts.as_ref().and_then(|s| s.find(&name.text));
        let (Some((_, arity)), Some(function)) = (found, function) else {
            let mut candidates: Vec<String> = builtins::names().map(str::to_string).collect();
            candidates.extend(self.decls.functions.iter().map(|f| f.name.clone()));
            candidates.extend(self.decls.script_functions.iter().map(|(n, _)| n.clone()));
            return self.unknown(name, "function", candidates);
        };
        if arity != args.len() {
            return self.error(
                span,
                format!(
                    "script function {} takes {arity} argument(s), not {}",
                    name.text,
                    args.len()
                ),
            );
        }
        let args = args.iter().map(|a| self.compile(a, scope).0).collect();
        (Expr::Script { function, args }, Type::Any)
    }
}

/// A built-in's call being lowered: what its lowering asks of the type checker
/// ([`Lowering`]), answered for this call's arguments in its scope.
struct BuiltinCall<'c, 'a, 's, 'b> {
    compiler: &'c mut Compiler<'a>,
    builtin: &'static Builtin,
    span: Span,
    args: &'s [Ast],
    scope: &'s Scope<'b>,
}

impl Lowering for BuiltinCall<'_, '_, '_, '_> {
    fn name(&self) -> &'static str {
        self.builtin.name
    }
    fn span(&self) -> Span {
        self.span
    }
    fn arg_count(&self) -> usize {
        self.args.len()
    }
    fn arg_span(&self, i: usize) -> Span {
        self.args[i].span
    }
    fn arity(&mut self, counts: &[usize]) -> bool {
        self.compiler
            .arity(self.span, self.builtin.name, self.args, counts)
    }
    fn compile(&mut self, i: usize) -> Compiled {
        self.compiler.compile(&self.args[i], self.scope)
    }
    fn expect(&mut self, i: usize, want: &Type) -> Expr {
        self.compiler.expect(&self.args[i], self.scope, want)
    }
    fn list_arg(&mut self, i: usize) -> (Expr, Type) {
        self.compiler.list_arg(&self.args[i], self.scope)
    }
    fn per_element(&mut self, i: usize, elem: &Type) -> Compiled {
        self.compiler.per_element(&self.args[i], self.scope, elem)
    }
    fn board_read(&mut self, i: usize) -> Option<crate::ir::BoardRead> {
        self.compiler.board_read(&self.args[i], self.scope)
    }
    fn report(&mut self, span: Span, message: String) {
        self.compiler.report(span, message)
    }
    fn type_name(&self, ty: &Type) -> String {
        self.compiler.type_name(ty)
    }
    fn unify(&mut self, span: Span, a: &Type, b: &Type, differ: &str) -> Type {
        self.compiler.unify(span, a, b, differ)
    }
    fn is_hex_table(&self, t: TableId) -> bool {
        self.compiler.decls.tables[t.index()].hex
    }
    fn has_coordinates(&self, t: TableId) -> bool {
        self.compiler.decls.tables[t.index()].coordinates
    }
    fn table_name(&self, t: TableId) -> String {
        self.compiler.decls.tables[t.index()].name.clone()
    }
}
