//! Replaying a trace: each line applied or checked in turn against the game it names
//! (decisions by label, chance by outcome, assertions, the options and outcome it
//! expects), chance points it does not record resolved by its seed.

use std::collections::BTreeSet;
use std::sync::Arc;

use frontier_grammar::trace::{LineKind, Listed, Ratio, Trace};

use super::query::{check_assertion, Names};
use super::{Divergence, ReplayStep, Replayed};
use crate::hints::closest_first;
use crate::load::Decls;
use crate::machine::{Chance, Choice, Journal, Outcome, State, Status, Stepper};
use crate::model::Game;
use crate::rng::GameRng;
use crate::runner::sample_chance;

/// Replays `trace` from `start` (a fresh game, or a position read by the caller).
/// `on_step` sees every applied step.
pub fn replay(
    game: &Game,
    trace: &Trace,
    state: State,
    on_step: impl FnMut(ReplayStep),
) -> Result<Replayed, Divergence> {
    replay_with(Stepper::walker(game), trace, state, on_step, None)
}

/// [`replay`] with `stepper`: its compiled code, if any, runs the steps. The replay is
/// the same.
pub fn replay_stepped(
    stepper: Stepper,
    trace: &Trace,
    state: State,
    on_step: impl FnMut(ReplayStep),
) -> Result<Replayed, Divergence> {
    replay_with(stepper, trace, state, on_step, None)
}

/// Replays `trace` like `replay` (with `stepper`), collecting into `rules` the `rule:`
/// references of what the game runs (statements, options, procedures: see
/// `Game::runnable_rules`). The steps `on_step` sees then carry no log.
pub fn replay_covering(
    stepper: Stepper,
    trace: &Trace,
    state: State,
    rules: &mut BTreeSet<Arc<str>>,
) -> Result<Replayed, Divergence> {
    replay_with(stepper, trace, state, |_| {}, Some(rules))
}

/// Where a replay's `apply` writes: the step's log, or the rules it runs through.
fn journal<'a>(
    rules: &'a mut Option<&mut BTreeSet<Arc<str>>>,
    log: &'a mut Vec<String>,
) -> Journal<'a> {
    match rules {
        Some(rules) => Journal::rules(rules),
        None => Journal::on(log),
    }
}

