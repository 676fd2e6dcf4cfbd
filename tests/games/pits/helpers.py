"""Stacked deals for Pits tests."""

from __future__ import annotations

from collections.abc import Sequence

from pitkit.cards import Card, parse_cards, standard_deck
from pitkit.core import Chance
from pitkit.games.pits import PitsHand, Rules

DECK = standard_deck(jokers=True)


def deal_order(hands: dict[int, str], dealer: int = 0) -> list[Card]:
    """A 54-card order that deals each listed seat its cards (the rest at random-ish)."""
    wanted = {seat: parse_cards(text) for seat, text in hands.items()}
    used = {c for cards in wanted.values() for c in cards}
    spare = iter(c for c in DECK if c not in used)
    order: list[Card] = []
    taken = dict.fromkeys(range(5), 0)
    for i in range(54):
        seat = (dealer + 1 + i) % 5
        mine = wanted.get(seat, [])
        order.append(mine[taken[seat]] if taken[seat] < len(mine) else next(spare))
        taken[seat] += 1
    return order


def stacked(
    hands: dict[int, str],
    dealer: int = 0,
    rules: Rules | None = None,
    places: Sequence[int] | None = None,
) -> PitsHand:
    """A Pits hand whose deal gives the listed seats the listed cards."""
    chance = Chance(0)
    chance.queue_shuffle([DECK.index(c) for c in deal_order(hands, dealer)])
    return PitsHand(rules or Rules(), dealer, chance, places=places)
