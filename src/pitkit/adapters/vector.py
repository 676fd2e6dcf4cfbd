"""Batched environments: N matches of one game stepped in one call, their
observations, masks, rewards and ends written into NumPy arrays made once.

>>> from pitkit.adapters.vector import PitkitVectorEnv
>>> envs = PitkitVectorEnv("pitkit/ace_pit-v0", num_envs=64, short=True, opponent="random")
>>> observations, infos = envs.reset(seed=1)        # (64, 171) float32
>>> masks = envs.action_masks()                     # (64, 1430) bool
>>> actions = masks.argmax(axis=1)                  # each match's lowest legal id
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)

Three forms, all on the same encodings as the single environments:

- `PitkitVectorEnv`, a Gymnasium `VectorEnv`: in each match one seat learns
  and pitkit bots play the others, as `PitkitGym` does (Pit: a tick a step).
- `PitkitVectorAEC`, every seat of a turn-based game: each step moves, in
  every match, the seat to act (`to_act`, one seat index a match), as the
  PettingZoo AEC environment's `step` does.
- `PitkitVectorParallel`, every seat of real-time Pit: each step is a tick
  of every match, every seat sending an id, as the Parallel environment's.

Match i of a batch reset with ``seed=s`` is dealt from seed ``s + i``, and
each later match of it from the seed after (`Seeds`): the same matches as N
single environments reset so, and the same seed gives the same arrays. A
match that ends is dealt again on the next step (Gymnasium's next-step
autoreset: that step's action for it is ignored, and it returns the new
match's first observation with reward 0), or on the same step with
``autoreset_mode=AutoresetMode.SAME_STEP`` (the final observation then in
``infos["final_obs"]``). The arrays returned are the batch's own, written
over by the next step: copy what must be kept, or make the batch with
``copy=True``. An action array of the wrong shape, or an id its row's
mask excludes (for a match not being dealt again), is refused with an
error before any match moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from pitkit import games
from pitkit.adapters import encoding as encoding_of
from pitkit.adapters.encoding import Encoding, Observation, entries, flags, ranks_reward
from pitkit.adapters.envs import PitkitParallel, Seeds
from pitkit.adapters.gym import SeatMatch, check_opponent, check_seat
from pitkit.core.actions import Action
from pitkit.core.errors import IllegalActionError
from pitkit.core.match import Match

__all__ = ["PitkitVectorAEC", "PitkitVectorEnv", "PitkitVectorParallel"]

Actions = npt.NDArray[np.integer[Any]]
Legal = tuple[list[int], list[Action]]
"""A row's legal ids, and the action of each, in the same order."""
_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)


