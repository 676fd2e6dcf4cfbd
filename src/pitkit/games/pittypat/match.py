"""A match of Pitty Pat: hands won to a target, or chips (ruling Y5)."""

from __future__ import annotations

from pitkit.core.chance import Chance
from pitkit.core.match import Match
from pitkit.core.narrate import plural
from pitkit.core.state import Outcome
from pitkit.games.pittypat.actions import PittyPatAction
from pitkit.games.pittypat.rules import Rules
from pitkit.games.pittypat.state import PittyPatHand

__all__ = ["PittyPatMatch"]


class PittyPatMatch(Match[PittyPatAction, Rules]):
    """Hands of Pitty Pat until someone reaches the target, or only one
    player has chips left, or the agreed number of hands is played.
    The first dealer is drawn at random; the deal passes to the left."""

    game = "pitty-pat"

    def __init__(
        self, rules: Rules, players: int, seed: int | None = None, chance: Chance | None = None
    ) -> None:
        self.left_after: dict[int, int] = {}  # seat -> hands played when it ran out of chips
        super().__init__(rules, players, seed, chance=chance)
        if rules.scoring == "chips":
            self.scores = [rules.chips] * players

    def deal(self) -> PittyPatHand:
        return PittyPatHand(
            self.rules, self.players, self.dealer, self.chance, seated=self.seated, log=self.log
        )

    def score_hand(self, result: Outcome) -> None:
        winner = result.detail["winner"]
        if winner is not None:
            if self.rules.scoring == "wins":
                self.scores[winner] += 1
            else:
                for seat in self.seated:
                    if seat != winner:
                        self.scores[seat] -= 1
                        self.scores[winner] += 1
                for seat in [s for s in self.seated if self.scores[s] == 0]:
                    self.left_after[seat] = len(self.results)
                    self.seated.remove(seat)
        self.dealer = self._next_seated(self.dealer)

    def _next_seated(self, seat: int) -> int:
        later = [s for s in self.seated if s > seat]
        return later[0] if later else self.seated[0]

    def match_outcome(self) -> Outcome | None:
        played = len(self.results)
        if self.rules.scoring == "wins":
            done = max(self.scores) >= self.rules.target
            what = "hands won"
            standing = [float(s) for s in self.scores]
        else:
            done = len(self.seated) == 1
            what = "chips"
            # Among players out of chips, the later one to leave places higher.
            standing = [
                self.scores[s] + self.left_after.get(s, played) / (played + 1)
                for s in range(self.players)
            ]
        if not done and (self.rules.hands is None or played < self.rules.hands):
            return None
        ranks = Outcome.ranking(standing)
        leaders = [s for s in range(self.players) if ranks[s] == 1]
        scores = ", ".join(f"seat {s} {self.scores[s]}" for s in range(self.players))
        who = " and ".join(f"seat {s}" for s in leaders)
        verb = "win" if len(leaders) > 1 else "wins"
        summary = f"{who} {verb} after {plural(played, 'hand')} ({what}: {scores})"
        return Outcome(ranks, tuple(float(s) for s in self.scores), summary, {"hands": played})
