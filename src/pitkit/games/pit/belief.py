"""What a seat at Pit can infer of the cards it cannot see: its sampler of
hidden cards (`Game.belief`), deals that fit what it saw of the trading.

A seat's sample is drawn from its particle filter (`particles`), which
replays the hand through many deals and keeps those that fit the trading.
As a hand goes on, resampling thins the particles to a few distinct deals
(after 8 trades of real-time play, 5 to 187 of 1,024), and a search that
saw only those would be surer of the others' cards than the trading
warrants; so each sample also swaps two pairs of cards between traders
(`JITTER`), never a trader's leading commodity nor below a bound of the
list below.
What follows is the sampler the filter falls back on: for a spectator, and
for a history no particle survived (none did in 520 positions of
`sensible` play).

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
offer must be.

Traders keep what they collect and trade the rest away, so a hand that has
traded is no random one: its cards gather in one commodity. The sampler
copies that drift: for every three cards a trader has traded in this hand
(the trades' sizes are public), one of its other cards is swapped for a card
of its leading commodity held by a trader who does not lead in it. (Measured
on `sensible` traders after 4, 8 and 14 trades, the leading commodity of a
hand holds 4.7, 5.5 and 5.9 cards; sampled with the drift, 4.6, 5.5 and
6.0; without, 3.8-4.0.) Without the drift, search reads the others' hands
as scattered, long from a corner, and misjudges the race
(docs/performance.md).

A deal that cannot satisfy every bound (the bounds are only bounds, and the
random part may leave an offer unpayable) is dealt again.
"""

from __future__ import annotations

import random
from typing import TypeVar

from pitkit.cards import PitCard
from pitkit.core.chance import Chance
from pitkit.games.pit.market import GOODS, INDEX, KINDS, Lot, counts_of, exchange, payable_lots
from pitkit.games.pit.particles import Particle, draw
from pitkit.games.pit.state import PitHand

__all__ = ["known_holdings", "sample_bounded", "sample_unseen", "traded_cards"]

H = TypeVar("H", bound=PitHand)

JITTER = 2
"""Card swaps between traders in each sample drawn from the particle filter."""
#: Deals tried before the bounds are dropped (the offers' lots are always kept).
ATTEMPTS = 20


def known_holdings(hand: PitHand, seat: int | None) -> dict[int, list[int]]:
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


def sample_unseen(hand: H, seat: int | None, rng: random.Random) -> H:
    """A copy of `hand` with the cards `seat` cannot see dealt anew,
    consistently with `known_holdings` and with every open offer (see the module)."""
    if seat is not None:
        bounds = known_holdings(hand, seat)
        particle = draw(hand, seat, rng, bounds)
        if particle is not None:
            return _dealt(hand, seat, particle, bounds, rng)
    return sample_bounded(hand, seat, rng)


