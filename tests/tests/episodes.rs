//! Games played by action numbers (`episode`, `actions`: what the Python package gives
//! OpenSpiel), over every shipped ruleset and variant: numbers in their bounds, chance
//! probabilities that add up to 1, information states that hide what the rules hide, and
//! traces that check clean and agree with the runner's.

use frontier_interpreter::actions::ActionSpace;
use frontier_interpreter::episode::{Episode, Node};
use frontier_interpreter::runner::{Recording, Step};
use frontier_interpreter::trace::{replay, starting_state, write_trace};
use frontier_interpreter::{Game, GameRng, Stepper};
use frontier_tests::{all_ruleset_names, load_ruleset, names, random_game};

/// Plays `game` to its end by action numbers drawn from `seed`, checking every node, and
/// returns the episode at its end.
fn play_by_numbers(game: &Game, players: usize, seed: u64) -> (Episode, bool) {
    let stepper = Stepper::walker(game);
    let mut episode = Episode::start(game, names(players)).expect("start");
    let space = ActionSpace::new(game, episode.elements());
    let mut rng = GameRng::new(seed);
    let mut resampled = false;
    for _ in 0..200_000 {
        let legal = episode.legal_actions(game, &space).expect("legal actions");
        match episode.node(game) {
            Node::Over => {
                assert!(legal.is_empty());
                return (episode, resampled);
            }
            Node::Decision { player } => {
                assert!(!legal.is_empty());
                assert!(legal.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
                assert!(*legal.last().unwrap() < space.decisions());
                let texts: std::collections::BTreeSet<String> = legal
                    .iter()
                    .map(|a| episode.action_text(game, &space, *a))
                    .collect();
                assert_eq!(texts.len(), legal.len(), "one text per action");
                resampled |= hidden_contents_do_not_show(game, &episode, player, &mut rng);
                let a = legal[rng.below(legal.len() as u64) as usize];
                episode.apply(stepper, &space, a).expect("apply");
            }
            Node::Chance => {
                let outcomes = episode.chance_outcomes(&space).unwrap();
                let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                assert!(
                    (total - 1.0).abs() < 1e-9,
                    "probabilities add up to {total}"
                );
                assert!(outcomes.iter().all(|(a, _)| *a < space.chance()));
                let a = outcomes[rng.below(outcomes.len() as u64) as usize].0;
                episode.apply(stepper, &space, a).expect("apply");
            }
        }
    }
    panic!("seed {seed}: the game did not end");
}

/// Each player's information state is the same in every state they cannot tell from this
/// one: dealing again what they do not see changes nothing in it.
/// Whether some resampling changed the state (so that the comparison tested something).
fn hidden_contents_do_not_show(
    game: &Game,
    episode: &Episode,
    decider: u8,
    rng: &mut GameRng,
) -> bool {
    let mut changed = false;
    for p in 0..episode.state().names().len() as u8 {
        let resampled = episode.resample(game, p, rng).expect("resample");
        changed |= resampled.state() != episode.state();
        assert_eq!(
            episode.information_state(game, p),
            resampled.information_state(game, p),
            "seat {p} (seat {decider} deciding)"
        );
    }
    changed
}

#[test]
fn every_ruleset_plays_by_numbers_and_writes_a_trace_that_checks() {
    let mut hiding = Vec::new();
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        for seed in 0..2 {
            let players = game.meta.min_players as usize;
            let (episode, resampled) = play_by_numbers(&game, players, seed);
            if resampled && seed == 0 {
                hiding.push(name.clone());
            }
            let trace = write_trace(
                frontier_interpreter::frontier_grammar::trace::RulesetRef::Name(name.clone()),
                &names(players),
                None,
                episode.steps(),
                None,
            );
            let state =
                starting_state(&game, &trace, |_| Err("no position".into())).expect("start");
            replay(&game, &trace, state, |_| {})
                .unwrap_or_else(|d| panic!("{name} seed {seed}: {d:?}"));
        }
    }
    // The games with hidden contents, where the comparison above had something to hide.
    for name in [
        "go-west",
        "gold-west",
        "grand-junction",
        "circle-the-wagons",
        "kuhn-poker",
    ] {
        assert!(hiding.contains(&name.to_string()), "{name}: {hiding:?}");
    }
}

/// A game the runner plays (seeded agents and chance), followed step by step in numbers,
/// gives the same steps and the same end.
#[test]
fn runner_games_translate_into_numbers_and_back() {
    for name in all_ruleset_names() {
        let game = load_ruleset(&name);
        let players = game.meta.max_players.min(4).max(game.meta.min_players) as usize;
        let (record, end) = random_game(&game, players, 7, Recording::Steps);
        let stepper = Stepper::walker(&game);
        let mut episode = Episode::start(&game, names(players)).expect("start");
        let space = ActionSpace::new(&game, episode.elements());
        for step in &record.steps {
            for a in episode
                .actions_of_step(&game, &space, step)
                .unwrap_or_else(|e| panic!("{name}: {step:?}: {e}"))
            {
                episode.apply(stepper, &space, a).expect("apply");
            }
        }
        assert_eq!(episode.steps(), record.steps.as_slice(), "{name}");
        assert_eq!(episode.state(), &end, "{name}");
        assert!(matches!(episode.node(&game), Node::Over));
        if let Some(Step::Decision { .. }) = record.steps.first() {
            assert!(!episode.returns(&game).is_empty());
        }
    }
}

/// What information-set search relies on: at a player's decision, every state sampled
/// for them reads the same to them. Grand Junction's auctions name a card of a hidden
/// reserve in the prompt; forty seeds at six players reach them (seed 15 does).
#[test]
fn a_deciders_samples_read_the_same_to_them() {
    let game = load_ruleset("grand-junction");
    let stepper = Stepper::walker(&game);
    for seed in 0..40 {
        let mut episode = Episode::start(&game, names(6)).expect("start");
        let space = ActionSpace::new(&game, episode.elements());
        let mut rng = GameRng::new(seed);
        while episode.node(&game) != Node::Over {
            if let Node::Decision { player } = episode.node(&game) {
                let seen = episode.information_state(&game, player);
                for _ in 0..3 {
                    let sample = episode.resample(&game, player, &mut rng).unwrap();
                    // (not assert_eq: an information state is many lines)
                    assert!(
                        sample.information_state(&game, player) == seen,
                        "seed {seed}: a sample reads differently to {player}"
                    );
                    // and the sample plays on: its options are the rules' options there
                    let mut next = sample.clone();
                    let legal = next.legal_actions(&game, &space).unwrap();
                    next.apply(
                        stepper,
                        &space,
                        legal[rng.below(legal.len() as u64) as usize],
                    )
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                }
            }
            let legal = episode.legal_actions(&game, &space).unwrap();
            let a = match episode.node(&game) {
                Node::Chance => {
                    let outcomes = episode.chance_outcomes(&space).unwrap();
                    outcomes[rng.below(outcomes.len() as u64) as usize].0
                }
                _ => legal[rng.below(legal.len() as u64) as usize],
            };
            episode.apply(stepper, &space, a).unwrap();
        }
    }
}