/// Replays `trace` line by line from `state`; with `rules`, the journal collects the
/// `rule:` references the game runs instead of each step's log.
fn replay_with(
    stepper: Stepper,
    trace: &Trace,
    mut state: State,
    mut on_step: impl FnMut(ReplayStep),
    mut rules: Option<&mut BTreeSet<Arc<str>>>,
) -> Result<Replayed, Divergence> {
    let game = stepper.game();
    let mut rng = trace.header.seed.map(GameRng::new);
    let decls = Decls::from_game(game);
    let mut names = Names::of_players(&state);
    let mut step = 0usize;
    let mut assertions = 0usize;
    let mut log = Vec::new();
    for line in &trace.body {
        let fail = |step: usize, message: String, legal: Vec<String>| Divergence {
            line: line.line,
            column: line.column,
            step,
            message,
            legal,
            rule: line.rule.clone(),
        };
        // Chance points the trace does not record are resolved by the seed, before a line
        // that needs the game at a decision or over. Assertions and captured values read
        // the state where the step above them stopped: at a chance point, before the seed
        // draws it.
        let needs_chance_drawn = !matches!(
            line.kind,
            LineKind::Chance { .. }
                | LineKind::ExpectChance { .. }
                | LineKind::RejectChance { .. }
                | LineKind::ChanceBySeed { .. }
                | LineKind::Assert { .. }
                | LineKind::Let { .. }
        );
        if needs_chance_drawn {
            resolve_unrecorded_chance(stepper, &mut state, &mut rng, &mut rules)
                .map_err(|m| fail(step, m, Vec::new()))?;
        }
        match &line.kind {
            LineKind::Decision { player, label } => {
                step += 1;
                let i =
                    option_index(game, &state, player, label).map_err(|(m, l)| fail(step, m, l))?;
                log.clear();
                stepper
                    .apply(
                        &mut state,
                        Choice::Option(i),
                        &mut journal(&mut rules, &mut log),
                    )
                    .map_err(|e| fail(step, e.to_string(), Vec::new()))?;
                on_step(ReplayStep {
                    number: step,
                    line,
                    log: &log,
                    state: &state,
                });
            }
            LineKind::Chance { label } => {
                step += 1;
                let choice = chance_of_line(game, &state, label, rng.as_mut())
                    .map_err(|(m, l)| fail(step, m, l))?;
                log.clear();
                stepper
                    .apply(&mut state, choice, &mut journal(&mut rules, &mut log))
                    .map_err(|e| fail(step, e.to_string(), Vec::new()))?;
                on_step(ReplayStep {
                    number: step,
                    line,
                    log: &log,
                    state: &state,
                });
            }
            LineKind::Assert { source, .. } => {
                assertions += 1;
                check_assertion(game, &decls, &state, &names, source).map_err(|w| Divergence {
                    column: w.column(line),
                    ..fail(step, w.message, Vec::new())
                })?;
            }
            LineKind::Let { name, source, .. } => {
                names
                    .capture(game, &decls, &state, name, source)
                    .map_err(|w| Divergence {
                        column: w.column(line),
                        ..fail(step, w.message, Vec::new())
                    })?;
            }
            LineKind::ExpectOver { scores } => {
                let outcome = outcome_of(game, &state).map_err(|m| fail(step, m, Vec::new()))?;
                check_scores(outcome, &state, scores).map_err(|m| fail(step, m, Vec::new()))?;
            }
            LineKind::Reject { player, label } => {
                check_rejected(game, &state, player, label).map_err(|(m, l)| fail(step, m, l))?;
            }
            LineKind::ExpectOptions {
                player,
                labels: expected,
                listed,
            } => {
                check_options(game, &state, player, expected, *listed)
                    .map_err(|(m, l)| fail(step, m, l))?;
            }
            LineKind::RejectChance { label } => {
                check_impossible(game, &state, label).map_err(|(m, l)| fail(step, m, l))?;
            }
            LineKind::ChanceBySeed { count } => {
                // Drawn like the chance points the seed resolves unasked: not numbered steps.
                draw_by_seed(stepper, &mut state, &mut rng, *count, &mut rules)
                    .map_err(|m| fail(step, m, Vec::new()))?;
            }
            LineKind::ExpectChance { outcomes } => {
                check_chance(game, &state, outcomes).map_err(|(m, l)| fail(step, m, l))?;
            }
            LineKind::ExpectReturns { returns } => {
                let outcome = outcome_of(game, &state).map_err(|m| fail(step, m, Vec::new()))?;
                check_returns(outcome, &state, returns).map_err(|m| fail(step, m, Vec::new()))?;
            }
            LineKind::ExpectDraw => {
                let outcome = outcome_of(game, &state).map_err(|m| fail(step, m, Vec::new()))?;
                check_draw(outcome, &state).map_err(|m| fail(step, m, Vec::new()))?;
            }
            LineKind::ExpectWinner { players } => {
                let outcome = outcome_of(game, &state).map_err(|m| fail(step, m, Vec::new()))?;
                check_winners(outcome, &state, players).map_err(|m| fail(step, m, Vec::new()))?;
            }
            LineKind::ExpectRanking { ranks } => {
                let outcome = outcome_of(game, &state).map_err(|m| fail(step, m, Vec::new()))?;
                check_ranks(outcome, &state, ranks).map_err(|m| fail(step, m, Vec::new()))?;
            }
        }
    }
    Ok(Replayed {
        steps: step,
        assertions,
        final_state: state,
    })
}

/// A `chance by seed` line: `count` chance points (or every one up to the next decision or
/// the end) drawn from the trace's seed. The game must be at a chance point, and with a
/// count reach that many.
fn draw_by_seed(
    stepper: Stepper,
    state: &mut State,
    rng: &mut Option<GameRng>,
    count: Option<u32>,
    rules: &mut Option<&mut BTreeSet<Arc<str>>>,
) -> Result<(), String> {
    let game = stepper.game();
    let Some(rng) = rng.as_mut() else {
        return Err("'chance by seed' needs a seed: the trace has none".into());
    };
    let wanted = count.map_or(usize::MAX, |n| n as usize);
    let mut drawn = 0;
    while drawn < wanted {
        let Status::Chance(chance) = game.status(state) else {
            if drawn > 0 && count.is_none() {
                break;
            }
            return Err(format!(
                "the trace draws chance by the seed, but after {drawn} chance point{} {}",
                if drawn == 1 { "" } else { "s" },
                waiting_for(game, state)
            ));
        };
        let choice = sample_chance(state, chance, rng);
        apply_drawn(stepper, state, choice, rules)?;
        drawn += 1;
    }
    Ok(())
}

