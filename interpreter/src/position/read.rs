//! A state read back from YAML, or a hand-written position: the players, then what the
//! position writes of the variables, zones and boards over their declared initial
//! values, what was revealed, and where the game resumes (a continuation, or `play`).

use std::sync::Arc;

use serde_yaml::{Mapping, Value as Yaml};

use crate::machine::{encode, Journal, State};
use crate::model::{Domain, Game};
use crate::value::{Type, Value};

impl Game {
    /// Reads a serialized state or a hand-written position. Errors name the YAML path.
    pub fn state_from_yaml(&self, text: &str) -> Result<State, String> {
        // Read as a ruleset is: bounded before the YAML reader starts, errors in plain words.
        let doc: Yaml = crate::load::parse_yaml("", text).map_err(|d| {
            let at = d
                .position
                .map(|(line, column)| format!("line {line}:{column}: "))
                .unwrap_or_default();
            format!("{at}{}", d.message)
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
                "initial",
            ]
            .contains(&k)
            {
                return Err(format!("{k}: unknown key; expected players, vars, zones, boards, seen, continuation, steps, initial"));
            }
        }
        // A hand-written position states what it leaves at the ruleset's initial values;
        // a serialized state (with its continuation) writes everything.
        if top.get("continuation").is_none() {
            self.check_omissions(top)?;
        }
        let names = self.read_players(top)?;
        let mut state = self.initial_state(names).map_err(|e| e.to_string())?;
        let empty = Mapping::new();
        let vars = top.get("vars").and_then(Yaml::as_mapping).unwrap_or(&empty);
        self.read_vars(vars, &mut state)?;
        let zones = top
            .get("zones")
            .and_then(Yaml::as_mapping)
            .unwrap_or(&empty);
        let initial_zones = state.zones.clone();
        self.read_zones(zones, &mut state)?;
        let boards = top
            .get("boards")
            .and_then(Yaml::as_mapping)
            .unwrap_or(&empty);
        self.read_boards(boards, &mut state)?;
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
                self.run(&mut state, &mut Journal::off(), None)
                    .map_err(|e| e.to_string())?;
            }
            Some(c) => {
                self.refuse_duplicated_elements(&initial_zones, &state)?;
                self.read_seen(top.get("seen"), &mut state)?;
                self.read_continuation(c, &mut state)?
            }
        }
        self.check_conserved(&state)?;
        Ok(state)
    }

    /// Every variable (but `stats:`), zone and board a hand-written position does not write
    /// must be named by its `initial:` list, or the list be `rest`: a state silently
    /// filled with defaults is a position the author did not mean.
    fn check_omissions(&self, top: &Mapping) -> Result<(), String> {
        let written = |key: &str| -> Vec<String> {
            top.get(key)
                .and_then(Yaml::as_mapping)
                .map(|m| {
                    m.keys()
                        .filter_map(Yaml::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let (vars, zones, boards) = (written("vars"), written("zones"), written("boards"));
        let declared: Vec<(&str, &str)> = self
            .vars
            .iter()
            .filter(|v| !v.stat)
            .map(|v| ("vars", v.name.as_str()))
            .chain(self.zones.iter().map(|z| ("zones", z.name.as_str())))
            .chain(self.boards.iter().map(|b| ("boards", b.name.as_str())))
            .collect();
        let initial: Vec<String> = match top.get("initial") {
            None => Vec::new(),
            Some(Yaml::String(rest)) if rest == "rest" => return Ok(()),
            Some(Yaml::Sequence(names)) => names
                .iter()
                .map(|n| {
                    n.as_str()
                        .map(str::to_string)
                        .ok_or("initial: a list of names of variables, zones and boards, or 'rest'")
                })
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(
                    "initial: a list of names of variables, zones and boards, or 'rest'".into(),
                )
            }
        };
        for name in &initial {
            if !declared.iter().any(|(_, d)| d == name) {
                return Err(format!(
                    "initial: '{name}' is not a variable, zone or board of the ruleset"
                ));
            }
            if vars.contains(name) || zones.contains(name) || boards.contains(name) {
                return Err(format!(
                    "initial: '{name}' is written by the position, so it does not start at its initial value"
                ));
            }
        }
        let missing: Vec<String> = declared
            .iter()
            .filter(|(key, name)| {
                let shown = match *key {
                    "vars" => &vars,
                    "zones" => &zones,
                    _ => &boards,
                };
                !shown.iter().any(|w| w == name) && !initial.iter().any(|i| i == name)
            })
            .map(|(key, name)| format!("{key}.{name}"))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "the position does not write {}: write {}, or name {} under 'initial:' to start {} at the ruleset's initial value{} (initial: [{}]), or write 'initial: rest' for everything it does not write",
            missing.join(", "),
            if missing.len() == 1 { "it" } else { "them" },
            if missing.len() == 1 { "it" } else { "them" },
            if missing.len() == 1 { "it" } else { "them" },
            if missing.len() == 1 { "" } else { "s" },
            missing
                .iter()
                .map(|m| m.split_once('.').map_or(m.as_str(), |(_, n)| n))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// `players:`: the seat order, as many players as the ruleset seats.
    fn read_players(&self, top: &Mapping) -> Result<Vec<String>, String> {
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
        let mut seated = std::collections::HashSet::new();
        if let Some(twice) = names.iter().find(|n| !seated.insert(n.as_str())) {
            return Err(format!(
                "players: '{}' is listed twice (each seat has a name of its own)",
                frontier_grammar::shown(twice)
            ));
        }
        if names.len() < self.meta.min_players as usize
            || names.len() > self.meta.max_players as usize
        {
            return Err(format!(
                "players: {}",
                self.player_count_message(names.len())
            ));
        }
        Ok(names)
    }

    /// `vars:`: each variable's values, by its keys.
    fn read_vars(&self, vars: &Mapping, state: &mut State) -> Result<(), String> {
        for (k, v) in vars {
            let name = k.as_str().unwrap_or_default();
            let Some((_, var)) = self.var(name) else {
                return Err(format!("vars.{name}: no such variable"));
            };
            let (ty, base, per) = (var.ty.clone(), var.base, var.per);
            self.each_index(
                per,
                v,
                state,
                &format!("vars.{name}"),
                |i, item, at, state| {
                    let value = self
                        .read_plain(&ty, item, state)
                        .map_err(|m| format!("{at}: {m}"))?;
                    state.ints[base + i] = encode(&value);
                    Ok(())
                },
            )?;
        }
        Ok(())
    }

    /// `zones:`: each zone instance's elements, within the bound on elements.
    fn read_zones(&self, zones: &Mapping, state: &mut State) -> Result<(), String> {
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
                state,
                &format!("zones.{name}"),
                |i, item, _, state| {
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
        Ok(())
    }

    /// `boards:`: each board instance's cells, `[row, col, element]`.
    fn read_boards(&self, boards: &Mapping, state: &mut State) -> Result<(), String> {
        for (k, v) in boards {
            let name = k.as_str().unwrap_or_default();
            let Some((_, board)) = self.board(name) else {
                return Err(format!("boards.{name}: no such board"));
            };
            let (of, base, per) = (board.of, board.base, board.per);
            let ty = of.value_type();
            self.each_index(per, v, state, &format!("boards.{name}"), |i, item, _, state| {
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
        Ok(())
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
        for (t, slots) in self.dealt_tables(initial) {
            let written_slots: Vec<usize> = slots.iter().copied().filter(|&s| written[s]).collect();
            let placed = self.place_once(t, &written_slots, state)?;
            for &slot in slots.iter().filter(|&&slot| !written[slot]) {
                state.zones[slot].retain(|&code| placed[code as usize].is_none());
            }
        }
        Ok(())
    }

    /// For a saved state (with its continuation): the rows of a table that the declared
    /// initial zones hold once each are held at most once, unless the rules `push` rows of
    /// that table (which may put a second one somewhere).
    fn refuse_duplicated_elements(
        &self,
        initial: &[Vec<u16>],
        state: &State,
    ) -> Result<(), String> {
        for (t, slots) in self.dealt_tables(initial) {
            if !self.pushes_rows_of(t) {
                self.place_once(t, &slots, state)?;
            }
        }
        Ok(())
    }

    /// The tables whose rows the declared initial zones hold once each, with the zone
    /// instances that hold rows of each.
    fn dealt_tables(&self, initial: &[Vec<u16>]) -> Vec<(usize, Vec<usize>)> {
        let mut dealt = Vec::new();
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
            if !slots.is_empty() && held.iter().all(|&n| n == 1) {
                dealt.push((t, slots));
            }
        }
        dealt
    }

    /// Whether a `push` statement of the rules adds rows of table `t` to a zone.
    fn pushes_rows_of(&self, t: usize) -> bool {
        let row = crate::model::Element::Row(crate::ir::TableId::at(t));
        self.blocks.iter().flatten().any(
            |stmt| matches!(&stmt.kind, crate::model::StmtKind::Push { to, .. } if to.of == row),
        )
    }

    /// Where each row of table `t` stands among the zone instances `slots`: an error naming
    /// a row held twice, in one instance or two.
    fn place_once(
        &self,
        t: usize,
        slots: &[usize],
        state: &State,
    ) -> Result<Vec<Option<usize>>, String> {
        let table = &self.tables[t];
        let mut placed: Vec<Option<usize>> = vec![None; table.rows.len()];
        for &slot in slots {
            for &code in &state.zones[slot] {
                if let Some(first) = placed[code as usize].replace(slot) {
                    let id = &table.rows[code as usize].id;
                    let (a, b) = (
                        self.instance_name(first, state),
                        self.instance_name(slot, state),
                    );
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
        Ok(placed)
    }

    /// A zone instance as a position names it: `deck`, `hand[red]`, `stock[red, mine]`.
    fn instance_name(&self, slot: usize, state: &State) -> String {
        // Positions name players by name, not seat.
        let key_name = |axis: crate::model::Axis, i: usize| match axis {
            crate::model::Axis::Players => {
                state.names.get(i).cloned().unwrap_or_else(|| "?".into())
            }
            crate::model::Axis::Table(_) => self.key_text(axis, i),
        };
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

    /// Each entry of a declaration's value by its index, with its YAML path.
    fn each_index(
        &self,
        per: Domain,
        v: &Yaml,
        st: &mut State,
        path: &str,
        mut f: impl FnMut(usize, &Yaml, &str, &mut State) -> Result<(), String>,
    ) -> Result<(), String> {
        match per {
            Domain::Global => f(0, v, path, st)?,
            Domain::Pair(a, b) => {
                // A mapping by the first key of mappings by the second.
                let stride = self.domain_len(b.domain());
                for (i, key, inner) in self.yaml_entries(a.domain(), v, st, path)? {
                    let outer = format!("{path}.{key}");
                    for (j, key, item) in self.yaml_entries(b.domain(), inner, st, &outer)? {
                        f(i * stride + j, item, &format!("{outer}.{key}"), st)?;
                    }
                }
            }
            _ => {
                for (i, key, item) in self.yaml_entries(per, v, st, path)? {
                    f(i, item, &format!("{path}.{key}"), st)?;
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
            (Type::Player | Type::Row(_), Yaml::Null) => Ok(Value::None),
            (_, Yaml::Null) => Err(format!(
                "~ is none, which only a player or a row can be: write {}",
                match ty {
                    Type::Int => "a whole number",
                    Type::Bool => "true or false",
                    _ => "a value",
                }
            )),
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

    pub(super) fn read_tagged(&self, v: &Yaml, state: &State) -> Result<Value, String> {
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
