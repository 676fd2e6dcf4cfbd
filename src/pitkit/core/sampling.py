"""Dealing hidden cards under what a seat knows: the shared core of the games' samplers."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["ATTEMPTS", "deal_fitting"]

C = TypeVar("C")

#: Shuffles tried before the last one fills any shortfall with whatever is left.
ATTEMPTS = 20


def deal_fitting(
    pool: list[C],
    sizes: dict[int, int],
    fits: Callable[[int, C, Sequence[C]], bool],
    rng: random.Random,
) -> dict[int, list[C]]:
    """Deal each seat of `sizes`, in that order, its number of cards from
    `pool`, shuffled, taking only cards that `fits(seat, card, cards dealt
    to that seat so far)`. A shuffle that leaves a seat short is tried again,
    up to `ATTEMPTS` times; the last fills the shortfall with any cards left,
    so that a deal always comes out. List the most constrained seats first:
    then a deal rarely fails. `pool` is left in its last shuffled order."""
    hands: dict[int, list[C]] = {}
    for attempt in range(ATTEMPTS):
        rng.shuffle(pool)
        hands = _deal(pool, sizes, fits, strict=attempt < ATTEMPTS - 1)
        if hands:
            break
    return hands


def _deal(
    pool: list[C],
    sizes: dict[int, int],
    fits: Callable[[int, C, Sequence[C]], bool],
    *,
    strict: bool,
) -> dict[int, list[C]]:
    """One try of `deal_fitting`: {} if `strict` and some seat cannot be filled."""
    taken: set[C] = set()
    hands: dict[int, list[C]] = {}
    for seat, size in sizes.items():
        cards: list[C] = []
        for card in pool:
            if len(cards) == size:
                break
            if card not in taken and fits(seat, card, cards):
                cards.append(card)
                taken.add(card)
        if len(cards) < size:
            if strict:
                return {}
            rest = [c for c in pool if c not in taken][: size - len(cards)]
            cards += rest
            taken.update(rest)
        hands[seat] = cards
    return hands
