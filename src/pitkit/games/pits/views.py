"""What a seat sees of a hand of Pits, declared (`PitsHand.view`).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict
whose annotations are strings cannot tell `NotRequired` keys apart.
"""

from typing import Literal, NotRequired, TypedDict

from pitkit.core.views import Card, MatchRecord, SeatView, TableView

__all__ = [
    "PitsMatchRecord",
    "PitsMeld",
    "PitsPhase",
    "PitsSeat",
    "PitsSheet",
    "PitsSheetHand",
    "PitsView",
]

PitsPhase = Literal["give_highest", "first_takes", "give_concealed", "fourth_takes", "play", "over"]
"""The exchange (P8): ``give_highest`` (4th and 5th give their highest card,
face up), ``first_takes`` (1st takes one, 2nd gets the other),
``give_concealed`` (1st and 2nd give any card, face down), ``fourth_takes``
(4th takes one, 5th gets the other); then ``play``, and ``over``."""


class PitsSeat(SeatView):
    """One seat at the Pits table."""

    passed: bool
    """Whether it has passed on the meld on the table."""
    place: int | None
    """Its finishing place this hand (1-5) once it has gone out, else None."""
    gave_face_down: bool
    """Whether it has given its face-down card in the exchange."""


class PitsMeld(TypedDict):
    """The meld on the table: the one to beat."""

    cards: list[Card]
    reading: str
    """How it was declared: single, set, run, pairs, triples, quads or run-of-N."""
    meld: str
    """The meld in words, e.g. ``a run of 6 to A (1 wild: 10)``."""
    seat: int
    """Who laid it."""


class PitsSheetHand(TypedDict):
    """One hand on the BGA score sheet."""

    hand: int
    points: list[int]
    """Each seat's points this hand: 2 for 1st, 1 for 2nd, else 0."""
    dealer: int
    """Who deals the next hand: the 3rd (P7)."""


class PitsSheet(TypedDict):
    """The match's BGA score sheet (`pitkit.games.pits.sheet.match_sheet`), by seat."""

    hands: list[PitsSheetHand]
    points: list[int]
    percentage: list[float]
    """100 x points / (2 x hands): each seat's share of the points there were."""
    full: int
    """The hands a full game takes (10)."""


class PitsMatchRecord(MatchRecord):
    """A Pits match's part of a view: the record, with the BGA score sheet."""

    sheet: PitsSheet  # type: ignore[misc]  # narrows MatchRecord's free-form sheet


class PitsView(TableView):
    """A seat's view of a hand of Pits."""

    phase: PitsPhase  # type: ignore[misc]  # narrows TableView's str
    places: list[int] | None
    """The previous hand's finishing order, 1st to 5th, which calls for the
    exchange; None in the first hand."""
    players: list[PitsSeat]
    table: PitsMeld | None
    """The meld to beat; None when the leader is to lead, and in the exchange."""
    offered: dict[str, Card]
    """The exchange's face-up cards, by the seat (as text) that gave them."""
    played: list[Card]
    """Every card laid in melds so far this hand, face up."""
    gave: NotRequired[Card]
    """The card this seat gave face down in the exchange, while it lies on the table."""
    match: NotRequired[PitsMatchRecord]  # type: ignore[misc]  # adds the BGA sheet
