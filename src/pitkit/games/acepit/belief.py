"""What a seat at Ace Pit can infer of the cards it cannot see, and its
sampler of them for search bots (`Game.belief`).

Ace Pit shows nothing of the hidden cards but their number.
"""

from __future__ import annotations

import random

from pitkit.core.chance import Chance
from pitkit.games.acepit.state import AcePitHand

__all__ = ["sample_unseen"]


def sample_unseen(hand: AcePitHand, seat: int | None, rng: random.Random) -> AcePitHand:
    """A copy with the other hand and the stock dealt anew at random.

    Ace Pit shows nothing about the hidden cards but their number: any
    card may be led, a Throw Away is always allowed (A2), and a card drawn
    after a two-card response is seen by its taker alone (A5). So every
    deal of the unseen cards fits what a seat knows, and the uniform
    redeal is the exact sampler. (It is `redeal_unseen`, written out for
    speed: search calls it once an iteration.)"""
    new = hand.clone()
    other = 1 - seat if seat is not None else None
    hidden = [0, 1] if other is None else [other]
    # Sorted first, so the sample depends on what is hidden, not where it lies.
    pool = sorted([c for s in hidden for c in hand.cards[s]] + hand.stock)
    rng.shuffle(pool)
    for s in hidden:
        size = len(hand.cards[s])
        new.cards[s] = pool[:size]
        del pool[:size]
    new.stock = pool
    new.set_chance(Chance(rng.getrandbits(64)))
    return new
