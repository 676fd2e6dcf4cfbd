"""What a seat at Pitch can infer of the cards it cannot see, and its
sampler of them for search bots (`Game.belief`).

A card that neither follows suit nor trumps shows a void (C6), which
`PitchHand.shown_voids` collects.
"""

from __future__ import annotations

import random

from pitkit.core.chance import Chance
from pitkit.core.sampling import deal_fitting
from pitkit.games.pitch.state import PitchHand

__all__ = ["sample_unseen"]


def sample_unseen(hand: PitchHand, seat: int | None, rng: random.Random) -> PitchHand:
    """A copy with the cards `seat` cannot see dealt at random among the
    other hands and the stock, no seat getting a card of a suit it has
    shown it is out of (see `shown_voids`). The bids' hints about the
    hands are left to the bots (see `pitch.bots.sample_world`)."""
    voids = hand.shown_voids()
    others = [s for s in hand.seated if s != seat]
    pool = sorted([c for s in others for c in hand.cards[s]] + hand.stock)
    # The most constrained seats are dealt first, so a deal rarely fails.
    order = sorted(others, key=lambda s: (-len(voids[s]), s))
    sizes = {s: len(hand.cards[s]) for s in order}
    hands = deal_fitting(pool, sizes, lambda s, card, _: card // 13 not in voids[s], rng)
    dealt = {c for cards in hands.values() for c in cards}
    new = hand.clone()
    for s, cards in hands.items():
        new.cards[s] = cards
    new.stock = [c for c in pool if c not in dealt]
    new.set_chance(Chance(rng.getrandbits(64)))
    return new
