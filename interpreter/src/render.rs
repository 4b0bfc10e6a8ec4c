//! Text a player reads: the state (as one player may see it), and the ruleset described
//! in words.

use std::fmt::Write;

use crate::colour::ansi_background;
pub use crate::colour::{apply_colours, mark_colour, strip_colours, visible_width, Style};
use crate::eval::Env;
use crate::grid::Grid;
use crate::machine::{decode, decode_element, State};
use crate::model::{Board, Domain, Game, Visibility, Zone};
use crate::value::Value;

/// Whether the `internal:` variables are shown: in a record of the game (a replay, a
/// position, everything), or not (what players read).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bookkeeping {
    Shown,
    Hidden,
}

impl Game {
    /// The entries of a domain in this game: each one's index in the slot layout and its
    /// label (a player's name, a row id, `red, s1` for two keys, nothing for one value).
    fn labelled_entries(&self, domain: Domain, state: &State) -> Vec<(usize, String)> {
        match domain {
            Domain::Global => vec![(0, String::new())],
            Domain::Players => state.names.iter().cloned().enumerate().collect(),
            Domain::Table(t) => self.tables[t.index()]
                .rows
                .iter()
                .map(|r| r.id.clone())
                .enumerate()
                .collect(),
            Domain::Pair(a, b) => {
                let stride = self.domain_len(b.domain());
                let seconds = self.labelled_entries(b.domain(), state);
                let mut out = Vec::new();
                for (i, first) in self.labelled_entries(a.domain(), state) {
                    out.extend(
                        seconds
                            .iter()
                            .map(|(j, second)| (i * stride + j, format!("{first}, {second}"))),
                    );
                }
                out
            }
        }
    }

    /// The state as `viewer` may see it (`None`: everything), one line per variable or zone,
    /// then each board drawn as a grid.
    pub fn render_state(&self, state: &State, viewer: Option<u8>) -> String {
        self.render_state_styled(state, viewer, Style::Plain)
    }

    pub fn render_state_styled(&self, state: &State, viewer: Option<u8>, style: Style) -> String {
        let bookkeeping = match viewer {
            Some(_) => Bookkeeping::Hidden,
            None => Bookkeeping::Shown,
        };
        self.render_state_with(state, viewer, bookkeeping, style)
    }

    /// The whole state as the players read it at the end of a game: every zone's contents,
    /// without the `internal:` bookkeeping.
    pub fn render_end_state(&self, state: &State, style: Style) -> String {
        self.render_state_with(state, None, Bookkeeping::Hidden, style)
    }

    fn render_state_with(
        &self,
        state: &State,
        viewer: Option<u8>,
        bookkeeping: Bookkeeping,
        style: Style,
    ) -> String {
        let mut out = String::new();
        for var in &self.vars {
            // A `stats:` counter is for results only.
            if var.stat || (var.internal && bookkeeping == Bookkeeping::Hidden) {
                continue;
            }
            let _ = write!(out, "{}:", var.name);
            for (i, label) in self.labelled_entries(var.per, state) {
                let v = decode(&var.ty, state.ints[var.base + i]);
                let text = self.value_text(&v, &state.names);
                if label.is_empty() {
                    let _ = write!(out, " {text}");
                } else if let Domain::Pair(..) = var.per {
                    let _ = write!(out, " [{label}]={text}");
                } else {
                    let _ = write!(out, " {label}={text}");
                }
            }
            out.push('\n');
        }
        for zone in &self.zones {
            for (i, label) in self.labelled_entries(zone.per, state) {
                self.render_zone_instance(&mut out, zone, i, &label, state, viewer);
            }
        }
        for board in &self.boards {
            for (i, label) in self.labelled_entries(board.per, state) {
                let name = if label.is_empty() {
                    board.name.clone()
                } else {
                    format!("{}[{label}]", board.name)
                };
                let _ = writeln!(out, "{name}:");
                self.draw_grid(&mut out, board, &state.boards[board.base + i], state, style);
            }
        }
        out
    }

