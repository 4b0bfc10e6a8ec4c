//! Text a player reads: the state (as one player may see it), and the ruleset described
//! in words.

use std::fmt::Write;

use crate::machine::{decode, decode_element, State};
use crate::model::{Domain, Game, Visibility};
use crate::value::Value;

impl Game {
    fn index_label(&self, domain: Domain, i: usize, state: &State) -> String {
        match domain {
            Domain::Global => String::new(),
            Domain::Players => state.names.get(i).cloned().unwrap_or_default(),
            Domain::Table(t) => self.tables[t as usize].rows[i].id.clone(),
        }
    }

    fn indexes(&self, domain: Domain, state: &State) -> usize {
        match domain {
            Domain::Players => state.names.len(),
            other => self.domain_len(other),
        }
    }

    /// The ruleset's `display:` lines rendered for this state, one per line (empty when
    /// the ruleset has none). A line that fails to render shows its error instead.
    pub fn render_display(&self, state: &State) -> String {
        let mut out = String::new();
        let env = crate::eval::Env::new(self, state, &[]);
        for line in &self.display {
            match line.render(&env) {
                Ok(text) => out.push_str(&text),
                Err(e) => {
                    let _ = write!(out, "(display error: {e})");
                }
            }
            out.push('\n');
        }
        out
    }

    /// The state as `viewer` may see it (`None`: everything), one line per variable or zone.
    pub fn render_state(&self, state: &State, viewer: Option<u8>) -> String {
        let mut out = String::new();
        for var in &self.vars {
            let _ = write!(out, "{}:", var.name);
            for i in 0..self.indexes(var.per, state) {
                let v = decode(&var.ty, state.ints[var.base + i]);
                let label = self.index_label(var.per, i, state);
                let text = self.value_text(&v, &state.names);
                if label.is_empty() {
                    let _ = write!(out, " {text}");
                } else {
                    let _ = write!(out, " {label}={text}");
                }
            }
            out.push('\n');
        }
        for zone in &self.zones {
            for i in 0..self.indexes(zone.per, state) {
                let contents = &state.zones[zone.base + i];
                let label = self.index_label(zone.per, i, state);
                let name = if label.is_empty() { zone.name.clone() } else { format!("{}[{label}]", zone.name) };
                let owner_sees = zone.per == Domain::Players && viewer == Some(i as u8);
                let shown = match zone.visibility {
                    _ if viewer.is_none() => Visibility::All,
                    Visibility::Owner if owner_sees => Visibility::All,
                    Visibility::Owner => Visibility::Count,
                    other => other,
                };
                let items = |n: usize| -> String {
                    let values: Vec<Value> = contents.iter().take(n).map(|e| decode_element(zone.of, *e)).collect();
                    self.value_text(&Value::list(values), &state.names)
                };
                let text = match shown {
                    Visibility::All if contents.is_empty() => "(empty)".to_string(),
                    Visibility::All => items(contents.len()),
                    Visibility::Count | Visibility::Owner => format!("{} hidden", contents.len()),
                    Visibility::Top if contents.is_empty() => "(empty)".to_string(),
                    Visibility::Top => format!("{} on top of {}", items(1), contents.len()),
                    Visibility::Hidden => "hidden".to_string(),
                };
                let _ = writeln!(out, "{name}: {text}");
            }
        }
        out
    }

    /// The ruleset in words: players, parameters, components, state, flow and actions.
    pub fn describe(&self) -> String {
        let mut out = String::new();
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
        if let Some(s) = &m.summary {
            let _ = writeln!(out, "\n{}", s.trim());
        }
        let rule = |r: &Option<std::sync::Arc<str>>| r.as_ref().map(|r| format!(" [§{r}]")).unwrap_or_default();
        if !self.params.is_empty() {
            let _ = writeln!(out, "\nparameters (a variant may change them):");
            for p in &self.params {
                let doc = p.doc.as_ref().map(|d| format!(" — {d}")).unwrap_or_default();
                let _ = writeln!(out, "  {} = {}{doc}{}", p.name, p.value, rule(&p.rule));
            }
        }
        if !self.tables.is_empty() {
            let _ = writeln!(out, "\ncomponents:");
            for t in &self.tables {
                let cols: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
                let recon = if t.reconstructed.is_some() { " (reconstructed data)" } else { "" };
                let _ = writeln!(out, "  {}: {} rows{}{recon}{}", t.name, t.rows.len(), if cols.is_empty() { String::new() } else { format!(" of {}", cols.join(", ")) }, rule(&t.rule));
                if let Some(d) = &t.doc {
                    let _ = writeln!(out, "    {}", d.trim());
                }
            }
        }
        let _ = writeln!(out, "\nstate:");
        for v in &self.vars {
            let per = if v.per == Domain::Global { String::new() } else { format!(" per {}", self.domain_name(v.per)) };
            let doc = v.doc.as_ref().map(|d| format!(" — {d}")).unwrap_or_default();
            let _ = writeln!(out, "  {}{per}{doc}{}", v.name, rule(&v.rule));
        }
        for z in &self.zones {
            let per = if z.per == Domain::Global { String::new() } else { format!(" per {}", self.domain_name(z.per)) };
            let of = match z.of {
                crate::model::Element::Player => "player tokens".to_string(),
                crate::model::Element::Row(t) => self.tables[t as usize].name.clone(),
            };
            let vis = match z.visibility {
                Visibility::All => "seen by all",
                Visibility::Owner => "seen by its owner",
                Visibility::Count => "only its size is known",
                Visibility::Top => "its top is seen",
                Visibility::Hidden => "hidden",
            };
            let doc = z.doc.as_ref().map(|d| format!(" — {d}")).unwrap_or_default();
            let _ = writeln!(out, "  zone {}{per}: {of}, {vis}{doc}{}", z.name, rule(&z.rule));
        }
        let _ = writeln!(out, "\nflow: setup, then play; procedures:");
        for p in &self.procedures {
            let params = if p.param_names.is_empty() { String::new() } else { format!("({})", p.param_names.join(", ")) };
            let doc = p.doc.as_ref().map(|d| format!(" — {}", d.trim())).unwrap_or_default();
            let _ = writeln!(out, "  {}{params}{doc}{}", p.name, rule(&p.rule));
        }
        let _ = writeln!(out, "\ndecisions:");
        for stmt in self.blocks.iter().flatten() {
            if let crate::model::StmtKind::Choose(c) = &stmt.kind {
                let labels: Vec<&str> = c.groups.iter().map(|g| g.label.source.as_str()).collect();
                let _ = writeln!(out, "  \"{}\": {}{}", c.prompt.source, labels.join(" | "), rule(&stmt.rule));
            }
        }
        let tb = if self.ranking.tiebreak.is_empty() { "" } else { ", ties broken by the ranking's tie-breaks" };
        let _ = writeln!(out, "\nwinner: highest score{tb}; still tied players share the victory{}", rule(&self.ranking.rule));
        out
    }
}
