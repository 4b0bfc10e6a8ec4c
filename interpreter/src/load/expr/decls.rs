//! What expressions may name, known before any expression is compiled: tables, params,
//! state variables, zones, boards, functions and script functions, each found by name.

use std::sync::Arc;

use crate::id::ZoneSlot;
use crate::ir::{Expr, ZoneRead};
use crate::model::{Axis, Domain, Element};
use crate::value::{Type, Value};

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
            base: ZoneSlot::at(self.base),
            len: self.len as u32,
            index,
            of: self.of,
            name: Arc::from(self.name.as_str()),
        }
    }
}
/// `[…]` or `[…, …]`: how a declaration with these keys is indexed, for messages.
pub(crate) fn blanks(per: Domain) -> &'static str {
    match per {
        Domain::Pair(..) => "[…, …]",
        _ => "[…]",
    }
}

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
