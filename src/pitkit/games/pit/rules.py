"""Pit's rule options (rulings T1-T7), one field per named option, with the
safety limits that end a hand nobody corners (T7)."""

from __future__ import annotations

from dataclasses import dataclass

from pitkit.cards import Commodity
from pitkit.core.errors import BadOptionError
from pitkit.core.rules import RuleSet, option

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules(RuleSet):
    """The options of Pit; the defaults are the classic game to 500 (T1-T7)."""

    retired = frozenset({"stall_limit"})  # T7: a match never ends for stalled hands

    bull_and_bear: bool = option(
        False,
        "add the Bull (wild, doubles a full corner) and the Bear (penalty), 3-6 players (T2)",
        label="Bull & Bear edition",
    )
    commodities: str | None = option(
        None,
        "the commodities in play, comma-separated, one a player (default: the most valuable) (T1)",
        label="Commodities in play",
    )
    target: int = option(
        500, "the first player to reach this score after a hand wins (T6)", label="Points to win"
    )
    sorting_seconds: int = option(
        30,
        "seconds everyone has to sort their cards before the dealer rings the bell and "
        "trading opens; 0 opens trading at once (T3)",
        label="Sorting time (seconds)",
    )
    trades_per_player: int = option(
        30,
        "a hand with this many trades per player and no corner is stalled: it scores "
        "nothing and the same dealer deals again (T7)",
        label="Trades a player before a stalled hand is redealt",
    )
    idle_limit: int = option(
        200,
        "a hand with this many market actions in a row and no trade is stalled (T7)",
        label="Market moves without a trade before a redeal",
    )
    hand_limit: int | None = option(
        None,
        "end the match after this many hands, the highest score winning; off unless "
        "a table sets it (T7)",
        label="Most hands before the game stops",
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.target < 1:
            raise BadOptionError("target must be at least 1")
        if self.sorting_seconds < 0:
            raise BadOptionError("sorting_seconds cannot be negative")
        if min(self.trades_per_player, self.idle_limit) < 1:
            raise BadOptionError("trades_per_player and idle_limit must be at least 1")
        if self.hand_limit is not None and self.hand_limit < 1:
            raise BadOptionError("hand_limit must be at least 1")
        if self.commodities is not None:
            self._named()

    def sorting_period(self) -> float:
        """Seconds of sorting after each deal before the dealer may open the pit (T3)."""
        return float(self.sorting_seconds)

    def _named(self) -> list[Commodity]:
        """The commodities named by the option, checked (T1)."""
        assert self.commodities is not None
        names = [n.strip().lower() for n in self.commodities.split(",") if n.strip()]
        known = {str(c): c for c in Commodity}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise BadOptionError(f"{unknown[0]!r} is not a commodity; they are: {', '.join(known)}")
        if len(set(names)) != len(names):
            raise BadOptionError("each commodity may be named once")
        return [known[n] for n in names]

    def chosen(self, players: int) -> tuple[Commodity, ...]:
        """The commodities in play for `players` seats, highest value first (T1)."""
        if not 3 <= players <= 7:
            raise BadOptionError(f"Pit is for 3 to 7 players, not {players}")
        if self.bull_and_bear and players > 6:
            raise BadOptionError("the Bull & Bear edition is for 3 to 6 players (T2)")
        if self.commodities is None:
            return tuple(Commodity)[:players]
        named = self._named()
        if len(named) != players:
            raise BadOptionError(
                f"{players} players need {players} commodities, not {len(named)} (T1)"
            )
        return tuple(c for c in Commodity if c in named)
