"""Pit's particle filter: the other traders' cards, read from the trading.

What a trader does tells on its cards. It offers the cards it does not
collect, as many of a kind as it holds (T4 allows four); it pays with them;
it keeps what it collects. A seat sees each offer's size, who took which
offer, and in its own trades the very cards. So the filter deals the cards
the seat could not see many times over (the particles), and replays the
hand's history through each deal:

- an offer of n cards by another trader is made, in each particle, of n of
  that trader's cards, drawn as the model of a trader below would draw
  them; the particle is weighted by how likely that trader was to offer n
  cards at all;
- paying for an offer between two other traders is drawn and weighted the
  same way, from the payer's cards;
- the cards of the seat's own trades are known: a particle whose trader
  could not have given them dies, and one that could is set right.

Particles that fit the history keep their weight; the rest fade, and the
filter draws a fresh population from the weights whenever too few carry
them. A sample is then one particle's cards and offers.

A trader's choice of cards is modelled as a mixture: part of the time
(`HABIT`) just what `SensibleTrader` would choose (`habits`), otherwise a
softer keenness to part with what it holds least of (`keenness`: `LEAD`,
`SPARE`), since other traders, people above all, are not so single-minded.

The filter's own randomness comes from what the seat saw, so every bot in
a seat reads a hand alike, and reading on from where the last reading
stopped (the readings are kept, see `draw`) gives what reading from the
start would.
"""

from __future__ import annotations

import random
import threading
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from typing import Any

from pitkit.cards import PitCard
from pitkit.core.events import Event
from pitkit.games.pit.habits import collection, junk, payment_value, shorter
from pitkit.games.pit.market import (
    BEAR,
    GOODS,
    INDEX,
    KINDS,
    MAX_LOT,
    Lot,
    exchange,
    payable_lots,
)
from pitkit.games.pit.state import PitHand

__all__ = [
    "PARTICLES",
    "Particle",
    "Reading",
    "draw",
    "forget",
    "habitual_offers",
    "habitual_payments",
    "keenness",
]

Bounds = Mapping[int, Sequence[int]]
"""Seat -> the fewest cards of each kind (`market.KINDS` order) it must hold."""

PARTICLES = 1024
"""Deals the filter follows."""
LEAD = 0.08
"""How much less likely a trader parts with the commodity it holds most of."""
SPARE = 0.6
"""Each card of a commodity held makes parting with it this much less likely."""
FEWER = 0.3
"""How much less likely a trader offers fewer cards of a kind than it can."""
BULL_KEPT = 0.2
"""How much less likely a trader parts with the Bull."""
BEAR_KEPT = 0.3
"""How much less likely a trader holding the Bear puts up a lot without it."""
REPAIR = 0.05
"""A particle's weight is multiplied by this for each card moved to fit the seat's own trades."""
KEPT = 32
"""Readings kept between calls (one per seat and hand in play)."""
HABIT = 0.5
"""How often a trader picks its cards just as `SensibleTrader` would
(`habits`); otherwise by `keenness` alone. At 0.9 the readings were surer
than the trading warrants (docs/performance.md, "Search bots")."""
SMALLER = 0.2
"""How often a sensible offer is one card short (made after one found no taker)."""


def habitual_offers(held: Sequence[int], free: Sequence[int]) -> dict[Lot, float]:
    """The lots a sensible trader holding `held` (`free` not on offer) would
    offer, and how likely each: all its cards of its weakest commodity, or
    one card fewer (`habits.junk`, `habits.shorter`)."""
    lot = junk(held, free, collection(held))
    if lot is None:
        return {}
    short = shorter(lot)
    return {lot: 1.0} if short == lot else {lot: 1 - SMALLER, short: SMALLER}


def habitual_payments(held: Sequence[int], free: Sequence[int], count: int) -> dict[Lot, float]:
    """The lots of `count` cards a sensible trader would pay with, equally
    likely: the best by `habits.payment_value`, never the Bull nor what it collects."""
    target = collection(held)
    lots = [
        lot
        for lot in payable_lots(free, count)
        if not lot.bull and (lot.commodity is None or lot.needs()[0][0] != target)
    ]
    if not lots:
        return {}
    values = [payment_value(held, lot) for lot in lots]
    # SensibleTrader breaks ties with a hundredth of a point at random.
    best = [lot for lot, v in zip(lots, values, strict=True) if v > max(values) - 0.01]
    return {lot: 1 / len(best) for lot in best}