/// An outcome the seed drew, applied (its rule references collected under
/// `check --coverage`).
fn apply_drawn(
    stepper: Stepper,
    state: &mut State,
    choice: Choice,
    rules: &mut Option<&mut BTreeSet<Arc<str>>>,
) -> Result<(), String> {
    let mut journal = match rules.as_deref_mut() {
        Some(rules) => Journal::rules(rules),
        None => Journal::off(),
    };
    stepper
        .apply(state, choice, &mut journal)
        .map_err(|e| e.to_string())
}

/// Applies the chance points before a line that does not record one, each drawn from the
/// trace's seed (an error if it has none).
fn resolve_unrecorded_chance(
    stepper: Stepper,
    state: &mut State,
    rng: &mut Option<GameRng>,
    rules: &mut Option<&mut BTreeSet<Arc<str>>>,
) -> Result<(), String> {
    let game = stepper.game();
    while let Status::Chance(chance) = game.status(state) {
        let Some(rng) = rng.as_mut() else {
            let what = chance_name(game, state);
            return Err(format!(
                "{what} needs an outcome: write a 'chance:' line, or give the trace a seed"
            ));
        };
        let choice = sample_chance(state, chance, rng);
        apply_drawn(stepper, state, choice, rules)?;
    }
    Ok(())
}

/// The option a decision line names: the game must wait for that player's decision, and
/// the label be one of its options.
fn option_index(
    game: &Game,
    state: &State,
    player: &str,
    label: &str,
) -> Result<usize, (String, Vec<String>)> {
    let Status::Decision { player: seat, .. } = game.status(state) else {
        return Err((
            format!(
                "the trace has {player} decide '{label}', but {}",
                waiting_for(game, state)
            ),
            Vec::new(),
        ));
    };
    let labels = game
        .option_labels(state)
        .map_err(|e| (e.to_string(), Vec::new()))?;
    let decider = &state.names[seat as usize];
    if decider != player {
        let prompt = game.prompt(state).unwrap_or_default();
        return Err((
            format!("the trace has {player} decide, but {decider} decides here (\"{prompt}\")"),
            labels,
        ));
    }
    let Some(i) = labels.iter().position(|l| l == label) else {
        let prompt = game.prompt(state).unwrap_or_default();
        return Err((
            format!("'{label}' is not a legal option for {player} at \"{prompt}\""),
            closest_first(label, labels),
        ));
    };
    Ok(i)
}

/// The outcome a chance line names: the game must wait for chance, and the label be one
/// of its outcomes (or an order of the zone a shuffle shuffles).
fn outcome_choice(
    game: &Game,
    state: &State,
    label: &str,
) -> Result<Choice, (String, Vec<String>)> {
    if !matches!(game.status(state), Status::Chance(_)) {
        return Err((
            format!(
                "the trace gives a chance outcome, but {}",
                waiting_for(game, state)
            ),
            Vec::new(),
        ));
    }
    let Some(choice) = game.parse_outcome(state, label) else {
        let legal = match &state.pending {
            crate::machine::Pending::Chance(point) => point
                .outcomes
                .iter()
                .map(|v| game.value_text(v, &state.names))
                .collect(),
            _ => vec!["any order of the zone's contents".to_string()],
        };
        return Err((
            format!(
                "'{label}' is not a possible outcome of {}",
                chance_name(game, state)
            ),
            closest_first(label, legal),
        ));
    };
    Ok(choice)
}

/// The outcome a `chance:` line gives at this chance point (with its label's legal
/// alternatives when it fits none). The trace's seed (`rng`) draws at every chance point,
/// recorded or not, as it did when the game was played: a line left out of a trace that
/// `frontier play` wrote is drawn as it was, and the draws after a recorded line are
/// those of the game. That draw orders the rest of a shuffle given by its first elements.
pub fn chance_of_line(
    game: &Game,
    state: &State,
    label: &str,
    rng: Option<&mut GameRng>,
) -> Result<Choice, (String, Vec<String>)> {
    let drawn = match (rng, game.status(state)) {
        (Some(rng), Status::Chance(chance)) => Some(sample_chance(state, chance, rng)),
        _ => None,
    };
    match partial_order(state, label, drawn, game) {
        Some(order) => order,
        None => outcome_choice(game, state, label),
    }
}

