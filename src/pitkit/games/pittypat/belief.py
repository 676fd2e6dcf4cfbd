"""What a seat at Pitty Pat can infer of the cards it cannot see, and its
sampler of them for search bots (`Game.belief`).

A seat sees its own cards, the pile and the pairs laid down; a player who
draws rather than match shows it lacks the top card's rank (Y3), which
`PittyPatHand.ranks_lacking` collects.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pitkit.cards import Card
from pitkit.core.chance import Chance
from pitkit.core.sampling import deal_fitting
from pitkit.games.pittypat.state import PittyPatHand

__all__ = ["sample_unseen"]


def sample_unseen(hand: PittyPatHand, seat: int | None, rng: random.Random) -> PittyPatHand:
    """A copy with the cards `seat` cannot see dealt at random, keeping to
    what the table knows (see `ranks_lacking`): no hand holds two cards of
    a rank or a rank its player showed it lacks, and a stock made from the
    pile keeps its known cards, in a new order."""
    lacking, restocked = hand.ranks_lacking()
    others = [s for s in hand.seated if s != seat]
    pool = sorted(c for s in others for c in hand.cards[s])
    stock = sorted(hand.stock)
    if not restocked:
        pool += stock
        pool.sort()  # by card, so the sample depends on what is hidden, not where
        stock = []
    # The most constrained players are dealt first, so a deal rarely fails.
    order = sorted(others, key=lambda s: (-len(lacking[s]), s))
    sizes = {s: len(hand.cards[s]) for s in order}

    def fits(s: int, card: Card, cards: Sequence[Card]) -> bool:
        # Not a rank the player lacks, nor one it was already dealt.
        return card.rank not in lacking[s] and all(c.rank != card.rank for c in cards)

    hands = deal_fitting(pool, sizes, fits, rng)
    dealt = {c for cards in hands.values() for c in cards}
    new = hand.clone()
    for s, cards in hands.items():
        new.cards[s] = cards
    rng.shuffle(stock)
    new.stock = stock + [c for c in pool if c not in dealt]
    new.set_chance(Chance(rng.getrandbits(64)))
    return new
