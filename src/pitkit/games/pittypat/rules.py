"""Pitty Pat's rule options (rulings Y1-Y5), one field per named option.

`ranks`, `suits` and `cards_each` cut the deck and the hand (Y1: 52 cards,
five each) for small games that can be solved exactly (OpenSpiel's tiny
variants, docs/learning.md); every other rule stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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
    """The options of Pitty Pat; the defaults are the seed's basic game."""

    must_match: bool = option(
        False,
        "a player who can match the top card must match rather than draw (Y2)",
        label="Must match when able",
    )
    pairs_on_table: bool = option(
        False,
        "matched pairs are laid face up in front of the player instead of on the pile (Y3)",
        label="Pairs laid face up on the table",
    )
    turn_limit: int = option(
        1000,
        "a hand that runs longer than this many turns is a draw (Y4)",
        label="Turns before a hand is a draw",
    )
    dead_hand: bool = option(
        False,
        "a hand in which nobody can match again (no card of a rank anyone holds is left in "
        "the stock or the pile) is a draw at once, not at the turn limit",
        label="End a hand nobody can win",
    )
    scoring: Literal["wins", "chips"] = option(
        "wins",
        "wins: count hands won, first to the target wins; chips: losers pay the winner (Y5)",
        label="Scoring",
    )
    target: int = option(
        5, "hands to win the match when scoring by wins (Y5)", label="Hands to win"
    )
    chips: int = option(
        10, "chips each player starts with when scoring by chips", label="Chips at the start"
    )
    hands: int | None = option(
        None,
        "play this many hands, then the most wins (or chips) wins",
        label="Hands to play (instead of a target)",
    )
    ranks: int = ranks_option()
    suits: int = suits_option()
    cards_each: int = cards_each_option(
        5,
        "cards dealt to each player (Y1: 5); an odd number, so that the last card "
        "can always go out on a match",
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.turn_limit < 1 or self.target < 1 or self.chips < 1:
            raise BadOptionError("turn_limit, target and chips must be at least 1")
        if self.hands is not None and self.hands < 1:
            raise BadOptionError("hands must be at least 1")
        check_cut(self.ranks, self.suits)
        # Pairs leave a hand two cards at a time and a match with a discard
        # takes two, so an odd hand stays odd and ends on a match (Y3).
        if self.cards_each < 1 or self.cards_each % 2 == 0:
            raise BadOptionError(f"cards_each is an odd number, 1 or more, not {self.cards_each}")

    def check_players(self, players: int) -> None:
        """Refuse, with `BadOptionError`, a deck too small to deal `players`
        hands and turn up a card (Y1)."""
        needed = players * self.cards_each + 1
        if self.ranks * self.suits < needed:
            raise BadOptionError(
                f"dealing {self.cards_each} each to {players} players and turning one up "
                f"needs {needed} cards, not {self.ranks} ranks of {self.suits} suits"
            )
