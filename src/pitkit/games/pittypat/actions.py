"""Pitty Pat's actions: match the top card (and discard), or draw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pitkit.cards import Card
from pitkit.core.actions import Action, ActionCodec

__all__ = ["CODEC", "Draw", "MatchCard", "PittyPatAction"]


@dataclass(frozen=True, slots=True)
class MatchCard(Action):
    """Pair `card` from the hand with the top of the pile, then discard
    `discard`, which becomes the new top. A player matching with their last
    card goes out and discards nothing. Text: ``match 7H 2C`` or ``match 7H``."""

    kind: ClassVar[str] = "match"
    card: Card
    discard: Card | None = None

    def __str__(self) -> str:
        # The generic text, written out: every action is logged as text.
        if self.discard is None:
            return f"match {self.card}"
        return f"match {self.card} {self.discard}"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Turn the top card of the stock onto the pile. Text: ``draw``."""

    kind: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


PittyPatAction = MatchCard | Draw
CODEC = ActionCodec(MatchCard, Draw)
