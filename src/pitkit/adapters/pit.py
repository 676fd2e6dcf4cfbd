"""Pit's encoding: three to seven seats trading lots of one to four cards at once.

Why the ids are complete and unambiguous: a lot is its size (1-4), its
commodity (or none, when it is only the Bull and/or the Bear) and whether
the Bull and the Bear go with it; `LOTS` lists every valid lot once, so a
lot has one number. An offer is a lot. An acceptance names a seat and the
lot it pays with, and a seat has at most one open offer at a time (T4),
so seat and payment name one acceptance; the offer's number is read from
the market when the id is decoded. The other moves (open, withdraw, the
checked ``corner``) take no argument. Named corners are not listed: a
false one only costs 20 (T5), and no id offers it.
"""

from __future__ import annotations

from typing import Any

from pitkit.adapters.encoding import Encoding, Row, Segment
from pitkit.cards import Commodity
from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError
from pitkit.core.match import Match
from pitkit.games.pit import Accept, Corner, Offer, Open, Phase, PitHand, Withdraw
from pitkit.games.pit.market import KINDS, MAX_LOT, Lot, lot_of
from pitkit.games.pit.state import MAX_SEATS, SET_SIZE

__all__ = ["LOTS", "PitEncoding"]


def _all_lots() -> tuple[Lot, ...]:
    lots = []
    for size in range(1, MAX_LOT + 1):
        for commodity in (None, *Commodity):
            for bull in (False, True):
                for bear in (False, True):
                    try:
                        lots.append(lot_of(size, commodity, bull, bear))
                    except BadActionError:
                        continue  # not a lot: e.g. 2 cards that are only the Bull
    return tuple(lots)


LOTS = _all_lots()
"""Every valid lot, by size, then commodity (none first, then by value), then Bull, then Bear."""
_LOT_ID = {lot: i for i, lot in enumerate(LOTS)}
_PHASES = (Phase.SORTING, Phase.TRADING, Phase.OVER)
# Found by `index`, which compares by identity: a dict would hash each
# commodity, an Enum, in Python (as `Commodity`'s own lookups do).
_COMMODITIES = tuple(Commodity)


def _goods(commodity: Commodity | None) -> int:
    """0 for no commodity (the Bull and/or the Bear alone), else 1 + its place."""
    return 0 if commodity is None else 1 + _COMMODITIES.index(commodity)


# Each lot's number by its cards as plain numbers (size, goods, Bull, Bear):
# an acceptance's payment is looked up so without making its `Lot`.
_LOT_AT = {(lot.size, _goods(lot.commodity), lot.bull, lot.bear): i for i, lot in enumerate(LOTS)}
WAIT, OPEN, WITHDRAW, CORNER = 0, 1, 2, 3
_OFFER = 4
_ACCEPT = _OFFER + len(LOTS)


