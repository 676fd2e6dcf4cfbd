"""PettingZoo environments: an AEC one for each turn-based game, a Parallel
one for real-time Pit. Both play a pitkit match through its `Encoding`.

Agents are named ``player_0`` ... by seat. Observations are dicts
``{"observation": float32 vector, "action_mask": int8 vector}``. The reward
comes once, at the end of the match, from the seats' places
(`ranks_reward`: +1 first, -1 last). `reset(seed=...)` seeds the match, and
so every shuffle; a reset without a seed draws the next match's seed from
the last seed given.

`state()` is the critic's view, for centralised training: every seat's
observation side by side, so every hand. It is never part of a seat's
observation.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from pitkit import games
from pitkit.adapters.encoding import Encoding, Mask, Observation, ranks_reward
from pitkit.core.actions import Action
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.play.realtime import TradingPit

__all__ = [
    "WAIT",
    "ObsDict",
    "PitkitAEC",
    "PitkitParallel",
    "Seeds",
    "observation_space",
    "state_space",
]

WAIT = 0
"""Pit's id 0: do nothing this tick (always legal)."""

ObsDict = dict[str, Observation | Mask]


def observation_space(encoding: Encoding) -> spaces.Dict:
    """The space of `encoding`'s observation dicts."""
    return spaces.Dict(
        {
            # Scores may run below zero (Pitch, chips); the rest is 0-1.
            "observation": spaces.Box(-np.inf, np.inf, (encoding.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.actions,), np.int8),
        }
    )


def state_space(encoding: Encoding) -> spaces.Box:
    """The space of `encoding`'s global states (`_MatchEnv.state`): one
    observation a seat of the game's largest table."""
    return spaces.Box(-np.inf, np.inf, (encoding.max_players * encoding.size,), np.float32)


class Seeds:
    """The seeds of successive matches: the one `reset` was given, else the
    next from the last one given (fresh entropy if none ever was)."""

    def __init__(self) -> None:
        self._rng: random.Random | None = None

    def next(self, seed: int | None) -> int:
        """The seed of the next match."""
        if seed is not None:
            self._rng = random.Random(seed)
            return seed
        if self._rng is None:
            self._rng = random.Random()
        return self._rng.getrandbits(63)


