"""Duplicate play: the same deals, replayed with the bots in every seat arrangement.

A match draws all its random outcomes from one `Chance`, so in an ordinary
match the second hand's deal depends on how many shuffles the first hand
made (a Pitty Pat restock, say), which depends on the play. A
`DuplicateChance` gives each kind of outcome its own stream instead: the
k-th shuffle of n items, and the k-th pick from n, come from a generator
seeded by (seed, kind, n, k). The k-th full-pack shuffle, which is the k-th
deal, is then the same in every replay of the seed, whatever happened in
between; the bots change seats, the cards stay where they were dealt.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import TypeVar

from pitkit.core.chance import Chance
from pitkit.core.events import Event

__all__ = ["DuplicateChance", "arrangements"]

T = TypeVar("T")


class DuplicateChance(Chance):
    """A `Chance` whose k-th shuffle of n items (and k-th pick from n) depends
    only on the seed, n and k, so replays of a seed deal alike."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._counts: dict[tuple[str, int], int] = {}

    def stream(self, kind: str, n: int) -> random.Random:
        """The k-th outcome of this kind over `n` items: its own stream."""
        k = self._counts.get((kind, n), 0)
        self._counts[(kind, n)] = k + 1
        # A text seed is hashed with SHA-512: the same stream on every run and platform.
        return random.Random(f"{self.seed}/{kind}/{n}/{k}")

    def clone(self, sink: list[Event] | None) -> DuplicateChance:
        """A copy that will give the same outcomes, recording to `sink`."""
        copy = super().clone(sink)
        copy._counts = dict(self._counts)
        return copy


def arrangements(lineup: Sequence[T]) -> list[tuple[T, ...]]:
    """Every distinct seating of `lineup` (one bot a seat), the given order first.

    Repeated bots give fewer: two copies of a and one of b make three, not six.
    """
    first = tuple(lineup)
    seen = {first}
    out = [first]
    for order in itertools.permutations(first):
        if order not in seen:
            seen.add(order)
            out.append(order)
    return out