def sample_bounded(hand: H, seat: int | None, rng: random.Random) -> H:
    """The fallback: a copy of `hand` dealt anew within `known_holdings`,
    gathered toward each trader's leading commodity (see the module)."""
    zones = hand.zones()
    others = [s for s in range(hand.players) if s != seat]
    sizes = {s: (len(zones[f"hand {s}"]), len(zones[f"offer {s}"])) for s in others}
    # Sorted first, so the sample depends on what is hidden, not on where it lies.
    pool = sorted(
        (card for s in others for zone in ("hand", "offer") for card in zones[f"{zone} {s}"]),
        key=INDEX.__getitem__,
    )
    bounds = known_holdings(hand, seat)
    drift = {s: n // 3 for s, n in traded_cards(hand).items() if s in sizes}
    deal: dict[int, tuple[list[PitCard], list[PitCard]]] | None = None
    for attempt in range(ATTEMPTS + 1):
        deal = _deal(pool, sizes, bounds if attempt < ATTEMPTS else {}, drift, rng)
        if deal is not None:
            break
    new = hand.clone()
    if deal is not None:  # else no valid lot can be made at all: leave the cards be
        for s, (held, offered) in deal.items():
            new._set_zone(f"hand {s}", held)
            if offered:
                new._set_zone(f"offer {s}", offered)
    new.set_chance(Chance(rng.getrandbits(64)))
    return new


def _dealt(
    hand: H, seat: int, particle: Particle, bounds: dict[int, list[int]], rng: random.Random
) -> H:
    """A copy of `hand` holding the particle's cards (see `particles`), a few
    of them swapped (`JITTER`)."""
    free = {s: list(particle.free[s]) for s in range(hand.players) if s != seat}
    _jitter(free, particle, bounds, rng)
    new = hand.clone()
    for s, counts in free.items():
        new._set_zone(f"hand {s}", [KINDS[i] for i, n in enumerate(counts) for _ in range(n)])
        if s in particle.offers:
            new._set_zone(f"offer {s}", list(particle.offers[s][1].cards()))
    new.set_chance(Chance(rng.getrandbits(64)))
    return new


def _jitter(
    free: dict[int, list[int]],
    particle: Particle,
    bounds: dict[int, list[int]],
    rng: random.Random,
) -> None:
    """Swap `JITTER` pairs of cards not on offer between two traders, never
    a trader's leading commodity nor below a known bound. The filter's
    particles thin out to a few distinct deals as the hand goes on; the
    swaps spread the samples over the cards the trading says least about."""
    seats = list(free)
    if len(seats) < 2:
        return
    for _ in range(JITTER):
        a, b = rng.sample(seats, 2)
        mine = _swappable(free[a], particle.offers.get(a), bounds[a])
        theirs = _swappable(free[b], particle.offers.get(b), bounds[b])
        pairs = [(x, y) for x in mine for y in theirs if x != y]
        if not pairs:
            continue
        x, y = rng.choice(pairs)
        exchange(free[a], free[b], x, y)


def _swappable(free: list[int], offer: tuple[int, Lot] | None, bound: list[int]) -> list[int]:
    """The commodities a trader may give in a jitter swap: held off offer,
    not its leading one, and above its known bound."""
    held = list(free)
    if offer is not None:
        for i, n in offer[1].needs():
            held[i] += n
    lead = _leader(held)
    return [k for k in GOODS if k != lead and free[k] and held[k] > bound[k]]


def _deal(
    pool: list[PitCard],
    sizes: dict[int, tuple[int, int]],
    bounds: dict[int, list[int]],
    drift: dict[int, int],
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
    counts: dict[int, list[int]] = {}
    for s, (held, offered) in sizes.items():
        need = held + offered - len(given.get(s, []))
        counts[s] = counts_of(given.get(s, []) + rest[:need])
        del rest[:need]
    _collect(counts, bounds, drift, rng)
    deal: dict[int, tuple[list[PitCard], list[PitCard]]] = {}
    for s, (_, offered) in sizes.items():
        cards = [KINDS[i] for i, n in enumerate(counts[s]) for _ in range(n)]
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


def traded_cards(hand: PitHand) -> dict[int, int]:
    """How many cards each seat has given in trades this hand (public)."""
    traded = dict.fromkeys(range(hand.players), 0)
    for event in hand.log[hand.log_start :]:
        if event.type == "trade":
            for side in ("seller", "buyer"):
                traded[event.public[side]] += event.public["count"]
    return traded


def _leader(held: list[int]) -> int:
    """The commodity a holding has most of (its likely collection)."""
    return max(GOODS, key=held.__getitem__)


def _collect(
    counts: dict[int, list[int]],
    bounds: dict[int, list[int]],
    drift: dict[int, int],
    rng: random.Random,
) -> None:
    """Gather each trader's cards toward its leading commodity, `drift[s]`
    swaps for seat `s`, never below a known bound (see the module)."""

    def spare(seat: int, kind: int) -> bool:
        """Whether `seat` holds a card of `kind` beyond what it is known to hold."""
        return counts[seat][kind] > (bounds[seat][kind] if seat in bounds else 0)

    for s, swaps in drift.items():
        for _ in range(swaps):
            mine = counts[s]
            lead = _leader(mine)
            junk = [k for k in GOODS if k != lead and spare(s, k)]
            donors = [d for d in counts if d != s and spare(d, lead) and _leader(counts[d]) != lead]
            if not junk or not donors:
                break
            k, d = rng.choice(junk), rng.choice(donors)
            exchange(mine, counts[d], k, lead)
