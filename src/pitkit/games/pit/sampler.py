"""Pit's sampler of hidden cards: deals that fit what one seat saw of the trading.

A seat sees its own cards, who offers how many, who traded how many with
whom, and in its own trades the cards it received (T4). From that it knows a
lower bound on what each other trader holds, hand and open offer together:

- the cards the seat gave a trader stay with that trader;
- what a trader gave the seat is no longer theirs;
- a trade with a third party, of n cards of one commodity (and perhaps the
  Bull or the Bear), may have taken up to n cards of any one kind, so every
  bound of that trader drops by n.

A sampled deal gives every trader those cards, deals the rest of the unseen
cards at random, and makes each open offer a valid lot of its size from its
owner's cards (one commodity, perhaps with the Bull and/or the Bear), as the
offer must be. A deal that cannot satisfy every bound (the bounds are only
bounds, and the random part may leave an offer unpayable) is dealt again.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, TypeVar

from pitkit.cards import PitCard
from pitkit.core.chance import Chance
from pitkit.games.pit.market import INDEX, KINDS, counts_of, payable_lots

if TYPE_CHECKING:
    from pitkit.games.pit.state import Hand

__all__ = ["known_holdings", "sample_hidden"]

H = TypeVar("H", bound="Hand")

#: Deals tried before the bounds are dropped (the offers' lots are always kept).
ATTEMPTS = 20


def known_holdings(hand: Hand, seat: int | None) -> dict[int, list[int]]:
    """For every other seat, the fewest cards of each kind (indexed as
    `market.KINDS`) it must hold, in hand or offer, by what `seat` has seen
    in this hand."""
    bounds = {s: [0] * len(KINDS) for s in range(hand.players) if s != seat}
    for event in hand.log[hand.log_start :]:
        if event.type != "trade":
            continue
        seller, buyer, count = (event.public[k] for k in ("seller", "buyer", "count"))
        mine = event.private.get(seat) if seat is not None else None
        if mine is not None:
            other = buyer if seller == seat else seller
            for name in mine["cards"]:  # what the other gave: theirs no more
                kind = INDEX[PitCard(name)]
                bounds[other][kind] = max(0, bounds[other][kind] - 1)
            for name in mine["gave"]:  # what the seat gave: theirs now
                bounds[other][INDEX[PitCard(name)]] += 1
        else:
            for trader in (seller, buyer):
                bounds[trader] = [max(0, n - count) for n in bounds[trader]]
    return bounds


def sample_hidden(hand: H, seat: int | None, rng: random.Random) -> H:
    """A copy of `hand` with the cards `seat` cannot see dealt anew,
    consistently with `known_holdings` and with every open offer (see the module)."""
    zones = hand.zones()
    others = [s for s in range(hand.players) if s != seat]
    sizes = {s: (len(zones[f"hand {s}"]), len(zones[f"offer {s}"])) for s in others}
    # Sorted first, so the sample depends on what is hidden, not on where it lies.
    pool = sorted(
        (card for s in others for zone in ("hand", "offer") for card in zones[f"{zone} {s}"]),
        key=INDEX.__getitem__,
    )
    bounds = known_holdings(hand, seat)
    deal: dict[int, tuple[list[PitCard], list[PitCard]]] | None = None
    for attempt in range(ATTEMPTS + 1):
        deal = _deal(pool, sizes, bounds if attempt < ATTEMPTS else {}, rng)
        if deal is not None:
            break
    new = hand.clone()
    if deal is not None:  # else no valid lot can be made at all: leave the cards be
        for s, (held, offered) in deal.items():
            new._set_zone(f"hand {s}", held)
            if offered:
                new._set_zone(f"offer {s}", offered)
    new._set_chance(Chance(rng.getrandbits(64)))
    return new


def _deal(
    pool: list[PitCard],
    sizes: dict[int, tuple[int, int]],
    bounds: dict[int, list[int]],
    rng: random.Random,
) -> dict[int, tuple[list[PitCard], list[PitCard]]] | None:
    """One try: each seat's (hand, offer), or None if a bound or an offer fails."""
    left = counts_of(pool)
    given: dict[int, list[PitCard]] = {}
    for s, bound in bounds.items():
        if any(n > left[i] for i, n in enumerate(bound)) or sum(bound) > sum(sizes[s]):
            return None
        given[s] = [KINDS[i] for i, n in enumerate(bound) for _ in range(n)]
        left = [have - n for have, n in zip(left, bound, strict=True)]
    rest = [KINDS[i] for i, n in enumerate(left) for _ in range(n)]
    rng.shuffle(rest)
    deal: dict[int, tuple[list[PitCard], list[PitCard]]] = {}
    for s, (held, offered) in sizes.items():
        cards = given.get(s, [])
        need = held + offered - len(cards)
        cards = cards + rest[:need]
        del rest[:need]
        if not offered:
            deal[s] = (cards, [])
            continue
        lots = payable_lots(counts_of(cards), offered)
        if not lots:
            return None
        lot = rng.choice(lots)
        remaining = list(cards)
        for card in lot.cards():
            remaining.remove(card)
        deal[s] = (remaining, list(lot.cards()))
    return deal