class _Batch:
    """What the batches share: one encoding, the rows of observations and
    masks (one a match, or one a seat of each match), written in place."""

    num_envs: int
    copy: bool
    _ended: list[bool]
    encoding: Encoding
    observations: Observation
    masks: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float64]
    terminations: npt.NDArray[np.bool_]
    truncations: npt.NDArray[np.bool_]
    autoreset_mode: AutoresetMode

    def _buffers(self, encoding: Encoding, num_envs: int, *seats: int) -> None:
        """Rows for `num_envs` matches (times `seats`, if given)."""
        self.encoding = encoding
        self.observations = np.zeros((num_envs, *seats, encoding.size), np.float32)
        self.masks = np.zeros((num_envs, *seats, encoding.actions), np.bool_)
        self._entries = entries(self.observations)
        self._flags = flags(self.masks)
        rows = num_envs * (seats[0] if seats else 1)
        self._legal: list[Legal] = [([], [])] * rows

    def _clear(self) -> None:
        """Zero every row, before a step writes them all again."""
        self.observations.fill(0.0)
        self.masks.fill(False)

    def _write(self, row: int, match: Match[Any, Any], seat: int) -> None:
        """Row `row`: what `seat` sees of `match`, and its legal ids."""
        encoding = self.encoding
        encoding.observe_into(match, seat, self._entries, row * encoding.size)
        self._legal[row] = encoding.mask_into(match, seat, self._flags, row * encoding.actions)

    def _ids(self, actions: Any, shape: tuple[int, ...]) -> list[Any]:
        """`actions` as (nested) lists of ints, if an integer array of `shape`."""
        array = np.asarray(actions)
        if array.shape != shape or array.dtype.kind not in "iu":
            raise ValueError(
                f"expected an integer array of shape {shape}, not {array.dtype} {array.shape}"
            )
        ids: list[Any] = array.tolist()
        return ids

    def _move(self, row: int, action_id: int) -> Action | None:
        """The action of `action_id` in row `row` (None: an id `always`
        legal, Pit's wait), or an `IllegalActionError` saying why not."""
        ids, legal = self._legal[row]
        try:
            return legal[ids.index(action_id)]
        except ValueError:
            if action_id in self.encoding.always:
                return None
            shown = ", ".join(map(str, sorted(ids)[:12])) + (", ..." if len(ids) > 12 else "")
            raise IllegalActionError(
                f"{self._where(row)}: action id {action_id} is not legal now (its mask "
                f"allows: {shown or 'none'}); no match was moved"
            ) from None

    def _where(self, row: int) -> str:
        """Which match (and seat) row `row` is, for an error message."""
        return f"match {row}"

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The masks of the rows' legal ids now (the batch's own array)."""
        return self.masks

    # Gymnasium's way of batching infos (a key's values in an array, and a
    # `_key` array of which matches have one), for the multi-agent forms too.
    _add_info: Any = VectorEnv._add_info

    def _end_step(self, ends: list[bool], cuts: list[bool]) -> dict[str, Any]:
        """Which matches ended (`ends`) or were cut short (`cuts`) this step; under
        same-step autoreset they are dealt again at once, and what they ended with
        is returned for the infos (`_finals`)."""
        self._ended = [a or b for a, b in zip(ends, cuts, strict=True)]
        self.terminations[:], self.truncations[:] = ends, cuts
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            return self._finals(self.terminations | self.truncations)
        return {}

    def _result(self, infos: dict[str, Any]) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """A step's answer: observations, rewards, terminations, truncations, infos."""
        return (
            self._out(self.observations),
            self._out(self.rewards),
            self._out(self.terminations),
            self._out(self.truncations),
            infos,
        )

    def _finals(self, ended: npt.NDArray[np.bool_]) -> dict[str, Any]:
        """Same-step autoreset: each match that `ended`, its last rows kept
        in the infos (``final_obs``, ``final_info``), dealt again."""
        finals: dict[str, Any] = {}
        for i in np.flatnonzero(ended).tolist():
            info = {**self._final_info(i), "action_mask": self.masks[i].copy()}
            final = {"final_obs": self.observations[i].copy(), "final_info": info}
            finals = self._add_info(finals, final, i)
            self.observations[i] = 0.0
            self.masks[i] = False
            self._redeal(i)
            self._ended[i] = False
        return finals

    def _final_info(self, i: int) -> dict[str, Any]:
        """What ``final_info`` says of match i besides its mask."""
        return {}

    def _redeal(self, i: int) -> None:
        """Deal match i again from its next seed, and write its rows."""
        raise NotImplementedError

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array


def _mode(autoreset_mode: AutoresetMode | str) -> AutoresetMode:
    mode = AutoresetMode(autoreset_mode)
    if mode not in _MODES:
        raise ValueError(f"autoreset_mode is next-step or same-step, not {mode.value}")
    return mode


def _batch_size(num_envs: int) -> int:
    if num_envs < 1:
        raise ValueError(f"a batch holds one match or more, not {num_envs}")
    return num_envs


