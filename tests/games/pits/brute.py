"""A slow, obviously complete generator of Pits plays, to check the fast one."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pitkit.cards import Card
from pitkit.games.pits.melds import KINDS, Meld, read_as
from pitkit.games.pits.rules import Rules


def brute_plays(hand: Sequence[Card], on_table: Meld | None, rules: Rules) -> set[Meld]:
    """Every subset of the hand, read as every kind and set size."""
    found: set[Meld] = set()
    for size in range(1, len(hand) + 1):
        for group in combinations(hand, size):
            for kind in KINDS:
                sizes = range(2, size + 1) if kind == "run_of_sets" else [None]
                for n in sizes:
                    meld = read_as(group, kind, rules, set_size=n)
                    if meld is None:
                        continue
                    if on_table is None or meld.beats(on_table, rules):
                        found.add(meld)
    return found
