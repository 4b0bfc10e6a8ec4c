//! The table of the row written before a `.`: which table's column `x.name` means, when
//! several tables have a column of that name. It is read from the types the loaded game
//! knows (state variables, zones, tables, functions), the type a parameter declares
//! (`params: { card: cards }`) and, for a local, the expression it is bound to (`let:` a
//! row, `for:` an element of a list). Where it cannot tell, every such column stands.

use frontier_interpreter::frontier_grammar::expr::{parse_expr, Bounds, Expr, ExprKind};
use frontier_interpreter::model::Domain;
use frontier_interpreter::value::Type;
use frontier_interpreter::Game;

use crate::index::{local_of, DeclKind, Found, Role, Use};
use crate::workspace::Ruleset;

/// Locals followed through the locals their bindings name, at most this deep.
const DEPTH: usize = 8;

/// The columns a `x.name` (the use `u` in file number `file`) may mean: those of the
/// table of `x` when that is known, else every column of that name.
pub fn columns_meant(ruleset: &Ruleset, file: usize, u: &Use) -> Vec<Found> {
    let all = ruleset.symbols.resolve(u);
    let Role::Field { base } = &u.role else {
        return all;
    };
    if all.len() < 2 {
        return all;
    }
    let Some(game) = ruleset.game.as_deref() else {
        return all;
    };
    let typer = Typer {
        game,
        file: &ruleset.files[file],
    };
    let Some(table) = typer.row_of(base, &u.scope, u.span.start, DEPTH) else {
        return all;
    };
    let narrowed: Vec<Found> = all
        .iter()
        .copied()
        .filter(|&(f, d)| {
            let decl = &ruleset.files[f].index.decls[d];
            decl.kind != DeclKind::Column || decl.owner.as_deref() == Some(table)
        })
        .collect();
    if narrowed.is_empty() {
        all
    } else {
        narrowed
    }
}

/// The type of a local (the use that declares it, in file number `file`) when it can be
/// told: a row of a table, or the type word a parameter declares (`p: player`).
pub fn local_type(ruleset: &Ruleset, file: usize, local: &Use) -> Option<String> {
    let game = ruleset.game.as_deref()?;
    let typer = Typer {
        game,
        file: &ruleset.files[file],
    };
    if let Some(table) = typer.bound_row(local, DEPTH) {
        return Some(table.to_string());
    }
    let declared = typer.plain_value(local)?;
    ["int", "bool", "str", "player"]
        .contains(&declared)
        .then(|| declared.to_string())
}

struct Typer<'a> {
    game: &'a Game,
    file: &'a crate::workspace::RulesetFile,
}

