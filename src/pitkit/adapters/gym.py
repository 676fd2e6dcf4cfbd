"""A Gymnasium environment: one seat learns, pitkit bots play the others.

>>> from pitkit.adapters.gym import PitkitGym
>>> env = PitkitGym("pitkit/ace_pit-v0", short=True)
>>> observation, info = env.reset(seed=1)
>>> mask = env.action_masks()  # also info["action_mask"]

Importing this module registers every environment with Gymnasium under
the same names (`register`): ``gymnasium.make("pitkit/pitch-v0", players=4,
short=True)``, or with no import first,
``gymnasium.make("pitkit.adapters.gym:pitkit/pitch-v0", ...)``.

The observation is the seat's `Encoding` vector; the legal ids come as a
mask, from `action_masks()` (the name sb3-contrib's MaskablePPO asks for)
and in `info["action_mask"]`. The other seats are played by the game's
`opponent` bot (or the bot named by `opponent`), each seeded from the
reset's seed. An id the mask excludes changes nothing: the step
returns reward 0 and says why in `info["illegal"]`. A turn-based game
moves on until it is the seat's turn again; real-time Pit moves one tick
a step (the PettingZoo Parallel environment's), in which each bot
decides too and may wait. The reward
comes at the end of the match, from the seat's place (+1 first, -1 last).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

import numpy as np
from gymnasium import Env, spaces
from gymnasium.envs.registration import register as gym_register
from gymnasium.envs.registration import registry

from pitkit import bots as bot_registry
from pitkit.adapters import encoding as encoding_of
from pitkit.adapters import names
from pitkit.adapters.encoding import Mask, Observation, ranks_reward
from pitkit.adapters.envs import WAIT, PitkitParallel, Seeds
from pitkit.core.actions import Action
from pitkit.core.game import Bot, Game
from pitkit.core.match import Match
from pitkit.play.bots import decide

__all__ = ["PitkitGym", "SeatMatch", "check_opponent", "check_seat", "register"]


class SeatMatch:
    """One seat's match against bots, dealt from seeds: what `PitkitGym`
    plays, and each match of a batch (`pitkit.adapters.vector`). `zoo`, the
    PettingZoo environment, holds the match and plays Pit's ticks."""

    def __init__(
        self, zoo: PitkitParallel, seat: int, opponent: str, max_steps: int | None
    ) -> None:
        self.zoo = zoo
        self.game = zoo.game
        self.seat = seat
        self.opponent = opponent
        self.max_steps = max_steps
        self.seeds = Seeds()
        self.bots: dict[int, Bot] = {}
        self.steps = 0

    @property
    def match(self) -> Match[Any, Any]:
        """The match being played."""
        return self.zoo.match

    def deal(self, seed: int | None) -> None:
        """A new match from `seed` (None: the next seed), the bots seeded from
        it, played up to the seat's first move."""
        match_seed = self.seeds.next(seed)
        while True:
            self.zoo.deal_match(match_seed)
            self.bots = {
                s: bot_registry.make(self.game, self.opponent, match_seed + s, imports=True)
                for s in range(self.zoo.encoding.players)
                if s != self.seat
            }
            self.steps = 0
            self._play_bots()
            if not self.match.is_over:
                return
            # The bots finished the match before the seat's first turn (a
            # Pitty Pat player going out at once): the next seed deals again.
            match_seed = self.seeds.next(None)

    def play(self, move: Action | None) -> tuple[float, bool, bool]:
        """The seat's `move`, one of its legal actions (None: Pit's wait),
        then the bots': up to the seat's next turn, or in the same tick in
        Pit. The seat's reward, whether the match is over, and whether it
        was cut short at `max_steps`."""
        self.steps += 1
        match = self.match
        if self.game.realtime:
            moves = [(s, m) for s, m in self._bot_moves() if m is not None]
            if move is not None:
                moves.append((self.seat, move))
            self.zoo.tick(moves)
        else:
            assert move is not None
            match.step(self.seat, move)  # legal: no need to check it again
            self._play_bots()
        if match.is_over:
            outcome = match.outcome
            assert outcome is not None
            return ranks_reward(outcome.ranks)[self.seat], True, False
        return 0.0, False, self._cut()

    def idle(self) -> bool:
        """A step in which nothing happens; whether it cut the match short."""
        self.steps += 1
        return self._cut()

    def _cut(self) -> bool:
        return self.max_steps is not None and self.steps >= self.max_steps

    def _bot_moves(self) -> list[tuple[int, Action | None]]:
        """What each bot sends this tick (None: it waits), decided before any arrives."""
        match = self.match
        to_act = match.to_act
        return [(s, decide(bot, match, s) if s in to_act else None) for s, bot in self.bots.items()]

    def _play_bots(self) -> None:
        """Turn-based games: the bots play until the seat is to act, or the match ends."""
        if self.game.realtime:
            return
        match = self.match
        while not match.is_over and self.seat not in match.to_act:
            seat = min(match.to_act)
            match.apply(seat, self.bots[seat].choose(match, seat))


