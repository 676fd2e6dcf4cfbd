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
seat's `Encoding` vector, the same as the PettingZoo environments'. The
information state (perfect recall) is a string: every event of the match
as the seat saw it, in order (`Event.seen_by`), one JSON object a line, so
two histories share it exactly when the seat could not tell them apart.
There is no information-state tensor: a fixed-size one would have to cut
the history somewhere.

Search over information sets: `resample` deals a state's hidden cards
anew with the game's own sampler (`Game.sample_unseen`), keeping to all the
seat knows, and `ismcts_bot` gives OpenSpiel's Python ISMCTS that resampler
(OpenSpiel's C++ ``pyspiel.ISMCTSBot`` crashes on Python games).
"""

from __future__ import annotations

import json
import random
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
    "Resampler",
    "game_name",
    "ismcts_bot",
    "register",
    "resample",
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
        provides_information_state_string=True,
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
        """The observer of a seat's encoding vector, or with perfect recall
        asked for, of its information-state string (and no tensor)."""
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return PitkitObserver(setup_of(self).encoding, recall)


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

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> PitkitState:
        """`resample` with a generator seeded from OpenSpiel's sampler (a
        callable giving a float in [0, 1)), as OpenSpiel's algorithms call it."""
        return resample(self, player, random.Random(int(probability_sampler() * 2**53)))

    def __str__(self) -> str:
        if self.match is None:
            return "(not dealt)"
        return self.setup.game.render(self.match.view(None))


def resample(state: PitkitState, player: int, rng: random.Random) -> PitkitState:
    """A copy of `state` in which the cards `player` cannot see are dealt
    anew by the game's sampler (`Game.sample_unseen`), consistently with
    everything `player` knows, and the rest of the match's chance drawn from
    `rng`: a world of `player`'s information set. `player` sees the same
    observation in it. Its history still begins with the true seed, so it is
    for search, not for serializing."""
    world: PitkitState = state.clone()
    if state.match is not None:
        world.match = state.setup.game.sample_unseen(state.match, player, rng)
    return world


class Resampler:
    """What ISMCTS's ``set_resampler`` takes: ``resampler(state, player)``,
    `resample` with a generator of its own seed, so searches repeat."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: PitkitState, player: int) -> PitkitState:
        """A world of `player`'s information set in `state`."""
        return resample(state, player, self.rng)


def ismcts_bot(
    game: pyspiel.Game, seed: int, simulations: int = 100, rollouts: int = 1, uct_c: float = 2.0
) -> Any:
    """OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts``) for a
    pitkit game: `simulations` a move, each from a world drawn by `Resampler`
    and scored by `rollouts` random playouts. Its nodes are the acting seat's
    observation strings, since the games have no perfect-recall states."""
    from open_spiel.python.algorithms import ismcts, mcts

    random_state = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(rollouts, random_state),
        uct_c=uct_c,
        max_simulations=simulations,
        random_state=random_state,
        use_observation_string=True,
    )
    bot.set_resampler(Resampler(seed))
    return bot


class PitkitObserver:
    """OpenSpiel's Python observer: `tensor` is the seat's encoding vector;
    with `recall`, there is no tensor and the string is the information state."""

    def __init__(self, encoding: Encoding, recall: bool = False) -> None:
        self.encoding = encoding
        self.recall = recall
        self.tensor = np.zeros(0 if recall else encoding.size, np.float32)
        self.dict = {} if recall else {"observation": self.tensor}

    def set_from(self, state: PitkitState, player: int) -> None:
        """Fill `tensor` with what `player` sees of `state`."""
        if self.recall:
            return
        if state.match is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.encoding.observe(state.match, player)

    def string_from(self, state: PitkitState, player: int) -> str:
        """What `player` sees: the text of its view's main facts; with
        `recall`, everything it has seen, an event a line."""
        if state.match is None:
            return "(not dealt)"
        if self.recall:
            return "\n".join(
                json.dumps(event.seen_by(player), sort_keys=True) for event in state.match.log
            )
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
