"""What a seat sees of a hand of Ace Pit, declared (`AcePitHand.view`).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict
whose annotations are strings cannot tell `NotRequired` keys apart.
"""

from typing import Literal, NotRequired, TypedDict

from pitkit.core.views import Card, SeatView, TableView

__all__ = ["AcePitPhase", "AcePitSeat", "AcePitTrick", "AcePitView"]

AcePitPhase = Literal["lead", "respond", "over"]
"""``lead``: the leader lays a card; ``respond``: the other player answers it; ``over``."""


class AcePitSeat(SeatView):
    """One of the two seats."""

    points: int | None
    """Its points this hand; None while the running score is hidden (A6)."""


class AcePitTrick(TypedDict):
    """A finished trick: the lead, the response and the verdict."""

    leader: int
    lead: Card
    """The led card."""
    response: str
    """The responder's one or two cards, as one text (``7H TH``)."""
    winner: int
    """The seat that scored the trick and leads the next one."""
    play: str
    """The play's name, e.g. ``The Pin, Double Flush, Spoon``."""
    points: NotRequired[int]
    """What the trick scored (absent while the running score is hidden, A6)."""


class AcePitView(TableView):
    """A seat's view of a hand of Ace Pit."""

    phase: AcePitPhase  # type: ignore[misc]  # narrows TableView's str
    leader: int
    """The seat that leads the current trick."""
    trick: int
    """The trick being played, 1 to 7."""
    table: Card | None
    """The led card waiting for its response; None between tricks."""
    stock: int
    """Cards left in the face-down stock."""
    players: list[AcePitSeat]
    tricks: list[AcePitTrick]
    """The finished tricks of this hand, in order."""
    played: list[Card]
    """The cards of the finished tricks, face up."""
    responses: NotRequired[dict[str, str]]
    """When this seat is to respond: what each legal response would score,
    by its action text (``respond 7H TH``)."""