/// A shuffle's outcome given by its first elements then `...` (`chance: gw-03 gw-11 ...`):
/// those on top in that order, the rest in the order the trace's seed gives. None when the
/// label does not end with `...` or the game is not at a shuffle. `drawn` is the seed's
/// order for the shuffle.
fn partial_order(
    state: &State,
    label: &str,
    drawn: Option<Choice>,
    game: &Game,
) -> Option<Result<Choice, (String, Vec<String>)>> {
    let first = label
        .strip_suffix("...")
        .or_else(|| label.strip_suffix('…'))?;
    let crate::machine::Pending::Shuffle { zone } = &state.pending else {
        return None;
    };
    let Some(Choice::Order(mut rest)) = drawn else {
        let message =
            "an order ending in '...' leaves the rest to the seed, and the trace has none";
        return Some(Err((message.to_string(), Vec::new())));
    };
    let of = game.zone_element(*zone);
    let mut order = Vec::new();
    for word in first.split_whitespace() {
        let at = rest.iter().position(|e| {
            game.value_text(&crate::eval::decode_element(of, *e), &state.names) == word
        });
        match at {
            Some(at) => order.push(rest.remove(at)),
            None => {
                return Some(Err((
                    format!(
                        "'{word}' is not in {} (or is listed more often than it holds it)",
                        game.zone_instance_name(*zone)
                    ),
                    Vec::new(),
                )))
            }
        }
    }
    order.extend(rest);
    Some(Ok(Choice::Order(order)))
}

/// The outcome of the game, which the trace expects to be over.
fn outcome_of<'s>(game: &Game, state: &'s State) -> Result<&'s Outcome, String> {
    let Status::Over(outcome) = game.status(state) else {
        return Err(format!(
            "the trace expects the game to be over, but {}",
            waiting_for(game, state)
        ));
    };
    Ok(outcome)
}

/// `reject`: the label is none of the options `player` has here.
fn check_rejected(
    game: &Game,
    state: &State,
    player: &str,
    label: &str,
) -> Result<(), (String, Vec<String>)> {
    let labels = options_of(game, state, player, &format!("rejects '{label}'"))?;
    if labels.iter().any(|l| l == label) {
        let prompt = game.prompt(state).unwrap_or_default();
        return Err((
            format!("'{label}' is a legal option for {player} at \"{prompt}\", but the trace rejects it"),
            closest_first(label, labels),
        ));
    }
    Ok(())
}

/// `expect options`: the options `player` has here are exactly those listed, or include
/// them all, or include none of them.
fn check_options(
    game: &Game,
    state: &State,
    player: &str,
    expected: &[String],
    listed: Listed,
) -> Result<(), (String, Vec<String>)> {
    let labels = options_of(game, state, player, "expects options")?;
    let quoted = |l: &String| format!("'{l}'");
    let (missing, extra): (Vec<String>, Vec<String>) = match listed {
        Listed::Exactly | Listed::Include => (
            expected
                .iter()
                .filter(|e| !labels.contains(e))
                .map(quoted)
                .collect(),
            match listed {
                Listed::Exactly => labels
                    .iter()
                    .filter(|l| !expected.contains(l))
                    .map(quoted)
                    .collect(),
                _ => Vec::new(),
            },
        ),
        Listed::Exclude => (
            Vec::new(),
            expected
                .iter()
                .filter(|e| labels.contains(e))
                .map(quoted)
                .collect(),
        ),
    };
    if !missing.is_empty() || !extra.is_empty() {
        let prompt = game.prompt(state).unwrap_or_default();
        let mut parts = Vec::new();
        let some = |list: Vec<String>| match list.len() {
            0..=6 => list.join(", "),
            n => format!("{}, … ({n} in all)", list[..5].join(", ")),
        };
        if !missing.is_empty() {
            parts.push(format!("not legal: {}", some(missing)));
        }
        if !extra.is_empty() {
            let what = match listed {
                Listed::Exclude => "legal but excluded",
                _ => "legal but not listed",
            };
            parts.push(format!("{what}: {}", some(extra)));
        }
        return Err((
            format!(
                "the options of {player} at \"{prompt}\" differ from the trace's ({})",
                parts.join("; ")
            ),
            labels,
        ));
    }
    Ok(())
}

