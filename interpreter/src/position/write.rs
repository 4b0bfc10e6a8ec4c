//! A state written as YAML: players, variables and zones by their keys, boards as cells,
//! what was revealed to whom, the continuation (frames and locals) and the steps.

use serde_yaml::{Mapping, Value as Yaml};

use crate::machine::{decode, decode_element, Frame, FrameKind, Pending, State};
use crate::model::{Domain, Game};
use crate::value::Value;

impl Game {
    /// The state as YAML text; [`Game::state_from_yaml`] reads it back.
    pub fn state_to_yaml(&self, state: &State) -> String {
        let mut doc = Mapping::new();
        doc.insert(
            "players".into(),
            Yaml::Sequence(state.names.iter().map(|n| Yaml::from(n.as_str())).collect()),
        );
        let mut vars = Mapping::new();
        for var in &self.vars {
            let value = self.indexed(var.per, state, |i| {
                self.plain(&decode(&var.ty, state.ints[var.base + i]), state)
            });
            vars.insert(var.name.as_str().into(), value);
        }
        doc.insert("vars".into(), Yaml::Mapping(vars));
        let mut zones = Mapping::new();
        for zone in &self.zones {
            let value = self.indexed(zone.per, state, |i| {
                Yaml::Sequence(
                    state.zones[zone.base + i]
                        .iter()
                        .map(|e| self.plain(&decode_element(zone.of, *e), state))
                        .collect(),
                )
            });
            zones.insert(zone.name.as_str().into(), value);
        }
        doc.insert("zones".into(), Yaml::Mapping(zones));
        if !self.boards.is_empty() {
            let mut boards = Mapping::new();
            for board in &self.boards {
                let value = self.indexed(board.per, state, |i| {
                    let cells = state.boards[board.base + i].cells().iter().map(|(p, e)| {
                        let element = self.plain(&decode_element(board.of, *e), state);
                        Yaml::Sequence(vec![
                            Yaml::from(p.row as i64),
                            Yaml::from(p.col as i64),
                            element,
                        ])
                    });
                    Yaml::Sequence(cells.collect())
                });
                boards.insert(board.name.as_str().into(), value);
            }
            doc.insert("boards".into(), Yaml::Mapping(boards));
        }
        if !state.seen.is_empty() {
            // Per player, the elements revealed to them (each where it lies).
            let mut seen = Mapping::new();
            for (p, name) in state.names.iter().enumerate() {
                let elements: Vec<Yaml> = state
                    .seen
                    .iter()
                    .filter(|s| s.players >> p & 1 == 1)
                    .map(|s| {
                        self.plain(
                            &decode_element(self.zone_element(s.zone as usize), s.element),
                            state,
                        )
                    })
                    .collect();
                if !elements.is_empty() {
                    seen.insert(name.as_str().into(), Yaml::Sequence(elements));
                }
            }
            doc.insert("seen".into(), Yaml::Mapping(seen));
        }
        let mut cont = Mapping::new();
        cont.insert(
            "frames".into(),
            Yaml::Sequence(
                state
                    .stack
                    .iter()
                    .map(|f| self.frame_yaml(f, state))
                    .collect(),
            ),
        );
        cont.insert(
            "locals".into(),
            Yaml::Sequence(state.locals.iter().map(|v| self.tagged(v, state)).collect()),
        );
        let pending = match &state.pending {
            Pending::Over(_) => "over",
            Pending::Running => "running",
            _ => "suspended",
        };
        cont.insert("pending".into(), pending.into());
        doc.insert("continuation".into(), Yaml::Mapping(cont));
        doc.insert("steps".into(), Yaml::from(state.steps as u64));
        serde_yaml::to_string(&Yaml::Mapping(doc)).unwrap_or_default()
    }

    fn indexed(&self, per: Domain, state: &State, f: impl Fn(usize) -> Yaml) -> Yaml {
        self.indexed_by(per, state, &f)
    }

