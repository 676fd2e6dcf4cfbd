"""Pits' heuristic bot, after the seed's notes on strategy: keep the lead
("sente"), do not break pairs needlessly, save wild cards for the end."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from pitkit.core.state import State
from pitkit.games.pits.actions import Give, Pass, PitsAction, Take
from pitkit.games.pits.melds import TWO, Meld, pits_rank
from pitkit.games.pits.state import Phase, PitsHand

__all__ = ["HeuristicBot", "current_hand"]


def current_hand(state: State[Any]) -> PitsHand:
    """The Pits hand being played in `state` (a hand or a match)."""
    hand = state.current_hand
    assert isinstance(hand, PitsHand)
    return hand


class HeuristicBot:
    """Goes out whenever one play empties its hand; otherwise plays the
    cheapest meld, where wild cards, broken sets and high cards cost and
    shedding many cards pays. It passes rather than spend a wild card or
    break a set, unless it or an opponent is close to going out."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[Any], player: int) -> PitsAction:
        return self.rank(state, player)[0]

    def rank(self, state: State[Any], player: int) -> list[PitsAction]:
        """Every legal action of `player`, the bot's choice first, then the
        others from most to least attractive."""
        hand = current_hand(state)
        cards = hand.cards[player]
        if hand.phase is Phase.PLAY:
            return self._plays(hand, player)
        options = hand.legal_actions(player)
        if hand.phase in (Phase.FIRST_TAKES, Phase.FOURTH_TAKES):
            takes = [a for a in options if isinstance(a, Take)]
            return [*sorted(takes, key=lambda a: -_keep_value(a.card, cards))]
        # Give: the card worth least to the hand (the giver of a highest card has no real choice).
        gives = [a for a in options if isinstance(a, Give)]
        return [*sorted(gives, key=lambda a: _keep_value(a.card, cards))]

    def _plays(self, hand: PitsHand, player: int) -> list[PitsAction]:
        cards = hand.cards[player]
        plays = hand.plays()
        passing: list[PitsAction] = [] if hand.table is None else [Pass()]
        for play, meld in plays.items():
            if len(meld.cards) == len(cards):  # out in one move, like the seed's "lucky hand"
                return [play, *passing, *[p for p in plays if p != play]]
        if not plays:
            return passing
        held = Counter(pits_rank(c) for c in cards)
        costed = sorted(plays.items(), key=lambda item: (_cost(item[1], held), self.rng.random()))
        ranked: list[PitsAction] = [play for play, _ in costed]
        if hand.table is None:
            return ranked
        meld = costed[0][1]
        danger = min(len(hand.cards[s]) for s in hand.holders() if s != player) <= 2
        reckless = _wilds(meld) or _breaks(meld, held)
        if reckless and len(cards) - len(meld.cards) > 3 and not danger:
            return [*passing, *ranked]
        return [ranked[0], *passing, *ranked[1:]]


def _wilds(meld: Meld) -> int:
    """2s and Jokers a meld spends."""
    return sum(1 for c in meld.cards if pits_rank(c) >= TWO)


def _breaks(meld: Meld, held: Counter[int]) -> int:
    """Ranks of which the meld takes some but not all of the hand's cards."""
    used = Counter(pits_rank(c) for c in meld.cards if pits_rank(c) < TWO)
    return sum(1 for rank, n in used.items() if n < held[rank])


def _cost(meld: Meld, held: Counter[int]) -> float:
    return 12 * _wilds(meld) + 5 * _breaks(meld, held) + meld.top_rank - 2.5 * len(meld.cards)


def _keep_value(card: Any, cards: list[Any]) -> float:
    """How much a card is worth keeping: wild and high cards, and cards with a mate."""
    rank = pits_rank(card)
    mates = sum(1 for c in cards if pits_rank(c) == rank and c != card)
    return rank + (10 if rank >= TWO else 0) + 4 * mates
