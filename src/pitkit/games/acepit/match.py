"""A game of Ace Pit: 11 hands with alternating deal, most points wins (A1, A6)."""

from __future__ import annotations

from pitkit.core.chance import Chance
from pitkit.core.match import Match
from pitkit.core.narrate import plural
from pitkit.core.state import Outcome
from pitkit.games.acepit.actions import AcePitAction
from pitkit.games.acepit.rules import Rules
from pitkit.games.acepit.state import AcePitHand

__all__ = ["AcePitMatch"]


class AcePitMatch(Match[AcePitAction, Rules]):
    """Hands of Ace Pit, `rules.hands` of them (11), the deal alternating.
    The first dealer is drawn at random: the seed's players argue about it.
    Equal totals at the end are a draw (A6)."""

    game = "ace-pit"

    def __init__(
        self, rules: Rules, players: int, seed: int | None = None, chance: Chance | None = None
    ) -> None:
        # `Game.new_match` passes the chance by position.
        super().__init__(rules, players, seed, chance=chance)

    def deal(self) -> AcePitHand:
        return AcePitHand(self.rules, self.players, self.dealer, self.chance, log=self.log)

    def score_hand(self, result: Outcome) -> None:
        for seat, points in enumerate(result.detail["points"]):
            self.scores[seat] += int(points)
        self.dealer = 1 - self.dealer

    def scores_shown(self) -> bool:
        return not self.rules.hidden_running_score

    def match_outcome(self) -> Outcome | None:
        played = len(self.results)
        if played < self.rules.hands:
            return None
        a, b = self.scores
        if a == b:
            summary = f"a draw at {a} each after {plural(played, 'hand')}"
        else:
            seat = 0 if a > b else 1
            summary = f"seat {seat} wins {max(a, b)} to {min(a, b)} after {plural(played, 'hand')}"
        return self.ranked([float(s) for s in self.scores], summary, hands=played)
