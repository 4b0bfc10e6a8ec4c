"""Information states never show what their player cannot see: a state the player
cannot tell from the real one, its hidden contents dealt again, gives the same string."""

import random

import pyspiel
import pytest

import frontier
from conftest import WILD_WEST


@pytest.mark.parametrize("ruleset,players", WILD_WEST + [("kuhn-poker", 2), ("liars-dice", 2)])
def test_swapping_hidden_contents_changes_no_information_state(ruleset, players):
    game = frontier.load_game(ruleset, players=players)
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    compared = swapped = 0
    steps = 0
    while not state.is_terminal() and steps < 400:
        steps += 1
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            compared += 1
            swapped += str(other) != str(state)
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 0
    imperfect = pyspiel.GameType.Information.IMPERFECT_INFORMATION
    if game.get_type().information == imperfect and ruleset != "liars-dice":
        # The comparison had something to hide: some resampled state differed. (Liar's
        # dice hides dice that were rolled into their zone: resampling deals the same
        # dice again, in another order at most.)
        assert swapped > 0, ruleset


def test_a_hand_shows_to_its_owner_only():
    # Kuhn poker: each player sees their own card and not the other's.
    game = frontier.load_game("kuhn-poker")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    full = str(state)
    mine = state.information_state_string(0)
    theirs = state.information_state_string(1)
    assert mine != theirs
    assert "hidden" in mine and "hidden" in theirs
    assert "hidden" not in full
