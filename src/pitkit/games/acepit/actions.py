"""Ace Pit's actions: lead a card, or respond with one card or two."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pitkit.cards import Card
from pitkit.core.actions import Action, ActionCodec

__all__ = ["CODEC", "AcePitAction", "Lead", "Respond"]


def _order(card: Card) -> int:
    # Rank then suit, written so that a Joker typed by mistake sorts instead
    # of raising: the move is then refused as illegal with a reason.
    return (card % 13) * 4 + card // 13 if card < 52 else card


@dataclass(frozen=True, slots=True)
class Lead(Action):
    """Lay `card` to start a trick. Text: ``lead 8H``."""

    kind: ClassVar[str] = "lead"
    card: Card

    def __str__(self) -> str:
        # The generic text, written out: every action is logged as text.
        return f"lead {self.card}"


@dataclass(frozen=True, slots=True)
class Respond(Action):
    """Answer the led card with one card or two. One card that wins nothing
    is a Throw Away. The cards are kept in rank order, so ``respond 9H 7H``
    and ``respond 7H 9H`` are the same move. Text: ``respond 7H 9H``."""

    kind: ClassVar[str] = "respond"
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "respond " + (" ".join(map(str, self.cards)) or "-")

    def __post_init__(self) -> None:
        cards = self.cards
        if len(cards) == 2 and _order(cards[0]) <= _order(cards[1]):
            return  # the usual case, already in order: no new tuple
        object.__setattr__(self, "cards", tuple(sorted(cards, key=_order)))


AcePitAction = Lead | Respond
CODEC = ActionCodec(Lead, Respond)
