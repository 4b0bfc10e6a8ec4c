//! Names and what reads through them: a local, a parameter, a declaration, a table's
//! row (`@id`, `table@id`), a field (a row's column, a player's variable, a position's
//! row or column) and an index (`var[key]`, `zone[key][position]`, `list[position]`).

use std::sync::Arc;

use frontier_grammar::expr::{Expr as Ast, ExprKind, Name};
use frontier_grammar::Span;

use super::{blanks, name_and_indexes, nothing, Compiled, Compiler, Scope, IT_UNDEFINED};
use super::{VarDecl, ZoneDecl};
use crate::hints::did_you_mean;
use crate::id::IntSlot;
use crate::ir::{Code, Expr, Slot};
use crate::model::Domain;
use crate::value::{TableId, Type, Value};

impl Compiler<'_> {
    fn all_names(&self, scope: &Scope) -> Vec<String> {
        let d = self.decls;
        let mut names: Vec<String> = scope.locals.iter().map(|(n, _, _)| n.clone()).collect();
        names.extend(self.function_params.iter().map(|(n, _)| n.clone()));
        names.extend(self.lambdas.iter().filter_map(|(n, _, _)| n.clone()));
        names.extend(d.params.iter().map(|(n, _)| n.clone()));
        names.extend(d.vars.iter().map(|v| v.name.clone()));
        names.extend(d.zones.iter().map(|z| z.name.clone()));
        names.extend(d.boards.iter().map(|b| b.name.clone()));
        names.extend(d.tables.iter().map(|t| t.name.clone()));
        names.push("players".into());
        names
    }

    pub(crate) fn unknown(&mut self, name: &Name, what: &str, candidates: Vec<String>) -> Compiled {
        let hint = did_you_mean(&name.text, &candidates);
        self.error(name.span, format!("unknown {what} '{}'{hint}", name.text))
    }

    /// A name: a lambda's element, `it`, a local, a parameter, a param, `players`, a
    /// variable, a zone, or a table (its rows).
    pub(super) fn name(&mut self, name: &Name, scope: &Scope) -> Compiled {
        let text = name.text.as_str();
        // A lambda's element, innermost first.
        let named = self
            .lambdas
            .iter()
            .rev()
            .enumerate()
            .find(|(_, (n, _, _))| n.as_deref() == Some(text));
        if let Some((depth, (_, ty, _))) = named {
            let read = if depth == 0 {
                Expr::It
            } else {
                Expr::Outer(depth as u8)
            };
            return (read, ty.clone());
        }
        if text == "it" {
            let read = match self.lets_inside_element() {
                0 => Expr::It,
                lets => Expr::Outer(lets as u8),
            };
            return match &scope.it {
                Some(ty) => (read, ty.clone()),
                None => self.error(name.span, IT_UNDEFINED),
            };
        }
        if let Some((_, ty, slot)) = scope.locals.iter().rev().find(|(n, _, _)| n == text) {
            return (Expr::Local(Slot::at(usize::from(*slot))), ty.clone());
        }
        if let Some(i) = self.function_params.iter().position(|(n, _)| n == text) {
            return (Expr::Param(i as u16), self.function_params[i].1.clone());
        }
        if let Some((_, v)) = self.decls.params.get(text) {
            return (Expr::Const(Value::Int(*v)), Type::Int);
        }
        if text == "players" {
            return (Expr::Players, Type::List(Box::new(Type::Player)));
        }
        if let Some(var) = self.decls.vars.get(text) {
            if var.per != Domain::Global {
                let message = format!(
                    "'{text}' has one value per {}: write {text}{}",
                    self.domain_word(var.per),
                    blanks(var.per)
                );
                return self.error(name.span, message);
            }
            return (
                Expr::Var {
                    slot: IntSlot::at(var.base),
                    code: Code::of_type(&var.ty),
                },
                var.ty.clone(),
            );
        }
        if let Some(zone) = self.decls.zones.get(text) {
            if zone.per != Domain::Global {
                let message = format!(
                    "zone '{text}' has one instance per {}: write {text}{}",
                    self.domain_word(zone.per),
                    blanks(zone.per)
                );
                return self.error(name.span, message);
            }
            return (
                Expr::Zone(zone.read(None)),
                Type::List(Box::new(zone.of.value_type())),
            );
        }
        if self.decls.boards.get(text).is_some() {
            return self.board_as_value(name.span, text);
        }
        if let Some(t) = self.decls.tables.position(text) {
            let t = TableId::at(t);
            let n = self.decls.tables[t.index()].row_ids.len() as u16;
            let rows = Value::list((0..n).map(|r| Value::Row(t, r)).collect());
            return (Expr::Const(rows), Type::List(Box::new(Type::Row(t))));
        }
        let candidates = self.all_names(scope);
        self.unknown(name, "name", candidates)
    }

    /// `@id` (the one table with a row of that id) or `table@id`.
    pub(super) fn row(&mut self, table: Option<&Name>, id: &Name) -> Compiled {
        let tables = &self.decls.tables;
        let found: Vec<(usize, usize)> = match table {
            Some(name) => match tables.position(&name.text) {
                Some(t) => tables[t]
                    .row_index
                    .get(&id.text)
                    .map(|&r| (t, r as usize))
                    .into_iter()
                    .collect(),
                None => {
                    let candidates = tables.iter().map(|t| t.name.clone()).collect();
                    return self.unknown(name, "table", candidates);
                }
            },
            None => self
                .decls
                .rows_by_id
                .get(&id.text)
                .map_or_else(Vec::new, |rows| {
                    rows.iter().map(|&(t, r)| (t, r as usize)).collect()
                }),
        };
        match found.as_slice() {
            [(t, r)] => (
                Expr::Const(Value::Row(TableId::at(*t), *r as u16)),
                Type::Row(TableId::at(*t)),
            ),
            [] => {
                let candidates: Vec<String> = match table.and_then(|n| tables.get(&n.text)) {
                    Some(t) => t.row_ids.clone(),
                    None => tables
                        .iter()
                        .flat_map(|t| t.row_ids.iter().cloned())
                        .collect(),
                };
                let hint = did_you_mean(&id.text, &candidates);
                let message = match table {
                    Some(t) => format!("table {} has no row '{}'{hint}", t.text, id.text),
                    None => format!("no table has a row '{}'{hint}", id.text),
                };
                self.error(id.span, message)
            }
            many => {
                let names: Vec<&str> = many.iter().map(|(t, _)| tables[*t].name.as_str()).collect();
                let message = format!(
                    "'@{}' is a row of several tables ({}): name the table, as in {}@{}",
                    id.text,
                    names.join(", "),
                    names[0],
                    id.text
                );
                self.error(id.span, message)
            }
        }
    }

    fn domain_word(&self, domain: Domain) -> String {
        match domain {
            Domain::Global => "game".into(),
            Domain::Players => "player".into(),
            Domain::Table(t) => format!("row of {}", self.decls.tables[t.index()].name),
            Domain::Pair(a, b) => format!(
                "pair of {} and {}",
                self.domain_word(a.domain()),
                self.domain_word(b.domain())
            ),
        }
    }

    /// Reads a board's name used as a plain value: boards are read through built-ins.
    fn board_as_value(&mut self, span: Span, name: &str) -> Compiled {
        self.error(
            span,
            format!("board '{name}' is read with cells(), at(), groups(), holes() or placements()"),
        )
    }

    /// `base.field`: a row's column (or its id), a player's variable, a position's row
    /// or column.
    pub(super) fn field(&mut self, base: &Ast, field: &Name, scope: &Scope) -> Compiled {
        let (base_ir, base_ty) = self.compile(base, scope);
        match base_ty {
            Type::Row(t) => {
                let table = &self.decls.tables[t.index()];
                if field.text == "id" {
                    return (Expr::RowId(base_ir.boxed()), Type::Str);
                }
                let Some(c) = table.columns.iter().position(|(n, _)| *n == field.text) else {
                    let candidates = table.columns.iter().map(|(n, _)| n.clone()).collect();
                    let what = format!("column of {}", table.name);
                    return self.unknown(field, &what, candidates);
                };
                let ty = table.columns[c].1.clone();
                let values = table.column_values[c].clone();
                (
                    Expr::Column {
                        values,
                        row: base_ir.boxed(),
                        name: Arc::from(field.text.as_str()),
                    },
                    ty,
                )
            }
            Type::Player => {
                if let Some(var) = self
                    .decls
                    .vars
                    .get(&field.text)
                    .filter(|v| matches!(v.per, Domain::Pair(..)))
                {
                    let message = self.keys_message(&format!("'{}'", var.name), &var.name, var.per);
                    return self.error(field.span, message);
                }
                let Some(var) = self
                    .decls
                    .vars
                    .get(&field.text)
                    .filter(|v| v.per == Domain::Players)
                else {
                    let candidates = self
                        .decls
                        .vars
                        .iter()
                        .filter(|v| v.per == Domain::Players)
                        .map(|v| v.name.clone())
                        .collect();
                    return self.unknown(field, "per-player variable", candidates);
                };
                let name = Arc::from(var.name.as_str());
                (
                    Expr::VarAt {
                        base: IntSlot::at(var.base),
                        code: Code::of_type(&var.ty),
                        index: base_ir.boxed(),
                        name,
                    },
                    var.ty.clone(),
                )
            }
            Type::Pos if field.text == "row" => (Expr::PosRow(base_ir.boxed()), Type::Int),
            Type::Pos if field.text == "col" => (Expr::PosCol(base_ir.boxed()), Type::Int),
            Type::Any => nothing(),
            other => {
                let message = format!(
                    "{} has no fields ('.{}')",
                    self.type_name(&other),
                    field.text
                );
                self.error(field.span, message)
            }
        }
    }

    /// `base[index]`: an entry of a variable with keys, an instance of a zone (then a
    /// position in it), a row of a table by id, or an element of a list at a position.
    pub(super) fn index(&mut self, span: Span, base: &Ast, index: &Ast, scope: &Scope) -> Compiled {
        // `name[…]…`: the name and every index after it (`supply[p, s]` is `supply[p][s]`).
        let chain = name_and_indexes(base).map(|(name, mut indexes)| {
            indexes.push(index);
            (name, indexes)
        });
        if let Some((name, indexes)) = chain {
            if !self.hides(scope, &name.text) {
                if let Some(var) = self.decls.vars.get(&name.text) {
                    return self.indexed_var(span, name, var, &indexes, scope);
                }
                if let Some(zone) = self.decls.zones.get(&name.text) {
                    return self.indexed_zone(span, name, zone, &indexes, scope);
                }
                if self.decls.boards.get(&name.text).is_some() {
                    return self.board_as_value(name.span, &name.text);
                }
                if let (Some(t), [_]) = (self.decls.tables.position(&name.text), indexes.as_slice())
                {
                    let t = TableId::at(t);
                    if let ExprKind::Str(id) = &index.kind {
                        let table = &self.decls.tables[t.index()];
                        return match table.row_index.get(id.as_str()).map(|&r| r as usize) {
                            Some(r) => (Expr::Const(Value::Row(t, r as u16)), Type::Row(t)),
                            None => {
                                let candidates = table.row_ids.clone();
                                let hint = did_you_mean(id, &candidates);
                                let message =
                                    format!("table {} has no row '{id}'{hint}", table.name);
                                self.error(index.span, message)
                            }
                        };
                    }
                }
            }
        }
        // A list indexed by position.
        let (list, base_ty) = self.compile(base, scope);
        // A base already reported (an unknown name) says nothing of what its index should
        // be: one mistake, one error.
        let at = match base_ty {
            Type::Any => self.compile(index, scope).0,
            _ => self.expect(index, scope, &Type::Int),
        };
        let elem = match base_ty {
            Type::List(e) => *e,
            Type::Any => Type::Any,
            other => {
                let message = format!("{} cannot be indexed", self.type_name(&other));
                return self.error(span, message);
            }
        };
        (
            Expr::Index {
                list: list.boxed(),
                at: at.boxed(),
            },
            elem,
        )
    }

    /// `var[key]` or `var[key, key]`: an entry of a variable with keys.
    fn indexed_var(
        &mut self,
        span: Span,
        name: &Name,
        var: &VarDecl,
        indexes: &[&Ast],
        scope: &Scope,
    ) -> Compiled {
        if var.per == Domain::Global {
            return self.error(
                name.span,
                format!("'{}' has a single value: it cannot be indexed", name.text),
            );
        }
        let (base, code, ty, per) = (
            IntSlot::at(var.base),
            Code::of_type(&var.ty),
            var.ty.clone(),
            var.per,
        );
        if indexes.len() != per.keys().len() {
            let message = self.keys_message(&format!("'{}'", name.text), &name.text, per);
            return self.error(span, message);
        }
        let index = self.keyed_index(per, indexes, scope);
        (
            Expr::VarAt {
                base,
                code,
                index,
                name: Arc::from(name.text.as_str()),
            },
            ty,
        )
    }

    /// `zone[key]`: an instance of a zone with keys; a further index is a position in the
    /// instance's list (`hand[p][0]`). A single zone has no keys: its index is a position
    /// in its list (`pile[len(pile) - 2]`), as a list's is.
    fn indexed_zone(
        &mut self,
        span: Span,
        name: &Name,
        zone: &ZoneDecl,
        indexes: &[&Ast],
        scope: &Scope,
    ) -> Compiled {
        let keys = zone.per.keys().len();
        if indexes.len() < keys {
            let message = self.keys_message(&format!("zone '{}'", name.text), &name.text, zone.per);
            return self.error(span, message);
        }
        let elem = zone.of.value_type();
        let index = (keys > 0).then(|| self.keyed_index(zone.per, &indexes[..keys], scope));
        let read = (
            Expr::Zone(zone.read(index)),
            Type::List(Box::new(elem.clone())),
        );
        let positions = &indexes[keys..];
        let Some(at) = positions.first() else {
            return read;
        };
        // A further index is a position in the list: `hand[p][0]`, `pile[0]`.
        let (at_ir, at_ty) = self.compile(at, scope);
        if matches!(at_ty, Type::Player | Type::Row(_)) {
            // A key too many, rather than a position.
            let message = if keys == 0 {
                format!(
                    "zone '{}' is a single zone: it has no keys, and an index is a position in its list (a number, 0 for the first element)",
                    name.text
                )
            } else {
                let keys =
                    self.keys_message(&format!("zone '{}'", name.text), &name.text, zone.per);
                format!("{keys}, then a position in its list (a number)")
            };
            return self.error(span, message);
        }
        if !Type::Int.accepts(&at_ty) {
            let message = format!(
                "expected {}, found {}",
                self.type_name(&Type::Int),
                self.type_name(&at_ty)
            );
            self.report(at.span, message);
        }
        if positions.len() > 1 {
            // `pile[0][1]`: an element is not a list.
            let message = format!("{} cannot be indexed", self.type_name(&elem));
            return self.error(span, message);
        }
        (
            Expr::Index {
                list: read.0.boxed(),
                at: at_ir.boxed(),
            },
            elem,
        )
    }
}