class PitkitVectorEnv(_Batch, VectorEnv[Observation, Actions, npt.NDArray[Any]]):
    """`num_envs` matches of one game, in each of which seat `seat` learns
    against bots (`PitkitGym`'s keywords), as a Gymnasium `VectorEnv`.
    ``step(actions)`` takes one id a match, shape ``(num_envs,)``; the
    masks come from `action_masks()` and in ``infos["action_mask"]``."""

    def __init__(
        self,
        name: str,
        num_envs: int = 1,
        *,
        seat: int = 0,
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        short: bool = False,
        opponent: str | None = None,
        max_steps: int | None = 10_000,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = False,
    ) -> None:
        self.num_envs = _batch_size(num_envs)
        self.copy = copy
        zoos = [
            PitkitParallel(encoding_of(name), players, rules, short=short, max_ticks=None)
            for _ in range(num_envs)
        ]
        self.game = zoos[0].game
        self.seat = check_seat(seat, zoos[0].encoding.players)
        self.opponent = check_opponent(self.game, opponent)
        self.autoreset_mode = _mode(autoreset_mode)
        self.plays = [SeatMatch(zoo, seat, self.opponent, max_steps) for zoo in zoos]
        self._buffers(zoos[0].encoding, num_envs)
        size, actions = self.encoding.size, self.encoding.actions
        self.single_observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.observation_space = spaces.Box(-np.inf, np.inf, (num_envs, size), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.rewards = np.zeros(num_envs, np.float64)
        self.terminations = np.zeros(num_envs, np.bool_)
        self.truncations = np.zeros(num_envs, np.bool_)
        self._ended = [False] * num_envs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal every match again: match i from ``seed + i`` (None: each from its next seed)."""
        super().reset(seed=seed)
        self._clear()
        for i, play in enumerate(self.plays):
            play.deal(None if seed is None else seed + i)
            self._write(i, play.match, self.seat)
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        self._ended = [False] * self.num_envs
        return self._out(self.observations), self._infos()

    def step(
        self, actions: Actions
    ) -> tuple[Observation, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Each match's seat plays its id (ignored for a match being dealt
        again), then the bots theirs; every row written anew."""
        ids = self._ids(actions, (self.num_envs,))
        ended = self._ended
        moves = [None if ended[i] else self._move(i, a) for i, a in enumerate(ids)]
        self._clear()
        rewards = [0.0] * self.num_envs
        ends, cuts = [False] * self.num_envs, [False] * self.num_envs
        for i, play in enumerate(self.plays):
            if ended[i]:
                self._redeal(i)
                continue
            rewards[i], ends[i], cuts[i] = play.play(moves[i])
            self._write(i, play.match, self.seat)
        self.rewards[:] = rewards
        finals = self._end_step(ends, cuts)
        infos = self._infos()
        infos.update(finals)
        return self._result(infos)

    def _redeal(self, i: int) -> None:
        play = self.plays[i]
        play.deal(None)
        self._write(i, play.match, self.seat)

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._out(self.masks),
            "_action_mask": np.ones(self.num_envs, np.bool_),
        }


