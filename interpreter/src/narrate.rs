//! The log of a game as one reader reads it: each step's lines with what the reader may
//! not know hidden ([`Game::hide_unseen`]), another player's decision told with the
//! `show:` text of what it names, and every change of a player's score told as it happens
//! ([`Game::apply_narrated`]). `frontier play` and `frontier serve` show their tables' logs
//! through it.

use crate::eval::Env;
use crate::knowledge::Viewer;
use crate::machine::{ApplyError, Journal, Secret, Stepper};
use crate::model::Game;
use crate::state::{Choice, Pending, State};
use crate::value::Value;

impl Game {
    /// Applies `choice` with `stepper`, appending the step's log lines to `log` as `viewer`
    /// may read them: the lines the rules write ([`Game::hide_unseen`]); after another
    /// player's decision, the `show:` text of each row it names that the reader may know
    /// (`p2: play card:gw-18 — gw-18: …`); and a line for each player whose score changed,
    /// when the reader may know both scores.
    pub fn apply_narrated(
        &self,
        stepper: Stepper,
        state: &mut State,
        choice: Choice,
        viewer: Viewer,
        log: &mut Vec<String>,
    ) -> Result<(), ApplyError> {
        self.apply_narrated_to(stepper, state, choice, &mut [(viewer, log)])
    }

    /// [`Game::apply_narrated`] for several readers at once, each with their log: the step
    /// is applied once, then told to each as they may read it (a table with a spectator
    /// and one log per person).
    pub fn apply_narrated_to(
        &self,
        stepper: Stepper,
        state: &mut State,
        choice: Choice,
        readers: &mut [(Viewer, &mut Vec<String>)],
    ) -> Result<(), ApplyError> {
        let before: Vec<Vec<Option<i64>>> = readers
            .iter()
            .map(|(viewer, _)| self.scores_seen(state, *viewer))
            .collect();
        // The rows the decision names (with who had seen each), when it is a decision.
        let decision = match (&state.pending, &choice) {
            (Pending::Decision { player, .. }, Choice::Option(i))
                if readers.iter().any(|(v, _)| *v != Viewer::Seat(*player)) =>
            {
                let shown = self.option_rows_shown(state, *i);
                let seen: Vec<u64> = shown
                    .iter()
                    .map(|(row, _)| self.seen_by(state, row))
                    .collect();
                Some((*player, shown, seen))
            }
            _ => None,
        };
        let mut secrets = Vec::new();
        let mut written = Vec::new();
        stepper.apply(
            state,
            choice,
            &mut Journal::on_noting(&mut written, &mut secrets),
        )?;
        let seats = state.names.len();
        for ((viewer, log), before) in readers.iter_mut().zip(before) {
            let viewer = *viewer;
            let mut lines = written.clone();
            self.hide_unseen(state, viewer, &mut lines, &secrets);
            // The decision's line is the step's first: told, to the others, with what it
            // names.
            if let (Some((player, shown, seen)), Some(line)) = (&decision, lines.first_mut()) {
                if viewer != Viewer::Seat(*player) {
                    let told: Vec<String> = shown
                        .iter()
                        .zip(seen)
                        .filter(|((row, _), bits)| {
                            viewer.within(**bits, seats) || self.may_know(state, viewer, row)
                        })
                        .map(|((row, text), _)| {
                            format!("{}: {text}", self.value_text(row, &state.names))
                        })
                        .collect();
                    if !told.is_empty() {
                        line.push_str(&format!(" — {}", told.join("; ")));
                    }
                }
            }
            log.extend(lines);
            let after = self.scores_seen(state, viewer);
            for (p, (b, a)) in before.iter().zip(&after).enumerate() {
                if let (Some(b), Some(a)) = (b, a) {
                    if a != b {
                        let name = &state.names[p];
                        log.push(format!("{name}'s score: {b} → {a} ({:+})", a - b));
                    }
                }
            }
        }
        Ok(())
    }

    /// Each player's score (`ranking.score`) as `viewer` may know it: none for a player
    /// whose score reads what the viewer cannot see (it differs in a state dealt again
    /// where they see nothing), or that cannot be computed in this state.
    pub fn scores_seen(&self, state: &State, viewer: Viewer) -> Vec<Option<i64>> {
        let real = self.scores(state);
        if viewer == Viewer::Everyone {
            return real;
        }
        let (one, other) = match self.two_deals(state, viewer) {
            Ok((one, other)) => (self.scores(&one), self.scores(&other)),
            Err(_) => return vec![None; real.len()],
        };
        real.iter()
            .zip(one.iter().zip(&other))
            .map(|(r, (a, b))| (r == a && r == b).then_some(*r).flatten())
            .collect()
    }

    fn scores(&self, state: &State) -> Vec<Option<i64>> {
        let env = Env::new(self, state, &[]);
        (0..state.names.len() as u8)
            .map(|p| self.ranking.score.int(&env.with_it(&Value::Player(p))).ok())
            .collect()
    }

    /// The log lines of a step as `viewer` may read them, `state` being the state after
    /// it: a chance outcome they cannot see where it went becomes "drawn face down"; a
    /// row named by a line is written `?` unless they saw it where it lay when the line
    /// was written or see it now.
    pub fn hide_unseen(
        &self,
        state: &State,
        viewer: Viewer,
        lines: &mut [String],
        secrets: &[crate::machine::Secret],
    ) {
        if viewer == Viewer::Everyone {
            return;
        }
        for secret in secrets {
            let (at, text) = match secret {
                Secret::Outcome { line, outcome } => {
                    if self.may_know(state, viewer, outcome) {
                        continue;
                    }
                    (*line, "chance: drawn face down".to_string())
                }
                Secret::Named { line, pieces, .. } => {
                    let seats = state.names.len();
                    let known = |v: &Value| {
                        secret.seen_when_written(v, viewer, seats)
                            || self.may_know(state, viewer, v)
                    };
                    let mask = |v: &Value| (!known(v)).then_some("?");
                    (*line, self.pieces_text(pieces, &state.names, &mask))
                }
            };
            if let Some(line) = lines.get_mut(at) {
                *line = text;
            }
        }
    }
}