def _mixed(soft: list[tuple[Lot, float]], habit: dict[Lot, float]) -> list[tuple[Lot, float]]:
    """Each lot's chance: `HABIT` of the habitual choice's, the rest of
    `keenness`'s (the `soft` weights, normalised)."""
    total = sum(w for _, w in soft)
    if total == 0:
        return [(lot, HABIT * habit.get(lot, 0.0)) for lot, _ in soft]
    return [(lot, (1 - HABIT) * w / total + HABIT * habit.get(lot, 0.0)) for lot, w in soft]


def keenness(held: Sequence[int], lot: Lot) -> float:
    """How likely, relatively, a trader holding `held` (counts per kind,
    offer included) parts with `lot`: its weakest commodity gladly, its
    leading one hardly, the Bear at once and the Bull hardly."""
    weight = 1.0
    if lot.commodity is not None:
        kind = lot.needs()[0][0]
        weight = SPARE ** held[kind]
        if held[kind] >= max(held[i] for i in GOODS):
            weight *= LEAD
    if lot.bull:
        weight *= BULL_KEPT
    if held[BEAR] and not lot.bear:
        weight *= BEAR_KEPT
    return weight


@dataclass
class Particle:
    """One deal of the hidden cards, followed through the hand: each seat's
    cards not on offer (counts per kind) and each open offer (its number and lot)."""

    free: list[list[int]]
    offers: dict[int, tuple[int, Lot]] = field(default_factory=dict)

    def copy(self) -> Particle:
        """An independent copy."""
        return Particle([f[:] for f in self.free], self.offers.copy())

    def holding(self, seat: int) -> list[int]:
        """`seat`'s cards, its offer included."""
        held = list(self.free[seat])
        if seat in self.offers:
            for i, n in self.offers[seat][1].needs():
                held[i] += n
        return held


class Reading:
    """The particles of one seat in one hand, and how far through the log they are."""

    def __init__(self, hand: PitHand, seat: int) -> None:
        self.seat = seat
        self.first = hand.log[hand.log_start]
        self.read = 0  # events of the hand replayed
        self.last: Event | None = None
        initial = _initial_cards(hand, seat)
        # Seeded by what the seat saw, never by the hidden cards (see the module).
        self.rng = random.Random(repr((seat, hand.players, initial)))
        deal = hand.log[hand.log_start + 1]
        sizes = list(deal.public["cards"]) if deal.type == "deal" else []
        holdings = [hand.holding(s) for s in range(hand.players)]
        dealt = [sum(kind) for kind in zip(*holdings, strict=True)]
        pool = [KINDS[i] for i, n in enumerate(dealt) for _ in range(n - initial[i])]
        self.particles = [self._deal(pool, sizes, initial, hand.players) for _ in range(PARTICLES)]
        self.weights = [1.0] * PARTICLES
        # Which particles `draw` may give at a point of the log (its length then).
        self._fits: tuple[int, list[int], list[float]] | None = None

    def _deal(
        self, pool: list[PitCard], sizes: list[int], initial: list[int], players: int
    ) -> Particle:
        cards = list(pool)
        self.rng.shuffle(cards)
        free = []
        for s in range(players):
            if s == self.seat:
                free.append(list(initial))
                continue
            counts = [0] * len(KINDS)
            for card in cards[: sizes[s]]:
                counts[INDEX[card]] += 1
            del cards[: sizes[s]]
            free.append(counts)
        return Particle(free)

    def follows(self, hand: PitHand) -> bool:
        """Whether this reading is of `hand`, up to a point of its log."""
        events = hand.log[hand.log_start :]
        return (
            events[0] is self.first
            and len(events) >= self.read
            and (self.read == 0 or events[self.read - 1] is self.last)
        )

    def catch_up(self, hand: PitHand) -> None:
        """Replay the events of `hand` not yet read."""
        events = hand.log[hand.log_start :]
        for event in events[self.read :]:
            self._replay(event)
        self.read, self.last = len(events), events[-1]

    def draw(self, hand: PitHand, rng: random.Random, bounds: Bounds) -> Particle | None:
        """A particle drawn by weight among those that end where `hand` is
        (each seat's number of cards, each open offer's number) and hold
        at least `bounds`, what the seat knows of the others' cards
        (`belief.known_holdings`); None if none does. The particles that fit
        are kept until the reading goes on, so `bounds` must be of the same
        point of the hand."""
        if self._fits is None or self._fits[0] != self.read:
            fits = [
                i
                for i, p in enumerate(self.particles)
                if self.weights[i] > 0 and _ends_at(p, hand, self.seat) and _within(p, bounds)
            ]
            self._fits = (self.read, fits, [self.weights[i] for i in fits])
        _, fits, weights = self._fits
        if not fits:
            return None
        return self.particles[rng.choices(fits, weights)[0]]

    # -- the replay ---------------------------------------------------------------

    def _replay(self, event: Event) -> None:
        public, rng = event.public, self.rng
        if event.type == "action" and public["seat"] != self.seat and "offer" in public:
            seat, number = public["seat"], public["offer"]
            words = public["action"].split()
            if words[0] == "offer":
                self._update(lambda p: _offer(p, seat, number, int(words[1]), rng))
            elif words[0] == "withdraw":
                self._update(lambda p: _withdraw(p, seat, number))
        elif event.type == "trade":
            mine = event.private.get(self.seat)
            # The cards `me` gave and got, if it took part (once, not per particle).
            seen = None if mine is None else (_lot_of(mine["gave"]), _lot_of(mine["cards"]))
            self._update(lambda p: _trade(p, self.seat, public, seen, rng))

    def _update(self, step: Callable[[Particle], float]) -> None:
        """Carry every particle through one event, weighting it by how well it fits."""
        pairs = zip(self.particles, self.weights, strict=True)
        weights = [w * step(p) if w > 0 else 0.0 for p, w in pairs]
        total = sum(weights)
        if total == 0:
            # Nothing fits: `draw` finds no particle, and the sampler deals as before.
            self.weights = weights
            return
        self.weights = [w / total for w in weights]
        if 1 / sum(w * w for w in self.weights) < PARTICLES / 2:
            self._resample()

    def _resample(self) -> None:
        """A fresh population, drawn by weight (systematic resampling)."""
        step = 1 / PARTICLES
        mark = self.rng.random() * step
        chosen: list[Particle] = []
        running = 0.0
        for p, w in zip(self.particles, self.weights, strict=True):
            running += w
            # The old population is dropped: a particle drawn once moves over as
            # it is, and only its repeats are copies (half the time of resampling).
            first = True
            while mark < running and len(chosen) < PARTICLES:
                chosen.append(p if first else p.copy())
                first = False
                mark += step
        while len(chosen) < PARTICLES:  # rounding at the end of the sum
            chosen.append(chosen[-1].copy())
        self.particles = chosen
        self.weights = [1.0 / PARTICLES] * PARTICLES


