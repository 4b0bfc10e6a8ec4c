//! `view:`: the hints a graphical front end draws a game from. Each entry names a
//! declaration (a variable, a zone, a board, a table of hexes) and may carry templates and
//! expressions, compiled like `display:` lines. Without `view:`, the defaults draw every
//! board and zone and the per-player variables.

use serde_yaml::{Mapping, Value as Yaml};

use super::expr::Scope;
use super::{join, Builder, Decls};
use crate::hints::did_you_mean;
use crate::model::{
    Board, BoardId, Domain, HexHint, Table, TrackHint, Var, VarId, ViewHints, Zone, ZoneId,
};
use crate::value::{TableId, Type};

impl Builder {
    pub(super) fn view(
        &mut self,
        value: Option<&Yaml>,
        decls: &Decls,
        tables: &[Table],
        vars: &[Var],
        zones: &[Zone],
        boards: &[Board],
    ) -> ViewHints {
        let Some(value) = value else {
            return default_view(tables, vars, zones, boards);
        };
        let Some(m) = value.as_mapping() else {
            self.error("view", "expected a mapping: {counters: [...], zones: [...], tracks: [...], boards: [...], hexes: {...}}");
            return ViewHints::default();
        };
        self.check_keys(m, "view", &crate::format::key_lists().view);
        let var_names: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
        let zone_names: Vec<&str> = zones.iter().map(|z| z.name.as_str()).collect();
        let board_names: Vec<&str> = boards.iter().map(|b| b.name.as_str()).collect();
        let counters = self
            .named_list(m, "counters", "a state variable", &var_names)
            .into_iter()
            .filter_map(|(i, path)| match vars[i].per {
                Domain::Global | Domain::Players => Some(VarId::at(i)),
                _ => {
                    self.error(
                        &path,
                        format!(
                            "'{}' is per {}: a counter is a single variable or one per player",
                            vars[i].name,
                            domain_text(vars[i].per, tables)
                        ),
                    );
                    None
                }
            });
        let counters = counters.collect();
        let zone_list = self
            .named_list(m, "zones", "a zone", &zone_names)
            .into_iter()
            .map(|(i, _)| ZoneId::at(i))
            .collect();
        let board_list = self
            .named_list(m, "boards", "a board", &board_names)
            .into_iter()
            .map(|(i, _)| BoardId::at(i))
            .collect();
        let tracks = self.tracks(m.get("tracks"), decls, tables, zones, &zone_names);
        let hexes = m.get("hexes").and_then(|h| self.hexes(h, decls, tables));
        ViewHints {
            counters,
            zones: zone_list,
            tracks,
            boards: board_list,
            hexes,
        }
    }

    /// `key: [name, …]`: each name's index among `names`, with its YAML path.
    fn named_list(
        &mut self,
        m: &Mapping,
        key: &str,
        what: &str,
        names: &[&str],
    ) -> Vec<(usize, String)> {
        let path = join("view", key);
        let Some(value) = m.get(key) else {
            return Vec::new();
        };
        let Some(items) = value.as_sequence() else {
            self.error(&path, format!("expected a list of names, each {what}"));
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = format!("{path}[{i}]");
            match item.as_str() {
                Some(name) => match names.iter().position(|n| *n == name) {
                    Some(found) => out.push((found, at)),
                    None => {
                        let candidates: Vec<String> = names.iter().map(|n| n.to_string()).collect();
                        self.error(
                            &at,
                            format!("'{name}' is not {what}{}", did_you_mean(name, &candidates)),
                        );
                    }
                },
                None => self.error(&at, format!("expected the name of {what}")),
            }
        }
        out
    }

