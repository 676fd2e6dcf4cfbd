"""One hand of Ace Pit (rulings A1-A5), as a state machine.

Zones: each player's ``hand``, the face-down ``stock`` (last card on top),
the led card on the ``table`` while it waits for its response, and the
``played`` cards of finished tricks, face up. Only the other player's hand
and the stock are hidden.

Card counts: both players hold 7 at the deal. In each trick the leader
plays one card; the responder plays one, or plays two and draws one (A5).
Either way both players end the trick with one card fewer than they began
it, so they always hold the same number, and the hand is exactly 7 tricks.
The responder draws at most 6 times (in the 7th trick it holds one card),
and the stock holds 38, so it never runs out. A cut deck (the ``ranks``,
``suits`` and ``cards_each`` options) keeps this: its rules refuse a stock
smaller than ``cards_each - 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Self

from mypy_extensions import mypyc_attr

from pitkit.cards import Card, format_cards, standard_deck
from pitkit.core.chance import Chance
from pitkit.core.events import Event
from pitkit.core.pickling import frozen_reduce
from pitkit.core.state import Outcome, State
from pitkit.games.acepit.actions import CODEC, AcePitAction, Lead, Respond
from pitkit.games.acepit.rules import Rules
from pitkit.games.acepit.scoring import Score, judge_cards

__all__ = ["HAND_SIZE", "TRICKS", "AcePitHand", "Phase", "Trick"]

HAND_SIZE = 7
"""Cards dealt to each player in the seed's game (A1); `Rules.cards_each`."""
TRICKS = 7
"""Tricks in a hand of the seed's game: one a card dealt to each player."""


