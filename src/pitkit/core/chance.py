"""Chance: every random outcome of a game, drawn from a seed or read from a log.

Games never touch a random generator themselves; they ask their `Chance`
to shuffle or pick. Each outcome is recorded as an event (a shuffle's order
is secret from the table), so a log holds everything needed to replay the
game, on any Python version, and a deal made at a physical table can be
entered by hand. Outcomes may also be queued in advance (`queue_shuffle`,
`queue_pick`): a chosen deal, which is how OpenSpiel's tiny variants list
every deal of a cut deck (`pitkit.adapters.table.Deals`).

`cut_deck` is the pack those deals shuffle when a game's rules cut the deck
(the ``ranks`` and ``suits`` options of Ace Pit, Pitty Pat and Pitch, which
declare them with `ranks_option`, `suits_option` and `cards_each_option`,
and deal from `CutDeck.deck`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Self, TypeVar

from pitkit.cards import Card, standard_deck
from pitkit.core.errors import BadOptionError
from pitkit.core.events import Event
from pitkit.core.rules import option

__all__ = [
    "Chance",
    "CutDeck",
    "ReplayMismatchError",
    "cards_each_option",
    "check_cut",
    "cut_deck",
    "ranks_option",
    "suits_option",
]

T = TypeVar("T")


class ReplayMismatchError(ValueError):
    """A recorded random outcome that does not fit what the game asks for."""


class Chance:
    """The source of random outcomes for one match.

    Outcomes are drawn from the seed (None: fresh entropy). Given
    `recorded` events, it plays those back in order instead, and draws from
    the seed again once they are used up, so a replayed game can go on.
    Outcomes are appended to `sink` as events when a sink is set.
    """

    def __init__(self, seed: int | None = None, recorded: Iterable[Event] | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._recorded: list[Event] | None = None
        if recorded is not None:
            self._recorded = [e for e in recorded if e.type in ("shuffle", "pick")]
        self._next_recorded = 0
        self.sink: list[Event] | None = None

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of `items`."""
        n = len(items)
        order = list(range(n))
        self.stream("shuffle", n).shuffle(order)
        recorded = self._take("shuffle")
        if recorded is not None:
            order = list(recorded.secret["order"])
            if sorted(order) != list(range(n)):
                raise ReplayMismatchError(f"recorded shuffle does not fit {n} items")
        if self.sink is not None:
            self.sink.append(Event("shuffle", {"size": n}, secret={"order": order}))
        return [items[i] for i in order]

    def pick(self, n: int) -> int:
        """A public random number from 0 to n - 1 (e.g. who deals first)."""
        value = self.stream("pick", n).randrange(n)
        recorded = self._take("pick")
        if recorded is not None:
            value = int(recorded.public["value"])
            if not 0 <= value < n:
                raise ReplayMismatchError(f"recorded pick {value} is not below {n}")
        if self.sink is not None:
            self.sink.append(Event("pick", {"range": n, "value": value}))
        return value

    def queue_shuffle(self, order: Sequence[int]) -> None:
        """Make a coming shuffle come out in `order` (a permutation of item
        positions), after any outcomes already queued: for a deal made at a
        physical table, or a test that needs particular cards."""
        if self._recorded is None:
            self._recorded = []
        self._recorded.append(Event("shuffle", {"size": len(order)}, secret={"order": list(order)}))

    def queue_pick(self, value: int) -> None:
        """Make a coming pick come out as `value`, after any outcomes already
        queued (who deals first, at a physical table or in a chosen deal)."""
        if self._recorded is None:
            self._recorded = []
        self._recorded.append(Event("pick", {"value": value}))

    @property
    def queued(self) -> int:
        """Recorded or queued outcomes not yet played back."""
        return 0 if self._recorded is None else len(self._recorded) - self._next_recorded

    def stream(self, kind: str, n: int) -> random.Random:
        """Where the next outcome comes from: a ``"shuffle"`` of `n` items or
        a ``"pick"`` from `n`. Here the seed's one stream; a subclass may give
        each outcome a stream of its own (the arena's `DuplicateChance`)."""
        return self._rng

    def clone(self, sink: list[Event] | None) -> Self:
        """A copy that will give the same outcomes as this one, recording to `sink`."""
        copy = type(self).__new__(type(self))
        # The record is shared: it never changes, and each copy keeps its own place in it.
        copy.__dict__.update(self.__dict__)
        copy._rng = random.Random(0)  # replaced at once by the copied state
        copy._rng.setstate(self._rng.getstate())
        copy.sink = sink
        return copy

    def _take(self, kind: str) -> Event | None:
        """The next recorded outcome, or None once the record is used up."""
        if self._recorded is None or self._next_recorded >= len(self._recorded):
            return None
        event = self._recorded[self._next_recorded]
        self._next_recorded += 1
        if event.type != kind:
            raise ReplayMismatchError(
                f"the log has a {event.type} where the game asks for a {kind}"
            )
        return event


def check_cut(ranks: int, suits: int) -> None:
    """Refuse, with `BadOptionError`, a cut deck that is no deck: 1 to 13
    ranks and 1 to 4 suits."""
    if not 1 <= ranks <= 13:
        raise BadOptionError(f"ranks is from 1 to 13 (the full suit), not {ranks}")
    if not 1 <= suits <= 4:
        raise BadOptionError(f"suits is from 1 to 4, not {suits}")


def cut_deck(ranks: int = 13, suits: int = 4) -> list[Card]:
    """The pack of a deal whose rules cut the deck: the `ranks` highest ranks
    (the Ace always in: 3 ranks are Q K A) of the first `suits` suits (C D H
    S), in suit-then-rank order; 13 and 4 give `standard_deck()`, in its order,
    so a seed deals the full deck as it always has."""
    check_cut(ranks, suits)
    if ranks == 13 and suits == 4:
        return standard_deck()
    return [Card(13 * suit + rank) for suit in range(suits) for rank in range(13 - ranks, 13)]


def ranks_option(small: str = "3: Q K A") -> Any:
    """The ``ranks`` rule option of a game whose rules cut the deck: the
    ranks in each suit, 13 by default; `small` shows a small deck."""
    return option(
        13,
        f"ranks in each suit, counting down from the Ace (13: the full deck; {small})",
        label="Ranks in the deck",
    )


def suits_option() -> Any:
    """The ``suits`` rule option of a game whose rules cut the deck, 4 by default."""
    return option(4, "suits in the deck (4: the full deck)", label="Suits in the deck")


def cards_each_option(default: int, doc: str) -> Any:
    """The ``cards_each`` rule option of a game whose rules cut the hand:
    `default` cards dealt to each player, as `doc` explains."""
    return option(default, doc, label="Cards dealt to each player")


class CutDeck:
    """What the rules of a game whose ``ranks`` and ``suits`` options cut the
    deck have in common (Ace Pit, Pitty Pat, Pitch): the pack they deal."""

    ranks: int
    suits: int

    def deck(self) -> list[Card]:
        """The pack each hand is dealt from: the full deck, or the cut one."""
        return cut_deck(self.ranks, self.suits)
