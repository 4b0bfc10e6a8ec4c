//! Type-checks expression ASTs against the declared state and lowers them to the IR
//! ([`crate::ir::Expr`]). Built-in calls are checked and lowered by their entry in the
//! registry ([`crate::builtins`]); this file handles names, operators and fields.

use std::sync::Arc;

use frontier_grammar::expr::{BinaryOp, Expr as Ast, ExprKind, Name, UnaryOp};
use frontier_grammar::Span;

use crate::builtins::{self, Builtin, Lowering};
use crate::hints::did_you_mean;
use crate::ir::{ArithOp, CmpOp, Code, Expr, Slot, ZoneRead};
use crate::model::{Axis, Domain, Element};
use crate::value::{TableId, Type, Value};

/// Declarations of one kind, in the order declared, each found by its name at once: a
/// ruleset may declare tens of thousands, and every expression that names one looks it
/// up. Reads as a slice; a name declared twice (an error reported by the loader) is found
/// as its first declaration, as a search in order would find it.
pub(crate) struct Named<T> {
    items: Vec<T>,
    by_name: std::collections::HashMap<String, usize>,
}

/// A declaration's name, by which [`Named`] finds it.
pub(crate) trait Declared {
    fn name(&self) -> &str;
}

impl<T: Declared> Named<T> {
    pub fn push(&mut self, item: T) {
        self.by_name
            .entry(item.name().to_string())
            .or_insert(self.items.len());
        self.items.push(item);
    }

    /// The position of the declaration named `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    pub fn get(&self, name: &str) -> Option<&T> {
        self.position(name).map(|i| &self.items[i])
    }
}

impl<T> Default for Named<T> {
    fn default() -> Self {
        Named {
            items: Vec::new(),
            by_name: Default::default(),
        }
    }
}

impl<T: Declared> FromIterator<T> for Named<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut named = Named::default();
        iter.into_iter().for_each(|item| named.push(item));
        named
    }
}

impl<T> std::ops::Deref for Named<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

macro_rules! declared {
    ($($ty:ty),*) => {
        $(impl Declared for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        })*
    };
}
declared!(TableDecl, VarDecl, ZoneDecl, BoardDecl);

/// A table's name in the list of names types may refer to before the tables are read.
impl Declared for String {
    fn name(&self) -> &str {
        self
    }
}

impl Declared for (String, i64) {
    fn name(&self) -> &str {
        &self.0
    }
}

/// What expressions may name, known before any expression is compiled.
pub(crate) struct Decls {
    pub tables: Named<TableDecl>,
    pub params: Named<(String, i64)>,
    pub vars: Named<VarDecl>,
    pub zones: Named<ZoneDecl>,
    pub boards: Named<BoardDecl>,
    pub script_functions: Vec<(String, usize)>,
    pub scripts: Option<Arc<crate::model::ScriptLibrary>>,
    /// Set when the ruleset's scripts did not compile (their errors are reported): a call
    /// of a script function is then not reported as unknown as well.
    pub scripts_unreadable: bool,
    /// The signatures of the ruleset's `functions:` (bodies compile against these).
    pub functions: Vec<FunctionSig>,
    /// Each function's position in `functions`, by name: a ruleset may declare many, and
    /// every call looks its function up.
    pub function_ids: std::collections::HashMap<String, usize>,
    /// Every table row by its id, as (table, row): `@id` names the one table with that
    /// row, whatever the number of tables.
    pub rows_by_id: std::collections::HashMap<String, Vec<(usize, u16)>>,
    /// Seats in the slot layout: the length of a `players` key.
    pub max_players: usize,
}

/// Names an expression reads that no declaration may take.
pub(crate) const BUILT_IN_NAMES: [&str; 2] = ["players", "it"];

impl Decls {
    /// Indexes every table's rows by id ([`Decls::rows_by_id`]), in table order.
    pub fn index_rows(&mut self) {
        let mut rows: std::collections::HashMap<String, Vec<(usize, u16)>> = Default::default();
        for (t, table) in self.tables.iter().enumerate() {
            for (id, &r) in &table.row_index {
                rows.entry(id.clone()).or_default().push((t, r));
            }
        }
        self.rows_by_id = rows;
    }