class PitkitVectorAEC(_Batch):
    """Every seat of `num_envs` matches of a turn-based game (the AEC
    environment's keywords). Each step moves the seat to act in each match;
    `to_act` holds those seats (when several may act, the lowest), the rows
    of `observations` and `masks` are theirs, and `rewards` has a column a
    seat: every seat's reward this step (non-zero when a match ends)."""

    def __init__(
        self,
        name: str,
        num_envs: int = 1,
        *,
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        short: bool = False,
        max_steps: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = False,
    ) -> None:
        self.num_envs = _batch_size(num_envs)
        chosen = encoding_of(name)
        self.game = games.get(chosen.game)
        if self.game.realtime:
            raise ValueError(f"{name} is played in real time: use PitkitVectorParallel")
        n = players if players is not None else self.game.default_players
        self.rules = self.game.make_rules(
            {**(chosen.short_rules() if short else {}), **(rules or {})}
        )
        self.matches = [self.game.new_match(n, self.rules, 0) for _ in range(num_envs)]
        self.max_steps = max_steps
        self.autoreset_mode = _mode(autoreset_mode)
        self.copy = copy
        self._buffers(chosen(n), num_envs)
        self.to_act = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, n), np.float64)
        self.terminations = np.zeros(num_envs, np.bool_)
        self.truncations = np.zeros(num_envs, np.bool_)
        self._seeds = [Seeds() for _ in range(num_envs)]
        self._seats = [0] * num_envs
        self._steps = [0] * num_envs
        self._ended = [False] * num_envs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal every match again: match i from ``seed + i`` (None: each from its next seed)."""
        self._clear()
        for i in range(self.num_envs):
            self._deal(i, None if seed is None else seed + i)
        self.to_act[:] = self._seats
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        self._ended = [False] * self.num_envs
        return self._out(self.observations), self._infos()

    def step(
        self, actions: Actions
    ) -> tuple[Observation, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """The seat to act in each match plays its id (ignored for a match
        being dealt again); every row written anew, for the next seat to act."""
        ids = self._ids(actions, (self.num_envs,))
        ended = self._ended
        moves = [None if ended[i] else self._move(i, a) for i, a in enumerate(ids)]
        self._clear()
        self.rewards.fill(0.0)
        seats, steps = self._seats, self._steps
        ends, cuts = [False] * self.num_envs, [False] * self.num_envs
        for i, match in enumerate(self.matches):
            if ended[i]:
                self._redeal(i)
                continue
            seat = seats[i]
            match.step(seat, moves[i])  # legal, as its mask said: no need to check again
            steps[i] += 1
            if match.is_over:
                outcome = match.outcome
                assert outcome is not None
                self.rewards[i] = ranks_reward(outcome.ranks)
                ends[i] = True
            elif self.max_steps is not None and steps[i] >= self.max_steps:
                cuts[i] = True
            else:
                seat = seats[i] = min(match.to_act)
            self._write(i, match, seat)
        finals = self._end_step(ends, cuts)
        self.to_act[:] = seats
        infos = self._infos()
        infos.update(finals)
        return self._result(infos)

    def _where(self, row: int) -> str:
        return f"match {row} (seat {self._seats[row]})"

    def _deal(self, i: int, seed: int | None) -> None:
        """Match i dealt again from `seed` (None: its next seed), and its row."""
        match = self.game.new_match(self.encoding.players, self.rules, self._seeds[i].next(seed))
        self.matches[i] = match
        self._steps[i] = 0
        seat = self._seats[i] = min(match.to_act)
        self._write(i, match, seat)

    def _final_info(self, i: int) -> dict[str, Any]:
        return {"to_act": self._seats[i]}

    def _redeal(self, i: int) -> None:
        self._deal(i, None)

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._out(self.masks), "to_act": self._out(self.to_act)}


class PitkitVectorParallel(_Batch):
    """Every seat of `num_envs` matches of real-time Pit (the Parallel
    environment's keywords). Each step is a tick of every match: `actions`
    has a row a match and a column a seat, as `observations`, `masks` and
    `rewards` do (shapes ``(num_envs, players, ...)``). An id its mask
    allows may still lose its race (an offer taken first): it is refused,
    changes nothing, and ``infos["refused"][i]`` says why, by seat."""

    def __init__(
        self,
        name: str,
        num_envs: int = 1,
        *,
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        short: bool = False,
        max_ticks: int | None = 10_000,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = False,
    ) -> None:
        self.num_envs = _batch_size(num_envs)
        self.copy = copy
        chosen = encoding_of(name)
        if not games.get(chosen.game).realtime:
            raise ValueError(f"{name} is turn-based: use PitkitVectorAEC")
        self.zoos = [
            PitkitParallel(chosen, players, rules, short=short, max_ticks=max_ticks)
            for _ in range(num_envs)
        ]
        self.players = self.zoos[0].encoding.players
        self.max_ticks = max_ticks
        self.autoreset_mode = _mode(autoreset_mode)
        self._buffers(self.zoos[0].encoding, num_envs, self.players)
        self.rewards = np.zeros((num_envs, self.players), np.float64)
        self.terminations = np.zeros(num_envs, np.bool_)
        self.truncations = np.zeros(num_envs, np.bool_)
        self._ended = [False] * num_envs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal every match again: match i from ``seed + i`` (None: each from its next seed)."""
        self._clear()
        for i, zoo in enumerate(self.zoos):
            zoo.deal_match(None if seed is None else seed + i)
            self._write_seats(i)
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        self._ended = [False] * self.num_envs
        return self._out(self.observations), {"action_mask": self._out(self.masks)}

    def step(
        self, actions: Actions
    ) -> tuple[Observation, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """A tick of every match (ignored for a match being dealt again):
        each seat's id, those not waiting arriving in a shuffled order."""
        n = self.players
        ids = self._ids(actions, (self.num_envs, n))
        ended = self._ended
        moves = [
            []
            if ended[i]
            else [
                (s, move) for s in range(n) if (move := self._move(i * n + s, row[s])) is not None
            ]
            for i, row in enumerate(ids)
        ]
        self._clear()
        self.rewards.fill(0.0)
        refused: list[dict[int, str]] = [{} for _ in range(self.num_envs)]
        ends, cuts = [False] * self.num_envs, [False] * self.num_envs
        for i, zoo in enumerate(self.zoos):
            if ended[i]:
                self._redeal(i)
                continue
            refused[i] = zoo.tick(moves[i])
            match = zoo.match
            if match.is_over:
                outcome = match.outcome
                assert outcome is not None
                self.rewards[i] = ranks_reward(outcome.ranks)
                ends[i] = True
            else:
                cuts[i] = self.max_ticks is not None and zoo.ticks >= self.max_ticks
            self._write_seats(i)
        finals = self._end_step(ends, cuts)
        infos: dict[str, Any] = {"action_mask": self._out(self.masks), "refused": refused}
        infos.update(finals)
        return self._result(infos)

    def _redeal(self, i: int) -> None:
        self.zoos[i].deal_match(None)
        self._write_seats(i)

    def _where(self, row: int) -> str:
        match, seat = divmod(row, self.players)
        return f"match {match}, seat {seat}"

    def _write_seats(self, i: int) -> None:
        match, n = self.zoos[i].match, self.players
        for seat in range(n):
            self._write(i * n + seat, match, seat)