_READINGS: dict[tuple[int, int], Reading] = {}
# Server tables' bots decide in threads: one reading at a time.
_LOCK = threading.Lock()


def draw(hand: PitHand, seat: int, rng: random.Random, bounds: Bounds) -> Particle | None:
    """A particle of `seat`'s reading of `hand` (see `Reading.draw`), the
    reading brought up to date first: carried on from the last reading of
    this hand if there is one, else made anew."""
    with _LOCK:
        key = (seat, id(hand.log[hand.log_start]))
        reading = _READINGS.get(key)
        if reading is None or not reading.follows(hand):
            reading = Reading(hand, seat)
            if len(_READINGS) >= KEPT:
                del _READINGS[next(iter(_READINGS))]  # the oldest
            _READINGS[key] = reading
        reading.catch_up(hand)
        return reading.draw(hand, rng, bounds)


def forget() -> None:
    """Drop every kept reading (a benchmark times readings from the start)."""
    with _LOCK:
        _READINGS.clear()


def _offer(p: Particle, seat: int, number: int, size: int, rng: random.Random) -> float:
    """`seat` offers `size` cards: draw which, and weight by how likely so many."""
    free = p.free[seat]
    fitting = _offers_of_size(tuple(p.holding(seat)), tuple(free), size)
    if fitting is None:
        return 0.0
    lot, total = fitting.pick(rng)
    _take(free, lot)
    p.offers[seat] = (number, lot)
    return total


def _whole(free: Sequence[int], lot: Lot) -> float:
    """Traders offer all their cards of a kind, up to four; fewer less often."""
    if lot.commodity is None:
        return 1.0
    can = min(free[lot.needs()[0][0]], MAX_LOT - lot.bull - lot.bear)
    return 1.0 if lot.commodity_cards >= can else FEWER


