"""Pitch's rule options (rulings C1-C11), one field per named option.

The defaults are the informal column of ``seeds/pitch.txt`` as the rulings
settle it; ``mode=tournament`` switches to the Darrtown tournament column.
`ranks`, `suits`, `cards_each` and `run_cards` cut the deck and the hand
(C2, C5: 52 cards, six each, three more to run it) for small games that
can be solved exactly (OpenSpiel's tiny variants, docs/learning.md).
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

__all__ = ["MAX_BID", "MIN_BID", "TOURNAMENT_DEALS", "Rules", "run_size", "team_seats"]

MIN_BID = 2
MAX_BID = 4
TOURNAMENT_DEALS = 2  # C10: the game ends once every player has dealt twice
SIX_RUN = 2  # C5: with six players, two more each when the dealer runs it


def run_size(seated: int, run_cards: int = 3) -> int:
    """Cards each player gets when the dealer runs it: `run_cards` (C5:
    three), but no more than two with six players."""
    return min(run_cards, SIX_RUN) if seated == 6 else run_cards


@dataclass(frozen=True)
class Rules(RuleSet, CutDeck):
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
    ranks: int = ranks_option("5: T J Q K A")
    suits: int = suits_option()
    cards_each: int = cards_each_option(6, "cards dealt to each player, three at a time (C2: 6)")
    run_cards: int = option(
        3,
        "cards more for each player when the dealer runs it (C5: 3; at most 2 with six players)",
        label="Cards more when the dealer runs it",
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
        check_cut(self.ranks, self.suits)
        if self.cards_each < 1 or self.run_cards < 0:
            raise BadOptionError(
                f"cards_each is at least 1 and run_cards at least 0, "
                f"not {self.cards_each} and {self.run_cards}"
            )

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
        needed = players * (self.cards_each + run_size(players, self.run_cards))
        if self.ranks * self.suits < needed:
            raise BadOptionError(
                f"dealing {self.cards_each} each to {players} players, and "
                f"{run_size(players, self.run_cards)} more each if the dealer runs it, needs "
                f"{needed} cards, not {self.ranks} ranks of {self.suits} suits (C2, C5)"
            )

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
