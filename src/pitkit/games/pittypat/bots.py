"""Pitty Pat's heuristic bot."""

from __future__ import annotations

import random
from typing import Any

from pitkit.cards import Card
from pitkit.core.state import State
from pitkit.games.pittypat.actions import Draw, MatchCard, PittyPatAction
from pitkit.games.pittypat.state import PittyPatHand

__all__ = ["SensibleBot", "current_hand"]


def current_hand(state: State[Any]) -> PittyPatHand:
    """The Pitty Pat hand being played in `state` (a hand or a match)."""
    hand = state.current_hand
    assert isinstance(hand, PittyPatHand)
    return hand


class SensibleBot:
    """Always matches when it can, and discards the card least likely to be
    matched later: the one whose rank has the fewest copies still unseen
    (so the next player is also least likely to match it)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[Any], player: int) -> PittyPatAction:
        hand = current_hand(state)
        actions = hand.legal_actions(player)
        matches = [a for a in actions if isinstance(a, MatchCard)]
        if not matches:
            return Draw()
        seen = _seen_ranks(hand, player)
        suits = hand.rules.suits
        return min(matches, key=lambda a: (_live(a.discard, seen, suits), self.rng.random()))


def _seen_ranks(hand: PittyPatHand, player: int) -> dict[int, int]:
    """How many cards of each rank `player` can see: own hand, pile, pairs."""
    seen: dict[int, int] = {}
    for cards in [hand.cards[player], hand.pile, *hand.pairs]:
        for card in cards:
            seen[card.rank] = seen.get(card.rank, 0) + 1
    return seen


def _live(card: Card | None, seen: dict[int, int], suits: int) -> int:
    """Copies of `card`'s rank that may still turn up (a rank has one card
    in each of the deck's `suits`)."""
    return 0 if card is None else suits - seen.get(card.rank, 0)
