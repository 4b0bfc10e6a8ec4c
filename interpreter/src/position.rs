//! The readable serialization of a state (YAML), and positions: hand-written states
//! that start a scenario mid-game, as rulebook examples do.
//!
//! ```yaml
//! players: [red, green, blue]
//! vars:   { active: red, vp: { red: 10, green: 12 }, wagons: { east: 4 } }
//! zones:  { hand: { red: [gw-01, gw-17] }, track: { east: [green, red] } }
//! boards: { town: { red: [[0, 0, c01-tl], [0, 1, c01-tr]] } }   # [row, col, element]
//! ```
//! A variable or zone with two keys is a mapping by the first of mappings by the second:
//! `supply: { red: { mine: 2 } }`.
//! A position lists only what differs from the declared initial values; without a
//! `continuation` it resumes at the start of `play` (after setup). A serialized state
//! also has its `continuation`, `pending` and `steps`, and resumes exactly where it was.

use std::sync::Arc;

use serde_yaml::{Mapping, Value as Yaml};

use crate::machine::{decode, decode_element, encode, Frame, FrameKind, Journal, Pending, State};
use crate::model::{Domain, Game};
use crate::value::{Type, Value};

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
        m.insert("block".into(), Yaml::from(f.block.0 as u64));
        m.insert("pc".into(), Yaml::from(f.pc as u64));
        m.insert("base".into(), Yaml::from(f.base as u64));
        let kind = match &f.kind {
            FrameKind::Call { into: None } => Yaml::from("call"),
            FrameKind::Call { into: Some(slot) } => one_map(
                "call",
                Mapping::from_iter([("into".into(), Yaml::from(slot.0 as u64))]),
            ),
            FrameKind::Block => Yaml::from("block"),
            FrameKind::ForEach { slot, list, next } => {
                let mut k = Mapping::new();
                k.insert("slot".into(), Yaml::from(slot.0 as u64));
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
                    ("block".into(), Yaml::from(block.0 as u64)),
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
                    ("block".into(), Yaml::from(block.0 as u64)),
                    ("pc".into(), Yaml::from(*pc as u64)),
                    ("round".into(), Yaml::from(*round)),
                    ("count".into(), Yaml::from(*count)),
                ]),
            ),
        };
        m.insert("kind".into(), kind);
        Yaml::Mapping(m)
    }

    /// Reads a serialized state or a hand-written position. Errors name the YAML path.
    pub fn state_from_yaml(&self, text: &str) -> Result<State, String> {
        let doc: Yaml = serde_yaml::from_str(text).map_err(|e| {
            let at = e
                .location()
                .map(|l| format!("line {}:{}: ", l.line(), l.column()))
                .unwrap_or_default();
            format!(
                "{at}{}",
                e.to_string().split(" at line ").next().unwrap_or_default()
            )
        })?;
        let Some(top) = doc.as_mapping() else {
            return Err("a position is a YAML mapping (players:, vars:, zones:)".into());
        };
        for k in top.keys().filter_map(Yaml::as_str) {
            if ![
                "players",
                "vars",
                "zones",
                "boards",
                "seen",
                "continuation",
                "steps",
            ]
            .contains(&k)
            {
                return Err(format!("{k}: unknown key; expected players, vars, zones, boards, seen, continuation, steps"));
            }
        }
        let names: Vec<String> = match top.get("players").and_then(Yaml::as_sequence) {
            Some(seq) => seq
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or("players: expected names")
                })
                .collect::<Result<_, _>>()?,
            None => return Err("players: missing (the seat order, e.g. [red, green, blue])".into()),
        };
        if names.len() < self.meta.min_players as usize
            || names.len() > self.meta.max_players as usize
        {
            return Err(format!(
                "players: {}",
                self.player_count_message(names.len())
            ));
        }
        let mut state = self.initial_state(names).map_err(|e| e.to_string())?;
        let empty = Mapping::new();
        let vars = top.get("vars").and_then(Yaml::as_mapping).unwrap_or(&empty);
        for (k, v) in vars {
            let name = k.as_str().unwrap_or_default();
            let Some((_, var)) = self.var(name) else {
                return Err(format!("vars.{name}: no such variable"));
            };
            let (ty, base, per) = (var.ty.clone(), var.base, var.per);
            self.each_index(
                per,
                v,
                &mut state,
                &format!("vars.{name}"),
                |i, item, state| {
                    let value = self
                        .read_plain(&ty, item, state)
                        .map_err(|m| format!("vars.{name}: {m}"))?;
                    state.ints[base + i] = encode(&value);
                    Ok(())
                },
            )?;
        }
        let zones = top
            .get("zones")
            .and_then(Yaml::as_mapping)
            .unwrap_or(&empty);
        let initial_zones = state.zones.clone();
        for (k, v) in zones {
            let name = k.as_str().unwrap_or_default();
            let Some((_, zone)) = self.zone(name) else {
                return Err(format!("zones.{name}: no such zone"));
            };
            let (of, base, per) = (zone.of, zone.base, zone.per);
            let ty = of.value_type();
            self.each_index(
                per,
                v,
                &mut state,
                &format!("zones.{name}"),
                |i, item, state| {
                    let Some(items) = item.as_sequence() else {
                        return Err(format!("zones.{name}: expected a list"));
                    };
                    let codes = items
                        .iter()
                        .map(|x| self.element_code(&ty, x, state, &format!("zones.{name}")))
                        .collect::<Result<_, _>>()?;
                    state.zones[base + i] = codes;
                    Ok(())
                },
            )?;
        }
        let held: usize = state.zones.iter().map(Vec::len).sum();
        if held > self.limits.zone_elements {
            return Err(format!(
                "zones: {held} elements, more than {} (--limit elements=N raises the limit)",
                self.limits.zone_elements
            ));
        }
        let boards = top
            .get("boards")
            .and_then(Yaml::as_mapping)
            .unwrap_or(&empty);
        for (k, v) in boards {
            let name = k.as_str().unwrap_or_default();
            let Some((_, board)) = self.board(name) else {
                return Err(format!("boards.{name}: no such board"));
            };
            let (of, base, per) = (board.of, board.base, board.per);
            let ty = of.value_type();
            self.each_index(per, v, &mut state, &format!("boards.{name}"), |i, item, state| {
                let shape = || format!("boards.{name}: expected a list of cells [row, col, element]");
                let Some(cells) = item.as_sequence() else { return Err(shape()) };
                for cell in cells {
                    let Some([row, col, element]) = cell.as_sequence().map(Vec::as_slice) else { return Err(shape()) };
                    let pos = read_pos(&Yaml::Sequence(vec![row.clone(), col.clone()])).map_err(|m| format!("boards.{name}: {m}"))?;
                    let code = self.element_code(&ty, element, state, &format!("boards.{name}"))?;
                    state.boards[base + i].set(pos, code);
                    if state.boards[base + i].len() > self.limits.board_cells {
                        return Err(format!("boards.{name}: more than {} cells (--limit cells=N raises the limit)", self.limits.board_cells));
                    }
                }
                Ok(())
            })?;
        }
        state.steps = match top.get("steps") {
            None => 0,
            Some(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or("steps: a whole number of steps from 0")?,
        };
        match top.get("continuation") {
            None => {
                self.conserve_elements(&initial_zones, &mut state)?;
                self.read_seen(top.get("seen"), &mut state)?;
                self.enter_play(&mut state);
                self.run(&mut state, &mut Journal::off())
                    .map_err(|e| e.to_string())?;
            }
            Some(c) => {
                self.read_seen(top.get("seen"), &mut state)?;
                self.read_continuation(c, &mut state)?
            }
        }
        self.check_conserved(&state)?;
        Ok(state)
    }

    /// The procedure whose body holds `block` (directly or nested in its statements).
    fn owner_of_block(&self, block: usize) -> Option<usize> {
        use crate::model::StmtKind;
        fn holds(game: &Game, within: usize, block: usize, depth: usize) -> bool {
            if within == block {
                return true;
            }
            // Blocks nest as deep as statements do; a corrupt game is not this one.
            if depth > 10_000 {
                return false;
            }
            game.blocks[within].iter().any(|stmt| {
                let children: Vec<usize> = match &stmt.kind {
                    StmtKind::If {
                        then, otherwise, ..
                    } => std::iter::once(then.index())
                        .chain(otherwise.map(|b| b.index()))
                        .collect(),
                    StmtKind::ForEach { body, .. }
                    | StmtKind::Repeat { body, .. }
                    | StmtKind::While { body, .. }
                    | StmtKind::RepeatUpTo { body, .. } => {
                        vec![body.index()]
                    }
                    StmtKind::Choose(c) => c.groups.iter().map(|g| g.body.index()).collect(),
                    _ => Vec::new(),
                };
                children
                    .into_iter()
                    .any(|child| holds(game, child, block, depth + 1))
            })
        }
        (0..self.procedures.len()).find(|&p| holds(self, self.procedures[p].body.index(), block, 0))
    }

    /// `seen: { red: [tok-3] }`: the elements revealed to each player, each in the first
    /// zone (in declaration order) that holds it.
    fn read_seen(&self, seen: Option<&Yaml>, state: &mut State) -> Result<(), String> {
        let Some(seen) = seen else { return Ok(()) };
        let Some(seen) = seen.as_mapping() else {
            return Err("seen: expected a mapping of players to lists of elements".into());
        };
        for (k, v) in seen {
            let name = k.as_str().unwrap_or_default();
            let Some(p) = state.names.iter().position(|n| n == name) else {
                return Err(format!("seen.{name}: not a player"));
            };
            if p >= crate::knowledge::MAX_SEATS {
                return Err(format!(
                    "seen.{name}: at most {} seats can be shown elements",
                    crate::knowledge::MAX_SEATS
                ));
            }
            let Some(items) = v.as_sequence() else {
                return Err(format!("seen.{name}: expected a list of elements"));
            };
            for item in items {
                let found = self.zones.iter().find_map(|zone| {
                    let code = self
                        .element_code(&zone.of.value_type(), item, state, "")
                        .ok()?;
                    let instances = zone.base..zone.base + self.domain_len(zone.per);
                    instances
                        .into_iter()
                        .find(|&z| state.zones[z].contains(&code))
                        .map(|z| (z, code))
                });
                let Some((zone, code)) = found else {
                    return Err(format!(
                        "seen.{name}: {} is in no zone",
                        serde_yaml::to_string(item).unwrap_or_default().trim()
                    ));
                };
                state.reveal(zone, code, 1 << p);
            }
        }
        Ok(())
    }

    /// For a hand-written position: the rows of a table that the declared initial zones hold
    /// once each (a deck of cards) stay held once. An element the position writes into a
    /// zone leaves the zones it did not write (a card put in a hand leaves the deck); an
    /// element written into two zones, or twice into one, is an error naming it.
    fn conserve_elements(&self, initial: &[Vec<u16>], state: &mut State) -> Result<(), String> {
        let written: Vec<bool> = initial
            .iter()
            .zip(&state.zones)
            .map(|(a, b)| a != b)
            .collect();
        // Positions name players by name, not seat.
        let key_name = |axis: crate::model::Axis, i: usize| match axis {
            crate::model::Axis::Players => {
                state.names.get(i).cloned().unwrap_or_else(|| "?".into())
            }
            crate::model::Axis::Table(_) => self.key_text(axis, i),
        };
        let instance_name = |slot: usize| {
            let (z, i) = self.zone_of_instance(slot);
            let decl = &self.zones[z];
            match decl.per {
                Domain::Global => decl.name.clone(),
                Domain::Players => format!(
                    "{}[{}]",
                    decl.name,
                    state.names.get(i).map_or("?", String::as_str)
                ),
                Domain::Table(t) => format!("{}[{}]", decl.name, self.tables[t.index()].rows[i].id),
                Domain::Pair(a, b) => {
                    let (i, j) = self.split_index(decl.per, i);
                    format!("{}[{}, {}]", decl.name, key_name(a, i), key_name(b, j))
                }
            }
        };
        for (t, table) in self.tables.iter().enumerate() {
            let slots: Vec<usize> = (0..initial.len())
                .filter(|&slot| {
                    self.zones[self.zone_of_instance(slot).0].of
                        == crate::model::Element::Row(crate::ir::TableId::at(t))
                })
                .collect();
            let mut held = vec![0usize; table.rows.len()];
            for &slot in &slots {
                for &code in &initial[slot] {
                    held[code as usize] += 1;
                }
            }
            if slots.is_empty() || held.iter().any(|&n| n != 1) {
                continue;
            }
            // Where the position puts each element.
            let mut placed: Vec<Option<usize>> = vec![None; table.rows.len()];
            for &slot in slots.iter().filter(|&&slot| written[slot]) {
                for &code in &state.zones[slot] {
                    if let Some(first) = placed[code as usize].replace(slot) {
                        let id = &table.rows[code as usize].id;
                        let (a, b) = (instance_name(first), instance_name(slot));
                        let place = if first == slot {
                            format!("twice in {a}")
                        } else {
                            format!("both in {a} and in {b}")
                        };
                        return Err(format!(
                            "zones: {id} is {place} (each row of '{}' is in one zone at a time)",
                            table.name
                        ));
                    }
                }
            }
            for &slot in slots.iter().filter(|&&slot| !written[slot]) {
                state.zones[slot].retain(|&code| placed[code as usize].is_none());
            }
        }
        Ok(())
    }

    /// The code of a zone element or board cell written as a player name or row id.
    fn element_code(&self, ty: &Type, v: &Yaml, state: &State, path: &str) -> Result<u16, String> {
        match self
            .read_plain(ty, v, state)
            .map_err(|m| format!("{path}: {m}"))?
        {
            Value::Player(p) => Ok(p as u16),
            Value::Row(_, r) => Ok(r),
            _ => Err(format!("{path}: none cannot be an element")),
        }
    }

    fn each_index(
        &self,
        per: Domain,
        v: &Yaml,
        st: &mut State,
        path: &str,
        mut f: impl FnMut(usize, &Yaml, &mut State) -> Result<(), String>,
    ) -> Result<(), String> {
        match per {
            Domain::Global => f(0, v, st)?,
            Domain::Pair(a, b) => {
                // A mapping by the first key of mappings by the second.
                let stride = self.domain_len(b.domain());
                for (i, key, inner) in self.yaml_entries(a.domain(), v, st, path)? {
                    for (j, _, item) in
                        self.yaml_entries(b.domain(), inner, st, &format!("{path}.{key}"))?
                    {
                        f(i * stride + j, item, st)?;
                    }
                }
            }
            _ => {
                for (i, _, item) in self.yaml_entries(per, v, st, path)? {
                    f(i, item, st)?;
                }
            }
        }
        Ok(())
    }

    /// The entries of a mapping by player name or row id: index, key, value.
    fn yaml_entries<'v>(
        &self,
        per: Domain,
        v: &'v Yaml,
        st: &State,
        path: &str,
    ) -> Result<Vec<(usize, String, &'v Yaml)>, String> {
        let Some(m) = v.as_mapping() else {
            return Err(format!(
                "{path}: expected a mapping by {}",
                self.domain_name(per)
            ));
        };
        let mut out = Vec::with_capacity(m.len());
        for (k, item) in m {
            let key = match k {
                Yaml::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            };
            let i = match per {
                Domain::Players => st.names.iter().position(|n| *n == key),
                Domain::Table(t) => self.tables[t.index()].row_index(&key).map(|r| r as usize),
                Domain::Global | Domain::Pair(..) => None,
            };
            let Some(i) = i else {
                return Err(format!("{path}.{key}: not a {}", self.domain_name(per)));
            };
            out.push((i, key, item));
        }
        Ok(out)
    }

    fn read_plain(&self, ty: &Type, v: &Yaml, state: &State) -> Result<Value, String> {
        match (ty, v) {
            (_, Yaml::Null) => Ok(Value::None),
            (Type::Int, Yaml::Number(n)) => n
                .as_i64()
                .map(Value::Int)
                .ok_or_else(|| "expected a whole number".into()),
            (Type::Bool, Yaml::Bool(b)) => Ok(Value::Bool(*b)),
            (Type::Player, Yaml::String(s)) => state
                .names
                .iter()
                .position(|n| n == s)
                .map(|p| Value::Player(p as u8))
                .ok_or_else(|| format!("'{s}' is not a player ({})", state.names.join(", "))),
            (Type::Row(t), _) => {
                let id = match v {
                    Yaml::String(s) => s.clone(),
                    Yaml::Number(n) => n.to_string(),
                    _ => return Err("expected a row id".into()),
                };
                self.tables[t.index()]
                    .row_index(&id)
                    .map(|r| Value::Row(*t, r))
                    .ok_or_else(|| {
                        format!("table {} has no row '{id}'", self.tables[t.index()].name)
                    })
            }
            (Type::Str, Yaml::String(s)) => Ok(Value::Str(Arc::from(s.as_str()))),
            _ => Err(format!(
                "unexpected value {}",
                serde_yaml::to_string(v).unwrap_or_default().trim()
            )),
        }
    }

    fn read_tagged(&self, v: &Yaml, state: &State) -> Result<Value, String> {
        match v {
            Yaml::Null => Ok(Value::None),
            Yaml::Number(n) => n
                .as_i64()
                .map(Value::Int)
                .ok_or_else(|| "expected a whole number".into()),
            Yaml::Bool(b) => Ok(Value::Bool(*b)),
            Yaml::Sequence(items) => Ok(Value::list(
                items
                    .iter()
                    .map(|i| self.read_tagged(i, state))
                    .collect::<Result<_, _>>()?,
            )),
            Yaml::Mapping(m) if m.len() == 1 => {
                let (k, x) = m.iter().next().ok_or("empty value")?;
                let k = k.as_str().unwrap_or_default();
                match k {
                    "player" => self.read_plain(&Type::Player, x, state),
                    "text" => Ok(Value::Str(Arc::from(x.as_str().unwrap_or_default()))),
                    "pos" => read_pos(x).map(Value::Pos),
                    table => match self.table(table) {
                        Some((t, _)) => self.read_plain(&Type::Row(t), x, state),
                        None => Err(format!("unknown value kind '{table}'")),
                    },
                }
            }
            _ => Err("unreadable value".into()),
        }
    }

    fn read_continuation(&self, c: &Yaml, state: &mut State) -> Result<(), String> {
        let num = |m: &Mapping, k: &str| match m.get(k) {
            None => Err(format!("continuation: frame lacks '{k}'")),
            Some(v) => v.as_u64().ok_or_else(|| {
                let shown = serde_yaml::to_string(v).unwrap_or_default();
                format!(
                    "continuation: a frame's '{k}' is a whole number from 0, not {}",
                    shown.trim()
                )
            }),
        };
        let frames = c
            .get("frames")
            .and_then(Yaml::as_sequence)
            .ok_or("continuation.frames: missing")?;
        let locals = c
            .get("locals")
            .and_then(Yaml::as_sequence)
            .ok_or("continuation.locals: missing")?;
        state.locals = locals
            .iter()
            .map(|v| self.read_tagged(v, state))
            .collect::<Result<_, _>>()?;
        state.stack.clear();
        for f in frames {
            let m = f
                .as_mapping()
                .ok_or("continuation.frames: expected mappings")?;
            let block = num(m, "block")?;
            if block >= self.blocks.len() as u64 {
                return Err(format!(
                    "continuation: block {block} does not exist in this ruleset"
                ));
            }
            let kind = match m.get("kind") {
                Some(Yaml::String(s)) if s == "call" => FrameKind::Call { into: None },
                Some(Yaml::String(s)) if s == "block" => FrameKind::Block,
                Some(Yaml::Mapping(k)) => match k.iter().next() {
                    Some((Yaml::String(s), Yaml::Mapping(a))) if s == "for_each" => {
                        let Value::List(list) =
                            self.read_tagged(a.get("list").unwrap_or(&Yaml::Null), state)?
                        else {
                            return Err(
                                "continuation: a for_each frame's 'list' is not a list".into()
                            );
                        };
                        // `next` is the position of the element after the current one: at most the length.
                        let next = num(a, "next")?;
                        if next == 0 || next > list.len() as u64 {
                            return Err(format!("continuation: a for_each frame's 'next' is {next}, outside 1..={} (its list's length)", list.len()));
                        }
                        FrameKind::ForEach {
                            slot: crate::ir::Slot(slot_number(num(a, "slot")?)?),
                            list,
                            next: next as u32,
                        }
                    }
                    Some((Yaml::String(s), Yaml::Mapping(a))) if s == "call" => FrameKind::Call {
                        into: Some(crate::ir::Slot(slot_number(num(a, "into")?)?)),
                    },
                    Some((Yaml::String(s), Yaml::Mapping(a))) if s == "repeat" => {
                        let left = a
                            .get("left")
                            .and_then(Yaml::as_i64)
                            .ok_or("continuation: repeat lacks 'left'")?;
                        if left < 0 {
                            return Err(format!("continuation: a repeat frame has {left} rounds left: a count from 0"));
                        }
                        FrameKind::Repeat { left }
                    }
                    Some((Yaml::String(s), Yaml::Mapping(a))) if s == "while" => {
                        let (block, pc) = (num(a, "block")? as usize, num(a, "pc")? as usize);
                        if !matches!(self.blocks.get(block).and_then(|b| b.get(pc)), Some(stmt) if matches!(stmt.kind, crate::model::StmtKind::While { .. }))
                        {
                            return Err(format!("continuation: block {block} statement {pc} is not a while loop of this ruleset"));
                        }
                        FrameKind::While {
                            block: crate::ir::BlockId::at(block),
                            pc: pc as u32,
                        }
                    }
                    Some((Yaml::String(s), Yaml::Mapping(a))) if s == "up_to" => {
                        let (block, pc) = (num(a, "block")? as usize, num(a, "pc")? as usize);
                        if !matches!(self.blocks.get(block).and_then(|b| b.get(pc)), Some(stmt) if matches!(stmt.kind, crate::model::StmtKind::RepeatUpTo { .. }))
                        {
                            return Err(format!("continuation: block {block} statement {pc} is not a repeat up_to loop of this ruleset"));
                        }
                        let int = |k: &str| {
                            a.get(k)
                                .and_then(Yaml::as_u64)
                                .and_then(|n| u16::try_from(n).ok())
                                .ok_or_else(|| {
                                    format!("continuation: up_to lacks '{k}' (a count from 0)")
                                })
                        };
                        FrameKind::UpTo {
                            block: crate::ir::BlockId::at(block),
                            pc: pc as u32,
                            round: int("round")?,
                            count: int("count")?,
                        }
                    }
                    _ => return Err("continuation: unknown frame kind".into()),
                },
                _ => return Err("continuation: unknown frame kind".into()),
            };
            let (pc, base) = (num(m, "pc")?, num(m, "base")?);
            if pc as usize > self.blocks[block as usize].len() {
                return Err(format!(
                    "continuation: block {block} has {} statements, not a statement {pc}",
                    self.blocks[block as usize].len()
                ));
            }
            let below = state.stack.last().map_or(0, |f| f.base as u64);
            if base < below || base as usize > state.locals.len() {
                return Err(format!(
                    "continuation: a frame's locals start at {base}, outside {below}..={}",
                    state.locals.len()
                ));
            }
            // The frame's statements read its procedure's locals from `base` on.
            let owner = self
                .owner_of_block(block as usize)
                .ok_or_else(|| format!("continuation: block {block} belongs to no procedure"))?;
            let needed = base as usize + self.procedures[owner].locals;
            if needed > state.locals.len() {
                return Err(format!(
                    "continuation: a frame of procedure '{}' needs locals up to {needed}, and there are {}",
                    self.procedures[owner].name,
                    state.locals.len()
                ));
            }
            // Frames nest as the machine pushes them: a call's frame starts its locals past
            // those of the procedure below it (which it would otherwise free when it
            // returns); any other frame is a block of the procedure below, sharing its locals.
            let below_frame = state
                .stack
                .last()
                .map(|f| (f.base as usize, self.owner_of_block(f.block.index())));
            match (&kind, below_frame) {
                (FrameKind::Call { .. }, Some((below_base, Some(caller))))
                    if (base as usize) < below_base + self.procedures[caller].locals =>
                {
                    return Err(format!(
                        "continuation: a call's locals start at {base}, inside those of procedure '{}' below it (from {below_base})",
                        self.procedures[caller].name
                    ));
                }
                (FrameKind::Call { .. }, _) => {}
                (_, None) => {
                    return Err("continuation: the first frame is not a procedure's call".into())
                }
                (_, Some((below_base, below_owner)))
                    if below_base != base as usize || below_owner != Some(owner) =>
                {
                    return Err(format!("continuation: a frame of block {block} is not a block of the procedure below it"));
                }
                _ => {}
            }
            // A loop's element and a call's result go to a local of the procedure that
            // runs them: the frame's own for a for_each, the caller's for a call.
            let local_outside = match &kind {
                FrameKind::ForEach { slot, .. } => (slot.index() >= self.procedures[owner].locals)
                    .then_some(("for_each", slot.index())),
                FrameKind::Call { into: Some(into) } => {
                    let caller = state
                        .stack
                        .last()
                        .and_then(|f| self.owner_of_block(f.block.index()));
                    (caller.is_none_or(|c| into.index() >= self.procedures[c].locals))
                        .then_some(("call", into.index()))
                }
                _ => None,
            };
            if let Some((what, slot)) = local_outside {
                return Err(format!(
                    "continuation: a {what} frame's local {slot} is not one of its procedure's"
                ));
            }
            state.stack.push(Frame {
                block: crate::ir::BlockId::at(block as usize),
                pc: pc as u32,
                base: base as u32,
                kind,
            });
        }
        if let Some(top) = state.stack.last() {
            // A suspended state stands at the statement that suspended it.
            if c.get("pending").and_then(Yaml::as_str) == Some("suspended") && top.pc == 0 {
                return Err(
                    "continuation: a suspended frame stands before its first statement".into(),
                );
            }
        }
        match c.get("pending").and_then(Yaml::as_str) {
            Some("suspended") => {
                // The suspending statement is re-run: it recomputes its options or outcomes.
                let frame = state
                    .stack
                    .last_mut()
                    .ok_or("continuation: suspended with no frame")?;
                frame.pc = frame
                    .pc
                    .checked_sub(1)
                    .ok_or("continuation: bad position")?;
                state.pending = Pending::Running;
                self.run(state, &mut Journal::off())
                    .map_err(|e| e.to_string())?;
            }
            Some("over") => {
                state.pending = Pending::Running;
                self.run(state, &mut Journal::off())
                    .map_err(|e| e.to_string())?;
            }
            _ => return Err("continuation.pending: expected suspended or over".into()),
        }
        Ok(())
    }
}

/// A local's number as a frame writes it (16 bits).
fn slot_number(n: u64) -> Result<u16, String> {
    u16::try_from(n).map_err(|_| format!("continuation: local {n} does not exist"))
}

fn one_map(key: &str, inner: Mapping) -> Yaml {
    let mut m = Mapping::new();
    m.insert(key.into(), Yaml::Mapping(inner));
    Yaml::Mapping(m)
}

/// A position written `[row, col]`.
fn read_pos(v: &Yaml) -> Result<crate::grid::Pos, String> {
    let coordinate = |y: Option<&Yaml>| {
        y.and_then(Yaml::as_i64)
            .and_then(crate::grid::Pos::coordinate)
    };
    match v.as_sequence() {
        Some(items) if items.len() == 2 => {
            match (coordinate(items.first()), coordinate(items.get(1))) {
                (Some(row), Some(col)) => Ok(crate::grid::Pos::new(row, col)),
                _ => Err(format!(
                    "a position is [row, col], two whole numbers between -{0} and {0}",
                    crate::grid::LIMIT - 1
                )),
            }
        }
        _ => Err("a position is [row, col], two whole numbers".into()),
    }
}
