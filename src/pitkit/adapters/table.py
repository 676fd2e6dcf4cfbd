"""The Python side of a pitkit game in OpenSpiel: what a state holds, made
cheap to copy, and what each seat remembers (`pitkit.adapters.openspiel`
wraps it; nothing here imports OpenSpiel).

A `Table` is dealt from a 64-bit match seed that chance draws a byte at a
time (`SEED_BYTES` chance nodes of 256 outcomes each), then plays the match
move by move. OpenSpiel copies a state by deep-copying its attributes:
`Table.__deepcopy__` copies only the match (`Match.clone`), and the match
draws from a `SharedChance`, so a copy does not copy the generator either.

A table keeps what each seat has seen, its perfect-recall information
state: the events of the match as the seat saw them, as JSON lines (the
string), and its observation after every move (the tensor, up to a bound).
Both are `Kept` lists, shared with the table's copies and grown as the
match goes on, so neither is built again from the start at each move.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Sequence
from typing import Any, Generic, NamedTuple, Self, TypeVar

from pitkit import games
from pitkit.adapters.acepit import AcePitEncoding
from pitkit.adapters.encoding import Encoding, Observation
from pitkit.adapters.pitch import PitchEncoding
from pitkit.adapters.pits import PitsEncoding
from pitkit.adapters.pittypat import PittyPatEncoding
from pitkit.core.chance import Chance
from pitkit.core.events import Event
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.rules import RuleSet

__all__ = [
    "CHANCE_OUTCOMES",
    "ENCODINGS",
    "LONGEST_RECALL",
    "SEEDS",
    "SEED_BYTES",
    "Kept",
    "RecallBoundError",
    "Setup",
    "SharedChance",
    "Stretch",
    "Table",
    "default_recall",
    "seed_bytes",
    "setup",
]

SEED_BYTES = 8
"""Chance nodes at the start of every game: the match seed's bytes, high first."""
SEEDS = 1 << (8 * SEED_BYTES)
"""The number of match seeds chance chooses among, uniformly."""
CHANCE_OUTCOMES = tuple((byte, 1.0 / 256) for byte in range(256))
"""Every chance node's outcomes: a byte, uniformly (one list, built once)."""
LONGEST_RECALL = 160
"""The most moves a hand may fill of the information-state tensor by default
(Pits and Pitty Pat; random play's longest hands in 300: 144 and 72)."""
ENCODINGS: tuple[type[Encoding], ...] = (
    PitsEncoding,
    AcePitEncoding,
    PittyPatEncoding,
    PitchEncoding,
)
"""The turn-based games' encodings: the games OpenSpiel gets."""

Row = tuple[Observation, ...]
"""Each seat's observation at one point of the match."""
T = TypeVar("T")


def seed_bytes(seed: int) -> list[int]:
    """The chance outcomes that draw match seed `seed` (0 to `SEEDS` - 1), in order."""
    if not 0 <= seed < SEEDS:
        raise ValueError(f"a match seed is from 0 to 2**{8 * SEED_BYTES} - 1, not {seed}")
    return [(seed >> (8 * i)) & 0xFF for i in reversed(range(SEED_BYTES))]


class RecallBoundError(ValueError):
    """A match longer than its information-state tensor can hold."""


class SharedChance(Chance):
    """A `Chance` whose copies share one generator until one of them draws.

    Copying the generator (2.5 KB of state, twice a match clone: the match's
    and its hand's) was most of what cloning a match cost; a match that draws
    nothing more after the deal (most hands) now never copies it. Whichever
    holder draws first takes a copy of its own, so each still draws exactly
    what it would have drawn.
    """

    _shared = False

    def stream(self, kind: str, n: int) -> random.Random:
        """The seed's one stream, made this copy's own before its first draw."""
        if self._shared:
            own = random.Random(0)  # replaced at once by the shared state
            own.setstate(self._rng.getstate())
            self._rng = own
            self._shared = False
        return self._rng

    def clone(self, sink: list[Event] | None) -> Self:
        """A copy that will give the same outcomes, recording to `sink`."""
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.sink = sink
        copy._shared = self._shared = True
        return copy


