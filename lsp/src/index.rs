//! What one ruleset file declares and where it names what: every declaration (params,
//! tables and their columns and rows, state, zones, boards, functions, procedures, stats,
//! locals) with the place of its name, and every name written in it (inside expression
//! and template strings too, through the grammar's parser) with its role. Names are
//! resolved against the declarations of all the files of a ruleset (a variant and what it
//! extends) by `Symbols`.

use std::collections::HashMap;
use std::ops::Range;

use frontier_interpreter::frontier_grammar::expr::{
    parse_expr, parse_template, Bounds, Expr, ExprKind, Name, TemplatePart,
};

use crate::yaml::{Kind, Node};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DeclKind {
    Param,
    Table,
    Column,
    Row,
    State,
    Zone,
    Board,
    Function,
    Procedure,
    Stat,
}

impl DeclKind {
    pub fn word(self) -> &'static str {
        match self {
            DeclKind::Param => "parameter",
            DeclKind::Table => "table",
            DeclKind::Column => "column",
            DeclKind::Row => "row",
            DeclKind::State => "state variable",
            DeclKind::Zone => "zone",
            DeclKind::Board => "board",
            DeclKind::Function => "function",
            DeclKind::Procedure => "procedure",
            DeclKind::Stat => "statistic",
        }
    }

    /// The sections of a ruleset that declare names of this kind, and the kind.
    pub const SECTIONS: [(&'static str, DeclKind); 9] = [
        ("params", DeclKind::Param),
        ("tables", DeclKind::Table),
        ("state", DeclKind::State),
        ("zones", DeclKind::Zone),
        ("boards", DeclKind::Board),
        ("functions", DeclKind::Function),
        ("procedures", DeclKind::Procedure),
        ("stats", DeclKind::Stat),
        ("conserve", DeclKind::Stat),
    ];
}

/// A name declared in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decl {
    pub kind: DeclKind,
    pub name: String,
    /// A column's or row's table; a local's procedure or function (its YAML path).
    pub owner: Option<String>,
    /// The name as written.
    pub span: Range<usize>,
    /// The whole declaration (its key and value), for hover.
    pub whole: Range<usize>,
    pub doc: Option<String>,
    /// Its YAML path (`zones.hand`).
    pub path: String,
}

/// How a name is used where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// A bare name in an expression: a local, a parameter, a variable, a zone, a table…
    Name,
    /// `x.name`: a column (or `player.var`); `base` is `x`, as parsed (its spans are in
    /// the string it is written in).
    Field { base: Box<Expr> },
    /// `name(…)`: a built-in, a function of the ruleset or a script function.
    Call,
    /// `@id`, `table@id`, `table["id"]`.
    Row { table: Option<String> },
    /// A procedure named by `call:`.
    Procedure,
    /// A parameter named in a `call:` of that procedure.
    ProcedureParam { procedure: String },
    /// A type name (`of:`, `per:`, `columns:`, parameters' types): a table, or a word.
    Type,
    /// A name that a declaration of the file gives (`let:` and loop names, lambdas).
    Declares,
    /// A statement's verb (`move:`, `choose:`).
    Statement,
}

/// A name written in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    pub name: String,
    pub span: Range<usize>,
    pub role: Role,
    /// The procedure or function it is written in (its YAML path), for its locals.
    pub scope: Option<String>,
}

/// A `rule:` reference written in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleRef {
    pub text: String,
    pub span: Range<usize>,
}

/// Where an expression or template is written, and the statement key it stands under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub span: Range<usize>,
    pub template: bool,
    pub scope: Option<String>,
}

#[derive(Debug, Default)]
pub struct FileIndex {
    pub decls: Vec<Decl>,
    pub uses: Vec<Use>,
    pub rules: Vec<RuleRef>,
    /// Every expression and template string, in order.
    pub sources: Vec<Source>,
    /// Every statement list (`do:`, `then:`, `setup`…): where a statement key may go.
    pub blocks: Vec<Range<usize>>,
}

