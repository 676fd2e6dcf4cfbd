"""Pitch's actions: the bidding words (C4, C5) and playing a card (C6).

Text forms: ``pass``, ``bid 3``, ``steal 3``, ``take``, ``run``, ``sell``
and ``play AS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pitkit.cards import Card
from pitkit.core.actions import Action, ActionCodec

__all__ = ["CODEC", "Bid", "Pass", "PitchAction", "Play", "Run", "Sell", "Steal", "Take"]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline to bid. The dealer passing lets the high bidder pitch. Text: ``pass``."""

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid `amount` (2, 3 or 4), higher than the highest bid so far (C4). Text: ``bid 3``."""

    kind: ClassVar[str] = "bid"
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """The dealer takes the high bid for the same amount or for one more,
    as the `dealer_steal` option allows (C4, C5). Text: ``steal 3``."""

    kind: ClassVar[str] = "steal"
    amount: int


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Everyone else passed: the dealer takes it for 2 and pitches (C5). Text: ``take``."""

    kind: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class Run(Action):
    """Everyone else passed: the dealer runs it for 2, dealing more cards
    to everyone before a second round of bids (C5). Text: ``run``."""

    kind: ClassVar[str] = "run"


@dataclass(frozen=True, slots=True)
class Sell(Action):
    """After running it and being outbid, the dealer lets the high bidder
    pitch at their bid (C5). Text: ``sell``."""

    kind: ClassVar[str] = "sell"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play `card` to the trick; the pitcher's first card sets trump (C6). Text: ``play AS``."""

    kind: ClassVar[str] = "play"
    card: Card

    def __str__(self) -> str:
        # The generic text, written out: every action is logged as text.
        return f"play {self.card}"


PitchAction = Pass | Bid | Steal | Take | Run | Sell | Play
CODEC = ActionCodec(Pass, Bid, Steal, Take, Run, Sell, Play)
