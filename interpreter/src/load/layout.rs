//! The state's layout: `state:` variables and `zones:`, each declared with what it holds
//! and its keys (`per:` players, a table, or two of them), given its first slot and as
//! many slots as its keys have entries, its initial value compiled.

use serde_yaml::{Mapping, Value as Yaml};

use super::expr::VarDecl;
use super::expr::{ZoneDecl, IT_UNDEFINED};
use super::yaml::join;
use super::{Builder, Decls, Scope};
use crate::format;
use crate::hints::did_you_mean;
use crate::ir::Expr as Ir;
use crate::model::{Axis, Domain, Element, Var, Visibility, Zone};
use crate::value::{TableId, Type, Value};

impl Builder {
    /// The entries of a section of named declarations (`zones:`, `boards:`): name, YAML
    /// path and mapping. A section or entry of the wrong shape is reported and skipped.
    pub(super) fn declarations(
        &mut self,
        value: Option<&Yaml>,
        section: &str,
        shape: &str,
    ) -> Vec<(String, String, Mapping)> {
        let Some(value) = value else {
            return Vec::new();
        };
        let Some(map) = value.as_mapping() else {
            self.error(
                section,
                format!("expected a mapping of names to declarations ({shape})"),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("{section}.{name}");
            match v.as_mapping() {
                Some(m) => out.push((name.to_string(), path, m.clone())),
                None => self.error(&path, shape),
            }
        }
        out
    }

    /// What a zone or a board holds: `of: players` or `of: <table>`.
    pub(super) fn element(
        &mut self,
        m: &Mapping,
        decls: &Decls,
        path: &str,
        what: &str,
    ) -> Element {
        match m.get("of").and_then(Yaml::as_str) {
            Some("players") => Element::Player,
            Some(t) => match decls.tables.position(t) {
                Some(i) => Element::Row(TableId::at(i)),
                None => {
                    let mut candidates: Vec<String> =
                        decls.tables.iter().map(|d| d.name.clone()).collect();
                    candidates.push("players".into());
                    let hint = did_you_mean(t, &candidates);
                    self.error(
                        &join(path, "of"),
                        format!(
                            "unknown table '{t}'{hint}: a {what} holds rows of a table, or players"
                        ),
                    );
                    Element::Player
                }
            },
            None => {
                self.error(
                    path,
                    format!("missing 'of': what the {what} holds (a table name, or players)"),
                );
                Element::Player
            }
        }
    }

    /// `per:` a key (`players` or a table name), two keys in a list (`[players,
    /// sections]`), or nothing.
    pub(super) fn domain(&mut self, m: &Mapping, decls: &Decls, path: &str) -> Domain {
        let ppath = join(path, "per");
        if let Some(keys) = m.get("per").and_then(Yaml::as_sequence) {
            if keys.len() != 2 {
                let message = "expected two keys, [players or a table, players or a table] (one key is written alone: per: players)";
                self.error(&ppath, message);
                return Domain::Global;
            }
            let first = self.axis(&keys[0], decls, &format!("{ppath}[0]"));
            let second = self.axis(&keys[1], decls, &format!("{ppath}[1]"));
            return match (first, second) {
                (Some(a), Some(b)) => Domain::Pair(a, b),
                _ => Domain::Global,
            };
        }
        match m.get("per") {
            None => Domain::Global,
            Some(key) => self
                .axis(key, decls, &ppath)
                .map_or(Domain::Global, Axis::domain),
        }
    }

    /// One key of `per:`: `players` or a table name.
    fn axis(&mut self, key: &Yaml, decls: &Decls, path: &str) -> Option<Axis> {
        match key.as_str() {
            None => {
                self.error(path, "expected 'players' or a table name");
                None
            }
            Some("players") => Some(Axis::Players),
            Some(t) => match decls.tables.position(t) {
                Some(i) => Some(Axis::Table(TableId::at(i))),
                None => {
                    let mut candidates: Vec<String> =
                        decls.tables.iter().map(|d| d.name.clone()).collect();
                    candidates.push("players".into());
                    let hint = did_you_mean(t, &candidates);
                    self.error(
                        path,
                        format!("unknown domain '{t}'{hint}: use 'players' or a table name"),
                    );
                    None
                }
            },
        }
    }

    pub(super) fn domain_len(decls: &Decls, domain: Domain, max_players: usize) -> usize {
        match domain {
            Domain::Global => 1,
            Domain::Players => max_players,
            Domain::Table(t) => decls.tables[t.index()].row_ids.len(),
            Domain::Pair(a, b) => {
                Self::domain_len(decls, a.domain(), max_players)
                    * Self::domain_len(decls, b.domain(), max_players)
            }
        }
    }

    /// After compiling the `init` of a two-key declaration (its diagnostics from `from`
    /// on): says why `it` is undefined there.
    pub(super) fn note_two_key_it(&mut self, per: Domain, from: usize) {
        if !matches!(per, Domain::Pair(..)) {
            return;
        }
        let why = "'it' is not defined in the init of a declaration with two keys: the init gives every entry the same value (set entries in setup)";
        for d in &mut self.diagnostics[from..] {
            if d.message.starts_with(IT_UNDEFINED) {
                d.message.replace_range(..IT_UNDEFINED.len(), why);
            }
        }
    }

    pub(super) fn vars(
        &mut self,
        value: Option<&Yaml>,
        decls: &mut Decls,
        max_players: usize,
    ) -> (Vec<Var>, usize) {
        let mut out = Vec::new();
        let mut slots = 0;
        let Some(value) = value else {
            return (out, slots);
        };
        let Some(map) = value.as_mapping() else {
            self.error(
                "state",
                "expected a mapping of variable names to declarations",
            );
            return (out, slots);
        };
        for (key, v) in map {
            if self.full() {
                break;
            }
            let Some(name) = key.as_str() else { continue };
            let path = format!("state.{name}");
            let empty = Mapping::new();
            let (m, short_init) = match v {
                Yaml::Mapping(m) => (m, None),
                scalar => (&empty, Some(scalar.clone())),
            };
            self.check_keys(m, &path, &format::key_lists().state);
            let ty = match m.get("type").and_then(Yaml::as_str) {
                Some(t) => {
                    let ty = self.type_named(t, &decls.tables, &join(&path, "type"));
                    if ty == Type::Str {
                        // State is stored as numbers: a text would read back as one.
                        self.error(&join(&path, "type"), "a state variable cannot hold text (state is numbers, true/false, players and rows): keep texts in a table and store its row");
                    }
                    ty
                }
                None => match &short_init {
                    Some(Yaml::Bool(_)) => Type::Bool,
                    _ => Type::Int,
                },
            };
            let per = self.domain(m, decls, &path);
            let base = slots;
            slots += Self::domain_len(decls, per, max_players);
            let init_yaml = short_init.or_else(|| m.get("init").cloned());
            let it = per.index_type();
            let init: Ir = match init_yaml {
                Some(init) => {
                    let scope = Scope { locals: &[], it };
                    let ipath = if m.contains_key("init") {
                        join(&path, "init")
                    } else {
                        path.clone()
                    };
                    let from = self.diagnostics.len();
                    let init = self.expression(decls, &init, &ipath, &scope, Some(&ty)).0;
                    self.note_two_key_it(per, from);
                    init
                }
                None => {
                    let zero = match ty {
                        Type::Bool => Value::Bool(false),
                        Type::Int => Value::Int(0),
                        _ => Value::None,
                    };
                    Ir::Const(zero)
                }
            };
            decls.vars.push(VarDecl {
                name: name.to_string(),
                ty: ty.clone(),
                per,
                base,
            });
            out.push(Var {
                name: name.to_string(),
                ty,
                per,
                base,
                init,
                doc: self.string(m, "doc", &path),
                rule: self.rule(m, &path),
                internal: match m.get("internal") {
                    None => false,
                    Some(Yaml::Bool(b)) => *b,
                    Some(_) => {
                        self.error(&join(&path, "internal"), "expected true or false");
                        false
                    }
                },
                stat: false,
            });
        }
        (out, slots)
    }

    pub(super) fn zones(
        &mut self,
        value: Option<&Yaml>,
        decls: &mut Decls,
        max_players: usize,
    ) -> (Vec<Zone>, usize) {
        let mut out = Vec::new();
        let mut slots = 0;
        // Declare every zone before compiling initial contents, which may name others.
        let mut pending = Vec::new();
        for (name, path, m) in self.declarations(
            value,
            "zones",
            "a zone is a mapping: {of: …, per: …, visibility: …}",
        ) {
            if self.full() {
                break;
            }
            let (name, m) = (name.as_str(), &m);
            self.check_keys(m, &path, &format::key_lists().zone);
            let of = self.element(m, decls, &path, "zone");
            let per = self.domain(m, decls, &path);
            let visibility = match m.get("visibility").and_then(Yaml::as_str) {
                None | Some("all") => Visibility::All,
                Some("owner") => Visibility::Owner,
                Some("count") => Visibility::Count,
                Some("none") => Visibility::Hidden,
                Some("top") => Visibility::Top,
                Some(other) => {
                    self.error(
                        &join(&path, "visibility"),
                        format!("unknown visibility '{other}': use all, owner, count, top or none"),
                    );
                    Visibility::All
                }
            };
            if visibility == Visibility::Owner && per != Domain::Players {
                self.error(
                    &join(&path, "visibility"),
                    "'owner' visibility needs a zone per players",
                );
            }
            let base = slots;
            let len = Self::domain_len(decls, per, max_players);
            slots += len;
            decls.zones.push(ZoneDecl {
                name: name.to_string(),
                of,
                per,
                base,
                len,
            });
            let doc = self.string(m, "doc", &path);
            let rule = self.rule(m, &path);
            pending.push((m.get("init").cloned(), m.get("visible_if").cloned(), path));
            out.push(Zone {
                name: name.to_string(),
                of,
                per,
                base,
                visibility,
                visible_if: None,
                init: None,
                doc,
                rule,
            });
        }
        for (zone, (init, visible_if, path)) in out.iter_mut().zip(pending) {
            if let Some(cond) = visible_if {
                if zone.visibility == Visibility::All {
                    self.error(
                        &join(&path, "visible_if"),
                        "the zone's visibility is 'all': every element is already seen",
                    );
                }
                let locals = [("viewer".to_string(), Type::Player, 0u16)];
                let scope = Scope {
                    locals: &locals,
                    it: Some(zone.of.value_type()),
                };
                zone.visible_if = Some(
                    self.expression(
                        decls,
                        &cond,
                        &join(&path, "visible_if"),
                        &scope,
                        Some(&Type::Bool),
                    )
                    .0,
                );
            }
            let Some(init) = init else { continue };
            let elem = zone.of.value_type();
            if init.as_str() == Some("all") {
                if let Element::Row(t) = zone.of {
                    let n = decls.tables[t.index()].row_ids.len() as u16;
                    let all = Value::list((0..n).map(|r| Value::Row(t, r)).collect());
                    zone.init = Some(Ir::Const(all));
                    continue;
                }
            }
            let scope = Scope {
                locals: &[],
                it: zone.per.index_type(),
            };
            let want = Type::List(Box::new(elem));
            let from = self.diagnostics.len();
            zone.init = Some(
                self.expression(decls, &init, &join(&path, "init"), &scope, Some(&want))
                    .0,
            );
            self.note_two_key_it(zone.per, from);
        }
        (out, slots)
    }
}
