"""What a seat at Pits can infer of the cards it cannot see, and its
sampler of them for search bots (`Game.belief`).

The exchanges before play show cards changing hands (P8).
"""

from __future__ import annotations

import random

from pitkit.cards import Card
from pitkit.core.chance import Chance
from pitkit.games.pits.melds import pits_rank
from pitkit.games.pits.state import PitsHand

__all__ = ["sample_unseen"]


def sample_unseen(hand: PitsHand, seat: int | None, rng: random.Random) -> PitsHand:
    """A copy with the cards `seat` cannot see dealt anew, consistent with
    everything public: exchanged cards stay with whoever took them, and
    4th and 5th hold nothing above the card they had to give up (P8)."""
    new = hand.clone()
    slots: dict[str, int] = {}  # zone -> how many unknown cards it holds
    pool: list[Card] = []
    for name in hand.hidden_zones(seat):
        cards = hand.zones()[name]
        owner = int(name.split()[1])
        unknown = [c for c in cards if hand.known.get(c) != owner or name.startswith("concealed")]
        pool += unknown
        slots[name] = len(unknown)
    # Highest first: each card's possible places only widen as ranks fall.
    pool.sort(key=lambda c: (-pits_rank(c), int(c)))
    placed: dict[str, list[Card]] = {name: [] for name in slots}
    for card in pool:
        fits = [
            name
            for name, free in slots.items()
            if free > len(placed[name])
            and pits_rank(card) <= hand.caps.get(int(name.split()[1]), 99)
        ]
        weights = [slots[name] - len(placed[name]) for name in fits]
        placed[rng.choices(fits, weights)[0]].append(card)
    for name, cards in placed.items():
        owner = int(name.split()[1])
        kept = [
            c for c in hand.zones()[name] if hand.known.get(c) == owner and name.startswith("hand")
        ]
        new._set_zone(name, kept + cards)
    new.set_chance(Chance(rng.getrandbits(64)))
    return new