class Setup(NamedTuple):
    """What a loaded game's parameters make: the pitkit game, the table's
    size, the rules, the encoding, and `moves`, the most moves of the match
    the information-state tensor holds (`hands` times the ``recall``
    parameter). One for each set of parameters (`setup`), which a game
    and all its states share; a pickled table names it by its `key`."""

    game: Game
    players: int
    rules: RuleSet
    encoding: Encoding
    moves: int
    key: tuple[str, int, int, int]
    """What `setup` made it from: the game's name, players, hands, recall."""


def default_recall(encoding: type[Encoding]) -> int:
    """The ``recall`` parameter's default: a hand's most moves at the game's
    largest table, at most `LONGEST_RECALL`."""
    game = games.get(encoding.game)
    most = encoding(game.max_players).most_moves(game.make_rules({"hands": 1}))
    return min(most, LONGEST_RECALL)


@functools.cache
def setup(game: str, players: int, hands: int, recall: int) -> Setup:
    """The setup of `game` (a registry name) with these parameters."""
    encoding = next(e for e in ENCODINGS if e.game == game)
    pitkit = games.get(game)
    rules = pitkit.make_rules({"hands": hands})
    key = (game, players, hands, recall)
    return Setup(pitkit, players, rules, encoding(players), hands * recall, key)


class Stretch(NamedTuple):
    """Part of a state's past, replayed to rebuild its rows of observations:
    the moves from OpenSpiel history index `start` on, played on a copy of
    `base` (None: the deal from the seed). A world resampled for search
    begins a stretch of its own, since its cards are not the deal's."""

    base: Match[Any, Any] | None
    start: int


class Kept(NamedTuple, Generic[T]):
    """A list a table keeps and shares with its copies, which only ever
    append to it: this table's items are the first `size`. A copy that
    grows it after another did takes a list of its own."""

    items: list[T]
    size: int

    def mine(self) -> list[T]:
        """This table's items."""
        return self.items[: self.size]

    def extended(self, more: Sequence[T]) -> Kept[T]:
        """This list with `more` after its own items."""
        items = self.items
        if len(items) == self.size:
            items.extend(more)  # no copy has added items of its own: share the list
        else:
            items = [*items[: self.size], *more]
        return Kept(items, self.size + len(more))


