"""The score of a hand of Pit (T3, T5): a corner's settlement and how the hand ended.

A corner scores its commodity's value for the cornerer, double for all nine
cards and the Bull; whoever else holds the Bear, or the Bull, loses 20, as
do early trading (T3) and a false corner (T5). A hand that never corners
ends unscored at one of pitkit's safety limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from pitkit.cards import Commodity, PitCard
from pitkit.core.events import Event
from pitkit.core.state import Outcome
from pitkit.games.pit.choices import SET_SIZE
from pitkit.games.pit.market import BEAR, BULL, INDEX, KINDS, describe_cards

__all__ = ["PENALTY", "hand_end", "settle_corner"]

PENALTY: Final = 20
"""Points lost for early trading (T3), a false corner, and holding the Bear or
someone else's Bull at a corner (T5)."""


def settle_corner(
    points: list[int],
    holdings: Sequence[Sequence[int]],
    player: int,
    commodity: Commodity,
    value: int,
) -> tuple[Event, str]:
    """Score `player`'s corner of `commodity`, worth `value`, into `points`
    (T5): the cornerer's value, and 20 off the Bear's holder and the Bull's
    holder unless that is the cornerer. `holdings` are every seat's cards as
    counts per kind. Returns the corner's event and the hand's summary."""
    held = holdings[player]
    points[player] += value
    losers: dict[str, int] = {}
    for kind, name in ((BEAR, "bear"), (BULL, "bull")):
        for seat, other in enumerate(holdings):
            if seat != player and other[kind]:
                points[seat] -= PENALTY
                losers[name] = seat
    doubled = held[BULL] == 1 and held[INDEX[PitCard[commodity.name]]] == SET_SIZE
    event = Event(
        "corner",
        {
            "seat": player,
            "commodity": str(commodity),
            "cards": describe_cards(card for i, card in enumerate(KINDS) for _ in range(held[i])),
            "points": value,
            "doubled": doubled,
            "bear": losers.get("bear"),
            "bull": losers.get("bull"),
        },
    )
    text = f"seat {player} cornered {commodity} for {value}"
    if "bear" in losers:
        text += f"; seat {losers['bear']} held the Bear"
    if "bull" in losers:
        text += f"; seat {losers['bull']} held the Bull"
    return event, text


def hand_end(
    points: Sequence[int],
    summary: str,
    cornerer: int | None,
    commodity: Commodity | None,
    trades: int,
) -> tuple[Outcome, Event]:
    """How a hand ended with `points`, after `trades` trades, and its last
    event: cornered by `cornerer` in `commodity`, or (None) stalled."""
    scores = tuple(float(p) for p in points)
    outcome = Outcome(
        Outcome.ranking(scores),
        scores,
        summary,
        {
            "cornerer": cornerer,
            "commodity": None if commodity is None else str(commodity),
            "trades": trades,
            "stalled": cornerer is None,
        },
    )
    end = Event(
        "hand_end",
        {"cornerer": cornerer, "summary": summary, "points": list(points), "trades": trades},
    )
    return outcome, end