def _withdraw(p: Particle, seat: int, number: int) -> float:
    offer = p.offers.pop(seat, None)
    if offer is None or offer[0] != number:
        return 0.0
    _add(p.free[seat], offer[1])
    return 1.0


def _trade(
    p: Particle,
    me: int,
    public: Mapping[str, Any],
    seen: tuple[Lot, Lot] | None,
    rng: random.Random,
) -> float:
    """Carry out a trade: the seller's offer goes to the buyer, the buyer's
    payment to the seller, each known to `me` if it took part (`seen`: the
    lots it gave and got)."""
    seller, buyer = public["seller"], public["buyer"]
    weight = 1.0
    if seller == me:
        assert seen is not None
        sold = seen[0]
    else:
        offer = p.offers.pop(seller, None)
        if offer is None or offer[0] != public["offer"]:
            return 0.0
        sold = offer[1]
        if seen is not None:  # `me` bought: the seller's offer was what `me` got
            got = seen[1]
            if got != sold:
                weight = _swap(p, seller, sold, got, me)
                if weight == 0:
                    return 0.0
                sold = got
    if buyer == me:
        assert seen is not None
        paid = seen[0]
    else:
        known = None if seen is None else seen[1]
        if "paid_with" in public:  # the buyer's own offer paid (all saw it go)
            payment, fits = _paid_with_offer(p, buyer, public["paid_with"], known, me)
        else:
            payment, fits = _payment(p, buyer, public["count"], known, me, rng)
        if payment is None:
            return 0.0
        paid, weight = payment, weight * fits
    if seller != me:
        _add(p.free[seller], paid)
    if buyer != me:
        _add(p.free[buyer], sold)
    return weight


def _paid_with_offer(
    p: Particle, buyer: int, number: int, known: Lot | None, me: int
) -> tuple[Lot | None, float]:
    """`buyer` paid with its own open offer `number` (`known`, if `me` got it)."""
    own = p.offers.pop(buyer, None)
    if own is None or own[0] != number:
        return None, 0.0
    if known is None or known == own[1]:
        return own[1], 1.0
    # The particle put up other cards than `me` got: as for a seller's offer.
    return known, _swap(p, buyer, own[1], known, me)


def _payment(
    p: Particle, buyer: int, count: int, known: Lot | None, me: int, rng: random.Random
) -> tuple[Lot | None, float]:
    """What `buyer` pays `count` cards with, and how likely (`known`, if `me`
    saw it), from its cards not on offer (its offer paying is said aloud:
    `_paid_with_offer`)."""
    free = p.free[buyer]
    held = tuple(p.holding(buyer))
    if known is None:
        payable = _payments(held, tuple(free), count)
        if payable is None:
            return None, 0.0
        lot, total = payable.pick(rng)
        _take(free, lot)
        return lot, total
    chance = _chance(_payment_odds(held, tuple(free), count), known)
    if chance:  # the one lot it can be: drawn for certain, weighted by its odds
        _take(free, known)
        return known, chance
    weight = _repair(p, buyer, known, me)
    if not weight:
        return known, 0.0
    weight *= _chance(_payment_odds(tuple(p.holding(buyer)), tuple(free), count), known)
    _take(free, known)
    return known, weight


def _swap(p: Particle, seat: int, drawn: Lot, known: Lot, me: int) -> float:
    """Put `drawn` back and offer `known` instead, weighted by how likely
    each was offered."""
    free = p.free[seat]
    _add(free, drawn)
    was = _chance(_offer_odds(tuple(free), tuple(free)), drawn)
    weight = _repair(p, seat, known, me)
    if not weight:
        return 0.0
    weight *= _chance(_offer_odds(tuple(free), tuple(free)), known) / was
    _take(free, known)
    return weight


def _repair(p: Particle, seat: int, lot: Lot, me: int) -> float:
    """Make `seat` able to put up `lot`, which `me` saw it put up, by
    swapping it cards of the lot's kinds from other traders for its weakest
    others (the particle missed them); `REPAIR` for each card, 0 if it cannot."""
    free = p.free[seat]
    needed = dict(lot.needs())
    weight = 1.0
    for kind, n in needed.items():
        while free[kind] < n:
            donors = [s for s, f in enumerate(p.free) if s not in (me, seat) and f[kind]]
            spare = [k for k, have in enumerate(free) if have and k not in needed]
            if not donors or not spare:
                return 0.0
            donor = p.free[max(donors, key=lambda s: p.free[s][kind])]
            exchange(free, donor, min(spare, key=free.__getitem__), kind)
            weight *= REPAIR
    return weight