impl FileIndex {
    pub fn of(root: &Node) -> FileIndex {
        let mut index = FileIndex::default();
        let mut walker = Walker { index: &mut index };
        walker.top(root);
        index.uses.sort_by_key(|u| u.span.start);
        index
    }

    /// The use written at `offset`, if any.
    pub fn use_at(&self, offset: usize) -> Option<&Use> {
        self.uses
            .iter()
            .find(|u| u.span.start <= offset && offset <= u.span.end)
    }

    /// The declaration whose name is written at `offset`, if any.
    pub fn decl_at(&self, offset: usize) -> Option<&Decl> {
        self.decls
            .iter()
            .find(|d| d.span.start <= offset && offset <= d.span.end)
    }

    pub fn rule_at(&self, offset: usize) -> Option<&RuleRef> {
        self.rules
            .iter()
            .find(|r| r.span.start <= offset && offset <= r.span.end)
    }

    pub fn source_at(&self, offset: usize) -> Option<&Source> {
        self.sources
            .iter()
            .find(|s| s.span.start <= offset && offset <= s.span.end)
    }
}

/// Keys whose values are prose or plain data, never names.
const PROSE: &[&str] = &[
    "doc",
    "reconstructed",
    "title",
    "name",
    "summary",
    "rulebook",
    "extends",
    "frontier",
    "players",
    "visibility",
    "scale",
    "counter",
    "internal",
    "stat",
    "min",
    "max",
];

/// Keys whose values are templates.
const TEMPLATES: &[&str] = &[
    "label",
    "prompt",
    "log",
    "show",
    "cell_text",
    "end_game",
    "text",
    "mark",
    "line",
];

/// Keys whose values are type names.
const TYPES: &[&str] = &["of", "per", "returns", "type"];

/// Statement keys that hold blocks of statements.
const BLOCKS: &[&str] = &["do", "then", "else", "setup", "play"];

struct Walker<'a> {
    index: &'a mut FileIndex,
}