/// `reject chance: outcome`: a chance point is here and that outcome cannot come up.
fn check_impossible(game: &Game, state: &State, label: &str) -> Result<(), (String, Vec<String>)> {
    let weights = match game.status(state) {
        Status::Chance(Chance::Pick { weights, .. }) => Some(weights),
        Status::Chance(Chance::Shuffle { .. }) => None,
        _ => {
            return Err((
                format!("the trace rejects the chance outcome '{label}', but the game is not at a chance point"),
                Vec::new(),
            ))
        }
    };
    let possible = match (game.parse_outcome(state, label), weights) {
        (Some(Choice::Outcome(i)), Some(weights)) => weights.get(i).is_some_and(|w| *w > 0),
        (Some(_), _) => true,
        (None, _) => false,
    };
    if possible {
        return Err((
            format!(
                "'{label}' is a possible outcome of this chance point, but the trace rejects it"
            ),
            Vec::new(),
        ));
    }
    Ok(())
}

/// `expect winner`: the players who share the victory are exactly those listed.
fn check_winners(outcome: &Outcome, state: &State, players: &[String]) -> Result<(), String> {
    let winners: Vec<String> = outcome
        .winners()
        .iter()
        .map(|&p| state.names[p].clone())
        .collect();
    let same = winners.len() == players.len() && players.iter().all(|p| winners.contains(p));
    if !same {
        return Err(format!(
            "the trace expects the winner {}, but {}",
            players.join(" and "),
            ranking_text(outcome, state)
        ));
    }
    Ok(())
}

/// `expect draw`: every return is equal.
fn check_draw(outcome: &Outcome, state: &State) -> Result<(), String> {
    let Some(returns) = &outcome.returns else {
        return Err("the trace expects a draw, but the ruleset declares no 'outcome:' (a draw is every return equal)".to_string());
    };
    if outcome.is_draw() {
        return Ok(());
    }
    let listed: Vec<String> = state
        .names
        .iter()
        .enumerate()
        .map(|(p, name)| {
            let r = Ratio::new(i128::from(returns.values[p]), i128::from(returns.scale));
            format!("{name} {}", r.map_or_else(String::new, |r| r.to_string()))
        })
        .collect();
    Err(format!(
        "the trace expects a draw, but the returns are {}",
        listed.join(", ")
    ))
}

/// `expect ranking`: each player listed has the rank given.
fn check_ranks(outcome: &Outcome, state: &State, ranks: &[(String, u32)]) -> Result<(), String> {
    for (name, rank) in ranks {
        let Some(p) = state.names.iter().position(|n| n == name) else {
            return Err(format!("'{name}' is not a player"));
        };
        if u32::from(outcome.ranks[p]) != *rank {
            return Err(format!(
                "the trace expects {name} ranked {rank}, but {}",
                ranking_text(outcome, state)
            ));
        }
    }
    Ok(())
}

fn waiting_for(game: &Game, state: &State) -> String {
    match game.status(state) {
        Status::Decision { player, .. } => {
            format!(
                "{} must decide \"{}\"",
                state.names[player as usize],
                game.prompt(state).unwrap_or_default()
            )
        }
        Status::Chance(_) => format!("the game waits for {}", chance_name(game, state)),
        Status::Over(_) => "the game is over".into(),
    }
}

fn chance_name(game: &Game, state: &State) -> String {
    match &state.pending {
        crate::machine::Pending::Shuffle { zone } => {
            format!("the shuffle of {}", game.zone_instance_name(*zone))
        }
        _ => "a random outcome".into(),
    }
}

/// The labels of the options `player` has here; an error (message, legal options) if the
/// game is not waiting for that player's decision. `what` says what the trace does.
fn options_of(
    game: &Game,
    state: &State,
    player: &str,
    what: &str,
) -> Result<Vec<String>, (String, Vec<String>)> {
    let Status::Decision { player: seat, .. } = game.status(state) else {
        return Err((
            format!(
                "the trace has {player} decide ({what}), but {}",
                waiting_for(game, state)
            ),
            Vec::new(),
        ));
    };
    let labels = game
        .option_labels(state)
        .map_err(|e| (e.to_string(), Vec::new()))?;
    let decider = &state.names[seat as usize];
    if decider != player {
        let prompt = game.prompt(state).unwrap_or_default();
        return Err((
            format!(
                "the trace has {player} decide ({what}), but {decider} decides here (\"{prompt}\")"
            ),
            labels,
        ));
    }
    Ok(labels)
}

