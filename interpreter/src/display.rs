//! The ruleset's `display:` lines as one viewer may read them: computed on states dealt
//! again where the viewer sees nothing, so that no line can show what they may not see,
//! and each seat's own hidden zones when the lines do not show them.

use crate::colour::{apply_colours, Style};
use crate::eval::decode_element;
use crate::knowledge::Viewer;
use crate::machine::State;
use crate::model::{Domain, Game, Visibility};
use crate::value::Value;

impl Game {
    /// The ruleset's `display:` lines rendered for this state as `viewer` may see it, one
    /// per line (empty when the ruleset has none). A line that fails to render shows its
    /// error instead; a line whose text is empty is left out (a ruleset may write one line
    /// per seat up to its most players). `viewer` in the lines is the viewer's seat (none
    /// for everyone or a whole table).
    ///
    /// For a seat or a table the lines never read what the viewer may not see: they are
    /// drawn from a state dealt again where the viewer sees nothing
    /// ([`Game::deal_unseen`]), so their text is the same whatever the hidden contents,
    /// and an element the viewer may not know is written `?`. A line whose text depends on
    /// how the unseen elements lie (a sum over an opponent's hand) is drawn from two such
    /// deals; if they differ, the line says so instead of showing a number that means
    /// nothing.
    pub fn render_display(&self, state: &State, viewer: Viewer) -> String {
        self.render_display_styled(state, viewer, Style::Plain)
    }

    /// The display lines with the colours of `colour()` as ANSI escapes (`Style::Colour`)
    /// or taken out (`Style::Plain`).
    pub fn render_display_styled(&self, state: &State, viewer: Viewer, style: Style) -> String {
        let mut out = String::new();
        let mut write = |lines: &[String]| {
            // An empty line is left out (one line per seat up to the most players).
            for text in lines.iter().filter(|text| !text.is_empty()) {
                out.push_str(&apply_colours(text, style));
                out.push('\n');
            }
        };
        let error = |i: usize, e: crate::eval::RuntimeError| {
            vec![format!(
                "(display error: {})",
                e.at(&self.location(&format!("display[{i}]")))
            )]
        };
        if viewer == Viewer::Everyone {
            for i in 0..self.display.len() {
                let lines = self.display_entry(i, state, viewer, &|_| None);
                write(&lines.unwrap_or_else(|e| error(i, e)));
            }
            return out;
        }
        let (one, other) = match self.two_deals(state, viewer) {
            Ok(deals) => deals,
            Err(e) => {
                write(&error(0, e));
                return out;
            }
        };
        let mask = |v: &Value| (!self.may_know(state, viewer, v)).then_some("?");
        for i in 0..self.display.len() {
            let lines = match (
                self.display_entry(i, &one, viewer, &mask),
                self.display_entry(i, &other, viewer, &mask),
            ) {
                (Ok(a), Ok(b)) if a == b => a,
                (Ok(_), Ok(_)) => vec![format!(
                    "(display[{i}] depends on what {} cannot see: {})",
                    match viewer {
                        Viewer::Seat(p) => state
                            .names
                            .get(p as usize)
                            .cloned()
                            .unwrap_or_else(|| format!("p{}", p + 1)),
                        _ => "everyone at the table".to_string(),
                    },
                    self.display[i].line.source
                )],
                (Err(e), _) | (_, Err(e)) => error(i, e),
            };
            write(&lines);
        }
        if let Viewer::Seat(p) = viewer {
            write(&self.own_hidden_lines(state, p));
        }
        out
    }

    /// A seat's own hidden things, for a display that does not show them itself (no line
    /// reads `viewer`): one line per zone each player holds and only its owner sees
    /// (`your hand: kilo lima`).
    fn own_hidden_lines(&self, state: &State, seat: u8) -> Vec<String> {
        let reads_viewer = |t: &crate::ir::Template| {
            t.source
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|word| word == "viewer")
        };
        if self.display.iter().any(|entry| reads_viewer(&entry.line)) {
            return Vec::new();
        }
        self.zones
            .iter()
            .filter(|z| z.per == Domain::Players && z.visibility == Visibility::Owner)
            .filter_map(|z| {
                let contents = state.zones.get(z.base + seat as usize)?;
                let values = contents.iter().map(|e| decode_element(z.of, *e)).collect();
                let text = match self.value_text(&Value::list(values), &state.names) {
                    t if t.is_empty() => "none".to_string(),
                    t => t,
                };
                Some(format!("your {}: {text}", z.name))
            })
            .collect()
    }

    /// The lines of display entry `i`: a plain line once, a `for:` entry once per element
    /// (its local 1; `viewer` is local 0).
    fn display_entry(
        &self,
        i: usize,
        state: &State,
        viewer: Viewer,
        mask: crate::eval::Mask,
    ) -> crate::eval::Result<Vec<String>> {
        let entry = &self.display[i];
        let viewer = viewer.seat().map_or(Value::None, Value::Player);
        let env = crate::eval::Env::new(self, state, std::slice::from_ref(&viewer));
        let Some(list) = &entry.each else {
            return Ok(vec![entry.line.render_masked(&env, mask)?]);
        };
        let items = match list.eval(&env)? {
            Value::List(items) => items.to_vec(),
            other => vec![other],
        };
        items
            .into_iter()
            .map(|v| {
                let locals = [viewer.clone(), v];
                entry
                    .line
                    .render_masked(&crate::eval::Env::new(self, state, &locals), mask)
            })
            .collect()
    }
}