impl Walker<'_> {
    fn top(&mut self, root: &Node) {
        for (key, value) in root.entries() {
            let Some(section) = key.text() else { continue };
            match section {
                "setup" | "play" => self.body(value, Some(section.to_string())),
                "ranking" | "outcome" | "view" | "display" => {
                    self.values(value, Some(section.to_string()))
                }
                _ => {
                    if let Some(&(_, kind)) = DeclKind::SECTIONS.iter().find(|(s, _)| *s == section)
                    {
                        for (name, decl) in value.entries() {
                            self.declaration(section, kind, name, decl);
                        }
                    }
                }
            }
        }
    }

    fn declare(&mut self, kind: DeclKind, name: &Node, whole: Range<usize>, path: String) {
        let Some(text) = name.text() else { return };
        self.index.decls.push(Decl {
            kind,
            name: text.to_string(),
            owner: None,
            span: name.span.clone(),
            whole,
            doc: None,
            path,
        });
    }

    fn declaration(&mut self, section: &str, kind: DeclKind, name: &Node, value: &Node) {
        let Some(text) = name.text() else { return };
        let path = format!("{section}.{text}");
        let whole = name.span.start..value.span.end.max(name.span.end);
        self.declare(kind, name, whole, path.clone());
        if let Some(decl) = self.index.decls.last_mut() {
            decl.doc = value.get("doc").and_then(Node::text).map(str::to_string);
        }
        let scope = Some(path.clone());
        match kind {
            DeclKind::Table => self.table(text, value),
            DeclKind::Procedure | DeclKind::Function => {
                if let Some(params) = value.get("params") {
                    for (p, ty) in params.entries() {
                        self.local(p, scope.clone());
                        self.types(ty);
                    }
                }
                match &value.kind {
                    Kind::Seq(_) => self.body(value, scope),
                    _ => {
                        for (k, v) in value.entries() {
                            match k.text() {
                                Some("params") => {}
                                Some("do") => self.body(v, scope.clone()),
                                Some("returns") => self.types(v),
                                Some(key) => self.value(key, v, scope.clone()),
                                None => {}
                            }
                        }
                    }
                }
            }
            _ => match &value.kind {
                Kind::Map(entries) => {
                    for (k, v) in entries {
                        if let Some(key) = k.text() {
                            self.value(key, v, scope.clone());
                        }
                    }
                }
                // `stats: { name: "expression" }`, `state: { x: int }`.
                Kind::Scalar(_) => match kind {
                    DeclKind::Stat => self.expression(value, scope),
                    DeclKind::State => self.types(value),
                    _ => {}
                },
                _ => {}
            },
        }
    }

    fn table(&mut self, table: &str, value: &Node) {
        for (k, v) in value.entries() {
            match k.text() {
                Some("columns") => {
                    for (column, ty) in v.entries() {
                        self.owned(DeclKind::Column, column, table);
                        self.types(ty);
                    }
                }
                Some("rows") => {
                    for row in v.items() {
                        let id = match &row.kind {
                            Kind::Seq(items) => items.first(),
                            Kind::Map(_) => row.get("id"),
                            Kind::Scalar(_) => Some(row),
                            Kind::Alias => None,
                        };
                        if let Some(id) = id {
                            self.owned(DeclKind::Row, id, table);
                        }
                    }
                }
                Some("show") => self.template(v, None),
                Some("rule") => self.rule(v),
                Some("geometry" | "pairs" | "product" | "grid") => self.types_in(v),
                _ => {}
            }
        }
    }

    fn owned(&mut self, kind: DeclKind, name: &Node, owner: &str) {
        let Some(text) = name.text() else { return };
        let path = format!("tables.{owner}.{text}");
        self.declare(kind, name, name.span.clone(), path);
        if let Some(d) = self.index.decls.last_mut() {
            d.owner = Some(owner.to_string());
            d.name = text.to_string();
        }
    }

    fn local(&mut self, name: &Node, scope: Option<String>) {
        let Some(text) = name.text() else { return };
        self.index.uses.push(Use {
            name: text.to_string(),
            span: name.span.clone(),
            role: Role::Declares,
            scope,
        });
    }

    /// Type names under a node: each scalar may name a table.
    fn types(&mut self, node: &Node) {
        node.walk(&mut |n, _| {
            if let Some(s) = n.scalar() {
                let name = s.value.trim_end_matches('?');
                if let Some(at) = s.start() {
                    if is_name(name) {
                        self.index.uses.push(Use {
                            name: name.to_string(),
                            span: at..at + name.len(),
                            role: Role::Type,
                            scope: None,
                        });
                    }
                }
            }
        });
    }

    /// The values of a mapping that may name tables (geometry, pairs).
    fn types_in(&mut self, node: &Node) {
        for (k, v) in node.entries() {
            if matches!(
                k.text(),
                Some("of" | "table" | "first" | "second" | "tables")
            ) {
                self.types(v);
            }
        }
    }

    fn rule(&mut self, node: &Node) {
        if let Some(s) = node.scalar() {
            self.index.rules.push(RuleRef {
                text: s.value.clone(),
                span: node.span.clone(),
            });
        }
    }

    /// A block of statements.
    fn body(&mut self, node: &Node, scope: Option<String>) {
        match &node.kind {
            Kind::Seq(items) => {
                self.index.blocks.push(node.span.clone());
                for statement in items {
                    self.statement(statement, scope.clone());
                }
            }
            // `setup: { do: [...], doc, rule }`
            Kind::Map(entries) => {
                for (k, v) in entries {
                    match k.text() {
                        Some("do") => self.body(v, scope.clone()),
                        Some(key) => self.value(key, v, scope.clone()),
                        None => {}
                    }
                }
            }
            Kind::Scalar(_) | Kind::Alias => {}
        }
    }

    fn statement(&mut self, node: &Node, scope: Option<String>) {
        if node.text() == Some("end_game") {
            self.verb(node, &scope);
        }
        for (k, v) in node.entries() {
            let Some(key) = k.text() else { continue };
            if frontier_interpreter::statement_verbs().any(|(verb, _)| verb == key) {
                self.verb(k, &scope);
            }
            match key {
                "set" | "add" => {
                    for (target, value) in v.entries() {
                        self.expression(target, scope.clone());
                        self.expression(value, scope.clone());
                    }
                }
                "let" | "for_each" | "random" => match &v.kind {
                    Kind::Map(entries) => {
                        for (name, value) in entries {
                            self.local(name, scope.clone());
                            self.expression(value, scope.clone());
                        }
                    }
                    _ => self.expression(v, scope.clone()),
                },
                "into" | "as" => self.local(v, scope.clone()),
                "call" => self.call(v, scope.clone()),
                "choose" => {
                    for (ck, cv) in v.entries() {
                        match ck.text() {
                            Some("options") => {
                                for option in cv.items() {
                                    self.option(option, scope.clone());
                                }
                            }
                            Some(other) => self.value(other, cv, scope.clone()),
                            None => {}
                        }
                    }
                }
                "repeat" => match &v.kind {
                    Kind::Map(entries) => {
                        for (rk, rv) in entries {
                            match rk.text() {
                                Some("as") => self.local(rv, scope.clone()),
                                Some(other) => self.value(other, rv, scope.clone()),
                                None => {}
                            }
                        }
                    }
                    _ => self.expression(v, scope.clone()),
                },
                "match" => self.value(key, v, scope.clone()),
                "cases" => {
                    for (case, block) in v.entries() {
                        self.expression(case, scope.clone());
                        self.body(block, scope.clone());
                    }
                }
                _ if BLOCKS.contains(&key) => self.body(v, scope.clone()),
                _ => self.value(key, v, scope.clone()),
            }
        }
    }

    fn verb(&mut self, node: &Node, scope: &Option<String>) {
        if let Some(text) = node.text() {
            self.index.uses.push(Use {
                name: text.to_string(),
                span: node.span.clone(),
                role: Role::Statement,
                scope: scope.clone(),
            });
        }
    }

    fn option(&mut self, node: &Node, scope: Option<String>) {
        for (k, v) in node.entries() {
            match k.text() {
                Some("for") => {
                    for (name, list) in v.entries() {
                        self.local(name, scope.clone());
                        self.expression(list, scope.clone());
                    }
                }
                Some("do") => self.body(v, scope.clone()),
                Some(key) => self.value(key, v, scope.clone()),
                None => {}
            }
        }
    }

    fn call(&mut self, node: &Node, scope: Option<String>) {
        let procedure = |this: &mut Self, name: &Node| {
            if let Some(text) = name.text() {
                this.index.uses.push(Use {
                    name: text.to_string(),
                    span: name.span.clone(),
                    role: Role::Procedure,
                    scope: scope.clone(),
                });
            }
        };
        match &node.kind {
            Kind::Scalar(_) => procedure(self, node),
            Kind::Map(entries) => {
                for (name, args) in entries {
                    procedure(self, name);
                    let Some(proc_name) = name.text() else {
                        continue;
                    };
                    for (param, value) in args.entries() {
                        if let Some(p) = param.text() {
                            self.index.uses.push(Use {
                                name: p.to_string(),
                                span: param.span.clone(),
                                role: Role::ProcedureParam {
                                    procedure: proc_name.to_string(),
                                },
                                scope: scope.clone(),
                            });
                        }
                        self.expression(value, scope.clone());
                    }
                }
            }
            _ => {}
        }
    }

    /// The value of `key`: prose, a template, type names, a rule or an expression (lists
    /// and mappings of them).
    fn value(&mut self, key: &str, node: &Node, scope: Option<String>) {
        if key == "rule" {
            self.rule(node);
        } else if PROSE.contains(&key) {
        } else if TYPES.contains(&key) {
            self.types(node);
        } else if TEMPLATES.contains(&key) {
            self.template(node, scope);
        } else if BLOCKS.contains(&key) {
            self.body(node, scope);
        } else {
            self.values_keyed(node, scope);
        }
    }

    /// Every value under a node (a section such as `ranking:` or `view:`), each read by
    /// the key it stands under.
    fn values(&mut self, node: &Node, scope: Option<String>) {
        match &node.kind {
            Kind::Scalar(_) => {
                // `display:` lines are templates.
                if scope.as_deref() == Some("display") {
                    self.template(node, scope)
                } else {
                    self.expression(node, scope)
                }
            }
            Kind::Seq(items) => {
                for item in items {
                    self.values(item, scope.clone());
                }
            }
            Kind::Map(entries) => {
                for (k, v) in entries {
                    match k.text() {
                        Some("for") => {
                            for (name, list) in v.entries() {
                                self.local(name, scope.clone());
                                self.expression(list, scope.clone());
                            }
                        }
                        Some(key) if !matches!(&v.kind, Kind::Scalar(_)) && key != "rule" => {
                            self.values(v, scope.clone())
                        }
                        Some(key) => self.value(key, v, scope.clone()),
                        None => {}
                    }
                }
            }
            Kind::Alias => {}
        }
    }

    fn values_keyed(&mut self, node: &Node, scope: Option<String>) {
        match &node.kind {
            Kind::Scalar(_) => self.expression(node, scope),
            Kind::Seq(items) => {
                for item in items {
                    self.values_keyed(item, scope.clone());
                }
            }
            Kind::Map(entries) => {
                for (k, v) in entries {
                    if let Some(key) = k.text() {
                        self.value(key, v, scope.clone());
                    }
                }
            }
            Kind::Alias => {}
        }
    }

    fn expression(&mut self, node: &Node, scope: Option<String>) {
        let Some(s) = node.scalar() else { return };
        let Some(span) = s.place(0..s.value.len()) else {
            return;
        };
        self.index.sources.push(Source {
            span,
            template: false,
            scope: scope.clone(),
        });
        if let Ok(expr) = parse_expr(&s.value, Bounds::DEFAULT) {
            self.names(&expr, s, &scope);
        }
    }

    fn template(&mut self, node: &Node, scope: Option<String>) {
        let Some(s) = node.scalar() else {
            // A list of templates (`display:`), or a mapping of them.
            for item in node.items() {
                self.template(item, scope.clone());
            }
            return;
        };
        let Some(span) = s.place(0..s.value.len()) else {
            return;
        };
        self.index.sources.push(Source {
            span,
            template: true,
            scope: scope.clone(),
        });
        if let Ok(parts) = parse_template(&s.value, Bounds::DEFAULT) {
            for part in parts {
                if let TemplatePart::Hole(expr) = part {
                    self.names(&expr, s, &scope);
                }
            }
        }
    }

    /// The names of an expression of scalar `s`, each where it is written.
    fn names(&mut self, expr: &Expr, s: &crate::yaml::Scalar, scope: &Option<String>) {
        let mut push = |name: &Name, role: Role| {
            if let Some(span) = s.place(name.span.start..name.span.end) {
                self.index.uses.push(Use {
                    name: name.text.clone(),
                    span,
                    role,
                    scope: scope.clone(),
                });
            }
        };
        walk_names(expr, &s.value, &mut push);
    }
}

