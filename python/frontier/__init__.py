"""Frontier board-game rulesets, played from Python and as OpenSpiel games.

``frontier.Game(ruleset, players=N, params={...}, variant=...)`` loads a ruleset (an
embedded name such as ``"go-west"``, or a path to a ruleset file or folder) and plays it
one numbered action at a time (``frontier.State``). When OpenSpiel (``pyspiel``) is
installed, importing this package registers every embedded ruleset with it as
``frontier_<name>`` (``-`` written ``_``), so that

    pyspiel.load_game("frontier_go_west(players=4)")

works, and ``frontier.load_game(...)`` returns an OpenSpiel game for any ruleset. How
action numbers map to option labels: docs/python.md.
"""

from ._frontier import Game, State, describe, rulesets

__all__ = ["Game", "State", "describe", "rulesets", "short_name"]


def short_name(ruleset):
    """The OpenSpiel name of an embedded ruleset: ``go-west`` -> ``frontier_go_west``."""
    out = []
    for c in ruleset.lower():
        out.append(c if c.isascii() and c.isalnum() else "_")
    return "frontier_" + "".join(out).strip("_")


try:
    import pyspiel as _pyspiel  # noqa: F401
except ImportError:  # OpenSpiel is optional: the package plays games without it.
    _pyspiel = None

if _pyspiel is not None:
    from .openspiel import FrontierGame, FrontierState, load_game, register, registered

    __all__ += ["FrontierGame", "FrontierState", "load_game", "register", "registered"]
    for _name in rulesets():
        register(_name)
