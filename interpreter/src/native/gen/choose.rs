//! `choose` as Rust: the option listing of each group, the decision, and the chosen
//! group's body with its element bound.

use std::fmt::Write;

use super::{element, indent, Gen};
use crate::ir::{Expr, Key};
use crate::model::{ByRow, Element, FilteredRows, OptionGroup};
use crate::value::Value;

impl<'g> Gen<'g> {
    pub(super) fn choose(
        &mut self,
        choose: &'g crate::model::Choose,
        origin: &str,
        depth: usize,
    ) -> Result<String, String> {
        let i = indent(depth);
        let mut s = format!(
            "{i}{{\n{i}    let player = {};\n{i}    let mut options = cx.options();\n",
            self.code(&choose.who)
        );
        self.listing = Some(Vec::new());
        let mut listing = String::new();
        let mut kept = Vec::new();
        for (g, group) in choose.groups.iter().enumerate() {
            let (text, k) = self.group(group, g, depth + 1, origin)?;
            listing.push_str(&text);
            kept.push(k);
        }
        for id in self.listing.take().unwrap_or_default() {
            let ty = if self.game.functions[id].returns == crate::value::Type::Int {
                "i64"
            } else {
                "bool"
            };
            let _ = writeln!(s, "{i}    let mut m{id}: Option<{ty}> = None;");
        }
        if kept.contains(&Kept::Listed) {
            // The elements of lists the walker built, kept for the one decided.
            let _ = writeln!(s, "{i}    let mut values: Vec<Value> = Vec::new();");
        }
        s.push_str(&listing);
        let _ = writeln!(
            s,
            "{i}    let (group, chosen) = cx.decide(player, options)?;"
        );
        let _ = writeln!(s, "{i}    match group {{");
        for ((g, group), kept) in choose.groups.iter().enumerate().zip(kept) {
            let _ = writeln!(s, "{i}        {g} => {{");
            if let [(slot, _)] = group.bindings.as_slice() {
                let value = match kept {
                    Kept::Element(of) => format!("element_value({}, chosen)", element(of)),
                    Kept::Listed => "std::mem::take(&mut values[chosen as usize])".to_string(),
                    Kept::Nothing => "Value::None".to_string(),
                };
                let _ = writeln!(s, "{i}            l[{}] = {value};", slot.index());
            }
            s.push_str(&self.block(group.body, depth + 3)?);
            let _ = writeln!(s, "{i}        }}");
        }
        let _ = writeln!(
            s,
            "{i}        _ => return Err(Stop::Bail),\n{i}    }}\n{i}}}"
        );
        Ok(s)
    }

    /// The listing of one option group, as the walker's `enumerate_options`: the options
    /// whose condition holds, in list order, and how the chosen one's element is kept.
    fn group(
        &mut self,
        group: &'g OptionGroup,
        g: usize,
        depth: usize,
        origin: &str,
    ) -> Result<(String, Kept), String> {
        let i = indent(depth);
        let (slot, list) = match group.bindings.as_slice() {
            [] => {
                let condition = group
                    .condition
                    .as_ref()
                    .map_or_else(|| "true".to_string(), |c| self.truth(c));
                return Ok((
                    format!("{i}if {condition} {{ options.push(({g}, 0)); }}\n"),
                    Kept::Nothing,
                ));
            }
            [(slot, list)] => (slot.index(), list),
            _ => {
                return Err(format!(
                    "{origin}: an option with several for: lists is not compiled natively"
                ))
            }
        };
        // The element is put in its local only for conditions that read it; the local
        // is given back its value after the listing.
        let bind = match &group.by_row {
            Some(by_row) => by_row.conditions.iter().any(|c| reads_local(c, slot)),
            None => group
                .condition
                .as_ref()
                .is_some_and(|c| reads_local(c, slot)),
        };
        let mut s = format!("{i}{{\n");
        if bind {
            let _ = writeln!(s, "{i}    let saved = l[{slot}].clone();");
        }
        let (head, kept) = self.group_head(
            list,
            group.by_row.as_ref().and_then(|b| b.filtered.as_ref()),
            slot,
            bind,
            &i,
        );
        // What an allowed element adds to the options.
        let push = match kept {
            Kept::Listed => format!("{{ values.push(item.clone()); options.push(({g}, elem)); }}"),
            _ => format!("options.push(({g}, elem));"),
        };
        match &group.by_row {
            Some(by_row) => {
                let test = self.row_test(by_row, kept, &push, &i);
                let _ = writeln!(s, "{i}    let (mut tested, mut held) = (0u64, 0u64);");
                match &by_row.filtered {
                    Some(filtered) => {
                        for item in filtered.rows.iter() {
                            let Value::Row(t, r) = item else {
                                return Err(format!("{origin}: a filtered row that is not a row"));
                            };
                            let pass = filtered
                                .pass
                                .get(*r as usize)
                                .ok_or_else(|| format!("{origin}: a row without its filter"))?;
                            // The filter is tested where the binding is not yet made.
                            if bind && reads_local(pass, slot) {
                                let _ = writeln!(s, "{i}    l[{slot}] = saved.clone();");
                            }
                            let _ = writeln!(
                                s,
                                "{i}    if {} {{\n{i}        let elem = {r}u32;",
                                self.truth(pass)
                            );
                            if bind {
                                let _ = writeln!(
                                    s,
                                    "{i}        l[{slot}] = Value::Row(TableId({}), {r});",
                                    t.index()
                                );
                            }
                            s.push_str(&test);
                            let _ = writeln!(s, "{i}    }}");
                        }
                    }
                    None => {
                        s.push_str(&head);
                        s.push_str(&test);
                        let _ = writeln!(s, "{i}    }}");
                    }
                }
            }
            None => {
                let condition = group
                    .condition
                    .as_ref()
                    .map_or_else(|| "true".to_string(), |c| self.truth(c));
                s.push_str(&head);
                let _ = writeln!(s, "{i}        if {condition} {{ {push} }}\n{i}    }}");
            }
        }
        if bind {
            let _ = writeln!(s, "{i}    l[{slot}] = saved;");
        }
        let _ = writeln!(s, "{i}}}");
        Ok((s, kept))
    }

