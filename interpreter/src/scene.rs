//! What a graphical front end draws, worked out from the ruleset's `view:` hints for one
//! state as one viewer may see it: counters, cards, tracks, board cells and hexes, as
//! plain data with their texts and colours evaluated. Like `display:`, it is computed only
//! when a person is shown the game. Things an option names (a row, a player, a cell)
//! carry a key, so that a front end can let people choose by clicking them
//! ([`Game::option_keys`]).

use serde::Serialize;

use crate::eval::{decode_element, Env, Template};
use crate::machine::{decode, Pending, State};
use crate::model::{Domain, Game, Visibility};
use crate::value::Value;

pub use crate::knowledge::Viewer;

#[derive(Debug, Clone, Default, Serialize)]
pub struct Scene {
    /// Single variables among the counters.
    pub counters: Vec<Counter>,
    pub players: Vec<PlayerPanel>,
    pub tracks: Vec<TrackShown>,
    /// Zones that belong to no player.
    pub zones: Vec<ZoneShown>,
    pub boards: Vec<BoardShown>,
    pub hexes: Option<HexMap>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Counter {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerPanel {
    pub seat: u8,
    pub name: String,
    pub counters: Vec<Counter>,
    pub zones: Vec<ZoneShown>,
}

/// A zone instance: its cards in order, those the viewer may not see face down.
#[derive(Debug, Clone, Serialize)]
pub struct ZoneShown {
    /// `hand`, `posse[dodge]`, `track[s2]` (the player's own key left out on their panel).
    pub name: String,
    /// How many elements it holds, when the viewer may know it.
    pub count: Option<usize>,
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Card {
    /// What an option names to choose this card (see [`Game::option_keys`]); none when
    /// face down.
    pub key: Option<String>,
    /// The row's id or the player's name (empty when face down).
    pub id: String,
    /// The table's `show:` text.
    pub text: String,
    /// The row's columns and values.
    pub fields: Vec<(String, String)>,
    pub face_down: bool,
    /// For a player in a zone: their seat (front ends colour by seat).
    pub seat: Option<u8>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TrackShown {
    pub title: String,
    /// The key of the track's index (a row or a player), for clicks on the track itself.
    pub key: Option<String>,
    pub slots: usize,
    pub pieces: Vec<Card>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BoardShown {
    pub name: String,
    /// The seat whose board it is (a board per player); options' cells are on the
    /// decider's board, or on a single board.
    pub seat: Option<u8>,
    pub cells: Vec<CellShown>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CellShown {
    pub row: i16,
    pub col: i16,
    pub text: String,
    pub colour: Option<String>,
    /// The element covering the cell.
    pub key: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HexMap {
    /// `even-q`, `odd-q` or `axial` (hexes), or `square` (a grid's squares, `y` upward).
    pub layout: &'static str,
    pub hexes: Vec<HexShown>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HexShown {
    pub x: i64,
    pub y: i64,
    pub key: String,
    pub text: String,
    pub mark: String,
    pub colour: Option<String>,
}

impl Game {
    /// The scene of `state` as `viewer` may see it. An expression of the hints that fails
    /// shows its error in place of its text (as a display line does).
    pub fn scene(&self, state: &State, viewer: Viewer) -> Scene {
        let env = Env::new(self, state, &[]);
        let mut scene = Scene::default();
        let seats = state.names.len();
        scene.players = (0..seats)
            .map(|p| PlayerPanel {
                seat: p as u8,
                name: state.names[p].clone(),
                counters: Vec::new(),
                zones: Vec::new(),
            })
            .collect();
        self.counters_shown(&mut scene, state);
        self.zones_shown(&mut scene, state, viewer, &env);
        self.tracks_shown(&mut scene, state, viewer, &env);
        self.boards_shown(&mut scene, state, &env);
        scene.hexes = self.hexes_shown(&env);
        scene
    }

    /// The counters of `view:`, each player's on their panel.
    fn counters_shown(&self, scene: &mut Scene, state: &State) {
        for id in &self.view.counters {
            let var = &self.vars[id.index()];
            match var.per {
                Domain::Players => {
                    for (p, panel) in scene.players.iter_mut().enumerate() {
                        let value = decode(&var.ty, state.ints[var.base + p]);
                        panel.counters.push(Counter {
                            name: var.name.clone(),
                            value: self.value_text(&value, &state.names),
                        });
                    }
                }
                _ => {
                    let value = decode(&var.ty, state.ints[var.base]);
                    scene.counters.push(Counter {
                        name: var.name.clone(),
                        value: self.value_text(&value, &state.names),
                    });
                }
            }
        }
    }

    /// The zones of `view:`, each owned one on its owner's panel, as `viewer` sees them.
    fn zones_shown(&self, scene: &mut Scene, state: &State, viewer: Viewer, env: &Env) {
        let seats = state.names.len();
        for id in &self.view.zones {
            let zone = &self.zones[id.index()];
            for i in 0..self.domain_len(zone.per) {
                let (first, second) = self.split_index(zone.per, i);
                let owner = match zone.per {
                    Domain::Players if first < seats => Some(first),
                    Domain::Pair(crate::model::Axis::Players, _) if first < seats => Some(first),
                    Domain::Players | Domain::Pair(crate::model::Axis::Players, _) => continue,
                    _ => None,
                };
                let name = match zone.per {
                    Domain::Global | Domain::Players => zone.name.clone(),
                    Domain::Table(_) => {
                        format!("{}[{}]", zone.name, self.index_text(zone.per, i, state))
                    }
                    Domain::Pair(_, b) => match owner {
                        Some(_) => format!("{}[{}]", zone.name, self.key_text(b, second)),
                        None => format!("{}[{}]", zone.name, self.index_text(zone.per, i, state)),
                    },
                };
                let shown = self.zone_shown(state, viewer, zone.base + i, name, env);
                match owner {
                    Some(p) => scene.players[p].zones.push(shown),
                    None => scene.zones.push(shown),
                }
            }
        }
    }

    /// The tracks of `view:`: a zone per index drawn as a row of slots.
    fn tracks_shown(&self, scene: &mut Scene, state: &State, viewer: Viewer, env: &Env) {
        let seats = state.names.len();
        for hint in &self.view.tracks {
            let zone = &self.zones[hint.zone.index()];
            for i in 0..self.domain_len(zone.per) {
                let index = match zone.per {
                    Domain::Players if i >= seats => continue,
                    Domain::Players => Value::Player(i as u8),
                    Domain::Table(t) => Value::Row(t, i as u16),
                    _ => Value::None,
                };
                let it = env.with_it(&index);
                let title = match &hint.label {
                    Some(label) => render(label, &it),
                    None if index == Value::None => zone.name.clone(),
                    None => format!("{}[{}]", zone.name, self.value_text(&index, &state.names)),
                };
                let shown = self.zone_shown(state, viewer, zone.base + i, String::new(), env);
                let slots = match &hint.slots {
                    Some(e) => e
                        .int(&it)
                        .ok()
                        .and_then(|n| usize::try_from(n).ok())
                        .unwrap_or(0),
                    None => 0,
                }
                .max(shown.cards.len())
                .min(MAX_SLOTS);
                scene.tracks.push(TrackShown {
                    title,
                    key: value_key(self, &index),
                    slots,
                    pieces: shown.cards,
                });
            }
        }
    }

    /// The boards of `view:`, their cells with the text and colour their hints give.
    fn boards_shown(&self, scene: &mut Scene, state: &State, env: &Env) {
        let seats = state.names.len();
        for id in &self.view.boards {
            let board = &self.boards[id.index()];
            for i in 0..self.domain_len(board.per) {
                let seat = match board.per {
                    Domain::Players if i >= seats => continue,
                    Domain::Players => Some(i as u8),
                    _ => None,
                };
                let name = match board.per {
                    Domain::Global => board.name.clone(),
                    _ => format!("{}[{}]", board.name, self.index_text(board.per, i, state)),
                };
                let cells = state.boards[board.base + i]
                    .cells()
                    .iter()
                    .take(MAX_CELLS)
                    .map(|(p, e)| {
                        let element = decode_element(board.of, *e);
                        let it = env.with_it(&element);
                        let text = match &board.cell_text {
                            Some(t) => render(t, &it),
                            None => self.value_text(&element, &state.names),
                        };
                        let colour = board.cell_colour.as_ref().and_then(|c| match c.eval(&it) {
                            Ok(Value::Str(s)) => Some(s.to_string()),
                            _ => None,
                        });
                        CellShown {
                            row: p.row,
                            col: p.col,
                            text,
                            colour,
                            key: value_key(self, &element),
                        }
                    })
                    .collect();
                scene.boards.push(BoardShown { name, seat, cells });
            }
        }
    }

    /// The hex map of `view:`, if the ruleset draws one.
    fn hexes_shown(&self, env: &Env) -> Option<HexMap> {
        if let Some(hint) = &self.view.hexes {
            let table = &self.tables[hint.table.index()];
            if let Some(geometry) = &table.geometry {
                let layout = match geometry.layout {
                    Some(crate::hex::Layout::EvenQ) => "even-q",
                    Some(crate::hex::Layout::OddQ) => "odd-q",
                    Some(crate::hex::Layout::Square4 | crate::hex::Layout::Square8) => "square",
                    _ => "axial",
                };
                let hexes = geometry
                    .coords
                    .iter()
                    .enumerate()
                    .filter_map(|(r, &(x, y))| {
                        let row = Value::Row(hint.table, r as u16);
                        let it = env.with_it(&row);
                        if let Some(shown) = &hint.shown {
                            if !shown.bool(&it).unwrap_or(true) {
                                return None;
                            }
                        }
                        let text = hint
                            .text
                            .as_ref()
                            .map_or_else(|| table.rows[r].id.clone(), |t| render(t, &it));
                        let mark = hint
                            .mark
                            .as_ref()
                            .map(|t| render(t, &it))
                            .unwrap_or_default();
                        let colour = hint.colour.as_ref().and_then(|c| match c.eval(&it) {
                            Ok(Value::Str(s)) if !s.is_empty() => Some(s.to_string()),
                            _ => None,
                        });
                        Some(HexShown {
                            x,
                            y,
                            key: row_key(self, hint.table, r as u16),
                            text,
                            mark,
                            colour,
                        })
                    })
                    .collect();
                return Some(HexMap { layout, hexes });
            }
        }
        None
    }

    /// The keys of what option `i` of the pending decision names: each row (`table:id`),
    /// player (`player:N`, N the seat) and cell (`cell:row,col`) in its value. A front end
    /// matches them with the keys of the scene's cards, pieces, cells and hexes.
    pub fn option_keys(&self, state: &State, i: usize) -> Vec<String> {
        let Pending::Decision { options, .. } = &state.pending else {
            return Vec::new();
        };
        let Some((_, value)) = options.get(i) else {
            return Vec::new();
        };
        let mut keys = Vec::new();
        collect_keys(self, value, &mut keys);
        keys
    }

    /// A zone instance as `viewer` sees it.
    fn zone_shown(
        &self,
        state: &State,
        viewer: Viewer,
        instance: usize,
        name: String,
        env: &Env,
    ) -> ZoneShown {
        let (z, index) = self.zone_of_instance(instance);
        let zone = &self.zones[z];
        let contents = &state.zones[instance];
        let seen: Vec<bool> = match viewer {
            Viewer::Everyone => vec![true; contents.len()],
            Viewer::Seat(v) => self
                .seen_positions(state, v, instance)
                .unwrap_or_else(|_| vec![false; contents.len()]),
            Viewer::Table => (0..contents.len())
                .map(|at| match zone.visibility {
                    Visibility::All => true,
                    Visibility::Top => at == 0,
                    _ => false,
                })
                .collect(),
        };
        let count_known = viewer == Viewer::Everyone
            || zone.visibility != Visibility::Hidden
            || seen.iter().all(|s| *s)
            || matches!(viewer, Viewer::Seat(v) if zone.per == Domain::Players && index == v as usize);
        let cards = contents
            .iter()
            .zip(&seen)
            .take(if count_known { MAX_CARDS } else { 0 })
            .map(|(e, seen)| {
                if !seen {
                    return Card {
                        key: None,
                        id: String::new(),
                        text: String::new(),
                        fields: Vec::new(),
                        face_down: true,
                        seat: None,
                    };
                }
                self.card(decode_element(zone.of, *e), state, env)
            })
            .collect();
        ZoneShown {
            name,
            count: count_known.then_some(contents.len()),
            cards,
        }
    }

    fn card(&self, element: Value, state: &State, env: &Env) -> Card {
        match element {
            Value::Row(t, r) => {
                let table = &self.tables[t.index()];
                let row = &table.rows[r as usize];
                let text = table
                    .show
                    .as_ref()
                    .map(|s| render(s, &env.with_it(&element)))
                    .unwrap_or_default();
                let fields = table
                    .columns
                    .iter()
                    .zip(&row.values)
                    .map(|(c, v)| (c.name.clone(), self.value_text(v, &state.names)))
                    .collect();
                Card {
                    key: Some(row_key(self, t, r)),
                    id: row.id.clone(),
                    text,
                    fields,
                    face_down: false,
                    seat: None,
                }
            }
            Value::Player(p) => Card {
                key: Some(format!("player:{p}")),
                id: state.names.get(p as usize).cloned().unwrap_or_default(),
                text: String::new(),
                fields: Vec::new(),
                face_down: false,
                seat: Some(p),
            },
            other => Card {
                key: value_key(self, &other),
                id: self.value_text(&other, &state.names),
                text: String::new(),
                fields: Vec::new(),
                face_down: false,
                seat: None,
            },
        }
    }

    /// Index `i` of a domain as text: a player's name, a row id, `a, b` for two keys.
    fn index_text(&self, per: Domain, i: usize, state: &State) -> String {
        let one = |axis: crate::model::Axis, i: usize| match axis {
            crate::model::Axis::Players => state
                .names
                .get(i)
                .cloned()
                .unwrap_or_else(|| self.key_text(axis, i)),
            axis => self.key_text(axis, i),
        };
        match per {
            Domain::Global => String::new(),
            Domain::Players => one(crate::model::Axis::Players, i),
            Domain::Table(t) => one(crate::model::Axis::Table(t), i),
            Domain::Pair(a, b) => {
                let (x, y) = self.split_index(per, i);
                format!("{}, {}", one(a, x), one(b, y))
            }
        }
    }
}

/// Cards drawn of one zone, slots of a track and cells of a board, at most: a front end
/// stays responsive whatever a ruleset holds.
const MAX_CARDS: usize = 200;
const MAX_SLOTS: usize = 200;
const MAX_CELLS: usize = 2000;

fn render(template: &Template, env: &Env) -> String {
    template.render(env).unwrap_or_else(|e| format!("({e})"))
}

fn row_key(game: &Game, t: crate::value::TableId, r: u16) -> String {
    format!(
        "{}:{}",
        game.tables[t.index()].name,
        game.tables[t.index()].rows[r as usize].id
    )
}

/// The key of a value that names one thing (a row, a player, a cell).
fn value_key(game: &Game, value: &Value) -> Option<String> {
    match value {
        Value::Row(t, r) => Some(row_key(game, *t, *r)),
        Value::Player(p) => Some(format!("player:{p}")),
        Value::Pos(p) => Some(format!("cell:{},{}", p.row, p.col)),
        _ => None,
    }
}

fn collect_keys(game: &Game, value: &Value, out: &mut Vec<String>) {
    match value {
        Value::List(items) => items.iter().for_each(|v| collect_keys(game, v, out)),
        other => out.extend(value_key(game, other)),
    }
}
