"""What a seat sees of a hand of Pit, declared (`PitHand.view`).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict
whose annotations are strings cannot tell `NotRequired` keys apart.
"""

from typing import Literal, NotRequired, TypedDict

from pitkit.core.views import Card, SeatView, TableView

__all__ = ["PitCommodity", "PitOffer", "PitOwnOffer", "PitPhase", "PitSeat", "PitView"]

PitPhase = Literal["sorting", "trading", "over"]
"""``sorting``: dealt, and the dealer has not opened the pit yet (T3);
``trading``: the pit is open and everyone trades at once (T4); ``over``."""

PitCommodity = Literal["wheat", "barley", "corn", "rye", "oats", "hay", "flax"]
"""One of the seven commodities (T1)."""


class PitSeat(SeatView):
    """One trader: the cards it holds (offered ones included) and its points."""

    points: int
    """Its score in the match so far."""


class PitOffer(TypedDict):
    """An offer on the market, as everyone sees it: how many cards, not which."""

    offer: int
    """The offer's number, unique in the match (what ``accept`` names)."""
    seat: int
    """The trader holding it out."""
    count: int
    """How many cards are offered."""


class PitOwnOffer(TypedDict):
    """This seat's own offer on the market, its cards shown to it alone."""

    offer: int
    """The offer's number, unique in the match."""
    count: int
    cards: list[Card]


class PitView(TableView):
    """A trader's view of a hand of Pit."""

    phase: PitPhase  # type: ignore[misc]  # narrows TableView's str
    commodities: list[PitCommodity]
    """The commodities in play this hand."""
    bull_and_bear: bool
    """Whether the Bull and the Bear are in the deck (the Bull & Bear edition)."""
    players: list[PitSeat]
    offers: list[PitOffer]
    """The open offers on the market."""
    trades: int
    """Trades made so far this hand."""
    offer: NotRequired[PitOwnOffer | None]
    """This seat's own open offer, None when it has none."""
