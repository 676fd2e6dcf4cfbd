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
from typing import Any, ClassVar, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from pitkit import games
from pitkit.core.actions import Action
from pitkit.core.match import Match

__all__ = [
    "Encoding",
    "Layout",
    "Mask",
    "Observation",
    "Row",
    "Segment",
    "Spans",
    "entries",
    "flags",
    "ranks_reward",
]

# Aliases declared as such: the wheel's build compiles this module where
# NumPy may be missing (hatch_build.py), and an undeclared alias of Any is no type.
Observation: TypeAlias = npt.NDArray[np.float32]
Mask: TypeAlias = npt.NDArray[np.int8]


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
    """An observation being written into `out` (a float32 memoryview, from
    index `at`, all zeros to begin with), segment by segment in the layout's
    order: each write names its segment, so that a layout and its writer
    cannot drift apart. With `checked`, every index is checked to fall
    inside its segment too (the tests write every observation so);
    unchecked, the entries go straight to `out`, the environments' fast path."""

    __slots__ = ("_k", "_spans", "checked", "out")

    def __init__(
        self, spans: Spans, out: memoryview[float], at: int = 0, *, checked: bool = False
    ) -> None:
        self.out = out
        self.checked = checked
        self._spans = spans.at(at)
        self._k = 0

    def _next(self, name: str) -> tuple[int, int]:
        k = self._k
        self._k = k + 1
        segment, start, size = self._spans[k]
        if segment != name:
            raise AssertionError(f"wrote {name!r} where the layout has {segment!r}")
        return start, size

    def bits(self, name: str, indexes: Iterable[int]) -> None:
        """Set the entries at `indexes` (cards as ints, seats...) to 1."""
        start, size = self._next(name)
        out = self.out
        if self.checked:
            indexes = list(indexes)
            for i in indexes:
                if not 0 <= i < size:
                    raise AssertionError(f"{name}: index {i} outside 0-{size - 1}")
        for i in indexes:
            out[start + i] = 1.0

    def one_hot(self, name: str, index: int | None) -> None:
        """A one-hot entry (None: all zeros)."""
        start, size = self._next(name)
        if index is None:
            return
        if self.checked and not 0 <= index < size:
            raise AssertionError(f"{name}: index {index} outside 0-{size - 1}")
        self.out[start + index] = 1.0

    def values(self, name: str, values: Sequence[float]) -> None:
        """Numbers, as they are (callers scale them to about 0-1)."""
        start, size = self._next(name)
        if len(values) > size:
            raise AssertionError(f"{name}: {len(values)} values for {size} entries")
        out = self.out
        for value in values:
            out[start] = value
            start += 1

    def done(self) -> None:
        """Check that every segment was written."""
        if self._k != len(self._spans):
            raise AssertionError("an observation's layout was not written to the end")


class Spans:
    """Where each segment of a layout starts: (name, start, size) for each,
    worked out once a layout, and again for each place in a buffer of rows
    (a batch's observations, one row an environment) that is written."""

    def __init__(self, layout: Layout) -> None:
        spans, start = [], 0
        for segment in layout.segments:
            spans.append((segment.name, start, segment.size))
            start += segment.size
        self._spans: tuple[tuple[str, int, int], ...] = tuple(spans)
        self._shifted: dict[int, tuple[tuple[str, int, int], ...]] = {0: self._spans}

    def at(self, offset: int) -> tuple[tuple[str, int, int], ...]:
        """The spans of a row written from index `offset` of its buffer."""
        spans = self._shifted.get(offset)
        if spans is None:
            spans = tuple((name, start + offset, size) for name, start, size in self._spans)
            self._shifted[offset] = spans
        return spans


def entries(array: npt.NDArray[np.float32]) -> memoryview[float]:
    """A flat view of a C-contiguous float32 array's entries, to write one
    at a time: a memoryview takes an item quicker than NumPy does."""
    return array.data.cast("B").cast("f")


