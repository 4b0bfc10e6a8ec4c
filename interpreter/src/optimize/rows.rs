//! Option conditions specialized per row of a table (`ByRow`).

use super::*;

impl Folder<'_> {
    /// An option group's condition specialized for each row of the table its one `for:`
    /// list holds (see [`crate::model::OptionGroup::by_row`]), and the condition of that
    /// list when it filters a constant list of rows; none when the group has several
    /// lists, or the list is not of rows, or neither condition is there to specialize, or
    /// the table or the specialized conditions are too large.
    pub(super) fn by_row(
        &self,
        group: &crate::model::OptionGroup,
        bodies: &[Expr],
    ) -> Option<crate::model::ByRow> {
        let [(slot, list)] = group.bindings.as_slice() else {
            return None;
        };
        let filter = filter_of_constant_list(list);
        if group.condition.is_none() && filter.is_none() {
            return None;
        }
        let table = rows_of(list)?;
        let rows = self.env.game.tables.get(table.index())?.rows.len();
        if rows > SPECIALIZED_ROWS {
            return None;
        }
        let always = Expr::Const(Value::Bool(true));
        let condition = group.condition.as_ref().unwrap_or(&always);
        let mut nodes = 0;
        let by_row = self.per_row(table, rows, bodies, &mut nodes, |row| {
            put_in(condition, PutIn::Local(*slot, row), 0)
        })?;
        let filtered = match filter {
            Some((list, pass)) => {
                let pass = self.per_row(table, rows, bodies, &mut nodes, |row| {
                    put_in(pass, PutIn::Element(row), 0)
                })?;
                Some(crate::model::FilteredRows {
                    rows: list.clone(),
                    pass,
                })
            }
            None => None,
        };
        // Rows whose conditions came out the same (and no longer read the element) share
        // one. The IR has no equality of its own: its printed form says the same.
        let mut conditions: Vec<Expr> = Vec::new();
        let mut seen: std::collections::HashMap<String, u16> = std::collections::HashMap::new();
        let mut of_row = Vec::with_capacity(rows);
        for e in by_row {
            let key = (!reads_local(&e, *slot)).then(|| format!("{e:?}"));
            let known = key.as_ref().and_then(|k| seen.get(k).copied());
            let k = match known {
                Some(k) => k,
                None => {
                    let k = u16::try_from(conditions.len()).ok()?;
                    conditions.push(e);
                    if let Some(key) = key {
                        seen.insert(key, k);
                    }
                    k
                }
            };
            of_row.push(k);
        }
        Some(crate::model::ByRow {
            conditions,
            of_row,
            filtered,
        })
    }

    /// `make(row)` for each of the `rows` rows of `table`, specialized; none when `make`
    /// gives none or the nodes made, counted in `nodes`, pass [`SPECIALIZED_NODES`].
    pub(super) fn per_row(
        &self,
        table: crate::value::TableId,
        rows: usize,
        bodies: &[Expr],
        nodes: &mut usize,
        make: impl Fn(&Value) -> Option<Expr>,
    ) -> Option<Vec<Expr>> {
        let mut out = Vec::with_capacity(rows);
        for r in 0..rows {
            let mut e = make(&Value::Row(table, r as u16))?;
            self.expr(&mut e);
            self.specialize(&mut e, bodies);
            *nodes += size(&e);
            if *nodes > SPECIALIZED_NODES {
                return None;
            }
            out.push(e);
        }
        Some(out)
    }

    /// Folds what constants put into `e` decide: calls whose arguments became constants
    /// take their bodies, folded in turn, and so do small functions whose arguments became
    /// plain reads; then searches and totals over constant lists are unrolled.
    pub(super) fn specialize(&self, e: &mut Expr, bodies: &[Expr]) {
        while inline(e, bodies, constant_arguments) || inline(e, bodies, small_with_plain_reads) {
            self.expr(e);
        }
        if self.unroll(e, bodies) {
            self.expr(e);
        }
    }
}

/// The most rows a table may have for option conditions to be specialized per row, and
/// the most IR nodes the specialized conditions of one option group may hold in all.
pub(super) const SPECIALIZED_ROWS: usize = 512;

pub(super) const SPECIALIZED_NODES: usize = 50_000;

/// `filter(list, cond)` with `list` a constant: the list and the body of `cond`.
pub(super) fn filter_of_constant_list(e: &Expr) -> Option<(&std::sync::Arc<Vec<Value>>, &Expr)> {
    let Expr::Filter { list, cond } = e else {
        return None;
    };
    match (&**list, &**cond) {
        (Expr::Const(Value::List(elements)), Expr::Lambda(body)) => Some((elements, &**body)),
        _ => None,
    }
}

/// The row number a constant row stands for.
pub(super) fn row_code(e: &Expr) -> Option<u16> {
    match e {
        Expr::Const(Value::Row(_, r)) => Some(*r),
        _ => None,
    }
}

/// The table whose rows a `for:` list holds, when it is known at load: a constant list
/// of one table's rows, a filter of one, an index read, or a zone of rows.
pub(super) fn rows_of(list: &Expr) -> Option<crate::value::TableId> {
    match list {
        Expr::Const(Value::List(items)) => {
            let Some(Value::Row(t, _)) = items.first() else {
                return None;
            };
            items
                .iter()
                .all(|v| matches!(v, Value::Row(u, _) if u == t))
                .then_some(*t)
        }
        Expr::Filter { list, .. } => rows_of(list),
        Expr::RowsWhere { table, .. } => Some(*table),
        Expr::Zone(z) => match z.of {
            crate::model::Element::Row(t) => Some(t),
            crate::model::Element::Player => None,
        },
        _ => None,
    }
}

/// Whether `e` reads the local `slot`.
pub(super) fn reads_local(e: &Expr, slot: crate::ir::Slot) -> bool {
    match e {
        Expr::Local(s)
        | Expr::VarAtKey {
            key: Key::Local(s), ..
        }
        | Expr::ColumnKey {
            key: Key::Local(s), ..
        } if *s == slot => true,
        other => other.children().into_iter().any(|c| reads_local(c, slot)),
    }
}
