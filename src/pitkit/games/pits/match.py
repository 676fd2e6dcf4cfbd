"""A game of Pits: hands by the same five seats, 2 points for 1st and 1 for
2nd each hand, the 3rd dealing the next (P7), the exchange between hands (P8)."""

from __future__ import annotations

from typing import Any

from pitkit.core.chance import Chance
from pitkit.core.match import Match
from pitkit.core.narrate import plural
from pitkit.core.state import Outcome
from pitkit.games.pits.actions import PitsAction
from pitkit.games.pits.rules import Rules
from pitkit.games.pits.sheet import match_sheet
from pitkit.games.pits.state import PLAYERS, POINTS, PitsHand

__all__ = ["PitsMatch"]


class PitsMatch(Match[PitsAction, Rules]):
    """A game of `rules.hands` hands (10 by default, the BGA minimum). The first
    dealer is drawn at random (P1). Its view's match record carries the BGA
    score sheet (`match_sheet`)."""

    game = "pits"

    def __init__(
        self,
        rules: Rules,
        players: int = PLAYERS,
        seed: int | None = None,
        chance: Chance | None = None,
    ) -> None:
        if players != PLAYERS:
            raise ValueError(f"Pits is for {PLAYERS} players")
        self.places: list[int] | None = None
        super().__init__(rules, players, seed, chance=chance)

    def deal(self) -> PitsHand:
        return PitsHand(self.rules, self.dealer, self.chance, places=self.places, log=self.log)

    def score_hand(self, result: Outcome) -> None:
        self.places = list(result.detail["order"])
        for place, seat in enumerate(self.places):
            self.scores[seat] += POINTS[place]
        self.dealer = self.places[2]  # 3rd deals the next hand and leads it (P7)

    def match_outcome(self) -> Outcome | None:
        if len(self.results) < self.rules.hands:
            return None
        summary = ", ".join(f"seat {s} {self.scores[s]}" for s in range(PLAYERS))
        return self.ranked(self.scores, f"after {plural(len(self.results), 'hand')}: {summary}")

    def record(self) -> dict[str, Any]:
        record = super().record()
        record["sheet"] = match_sheet([r.detail["order"] for r in self.results])
        return record