/// Calls `push` on every name of `expr`, with its role.
pub fn walk_names(expr: &Expr, source: &str, push: &mut impl FnMut(&Name, Role)) {
    match &expr.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Str(_) => {}
        ExprKind::Name(n) => push(n, Role::Name),
        ExprKind::Field(base, n) => {
            walk_names(base, source, push);
            push(n, Role::Field { base: base.clone() });
        }
        ExprKind::Index(base, index) => {
            walk_names(base, source, push);
            // `table["id"]`: a row named by its id.
            if let (ExprKind::Name(table), ExprKind::Str(id)) = (&base.kind, &index.kind) {
                let quoted = Name {
                    text: id.clone(),
                    span: frontier_interpreter::frontier_grammar::Span::new(
                        index.span.start + 1,
                        index.span.end.saturating_sub(1).max(index.span.start + 1),
                    ),
                };
                if source.get(quoted.span.start..quoted.span.end) == Some(id.as_str()) {
                    push(
                        &quoted,
                        Role::Row {
                            table: Some(table.text.clone()),
                        },
                    );
                }
            } else {
                walk_names(index, source, push);
            }
        }
        ExprKind::Call(n, args) => {
            push(n, Role::Call);
            for a in args {
                walk_names(a, source, push);
            }
        }
        ExprKind::List(items) => {
            for i in items {
                walk_names(i, source, push);
            }
        }
        ExprKind::Unary(_, e) => walk_names(e, source, push),
        ExprKind::Binary(_, a, b) => {
            walk_names(a, source, push);
            walk_names(b, source, push);
        }
        ExprKind::If(c, a, b) => {
            walk_names(c, source, push);
            walk_names(a, source, push);
            walk_names(b, source, push);
        }
        ExprKind::Lambda(n, body) => {
            push(n, Role::Declares);
            walk_names(body, source, push);
        }
        ExprKind::Let(n, value, body) => {
            push(n, Role::Declares);
            walk_names(value, source, push);
            walk_names(body, source, push);
        }
        ExprKind::Row(table, id) => {
            if let Some(t) = table {
                push(t, Role::Name);
            }
            push(
                id,
                Role::Row {
                    table: table.as_ref().map(|t| t.text.clone()),
                },
            );
        }
    }
}

fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The global names of a ruleset's files (a variant first, then what it extends): what a
/// name in an expression may mean outside locals. A variant's declaration hides its base's.
#[derive(Debug, Default)]
pub struct Symbols {
    /// (kind, name, owner) → (file number, declaration number), the first file first.
    by_name: HashMap<(DeclKind, String, Option<String>), (usize, usize)>,
}

/// A declaration found: which file (its number among the ruleset's files) and which one.
pub type Found = (usize, usize);

/// The kinds a bare name may be, in the order the loader looks them up (after locals).
const BARE: [DeclKind; 6] = [
    DeclKind::Param,
    DeclKind::State,
    DeclKind::Zone,
    DeclKind::Board,
    DeclKind::Table,
    DeclKind::Stat,
];

impl Symbols {
    pub fn of(files: &[&FileIndex]) -> Symbols {
        let mut by_name = HashMap::new();
        for (f, index) in files.iter().enumerate() {
            for (d, decl) in index.decls.iter().enumerate() {
                let owner = match decl.kind {
                    DeclKind::Column | DeclKind::Row => decl.owner.clone(),
                    _ => None,
                };
                by_name
                    .entry((decl.kind, decl.name.clone(), owner))
                    .or_insert((f, d));
            }
        }
        Symbols { by_name }
    }