    /// One zone instance as `viewer` may see it: a line, or a line per row for rows
    /// with a `show:` template.
    fn render_zone_instance(
        &self,
        out: &mut String,
        zone: &Zone,
        i: usize,
        label: &str,
        state: &State,
        viewer: Option<u8>,
    ) {
        let contents = &state.zones[zone.base + i];
        let name = if label.is_empty() {
            zone.name.clone()
        } else {
            format!("{}[{label}]", zone.name)
        };
        let owner_sees = zone.per == Domain::Players && viewer == Some(i as u8);
        // What the viewer sees beyond what the zone shows everyone: elements whose
        // `visible_if` holds for them, or revealed to them.
        let seen = match viewer {
            Some(v) => self
                .seen_positions(state, v, zone.base + i)
                .unwrap_or_default(),
            None => vec![true; contents.len()],
        };
        let shown = match zone.visibility {
            _ if viewer.is_none() => Visibility::All,
            // Every element seen: an empty zone still shows only what its
            // visibility allows (`none` hides even that it is empty).
            _ if !contents.is_empty() && seen.iter().all(|s| *s) => Visibility::All,
            Visibility::Owner if owner_sees => Visibility::All,
            Visibility::Owner => Visibility::Count,
            other => other,
        };
        let items = |n: usize| -> String {
            let values: Vec<Value> = contents
                .iter()
                .take(n)
                .map(|e| decode_element(zone.of, *e))
                .collect();
            self.value_text(&Value::list(values), &state.names)
        };
        let also_seen = {
            let skip = if shown == Visibility::Top { 1 } else { 0 };
            let values: Vec<Value> = contents
                .iter()
                .zip(&seen)
                .skip(skip)
                .filter(|(_, s)| **s)
                .map(|(e, _)| decode_element(zone.of, *e))
                .collect();
            match shown {
                Visibility::All => String::new(),
                _ if values.is_empty() => String::new(),
                _ => format!(
                    ", seen: {}",
                    self.value_text(&Value::list(values), &state.names)
                ),
            }
        };
        if let (Visibility::All, Some(show)) = (shown, self.row_show(zone.of)) {
            // Rows with a display template: one per line, id then what it shows.
            let _ = writeln!(
                out,
                "{name}:{}",
                if contents.is_empty() { " (empty)" } else { "" }
            );
            let env = Env::new(self, state, &[]);
            let items: Vec<String> = contents
                .iter()
                .map(|e| {
                    let row = decode_element(zone.of, *e);
                    let text = show
                        .render(&env.with_it(&row))
                        .unwrap_or_else(|e| format!("({e})"));
                    format!("{}  {text}", self.value_text(&row, &state.names))
                })
                .collect();
            if viewer.is_some() && items.iter().all(|t| t.chars().count() <= SHORT_ROW) {
                // Short rows, shown to a player: several a line, so that the board
                // and the decision fit on a screen.
                pack(out, &items);
            } else {
                for item in items {
                    let _ = writeln!(out, "  {item}");
                }
            }
            return;
        }
        let text = match shown {
            Visibility::All if contents.is_empty() => "(empty)".to_string(),
            Visibility::All => items(contents.len()),
            Visibility::Count | Visibility::Owner => format!("{} hidden", contents.len()),
            Visibility::Top if contents.is_empty() => "(empty)".to_string(),
            Visibility::Top => format!("{} on top of {}", items(1), contents.len()),
            Visibility::Hidden => "hidden".to_string(),
        };
        let _ = writeln!(out, "{name}: {text}{also_seen}");
    }

    /// What option `i` of the pending decision is, for a person: each row among the
    /// option's elements whose table has a `show:` template, as that template reads it
    /// (`; ` between several; empty when none has one). Labels, which traces record, are
    /// unchanged: this is only shown beside them.
    pub fn option_details(&self, state: &State, i: usize) -> String {
        let shown: Vec<String> = self
            .option_rows_shown(state, i)
            .into_iter()
            .map(|(_, text)| text)
            .collect();
        shown.join("; ")
    }

    /// The rows option `i` of the pending decision names that their tables' `show:`
    /// describe, each with its text.
    pub fn option_rows_shown(&self, state: &State, i: usize) -> Vec<(Value, String)> {
        let crate::machine::Pending::Decision { options, .. } = &state.pending else {
            return Vec::new();
        };
        let Some((_, value)) = options.get(i) else {
            return Vec::new();
        };
        let mut rows = Vec::new();
        rows_in(value, &mut rows);
        let env = Env::new(self, state, &[]);
        rows.into_iter()
            .filter_map(|row| {
                let Value::Row(t, _) = row else { return None };
                let show = self.tables[t.index()].show.as_ref()?;
                let text = show
                    .render(&env.with_it(&row))
                    .unwrap_or_else(|e| format!("({e})"));
                Some((row, text))
            })
            .collect()
    }

    fn row_show(&self, of: crate::model::Element) -> Option<&crate::eval::Template> {
        match of {
            crate::model::Element::Row(t) => self.tables[t.index()].show.as_ref(),
            crate::model::Element::Player => None,
        }
    }

