"""Ace Pit's rule options (rulings A1-A6), one field per named option."""

from __future__ import annotations

from dataclasses import dataclass

from pitkit.core.errors import BadOptionError
from pitkit.core.rules import RuleSet, option

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules(RuleSet):
    """The options of Ace Pit; the defaults are the seed's game."""

    hidden_running_score: bool = option(
        False,
        "hide every point total, and the points of each trick, until the game ends (A6)",
        label="Hide the scores until the end",
    )
    hands: int = option(11, "hands in a game; the seed's game is 11 (A1)", label="Hands in a game")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.hands < 1:
            raise BadOptionError("hands must be at least 1")
