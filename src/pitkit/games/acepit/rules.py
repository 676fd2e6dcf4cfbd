"""Ace Pit's rule options (rulings A1-A6), one field per named option.

`ranks`, `suits` and `cards_each` cut the deck and the hand (A1: 52 cards,
seven each, so seven tricks) for small games that can be solved exactly
(OpenSpiel's tiny variants, docs/learning.md); every other rule stays.
"""

from __future__ import annotations

from dataclasses import dataclass

from pitkit.core.chance import (
    CutDeck,
    cards_each_option,
    check_cut,
    ranks_option,
    suits_option,
)
from pitkit.core.errors import BadOptionError
from pitkit.core.rules import RuleSet, option

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules(RuleSet, CutDeck):
    """The options of Ace Pit; the defaults are the seed's game."""

    hidden_running_score: bool = option(
        False,
        "hide every point total, and the points of each trick, until the game ends (A6)",
        label="Hide the scores until the end",
    )
    hands: int = option(11, "hands in a game; the seed's game is 11 (A1)", label="Hands in a game")
    ranks: int = ranks_option()
    suits: int = suits_option()
    cards_each: int = cards_each_option(
        7,
        "cards dealt to each player, and so tricks in a hand (A1: 7); the deck must "
        "hold three times as many, less one (both hands and the pick-ups)",
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.hands < 1:
            raise BadOptionError("hands must be at least 1")
        check_cut(self.ranks, self.suits)
        if self.cards_each < 1:
            raise BadOptionError(f"cards_each must be at least 1, not {self.cards_each}")
        # A5: the responder draws after each two-card response, at most once a
        # trick but the last, so the stock must hold cards_each - 1.
        needed = 3 * self.cards_each - 1
        if self.ranks * self.suits < needed:
            raise BadOptionError(
                f"dealing {self.cards_each} each needs a deck of at least {needed} cards "
                f"(both hands and a pick-up for every trick but the last), "
                f"not {self.ranks} ranks of {self.suits} suits"
            )
