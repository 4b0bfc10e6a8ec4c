//! Checks over the whole ruleset: every section's ids fit 16 bits, the state fits its
//! limit, params, tables, state, zones and boards share one namespace, conserved totals
//! compile (`conserve:`), and no procedure calls itself before anything could end it.

use std::collections::HashSet;

use serde_yaml::{Mapping, Value as Yaml};

use super::expr::BUILT_IN_NAMES;
use super::yaml::{join, scalar_text};
use super::{Builder, Decls, Scope, MAX_IDS};
use crate::format;
use crate::model::{Block, Domain, Procedure, Stmt, StmtKind};
use crate::value::Type;

impl Builder {
    /// A procedure that calls itself (directly or through others) before anything could
    /// end it or the game would grow its calls until the `calls` limit stops the game:
    /// where the loader can see that, it is a load error. Each procedure's body is read up
    /// to its first call, over statements that always go on to the next one; a loop, a
    /// branch, a decision or a `return` before it may end the procedure, and is left to the
    /// runtime limit.
    pub(super) fn refuse_endless_calls(&mut self, procedures: &[Procedure], blocks: &[Block]) {
        let first_call: Vec<Option<(usize, &Stmt)>> = procedures
            .iter()
            .map(|p| {
                for stmt in &blocks[p.body.index()] {
                    match &stmt.kind {
                        StmtKind::Call { proc, .. } => return Some((proc.index(), stmt)),
                        StmtKind::Assign { .. }
                        | StmtKind::Move { .. }
                        | StmtKind::Push { .. }
                        | StmtKind::Remove { .. }
                        | StmtKind::Shuffle { .. }
                        | StmtKind::Draw(_)
                        | StmtKind::Clear { .. }
                        | StmtKind::Reveal { .. }
                        | StmtKind::Place { .. }
                        | StmtKind::Random { .. }
                        | StmtKind::Log(_)
                        | StmtKind::Award(_) => {}
                        // What may end the procedure or the game first, or loops.
                        StmtKind::If { .. }
                        | StmtKind::ForEach { .. }
                        | StmtKind::Repeat { .. }
                        | StmtKind::While { .. }
                        | StmtKind::RepeatUpTo { .. }
                        | StmtKind::EndLoop
                        | StmtKind::Choose(_)
                        | StmtKind::Return(_)
                        | StmtKind::EndGame => return None,
                    }
                }
                None
            })
            .collect();
        // Each procedure has at most one such call: walks along them end, or run into an
        // earlier walk, or into themselves (a cycle), each procedure being visited once.
        let mut walk_of = vec![usize::MAX; procedures.len()];
        let mut reported = 0;
        for start in 0..procedures.len() {
            let mut way = Vec::new();
            let mut at = start;
            while walk_of[at] == usize::MAX {
                walk_of[at] = start;
                way.push(at);
                match first_call[at] {
                    Some((next, _)) => at = next,
                    None => break,
                }
            }
            if walk_of[at] != start || first_call[at].is_none() {
                continue;
            }
            // `at` is on a cycle: the way from it comes back to it.
            let from = way.iter().position(|&p| p == at).unwrap_or(0);
            let cycle = &way[from..];
            for (i, &p) in cycle.iter().enumerate() {
                if reported == 20 {
                    return;
                }
                reported += 1;
                let names: Vec<&str> = cycle[i..]
                    .iter()
                    .chain(&cycle[..=i])
                    .map(|&q| procedures[q].name.as_str())
                    .collect();
                let origin = first_call[p]
                    .map(|(_, s)| s.origin.to_string())
                    .unwrap_or_default();
                let message = format!(
                    "procedure '{}' always calls itself before anything could end it ({}): the calls would never end",
                    procedures[p].name,
                    names.join(" → ")
                );
                self.error(&origin, message);
            }
        }
    }