    fn tracks(
        &mut self,
        value: Option<&Yaml>,
        decls: &Decls,
        tables: &[Table],
        zones: &[Zone],
        zone_names: &[&str],
    ) -> Vec<TrackHint> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(items) = value.as_sequence() else {
            self.error(
                "view.tracks",
                "expected a list of {zone: …, slots: …, label: …}",
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("view.tracks[{i}]");
            let Some(t) = item.as_mapping() else {
                self.error(&path, "a track is a mapping: {zone: …, slots: …, label: …}");
                continue;
            };
            self.check_keys(t, &path, &crate::format::key_lists().track);
            let Some(name) = t.get("zone").and_then(Yaml::as_str) else {
                self.error(&path, "a track names its zone: zone: <name>");
                continue;
            };
            let Some(z) = zone_names.iter().position(|n| *n == name) else {
                let candidates: Vec<String> = zone_names.iter().map(|n| n.to_string()).collect();
                self.error(
                    &join(&path, "zone"),
                    format!("'{name}' is not a zone{}", did_you_mean(name, &candidates)),
                );
                continue;
            };
            let it = match zones[z].per {
                Domain::Global => None,
                Domain::Players => Some(Type::Player),
                Domain::Table(t) => Some(Type::Row(t)),
                Domain::Pair(..) => {
                    self.error(&join(&path, "zone"), format!("'{name}' is per {}: a track is a single zone, per player or per a table's row", domain_text(zones[z].per, tables)));
                    continue;
                }
            };
            let scope = Scope { locals: &[], it };
            let slots = t.get("slots").map(|s| {
                self.expression(decls, s, &join(&path, "slots"), &scope, Some(&Type::Int))
                    .0
            });
            let label = t
                .get("label")
                .map(|l| self.template(decls, l, &join(&path, "label"), &scope));
            out.push(TrackHint {
                zone: ZoneId::at(z),
                slots,
                label,
            });
        }
        out
    }

    fn hexes(&mut self, value: &Yaml, decls: &Decls, tables: &[Table]) -> Option<HexHint> {
        let path = "view.hexes";
        let Some(h) = value.as_mapping() else {
            self.error(
                path,
                "expected a mapping: {table: …, text: …, mark: …, colour: …, if: …}",
            );
            return None;
        };
        self.check_keys(h, path, &crate::format::key_lists().hexes);
        let Some(name) = h.get("table").and_then(Yaml::as_str) else {
            self.error(path, "a hex map names its table: table: <name>");
            return None;
        };
        let Some(t) = tables.iter().position(|t| t.name == name) else {
            let candidates: Vec<String> = tables.iter().map(|t| t.name.clone()).collect();
            self.error(
                &join(path, "table"),
                format!("'{name}' is not a table{}", did_you_mean(name, &candidates)),
            );
            return None;
        };
        if tables[t].geometry.as_ref().and_then(|g| g.layout).is_none() {
            self.error(&join(path, "table"), format!("table '{name}' has no hex geometry with coordinates (geometry: {{hex: even-q, x: …, y: …}})"));
            return None;
        }
        let scope = Scope {
            locals: &[],
            it: Some(Type::Row(TableId::at(t))),
        };
        let text = h
            .get("text")
            .map(|v| self.template(decls, v, &join(path, "text"), &scope));
        let mark = h
            .get("mark")
            .map(|v| self.template(decls, v, &join(path, "mark"), &scope));
        let colour = h.get("colour").map(|v| {
            self.expression(decls, v, &join(path, "colour"), &scope, Some(&Type::Str))
                .0
        });
        let shown = h.get("if").map(|v| {
            self.expression(decls, v, &join(path, "if"), &scope, Some(&Type::Bool))
                .0
        });
        Some(HexHint {
            table: TableId::at(t),
            text,
            mark,
            colour,
            shown,
        })
    }
}

/// Without `view:`: every per-player variable players read, every zone and board, and the
/// first table of hexes with coordinates.
fn default_view(tables: &[Table], vars: &[Var], zones: &[Zone], boards: &[Board]) -> ViewHints {
    let counters = vars
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            v.per == Domain::Players && !v.internal && matches!(v.ty, Type::Int | Type::Bool)
        })
        .map(|(i, _)| VarId::at(i))
        .collect();
    let hexes = tables
        .iter()
        .position(|t| t.geometry.as_ref().and_then(|g| g.layout).is_some())
        .map(|t| HexHint {
            table: TableId::at(t),
            text: None,
            mark: None,
            colour: None,
            shown: None,
        });
    ViewHints {
        counters,
        zones: (0..zones.len()).map(ZoneId::at).collect(),
        tracks: Vec::new(),
        boards: (0..boards.len()).map(BoardId::at).collect(),
        hexes,
    }
}

fn domain_text(per: Domain, tables: &[Table]) -> String {
    let axis = |a: crate::model::Axis| match a {
        crate::model::Axis::Players => "players".to_string(),
        crate::model::Axis::Table(t) => tables[t.index()].name.clone(),
    };
    match per {
        Domain::Global => "nothing".into(),
        Domain::Players => "players".into(),
        Domain::Table(t) => tables[t.index()].name.clone(),
        Domain::Pair(a, b) => format!("{} and {}", axis(a), axis(b)),
    }
}