    pub fn get(&self, kind: DeclKind, name: &str, owner: Option<&str>) -> Option<Found> {
        self.by_name
            .get(&(kind, name.to_string(), owner.map(str::to_string)))
            .copied()
    }

    /// Every declaration of these kinds with this name (any owner).
    pub fn all(&self, kinds: &[DeclKind], name: &str) -> Vec<Found> {
        let mut out: Vec<Found> = self
            .by_name
            .iter()
            .filter(|((k, n, _), _)| kinds.contains(k) && n == name)
            .map(|(_, f)| *f)
            .collect();
        out.sort();
        out
    }

    /// What a use means, among the global declarations (locals are resolved apart, in
    /// their file: see [`local_of`]).
    pub fn resolve(&self, u: &Use) -> Vec<Found> {
        match &u.role {
            Role::Name => BARE
                .iter()
                .find_map(|k| self.get(*k, &u.name, None))
                .into_iter()
                .collect(),
            Role::Field { .. } => {
                let columns = self.all(&[DeclKind::Column], &u.name);
                if columns.is_empty() {
                    self.get(DeclKind::State, &u.name, None)
                        .into_iter()
                        .collect()
                } else {
                    columns
                }
            }
            Role::Call => self
                .get(DeclKind::Function, &u.name, None)
                .into_iter()
                .collect(),
            Role::Row { table: Some(t) } => self
                .get(DeclKind::Row, &u.name, Some(t))
                .into_iter()
                .collect(),
            Role::Row { table: None } => self.all(&[DeclKind::Row], &u.name),
            Role::Procedure => self
                .get(DeclKind::Procedure, &u.name, None)
                .into_iter()
                .collect(),
            Role::ProcedureParam { .. } => Vec::new(),
            Role::Type => self
                .get(DeclKind::Table, &u.name, None)
                .into_iter()
                .collect(),
            Role::Declares | Role::Statement => Vec::new(),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (DeclKind, &str, Found)> {
        self.by_name
            .iter()
            .map(|((k, n, _), f)| (*k, n.as_str(), *f))
    }
}

/// The local a use in `index` names: the nearest declaration of that name above it in the
/// same procedure or function (a lambda's or `let … in`'s, or a statement's), if any.
pub fn local_of<'i>(index: &'i FileIndex, u: &Use) -> Option<&'i Use> {
    if !matches!(u.role, Role::Name | Role::Declares) {
        return None;
    }
    index
        .uses
        .iter()
        .filter(|d| {
            d.role == Role::Declares
                && d.name == u.name
                && d.scope == u.scope
                && d.span.start <= u.span.start
        })
        .max_by_key(|d| d.span.start)
}