    /// A board as a grid: column numbers above, row numbers on the left, `.` for an empty
    /// cell inside the occupied rectangle.
    fn draw_grid(&self, out: &mut String, board: &Board, grid: &Grid, state: &State, style: Style) {
        let Some(b) = grid.bounds() else {
            out.push_str("  (empty)\n");
            return;
        };
        let env = Env::new(self, state, &[]);
        let area = (b.bottom as i64 - b.top as i64 + 1) * (b.right as i64 - b.left as i64 + 1);
        if area > MAX_DRAWN_AREA {
            // Too spread out to draw: list the cells instead.
            for (p, e) in grid.cells() {
                let _ = writeln!(
                    out,
                    "  {p} {}",
                    self.value_text(&decode_element(board.of, *e), &state.names)
                );
            }
            return;
        }
        let mut texts = Vec::with_capacity(grid.len());
        for (_, e) in grid.cells() {
            let element = decode_element(board.of, *e);
            let it = env.with_it(&element);
            let text = match &board.cell_text {
                Some(t) => t.render(&it).unwrap_or_else(|_| "?".into()),
                None => self.value_text(&element, &state.names),
            };
            let colour = match (&board.cell_colour, style) {
                (Some(c), Style::Colour) => c.eval(&it).ok().and_then(|v| match v {
                    Value::Str(s) => ansi_background(&s),
                    _ => None,
                }),
                _ => None,
            };
            texts.push((text, colour));
        }
        let width = texts
            .iter()
            .map(|(t, _)| t.chars().count())
            .max()
            .unwrap_or(1)
            .max(b.left.to_string().len())
            .max(b.right.to_string().len());
        let margin = b.top.to_string().len().max(b.bottom.to_string().len());
        let _ = write!(out, "  {:>margin$} ", "");
        for col in b.left..=b.right {
            let _ = write!(out, " {col:^width$}");
        }
        out.push('\n');
        let mut cells = grid.cells().iter().zip(&texts).peekable();
        for row in b.top..=b.bottom {
            let _ = write!(out, "  {row:>margin$} ");
            for col in b.left..=b.right {
                out.push(' ');
                match cells.peek() {
                    Some(((p, _), (text, colour))) if p.row == row && p.col == col => {
                        match colour {
                            Some(code) => {
                                let _ = write!(out, "\x1b[{code}m{text:^width$}\x1b[0m");
                            }
                            None => {
                                let _ = write!(out, "{text:^width$}");
                            }
                        }
                        cells.next();
                    }
                    _ => {
                        let _ = write!(out, "{:^width$}", ".");
                    }
                }
            }
            out.push('\n');
        }
    }

