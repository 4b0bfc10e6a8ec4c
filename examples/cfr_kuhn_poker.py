"""CFR, OpenSpiel's algorithm, on a Frontier ruleset: Kuhn poker as Frontier plays it
(rulesets/kuhn-poker) beside OpenSpiel's own C++ kuhn_poker. Both should converge to the
same equilibrium: exploitability towards 0 and the first player's value towards -1/18.

    python3 examples/cfr_kuhn_poker.py [ITERATIONS]

Needs the package (docs/python.md) and open-spiel.
"""

import sys

import pyspiel

import frontier
from open_spiel.python.algorithms import cfr, exploitability, expected_game_score


def run(name, iterations):
    game = pyspiel.load_game(name)
    solver = cfr.CFRSolver(game)
    rows = []
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in (1, 10, 100, iterations):
            policy = solver.average_policy()
            gap = exploitability.exploitability(game, policy)
            value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
            rows.append((i, gap, value))
    return rows


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    # Kuhn poker's `outcome:` is zero-sum; registered as such for exploitability.
    ours = run(frontier.register("kuhn-poker", name="frontier_kuhn_poker_zero_sum",
                                 utility_sum=0), iterations)
    theirs = run("kuhn_poker", iterations)
    print("| CFR iterations | exploitability, Frontier | exploitability, OpenSpiel C++ "
          "| first player's value, Frontier | first player's value, OpenSpiel C++ |")
    print("|---|---|---|---|---|")
    for (i, g1, v1), (_, g2, v2) in zip(ours, theirs):
        print(f"| {i} | {g1:.4f} | {g2:.4f} | {v1:.4f} | {v2:.4f} |")
    print(f"\nthe game's value for the first player: {-1 / 18:.4f}")


if __name__ == "__main__":
    main()