/// "the ranking is 1. red (12), 2. blue (10), 2. green (10)".
fn ranking_text(outcome: &Outcome, state: &State) -> String {
    let mut seats: Vec<usize> = (0..outcome.ranks.len()).collect();
    seats.sort_by_key(|&p| outcome.ranks[p]);
    let places: Vec<String> = seats
        .iter()
        .map(|&p| {
            format!(
                "{}. {} ({})",
                outcome.ranks[p], state.names[p], outcome.scores[p]
            )
        })
        .collect();
    format!("the ranking is {}", places.join(", "))
}

/// `expect chance`: the game is at a chance point whose outcomes (their labels, equal
/// labels counted together) have exactly these probabilities.
fn check_chance(
    game: &Game,
    state: &State,
    expected: &[(String, Ratio)],
) -> Result<(), (String, Vec<String>)> {
    let Status::Chance(chance) = game.status(state) else {
        return Err((
            format!(
                "the trace expects a chance point, but {}",
                waiting_for(game, state)
            ),
            Vec::new(),
        ));
    };
    let crate::machine::Chance::Pick { outcomes, weights } = chance else {
        return Err((
            format!(
                "the trace lists outcomes with their probabilities, but the outcome of {} is an order of its elements",
                chance_name(game, state)
            ),
            Vec::new(),
        ));
    };
    let total: i128 = weights.iter().map(|&w| i128::from(w)).sum();
    // Each label's weight, in the order the outcomes come.
    let mut actual: Vec<(String, i128)> = Vec::new();
    for (value, &weight) in outcomes.iter().zip(weights) {
        let label = game.value_text(value, &state.names);
        match actual.iter_mut().find(|(l, _)| *l == label) {
            Some((_, w)) => *w += i128::from(weight),
            None => actual.push((label, i128::from(weight))),
        }
    }
    let described = |list: &[(String, i128)]| -> Vec<String> {
        list.iter()
            .map(|(l, w)| match Ratio::new(*w, total) {
                Some(p) => format!("{l}={p}"),
                None => l.clone(),
            })
            .collect()
    };
    let mut problems = Vec::new();
    for (label, p) in expected {
        match actual.iter().find(|(l, _)| l == label) {
            None => problems.push(format!("'{label}' is not a possible outcome")),
            // p = n/d equals w/total when n * total == w * d.
            Some((_, w)) if p.numerator() * total != w * p.denominator() => problems.push(format!(
                "'{label}' has probability {}, the trace expects {p}",
                Ratio::new(*w, total).map_or_else(String::new, |r| r.to_string())
            )),
            Some(_) => {}
        }
    }
    for (label, _) in &actual {
        if !expected.iter().any(|(l, _)| l == label) {
            problems.push(format!("'{label}' is possible but not listed"));
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let some = match problems.len() {
        0..=6 => problems.join("; "),
        n => format!("{}; … ({n} in all)", problems[..5].join("; ")),
    };
    Err((
        format!("the chance outcomes here differ from the trace's ({some})"),
        described(&actual),
    ))
}

/// `expect returns`: each listed player's return (`outcome:`) is the one given.
fn check_returns(
    outcome: &Outcome,
    state: &State,
    expected: &[(String, Ratio)],
) -> Result<(), String> {
    let Some(returns) = &outcome.returns else {
        return Err(
            "the trace expects returns, but the ruleset declares no 'outcome:'".to_string(),
        );
    };
    for (name, r) in expected {
        let Some(p) = state.names.iter().position(|n| n == name) else {
            return Err(format!("'{name}' is not a player"));
        };
        let actual = Ratio::new(i128::from(returns.values[p]), i128::from(returns.scale));
        if actual != Some(*r) {
            return Err(format!(
                "{name}'s return is {}, the trace expects {r}",
                actual.map_or_else(String::new, |a| a.to_string())
            ));
        }
    }
    Ok(())
}

fn check_scores(outcome: &Outcome, state: &State, scores: &[(String, i64)]) -> Result<(), String> {
    for (name, expected) in scores {
        let Some(p) = state.names.iter().position(|n| n == name) else {
            return Err(format!("'{name}' is not a player"));
        };
        if outcome.scores[p] != *expected {
            return Err(format!(
                "{name} ends with {}, the trace expects {expected}",
                outcome.scores[p]
            ));
        }
    }
    Ok(())
}
