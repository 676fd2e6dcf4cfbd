"""The turn-based games as OpenSpiel Python games (the ``openspiel`` extra).

>>> import pyspiel
>>> from pitkit.adapters import openspiel
>>> openspiel.register()
>>> game = pyspiel.load_game("python_pitkit_ace_pit", {"hands": 1})

Each game is registered as ``python_pitkit_<game>`` (``pits``, ``ace_pit``,
``pitty_pat``, ``pitch``) with five parameters: ``players`` (the game's
usual number), ``hands`` (1): a match of that many hands; ``recall``, the
most moves a hand may fill of the information-state tensor; ``rules``, rule
options as ``name:value`` words (none: the defaults); and ``chance``,
``seed`` or ``deals``. Real-time Pit has no turns, and so no OpenSpiel game.

Chance is explicit. By default (``chance=seed``) the first `SEED_BYTES`
moves of every game are chance's, each a byte of the match's 64-bit seed,
256 outcomes uniformly; every shuffle of the match then follows from the
seed inside pitkit's `Chance`, exactly as pitkit deals a match from a seed.
A history of ids replays to the same state (serialization, cloning), and
each chance node lists 256 outcomes, built once. Why not a sampled chance
node: OpenSpiel cannot serialize or pickle a Python game with sampled
chance (its Python games have no generator state to save). Why not a
chance node a card: the engines deal inside their states.

With ``chance=deals`` (one hand of a cut deck: the tiny variants, `TINY`,
`load_tiny`) the first move is chance's only one, listing every distinct
deal with its probability (`pitkit.adapters.table.Deals`), so that exact
CFR and ``exploitability`` walk the whole tree; `bot_policy` makes a pitkit
bot a policy of such a game.

A state's Python side is one `Table`: OpenSpiel's ``clone()`` deep-copies
it, which copies only the match (about 10 µs; see `pitkit.adapters.table`).

Information is imperfect; utilities are zero-sum (`ranks_reward`: +1 first,
-1 last, the sum 0), given at the end. The observer gives the acting seat's
`Encoding` vector, the same as the PettingZoo environments'. The
information state (perfect recall) is a string: the seat, then every event
of the match as the seat saw it, in order (`Event.seen_by`), one JSON object
a line; and
a tensor: the seat's observation after each move, a row a move, up to
``hands * recall`` moves (`RecallBoundError` beyond).

Search over information sets: `resample` deals a state's hidden cards
anew with the game's own sampler (`Game.sample_unseen`), keeping to all the
seat knows, and `ismcts_bot` gives OpenSpiel's Python ISMCTS that resampler
(OpenSpiel's C++ ``pyspiel.ISMCTSBot`` crashes on Python games), able to
play in ``evaluate_bots``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import ismcts, mcts

from pitkit import games
from pitkit.adapters.acepit import AcePitEncoding
from pitkit.adapters.encoding import Encoding, ranks_reward
from pitkit.adapters.pitch import PitchEncoding
from pitkit.adapters.pits import PitsEncoding
from pitkit.adapters.pittypat import PittyPatEncoding
from pitkit.adapters.table import (
    SEED_BYTES,
    SEEDS,
    RecallBoundError,
    Setup,
    Table,
    default_recall,
    seed_bytes,
    setup,
)
from pitkit.core.game import Bot
from pitkit.core.match import Match

__all__ = [
    "GAMES",
    "SEEDS",
    "SEED_BYTES",
    "TINY",
    "AcePitGame",
    "PitchGame",
    "PitkitGame",
    "PitkitISMCTSBot",
    "PitkitObserver",
    "PitkitState",
    "PitsGame",
    "PittyPatGame",
    "RecallBoundError",
    "Resampler",
    "bot_policy",
    "game_name",
    "ismcts_bot",
    "load_tiny",
    "register",
    "resample",
    "seed_bytes",
    "setup_of",
]


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
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": game.default_players,
            "hands": 1,
            "recall": default_recall(encoding),
            "rules": "",
            "chance": "seed",
        },
    )


def _setup(game: str, params: dict[str, Any]) -> Setup:
    players, hands, recall = (int(params[k]) for k in ("players", "hands", "recall"))
    if recall < 1:
        raise ValueError(f"recall is the moves a hand may fill of the tensor: {recall} < 1")
    return setup(game, players, hands, recall, str(params["rules"]), str(params["chance"]))


def setup_of(game: pyspiel.Game) -> Setup:
    """The `Setup` of a loaded pitkit game."""
    name = game.get_type().short_name
    encoding = next(cls.encoding_type for cls in GAMES if game_name(cls.encoding_type) == name)
    return _setup(encoding.game, game.get_parameters())


class PitkitGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """A pitkit game as an OpenSpiel game (see the module's docstring)."""

    encoding_type: type[Encoding]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type = _game_type(self.encoding_type)
        params = {**game_type.parameter_specification, **(params or {})}
        chosen = _setup(self.encoding_type.game, params)
        hands = int(params["hands"])
        info = pyspiel.GameInfo(
            num_distinct_actions=chosen.encoding.actions,
            max_chance_outcomes=len(chosen.chance_outcomes),
            num_players=chosen.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=chosen.chance_moves + hands * chosen.encoding.most_moves(chosen.rules),
        )
        super().__init__(game_type, info, params)
        self._setup = chosen

    @property
    def setup(self) -> Setup:
        """The game's pitkit setup. From its parameters when the game has
        lost its Python attributes (an unpickled game has: OpenSpiel makes
        it anew from its name and parameters, and keeps only the C++ part)."""
        known: Setup | None = self.__dict__.get("_setup")
        if known is None:
            known = self._setup = setup_of(self)
        return known

    def new_initial_state(self) -> PitkitState:
        """A match before chance has drawn its seed."""
        return PitkitState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PitkitObserver:
        """The observer of a seat's encoding vector, or with perfect recall
        asked for, of its information state (string and tensor)."""
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return PitkitObserver(self.setup, recall)


class PitkitState(pyspiel.State):  # type: ignore[misc]
    """A match in progress, on a `Table`; None until chance draws its seed."""

    def __init__(self, game: PitkitGame) -> None:
        super().__init__(game)
        # The one Python attribute: OpenSpiel's clone deep-copies each, and
        # a table copies only its match.
        self.table = Table(game.setup)

    @property
    def setup(self) -> Setup:
        """The game's pitkit setup."""
        return self.table.setup

    @property
    def match(self) -> Match[Any, Any] | None:
        """The match, once dealt."""
        return self.table.match

    def current_player(self) -> int:
        match = self.table.match
        if match is None:
            return int(pyspiel.PlayerId.CHANCE)
        if match.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        # Several seats may act at once in Pits' exchange: the lowest first.
        return min(match.to_act)

    def _legal_actions(self, player: int) -> list[int]:
        match = self.table.match
        assert match is not None
        encoding = self.table.setup.encoding
        return sorted(encoding.encode(match, player, a) for a in match.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        # A copy a caller may change, of one built once.
        return list(self.table.setup.chance_outcomes)

    def _apply_action(self, action: int) -> None:
        self.table.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        match = self.table.match
        if player == pyspiel.PlayerId.CHANCE or match is None:
            if self.table.setup.deals is not None:
                return f"deal {action}"
            return f"seed byte {self.table.drawn + 1}: {action}"
        return str(self.table.setup.encoding.decode(match, player, int(action)))

    def is_terminal(self) -> bool:
        match = self.table.match
        return match is not None and match.is_over

    def returns(self) -> list[float]:
        match = self.table.match
        outcome = None if match is None else match.outcome
        if outcome is None:
            return [0.0] * self.table.setup.players
        return ranks_reward(outcome.ranks)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> PitkitState:
        """`resample` with a generator seeded from OpenSpiel's sampler (a
        callable giving a float in [0, 1)), as OpenSpiel's algorithms call it."""
        return resample(self, player, random.Random(int(probability_sampler() * 2**53)))

    def __str__(self) -> str:
        table = self.table
        if table.match is None:
            if table.setup.deals is not None:
                return f"(dealing: one of {len(table.setup.deals.outcomes)} deals)"
            return f"(dealing: {table.drawn} of {SEED_BYTES} seed bytes drawn)"
        return table.setup.game.render(table.match.view(None))


def resample(state: PitkitState, player: int, rng: random.Random) -> PitkitState:
    """A copy of `state` in which the cards `player` cannot see are dealt
    anew by the game's sampler (`Game.sample_unseen`), consistently with
    everything `player` knows, and the rest of the match's chance drawn from
    `rng`: a world of `player`'s information set. `player` sees the same
    observation, and has the same information state, in it. Its history
    still begins with the true seed: it is for search, not for serializing."""
    world: PitkitState = state.clone()
    table = state.table
    if table.match is not None:
        match = table.setup.game.sample_unseen(table.match, player, rng)
        world.table = table.world(match, state.history())
    return world


class Resampler:
    """What ISMCTS's ``set_resampler`` takes: ``resampler(state, player)``,
    `resample` with a generator of its own seed, so searches repeat."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: PitkitState, player: int) -> PitkitState:
        """A world of `player`'s information set in `state`."""
        return resample(state, player, self.rng)


class PitkitISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS, able to play in ``evaluate_bots``: each
    move's search starts afresh, so restarting at a state is nothing to do
    (OpenSpiel's bot refuses ``restart_at``)."""

    def restart_at(self, state: PitkitState) -> None:
        """Forget any search: the next `step` searches from its own state."""
        self.reset()


def ismcts_bot(
    game: pyspiel.Game, seed: int, simulations: int = 100, rollouts: int = 1, uct_c: float = 2.0
) -> PitkitISMCTSBot:
    """OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts``) for a
    pitkit game: `simulations` a move, each from a world drawn by `Resampler`
    and scored by `rollouts` random playouts. Its nodes are the acting seat's
    observation strings (shorter to build and hash than the information state)."""
    random_state = np.random.RandomState(seed)
    bot = PitkitISMCTSBot(
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
    with `recall`, the information state: the tensor of the seat's
    observations after every move (`Table.tensor`) and the string of every
    event it saw."""

    def __init__(self, setup: Setup, recall: bool = False) -> None:
        self.encoding = setup.encoding
        self.recall = recall
        rows = setup.moves + 1 if recall else 1
        self.tensor = np.zeros(rows * setup.encoding.size, np.float32)
        self.dict = {"information_state" if recall else "observation": self.tensor}

    def set_from(self, state: PitkitState, player: int) -> None:
        """Fill `tensor` with what `player` sees (or has seen) of `state`."""
        match = state.table.match
        if self.recall:
            state.table.tensor(state.history(), player, self.tensor)
        elif match is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.encoding.observe(match, player)

    def string_from(self, state: PitkitState, player: int) -> str:
        """What `player` sees: the text of its view's main facts; with
        `recall`, everything it has seen, an event a line."""
        match = state.table.match
        if match is None:
            return str(state)
        if self.recall:
            return state.table.seen(player)
        view = match.view(player)
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


TINY: dict[str, dict[str, Any]] = {
    "python_pitkit_ace_pit": {
        "rules": "ranks:3 suits:2 cards_each:2",
        "chance": "deals",
        "recall": 14,
    },
    "python_pitkit_pitty_pat": {
        "players": 2,
        "rules": "ranks:3 suits:2 cards_each:1 turn_limit:3",
        "chance": "deals",
        "recall": 6,
    },
    "python_pitkit_pitch": {
        "players": 2,
        "rules": "ranks:2 suits:2 cards_each:1 run_cards:1",
        "chance": "deals",
        "recall": 22,
    },
}
"""The tiny variants: one hand of a cut deck, every deal listed, small enough
for exact CFR and exploitability (docs/learning.md, *Tiny variants, solved*;
the rules pages say what each cuts). Each ``recall`` is the hand's most
moves (`Encoding.most_moves`): OpenSpiel's `TabularPolicy` keeps every
information state's tensor, which the full games' bound would make a
gigabyte or more."""


def load_tiny(name: str, **params: Any) -> pyspiel.Game:
    """The tiny variant of the OpenSpiel game `name` (`TINY`), other
    parameters as given (``rules`` replaces the variant's rule options)."""
    if name not in TINY:
        raise ValueError(f"no tiny variant of {name!r}; the tiny variants are {', '.join(TINY)}")
    register()
    return pyspiel.load_game(name, {**TINY[name], **params})


def bot_policy(
    game: pyspiel.Game, make: Callable[[int], Bot], samples: int = 1, seed: int = 0
) -> openspiel_policy.TabularPolicy:
    """A pitkit bot as a policy of `game` (whose tree can be walked: a tiny
    variant), a table of its choices. At each information state the bot is
    asked `samples` times, each time made anew by `make` from a seed drawn
    from `seed`, the information state and the sample's number (so the
    policy is the same whichever state of the set is asked, and the same
    on every run); each action's probability is its share of the answers.
    A bot that draws nothing at random gives its pure policy; a seeded,
    random one, its empirical mix of `samples` draws. An information state
    with one legal action is not asked."""
    table = openspiel_policy.TabularPolicy(game)
    encoding = setup_of(game).encoding
    for key, state in _information_states(game).items():
        row = table.policy_for_key(key)
        row[:] = 0.0
        legal = state.legal_actions()
        if len(legal) == 1:
            row[legal[0]] = 1.0
            continue
        player = state.current_player()
        match = state.match
        assert match is not None
        for ask in range(samples):
            digest = hashlib.sha256(f"{seed}:{ask}:{key}".encode()).digest()
            bot = make(int.from_bytes(digest[:8], "big"))
            action = encoding.encode(match, player, bot.choose(match.clone(), player))
            row[action] += 1.0 / samples
    return table


def _information_states(game: pyspiel.Game) -> dict[str, PitkitState]:
    """One state of each information set of `game` at which a seat acts,
    by its information-state string: the whole tree walked once."""
    found: dict[str, PitkitState] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            found.setdefault(state.information_state_string(), state)
        stack.extend(state.child(action) for action in state.legal_actions())
    return found


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