# Resampling leaves many particles alike: their traders' odds are worked out once.
@lru_cache(maxsize=1 << 16)
def _offer_odds(held: tuple[int, ...], free: tuple[int, ...]) -> list[tuple[Lot, float]]:
    """Every lot a trader holding `held` (`free` not on offer) can offer, and how likely."""
    lots = [lot for n in range(1, MAX_LOT + 1) for lot in payable_lots(free, n)]
    soft = [(lot, keenness(held, lot) * _whole(free, lot)) for lot in lots]
    return _mixed(soft, habitual_offers(held, free))


@lru_cache(maxsize=1 << 16)
def _payment_odds(
    held: tuple[int, ...], free: tuple[int, ...], count: int
) -> list[tuple[Lot, float]]:
    """Every lot of `count` cards a trader can pay with, and how likely."""
    soft = [(lot, keenness(held, lot)) for lot in payable_lots(free, count)]
    return _mixed(soft, habitual_payments(held, free, count))


@dataclass(frozen=True, slots=True)
class _Draw:
    """Lots to draw one of by weight: their weights' running sums, and the total."""

    lots: tuple[Lot, ...]
    sums: tuple[float, ...]

    @staticmethod
    def of(weighted: list[tuple[Lot, float]]) -> _Draw | None:
        """The draw among `weighted` (None if there are no lots)."""
        if not weighted:
            return None
        sums = tuple(accumulate(w for _, w in weighted))
        return _Draw(tuple(lot for lot, _ in weighted), sums)

    def pick(self, rng: random.Random) -> tuple[Lot, float]:
        """A lot drawn by weight, and the weights' total."""
        total = self.sums[-1]
        at = bisect_right(self.sums, rng.random() * total)
        return self.lots[min(at, len(self.lots) - 1)], total


# Many particles draw from the same holding: the draws are made once as well.
@lru_cache(maxsize=1 << 16)
def _offers_of_size(held: tuple[int, ...], free: tuple[int, ...], size: int) -> _Draw | None:
    """The lots of `size` cards a trader holding `held` may offer, to draw from."""
    return _Draw.of([(lot, w) for lot, w in _offer_odds(held, free) if lot.size == size])


@lru_cache(maxsize=1 << 16)
def _payments(held: tuple[int, ...], free: tuple[int, ...], count: int) -> _Draw | None:
    """The lots of `count` cards a trader holding `held` may pay with, to draw from."""
    return _Draw.of(_payment_odds(held, free, count))


def _chance(odds: list[tuple[Lot, float]], lot: Lot) -> float:
    return next((w for each, w in odds if each == lot), 0.0)


def _lot_of(names: list[str]) -> Lot:
    return Lot.of(PitCard(name) for name in names)


def _add(counts: list[int], lot: Lot) -> None:
    for i, n in lot.needs():
        counts[i] += n


def _take(counts: list[int], lot: Lot) -> None:
    for i, n in lot.needs():
        counts[i] -= n


def _initial_cards(hand: PitHand, seat: int) -> list[int]:
    """`seat`'s cards as dealt: what it holds, less what it got, plus what it gave."""
    counts = hand.holding(seat)
    for event in hand.log[hand.log_start :]:
        mine = event.private.get(seat) if event.type == "trade" else None
        if mine is not None:
            for name in mine["cards"]:
                counts[INDEX[PitCard(name)]] -= 1
            for name in mine["gave"]:
                counts[INDEX[PitCard(name)]] += 1
    return counts


def _within(p: Particle, bounds: Bounds) -> bool:
    """Whether every seat in `bounds` holds at least its bound of each kind
    (mending a particle to fit the seat's own trades may break one)."""
    for s, bound in bounds.items():
        held = p.holding(s)
        if any(have < need for have, need in zip(held, bound, strict=True)):
            return False
    return True


def _ends_at(p: Particle, hand: PitHand, seat: int) -> bool:
    """Whether the particle's seats hold as many cards, and have the same
    offers open, as in `hand` (the public part of where it is)."""
    for s in range(hand.players):
        if s == seat:
            continue
        offer = hand.offers.get(s)
        mine = p.offers.get(s)
        if (offer is None) != (mine is None):
            return False
        if offer is not None and mine is not None and offer.id != mine[0]:
            return False
        if sum(p.free[s]) != sum(hand.free[s]):
            return False
    return True
