"""A match: a series of hands with scores, dealer rotation and an end condition.

`Match` is itself a `State`, so everything that plays a hand plays a match.
It deals each hand, passes actions to it, and when the hand ends asks the
game's own rules (`score_hand`, `match_outcome`) what the hand was worth and
whether the match is over. Seats that are out of the match (Pitty Pat with
chips, a Pitch player sitting out) are simply not among the hand's players.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar

from mypy_extensions import mypyc_attr

from pitkit.core.actions import Action
from pitkit.core.chance import Chance
from pitkit.core.events import Event
from pitkit.core.rules import RuleSet
from pitkit.core.state import Outcome, State

__all__ = ["RECORD_CHANGES", "Match"]

#: The events after which a match's record (`Match.record`) may differ: a hand scored
#: (with the next deal: `Match._scored` logs it) or, in Pitch, a judge's ruling. Between
#: them the record stays as it was, so a reader who holds it need not build it again.
RECORD_CHANGES = frozenset({"scores", "ruling"})

A = TypeVar("A", bound=Action)
R = TypeVar("R", bound=RuleSet)


# Compiled in the fast build (hatch_build.py): the games written in Python
# subclass it, and `_clone_base` makes instances without running `__init__`.
@mypyc_attr(allow_interpreted_subclasses=True)
class Match(State[A], Generic[A, R]):
    """A series of hands of one game. Subclasses supply the game's match rules."""

    #: Log events, besides actions, that change the match and so are replayed
    #: from a log through `replay_event` (Pitch's judge rulings).
    replayed_events: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self, rules: R, players: int, seed: int | None = None, chance: Chance | None = None
    ) -> None:
        self.rules = rules
        self.players = players
        self.log = []
        self.chance = chance if chance is not None else Chance(seed)
        self.chance.sink = self.log
        self.scores: list[int] = [0] * players
        self.seated: list[int] = list(range(players))  # seats still in the match
        self.results: list[Outcome] = []
        self.totals: list[list[int]] = []
        """The scores after each hand, one row a hand: the match's score sheet."""
        self._outcome: Outcome | None = None
        self.dealer = self.first_dealer()
        self.hand: State[A] = self.deal()

    # -- the game's match rules -----------------------------------------

    def replay_event(self, event: Event) -> None:
        """Carry out again an event of a type in `replayed_events`."""
        raise NotImplementedError(f"{type(self).__name__} does not replay {event.type!r} events")

    def first_dealer(self) -> int:
        """Who deals the first hand: by default drawn at random."""
        return self.chance.pick(self.players)

    @abstractmethod
    def deal(self) -> State[A]:
        """A new hand among `seated`, dealt by `dealer`, sharing this match's log and chance."""

    @abstractmethod
    def score_hand(self, result: Outcome) -> None:
        """Record a finished hand: update `scores`, `seated` and `dealer`."""

    @abstractmethod
    def match_outcome(self) -> Outcome | None:
        """The match's outcome if it is over after the hands so far, else None."""

    def scores_shown(self) -> bool:
        """Whether running scores are shown during the match (some games hide them)."""
        return True

    def shown_scores(self) -> list[int] | None:
        """The scores as the table sees them: None while they are hidden."""
        return list(self.scores) if self.scores_shown() or self.is_over else None

    def shown_totals(self) -> list[list[int]]:
        """The score sheet as the table sees it: the scores after each hand, none
        while running scores are hidden (then every row once the match is over)."""
        return [list(row) for row in self.totals] if self.scores_shown() or self.is_over else []

    def _scored(self, hand: int) -> None:
        """Log a hand's scores (`hand`: its number) and keep them on the sheet;
        then the match's end, or the next hand's deal."""
        self.totals.append(list(self.scores))
        self.log.append(Event("scores", {"hand": hand, "scores": self.shown_scores()}))
        if self._outcome is not None:
            self.log.append(Event("match_over", {"result": self._outcome.to_json()}))
        else:
            self.hand = self.deal()

    # -- State, by delegation to the current hand -------------------------

    @property
    def to_act(self) -> frozenset[int]:
        return frozenset() if self._outcome else self.hand.to_act

    def _legal_actions(self, player: int) -> list[A]:
        return [] if self._outcome else self.hand.legal_actions(player)

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def current_hand(self) -> State[A]:
        return self.hand

    def allows(self, player: int, action: A) -> bool:
        return self.hand.allows(player, action)

    def parse_action(self, spelling: str | Mapping[str, Any] | Action) -> A:
        return self.hand.parse_action(spelling)

    def why_illegal(self, player: int, action: A) -> str:
        return self.hand.why_illegal(player, action)

    def _action_event(self, player: int, action: A) -> Event:
        return self.hand._action_event(player, action)

    def _apply(self, player: int, action: A) -> None:
        self.hand._apply(player, action)
        if not self.hand.is_over:
            return
        result = self.hand.outcome
        assert result is not None
        self.results.append(result)
        self.score_hand(result)
        self._outcome = self.match_outcome()
        self._scored(len(self.results))

    def view(self, seat: int | None = None) -> dict[str, Any]:
        view = self.hand.view(seat)
        view["match"] = self.record()
        return view

    def record(self) -> dict[str, Any]:
        """The match's part of every seat's view (`MatchRecord`): the same for all,
        and changed only when a hand is scored (or, in Pitch, by a judge's ruling).
        Games add their own score sheet here."""
        return {
            "hand": len(self.results) + (0 if self._outcome else 1),
            "dealer": self.dealer,
            "scores": self.shown_scores(),
            "seated": list(self.seated),
            "results": [r.summary for r in self.results],
            "totals": self.shown_totals(),
            "outcome": self._outcome.to_json() if self._outcome else None,
        }

    def clone(self) -> Self:
        new = self._clone_base()
        new.scores = list(self.scores)
        new.seated = list(self.seated)
        new.results = list(self.results)
        new.totals = list(self.totals)  # rows are never changed, only added
        new.hand = self.hand.clone()
        new.hand.log = new.log
        new.hand.chance = new.chance
        return new

    def zones(self) -> dict[str, Sequence[Any]]:
        return self.hand.zones()

    def hidden_zones(self, seat: int | None) -> list[str]:
        return self.hand.hidden_zones(seat)

    def _set_zone(self, name: str, cards: list[Any]) -> None:
        self.hand._set_zone(name, cards)

    def with_hand(self, hand: State[A]) -> Self:
        """A copy of this match playing `hand` (a copy of its current hand,
        its unseen cards dealt otherwise) from here on, with the hand's chance."""
        new = self.clone()
        hand.log = new.log
        new.hand = hand
        new.set_chance(hand.chance)
        return new

    def set_chance(self, chance: Chance) -> None:
        super().set_chance(chance)
        self.hand.chance = chance

    def header(self) -> dict[str, Any]:
        """The first line of this match's log: what is needed to replay it."""
        return {
            "game": self.game,
            "players": self.players,
            "rules": self.rules.to_json(),
            "seed": self.chance.seed,
        }

    @staticmethod
    def ranked(points: Sequence[float], summary: str, **detail: Any) -> Outcome:
        """An outcome ranking seats by `points`, higher first."""
        return Outcome(Outcome.ranking(points), tuple(points), summary, detail)
