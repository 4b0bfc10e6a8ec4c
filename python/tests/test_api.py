"""The package's own API: errors that say what is wrong, stable action numbers, chance
as OpenSpiel wants it, pickling."""

import pickle
import random

import pytest

import frontier


def test_bad_input_is_a_value_error_that_says_what():
    with pytest.raises(ValueError, match="unknown ruleset 'go-wes'.*go-west"):
        frontier.Game("go-wes")
    with pytest.raises(ValueError, match="go-west is for 2 to 4 players, not 9"):
        frontier.Game("go-west", players=9)
    with pytest.raises(ValueError, match="target_vpp"):
        frontier.Game("go-west", params={"target_vpp": 3})
    state = frontier.Game("go-west", players=3).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(10**9)
    with pytest.raises(IndexError):
        state.information_state_string(3)


def play_to_decision(state, rng):
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            return


def test_an_option_has_the_same_number_in_every_state():
    # Go West's `play card:ID` is numbered by the card's row: the same card, the same
    # number, whatever the hand around it.
    game = frontier.Game("go-west", players=3)
    rng = random.Random(3)
    numbers = {}
    for _ in range(5):
        state = game.new_initial_state()
        for _ in range(60):
            play_to_decision(state, rng)
            if state.is_terminal():
                break
            for a in state.legal_actions():
                label = state.action_to_string(a)
                if label.startswith("play card:"):
                    assert numbers.setdefault(label, a) == a, label
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(numbers) > 10
    assert all(a < game.num_distinct_actions for a in numbers.values())


def test_a_shuffle_is_one_chance_node_per_element_drawn():
    state = frontier.Game("go-west", players=3).new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    n = len(outcomes)
    assert n > 2
    for k in range(n - 1):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == n - k
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
        state.apply_action(outcomes[-1][0])
    # After n - 1 draws the order is known: one trace step.
    assert len(state.trace().splitlines()) > 0


def test_states_pickle_and_copy():
    game = frontier.Game("way-out-west", players=3)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(30):
        play_to_decision(state, rng)
        state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    assert again.history() == state.history()
    copy = state.clone()
    play_to_decision(copy, rng)
    copy.apply_action(copy.legal_actions()[0])
    assert copy.history() != state.history()
