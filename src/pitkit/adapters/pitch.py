"""Pitch's encoding: two to six seats, 52 cards; the bidding words, then one card a trick."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from pitkit.adapters.encoding import Encoding, Row, Segment
from pitkit.cards import Card
from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError
from pitkit.core.match import Match
from pitkit.games.pitch import Bid, Pass, Phase, PitchHand, Play, Run, Sell, Steal, Take
from pitkit.games.pitch.rules import MAX_BID, MIN_BID

__all__ = ["PitchEncoding"]

_PHASES = (Phase.BIDDING, Phase.REBIDDING, Phase.PLAY, Phase.OVER)
_SEATS = 6
_BIDS = MAX_BID - MIN_BID + 1
_BID = 1  # ids 1-3: bid 2, 3, 4
_STEAL = _BID + _BIDS  # ids 4-6: steal 2, 3, 4
_WORDS = _STEAL + _BIDS  # ids 7-9: take, run, sell
_PLAY = _WORDS + 3  # ids 10-61: play card c


class PitchEncoding(Encoding):
    """Pitch (two to six seats)."""

    game = "pitch"
    env_name = "pitkit/pitch-v0"
    max_players = _SEATS
    short = MappingProxyType({"hands": 1})

    def most_moves(self, rules: Any) -> int:
        # Two rounds of bids, a word each, then every card dealt (six, and a
        # run of at most three) played once.
        return 2 * self.players + 9 * self.players

    def layout(self) -> tuple[Segment, ...]:
        return (
            Segment("hand", 52, "my cards"),
            Segment("trick", _SEATS * 52, "the current trick: for each seat (relative), its card"),
            Segment("won", 52, "cards of finished tricks (face up)"),
            Segment("trump", 4, "trump suit C D H S, once pitched"),
            Segment("phase", 4, "bidding, rebidding, play, over"),
            Segment("to act", _SEATS, "the seat to act, relative"),
            Segment("dealer", _SEATS, "the dealer, relative"),
            Segment("high bidder", _SEATS, "the high bidder so far, relative"),
            Segment("pitcher", _SEATS, "the pitcher, relative"),
            Segment("partners", _SEATS, "seats on my side (teams; else just me), relative"),
            Segment("seated", _SEATS, "seats in this hand, relative"),
            Segment("cards", _SEATS, "cards held / 9, relative"),
            Segment("tricks won", _SEATS, "cards won / 52, relative"),
            Segment("scores", _SEATS, "match scores / target, relative"),
            Segment("bidding", 4, "high bid / 4, contract / 4, ran it, tricks / 9"),
        )

    def action_layout(self) -> tuple[Segment, ...]:
        return (
            Segment("pass", 1, "pass: id 0"),
            Segment("bid", _BIDS, "bid n (2-4): n - 1"),
            Segment("steal", _BIDS, "steal n (2-4): n + 2"),
            Segment("take run sell", 3, "take: 7, run: 8, sell: 9"),
            Segment("play", 52, "play card c: 10 + c"),
        )

    def fill(self, row: Row, match: Match[Any, Any], seat: int) -> None:
        hand = match.hand
        assert isinstance(hand, PitchHand)
        seats = self.around[seat]
        n = self.players
        cards, won = hand.cards, hand.won
        row.bits("hand", cards[seat])
        row.bits("trick", [52 * ((s - seat) % n) + c for s, c in hand.trick])
        row.bits("won", [c for pile in won for c in pile])
        trump = hand.trump
        row.one_hot("trump", None if trump is None else int(trump))
        row.one_hot("phase", _PHASES.index(hand.phase))
        row.bits("to act", [(s - seat) % n for s in hand.to_act])
        row.one_hot("dealer", (hand.dealer - seat) % n)
        bidder = hand.high_bidder
        row.one_hot("high bidder", None if bidder is None else (bidder - seat) % n)
        pitcher = hand.pitcher
        row.one_hot("pitcher", None if pitcher is None else (pitcher - seat) % n)
        row.bits("partners", [(s - seat) % n for s in hand.side(seat)])
        seated = hand.seated
        row.values("seated", [float(s in seated) for s in seats])
        row.values("cards", [len(cards[s]) / 9 for s in seats])
        row.values("tricks won", [len(won[s]) / 52 for s in seats])
        scores = match.shown_scores()
        target = match.rules.target
        row.values("scores", () if scores is None else [scores[s] / target for s in seats])
        row.values(
            "bidding",
            (hand.high / MAX_BID, hand.contract / MAX_BID, float(hand.ran), len(hand.tricks) / 9),
        )

    def encode(self, match: Match[Any, Any], seat: int, action: Action) -> int:
        if isinstance(action, Pass):
            return 0
        if isinstance(action, Bid):
            return _BID + action.amount - MIN_BID
        if isinstance(action, Steal):
            assert MIN_BID <= action.amount <= MAX_BID, action
            return _STEAL + action.amount - MIN_BID
        if isinstance(action, Play):
            return _PLAY + action.card
        return _WORDS + (Take, Run, Sell).index(type(action))

    def decode(self, match: Match[Any, Any], seat: int, action_id: int) -> Action:
        if not 0 <= action_id < self.actions:
            raise BadActionError(f"no action id {action_id}")
        if action_id == 0:
            return Pass()
        if action_id < _STEAL:
            return Bid(action_id - _BID + MIN_BID)
        if action_id < _WORDS:
            return Steal(action_id - _STEAL + MIN_BID)
        if action_id < _PLAY:
            return (Take(), Run(), Sell())[action_id - _WORDS]
        return Play(Card(action_id - _PLAY))