def flags(array: npt.NDArray[np.bool_]) -> memoryview[bool]:
    """A flat view of a C-contiguous bool array (masks), as `entries`."""
    return array.data.cast("B").cast("?")


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


# Compiled in the wheel (hatch_build.py), as the game encodings are: a
# researcher's encoding for a new game may still subclass it in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
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

    always: ClassVar[tuple[int, ...]] = ()
    """Ids legal at every moment, whatever the match (Pit's wait)."""

    def __init__(self, players: int, *, checked: bool = False) -> None:
        self.players = players
        self.features = Layout(self.layout())
        self.moves = Layout(self.action_layout())
        self.size = self.features.size
        """The length of an observation."""
        self.actions = self.moves.size
        """The number of action ids."""
        self.checked = checked
        """Whether every observation's writes are checked against the layout
        (`Row`): the tests' setting; the environments write unchecked."""
        self._spans = Spans(self.features)
        # Each seat's table, from its own seat: `around[me][slot]` is `absolute(slot, me)`.
        self.around = tuple(
            tuple((me + slot) % players for slot in range(players)) for me in range(players)
        )

    @classmethod
    def short_rules(cls) -> dict[str, Any]:
        """The rule options of a short match: the game's, then the encoding's."""
        return {**games.get(cls.game).short_match, **cls.short}

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

    def observe(self, match: Match[Any, Any], seat: int) -> Observation:
        """What `seat` sees of `match`, as a vector of `size` float32 entries."""
        data = np.zeros(self.size, dtype=np.float32)
        self.observe_into(match, seat, entries(data))
        return data

    def observe_into(
        self, match: Match[Any, Any], seat: int, out: memoryview[float], at: int = 0
    ) -> None:
        """Write what `seat` sees of `match` into `out` (a float32 memoryview)
        from index `at`: `size` entries, which must be zeros beforehand. A
        batch of environments writes its rows of observations so, in place."""
        row = Row(self._spans, out, at, checked=self.checked)
        self.fill(row, match, seat)
        row.done()

    @abstractmethod
    def fill(self, row: Row, match: Match[Any, Any], seat: int) -> None:
        """Write what `seat` sees of `match` into `row`, segment by segment."""

    @abstractmethod
    def encode(self, match: Match[Any, Any], seat: int, action: Action) -> int:
        """The id of `action`, one of `seat`'s legal actions now."""

    @abstractmethod
    def decode(self, match: Match[Any, Any], seat: int, action_id: int) -> Action:
        """The action that id `action_id` stands for, for `seat` now
        (ids of moves that depend on its cards or the market read them);
        `BadActionError` if the id names no move now."""

    def legal_ids(self, match: Match[Any, Any], seat: int) -> list[int]:
        """The id of each of `seat`'s legal actions now, in the order of
        `match.legal_actions(seat)` (`always` is not among them)."""
        return self.ids_of(match, seat, match.legal_actions(seat))

    def ids_of(self, match: Match[Any, Any], seat: int, actions: Sequence[Action]) -> list[int]:
        """The id of each of `actions`, legal actions of `seat` now."""
        return [self.encode(match, seat, action) for action in actions]

    def mask(self, match: Match[Any, Any], seat: int) -> Mask:
        """1 at the id of each legal action of `seat` now, and at the ids
        `always` legal, else 0."""
        marks = np.zeros(self.actions, dtype=np.bool_)
        self.mask_into(match, seat, flags(marks))
        return marks.view(np.int8)

    def mask_into(
        self, match: Match[Any, Any], seat: int, out: memoryview[bool], at: int = 0
    ) -> tuple[list[int], list[Action]]:
        """Set the entries of `out` (a bool memoryview) from index `at` that
        `mask` sets, which must be clear beforehand; the legal ids, and the
        action of each, in the same order (`always` left out). A batch of
        environments writes its rows of masks so, in place."""
        legal = match.legal_actions(seat)
        ids = self.ids_of(match, seat, legal)
        for i in ids:
            out[at + i] = True
        for i in self.always:
            out[at + i] = True
        return ids, legal

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
