//! What a finished game's results read: the `ranking:` (score and tie-breaks per
//! player), the `outcome:` (each player's return) and the `stats:` (values of the final
//! state, and counters that statements add to, laid out as state variables).

use std::collections::HashSet;

use serde_yaml::{Mapping, Value as Yaml};

use super::expr::{self, VarDecl, BUILT_IN_NAMES};
use super::yaml::join;
use super::{Builder, Decls, Scope};
use crate::format;
use crate::ir::Expr as Ir;
use crate::model::{Domain, OutcomeRule, Ranking, Stat, Var};
use crate::value::{Type, Value};

impl Builder {
    /// The entries of `stats:`, each with its path and mapping (an expression alone is
    /// `{value: EXPRESSION}`).
    pub(super) fn stat_entries(&mut self, value: Option<&Yaml>) -> Vec<(String, String, Mapping)> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(map) = value.as_mapping() else {
            self.error("stats", "expected a mapping of names to statistics (an expression, {value: …} or {counter: true})");
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("stats.{name}");
            let m = match v {
                Yaml::Mapping(m) => m.clone(),
                Yaml::Sequence(_) | Yaml::Tagged(_) => {
                    self.error(&path, "a statistic is an expression, {value: EXPRESSION, doc: …} or {counter: true, doc: …}");
                    continue;
                }
                scalar => Mapping::from_iter([(Yaml::String("value".into()), scalar.clone())]),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                self.error(&path, "a statistic's name uses letters, digits and '_' only (it is a column of the results)");
            }
            out.push((name.to_string(), path, m));
        }
        out
    }

    fn is_counter(&mut self, m: &Mapping, path: &str) -> bool {
        match m.get("counter") {
            None | Some(Yaml::Bool(false)) => false,
            Some(Yaml::Bool(true)) => true,
            Some(_) => {
                self.error(&join(path, "counter"), "expected true or false");
                false
            }
        }
    }

    /// The counters of `stats:` (`{counter: true}`) are state variables, whole numbers from
    /// 0 that statements change by name; marked `stat` so that nothing but results shows
    /// them. Declared before the procedures are compiled, which may add to them. Returns
    /// the names of the counters declared.
    pub(super) fn stat_counters(
        &mut self,
        entries: &[(String, String, Mapping)],
        decls: &mut Decls,
        vars: &mut Vec<Var>,
        slots: &mut usize,
    ) -> HashSet<String> {
        let mut declared = HashSet::new();
        // Looked up once per counter: a set, so that many counters load in linear time.
        let mut taken_names: HashSet<String> =
            decls.declared_names().map(|(n, _)| n.to_string()).collect();
        for (name, path, m) in entries {
            if self.full() {
                break;
            }
            let (name, path) = (name.clone(), path.as_str());
            self.check_keys(m, path, &format::key_lists().stat);
            let counter = self.is_counter(m, path);
            match (counter, m.contains_key("value")) {
                (true, true) => self.error(path, "a statistic is a counter or a value, not both"),
                // A `counter:` that is not true/false was reported as such.
                (false, false) if !m.contains_key("counter") => self.error(
                    path,
                    "missing 'value' (an expression of the final state) or 'counter: true'",
                ),
                _ => {}
            }
            if !counter {
                continue;
            }
            let taken =
                BUILT_IN_NAMES.contains(&name.as_str()) || !taken_names.insert(name.clone());
            if taken {
                self.error(path, format!("'{name}' is declared already: a counter is a state variable, and shares the namespace of params, tables, state, zones and boards"));
                continue;
            }
            declared.insert(name.clone());
            let base = *slots;
            *slots += 1;
            decls.vars.push(VarDecl {
                name: name.clone(),
                ty: Type::Int,
                per: Domain::Global,
                base,
            });
            vars.push(Var {
                name,
                ty: Type::Int,
                per: Domain::Global,
                base,
                init: Ir::Const(Value::Int(0)),
                doc: self.string(m, "doc", path),
                rule: self.rule(m, path),
                internal: true,
                stat: true,
            });
        }
        declared
    }

    /// `stats:` as the game records them: each value's expression (whole number or
    /// true/false, no `it`), a counter reading its variable.
    pub(super) fn stats(
        &mut self,
        entries: Vec<(String, String, Mapping)>,
        decls: &Decls,
        counters: &HashSet<String>,
    ) -> Vec<Stat> {
        let mut out = Vec::new();
        let scope = Scope {
            locals: &[],
            it: None,
        };
        // The entries' shape was checked, and its errors reported, with the counters.
        for (name, path, m) in entries {
            if self.full() {
                break;
            }
            let counter = m.get("counter") == Some(&Yaml::Bool(true));
            if counter && !counters.contains(&name) {
                continue;
            }
            let (expr, ty) = if counter {
                self.expression(
                    decls,
                    &Yaml::String(name.clone()),
                    &path,
                    &scope,
                    Some(&Type::Int),
                )
            } else {
                let Some(v) = m.get("value") else { continue };
                let vpath = join(&path, "value");
                let (expr, ty) = self.expression(decls, v, &vpath, &scope, None);
                if !matches!(ty, Type::Int | Type::Bool | Type::Any) {
                    self.error(
                        &vpath,
                        format!(
                            "a statistic is a whole number or true/false, not {}",
                            expr::type_name(decls, &ty)
                        ),
                    );
                }
                (expr, ty)
            };
            out.push(Stat {
                name,
                value: expr,
                ty,
                counter,
                doc: self.string(&m, "doc", &path),
                rule: self.rule(&m, &path),
            });
        }
        out
    }

    pub(super) fn ranking(&mut self, value: Option<&Yaml>, decls: &Decls) -> Ranking {
        let fallback = || Ranking {
            score: Ir::Const(Value::Int(0)),
            tiebreak: Vec::new(),
            rule: None,
            label: String::new(),
            tiebreak_labels: Vec::new(),
        };
        let Some(m) = value.and_then(Yaml::as_mapping) else {
            self.error(
                "ranking",
                "missing 'ranking': {score: \"<expression of it, the player>\", tiebreak: [...]}",
            );
            return fallback();
        };
        self.check_keys(m, "ranking", &format::key_lists().ranking);
        let scope = Scope {
            locals: &[],
            it: Some(Type::Player),
        };
        let score = match m.get("score") {
            Some(v) => {
                self.expression(decls, v, "ranking.score", &scope, Some(&Type::Int))
                    .0
            }
            None => {
                self.error("ranking", "missing 'score'");
                return fallback();
            }
        };
        let mut tiebreak = Vec::new();
        let source = |v: Option<&Yaml>| v.and_then(Yaml::as_str).unwrap_or_default().to_string();
        let label = match m.get("doc").and_then(Yaml::as_str) {
            Some(doc) => doc.trim().to_string(),
            None => source(m.get("score")),
        };
        let mut tiebreak_labels = Vec::new();
        if let Some(list) = m.get("tiebreak") {
            match list.as_sequence() {
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        let path = format!("ranking.tiebreak[{i}]");
                        tiebreak_labels.push(source(Some(item)));
                        tiebreak.push(
                            self.expression(decls, item, &path, &scope, Some(&Type::Int))
                                .0,
                        );
                    }
                }
                None => self.error("ranking.tiebreak", "expected a list of expressions"),
            }
        }
        Ranking {
            score,
            tiebreak,
            rule: self.rule(m, "ranking"),
            label,
            tiebreak_labels,
        }
    }

    /// `outcome:`, when the ruleset has one.
    pub(super) fn outcome(&mut self, value: Option<&Yaml>, decls: &Decls) -> Option<OutcomeRule> {
        let value = value?;
        let Some(m) = value.as_mapping() else {
            self.error(
                "outcome",
                "expected a mapping: {returns: \"<whole-number expression of it, the player>\", scale: 1}",
            );
            return None;
        };
        self.check_keys(m, "outcome", &format::key_lists().outcome);
        let scope = Scope {
            locals: &[],
            it: Some(Type::Player),
        };
        let (returns, returns_source) = match m.get("returns") {
            Some(v) => (
                self.expression(decls, v, "outcome.returns", &scope, Some(&Type::Int))
                    .0,
                match v {
                    Yaml::String(s) => s.clone(),
                    other => serde_yaml::to_string(other)
                        .unwrap_or_default()
                        .trim()
                        .to_string(),
                },
            ),
            None => {
                self.error(
                    "outcome",
                    "missing 'returns': each player's return, an expression of it",
                );
                return None;
            }
        };
        let scale = match m.get("scale") {
            None => 1,
            Some(v) => match v.as_i64() {
                Some(n) if n > 0 => n,
                _ => {
                    self.error(
                        "outcome.scale",
                        "expected a positive whole number (the returns are divided by it)",
                    );
                    1
                }
            },
        };
        Some(OutcomeRule {
            returns,
            returns_source,
            scale,
            rule: self.rule(m, "outcome"),
        })
    }
}