class PitkitGym(Env[Observation, int]):
    """One seat of a pitkit game against bots."""

    def __init__(
        self,
        name: str,
        *,
        seat: int = 0,
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        short: bool = False,
        opponent: str | None = None,
        max_steps: int | None = 10_000,
        render_mode: str | None = None,
    ) -> None:
        # The PettingZoo environment holds the game, the encoding and the
        # match, and plays Pit's ticks: one driver for both libraries.
        zoo = PitkitParallel(encoding_of(name), players, rules, short=short, max_ticks=None)
        self.game = zoo.game
        self.encoding = zoo.encoding
        self.seat = check_seat(seat, self.encoding.players)
        self.opponent = check_opponent(self.game, opponent)
        self.max_steps = max_steps
        self.metadata = {"render_modes": ["ansi"]}
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.encoding.size,), np.float32)
        self.action_space = spaces.Discrete(self.encoding.actions)
        self._play = SeatMatch(zoo, seat, self.opponent, max_steps)

    @property
    def match(self) -> Match[Any, Any]:
        """The match being played."""
        return self._play.match

    @property
    def steps(self) -> int:
        """The seat's steps in this match."""
        return self._play.steps

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._play.deal(seed)
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.match.is_over:
            raise RuntimeError("the match is over: reset the environment")
        action_id = int(action)
        move = None if action_id == WAIT and self.game.realtime else self._legal(action_id)
        if isinstance(move, str):
            # A masked-out id: nothing happens, and the info says why.
            truncated = self._play.idle()
            return self._observation(), 0.0, False, truncated, {**self._info(), "illegal": move}
        reward, terminated, truncated = self._play.play(move)
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> Mask:
        """1 at each legal action id of the seat now (Pit: waiting always)."""
        return self.encoding.mask(self.match, self.seat)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.game.render(self.match.view(self.seat))

    def _legal(self, action_id: int) -> Action | str:
        """The move of id `action_id`, or why it is not legal now."""
        try:
            move = self.encoding.decode(self.match, self.seat, action_id)
        except ValueError as exc:
            return str(exc)
        if move not in self.match.legal_actions(self.seat):
            return f"action id {action_id} ({move}) is not legal now"
        return move

    def _observation(self) -> Observation:
        return self.encoding.observe(self.match, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}


def check_seat(seat: int, players: int) -> int:
    """`seat`, if the table has it; else a ValueError."""
    if not 0 <= seat < players:
        raise ValueError(f"no seat {seat} at a table of {players}")
    return seat


def check_opponent(game: Game, opponent: str | None) -> str:
    """The bot that plays the other seats: `opponent`, else the game's own.
    An unknown name fails here; the researcher's own (`module:attr`) are welcome."""
    name = opponent or game.opponent
    bot_registry.make(game, name, 0, imports=True)
    return name


def register() -> list[str]:
    """Register every environment with Gymnasium (`gymnasium.make`, and
    `gymnasium.make_vec` for the batched `PitkitVectorEnv`); their names."""
    for name in names():
        if name not in registry:
            gym_register(
                id=name,
                entry_point=f"{__name__}:PitkitGym",
                vector_entry_point="pitkit.adapters.vector:PitkitVectorEnv",
                kwargs={"name": name},
            )
    return names()


register()
