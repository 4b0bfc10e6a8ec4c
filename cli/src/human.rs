//! The terminal agent: shows the board (the ruleset's display lines, or the state as this
//! player may see it) when it changed, lists numbered options, reads a number or a label;
//! `?` shows the whole state as this player may see it; bad input asks again. It sees a
//! view: what the deciding player may know.

use std::io::{BufRead, Write};

use frontier_interpreter::agent::{Agent, View};

/// One person at the terminal, deciding for one seat.
#[derive(Default)]
pub struct HumanAgent {
    /// The board display last shown, so that an unchanged board is not printed again.
    last_board: String,
}

impl Agent for HumanAgent {
    fn decide(&mut self, view: &View) -> Result<usize, String> {
        let labels = view.labels().map_err(|e| e.to_string())?;
        let prompt = view.prompt().map_err(|e| e.to_string())?;
        let name = view.name();
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        let style = crate::output_style();
        // The ruleset's display lines when it has some, else the whole state as this player
        // sees it; shown again only when it changed since this player's last decision.
        let board = match view.display_styled(style) {
            lines if lines.is_empty() => view.render(style),
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
                    let _ = write!(out, "{}{}", view.display_styled(style), view.render(style));
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
