//! Type names as rulesets write them: `int`, `bool`, `str`, `player`, a table's name, a
//! value's `list of <type>`; and the typed parameters of procedures and functions.

use serde_yaml::Value as Yaml;

use super::expr::{Declared, Named};
use super::yaml::join;
use super::{Builder, MAX_IDS};
use crate::hints::did_you_mean;
use crate::value::{TableId, Type};

impl Builder {
    /// `params: {name: type, …}` of a procedure or a function, in order.
    pub(crate) fn typed_params<T: Declared>(
        &mut self,
        value: Option<&Yaml>,
        tables: &Named<T>,
        path: &str,
    ) -> Vec<(String, Type)> {
        let mut params = Vec::new();
        match value {
            None => {}
            Some(Yaml::Mapping(ps)) => {
                if ps.len() > MAX_IDS {
                    self.error(
                        path,
                        format!("at most {MAX_IDS} parameters, not {}", ps.len()),
                    );
                }
                for (p, ty) in ps.iter().take(MAX_IDS) {
                    let pname = p.as_str().unwrap_or_default().to_string();
                    let ppath = format!("{path}.params.{pname}");
                    let ty = match ty.as_str() {
                        Some(t) => self.value_type_named(t, tables, &ppath),
                        None => {
                            self.error(&ppath, "a parameter's type: int, bool, str, player, a table name, or list of one of these");
                            Type::Any
                        }
                    };
                    params.push((pname, ty));
                }
            }
            Some(_) => self.error(
                &join(path, "params"),
                "expected a mapping of parameter names to types",
            ),
        }
        params
    }

    /// The type of a value passed around (a parameter, a function's or a procedure's
    /// value): a type name, `pos` (a position on a board), or `list of <type>`.
    pub(crate) fn value_type_named<T: Declared>(
        &mut self,
        text: &str,
        tables: &Named<T>,
        path: &str,
    ) -> Type {
        if text == "pos" {
            return Type::Pos;
        }
        match text.strip_prefix("list of ") {
            Some(element) => Type::List(Box::new(self.value_type_named(
                element.trim(),
                tables,
                path,
            ))),
            None => self.type_named(text, tables, path),
        }
    }

    pub(crate) fn type_named<T: Declared>(
        &mut self,
        text: &str,
        tables: &Named<T>,
        path: &str,
    ) -> Type {
        let base = text.trim_end_matches('?');
        match base {
            "int" => Type::Int,
            "bool" => Type::Bool,
            "str" => Type::Str,
            "player" => Type::Player,
            other => match tables.position(other) {
                Some(t) => Type::Row(TableId::at(t)),
                None => {
                    let mut candidates: Vec<String> = ["int", "bool", "str", "player"]
                        .iter()
                        .map(|s| s.to_string())
                        .collect();
                    candidates.extend(tables.iter().map(|t| t.name().to_string()));
                    let hint = did_you_mean(other, &candidates);
                    self.error(path, format!("unknown type '{other}'{hint}: use int, bool, str, player or a table name"));
                    Type::Any
                }
            },
        }
    }
}
