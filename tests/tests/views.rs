//! What a player reads never depends on what they cannot see: for every shipped ruleset
//! and variant, at every decision of seeded random games, the hidden contents are dealt
//! again for each seat ([`Game::determinize`]) and every text written for that seat — the
//! display, the state view, the prompt and options of their own decision, the log lines of
//! the next step as [`Game::hide_unseen`] gives them — must read the same.

use frontier_interpreter::machine::Secret;
use frontier_interpreter::runner::sample_chance;
use frontier_interpreter::{Choice, Game, GameRng, Journal, State, Status, Stepper, Viewer};
use frontier_tests::{all_ruleset_names, load_ruleset, names};

/// The texts `seat` reads of `state` while it waits: the display, the state view, and at
/// their own decision its prompt and options.
fn texts_read(game: &Game, state: &State, seat: u8) -> Vec<String> {
    let mut texts = vec![
        game.render_display(state, Viewer::Seat(seat)),
        game.render_state(state, Some(seat)),
    ];
    if let Status::Decision { player, .. } = game.status(state) {
        if player == seat {
            texts.push(game.prompt(state).expect("prompt"));
            texts.extend(game.option_labels(state).expect("labels"));
        }
    }
    texts
}

/// The log lines of applying `choice` to `state`, as `seat` reads them
/// ([`Game::hide_unseen`]), and the state after the step. None when the choice cannot be
/// taken in `state` (a state dealt again for a seat that is not deciding keeps the
/// decider's options as they were listed, and one may name a card the deal moved out of
/// the decider's hand), or when the step showed the seat a row it hid again before its end
/// (a card drawn face up, then put under the deck): its lines may then say more of it (its
/// price), and are not compared.
fn log_read(game: &Game, state: &State, choice: Choice, seat: u8) -> Option<(Vec<String>, State)> {
    let (mut lines, mut secrets) = (Vec::new(), Vec::new());
    let mut after = state.clone();
    Stepper::walker(game)
        .apply(
            &mut after,
            choice,
            &mut Journal::on_noting(&mut lines, &mut secrets),
        )
        .ok()?;
    let viewer = Viewer::Seat(seat);
    let seats = after.names().len();
    let shown_then_hidden = |secret: &Secret| match secret {
        Secret::Named { seen, .. } => seen.iter().any(|(v, _)| {
            secret.seen_when_written(v, viewer, seats) && !game.may_know(&after, viewer, v)
        }),
        Secret::Outcome { .. } => false,
    };
    if secrets.iter().any(shown_then_hidden) {
        return None;
    }
    game.hide_unseen(&after, viewer, &mut lines, &secrets);
    Some((lines, after))
}

#[test]
fn no_text_for_a_player_changes_when_what_they_cannot_see_is_dealt_again() {
    let mut compared = Vec::new();
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        let players = game.meta.max_players.min(4).max(game.meta.min_players) as usize;
        let mut rng = GameRng::new(5);
        let mut state = game.start(names(players)).expect("start");
        let mut changed = false;
        let mut logs_compared = 0;
        // A bounded number of decisions per game keeps the suite fast.
        for _ in 0..300 {
            let choice = match game.status(&state) {
                Status::Over(_) => break,
                Status::Chance(c) => sample_chance(&state, c, &mut rng),
                Status::Decision { options, .. } => {
                    let choice = Choice::Option(rng.below(options as u64) as usize);
                    for seat in 0..players as u8 {
                        let dealt = game.determinize(&state, seat, &mut rng).expect("deal");
                        changed |= dealt != state;
                        let (one, other) = (
                            texts_read(&game, &state, seat),
                            texts_read(&game, &dealt, seat),
                        );
                        assert!(one == other, "{name}: seat {seat} reads\n{one:#?}\nwhere the same seat would read\n{other:#?}");
                        // A step may show the seat something (the bids, on revealing them):
                        // then its log may tell it too. Otherwise it may tell nothing more.
                        let real = log_read(&game, &state, choice.clone(), seat);
                        let other = log_read(&game, &dealt, choice.clone(), seat);
                        if let (Some((one, after)), Some((other, dealt_after))) = (real, other) {
                            if texts_read(&game, &after, seat)
                                == texts_read(&game, &dealt_after, seat)
                            {
                                assert_eq!(
                                    one, other,
                                    "{name}: seat {seat}'s log of the next step"
                                );
                                logs_compared += 1;
                            }
                        }
                    }
                    choice
                }
            };
            game.apply(&mut state, choice, &mut Journal::off())
                .expect("apply");
        }
        if changed {
            compared.push(name.clone());
        }
        assert!(
            logs_compared > 0 || matches!(game.status(&state), Status::Over(_)),
            "{name}: no step's log compared"
        );
    }
    // The games with hidden contents, where dealing again changed something to compare.
    for name in [
        "circle-the-wagons",
        "go-west",
        "gold-west",
        "goofspiel",
        "grand-junction",
        "kuhn-poker",
    ] {
        assert!(compared.contains(&name.to_string()), "{name}: {compared:?}");
    }
}
