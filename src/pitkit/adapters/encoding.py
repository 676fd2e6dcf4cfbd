"""Fixed-size encodings of what one seat sees, and of its moves, for learning.

An `Encoding` is made for one game and a number of seats. It turns a match
into an observation (a float32 vector, built only from facts the seat may
see: its own cards, the public places of cards, counts and scores shown to
the table) and numbers every move the seat could make with an id below
`actions`. Ids are stable: each game's module lays them out once, in
`moves`, and docs/adapters.md tables them.

Seats in an observation are relative: slot 0 is the observing seat, slot 1
the seat to its left, and so on, padded to the game's largest table, so a
policy learned in one seat plays in any seat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

import numpy as np
import numpy.typing as npt

from pitkit import games
from pitkit.core.actions import Action
from pitkit.core.match import Match

__all__ = ["Encoding", "Layout", "Mask", "Observation", "Row", "Segment", "ranks_reward"]

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Segment(NamedTuple):
    """A named run of an observation's entries, or of the action ids."""

    name: str
    size: int
    doc: str


class Layout(NamedTuple):
    """Segments laid end to end: an observation's layout, or the action ids'."""

    segments: tuple[Segment, ...]

    @property
    def size(self) -> int:
        """The number of entries (or ids) in all."""
        return sum(s.size for s in self.segments)


class Row:
    """An observation being written, segment by segment in the layout's order
    (each write names its segment, so a layout and its writer cannot drift apart)."""

    def __init__(self, layout: Layout) -> None:
        self.data = np.zeros(layout.size, dtype=np.float32)
        self._segments = iter(layout.segments)
        self._at = 0

    def _next(self, name: str) -> tuple[int, int]:
        segment = next(self._segments)
        if segment.name != name:
            raise AssertionError(f"wrote {name!r} where the layout has {segment.name!r}")
        start = self._at
        self._at += segment.size
        return start, segment.size

    def bits(self, name: str, indexes: Iterable[int]) -> None:
        """Set the entries at `indexes` (cards as ints, seats...) to 1."""
        start, size = self._next(name)
        for i in indexes:
            if not 0 <= i < size:
                raise AssertionError(f"{name}: index {i} outside 0-{size - 1}")
            self.data[start + i] = 1.0

    def one_hot(self, name: str, index: int | None) -> None:
        """A one-hot entry (None: all zeros)."""
        self.bits(name, () if index is None else (index,))

    def values(self, name: str, values: Sequence[float]) -> None:
        """Numbers, as they are (callers scale them to about 0-1)."""
        start, size = self._next(name)
        if len(values) > size:
            raise AssertionError(f"{name}: {len(values)} values for {size} entries")
        self.data[start : start + len(values)] = values

    def done(self) -> Observation:
        """The finished observation; every segment must have been written."""
        if next(self._segments, None) is not None:
            raise AssertionError("an observation's layout was not written to the end")
        return self.data


def ranks_reward(ranks: Sequence[int]) -> list[float]:
    """Each seat's reward from its place: +1 for first, -1 for last, evenly
    between; seats sharing a place share the rewards of the places they
    span (a two-seat draw: 0 each). The rewards always add up to 0, in
    every game."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n

    def value(place: int) -> float:  # place 1 to n
        return 1.0 - 2.0 * (place - 1) / (n - 1)

    rewards = []
    for rank in ranks:
        tied = sum(r == rank for r in ranks)
        rewards.append(sum(value(p) for p in range(rank, rank + tied)) / tied)
    return rewards


class Encoding(ABC):
    """One game's observations and action ids, for a table of `players` seats."""

    game: ClassVar[str]
    """The registry name of the game."""
    env_name: ClassVar[str]
    """The environment's name, e.g. ``pitkit/ace_pit-v0``."""
    max_players: ClassVar[int]
    """The largest table: observations are padded to it."""
    short: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Rule options for a short match (tests, quick runs), besides the
    game's own `Game.short_match`: one hand."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.features = Layout(self.layout())
        self.moves = Layout(self.action_layout())

    @classmethod
    def short_rules(cls) -> dict[str, Any]:
        """The rule options of a short match: the game's, then the encoding's."""
        return {**games.get(cls.game).short_match, **cls.short}

    @property
    def size(self) -> int:
        """The length of an observation."""
        return self.features.size

    @property
    def actions(self) -> int:
        """The number of action ids."""
        return self.moves.size

    def tables(self) -> str:
        """The observation's layout and the action ids, as Markdown tables
        (docs/adapters.md holds them, and a test keeps it so)."""
        lines = [f"Observation: {self.size} float32 entries.", ""]
        lines += _markdown(self.features, "entries")
        lines += ["", f"Actions: {self.actions} ids.", ""]
        lines += _markdown(self.moves, "ids")
        return "\n".join(lines)

    def most_moves(self, rules: Any) -> int:
        """The most moves a hand can take under `rules` (a bound for
        OpenSpiel's `max_game_length`); turn-based games only."""
        raise NotImplementedError(f"{self.game} has no bound on a hand's moves")

    @abstractmethod
    def layout(self) -> tuple[Segment, ...]:
        """The observation's segments, in order."""

    @abstractmethod
    def action_layout(self) -> tuple[Segment, ...]:
        """The action ids' segments, in order."""

    @abstractmethod
    def observe(self, match: Match[Any, Any], seat: int) -> Observation:
        """What `seat` sees of `match`, as a vector of `size` float32 entries."""

    @abstractmethod
    def encode(self, match: Match[Any, Any], seat: int, action: Action) -> int:
        """The id of `action`, one of `seat`'s legal actions now."""

    @abstractmethod
    def decode(self, match: Match[Any, Any], seat: int, action_id: int) -> Action:
        """The action that id `action_id` stands for, for `seat` now
        (ids of moves that depend on its cards or the market read them);
        `BadActionError` if the id names no move now."""

    def mask(self, match: Match[Any, Any], seat: int) -> Mask:
        """1 at the id of each legal action of `seat` now, else 0."""
        mask = np.zeros(self.actions, dtype=np.int8)
        for action in match.legal_actions(seat):
            mask[self.encode(match, seat, action)] = 1
        return mask

    def relative(self, seat: int, me: int) -> int:
        """Where `seat` sits from `me`'s point of view: 0 is `me`, 1 its left..."""
        return (seat - me) % self.players

    def absolute(self, slot: int, me: int) -> int:
        """The seat in relative slot `slot` of `me`'s view."""
        return (me + slot) % self.players


def _markdown(layout: Layout, what: str) -> list[str]:
    lines = [f"| {what} | name | meaning |", "|---|---|---|"]
    at = 0
    for segment in layout.segments:
        span = str(at) if segment.size == 1 else f"{at}-{at + segment.size - 1}"
        lines.append(f"| {span} | {segment.name} | {segment.doc} |")
        at += segment.size
    return lines