class Table:
    """A game in OpenSpiel, on the Python side: the seed while chance draws
    it, then the match, and what the seats have seen of it."""

    __slots__ = ("drawn", "lines", "match", "past", "rows", "seed", "setup")

    def __init__(
        self,
        setup: Setup,
        seed: int = 0,
        drawn: int = 0,
        match: Match[Any, Any] | None = None,
        past: tuple[Stretch, ...] = (Stretch(None, SEED_BYTES),),
        rows: Kept[Row] | None = None,
        lines: tuple[Kept[str], ...] = (),
    ) -> None:
        self.setup = setup
        self.seed = seed
        self.drawn = drawn
        self.match = match
        self.past = past
        self.rows = rows
        """Each seat's observation after every move so far (row 0: just
        dealt), once the tensor was asked for."""
        self.lines = lines
        """For each seat, the JSON lines of the log's events as it saw them."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        # What OpenSpiel's clone calls: only the match changes in place.
        match = None if self.match is None else self.match.clone()
        return Table(self.setup, self.seed, self.drawn, match, self.past, self.rows, self.lines)

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel's serialization pickles the state's attributes. What the
        # seats have seen is left out: it is rebuilt when asked for.
        return (_restore, (self.setup.key, self.seed, self.drawn, self.match, self.past))

    def deal(self) -> Match[Any, Any]:
        """The match as dealt from the seed, before any move."""
        setup = self.setup
        return setup.game.new_match(
            setup.players, setup.rules, self.seed, chance=SharedChance(self.seed)
        )

    def play(self, action: int) -> None:
        """Chance's next seed byte, until the deal; then a move's id, for the
        seat to act (the lowest, when several may act)."""
        match = self.match
        if match is None:
            self.seed = (self.seed << 8) | action
            self.drawn += 1
            if self.drawn == SEED_BYTES:
                self.match = self.deal()
            return
        seat = min(match.to_act)
        match.apply(seat, self.setup.encoding.decode(match, seat, action))

    def world(self, match: Match[Any, Any], history: Sequence[int]) -> Table:
        """A table playing `match` (this one's match with unseen cards dealt
        otherwise) from here on, remembering this table's past."""
        past = (*self.past, Stretch(match.clone(), len(history)))
        return Table(self.setup, self.seed, self.drawn, match, past, self.rows, self.lines)

    def seen(self, seat: int) -> str:
        """`seat`'s information-state string: every event of the match as it
        saw it (`Event.seen_by`), one JSON object a line."""
        match = self.match
        assert match is not None
        lines = self.lines or tuple(Kept[str]([], 0) for _ in range(self.setup.players))
        kept = lines[seat]
        if kept.size < len(match.log):
            new = match.log[kept.size :]
            kept = kept.extended([json.dumps(e.seen_by(seat), sort_keys=True) for e in new])
            self.lines = (*lines[:seat], kept, *lines[seat + 1 :])
        return "\n".join(kept.mine())

    def tensor(self, history: Sequence[int], seat: int, out: Observation) -> None:
        """Write `seat`'s information-state tensor into `out`: its observation
        after each move so far, a row a move, zeros after. `history` is the
        state's OpenSpiel history. `RecallBoundError` past `setup.moves`."""
        out.fill(0.0)
        if self.match is None:
            return
        width = self.setup.encoding.size
        for i, row in enumerate(self.remember(history).mine()):
            out[i * width : (i + 1) * width] = row[seat]

    def remember(self, history: Sequence[int]) -> Kept[Row]:
        """This table's `rows`, brought up to date: one more than the moves
        in `history` (the state's OpenSpiel history)."""
        needed = len(history) - SEED_BYTES + 1
        if needed > self.setup.moves + 1:
            raise RecallBoundError(
                f"this match has had {needed - 1} moves, and the information-state "
                f"tensor holds {self.setup.moves} (the game's `recall` parameter "
                f"times its hands): load the game with a larger `recall`"
            )
        rows = self.rows
        if rows is not None and rows.size == needed:
            return rows
        assert self.match is not None
        if rows is not None and rows.size == needed - 1:
            rows = rows.extended([self._observe(self.match)])
        else:
            replayed = self._replay(history)
            rows = Kept(replayed, len(replayed))
        self.rows = rows
        return rows

    def _observe(self, match: Match[Any, Any]) -> Row:
        encoding = self.setup.encoding
        return tuple(encoding.observe(match, seat) for seat in range(self.setup.players))

    def _replay(self, history: Sequence[int]) -> list[Row]:
        """Every row of the past, played again stretch by stretch."""
        rows: list[Row] = []
        for k, stretch in enumerate(self.past):
            end = self.past[k + 1].start if k + 1 < len(self.past) else len(history)
            match = self.deal() if stretch.base is None else stretch.base.clone()
            if k == 0:
                rows.append(self._observe(match))
            again = Table(self.setup, match=match)
            for action in history[stretch.start : end]:
                again.play(action)
                rows.append(self._observe(match))
        return rows


def _restore(
    key: tuple[str, int, int, int],
    seed: int,
    drawn: int,
    match: Match[Any, Any] | None,
    past: tuple[Stretch, ...],
) -> Table:
    """A pickled `Table` back."""
    return Table(setup(*key), seed, drawn, match, past)