    /// Every declaration is named by its key, a text: an entry whose key is a number,
    /// true/false or `~` would otherwise be left out unseen, with whatever its body holds.
    pub(super) fn keys_are_names(&mut self, top: &Mapping) {
        for section in [
            "params",
            "tables",
            "state",
            "zones",
            "boards",
            "functions",
            "procedures",
            "stats",
            "conserve",
        ] {
            if let Some(entries) = top.get(section).and_then(Yaml::as_mapping) {
                for key in entries.keys() {
                    self.key_name(key, section);
                }
            }
        }
    }

    /// Whether every section whose declarations are numbered by 16-bit ids (tables, state
    /// variables, zones, boards, functions, procedures) has at most `MAX_IDS`, each that
    /// has more reported. Checked before any is numbered, so that no id wraps.
    pub(super) fn ids_fit(&mut self, top: &Mapping) -> bool {
        let mut fit = true;
        for section in [
            "tables",
            "state",
            "zones",
            "boards",
            "functions",
            "procedures",
        ] {
            let n = top
                .get(section)
                .and_then(Yaml::as_mapping)
                .map_or(0, Mapping::len);
            if n > MAX_IDS {
                let what = if section == "state" {
                    "state variables"
                } else {
                    section
                };
                self.error(
                    section,
                    format!("a ruleset declares at most {MAX_IDS} {what}, not {n}"),
                );
                fit = false;
            }
        }
        fit
    }

    /// A state holds a number per variable slot, a list per zone instance and a grid per
    /// board instance, made when a game starts: a declaration per two large tables could
    /// ask for billions. `sections` are each section's slots, in the order they are laid out.
    pub(super) fn check_state_size(&mut self, sections: [(&str, usize); 3]) {
        let limit = self.limits.state_slots;
        let mut total = 0usize;
        for (section, slots) in sections {
            total = total.saturating_add(slots);
            if total > limit {
                self.error(
                    section,
                    format!("the state would hold {total} numbers, zones and boards with these declarations, more than {limit} (--limit slots=N raises the limit): a declaration per player or per row takes one for each, per two keys one for each pair"),
                );
                return;
            }
        }
    }

    pub(super) fn check_unique_names(&mut self, decls: &Decls) {
        let mut seen: HashSet<&str> = HashSet::new();
        for (name, section) in decls.declared_names() {
            let path = format!("{section}.{name}");
            if BUILT_IN_NAMES.contains(&name) {
                self.error(&path, format!("'{name}' is a built-in name"));
            } else if !seen.insert(name) {
                self.error(&path, format!("'{name}' is declared twice (params, tables, state, zones and boards share one namespace)"));
            }
        }
    }

    /// `conserve: { name: { per: players, holds: "…" } }`.
    pub(super) fn conserve(
        &mut self,
        value: Option<&Yaml>,
        decls: &Decls,
    ) -> Vec<crate::model::Conserved> {
        let mut out = Vec::new();
        for (name, path, m) in self.declarations(
            value,
            "conserve",
            "each {per: …, holds: \"<true/false expression>\"}",
        ) {
            if self.full() {
                break;
            }
            self.check_keys(&m, &path, &format::key_lists().conserve);
            let per = self.domain(&m, decls, &path);
            if let Domain::Pair(..) = per {
                self.error(
                    &join(&path, "per"),
                    "a conserved total is checked per players, per row of a table, or once",
                );
                continue;
            }
            let Some(holds) = m.get("holds") else {
                self.error(
                    &path,
                    "missing 'holds': what must stay true (an expression of it, the player or row)",
                );
                continue;
            };
            let scope = Scope {
                locals: &[],
                it: per.index_type(),
            };
            let source = scalar_text(holds).unwrap_or_default();
            let holds = self
                .expression(
                    decls,
                    holds,
                    &join(&path, "holds"),
                    &scope,
                    Some(&Type::Bool),
                )
                .0;
            out.push(crate::model::Conserved {
                name: name.to_string(),
                per,
                holds,
                source,
                rule: self.rule(&m, &path),
            });
        }
        out
    }
}
