"""Pitty Pat's encoding: two to four seats, 52 cards; draw, or match the top card and discard."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from pitkit.adapters.encoding import Encoding, Row, Segment
from pitkit.cards import Card
from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError
from pitkit.core.match import Match
from pitkit.games.pittypat import Draw, MatchCard, Phase, PittyPatHand
from pitkit.games.pittypat.state import HAND_SIZE

__all__ = ["PittyPatEncoding"]

_PHASES = (Phase.TURN, Phase.AFTER_DRAW, Phase.OVER)
_SEATS = 4
_GO_OUT = 1  # ids 1-52: match card c with the last card, discarding nothing
_MATCH = 53  # ids 53 + 52c + d: match card c, discard card d


class PittyPatEncoding(Encoding):
    """Pitty Pat (two to four seats)."""

    game = "pitty-pat"
    env_name = "pitkit/pitty_pat-v0"
    max_players = _SEATS
    short = MappingProxyType({"hands": 1})

    def most_moves(self, rules: Any) -> int:
        # A turn is a draw, a match, or a draw and then a match (Y4 caps the turns).
        return 2 * int(rules.turn_limit)

    def layout(self) -> tuple[Segment, ...]:
        return (
            Segment("hand", 52, "my cards"),
            Segment("top", 52, "the top card of the pile"),
            Segment("pile", 52, "every card in the face-up pile"),
            Segment("pairs", 52, "every pair laid face up, whoever laid it"),
            Segment("phase", 3, "turn, after_draw (I turned a card I can match), over"),
            Segment("to act", _SEATS, "the seat to act, relative (0: me)"),
            Segment("dealer", _SEATS, "the dealer, relative"),
            Segment("seated", _SEATS, "seats in this hand, relative"),
            Segment("cards", _SEATS, "cards held / 5, relative"),
            Segment("scores", _SEATS, "match scores (hands won, or chips) / 10, relative"),
            Segment("counts", 2, "stock / 52, turns / turn limit"),
        )

    def action_layout(self) -> tuple[Segment, ...]:
        return (
            Segment("draw", 1, "draw: id 0"),
            Segment("go out", 52, "match with card c, my last: 1 + c"),
            Segment("match", 52 * 52, "match with card c, then discard card d: 53 + 52 c + d"),
        )

    def fill(self, row: Row, match: Match[Any, Any], seat: int) -> None:
        hand = match.hand
        assert isinstance(hand, PittyPatHand)
        seats = self.around[seat]
        n = self.players
        row.bits("hand", hand.cards[seat])
        pile = hand.pile
        row.one_hot("top", hand.top if pile else None)
        row.bits("pile", pile)
        row.bits("pairs", [c for pairs in hand.pairs for c in pairs])
        row.one_hot("phase", _PHASES.index(hand.phase))
        row.bits("to act", [(s - seat) % n for s in hand.to_act])
        row.one_hot("dealer", (hand.dealer - seat) % n)
        seated = hand.seated
        row.values("seated", [float(s in seated) for s in seats])
        cards = hand.cards
        row.values("cards", [len(cards[s]) / HAND_SIZE for s in seats])
        scores = match.shown_scores()
        row.values("scores", () if scores is None else [scores[s] / 10 for s in seats])
        row.values("counts", (len(hand.stock) / 52, hand.turns / match.rules.turn_limit))

    def encode(self, match: Match[Any, Any], seat: int, action: Action) -> int:
        if isinstance(action, Draw):
            return 0
        assert isinstance(action, MatchCard)
        if action.discard is None:
            return _GO_OUT + action.card
        return _MATCH + 52 * action.card + action.discard

    def decode(self, match: Match[Any, Any], seat: int, action_id: int) -> Action:
        if not 0 <= action_id < self.actions:
            raise BadActionError(f"no action id {action_id}")
        if action_id == 0:
            return Draw()
        if action_id < _MATCH:
            return MatchCard(Card(action_id - _GO_OUT))
        card, discard = divmod(action_id - _MATCH, 52)
        return MatchCard(Card(card), Card(discard))
