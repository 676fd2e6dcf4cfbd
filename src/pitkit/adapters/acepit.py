"""Ace Pit's encoding: two seats, 52 cards, leads and responses of one card or two."""

from __future__ import annotations

from itertools import combinations
from types import MappingProxyType
from typing import Any

from pitkit.adapters.encoding import Encoding, Row, Segment
from pitkit.cards import Card
from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError
from pitkit.core.match import Match
from pitkit.games.acepit import AcePitHand, Lead, Phase, Respond
from pitkit.games.acepit.state import HAND_SIZE, TRICKS

__all__ = ["AcePitEncoding"]

_PHASES = (Phase.LEAD, Phase.RESPOND, Phase.OVER)
# Every two cards once, lower card number first: a two-card response is a
# choice of two cards, whatever their order (`Respond` keeps them sorted).
_PAIRS = tuple(combinations(range(52), 2))


def _pair_ids() -> list[int]:
    """The id of responding with cards a and b, at 52 a + b and at 52 b + a
    (`Respond` keeps its cards in rank order, the ids by number): a list is
    read quicker than a dict of pairs."""
    ids = [0] * (52 * 52)
    for i, (a, b) in enumerate(_PAIRS):
        ids[52 * a + b] = ids[52 * b + a] = 104 + i
    return ids


_PAIR_ID = _pair_ids()
_STOCK = 52 - 2 * HAND_SIZE
_POINTS_SCALE = 100.0  # a trick scores up to some tens of points; a hand about 100


class AcePitEncoding(Encoding):
    """Ace Pit (two seats)."""

    game = "ace-pit"
    env_name = "pitkit/ace_pit-v0"
    max_players = 2
    short = MappingProxyType({"hands": 1})

    def most_moves(self, rules: Any) -> int:
        return 2 * TRICKS  # a lead and a response a trick

    def layout(self) -> tuple[Segment, ...]:
        return (
            Segment("hand", 52, "my cards, by card number"),
            Segment("led", 52, "the led card waiting for a response"),
            Segment("played", 52, "cards of this hand's finished tricks, face up"),
            Segment("phase", 3, "lead, respond, over"),
            Segment("roles", 2, "I lead this trick; I dealt this hand"),
            Segment("counts", 3, "trick number / 7, stock / 38, opponent's cards / 7"),
            Segment("points", 3, "points shown: shown?, mine / 100, opponent's / 100"),
            Segment(
                "match",
                4,
                "hands played / hands, hands / 11, my and the opponent's shown score / 1000",
            ),
        )

    def action_layout(self) -> tuple[Segment, ...]:
        return (
            Segment("lead", 52, "lead card c: id c"),
            Segment("respond one", 52, "respond with card c alone: 52 + c"),
            Segment("respond two", len(_PAIRS), "respond with cards a < b: 104 + index of (a, b)"),
        )

    def fill(self, row: Row, match: Match[Any, Any], seat: int) -> None:
        hand = match.hand
        assert isinstance(hand, AcePitHand)
        other = 1 - seat
        row.bits("hand", hand.cards[seat])
        row.one_hot("led", hand.lead)
        row.bits("played", hand.played)
        row.one_hot("phase", _PHASES.index(hand.phase))
        row.values("roles", (float(hand.leader == seat), float(hand.dealer == seat)))
        row.values(
            "counts",
            [min(len(hand.tricks) + 1, TRICKS) / TRICKS, len(hand.stock) / _STOCK,
             len(hand.cards[other]) / HAND_SIZE],
        )  # fmt: skip
        shown = hand.points_shown
        row.values(
            "points",
            [float(shown), hand.points[seat] / _POINTS_SCALE if shown else 0.0,
             hand.points[other] / _POINTS_SCALE if shown else 0.0],
        )  # fmt: skip
        hands = match.rules.hands
        scores = match.shown_scores()
        played = len(match.results) / hands
        row.values(
            "match",
            (played, hands / 11)
            if scores is None
            else (played, hands / 11, scores[seat] / 1000, scores[other] / 1000),
        )

    def encode(self, match: Match[Any, Any], seat: int, action: Action) -> int:
        if isinstance(action, Lead):
            return int(action.card)
        assert isinstance(action, Respond)
        cards = action.cards
        if len(cards) == 1:
            return 52 + int(cards[0])
        return _PAIR_ID[52 * cards[0] + cards[1]]

    def decode(self, match: Match[Any, Any], seat: int, action_id: int) -> Action:
        if not 0 <= action_id < self.actions:
            raise BadActionError(f"no action id {action_id}")
        if action_id < 52:
            return Lead(Card(action_id))
        if action_id < 104:
            return Respond((Card(action_id - 52),))
        a, b = _PAIRS[action_id - 104]
        return Respond((Card(a), Card(b)))