impl<'a> Typer<'a> {
    fn table_of_type(&self, ty: &Type) -> Option<&'a str> {
        match ty {
            Type::Row(t) => Some(self.game.tables.get(t.index())?.name.as_str()),
            _ => None,
        }
    }

    fn element_of_type(&self, ty: &Type) -> Option<&'a str> {
        match ty {
            Type::List(e) => self.table_of_type(e),
            _ => None,
        }
    }

    /// The local `name` visible at byte `at` of the file, in `scope`.
    fn local(&self, name: &str, scope: &Option<String>, at: usize) -> Option<&'a Use> {
        let probe = Use {
            name: name.to_string(),
            span: at..at,
            role: Role::Name,
            scope: scope.clone(),
        };
        local_of(&self.file.index, &probe)
    }

    /// The table of the row `e` is (written in `scope`, at byte `at` of the file).
    fn row_of(&self, e: &Expr, scope: &Option<String>, at: usize, depth: usize) -> Option<&'a str> {
        let game = self.game;
        match &e.kind {
            ExprKind::Name(n) => match self.local(&n.text, scope, at) {
                Some(local) => self.bound_row(local, depth),
                None => self.table_of_type(&game.var(&n.text)?.1.ty),
            },
            ExprKind::Index(base, _) => match &base.kind {
                ExprKind::Name(n) if self.local(&n.text, scope, at).is_none() => {
                    if let Some((_, t)) = game.table(&n.text) {
                        return Some(t.name.as_str());
                    }
                    if let Some((_, z)) = game.zone(&n.text) {
                        // An unkeyed zone indexed is one of its elements; a keyed one, its list.
                        return match z.per {
                            Domain::Global => self.table_of_type(&z.of.value_type()),
                            _ => None,
                        };
                    }
                    let (_, v) = game.var(&n.text)?;
                    match v.per {
                        Domain::Global => self.element_of_type(&v.ty),
                        _ => self.table_of_type(&v.ty),
                    }
                }
                _ => self.elements_of(base, scope, at, depth),
            },
            ExprKind::Call(f, _) => {
                let function = game.functions.iter().find(|x| x.name == f.text)?;
                self.table_of_type(&function.returns)
            }
            ExprKind::Field(base, column) => {
                let table = self.row_of(base, scope, at, depth)?;
                let (_, t) = game.table(table)?;
                let c = t.columns.iter().find(|c| c.name == column.text)?;
                self.table_of_type(&c.ty)
            }
            ExprKind::Row(Some(table), _) => Some(game.table(&table.text)?.1.name.as_str()),
            ExprKind::If(_, a, b) => self
                .row_of(a, scope, at, depth)
                .or_else(|| self.row_of(b, scope, at, depth)),
            _ => None,
        }
    }

    /// The table of the elements of the list `e` is.
    fn elements_of(
        &self,
        e: &Expr,
        scope: &Option<String>,
        at: usize,
        depth: usize,
    ) -> Option<&'a str> {
        let game = self.game;
        match &e.kind {
            ExprKind::Name(n) if self.local(&n.text, scope, at).is_none() => {
                if let Some((_, t)) = game.table(&n.text) {
                    return Some(t.name.as_str());
                }
                if let Some((_, z)) = game.zone(&n.text) {
                    return match z.per {
                        Domain::Global => self.table_of_type(&z.of.value_type()),
                        _ => None,
                    };
                }
                let (_, v) = game.var(&n.text)?;
                match v.per {
                    Domain::Global => self.element_of_type(&v.ty),
                    _ => None,
                }
            }
            ExprKind::Index(base, _) => match &base.kind {
                ExprKind::Name(n) if self.local(&n.text, scope, at).is_none() => {
                    if let Some((_, z)) = game.zone(&n.text) {
                        return match z.per {
                            Domain::Global => None,
                            _ => self.table_of_type(&z.of.value_type()),
                        };
                    }
                    let (_, v) = game.var(&n.text)?;
                    match v.per {
                        Domain::Global => None,
                        _ => self.element_of_type(&v.ty),
                    }
                }
                _ => None,
            },
            ExprKind::Call(f, _) => {
                let function = game.functions.iter().find(|x| x.name == f.text)?;
                self.element_of_type(&function.returns)
            }
            ExprKind::Field(base, column) => {
                let table = self.row_of(base, scope, at, depth)?;
                let (_, t) = game.table(table)?;
                let c = t.columns.iter().find(|c| c.name == column.text)?;
                self.element_of_type(&c.ty)
            }
            _ => None,
        }
    }

    /// The table of the row a local stands for: the table its parameter declaration names
    /// (`card: cards`), or the row (`let:`) or element (`for:`) its expression gives.
    fn bound_row(&self, local: &Use, depth: usize) -> Option<&'a str> {
        let depth = depth.checked_sub(1)?;
        let value = self.value_of(local)?;
        // A quoted expression, or a plain one (`deck`, a parameter's type `cards`) up to
        // the end of its flow mapping entry or line.
        let source = match value.chars().next()? {
            quote @ ('"' | '\'') => {
                let quoted = &value[1..];
                let source = &quoted[..quoted.find(quote)?];
                if source.contains('\\') {
                    return None;
                }
                source
            }
            _ => self.plain_value(local)?,
        };
        let expr = parse_expr(source, Bounds::DEFAULT).ok()?;
        // The expression's names are the locals visible where the local is declared; a
        // table named as a type is read as the list of its rows, whose element it is.
        let at = local.span.start;
        self.row_of(&expr, &local.scope, at, depth)
            .or_else(|| self.elements_of(&expr, &local.scope, at, depth))
    }

    /// What follows a local's name and its `:` (none for a lambda's `=>`).
    fn value_of(&self, local: &Use) -> Option<&'a str> {
        let text: &'a str = &self.file.text;
        let after = text.get(local.span.end..)?.trim_start();
        Some(after.strip_prefix(':')?.trim_start())
    }

    /// A local's value written plain (`deck`, a parameter's type `cards`), up to the end
    /// of its flow mapping entry or line.
    fn plain_value(&self, local: &Use) -> Option<&'a str> {
        let value = self.value_of(local)?;
        let end = value.find([',', '}', '\n', '#']).unwrap_or(value.len());
        Some(value[..end].trim_end()).filter(|v| !v.is_empty())
    }
}
