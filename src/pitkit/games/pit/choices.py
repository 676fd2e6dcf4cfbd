"""What a seat of Pit may do with its own cards, remembered per holding.

Real-time play asks a seat for its legal actions each time it looks at the
table, so they are quick to list: what a seat may do with its own cards (call
a corner, withdraw, or offer) and what it can pay for an offer of each size
(`choices_for`) are remembered per holding, and each acceptance of an offer
is made once (`acceptance`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeVar

from pitkit.games.pit.actions import OFFERS, Accept, Corner, PitAction, Withdraw
from pitkit.games.pit.market import (
    BEAR,
    BULL,
    COMMODITIES,
    LOT_KEYS,
    MAX_LOT,
    Lot,
    OpenOffer,
    payable_lots,
)

__all__ = [
    "ACCEPTS",
    "MAX_SEATS",
    "SET_SIZE",
    "Choices",
    "Payments",
    "acceptance",
    "choices_for",
    "cornered",
    "offer_key",
]

SET_SIZE: Final = 9
"""Cards of each commodity (T1)."""
MAX_SEATS: Final = 7
"""Pit seats at most 7 players (T1)."""

# Made once: lists of choices share them.
_WITHDRAW: Final = Withdraw()
_CORNER: Final = Corner()
Payments = tuple[tuple[Lot, ...], ...]
"""The lots one can pay for an offer, by its size."""
Choices = tuple[tuple[PitAction, ...], Payments]
"""What a seat may do with its own cards (its legal actions but the
acceptances: call a corner, withdraw, or offer), and what it can pay."""
_CHOICES: Final[dict[tuple[int, ...], Choices]] = {}
_SHARED: Final[dict[Any, Any]] = {}
T = TypeVar("T")


def choices_for(free: Sequence[int], offer: OpenOffer | None) -> Choices:
    """The `Choices` of a seat holding `free` (counts per kind) and `offer`."""
    lot = None if offer is None else offer.facts.lot
    if offer is not None and lot is None:  # only in a copy with unseen cards redealt
        return _work_out(free, offer)
    # Remembered: play meets the same few thousand holdings over and over.
    # Forgotten wholesale now and then, to bound the memory it takes.
    key = (*free, -1 if lot is None else lot.key)
    known = _CHOICES.get(key)
    if known is None:
        if len(_CHOICES) >= 1 << 15:
            _CHOICES.clear()
            _SHARED.clear()
        known = _CHOICES[key] = _work_out(free, offer)
    return known


def _shared(value: T) -> T:
    """The one kept copy of a tuple equal to `value`: thousands of holdings
    share a few hundred lists of choices, and each object kept is work for
    the garbage collector."""
    shared: T = _SHARED.setdefault(value, value)
    return shared


def _work_out(free: Sequence[int], offer: OpenOffer | None) -> Choices:
    held = list(free)
    own: list[PitAction] = []
    sizes = range(1, MAX_LOT + 1)
    pay = ((), *(_shared(tuple(payable_lots(free, size))) for size in sizes))
    if offer is None:
        own += [action for size in sizes for action in OFFERS.payable(free, size)]
    else:
        own.append(_WITHDRAW)
        for i, n in offer.facts.needs:
            held[i] += n
        lot = offer.facts.lot
        if lot is not None and lot not in pay[lot.size]:
            pay = tuple(
                _shared((*lots, lot)) if size == lot.size else lots for size, lots in enumerate(pay)
            )
    if cornered(held) is not None:
        own.insert(0, _CORNER)  # the safe call; a named false announcement costs 20
    return _shared((_shared(tuple(own)), _shared(pay)))


ACCEPTS: Final[dict[int, Accept]] = {}
"""Each acceptance made once, by `offer_key(offer) + lot.key`: every seat
lists them look after look, and offers of the same number, seat and size
recur from match to match."""


def offer_key(offer: OpenOffer) -> int:
    """Where `offer`'s acceptances start among the keys of `ACCEPTS`."""
    return (offer.id * MAX_SEATS + offer.seat) * LOT_KEYS


def acceptance(offer: OpenOffer, lot: Lot) -> Accept:
    """The acceptance of `offer` paying with `lot`, made and kept."""
    if len(ACCEPTS) >= 1 << 15:
        ACCEPTS.clear()
    accept = Accept(offer.seat, lot.commodity, lot.bull, lot.bear, offer.id)
    ACCEPTS[offer_key(offer) + lot.key] = accept
    return accept


def cornered(held: Sequence[int]) -> int | None:
    """The kind of card a holding of `held` (counts per kind) corners, if
    any (T5): all 9 cards of a commodity, or 8 and the Bull, and not the Bear."""
    if held[BEAR]:
        return None
    for kind in range(len(COMMODITIES)):  # commodities come first in KINDS
        n = held[kind]
        if n == SET_SIZE or (n == SET_SIZE - 1 and held[BULL]):
            return kind
    return None
