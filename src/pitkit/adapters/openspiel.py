"""The turn-based games as OpenSpiel Python games (the ``openspiel`` extra).

>>> import pyspiel
>>> from pitkit.adapters import openspiel
>>> openspiel.register()
>>> game = pyspiel.load_game("python_pitkit_ace_pit", {"hands": 1})

Each game is registered as ``python_pitkit_<game>`` (``pits``, ``ace_pit``,
``pitty_pat``, ``pitch``) with two parameters: ``players`` (the game's
usual number) and ``hands`` (1): a match of that many hands, other rules
as their defaults. Real-time Pit has no turns, and so no OpenSpiel game.

Chance is explicit, in one node: the first move of every game is chance's
choice of the match's seed, one of `SEEDS`, uniformly; every shuffle of the
match (the deals, Pitty Pat's restocks) then follows from it, inside
pitkit's `Chance`. A chance node for each card would need the engines to
deal card by card; one seed keeps the game's own deals, and keeps a
history of ids enough to replay a game (OpenSpiel's serialization) and to
clone it. The price: the deals are those of 65,536 seeds, not every deal.

Information is imperfect; utilities are zero-sum (`ranks_reward`: +1 first,
-1 last, the sum 0), given at the end. The observer gives the acting
seat's `Encoding` vector, the same as the PettingZoo environments'; there
is no information-state (perfect-recall) tensor.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pyspiel

from pitkit import games
from pitkit.adapters.acepit import AcePitEncoding
from pitkit.adapters.encoding import Encoding, ranks_reward
from pitkit.adapters.pitch import PitchEncoding
from pitkit.adapters.pits import PitsEncoding
from pitkit.adapters.pittypat import PittyPatEncoding
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.rules import RuleSet

__all__ = [
    "GAMES",
    "SEEDS",
    "AcePitGame",
    "PitchGame",
    "PitkitGame",
    "PitkitObserver",
    "PitkitState",
    "PitsGame",
    "PittyPatGame",
    "game_name",
    "register",
]

SEEDS = 1 << 16
"""The number of match seeds chance chooses among."""
_ENCODINGS = (PitsEncoding, AcePitEncoding, PittyPatEncoding, PitchEncoding)


def game_name(encoding: type[Encoding]) -> str:
    """The OpenSpiel name of a game: ``python_pitkit_ace_pit``."""
    return "python_pitkit_" + encoding.game.replace("-", "_")


def _game_type(encoding: type[Encoding]) -> pyspiel.GameType:
    game = games.get(encoding.game)
    return pyspiel.GameType(
        short_name=game_name(encoding),
        long_name=f"pitkit {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": game.default_players, "hands": 1},
    )


class Setup(NamedTuple):
    """What a loaded game's parameters make: the pitkit game, the table's
    size, the rules and the encoding. Kept apart from the OpenSpiel objects,
    which OpenSpiel copies and pickles without their Python attributes."""

    game: Game
    players: int
    rules: RuleSet
    encoding: Encoding


_SETUPS: dict[tuple[str, int, int], Setup] = {}


def setup_of(game: pyspiel.Game) -> Setup:
    """The `Setup` of a loaded pitkit game."""
    params = game.get_parameters()
    name = game.get_type().short_name
    key = (name, int(params["players"]), int(params["hands"]))
    known = _SETUPS.get(key)
    if known is None:
        encoding = next(e for e in _ENCODINGS if game_name(e) == name)
        pitkit = games.get(encoding.game)
        rules = pitkit.make_rules({"hands": key[2]})
        known = _SETUPS[key] = Setup(pitkit, key[1], rules, encoding(key[1]))
    return known


class PitkitGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """A pitkit game as an OpenSpiel game (see the module's docstring)."""

    encoding_type: type[Encoding]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type = _game_type(self.encoding_type)
        params = {**game_type.parameter_specification, **(params or {})}
        players, hands = int(params["players"]), int(params["hands"])
        encoding = self.encoding_type(players)
        rules = games.get(self.encoding_type.game).make_rules({"hands": hands})
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.actions,
            max_chance_outcomes=SEEDS,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=1 + hands * encoding.most_moves(rules),
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> PitkitState:
        """A match before chance has chosen its seed."""
        return PitkitState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PitkitObserver:
        """The observer of the acting seat's encoding vector."""
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("pitkit games give observations, not perfect-recall states")
        return PitkitObserver(setup_of(self).encoding)


class PitkitState(pyspiel.State):  # type: ignore[misc]
    """A match in progress; None until chance chooses its seed."""

    def __init__(self, game: PitkitGame) -> None:
        super().__init__(game)
        self.match: Match[Any, Any] | None = None

    @property
    def setup(self) -> Setup:
        """The game's pitkit setup."""
        return setup_of(self.get_game())

    def current_player(self) -> int:
        match = self.match
        if match is None:
            return int(pyspiel.PlayerId.CHANCE)
        if match.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        # Several seats may act at once in Pits' exchange: the lowest first.
        return min(match.to_act)

    def _legal_actions(self, player: int) -> list[int]:
        match = self.match
        assert match is not None
        encoding = self.setup.encoding
        return sorted(encoding.encode(match, player, a) for a in match.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(seed, 1.0 / SEEDS) for seed in range(SEEDS)]

    def _apply_action(self, action: int) -> None:
        setup = self.setup
        if self.match is None:
            self.match = setup.game.new_match(setup.players, setup.rules, int(action))
            return
        seat = self.current_player()
        self.match.apply(seat, setup.encoding.decode(self.match, seat, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.match is None:
            return f"seed {action}"
        return str(self.setup.encoding.decode(self.match, player, int(action)))

    def is_terminal(self) -> bool:
        return self.match is not None and self.match.is_over

    def returns(self) -> list[float]:
        outcome = None if self.match is None else self.match.outcome
        if outcome is None:
            return [0.0] * self.setup.players
        return ranks_reward(outcome.ranks)

    def __str__(self) -> str:
        if self.match is None:
            return "(not dealt)"
        return self.setup.game.render(self.match.view(None))


class PitkitObserver:
    """OpenSpiel's Python observer: `tensor` is the seat's encoding vector."""

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.tensor = np.zeros(encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PitkitState, player: int) -> None:
        """Fill `tensor` with what `player` sees of `state`."""
        if state.match is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.encoding.observe(state.match, player)

    def string_from(self, state: PitkitState, player: int) -> str:
        """What `player` sees, as the text of its view's main facts."""
        if state.match is None:
            return "(not dealt)"
        view = state.match.view(player)
        view.pop("history", None)
        view.pop("legal", None)
        return str(view)


class PitsGame(PitkitGame):
    """Pits in OpenSpiel."""

    encoding_type = PitsEncoding


class AcePitGame(PitkitGame):
    """Ace Pit in OpenSpiel."""

    encoding_type = AcePitEncoding


class PittyPatGame(PitkitGame):
    """Pitty Pat in OpenSpiel."""

    encoding_type = PittyPatEncoding


class PitchGame(PitkitGame):
    """Pitch in OpenSpiel."""

    encoding_type = PitchEncoding


# Classes at module level, by name: OpenSpiel pickles games and states.
GAMES: tuple[type[PitkitGame], ...] = (PitsGame, AcePitGame, PittyPatGame, PitchGame)
_registered: list[str] = []


def register() -> list[str]:
    """Register every turn-based game with OpenSpiel (once); their names."""
    if not _registered:
        for cls in GAMES:
            pyspiel.register_game(_game_type(cls.encoding_type), cls)
            _registered.append(game_name(cls.encoding_type))
    return list(_registered)