    /// The ruleset in words: players, parameters, components, state, flow and actions.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        self.describe_header(&mut out);
        self.describe_params(&mut out);
        self.describe_tables(&mut out);
        self.describe_state(&mut out);
        self.describe_functions(&mut out);
        self.describe_checks(&mut out);
        self.describe_flow(&mut out);
        out
    }

    /// The title, rulebook, players, what a variant changes, and the summary.
    fn describe_header(&self, out: &mut String) {
        let m = &self.meta;
        let _ = writeln!(out, "{} ({})", m.title, m.name);
        if let Some(r) = &m.rulebook {
            let _ = writeln!(out, "rulebook: {r}");
        }
        let players = if m.min_players == m.max_players {
            format!("{}", m.min_players)
        } else {
            format!("{} to {}", m.min_players, m.max_players)
        };
        let _ = writeln!(out, "players: {players}");
        if let Some(v) = &m.variant {
            let _ = writeln!(out, "a variant of {}; it changes:", v.extends);
            for c in &v.changes {
                let _ = writeln!(out, "  {c}");
            }
        }
        if let Some(s) = &m.summary {
            let _ = writeln!(out, "\n{}", s.trim());
        }
    }

    /// The parameters, each with its value, range and doc.
    fn describe_params(&self, out: &mut String) {
        if !self.params.is_empty() {
            let _ = writeln!(out, "\nparameters (a variant may change them):");
            for p in &self.params {
                let doc = p
                    .doc
                    .as_ref()
                    .map(|d| format!(" — {d}"))
                    .unwrap_or_default();
                let range = p.range().map(|r| format!(" ({r})")).unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {} = {}{range}{doc}{}",
                    p.name,
                    p.value,
                    rule_mark(&p.rule)
                );
            }
        }
    }

    /// The tables (components); a table with a `show:` template row by row.
    fn describe_tables(&self, out: &mut String) {
        if !self.tables.is_empty() {
            let _ = writeln!(out, "\ncomponents:");
            for (table_id, t) in self.tables.iter().enumerate() {
                let cols: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
                let recon = if t.reconstructed.is_some() {
                    " (reconstructed data)"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "  {}: {} rows{}{recon}{}",
                    t.name,
                    t.rows.len(),
                    if cols.is_empty() {
                        String::new()
                    } else {
                        format!(" of {}", cols.join(", "))
                    },
                    rule_mark(&t.rule)
                );
                if let Some(d) = &t.doc {
                    let _ = writeln!(out, "    {}", d.trim());
                }
                if let Some(show) = &t.show {
                    // A table that says how its rows read is listed row by row: the cards
                    // a player will meet, as they will see them. A text that reads the
                    // state (a hex's token) differs between an empty state and a game's
                    // start: then only how it is written is listed.
                    let texts = |state: &State| -> Vec<String> {
                        let env = Env::new(self, state, &[]);
                        (0..t.rows.len())
                            .map(|r| {
                                let row = Value::Row(crate::ir::TableId::at(table_id), r as u16);
                                show.render(&env.with_it(&row))
                                    .unwrap_or_else(|e| format!("({e})"))
                            })
                            .collect()
                    };
                    let blank = texts(&self.blank_state(Vec::new()));
                    let names = (1..=self.meta.min_players.max(1))
                        .map(|i| format!("p{i}"))
                        .collect();
                    let started = self.start(names).map(|s| texts(&s));
                    if started.as_ref().is_ok_and(|s| *s == blank) {
                        for (r, text) in blank.iter().enumerate() {
                            let _ = writeln!(out, "    {}  {text}", t.rows[r].id);
                        }
                    } else {
                        let _ = writeln!(
                            out,
                            "    each row reads (as the game goes): {}",
                            show.source
                        );
                    }
                }
            }
        }
    }

    /// The state: variables, zones (what they hold, who sees it) and boards.
    fn describe_state(&self, out: &mut String) {
        let _ = writeln!(out, "\nstate:");
        // `stats:` counters are not the game's state: results record them.
        for v in self.vars.iter().filter(|v| !v.stat) {
            let per = if v.per == Domain::Global {
                String::new()
            } else {
                format!(" per {}", self.domain_name(v.per))
            };
            let doc = v
                .doc
                .as_ref()
                .map(|d| format!(" — {d}"))
                .unwrap_or_default();
            let _ = writeln!(out, "  {}{per}{doc}{}", v.name, rule_mark(&v.rule));
        }
        for z in &self.zones {
            let per = if z.per == Domain::Global {
                String::new()
            } else {
                format!(" per {}", self.domain_name(z.per))
            };
            let of = match z.of {
                crate::model::Element::Player => "player tokens".to_string(),
                crate::model::Element::Row(t) => self.tables[t.index()].name.clone(),
            };
            let vis = match z.visibility {
                Visibility::All => "seen by all",
                Visibility::Owner => "seen by its owner",
                Visibility::Count => "only its size is known",
                Visibility::Top => "its top is seen",
                Visibility::Hidden => "hidden",
            };
            let doc = z
                .doc
                .as_ref()
                .map(|d| format!(" — {d}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  zone {}{per}: {of}, {vis}{doc}{}",
                z.name,
                rule_mark(&z.rule)
            );
        }
        for b in &self.boards {
            let per = if b.per == Domain::Global {
                String::new()
            } else {
                format!(" per {}", self.domain_name(b.per))
            };
            let of = match b.of {
                crate::model::Element::Player => "player tokens".to_string(),
                crate::model::Element::Row(t) => self.tables[t.index()].name.clone(),
            };
            let shown = b
                .cell_text
                .as_ref()
                .map(|t| format!(", a cell reads \"{}\"", t.source))
                .unwrap_or_default();
            let doc = b
                .doc
                .as_ref()
                .map(|d| format!(" — {}", d.trim()))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  board {}{per}: a square grid of {of}{shown}{doc}{}",
                b.name,
                rule_mark(&b.rule)
            );
        }
    }

    /// The functions of the ruleset, each with its parameters and expression.
    fn describe_functions(&self, out: &mut String) {
        if !self.functions.is_empty() {
            let _ = writeln!(out, "\nfunctions:");
            for f in &self.functions {
                let params: Vec<String> = f.params.iter().map(|(n, _)| n.clone()).collect();
                let doc = f
                    .doc
                    .as_ref()
                    .map(|d| format!(" — {}", d.trim()))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {}({}) = {}{doc}{}",
                    f.name,
                    params.join(", "),
                    f.source,
                    rule_mark(&f.rule)
                );
            }
        }
    }

    /// The conserved totals and the statistics.
    fn describe_checks(&self, out: &mut String) {
        if !self.conserve.is_empty() {
            let _ = writeln!(
                out,
                "\nconserved (checked in positions, and after every step in debug builds):"
            );
            for c in &self.conserve {
                let per = match c.per {
                    Domain::Global => String::new(),
                    other => format!(" per {}", self.domain_name(other)),
                };
                let _ = writeln!(out, "  {}{per}: {}{}", c.name, c.source, rule_mark(&c.rule));
            }
        }
        if !self.stats.is_empty() {
            let _ = writeln!(
                out,
                "\nstatistics (read at the end of each game, for results: simulate, balance):"
            );
            for st in &self.stats {
                let kind = match (st.counter, &st.ty) {
                    (true, _) => "a counter",
                    (false, crate::value::Type::Bool) => "true/false",
                    (false, _) => "a number",
                };
                let doc = st
                    .doc
                    .as_ref()
                    .map(|d| format!(" — {}", d.trim()))
                    .unwrap_or_default();
                let _ = writeln!(out, "  {} ({kind}){doc}{}", st.name, rule_mark(&st.rule));
            }
        }
    }

    /// The flow: the procedures, the decisions and how the winner is found.
    fn describe_flow(&self, out: &mut String) {
        let _ = writeln!(out, "\nflow: setup, then play; procedures:");
        for p in &self.procedures {
            let params = if p.param_names.is_empty() {
                String::new()
            } else {
                format!("({})", p.param_names.join(", "))
            };
            let doc = p
                .doc
                .as_ref()
                .map(|d| format!(" — {}", d.trim()))
                .unwrap_or_default();
            let _ = writeln!(out, "  {}{params}{doc}{}", p.name, rule_mark(&p.rule));
        }
        let _ = writeln!(out, "\ndecisions:");
        for stmt in self.blocks.iter().flatten() {
            if let crate::model::StmtKind::Choose(c) = &stmt.kind {
                let labels: Vec<&str> = c.groups.iter().map(|g| g.label.source.as_str()).collect();
                let _ = writeln!(
                    out,
                    "  \"{}\": {}{}",
                    c.prompt.source,
                    labels.join(" | "),
                    rule_mark(&stmt.rule)
                );
            }
        }
        let tb = if self.ranking.tiebreak.is_empty() {
            ""
        } else {
            ", ties broken by the ranking's tie-breaks"
        };
        match &self.outcome {
            None => {
                let _ = writeln!(
                    out,
                    "\nwinner: highest score{tb}; still tied players share the victory{}",
                    rule_mark(&self.ranking.rule)
                );
            }
            Some(outcome) => {
                let scale = match outcome.scale {
                    1 => String::new(),
                    n => format!(", divided by {n}"),
                };
                let _ = writeln!(
                    out,
                    "\nranking: highest score{tb}{}\noutcome: each player's return is {}{scale}; the highest return wins, all equal is a draw{}",
                    rule_mark(&self.ranking.rule),
                    outcome.returns_source,
                    rule_mark(&outcome.rule)
                );
            }
        }
    }
}

/// A rule reference as the description writes it after what it is about: ` [§3.2]`.
fn rule_mark(r: &Option<std::sync::Arc<str>>) -> String {
    r.as_ref().map(|r| format!(" [§{r}]")).unwrap_or_default()
}

/// The rows in a value (an option's element, or the elements of a product), in order.
fn rows_in(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Row(..) => out.push(value.clone()),
        Value::List(items) => items.iter().for_each(|v| rows_in(v, out)),
        _ => {}
    }
}

/// Rows whose `show:` text (with the id) is at most this long are packed several a line
/// in a player's view.
const SHORT_ROW: usize = 32;

/// Items on lines of at most 100 characters, indented by two, separated by ` | `.
fn pack(out: &mut String, items: &[String]) {
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && line.chars().count() + 3 + item.chars().count() > 98 {
            let _ = writeln!(out, "  {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push_str(" | ");
        }
        line.push_str(item);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "  {line}");
    }
}

/// The largest rectangle of cells drawn as a grid; a board spread wider is listed.
const MAX_DRAWN_AREA: i64 = 10_000;
