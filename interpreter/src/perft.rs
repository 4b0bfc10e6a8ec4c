//! Counting the paths of a game tree ("perft", as chess programs check their move
//! generators against published counts): how many sequences of `depth` steps lead on
//! from a state, each step a decision's option or a chance point's outcome.

use crate::machine::{Chance, Choice, Journal, State, Status, Stepper};

/// The number of step sequences of exactly `depth` steps from `state`: a decision
/// branches into its options, a chance point into its outcomes (each counted once,
/// whatever its weight), and a game over before `depth` steps ends no sequence. A
/// shuffle, whose outcomes are the orders of a zone, is refused.
pub fn perft(stepper: Stepper, state: &State, depth: u32) -> Result<u64, String> {
    if depth == 0 {
        return Ok(1);
    }
    let branches = branches(stepper, state)?;
    // The last level is counted without being played.
    if depth == 1 {
        return Ok(branches.len() as u64);
    }
    let mut total = 0u64;
    for choice in branches {
        let next = after(stepper, state, choice)?;
        total += perft(stepper, &next, depth - 1)?;
    }
    Ok(total)
}

/// [`perft`] split by the first step: each first step's label and the sequences of
/// `depth` steps that start with it (`depth` at least 1).
pub fn divide(stepper: Stepper, state: &State, depth: u32) -> Result<Vec<(String, u64)>, String> {
    let labels = step_labels(stepper, state)?;
    let mut counts = Vec::new();
    for (choice, label) in branches(stepper, state)?.into_iter().zip(labels) {
        let next = after(stepper, state, choice)?;
        counts.push((label, perft(stepper, &next, depth.saturating_sub(1))?));
    }
    Ok(counts)
}

/// The steps that can be taken from `state`: none when the game is over.
fn branches(stepper: Stepper, state: &State) -> Result<Vec<Choice>, String> {
    Ok(match stepper.game().status(state) {
        Status::Decision { options, .. } => (0..options).map(Choice::Option).collect(),
        Status::Chance(Chance::Pick { outcomes, .. }) => {
            (0..outcomes.len()).map(Choice::Outcome).collect()
        }
        Status::Chance(Chance::Shuffle { zone, len }) => {
            return Err(format!(
                "a shuffle of {} ({len} elements) has an outcome per order: perft does not count through shuffles",
                stepper.game().zone_instance_name(zone)
            ))
        }
        Status::Over(_) => Vec::new(),
    })
}

/// The labels of the steps [`branches`] lists, in the same order.
fn step_labels(stepper: Stepper, state: &State) -> Result<Vec<String>, String> {
    let game = stepper.game();
    Ok(match game.status(state) {
        Status::Decision { .. } => game.option_labels(state).map_err(|e| e.to_string())?,
        Status::Chance(Chance::Pick { outcomes, .. }) => outcomes
            .iter()
            .map(|v| game.value_text(v, state.names()))
            .collect(),
        _ => Vec::new(),
    })
}

fn after(stepper: Stepper, state: &State, choice: Choice) -> Result<State, String> {
    let mut next = state.clone();
    stepper
        .apply(&mut next, choice, &mut Journal::off())
        .map_err(|e| e.to_string())?;
    Ok(next)
}
