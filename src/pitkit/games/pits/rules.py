"""The options of Pits (rulings P1-P10), one field per named option."""

from __future__ import annotations

from dataclasses import dataclass

from pitkit.core.errors import BadOptionError
from pitkit.core.rules import RuleSet, option

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules(RuleSet):
    """Pits options; the defaults are the BGA rules."""

    wildness_degrees: bool = option(
        True,
        "fewer and lower wild cards beat more and higher; off: only natural beats wild (P5)",
        label="Fewer, lower wild cards beat more",
    )
    finnish_twos: bool = option(
        False,
        "a 2 is wild only beside a natural card or a Joker of the rank it stands for (P9)",
        label="Finnish twos",
    )
    no_rejoin_after_pass: bool = option(
        False,
        "Dutch: a player who passed stays out until the round ends (P6)",
        label="Dutch passing: out until the round ends",
    )
    min_run_of_sets: int = option(
        3, "fewest ranks in a run of sets (P3)", label="Shortest run of sets"
    )
    hands: int = option(
        10, "hands in a game; the BGA sheet asks for at least 10 (P10)", label="Hands in a game"
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.min_run_of_sets < 2:
            raise BadOptionError("min_run_of_sets must be at least 2")
        if self.hands < 1:
            raise BadOptionError("hands must be at least 1")