class _MatchEnv:
    """What both kinds of environment share: the game, its encoding, the match."""

    def _setup(
        self,
        encoding: type[Encoding],
        players: int | None,
        rules: Mapping[str, Any] | None,
        short: bool,
    ) -> None:
        self.game: Game = games.get(encoding.game)
        n = players if players is not None else self.game.default_players
        self.encoding = encoding(n)
        # Made once: a match dealt from a dict of options would check them again.
        self.rules = self.game.make_rules(
            {**(encoding.short_rules() if short else {}), **(rules or {})}
        )
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            a: observation_space(self.encoding) for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Discrete(self.encoding.actions) for a in self.possible_agents
        }
        self.state_space = state_space(self.encoding)
        self.seeds = Seeds()
        self.render_mode: str | None = None
        # A first match, so that bad options fail here rather than at `reset`.
        self.match: Match[Any, Any] = self.game.new_match(n, self.rules, 0)

    def _new_match(self, seed: int | None) -> None:
        self.match = self.game.new_match(
            len(self.possible_agents), self.rules, self.seeds.next(seed)
        )

    def _observe(self, seat: int) -> ObsDict:
        return {
            "observation": self.encoding.observe(self.match, seat),
            "action_mask": self.encoding.mask(self.match, seat),
        }

    def _final_rewards(self) -> dict[str, float]:
        outcome = self.match.outcome
        assert outcome is not None
        return dict(zip(self.possible_agents, ranks_reward(outcome.ranks), strict=True))

    def state(self) -> Observation:
        """The whole table, for a centralised critic only (never give it to a
        seat's policy): each seat's observation in seat order, seat 0 first,
        zeros for the seats a smaller table lacks. It shows every hand, and
        what each seat knows; not the order of a stock, which no seat sees."""
        size = self.encoding.size
        whole = np.zeros(self.encoding.max_players * size, np.float32)
        for seat in range(len(self.possible_agents)):
            whole[seat * size : (seat + 1) * size] = self.encoding.observe(self.match, seat)
        return whole

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of `agent`'s observation dicts (the same object each time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The ids of `agent`'s moves (the same object each time)."""
        return self.action_spaces[agent]

    def render(self) -> str | None:
        """The table as a spectator sees it, as text (render mode ``ansi``)."""
        if self.render_mode != "ansi":
            return None
        return self.game.render(self.match.view(None))

    def close(self) -> None:
        """Nothing to release."""


class PitkitAEC(_MatchEnv, AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """A turn-based pitkit game as a PettingZoo AEC environment. When
    several seats may act at once (Pits' exchange), the lowest acts first."""

    def __init__(
        self,
        encoding: type[Encoding],
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        *,
        short: bool = False,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._setup(encoding, players, rules, short)
        self.metadata = {
            "name": encoding.env_name,
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.steps = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_match(seed)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._to_act()

    def _to_act(self) -> str:
        return self.possible_agents[min(self.match.to_act)]

    def observe(self, agent: str) -> ObsDict:
        return self._observe(self.seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents that are done")
        seat = self.seat[agent]
        move = self.encoding.decode(self.match, seat, int(action))
        self.match.apply(seat, move)  # IllegalActionError, with the reason, if it is not legal
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.steps += 1
        if self.match.is_over:
            self.rewards = self._final_rewards()
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        if self.match.is_over or any(self.truncations.values()):
            self.agent_selection = agent
        else:
            self.agent_selection = self._to_act()
        self._accumulate_rewards()


class PitkitParallel(_MatchEnv, ParallelEnv[str, ObsDict, int]):  # type: ignore[misc]
    """Real-time Pit as a PettingZoo Parallel environment. One step is one
    tick of a virtual clock: every seat decides on what it saw at the start
    of the tick, and the actions arrive in an order shuffled from the seed,
    as races at a real table do. An action that lost its race (an offer
    taken by someone else first, a hand already cornered), or whose id is
    not legal (masked out), is refused and changes nothing;
    `infos[agent]["refused"]` says why. Id 0, "wait", is always legal."""

    def __init__(
        self,
        encoding: type[Encoding],
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        *,
        short: bool = False,
        max_ticks: int | None = 10_000,
        render_mode: str | None = None,
    ) -> None:
        self._setup(encoding, players, rules, short)
        self.metadata = {"name": encoding.env_name, "render_modes": ["ansi"]}
        self.render_mode = render_mode
        self.max_ticks = max_ticks
        self.ticks = 0
        self.agents: list[str] = []
        self._arrivals = random.Random(0)
        self.table = TradingPit(self.match, self._clock)

    def _clock(self) -> float:
        return float(self.ticks)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        self.deal_match(seed)
        self.agents = list(self.possible_agents)
        return {a: self._observe(self.seat[a]) for a in self.agents}, {a: {} for a in self.agents}

    def deal_match(self, seed: int | None) -> None:
        """`reset` without the observations: a new match from `seed` (None:
        the next seed), and for real-time Pit its table and arrival order.
        The Gymnasium and batched environments play their matches so."""
        self._new_match(seed)
        self.ticks = 0
        if self.game.realtime:
            # The arrival order comes from the match's seed too, by its own stream.
            self._arrivals = random.Random(f"arrivals {self.match.chance.seed}")
            self.table = TradingPit(self.match, self._clock)

    def step(self, actions: dict[str, int]) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:  # fmt: skip
        # Decided on what each seat saw at the start of the tick.
        moves: list[tuple[int, Action]] = []
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        for agent in self.agents:
            action_id = int(actions.get(agent, WAIT))
            if action_id == WAIT:
                continue
            seat = self.seat[agent]
            # An id not legal now is refused, as a table refuses a move
            # that lost its race: a real-time seat acts on what it saw.
            try:
                move = self.encoding.decode(self.match, seat, action_id)
            except ValueError as exc:
                infos[agent]["refused"] = str(exc)
                continue
            if move not in self.match.legal_actions(seat):
                infos[agent]["refused"] = f"{move} is not legal now"
                continue
            moves.append((seat, move))
        for seat, reason in self.tick(moves).items():
            infos[self.possible_agents[seat]]["refused"] = reason
        over = self.match.is_over
        rewards = self._final_rewards() if over else dict.fromkeys(self.agents, 0.0)
        cut = not over and self.max_ticks is not None and self.ticks >= self.max_ticks
        observations = {a: self._observe(self.seat[a]) for a in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut)
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def tick(self, moves: list[tuple[int, Action]]) -> dict[int, str]:
        """One tick: `moves` (seat, action) arrive in a shuffled order; the
        reasons the refused ones were refused, by seat."""
        hand = self.table.hand_number
        moves = list(moves)
        self._arrivals.shuffle(moves)
        refused: dict[int, str] = {}
        for seat, move in moves:
            if self.match.is_over:
                refused[seat] = "the match is over"
                continue
            arrival = self.table.submit(seat, move, hand)
            if not arrival.accepted:
                refused[seat] = arrival.reason or "refused"
        self.ticks += 1
        return refused
