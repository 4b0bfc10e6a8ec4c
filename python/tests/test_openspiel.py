"""OpenSpiel's own tests of a game's API, on every embedded ruleset: the C++
`random_sim_test` (legal-action masks, clones, serialization, returns) and the Python
`GamesSimTest.sim_game` (pickling games and states, clones, returns in bounds)."""

import pyspiel
import pytest

import frontier
from conftest import WILD_WEST
from open_spiel.python.tests import games_sim_test


@pytest.mark.parametrize("ruleset,players", WILD_WEST)
def test_random_sim_test_on_the_wild_west_rulesets(ruleset, players):
    game = pyspiel.load_game(f"{frontier.short_name(ruleset)}(players={players})")
    pyspiel.random_sim_test(game, 3, True, False)


@pytest.mark.parametrize("ruleset", frontier.rulesets())
def test_random_sim_test_at_the_fewest_and_most_players(ruleset):
    info = frontier.describe(ruleset)
    for players in sorted({info["min_players"], min(info["max_players"], 6)}):
        game = frontier.load_game(ruleset, players=players)
        pyspiel.random_sim_test(game, 1, True, False)


@pytest.mark.parametrize("ruleset,players", WILD_WEST)
def test_python_sim_game(ruleset, players):
    game = frontier.load_game(ruleset, players=players)
    games_sim_test.GamesSimTest().sim_game(game)


def test_every_embedded_ruleset_is_registered():
    names = frontier.registered()
    for ruleset in frontier.rulesets():
        assert names[frontier.short_name(ruleset)] == ruleset


def test_parameters_and_variants_reach_the_game():
    game = pyspiel.load_game("frontier_go_west(players=3,target_vp=40)")
    assert game.num_players() == 3
    assert game.get_parameters()["target_vp"] == 40
    assert game.frontier.params["target_vp"] == 40
    simplified = frontier.load_game("grand-junction", players=4,
                                    variant="grand-junction-simplified")
    assert simplified.frontier.ruleset == "grand-junction-simplified"
    assert simplified.get_type().short_name == "frontier_grand_junction_simplified"
    with pytest.raises(ValueError, match="extends grand-junction, not go-west"):
        frontier.Game("go-west", variant="grand-junction-simplified")


def test_game_type_follows_the_ruleset():
    t = pyspiel.load_game("frontier_chess").get_type()
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    t = pyspiel.load_game("frontier_go_west(players=3)").get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM


def test_cfr_on_frontier_kuhn_poker_follows_openspiels_kuhn_poker():
    # The same game with information states of the same shape: CFR's average policies
    # have the same exploitability after each iteration (examples/cfr_kuhn_poker.py).
    from open_spiel.python.algorithms import cfr, exploitability

    ours = pyspiel.load_game(frontier.register(
        "kuhn-poker", name="frontier_kuhn_poker_zero_sum", utility_sum=0))
    theirs = pyspiel.load_game("kuhn_poker")
    assert ours.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    a, b = cfr.CFRSolver(ours), cfr.CFRSolver(theirs)
    for _ in range(20):
        a.evaluate_and_update_policy()
        b.evaluate_and_update_policy()
        assert abs(exploitability.exploitability(ours, a.average_policy())
                   - exploitability.exploitability(theirs, b.average_policy())) < 1e-9
