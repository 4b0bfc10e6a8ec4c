"""The same seeded game through Python and through `frontier play` gives the same trace;
a game played through Python is written as a trace that `frontier check` checks."""

import random
import subprocess

import pyspiel
import pytest

import frontier


def body(trace):
    """A trace's steps: the lines after its header."""
    lines = trace.splitlines()
    return lines[lines.index("") + 1:] if "" in lines else lines


@pytest.mark.parametrize("ruleset,players,seed", [
    ("go-west", 4, 11), ("circle-the-wagons", 2, 3), ("pig", 2, 5), ("kuhn-poker", 2, 9),
])
def test_a_seeded_game_is_the_same_through_python_and_frontier_play(
        tmp_path, frontier_bin, ruleset, players, seed):
    out = tmp_path / "played.trace"
    agents = ",".join(["random"] * players)
    subprocess.run(
        [frontier_bin, "play", ruleset, "--players", str(players), "--agents", agents,
         "--seed", str(seed), "--trace-out", str(out)],
        check=True, capture_output=True,
    )
    game = frontier.load_game(ruleset, players=players)
    state = game.new_initial_state()
    for action in game.frontier.seeded_actions(seed):
        state.apply_action(action)
    assert state.is_terminal()
    assert body(state.trace()) == body(out.read_text())


@pytest.mark.parametrize("ruleset,players", [("go-west", 3), ("gold-west", 2), ("oware", 2)])
def test_a_python_game_checks_with_frontier_check(tmp_path, frontier_bin, ruleset, players):
    game = pyspiel.load_game(f"{frontier.short_name(ruleset)}(players={players})")
    state = game.new_initial_state()
    rng = random.Random(17)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    path = tmp_path / "python.trace"
    path.write_text(state.trace())
    run = subprocess.run([frontier_bin, "check", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    # And the numbers read back from the trace are the game's.
    assert game.frontier.actions_of_trace(state.trace()) == state.history()