class Phase(Enum):
    """Where the hand stands."""

    LEAD = "lead"  # the leader lays a card
    RESPOND = "respond"  # the other player answers it
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led what, the response, and the verdict."""

    leader: int
    lead: Card
    response: tuple[Card, ...]
    score: Score

    @property
    def winner(self) -> int:
        """The seat that scored the trick and leads the next one."""
        return self.leader if self.score.winner == "leader" else 1 - self.leader

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # compiled, it has no __dict__ to pickle


# Compiled (hatch_build.py), a class would build each instance by running its
# __init__, which `clone` cannot do: see `pitkit.games.pit.state.Hand`.
@mypyc_attr(allow_interpreted_subclasses=True)
class AcePitHand(State[AcePitAction]):
    """One hand of Ace Pit dealt by `dealer`; the other player leads first (A1)."""

    codec = CODEC
    game = "ace-pit"

    def __init__(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        chance: Chance,
        *,
        log: list[Event] | None = None,
    ) -> None:
        if players != 2:
            raise ValueError(f"Ace Pit is for 2 players, not {players}")
        if dealer not in (0, 1):
            raise ValueError(f"the dealer is seat 0 or 1, not {dealer}")
        self.rules = rules
        self.players = 2
        self.dealer = dealer
        self._join(log, chance)
        self.cards: list[list[Card]] = [[], []]
        self.stock: list[Card] = []
        self.table: list[Card] = []
        self.played: list[Card] = []
        self.tricks: list[Trick] = []
        self.points = [0, 0]
        self._outcome: Outcome | None = None
        self.leader = 1 - dealer
        self.phase = Phase.LEAD
        self._deal()

    # -- the deal (A1) ----------------------------------------------------

    def _deal(self) -> None:
        deck = self.chance.shuffle(self.rules.deck())
        each = self.rules.cards_each
        # One card at a time, the non-dealer first.
        self.cards[self.leader] = deck[0 : 2 * each : 2]
        self.cards[self.dealer] = deck[1 : 2 * each : 2]
        self.stock = deck[: 2 * each - 1 : -1]  # the top of the stock is the end
        self.log.append(
            Event(
                "deal",
                {"dealer": self.dealer, "leader": self.leader, "stock": len(self.stock)},
                {
                    seat: {"hand": format_cards(sorted(self.cards[seat], key=_by_rank))}
                    for seat in (0, 1)
                },
            )
        )

    # -- State ----------------------------------------------------------------

    @property
    def responder(self) -> int:
        """The seat that answers the current lead."""
        return 1 - self.leader

    @property
    def lead(self) -> Card | None:
        """The card led in the current trick, while it waits for its response."""
        return self.table[0] if self.table else None

    @property
    def to_act(self) -> frozenset[int]:
        if self.phase is Phase.LEAD:
            return _SEATS[self.leader]
        if self.phase is Phase.RESPOND:
            return _SEATS[1 - self.leader]
        return _NOBODY

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def points_shown(self) -> bool:
        """Whether views and the log show points (A6 hides them until the end)."""
        return not self.rules.hidden_running_score or self.phase is Phase.OVER

    def _legal_actions(self, player: int) -> list[AcePitAction]:
        phase = self.phase
        if phase is Phase.LEAD:
            if player != self.leader:
                return []
            return [_LEADS[card] for card in sorted(self.cards[player], key=_BY_RANK)]
        if phase is not Phase.RESPOND or player == self.leader:
            return []
        hand = sorted(self.cards[player], key=_BY_RANK)
        led = self.table[0]
        actions: list[AcePitAction] = [_SINGLES[card] for card in hand]
        # `scoring.is_two_card_response`, inlined: a Double Fork (one rank) or a Pin
        # (one suit, one card above the led card and one below).
        rank, suit, low = _RANK, _SUIT, _RANK[led]
        for i, a in enumerate(hand):
            pairs = _PAIR[a]
            for b in hand[i + 1 :]:
                if rank[a] == rank[b] or (
                    suit[a] == suit[b] and (rank[a] - low) * (rank[b] - low) < 0
                ):
                    actions.append(pairs[b])
        return actions

    def why_illegal(self, player: int, action: AcePitAction) -> str:
        if self.phase is Phase.OVER:
            return "the hand is over"
        hand = self.cards[player]
        if isinstance(action, Lead):
            if self.phase is Phase.RESPOND:
                return f"answer the led {self.table[0]} first: respond with one card or two"
            return f"you do not hold {action.card}"
        if self.phase is Phase.LEAD:
            return "you lead this trick: lay one card (lead CARD)"
        cards = action.cards
        if not 1 <= len(cards) <= 2:
            return f"a response is one card or two, not {len(cards)} (A2)"
        missing = [c for c in cards if c not in hand]
        if missing:
            return f"you do not hold {format_cards(missing)}"
        if len(set(cards)) < len(cards):
            return f"{cards[0]} is played twice"
        try:
            judge_cards(self.table[0], cards)
        except ValueError as exc:
            return str(exc)
        return f"respond {format_cards(cards)} is not legal now"

    def _apply(self, player: int, action: AcePitAction) -> None:
        if isinstance(action, Lead):
            self.cards[player].remove(action.card)
            self.table.append(action.card)
            self.phase = Phase.RESPOND
        else:
            self._respond(player, action.cards)

    def _respond(self, player: int, cards: tuple[Card, ...]) -> None:
        hand = self.cards[player]
        for card in cards:
            hand.remove(card)
        led = self.table.pop()
        score = judge_cards(led, cards)
        trick = Trick(self.leader, led, cards, score)
        self.tricks.append(trick)
        self.played.append(led)
        self.played += cards
        winner = trick.winner
        self.points[winner] += score.points
        public: dict[str, Any] = {
            "trick": len(self.tricks),
            "leader": self.leader,
            "lead": str(led),
            "response": format_cards(cards),
            "winner": winner,
            "play": _play_name(led, cards),
        }
        if self.points_shown:
            public["points"] = score.points
        self.log.append(Event("trick", public))
        if len(cards) == 2:
            # A5: the pick-up keeps both hands the same size.
            drawn = self.stock.pop()
            hand.append(drawn)
            self.log.append(
                Event(
                    "draw",
                    {"seat": player, "stock": len(self.stock)},
                    {player: {"card": str(drawn)}},
                )
            )
        # The winner leads next; after a Throw Away, or an unbeaten led Ace,
        # that is the leader again.
        self.leader = winner
        if self.cards[0] or self.cards[1]:
            self.phase = Phase.LEAD
        else:
            self._finish()

    def _finish(self) -> None:
        self.phase = Phase.OVER
        points = tuple(float(p) for p in self.points)
        ranks = Outcome.ranking(points)
        if self.rules.hidden_running_score:
            # A hand's result stays in the match's view until the game ends.
            summary = f"hand dealt by seat {self.dealer}: {len(self.tricks)} tricks"
        else:
            summary = f"seat 0 scored {self.points[0]}, seat 1 scored {self.points[1]}"
        self._outcome = Outcome(
            ranks, points, summary, {"points": list(self.points), "tricks": len(self.tricks)}
        )
        public: dict[str, Any] = {"tricks": len(self.tricks)}
        if not self.rules.hidden_running_score:
            public["points"] = list(self.points)
        self.log.append(Event("hand_end", public))

    # -- views ------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        shown = self.points_shown
        view: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "phase": self.phase.value,
            "to_act": sorted(self.to_act),
            "dealer": self.dealer,
            "leader": self.leader,
            "trick": min(len(self.tricks) + 1, self.rules.cards_each),
            "table": str(self.table[0]) if self.table else None,
            "stock": len(self.stock),
            "players": [
                {
                    "seat": s,
                    "cards": len(self.cards[s]),
                    "points": self.points[s] if shown else None,
                }
                for s in (0, 1)
            ],
            "tricks": [_trick_json(t, shown) for t in self.tricks],
            "played": [str(c) for c in self.played],
            "outcome": self._outcome.to_json() if self._outcome else None,
            "history": self.history(seat),
        }
        if seat is not None:
            view["hand"] = [str(c) for c in sorted(self.cards[seat], key=_by_rank)]
            legal = self.legal_actions(seat)
            view["legal"] = [str(a) for a in legal]
            if self.phase is Phase.RESPOND and legal:
                # What each response would score: the player's own table of the rules.
                led = self.table[0]
                view["responses"] = {
                    str(a): _verdict(judge_cards(led, a.cards), shown)
                    for a in legal
                    if isinstance(a, Respond)
                }
        return view

    # -- copies and zones ---------------------------------------------------------

    def clone(self) -> Self:
        new = self._clone_base()
        new.cards = [list(self.cards[0]), list(self.cards[1])]
        new.stock = list(self.stock)
        new.table = list(self.table)
        new.played = list(self.played)
        new.tricks = list(self.tricks)
        new.points = list(self.points)
        return new

    def zones(self) -> dict[str, Sequence[Any]]:
        return {
            "hand 0": self.cards[0],
            "hand 1": self.cards[1],
            "stock": self.stock,
            "table": self.table,
            "played": self.played,
        }

    def hidden_zones(self, seat: int | None) -> list[str]:
        return ["stock"] + [f"hand {s}" for s in (0, 1) if s != seat]

    def _set_zone(self, name: str, cards: list[Any]) -> None:
        if name.startswith("hand "):
            self.cards[int(name.split()[1])] = cards
        elif name in ("stock", "table", "played"):
            setattr(self, name, cards)
        else:
            raise KeyError(f"no zone named {name!r}")


def _by_rank(card: Card) -> int:
    return _RANK_ORDER[card]


_RANK_ORDER = tuple((i % 13) * 4 + i // 13 for i in range(52))
_BY_RANK = _RANK_ORDER.__getitem__  # a sort key that costs no Python call
_RANK = tuple(i % 13 for i in range(52))
_SUIT = tuple(i // 13 for i in range(52))
_SEATS = (frozenset((0,)), frozenset((1,)))
_NOBODY: frozenset[int] = frozenset()
# Actions are immutable values: make each one once, not once a move.
_LEADS = tuple(Lead(c) for c in standard_deck())
_SINGLES = tuple(Respond((c,)) for c in standard_deck())
_PAIR: tuple[tuple[Respond, ...], ...] = tuple(
    tuple(Respond((a, b)) for b in standard_deck()) for a in standard_deck()
)


@lru_cache(maxsize=16384)
def _play_name(led: Card, cards: tuple[Card, ...]) -> str:
    """The play's name, worked out once per lead and response (it is logged every trick)."""
    return judge_cards(led, cards).name


def _verdict(score: Score, shown: bool) -> str:
    who = "" if score.responder_wins else " to the leader"
    return f"{score}{who}" if shown else f"{score.name}{who}"


def _trick_json(trick: Trick, shown: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "leader": trick.leader,
        "lead": str(trick.lead),
        "response": format_cards(trick.response),
        "winner": trick.winner,
        "play": trick.score.name,
    }
    if shown:
        out["points"] = trick.score.points
    return out
