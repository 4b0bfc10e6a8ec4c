//! The ruleset's header: its format version, name, title and number of players, and its
//! `params:` (whole numbers a variant or a command line may change, within their range).

use serde_yaml::{Mapping, Value as Yaml};

use super::yaml::{join, yaml_text};
use super::Builder;
use crate::format;
use crate::model::{Meta, Param};

impl Builder {
    pub(super) fn meta(&mut self, top: &Mapping, origin: &str) -> Meta {
        let name = self.string(top, "name", "").unwrap_or_else(|| {
            self.error(
                "name",
                "missing 'name' (the ruleset's short name, e.g. go-west)",
            );
            String::new()
        });
        if name.is_empty() && top.contains_key("name") {
            self.error(
                "name",
                "a ruleset name cannot be empty (the ruleset's short name, e.g. go-west)",
            );
        } else if !name.is_empty() && !crate::model::is_ruleset_name(&name) {
            self.error(
                "name",
                "a ruleset name uses letters, digits, '-' and '_' only",
            );
        }
        let title = self
            .string(top, "title", "")
            .unwrap_or_else(|| name.clone());
        let (min_players, max_players) = match top.get("players") {
            Some(Yaml::Number(n)) if n.as_u64().is_some_and(|n| (1..=16).contains(&n)) => {
                let n = n.as_u64().unwrap_or(1) as u8;
                (n, n)
            }
            Some(Yaml::Sequence(s)) if s.len() == 2 => {
                let lo = s[0].as_u64().filter(|n| (1..=16).contains(n));
                let hi = s[1].as_u64().filter(|n| (1..=16).contains(n));
                match (lo, hi) {
                    (Some(lo), Some(hi)) if lo <= hi => (lo as u8, hi as u8),
                    _ => {
                        self.error("players", "expected [min, max] with 1 <= min <= max <= 16");
                        (1, 1)
                    }
                }
            }
            None => {
                self.error("players", "missing 'players' (a number, or [min, max])");
                (1, 1)
            }
            Some(_) => {
                self.error(
                    "players",
                    "expected a number of players, or [min, max] with 1 <= min <= max <= 16",
                );
                (1, 1)
            }
        };
        Meta {
            name,
            title,
            min_players,
            max_players,
            rulebook: self.string(top, "rulebook", ""),
            summary: self.string(top, "summary", ""),
            origin: origin.to_string(),
            variant: None,
        }
    }

    pub(super) fn params(&mut self, value: Option<&Yaml>) -> Vec<Param> {
        let mut out = Vec::new();
        let Some(value) = value else { return out };
        let Some(map) = value.as_mapping() else {
            self.error("params", "expected a mapping of parameter names to numbers");
            return out;
        };
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("params.{name}");
            let (value, doc, rule, min, max) = match v {
                Yaml::Number(n) => (n.as_i64(), None, None, None, None),
                Yaml::Mapping(m) => {
                    self.check_keys(m, &path, &format::key_lists().param);
                    let doc = self.string(m, "doc", &path);
                    let rule = self.rule(m, &path);
                    let bound = |b: &mut Self, key: &str| match m.get(key) {
                        None => None,
                        Some(y) => y.as_i64().or_else(|| {
                            b.error(
                                &join(&path, key),
                                format!("expected a whole number, found {}", yaml_text(y)),
                            );
                            None
                        }),
                    };
                    let (min, max) = (bound(self, "min"), bound(self, "max"));
                    (m.get("value").and_then(Yaml::as_i64), doc, rule, min, max)
                }
                _ => (None, None, None, None, None),
            };
            match value {
                Some(value) => {
                    let param = Param {
                        name: name.to_string(),
                        value,
                        min,
                        max,
                        doc,
                        rule,
                    };
                    self.check_param_range(&path, &param);
                    out.push(param);
                }
                None => {
                    let found = match v {
                        Yaml::Mapping(m) => m
                            .get("value")
                            .map(yaml_text)
                            .unwrap_or_else(|| "no value".into()),
                        other => yaml_text(other),
                    };
                    self.error(&path, format!("a parameter is a whole number, or {{value: N, doc: …, rule: …}}; found {found}"));
                    // Declared all the same, so that the expressions reading it do not
                    // report it unknown: one mistake, one error.
                    out.push(Param {
                        name: name.to_string(),
                        value: 0,
                        min: None,
                        max: None,
                        doc: None,
                        rule: None,
                    });
                }
            }
        }
        out
    }

    /// A parameter's value (its own, a variant's or a trace's) lies within its `min:` and
    /// `max:`, which are in order.
    fn check_param_range(&mut self, path: &str, param: &Param) {
        match (param.min, param.max, param.range()) {
            (Some(min), Some(max), _) if min > max => self.error(
                path,
                format!("min {min} is more than max {max}: no value fits"),
            ),
            (_, _, Some(range)) if !param.in_range() => self.error(
                path,
                format!(
                    "{} is outside the values this parameter takes ({range})",
                    param.value
                ),
            ),
            _ => {}
        }
    }
}