    /// The names of params, tables, state, zones and boards (one namespace), each with its
    /// section of the ruleset.
    pub fn declared_names(&self) -> impl Iterator<Item = (&str, &'static str)> {
        let params = self.params.iter().map(|(n, _)| (n.as_str(), "params"));
        let tables = self.tables.iter().map(|t| (t.name.as_str(), "tables"));
        let vars = self.vars.iter().map(|v| (v.name.as_str(), "state"));
        let zones = self.zones.iter().map(|z| (z.name.as_str(), "zones"));
        let boards = self.boards.iter().map(|b| (b.name.as_str(), "boards"));
        params.chain(tables).chain(vars).chain(zones).chain(boards)
    }

    /// How many entries one key has in the slot layout (the stride of a first key).
    pub fn axis_len(&self, axis: Axis) -> usize {
        match axis {
            Axis::Players => self.max_players,
            Axis::Table(t) => self.tables[t.index()].row_ids.len(),
        }
    }

    /// The index of an entry from its keys' compiled indexes (one per key of `per`): one
    /// as it is, two as an `Expr::Pair` over the second key's length.
    pub fn key_index(&self, per: Domain, parts: Vec<Expr>) -> Expr {
        let mut parts = parts.into_iter();
        match (per, parts.next(), parts.next()) {
            (Domain::Pair(_, b), Some(first), Some(second)) => Expr::Pair {
                first: first.boxed(),
                second: second.boxed(),
                stride: self.axis_len(b) as u32,
            },
            (_, Some(one), None) => one,
            _ => Expr::Const(Value::None),
        }
    }

    /// Says how many keys a declaration has and how to index it: `'supply' has two keys
    /// (players and sections): write supply[…, …]`. `what` names it (`'supply'`, `zone
    /// 'supply'`).
    pub fn keys_message(&self, what: &str, name: &str, per: Domain) -> String {
        let keys: Vec<String> = per
            .keys()
            .iter()
            .map(|k| match k {
                Axis::Players => "players".to_string(),
                Axis::Table(t) => self.tables[t.index()].name.clone(),
            })
            .collect();
        let count = if keys.len() == 1 {
            "one key"
        } else {
            "two keys"
        };
        format!(
            "{what} has {count} ({}): write {name}{}",
            keys.join(" and "),
            blanks(per)
        )
    }
}

/// What a call of a ruleset function needs to know of it.
#[derive(Clone)]
pub(crate) struct FunctionSig {
    pub name: String,
    pub params: Vec<(String, Type)>,
    pub returns: Type,
}

pub(crate) struct TableDecl {
    pub name: String,
    pub columns: Vec<(String, Type)>,
    pub row_ids: Vec<String>,
    /// Each row's position by id (`row_ids` looked up without a scan).
    pub row_index: std::collections::HashMap<String, u16>,
    /// Each column's value per row (what a column read in the IR indexes).
    pub column_values: Vec<Arc<[Value]>>,
    /// Whether the rows are cells of a `geometry:` (they have neighbours).
    pub hex: bool,
    /// Whether they have hex coordinates (not only listed neighbours): lines and edges.
    pub coordinates: bool,
}

