"""How a sensible Pit trader picks its cards, worked out on counts alone.

`SensibleTrader` plays by these rules, and the particle filter reads the
other traders by them (`particles`): one place says what "sensible" means.
Holdings are counts per kind of card (`market.KINDS` order), the open offer
included; `free` is the part not on offer.
"""

from __future__ import annotations

from collections.abc import Sequence

from pitkit.games.pit.market import BEAR, BULL, COMMODITIES, GOODS, MAX_LOT, Lot, lot_of

__all__ = ["collection", "junk", "payment_value", "shorter", "weakness"]


def collection(held: Sequence[int]) -> int:
    """The kind a trader collects: the commodity it holds most of, the more
    valuable on ties (kinds run from the most valuable)."""
    return max(GOODS, key=lambda kind: (held[kind], -kind))


def weakness(held: Sequence[int], kind: int) -> float:
    """How keen a trader is to part with its cards of `kind` (higher: keener):
    the fewer it holds, the keener, and the less valuable on ties."""
    return -held[kind] - COMMODITIES[kind].value / 1000


def junk(held: Sequence[int], free: Sequence[int], target: int, bull: bool = False) -> Lot | None:
    """What to offer: all the cards, up to four, of the weakest commodity
    but the `target`, with the Bear if held (and the Bull if `bull` says to
    let it go); or those alone; None if there is nothing to offer."""
    bear = free[BEAR] > 0
    bull = bull and free[BULL] > 0
    goods = [kind for kind in GOODS if kind != target and free[kind]]
    if not goods:
        return lot_of(bull + bear, None, bull, bear) if bull or bear else None
    worst = max(goods, key=lambda kind: weakness(held, kind))
    return lot_of(min(free[worst] + bull + bear, MAX_LOT), COMMODITIES[worst], bull, bear)


def shorter(lot: Lot) -> Lot:
    """`lot` with one card fewer, keeping the Bear in it (for an offer that
    found no taker); a single card stays as it is."""
    if lot.commodity is None or lot.commodity_cards == 1:
        if lot.size == 1:
            return lot
        return lot_of(1, None, bear=True) if lot.bear else lot_of(1, lot.commodity)
    return lot_of(lot.size - 1, lot.commodity, lot.bull, lot.bear)


def payment_value(held: Sequence[int], lot: Lot) -> float:
    """How glad a trader is to pay with `lot`: the Bear above all, then its
    weakest cards, and a whole group gone is better still."""
    value = 10.0 * lot.bear
    if lot.commodity is not None:
        kind = lot.needs()[0][0]
        value += weakness(held, kind)
        if held[kind] == lot.commodity_cards:
            value += 2
    return value