    /// The head of the loop over a group's `for:` list, with the element in `elem` (and
    /// in its local when `bind`), and how the chosen element is kept. Rows of a filtered
    /// table have no loop: each is listed on its own.
    fn group_head(
        &mut self,
        list: &'g Expr,
        filtered: Option<&FilteredRows>,
        slot: usize,
        bind: bool,
        i: &str,
    ) -> (String, Kept) {
        match (list, filtered) {
            // Rows of one table, tested one by one below (none: no option, whatever the table).
            (_, Some(filtered)) => {
                let table = match filtered.rows.first() {
                    Some(Value::Row(t, _)) => *t,
                    _ => crate::ir::TableId::at(0),
                };
                (String::new(), Kept::Element(Element::Row(table)))
            }
            (Expr::Zone(z), None) => {
                // Nothing moves while options are listed: the zone is read where it lies.
                let mut head = format!("{i}    let z = {};\n{i}    for &elem in cx.state.zones()[z].iter() {{\n{i}        let elem = elem as u32;\n", self.instance(z));
                if bind {
                    let _ = writeln!(
                        head,
                        "{i}        l[{slot}] = element_value({}, elem);",
                        element(z.of)
                    );
                }
                (head, Kept::Element(z.of))
            }
            (list, None) => {
                let mut head = format!("{i}    for item in as_list({})?.iter() {{\n{i}        let elem = values.len() as u32;\n", self.value(list));
                if bind {
                    let _ = writeln!(head, "{i}        l[{slot}] = item.clone();");
                }
                (head, Kept::Listed)
            }
        }
    }

    /// The test of one element of a group listed by row: its kind of row's condition,
    /// computed once per listing (for the first 64 kinds), then `push` if it holds.
    fn row_test(&mut self, by_row: &'g ByRow, kept: Kept, push: &str, i: &str) -> String {
        let conditions: Vec<String> = by_row.conditions.iter().map(|c| self.truth(c)).collect();
        let rows: Vec<String> = by_row.of_row.iter().map(|k| k.to_string()).collect();
        let name = self.constant("OF_ROW", "u16", &rows);
        let row = match kept {
            Kept::Listed => "code(item)".to_string(),
            _ => "elem as i64".to_string(),
        };
        let mut test = format!("{i}        let k = column(&{name}, {row})? as usize;\n");
        let _ = writeln!(
            test,
            "{i}        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);"
        );
        let _ = writeln!(
            test,
            "{i}        let allowed = if tested & bit != 0 {{ held & bit != 0 }} else {{"
        );
        let _ = writeln!(test, "{i}            let holds = match k {{");
        for (k, c) in conditions.iter().enumerate() {
            let _ = writeln!(test, "{i}                {k} => {c},");
        }
        let _ = writeln!(
            test,
            "{i}                _ => return Err(Stop::Bail),\n{i}            }};"
        );
        let _ = writeln!(test, "{i}            tested |= bit;\n{i}            if holds {{ held |= bit; }}\n{i}            holds\n{i}        }};");
        let _ = writeln!(test, "{i}        if allowed {{ {push} }}");
        test
    }
}

/// How an option group's element waits in the option list for the decision: as its
/// code (a zone's element, a row of a filtered table), as an index into the listing's
/// `values` (an element of a list the walker built), or not at all (no `for:`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kept {
    Element(Element),
    Listed,
    Nothing,
}

/// Whether `e` reads local `slot`.
fn reads_local(e: &Expr, slot: usize) -> bool {
    matches!(e, Expr::Local(s) if s.index() == slot)
        || matches!(e, Expr::VarAtKey { key: Key::Local(s), .. } | Expr::ColumnKey { key: Key::Local(s), .. } if s.index() == slot)
        || e.children().into_iter().any(|c| reads_local(c, slot))
}
