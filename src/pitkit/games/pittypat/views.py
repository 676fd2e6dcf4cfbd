"""What a seat sees of a hand of Pitty Pat, declared (`PittyPatHand.view`).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict
whose annotations are strings cannot tell `NotRequired` keys apart.
"""

from typing import Literal

from pitkit.core.views import Card, SeatView, TableView

__all__ = ["PittyPatPhase", "PittyPatSeat", "PittyPatView"]

PittyPatPhase = Literal["turn", "after_draw", "over"]
"""``turn``: the player to act may match the top card or draw; ``after_draw``:
they turned up a card they can match, and must match it; ``over``."""


class PittyPatSeat(SeatView):
    """One seat at the Pitty Pat table: its cards in hand and its pairs laid down."""

    seated: bool
    """Whether the seat plays this hand (with chips, a player out of chips sits out)."""
    pairs: list[Card]
    """The pairs it has laid face up in front of it, two cards by two."""


class PittyPatView(TableView):
    """A seat's view of a hand of Pitty Pat."""

    phase: PittyPatPhase  # type: ignore[misc]  # narrows TableView's str
    turn: int
    """The turn being played, counted from 1."""
    top: Card | None
    """The top card of the pile, the one to match (None only if the last
    match took the pile's only card)."""
    pile: list[Card]
    """The face-up discard pile, the top card last."""
    stock: int
    """Cards left in the face-down stock."""
    players: list[PittyPatSeat]
