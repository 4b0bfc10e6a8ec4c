"""OpenSpiel's MCTS and ISMCTS bots play whole games of each Wild-West ruleset (ten
simulations a decision: this tests that they run on the API, not how well they play)."""

import numpy as np
import pyspiel
import pytest

import frontier
from conftest import WILD_WEST
from open_spiel.python.algorithms import ismcts, mcts


def play(game, bots, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions, p=probs))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("ruleset,players", WILD_WEST[:5])
def test_mcts_and_ismcts_play_whole_games(ruleset, players):
    game = frontier.load_game(ruleset, players=players)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(players)]
    bots[0] = mcts.MCTSBot(game, 1.4, 10, evaluator, random_state=rng)
    imperfect = pyspiel.GameType.Information.IMPERFECT_INFORMATION
    if game.get_type().information == imperfect:
        bots[1] = ismcts.ISMCTSBot(game, evaluator, 1.4, 10, random_state=rng)
    else:
        # ISMCTS searches information sets: with nothing hidden, MCTS plays that seat.
        bots[1] = mcts.MCTSBot(game, 1.4, 10, evaluator, random_state=rng)
    state = play(game, bots, 2)
    returns = state.returns()
    assert len(returns) == players
    assert game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()