impl TableDecl {
    pub fn of(t: &crate::model::Table) -> TableDecl {
        TableDecl {
            name: t.name.clone(),
            columns: t
                .columns
                .iter()
                .map(|c| (c.name.clone(), c.ty.clone()))
                .collect(),
            row_ids: t.rows.iter().map(|r| r.id.clone()).collect(),
            row_index: t.ids.clone(),
            column_values: (0..t.columns.len())
                .map(|c| t.rows.iter().map(|r| r.values[c].clone()).collect())
                .collect(),
            hex: t.geometry.is_some(),
            coordinates: t.geometry.as_ref().is_some_and(|g| g.layout.is_some()),
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
    /// Instances: 1, or one per index of `per`.
    pub len: usize,
}

pub(crate) struct BoardDecl {
    pub name: String,
    pub of: Element,
    pub per: Domain,
    pub base: usize,
    pub len: usize,
}

impl ZoneDecl {
    /// The zone instance `index` selects (none for a single zone).
    pub fn read(&self, index: Option<Box<Expr>>) -> ZoneRead {
        ZoneRead {
            base: self.base as u32,
            len: self.len as u32,
            index,
            of: self.of,
            name: Arc::from(self.name.as_str()),
        }
    }
}

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
    /// The per-element arguments being compiled, innermost last: the name a lambda gives
    /// its element (`x => …`), if any, and the element's type.
    lambdas: Vec<(Option<String>, Type)>,
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

/// `[…]` or `[…, …]`: how a declaration with these keys is indexed, for messages.
pub(crate) fn blanks(per: Domain) -> &'static str {
    match per {
        Domain::Pair(..) => "[…, …]",
        _ => "[…]",
    }
}

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
            || self.lambdas.iter().any(|(n, _)| n.as_deref() == Some(name))
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
            ExprKind::Lambda(..) => self.error(
                expr.span,
                "a lambda (x => …) stands only as the per-element argument of a built-in (filter, map, sort_by, …)",
            ),
            ExprKind::If(c, a, b) => {
                let cond = self.expect(c, scope, &Type::Bool).boxed();
                let (then, a_ty) = self.compile(a, scope);
                let (otherwise, b_ty) = self.compile(b, scope);
                let ty = self.unify(expr.span, &a_ty, &b_ty);
                (Expr::If { cond, then: then.boxed(), otherwise: otherwise.boxed() }, ty)
            }
        }
    }

    pub(crate) fn unify(&mut self, span: Span, a: &Type, b: &Type) -> Type {
        if a.accepts(b) && *a != Type::None && *a != Type::Any {
            a.clone()
        } else if b.accepts(a) {
            b.clone()
        } else {
            let message = format!(
                "the two branches differ: {} and {}",
                self.type_name(a),
                self.type_name(b)
            );
            self.report(span, message);
            Type::Any
        }
    }

    fn all_names(&self, scope: &Scope) -> Vec<String> {
        let d = self.decls;
        let mut names: Vec<String> = scope.locals.iter().map(|(n, _, _)| n.clone()).collect();
        names.extend(self.function_params.iter().map(|(n, _)| n.clone()));
        names.extend(self.lambdas.iter().filter_map(|(n, _)| n.clone()));
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

    fn name(&mut self, name: &Name, scope: &Scope) -> Compiled {
        let text = name.text.as_str();
        // A lambda's element, innermost first.
        let named = self
            .lambdas
            .iter()
            .rev()
            .enumerate()
            .find(|(_, (n, _))| n.as_deref() == Some(text));
        if let Some((depth, (_, ty))) = named {
            let read = if depth == 0 {
                Expr::It
            } else {
                Expr::Outer(depth as u8)
            };
            return (read, ty.clone());
        }
        if text == "it" {
            return match &scope.it {
                Some(ty) => (Expr::It, ty.clone()),
                None => self.error(name.span, IT_UNDEFINED),
            };
        }
        if let Some((_, ty, slot)) = scope.locals.iter().rev().find(|(n, _, _)| n == text) {
            return (Expr::Local(Slot(*slot)), ty.clone());
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
                    slot: var.base as u32,
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
    fn row(&mut self, table: Option<&Name>, id: &Name) -> Compiled {
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

    fn field(&mut self, base: &Ast, field: &Name, scope: &Scope) -> Compiled {
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
                        base: var.base as u32,
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

    fn index(&mut self, span: Span, base: &Ast, index: &Ast, scope: &Scope) -> Compiled {
        // `name[…]…`: the name and every index after it (`supply[p, s]` is `supply[p][s]`).
        let chain = name_and_indexes(base).map(|(name, mut indexes)| {
            indexes.push(index);
            (name, indexes)
        });
        if let Some((name, indexes)) = chain {
            if !self.hides(scope, &name.text) {
                if let Some(var) = self.decls.vars.get(&name.text) {
                    if var.per == Domain::Global {
                        return self.error(
                            name.span,
                            format!("'{}' has a single value: it cannot be indexed", name.text),
                        );
                    }
                    let (base, code, ty, per) = (
                        var.base as u32,
                        Code::of_type(&var.ty),
                        var.ty.clone(),
                        var.per,
                    );
                    if indexes.len() != per.keys().len() {
                        let message =
                            self.keys_message(&format!("'{}'", name.text), &name.text, per);
                        return self.error(span, message);
                    }
                    let index = self.keyed_index(per, &indexes, scope);
                    return (
                        Expr::VarAt {
                            base,
                            code,
                            index,
                            name: Arc::from(name.text.as_str()),
                        },
                        ty,
                    );
                }
                if let Some(zone) = self.decls.zones.get(&name.text) {
                    if zone.per == Domain::Global {
                        return self.error(
                            name.span,
                            format!(
                                "zone '{}' is a single zone: it cannot be indexed",
                                name.text
                            ),
                        );
                    }
                    let keys = zone.per.keys().len();
                    if indexes.len() < keys {
                        let message = self.keys_message(
                            &format!("zone '{}'", name.text),
                            &name.text,
                            zone.per,
                        );
                        return self.error(span, message);
                    }
                    let elem = zone.of.value_type();
                    let index = Some(self.keyed_index(zone.per, &indexes[..keys], scope));
                    let mut read = (
                        Expr::Zone(zone.read(index)),
                        Type::List(Box::new(elem.clone())),
                    );
                    // Any further index is a position in the instance's list: `hand[p][0]`.
                    for at in &indexes[keys..] {
                        let (at_ir, at_ty) = self.compile(at, scope);
                        if matches!(at_ty, Type::Player | Type::Row(_)) {
                            // A key too many, rather than a position.
                            let message = self.keys_message(
                                &format!("zone '{}'", name.text),
                                &name.text,
                                zone.per,
                            );
                            return self.error(
                                span,
                                format!("{message}, then a position in its list (a number)"),
                            );
                        }
                        if !Type::Int.accepts(&at_ty) {
                            let message = format!(
                                "expected {}, found {}",
                                self.type_name(&Type::Int),
                                self.type_name(&at_ty)
                            );
                            self.report(at.span, message);
                        }
                        read = (
                            Expr::Index {
                                list: read.0.boxed(),
                                at: at_ir.boxed(),
                            },
                            elem.clone(),
                        );
                    }
                    return read;
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

    fn list(&mut self, span: Span, items: &[Ast], scope: &Scope) -> Compiled {
        let mut out = Vec::new();
        let mut ty = Type::Any;
        for item in items {
            let (e, t) = self.compile(item, scope);
            ty = if ty == Type::Any {
                t
            } else {
                self.unify(span, &ty, &t)
            };
            out.push(e);
        }
        (Expr::List(out), Type::List(Box::new(ty)))
    }

    fn unary(&mut self, span: Span, op: UnaryOp, operand: &Ast, scope: &Scope) -> Compiled {
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

    fn binary(&mut self, span: Span, op: BinaryOp, a: &Ast, b: &Ast, scope: &Scope) -> Compiled {
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
            Eq | Ne => {
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
            In => {
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
        self.lambdas.push((name, elem.clone()));
        let inner = Scope {
            locals: scope.locals,
            it: Some(elem.clone()),
        };
        let (body, ty) = self.compile(body, &inner);
        self.lambdas.pop();
        (Expr::Lambda(body.boxed()), ty)
    }

    fn call(&mut self, span: Span, name: &Name, args: &[Ast], scope: &Scope) -> Compiled {
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

/// What stands for an expression that failed to check.
pub(crate) use crate::builtins::nothing;

impl Decls {
    /// The declarations of a loaded game, to compile expressions against it later
    /// (trace assertions).
    pub(crate) fn from_game(game: &crate::model::Game) -> Decls {
        let mut decls = Decls {
            tables: game.tables.iter().map(TableDecl::of).collect(),
            params: game
                .params
                .iter()
                .map(|p| (p.name.clone(), p.value))
                .collect(),
            max_players: game.meta.max_players as usize,
            vars: game
                .vars
                .iter()
                .map(|v| VarDecl {
                    name: v.name.clone(),
                    ty: v.ty.clone(),
                    per: v.per,
                    base: v.base,
                })
                .collect(),
            zones: game
                .zones
                .iter()
                .map(|z| ZoneDecl {
                    name: z.name.clone(),
                    of: z.of,
                    per: z.per,
                    base: z.base,
                    len: game.domain_len(z.per),
                })
                .collect(),
            boards: game
                .boards
                .iter()
                .map(|b| BoardDecl {
                    name: b.name.clone(),
                    of: b.of,
                    per: b.per,
                    base: b.base,
                    len: game.domain_len(b.per),
                })
                .collect(),
            script_functions: game
                .scripts
                .as_ref()
                .map(|s| s.functions())
                .unwrap_or_default(),
            scripts: game.scripts.clone(),
            scripts_unreadable: false,
            function_ids: game
                .functions
                .iter()
                .enumerate()
                .map(|(i, f)| (f.name.clone(), i))
                .collect(),
            rows_by_id: Default::default(),
            functions: game
                .functions
                .iter()
                .map(|f| FunctionSig {
                    name: f.name.clone(),
                    params: f.params.clone(),
                    returns: f.returns.clone(),
                })
                .collect(),
        };
        decls.index_rows();
        decls
    }
}

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
    fn unify(&mut self, span: Span, a: &Type, b: &Type) -> Type {
        self.compiler.unify(span, a, b)
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
