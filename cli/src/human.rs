//! The terminal agent: shows the board (the ruleset's display lines, or the state as this
//! player may see it) when it changed, lists numbered options, reads a number or a label;
//! `?` shows the whole state; bad input asks again.

use std::io::{BufRead, Write};

use frontier_interpreter::agent::Agent;
use frontier_interpreter::{Game, State};

pub struct HumanAgent {
    pub seat: u8,
    /// The board display last shown, so that an unchanged board is not printed again.
    pub last_board: String,
}

impl HumanAgent {
    pub fn new(seat: u8) -> HumanAgent {
        HumanAgent { seat, last_board: String::new() }
    }
}

impl Agent for HumanAgent {
    fn decide(&mut self, game: &Game, state: &State) -> Result<usize, String> {
        let labels = game.option_labels(state).map_err(|e| e.to_string())?;
        let prompt = game.prompt(state).map_err(|e| e.to_string())?;
        let name = &state.names[self.seat as usize];
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        let style = crate::output_style();
        // The ruleset's display lines when it has some, else the whole state as this player
        // sees it; shown again only when it changed since this player's last decision.
        let board = match game.render_display(state) {
            lines if lines.is_empty() => game.render_state_styled(state, Some(self.seat), style),
            lines => lines,
        };
        if !board.is_empty() && board != self.last_board {
            let _ = write!(out, "\n{board}");
            self.last_board = board;
        }
        loop {
            let _ = writeln!(out, "\n{name}, {prompt}");
            for (i, l) in labels.iter().enumerate() {
                let _ = writeln!(out, "  {:>2}. {l}", i + 1);
            }
            let _ = write!(out, "choice (number or label, ? for the state, q to quit): ");
            let _ = out.flush();
            let mut line = String::new();
            if stdin.lock().read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                return Err("input ended: game abandoned".into());
            }
            let answer = line.trim();
            match answer {
                "?" => {
                    let _ = write!(out, "{}{}", game.render_display(state), game.render_state_styled(state, Some(self.seat), style));
                }
                "q" | "quit" => return Err("game abandoned".into()),
                _ => {
                    if let Ok(n) = answer.parse::<usize>() {
                        if (1..=labels.len()).contains(&n) {
                            return Ok(n - 1);
                        }
                    }
                    if let Some(i) = labels.iter().position(|l| l == answer) {
                        return Ok(i);
                    }
                    let _ = writeln!(out, "'{answer}' is not one of the options: type its number (1-{}) or its label", labels.len());
                }
            }
        }
    }
}
