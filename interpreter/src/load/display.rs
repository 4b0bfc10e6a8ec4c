//! What people read: the `display:` lines that show the board, and each table's `show:`
//! template (how a row reads in state displays and beside options).

use serde_yaml::Value as Yaml;

use super::yaml::join;
use super::{Builder, Decls, Scope};
use crate::model::Table;
use crate::value::{TableId, Type};

impl Builder {
    /// Each table's `show:` template (how a row reads in state displays), compiled once
    /// every declaration is known.
    pub(super) fn table_shows(
        &mut self,
        value: Option<&Yaml>,
        tables: &mut [Table],
        decls: &Decls,
    ) {
        let Some(map) = value.and_then(Yaml::as_mapping) else {
            return;
        };
        for (t, table) in tables.iter_mut().enumerate() {
            let Some(show) = map.get(table.name.as_str()).and_then(|v| v.get("show")) else {
                continue;
            };
            let scope = Scope {
                locals: &[],
                it: Some(Type::Row(TableId::at(t))),
            };
            table.show =
                Some(self.template(decls, show, &format!("tables.{}.show", table.name), &scope));
        }
    }

    /// `display:` a list of templates, the lines that show the board to a person; an entry
    /// `{ for: { name: list }, line: template }` is one line per element of the list.
    /// Every line may read `viewer`: the seat it is drawn for, or none.
    pub(super) fn display(
        &mut self,
        value: Option<&Yaml>,
        decls: &Decls,
    ) -> Vec<crate::model::DisplayLine> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(items) = value.as_sequence() else {
            self.error(
                "display",
                "expected a list of texts (templates), one per line",
            );
            return Vec::new();
        };
        let mut lines = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("display[{i}]");
            // `viewer`, the seat the display is drawn for (none: everyone), is local 0.
            let viewer = ("viewer".to_string(), Type::Player, 0u16);
            let Some(m) = item.as_mapping() else {
                let line = self.template(
                    decls,
                    item,
                    &path,
                    &Scope {
                        locals: std::slice::from_ref(&viewer),
                        it: None,
                    },
                );
                lines.push(crate::model::DisplayLine { each: None, line });
                continue;
            };
            self.check_keys(m, &path, &["for", "line"]);
            let binding = m
                .get("for")
                .and_then(Yaml::as_mapping)
                .filter(|f| f.len() == 1)
                .and_then(|f| f.iter().next());
            let (Some((name, list)), Some(line)) = (
                binding.and_then(|(n, l)| Some((n.as_str()?, l))),
                m.get("line"),
            ) else {
                self.error(&path, "a display entry is a template, or {for: {<name>: <list>}, line: <template>}: one line per element");
                continue;
            };
            let (each, ty) = self.expression(
                decls,
                list,
                &join(&join(&path, "for"), name),
                &Scope {
                    locals: std::slice::from_ref(&viewer),
                    it: None,
                },
                None,
            );
            let element = match ty {
                Type::List(e) => *e,
                Type::Any => Type::Any,
                _ => {
                    self.error(&join(&join(&path, "for"), name), "expected a list");
                    Type::Any
                }
            };
            let locals = [viewer, (name.to_string(), element, 1u16)];
            let line = self.template(
                decls,
                line,
                &join(&path, "line"),
                &Scope {
                    locals: &locals,
                    it: None,
                },
            );
            lines.push(crate::model::DisplayLine {
                each: Some(each),
                line,
            });
        }
        lines
    }
}
