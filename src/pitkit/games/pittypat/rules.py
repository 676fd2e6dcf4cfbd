"""Pitty Pat's rule options (rulings Y1-Y5), one field per named option."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pitkit.core.errors import BadOptionError
from pitkit.core.rules import RuleSet, option

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules(RuleSet):
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

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.turn_limit < 1 or self.target < 1 or self.chips < 1:
            raise BadOptionError("turn_limit, target and chips must be at least 1")
        if self.hands is not None and self.hands < 1:
            raise BadOptionError("hands must be at least 1")