/// A procedure's parameter declared in `index` (its `params:` key).
pub fn procedure_param<'i>(index: &'i FileIndex, procedure: &str, name: &str) -> Option<&'i Use> {
    let scope = format!("procedures.{procedure}");
    index
        .uses
        .iter()
        .find(|d| d.role == Role::Declares && d.name == name && d.scope.as_deref() == Some(&scope))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small ruleset: a table, state, zones, a procedure called with a parameter.
    const TEXT: &str = r#"frontier: 1
name: leak-probe
title: "Leak probe"
players: 2
tables:
  cards:
    columns: { rank: int }
    rows: [[kilo, 1], [lima, 2], [mike, 3], [oscar, 4], [papa, 5], [quebec, 6]]
state:
  active: { type: player, init: "players[0]" }
  score: { per: players, init: 0 }
zones:
  deck: { of: cards, visibility: count, init: all }
  hand: { of: cards, per: players, visibility: owner }
procedures:
  deal:
    params: { to: player }
    do:
      - random: { card: deck }
      - move: { item: card, from: deck, to: "hand[to]" }
play:
  - call: { deal: { to: "players[0]" } }
  - call: { deal: { to: "players[1]" } }
  - for_each: { p: players }
    do:
      - choose:
          who: p
          prompt: "keep or fold"
          options:
            - label: keep
              do:
                - set: { "score[p]": "first(hand[p]).rank" }
            - label: fold
ranking:
  score: "score[it]"
"#;

    fn index() -> FileIndex {
        FileIndex::of(&crate::yaml::parse(TEXT).unwrap())
    }

    #[test]
    fn declarations_are_found_with_their_names_place() {
        let index = index();
        let found: Vec<(DeclKind, &str, &str)> = index
            .decls
            .iter()
            .map(|d| (d.kind, d.name.as_str(), &TEXT[d.span.clone()]))
            .collect();
        for want in [
            (DeclKind::Table, "cards", "cards"),
            (DeclKind::Column, "rank", "rank"),
            (DeclKind::Row, "quebec", "quebec"),
            (DeclKind::State, "score", "score"),
            (DeclKind::Zone, "hand", "hand"),
            (DeclKind::Procedure, "deal", "deal"),
        ] {
            assert!(found.contains(&want), "{want:?} in {found:?}");
        }
    }
}
