//! Results as data. docs/results.md describes the fields.

use frontier_interpreter::Outcome;

/// Why a game ended, as results record it: the `end_game` statement that ended it (by its
/// place in the ruleset), or the end of the play flow.
pub fn end_reason(o: &Outcome) -> String {
    match &o.ended_by {
        Some(at) => format!("end_game at {at}"),
        None => "the play flow ended".to_string(),
    }
}