class PitEncoding(Encoding):
    """Pit (three to seven seats, in real time)."""

    game = "pit"
    env_name = "pitkit/pit-v0"
    max_players = MAX_SEATS
    always = (WAIT,)  # one may always wait, even once the match is over

    def layout(self) -> tuple[Segment, ...]:
        kinds = ", ".join(str(k.value) for k in KINDS)
        return (
            Segment("free", len(KINDS), f"my cards not on offer / 9, by kind: {kinds}"),
            Segment("my offer", len(KINDS), "the cards of my open offer / 4, by kind"),
            Segment("phase", 3, "sorting, trading, over"),
            Segment("commodities", len(Commodity), "the commodities in play"),
            Segment("bull and bear", 1, "the Bull and the Bear are in play"),
            Segment("dealer", MAX_SEATS, "the dealer, relative"),
            Segment("offers", MAX_SEATS, "each seat's open offer: its cards / 4, relative"),
            Segment("cards", MAX_SEATS, "cards held, offers included / 10, relative"),
            Segment("points", MAX_SEATS, "this hand's points (penalties) / 100, relative"),
            Segment("scores", MAX_SEATS, "match scores / target, relative"),
            Segment("last seller", MAX_SEATS, "the last trade's offerer, relative"),
            Segment("last buyer", MAX_SEATS, "the last trade's acceptor, relative"),
            Segment("market", 3, "the last trade's cards / 4, trades / limit, idle / limit"),
        )

    def action_layout(self) -> tuple[Segment, ...]:
        n = len(LOTS)
        return (
            Segment("wait", 1, "do nothing this tick: id 0 (always legal)"),
            Segment("open", 1, "open the pit (the dealer, once sorted): 1"),
            Segment("withdraw", 1, "withdraw my open offer: 2"),
            Segment("corner", 1, "call my corner: 3"),
            Segment("offer", n, "offer lot l (the lots' table): 4 + l"),
            Segment(
                "accept",
                (MAX_SEATS - 1) * n,
                f"accept the open offer of the seat k places to my left (1-6), paying "
                f"with lot l: {_ACCEPT} + {n} (k - 1) + l",
            ),
        )

    def fill(self, row: Row, match: Match[Any, Any], seat: int) -> None:
        hand = match.hand
        assert isinstance(hand, PitHand)
        seats = self.around[seat]
        n = self.players
        free = hand.free
        row.values("free", [k / SET_SIZE for k in free[seat]])
        own = hand.offers.get(seat)
        mine = [0.0] * len(KINDS)
        if own is not None:
            for kind, k in own.facts.needs:
                mine[kind] = k / MAX_LOT
        row.values("my offer", mine)
        row.one_hot("phase", _PHASES.index(hand.phase))
        row.bits("commodities", [_COMMODITIES.index(c) for c in hand.commodities])
        rules = match.rules
        row.values("bull and bear", (float(rules.bull_and_bear),))
        row.one_hot("dealer", (hand.dealer - seat) % n)
        offers = {o.seat: o.count for o in hand.open_offers()}
        row.values("offers", [offers.get(s, 0) / MAX_LOT for s in seats])
        row.values("cards", [(sum(free[s]) + offers.get(s, 0)) / 10 for s in seats])
        points = hand.points
        row.values("points", [points[s] / 100 for s in seats])
        scores = match.shown_scores()
        target = rules.target
        row.values("scores", () if scores is None else [scores[s] / target for s in seats])
        trades = hand.trades
        last = trades[-1] if trades else None
        row.one_hot("last seller", None if last is None else (last.seller - seat) % n)
        row.one_hot("last buyer", None if last is None else (last.buyer - seat) % n)
        row.values(
            "market",
            (0.0 if last is None else last.count / MAX_LOT,
             len(trades) / (rules.trades_per_player * n),
             hand.idle / rules.idle_limit),
        )  # fmt: skip

    def encode(self, match: Match[Any, Any], seat: int, action: Action) -> int:
        if isinstance(action, Open):
            return OPEN
        if isinstance(action, Withdraw):
            return WITHDRAW
        if isinstance(action, Corner):
            assert action.commodity is None, "named corners have no id"
            return CORNER
        if isinstance(action, Offer):
            return _OFFER + _LOT_ID[action.lot]
        assert isinstance(action, Accept)
        offer = match.hand.offers[action.seat] if isinstance(match.hand, PitHand) else None
        assert offer is not None and offer.id == action.offer, f"{action} is not of an open offer"
        lot = _LOT_AT[offer.count, _goods(action.commodity), action.bull, action.bear]
        k = self.relative(action.seat, seat)
        return _ACCEPT + (k - 1) * len(LOTS) + lot

    def decode(self, match: Match[Any, Any], seat: int, action_id: int) -> Action:
        if not 0 <= action_id < self.actions or action_id == WAIT:
            raise BadActionError(f"action id {action_id} is no move (0 is to wait)")
        if action_id < _OFFER:
            return (Open(), Withdraw(), Corner())[action_id - OPEN]
        if action_id < _ACCEPT:
            return Offer.of(LOTS[action_id - _OFFER])
        k, index = divmod(action_id - _ACCEPT, len(LOTS))
        if k + 1 >= self.players:
            raise BadActionError(f"action id {action_id}: no seat {k + 1} places to the left")
        other = self.absolute(k + 1, seat)
        hand = match.hand
        assert isinstance(hand, PitHand)
        offer = hand.offers.get(other)
        if offer is None:
            raise BadActionError(f"action id {action_id}: seat {other} has no open offer")
        lot = LOTS[index]
        return Accept(other, lot.commodity, lot.bull, lot.bear, offer.id)
