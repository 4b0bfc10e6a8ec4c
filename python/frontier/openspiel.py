"""Frontier rulesets as OpenSpiel games (``pyspiel.Game`` / ``pyspiel.State``).

A ruleset registers as one OpenSpiel game whose parameters are ``players`` and the
ruleset's own ``params:``. Its states wrap ``frontier.State``:

- a decision of player p is a node of player p; a ``random`` is one chance node; a
  shuffle of n elements is n - 1 chance nodes, each drawing the next element among those
  left (numbered by their position in the zone), all equally likely;
- ``information_state_string(p)`` is what p saw at each of their decisions and chose
  there, then what p sees now; ``observation_string(p)`` what p sees now. Neither shows
  what the rules hide from p;
- returns: with an ``outcome:`` in the ruleset, its returns (general-sum); otherwise the
  seats ranked first share 1 and the others get 0 (constant-sum 1).
"""

import pyspiel

from ._frontier import Game, describe

# OpenSpiel checks that no game is longer than this (decisions): Frontier's bound on
# the steps of one game.
MAX_GAME_LENGTH = 1_000_000

# The bound of returns declared by an `outcome:` that OpenSpiel is told (it cannot be
# read from the ruleset).
DECLARED_UTILITY_BOUND = 2.0**31

_registered = {}


def registered():
    """The OpenSpiel names registered so far, with the ruleset each one loads."""
    return {name: spec[0] for name, spec in _registered.items()}


def register(ruleset, variant=None, name=None, utility_sum=None):
    """Registers `ruleset` (an embedded name or a path; with `variant`, that variant of
    it) with OpenSpiel as `name` (default: ``frontier_<ruleset>``); returns the name.

    A ruleset whose ``outcome:`` always gives returns adding up to the same number (a
    zero-sum game) can say so with `utility_sum`: the game is then zero- or constant-sum
    for OpenSpiel (as its exploitability needs), and every game's returns are checked
    against it."""
    from . import short_name

    if name is None:
        name = short_name(variant if variant is not None else ruleset)
    if name in _registered:
        if _registered[name] != (ruleset, variant, utility_sum):
            raise ValueError(f"{name} is already registered for {_registered[name][0]}")
        return name
    info = describe(ruleset, variant)
    spec = {"players": int(info["min_players"])}
    for key, value in info["params"].items():
        if key == "players":
            raise ValueError(f"{ruleset}: a parameter named 'players' hides the number of players")
        spec[key] = int(value)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Frontier: {info['title']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if info["chance"]
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if info["hides_information"]
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=_utility(info["utility"], utility_sum),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=int(info["max_players"]),
        min_num_players=int(info["min_players"]),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=spec,
    )

    # OpenSpiel keeps what it is given to make games until the process ends, after
    # Python's own end: a class (as OpenSpiel's Python games register), not a closure,
    # which would be freed then without the interpreter it needs.
    made = type(
        name,
        (FrontierGame,),
        {"GAME_TYPE": game_type, "RULESET": ruleset, "VARIANT": variant, "UTILITY_SUM": utility_sum},
    )
    # Found by its name in this module, so that pickle finds it.
    made.__module__ = __name__
    globals()[name] = made
    pyspiel.register_game(game_type, made)
    _registered[name] = (ruleset, variant, utility_sum)
    return name


def _utility(kind, utility_sum):
    if kind == "ranked":
        if utility_sum is not None and utility_sum != 1:
            raise ValueError("without an `outcome:` the returns add up to 1")
        return pyspiel.GameType.Utility.CONSTANT_SUM
    if utility_sum is None:
        return pyspiel.GameType.Utility.GENERAL_SUM
    if utility_sum == 0:
        return pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType.Utility.CONSTANT_SUM


def load_game(ruleset, players=None, params=None, variant=None):
    """An OpenSpiel game of `ruleset` (an embedded name or a path), registering it first
    if it is not registered yet."""
    from . import rulesets

    if variant is not None and variant in rulesets():
        # An embedded variant is registered on its own: check that it is one of
        # `ruleset`, then load it by its own name.
        describe(ruleset, variant)
        ruleset, variant = variant, None
    name = register(ruleset, variant)
    given = {} if params is None else {k: int(v) for k, v in params.items()}
    if players is not None:
        given["players"] = int(players)
    return pyspiel.load_game(name, given)


class FrontierGame(pyspiel.Game):
    """A Frontier ruleset for a number of players, as an OpenSpiel game. Each registered
    ruleset is a subclass that names its game type, ruleset and variant."""

    GAME_TYPE = None
    RULESET = None
    VARIANT = None
    UTILITY_SUM = None

    def __new__(cls, params=None):
        # The ruleset is loaded before the OpenSpiel object exists: a bad parameter
        # raises here, not from an object half made.
        params = {k: int(v) for k, v in dict(params or {}).items()}
        players = params.pop("players", None)
        loaded = Game(cls.RULESET, players=players, params=params, variant=cls.VARIANT)
        self = super().__new__(cls)
        self.frontier = loaded
        return self

    def __init__(self, params=None):
        params = {k: int(v) for k, v in dict(params or {}).items()}
        params.pop("players", None)
        players = self.frontier.players
        game_type = self.GAME_TYPE
        if self.frontier.utility == "ranked":
            low, high, total = 0.0, 1.0, 1.0
        else:
            low, high = -DECLARED_UTILITY_BOUND, DECLARED_UTILITY_BOUND
            total = None if self.UTILITY_SUM is None else float(self.UTILITY_SUM)
        info = pyspiel.GameInfo(
            num_distinct_actions=int(self.frontier.num_distinct_actions),
            max_chance_outcomes=int(self.frontier.max_chance_outcomes),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, {"players": players, **params})
        # Every new state starts from this one (setup is run once per game).
        self._initial = self.frontier.new_initial_state()

    def new_initial_state(self):
        return FrontierState(self, self._initial.clone())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("a Frontier game observes for one player: public and own private information")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return FrontierObserver(recall)


class FrontierState(pyspiel.State):
    """A Frontier game under way, as an OpenSpiel state."""

    def __init__(self, game, inner):
        super().__init__(game)
        self.frontier = inner
        self.utility_sum = game.UTILITY_SUM

    def current_player(self):
        return self.frontier.current_player()

    def _legal_actions(self, player):
        if player != self.frontier.current_player():
            return []
        return self.frontier.legal_actions()

    def chance_outcomes(self):
        return self.frontier.chance_outcomes()

    def _apply_action(self, action):
        self.frontier.apply_action(int(action))

    def _action_to_string(self, player, action):
        return self.frontier.action_to_string(int(action))

    def is_terminal(self):
        return self.frontier.is_terminal()

    def returns(self):
        returns = self.frontier.returns()
        total = self.utility_sum
        if total is not None and self.frontier.is_terminal() and abs(sum(returns) - total) > 1e-9:
            raise ValueError(f"the returns {returns} add up to {sum(returns)}, not the {total} registered")
        return returns

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one (for information-set search)."""
        seed = int(probability_sampler() * 2**53)
        state = self.clone()
        state.frontier = self.frontier.resample(player_id, seed)
        return state

    def trace(self):
        """The game so far as a Frontier trace, which ``frontier check`` checks."""
        return self.frontier.trace()

    def __str__(self):
        return str(self.frontier)


class FrontierObserver:
    """OpenSpiel's observer of a Frontier game: strings only (no tensors)."""

    def __init__(self, perfect_recall):
        self.tensor = None
        self.dict = {}
        self._perfect_recall = perfect_recall

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if self._perfect_recall:
            return state.frontier.information_state_string(player)
        return state.frontier.observation_string(player)
