"""Pitch's rule options (rulings C1-C11), one field per named option.

The defaults are the informal column of ``seeds/pitch.txt`` as the rulings
settle it; ``mode=tournament`` switches to the Darrtown tournament column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pitkit.core.errors import BadOptionError
from pitkit.core.rules import RuleSet, option

__all__ = ["MAX_BID", "MIN_BID", "TOURNAMENT_DEALS", "Rules", "team_seats"]

MIN_BID = 2
MAX_BID = 4
TOURNAMENT_DEALS = 2  # C10: the game ends once every player has dealt twice


@dataclass(frozen=True)
class Rules(RuleSet):
    """The options of Pitch. Options of the informal column (`target`,
    `hands`, `teams`) are ignored or refused in tournament mode, as noted."""

    mode: Literal["informal", "tournament"] = option(
        "informal",
        "informal: the friendly column; tournament: the Darrtown rules "
        "(2-4 individuals, cut for the deal, each deals twice, C1/C3/C10)",
        label="Rules played",
    )
    dealer_steal: Literal["none", "same", "one_more"] = option(
        "one_more",
        "the dealer may take the high bid for the same amount, for one more (at most 4), "
        "or not at all (C4, C5)",
        label="The dealer may take the bid",
    )
    jack_to: Literal["captured", "played"] = option(
        "captured",
        "the Jack of trump's point goes to whoever captures it, or whoever plays it (C7)",
        label="The Jack of trump's point goes to",
    )
    target: int = option(
        11,
        "informal: points that win the game, e.g. 11, 15 or 21 (C9); unused in tournaments",
        label="Points to win",
    )
    hands: int | None = option(
        None,
        "informal: play this many deals instead of playing to the target (C9)",
        label="Deals to play (instead of a target)",
    )
    teams: Literal["none", "2x3", "3x2"] = option(
        "none",
        "informal, six players: two teams of three sitting alternately, or three teams "
        "of two sitting opposite (C1)",
        label="Teams (six players)",
    )
    hand_limit: int = option(
        100,
        "safety stop, not in the rules: after this many hands the game ends "
        "and tied leaders share first place",
        label="Most hands before the game stops",
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.target < 1:
            raise BadOptionError(f"target must be at least 1, not {self.target}")
        if self.hands is not None and self.hands < 1:
            raise BadOptionError(f"hands must be at least 1, not {self.hands}")
        if self.hand_limit < 1:
            raise BadOptionError(f"hand_limit must be at least 1, not {self.hand_limit}")
        if self.mode == "tournament" and self.teams != "none":
            raise BadOptionError("tournament play is for individuals only (C1): use teams=none")
        if self.mode == "tournament" and self.hands is not None:
            raise BadOptionError("a tournament game ends after each player has dealt twice (C10)")

    @property
    def tournament(self) -> bool:
        """True for the tournament column."""
        return self.mode == "tournament"

    def players(self) -> int | None:
        """Six seats for teams (C1); otherwise the game's usual number."""
        return 6 if self.teams != "none" else None

    def check_players(self, players: int) -> None:
        """Refuse a table size these rules do not allow (C1), with `BadOption`."""
        if self.tournament and not 2 <= players <= 4:
            raise BadOptionError(f"tournament tables seat 2 to 4 players, not {players} (C1)")
        if not 2 <= players <= 6:
            raise BadOptionError(f"Pitch is for 2 to 6 players, not {players} (C1)")
        if self.teams != "none" and players != 6:
            raise BadOptionError(f"teams={self.teams} needs 6 players, not {players} (C1)")

    def teams_for(self, players: int) -> tuple[tuple[int, ...], ...] | None:
        """The teams as tuples of seats, or None for individuals."""
        self.check_players(players)
        return team_seats(self.teams)


def team_seats(teams: str) -> tuple[tuple[int, ...], ...] | None:
    """Seats of each team at a six-player table (C1): ``2x3`` sit alternately
    (0 2 4 against 1 3 5), ``3x2`` sit opposite (0 3, 1 4, 2 5)."""
    if teams == "none":
        return None
    if teams == "2x3":
        return ((0, 2, 4), (1, 3, 5))
    if teams == "3x2":
        return ((0, 3), (1, 4), (2, 5))
    raise BadOptionError(f"teams is none, 2x3 or 3x2, not {teams!r}")