    /// A value per index of a domain: one value, a mapping by player name or row id, or
    /// for two keys a mapping by the first key of mappings by the second.
    fn indexed_by(&self, per: Domain, state: &State, f: &dyn Fn(usize) -> Yaml) -> Yaml {
        match per {
            Domain::Global => f(0),
            Domain::Pair(a, b) => {
                let stride = self.domain_len(b.domain());
                self.indexed_by(a.domain(), state, &|i| {
                    self.indexed_by(b.domain(), state, &|j| f(i * stride + j))
                })
            }
            Domain::Players => {
                let mut m = Mapping::new();
                for (i, n) in state.names.iter().enumerate() {
                    m.insert(n.as_str().into(), f(i));
                }
                Yaml::Mapping(m)
            }
            Domain::Table(t) => {
                let mut m = Mapping::new();
                for (i, row) in self.tables[t.index()].rows.iter().enumerate() {
                    m.insert(row.id.as_str().into(), f(i));
                }
                Yaml::Mapping(m)
            }
        }
    }

    /// A value whose type the reader knows (a declared variable or zone): written plainly.
    fn plain(&self, v: &Value, state: &State) -> Yaml {
        match v {
            Value::None => Yaml::Null,
            Value::Int(n) => Yaml::from(*n),
            Value::Bool(b) => Yaml::from(*b),
            other => Yaml::from(self.value_text(other, &state.names)),
        }
    }

    /// A value of unknown type (a local): written with its kind.
    fn tagged(&self, v: &Value, state: &State) -> Yaml {
        let one = |k: &str, v: Yaml| {
            let mut m = Mapping::new();
            m.insert(k.into(), v);
            Yaml::Mapping(m)
        };
        match v {
            Value::None => Yaml::Null,
            Value::Int(n) => Yaml::from(*n),
            Value::Bool(b) => Yaml::from(*b),
            Value::Player(p) => one(
                "player",
                Yaml::from(state.names.get(*p as usize).cloned().unwrap_or_default()),
            ),
            Value::Row(t, r) => one(
                &self.tables[t.index()].name,
                Yaml::from(self.tables[t.index()].rows[*r as usize].id.as_str()),
            ),
            Value::Str(s) => one("text", Yaml::from(s.as_ref())),
            Value::Pos(p) => one(
                "pos",
                Yaml::Sequence(vec![Yaml::from(p.row as i64), Yaml::from(p.col as i64)]),
            ),
            Value::List(items) => {
                Yaml::Sequence(items.iter().map(|i| self.tagged(i, state)).collect())
            }
        }
    }

    fn frame_yaml(&self, f: &Frame, state: &State) -> Yaml {
        let mut m = Mapping::new();
        m.insert("block".into(), Yaml::from(f.block.index() as u64));
        m.insert("pc".into(), Yaml::from(f.pc as u64));
        m.insert("base".into(), Yaml::from(f.base as u64));
        let kind = match &f.kind {
            FrameKind::Call { into: None } => Yaml::from("call"),
            FrameKind::Call { into: Some(slot) } => one_map(
                "call",
                Mapping::from_iter([("into".into(), Yaml::from(slot.index() as u64))]),
            ),
            FrameKind::Block => Yaml::from("block"),
            FrameKind::ForEach { slot, list, next } => {
                let mut k = Mapping::new();
                k.insert("slot".into(), Yaml::from(slot.index() as u64));
                k.insert(
                    "list".into(),
                    self.tagged(&Value::List(list.clone()), state),
                );
                k.insert("next".into(), Yaml::from(*next as u64));
                one_map("for_each", k)
            }
            FrameKind::Repeat { left } => one_map(
                "repeat",
                Mapping::from_iter([("left".into(), Yaml::from(*left))]),
            ),
            FrameKind::While { block, pc } => one_map(
                "while",
                Mapping::from_iter([
                    ("block".into(), Yaml::from(block.index() as u64)),
                    ("pc".into(), Yaml::from(*pc as u64)),
                ]),
            ),
            FrameKind::UpTo {
                block,
                pc,
                round,
                count,
            } => one_map(
                "up_to",
                Mapping::from_iter([
                    ("block".into(), Yaml::from(block.index() as u64)),
                    ("pc".into(), Yaml::from(*pc as u64)),
                    ("round".into(), Yaml::from(*round)),
                    ("count".into(), Yaml::from(*count)),
                ]),
            ),
        };
        m.insert("kind".into(), kind);
        Yaml::Mapping(m)
    }
}

fn one_map(key: &str, inner: Mapping) -> Yaml {
    let mut m = Mapping::new();
    m.insert(key.into(), Yaml::Mapping(inner));
    Yaml::Mapping(m)
}
