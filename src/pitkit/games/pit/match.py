"""A match of Pit: hands until someone reaches 500 (T6), with the deal
passing to the left; a stalled hand is dealt again by the same dealer (T7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mypy_extensions import mypyc_attr

from pitkit.core.actions import Action
from pitkit.core.chance import Chance
from pitkit.core.errors import IllegalActionError
from pitkit.core.events import Event
from pitkit.core.match import Match
from pitkit.core.narrate import plural
from pitkit.core.state import Outcome
from pitkit.games.pit.actions import PitAction
from pitkit.games.pit.rules import Rules
from pitkit.games.pit.state import PitHand, apply_checked, attempt_checked

__all__ = ["PitMatch"]


# Compiled (hatch_build.py), a class would build each instance by running its
# __init__, which `copy.copy`, and so `clone`, cannot do; a class open to
# subclasses written in Python is built as Python builds classes.
@mypyc_attr(allow_interpreted_subclasses=True)
class PitMatch(Match[PitAction, Rules]):
    """Hands of Pit until a player reaches the target after a hand (T6).

    The first dealer is drawn at random; the deal moves clockwise, to the
    left, except after a stalled hand, which scores nothing and is dealt
    again by the same dealer (T7); only T6 ends a match, or the
    `hand_limit` a table may set. Offer numbers run on across hands, so an acceptance that races a
    corner names an offer of a finished hand and is refused as such.
    """

    game = "pit"

    def __init__(
        self, rules: Rules, players: int, seed: int | None = None, chance: Chance | None = None
    ) -> None:
        rules.chosen(players)  # BadOption for a table the rules do not fit (T1, T2)
        self.next_offer = 1
        self.previous: str | None = None
        super().__init__(rules, players, seed, chance=chance)

    def deal(self) -> PitHand:
        return PitHand(
            self.rules,
            self.players,
            self.dealer,
            self.chance,
            log=self.log,
            first_offer=self.next_offer,
            previous=self.previous,
        )

    @property
    def current(self) -> PitHand:
        """The hand being played (or the last one, once the match is over)."""
        hand = self.hand
        assert isinstance(hand, PitHand)
        return hand

    def legal_actions(self, player: int) -> list[PitAction]:
        # The hand keeps its legal actions; a second cache here would only cost.
        return [] if self._outcome else self.current.legal_actions(player)

    def apply(self, player: int, action: PitAction | str | Mapping[str, Any]) -> list[Event]:
        """As `State.apply`, but a trade attempt before the opening from a
        seat outside `to_act` is taken, and penalized (T3)."""
        move = action if isinstance(action, Action) else self.parse_action(action)
        if self._outcome is not None:
            raise IllegalActionError("the game is over")
        return apply_checked(self, self.current, player, move)

    def attempt(self, player: int, action: PitAction) -> list[Event] | str:
        if self._outcome is not None:
            return "the game is over"
        return attempt_checked(self, self.current, player, action)

    def score_hand(self, result: Outcome) -> None:
        for seat, points in enumerate(result.points):
            self.scores[seat] += int(points)
        self.next_offer = self.current.next_offer
        self.previous = result.summary
        if not result.detail["stalled"]:  # after a stalled hand the same dealer deals (T7)
            self.dealer = (self.dealer + 1) % self.players

    def match_outcome(self) -> Outcome | None:
        hands = len(self.results)
        scores = [float(s) for s in self.scores]
        top = max(scores)
        if top >= self.rules.target:
            # T6: the higher score wins; an exact tie at the top plays another hand.
            if scores.count(top) > 1:
                return None
            return self._end(scores, f"after {plural(hands, 'hand')}")
        if self.rules.hand_limit is not None and hands >= self.rules.hand_limit:
            return self._end(scores, f"after the hand limit of {plural(hands, 'hand')}")
        return None

    def _end(self, scores: list[float], when: str) -> Outcome:
        ranks = Outcome.ranking(scores)
        leaders = [s for s in range(self.players) if ranks[s] == 1]
        who = " and ".join(f"seat {s}" for s in leaders)
        verb = "win" if len(leaders) > 1 else "wins"
        table = ", ".join(f"seat {s} {self.scores[s]}" for s in range(self.players))
        return Outcome(
            ranks,
            tuple(scores),
            f"{who} {verb} {when} ({table})",
            {"hands": len(self.results)},
        )
