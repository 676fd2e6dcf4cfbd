"""Pit's traders: random, sensible, and strong (which reads the trade history).

They are real-time bots (see `pitkit.play.realtime`): `act` returns the
action to send now, or None to wait and look again after `think_time`.
`choose` always returns a legal action, for drivers that take turns.
Every bot decides from what its seat may see: its own cards and offer, the
open offers' owners and counts, and the history as its seat saw it.
"""

from __future__ import annotations

import random
from typing import Any

from pitkit.cards import Commodity, PitCard
from pitkit.core.events import Event
from pitkit.core.state import State
from pitkit.games.pit.actions import Accept, Corner, Offer, Open, PitAction, Withdraw
from pitkit.games.pit.habits import junk, payment_value, shorter, weakness
from pitkit.games.pit.market import INDEX, Lot, OpenOffer
from pitkit.games.pit.state import SET_SIZE, Phase, PitHand

__all__ = ["THINK_TIME", "RandomTrader", "SensibleTrader", "StrongTrader", "current_hand"]

THINK_TIME = (0.5, 1.5)
"""Seconds a bot takes to react, drawn uniformly by the runner (a quick human)."""


def current_hand(state: State[Any]) -> PitHand:
    """The Pit hand being played in `state` (a hand or a match)."""
    hand = state.current_hand
    assert isinstance(hand, PitHand)
    return hand


class _Trader:
    """What every Pit bot does: open the pit when dealing, call a corner at once."""

    think_time: tuple[float, float] = THINK_TIME

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[Any], player: int) -> PitAction:
        """A legal action now (a bot that would rather wait trades at random)."""
        action = self.act(state, player)
        if action is not None:
            return action
        legal: list[PitAction] = current_hand(state).legal_actions(player)
        return self.rng.choice(legal)

    def act(self, state: State[Any], player: int) -> PitAction | None:
        """The action to send now, or None to wait."""
        hand = current_hand(state)
        if hand.phase is Phase.SORTING:
            return Open() if player == hand.dealer else None
        if hand.phase is Phase.OVER:
            return None
        if hand.corner(player) is not None:
            return Corner()  # the checked call: no penalty if the corner is gone on arrival
        return self.trade(hand, player)

    def trade(self, hand: PitHand, player: int) -> PitAction | None:
        """The trading decision, once there is no corner to call."""
        raise NotImplementedError


class RandomTrader(_Trader):
    """Calls a corner when it holds one; otherwise any legal action at random."""

    def trade(self, hand: PitHand, player: int) -> PitAction | None:
        return self.rng.choice(hand.legal_actions(player))


class SensibleTrader(_Trader):
    """Collects the commodity it holds most of (the Bull counts for it),
    offers its weakest cards, takes offers paying with its weakest cards,
    and gets rid of the Bear as soon as it can, so as not to hold it at a
    corner (T5)."""

    patience = 8
    """Looks an own offer may stay open untaken before it is withdrawn."""
    stuck_trades = 4
    """Market trades per player without our collection growing before we
    take it to be blocked (someone else holds the rest) and collect another."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._offer: int | None = None  # our open offer's number
        self._waited = 0  # looks since we made it
        self._smaller = False  # the last offer found no taker: offer fewer cards
        self._hand: tuple[int, Event] | None = None  # the hand the notes below are about
        self.blocked: set[Commodity] = set()  # collections given up this hand
        self._collecting: Commodity | None = None
        self._best = 0  # the most of it we have held
        self._progress = 0  # the market's trade count when it last grew

    def new_hand(self, hand: PitHand) -> bool:
        """Forget the last hand's notes if `hand` is a new one; True if so."""
        # Where the hand starts in the log, and its first event (its shuffle),
        # identify it, in copies of the state too.
        key = (hand.log_start, hand.log[hand.log_start])
        if key == self._hand:
            return False
        self._hand = key
        self.blocked = set()
        self._collecting, self._best, self._progress = None, 0, 0
        return True

    def trade(self, hand: PitHand, player: int) -> PitAction | None:
        held = hand.holding(player)
        target = self.target(hand, player, held)
        own = hand.offers.get(player)
        if own is not None and _has(own, target):
            return Withdraw()  # the target changed under an older offer
        accept = self.best_accept(hand, player, held, target)
        if accept is not None:
            return accept
        if own is None:
            self._offer = None
            lot = self.junk(hand, player, held, target)
            if lot is not None:
                if self._smaller:
                    lot = shorter(lot)
                self._smaller = False
                return Offer.of(lot)
            return None
        if own.id != self._offer:
            self._offer, self._waited = own.id, 0
        self._waited += 1
        if self._waited > self.patience:
            # Nobody can or will take it: try a size others can pay.
            self._smaller = True
            return Withdraw()
        return None

    def target(self, hand: PitHand, player: int, held: list[int]) -> Commodity:
        """The commodity to collect: the most held, the more valuable on
        ties, unless it has stopped growing while the market trades on (two
        players collecting one commodity block each other forever)."""
        self.new_hand(hand)
        trades = len(hand.trades)
        current = self._collecting
        if current is not None:
            count = held[_i(current)]
            if count > self._best:
                self._best, self._progress = count, trades
            elif (
                count < SET_SIZE - 2 and trades - self._progress > self.stuck_trades * hand.players
            ):
                self.blocked.add(current)
        choice = max(hand.commodities, key=lambda c: self.worth(held, c))
        if choice is not current:
            self._collecting, self._best, self._progress = choice, held[_i(choice)], trades
        return choice

    def worth(self, held: list[int], commodity: Commodity) -> tuple[float, int]:
        """How much we want to collect `commodity` (the highest is the target)."""
        return held[_i(commodity)] - 3 * (commodity in self.blocked), commodity.value

    def junk(self, hand: PitHand, player: int, held: list[int], target: Commodity) -> Lot | None:
        """What to offer: the weakest commodity not collected, up to four
        cards, with the Bear if held; or the Bear alone (`habits.junk`)."""
        return junk(held, hand.free[player], _i(target), not self.keeps_bull(held, target))

    def keeps_bull(self, held: list[int], target: Commodity) -> bool:
        """Whether to keep the Bull: it completes a corner (8 and the Bull)
        or doubles one (9 and the Bull), T5."""
        return True

    def best_accept(
        self, hand: PitHand, player: int, held: list[int], target: Commodity
    ) -> Accept | None:
        """The open offer to take, paying with junk, or None."""
        best: tuple[float, Accept] | None = None
        for offer in hand.open_offers():
            if offer.seat == player:
                continue
            for lot in hand.payments(player, offer.count):
                if self.refuses(held, target, lot, offer):
                    continue
                # A hundredth of a point at random breaks ties.
                score = self.accept_value(hand, player, held, offer, lot, target)
                score += self.rng.random() / 100
                if best is None or score > best[0]:
                    best = (score, Accept(offer.seat, lot.commodity, lot.bull, lot.bear, offer.id))
        return None if best is None else best[1]

    def may_pay(self, offer: OpenOffer, lot: Lot) -> bool:
        """Whether to pay for `offer` with `lot` at all."""
        return True

    def accept_value(
        self,
        hand: PitHand,
        player: int,
        held: list[int],
        offer: OpenOffer,
        lot: Lot,
        target: Commodity,
    ) -> float:
        """How good it is to take `offer` paying `lot`: dump the Bear, give
        away the weakest cards, clear a whole group (`habits.payment_value`),
        receive more cards."""
        return offer.count + payment_value(held, lot)

    def refuses(
        self, held: list[int], target: Commodity, lot: Lot, offer: OpenOffer | None = None
    ) -> bool:
        """Whether the bot never parts with `lot`: the Bull it keeps, its
        target, or (paying for `offer`) what it will not pay with."""
        return (
            (lot.bull and self.keeps_bull(held, target))
            or lot.commodity is target
            or (offer is not None and not self.may_pay(offer, lot))
        )

    def rank(self, state: State[Any], player: int) -> list[PitAction]:
        """`player`'s legal actions, best first as the bot judges each on its
        own: a corner; acceptances by `accept_value` and offers by how keen
        it is to part with their cards (those it never makes last of all);
        withdrawing. When to act, and the size of an offer after one found no
        taker, are `act`'s to say. It reads the bot's notes and changes
        nothing, its random stream included, so a search may ask it while
        the bot plays on."""
        hand = current_hand(state)
        held = hand.holding(player)
        target = max(hand.commodities, key=lambda c: self.worth(held, c))

        def value(action: PitAction) -> float:
            if isinstance(action, Corner):
                return 100.0
            if isinstance(action, Accept):
                offer = hand.offers[action.seat]
                lot = action.payment(offer.count)
                score = self.accept_value(hand, player, held, offer, lot, target)
                return score - 50 * self.refuses(held, target, lot, offer)
            if isinstance(action, Offer):
                lot = action.lot
                keen = 0.0 if lot.commodity is None else weakness(held, _i(lot.commodity))
                return 10.0 * lot.bear + keen + lot.size / 10 - 50 * self.refuses(held, target, lot)
            return -20.0  # withdrawing

        return sorted(hand.legal_actions(player), key=value, reverse=True)


class StrongTrader(SensibleTrader):
    """Sensible, and it reads the trade history. What a player gives it is
    that player's junk, so not what it collects; what it gave a player and
    never saw again is probably that player's collection. So it never pays
    a player with what that player collects, does not collect what another
    player is collecting, prefers to collect what others give away, and
    prefers offers from players who give away what it collects."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._seen = 0
        self.kept: dict[int, list[int]] = {}  # seat -> cards of each kind we gave it
        self.dumped: dict[int, list[int]] = {}  # seat -> cards of each kind it gave us
        self._rivals: dict[int, Commodity | None] = {}  # seat -> what it seems to collect
        self._supply: list[int] = []  # kind -> how many players gave us some
        self._target: Commodity | None = None  # this look's target

    def _update(self, hand: PitHand, player: int) -> None:
        """Read the history this seat has not read yet."""
        if self.new_hand(hand):
            self._seen = hand.log_start
            self.kept = {s: [0] * len(INDEX) for s in range(hand.players) if s != player}
            self.dumped = {s: [0] * len(INDEX) for s in range(hand.players) if s != player}
        changed = self._seen == hand.log_start
        for event in hand.log[self._seen :]:
            if event.type != "trade" or player not in event.private:
                continue
            changed = True
            seen = event.seen_by(player)
            other = seen["buyer"] if player == seen["seller"] else seen["seller"]
            for name in seen["gave"]:
                self.kept[other][INDEX[PitCard(name)]] += 1
            for name in seen["cards"]:
                i = INDEX[PitCard(name)]
                self.kept[other][i] = max(0, self.kept[other][i] - 1)
                self.dumped[other][i] += 1
        self._seen = len(hand.log)
        if changed:  # only our own trades change what we know
            self._rivals = {s: self.collecting(s, hand) for s in self.kept}
            self._supply = [sum(d[i] > 0 for d in self.dumped.values()) for i in range(len(INDEX))]

    def collecting(self, seat: int, hand: PitHand) -> Commodity | None:
        """The commodity `seat` seems to collect: one we gave it (two cards
        or more) and that it never gave us."""
        kept, dumped = self.kept[seat], self.dumped[seat]
        best = max(hand.commodities, key=lambda c: (kept[_i(c)], c.value))
        return best if kept[_i(best)] >= 2 and not dumped[_i(best)] else None

    def trade(self, hand: PitHand, player: int) -> PitAction | None:
        self._update(hand, player)
        self._target = None
        return super().trade(hand, player)

    def target(self, hand: PitHand, player: int, held: list[int]) -> Commodity:
        if self._target is None:  # once a look: accept_value asks often
            self._target = super().target(hand, player, held)
        return self._target

    def worth(self, held: list[int], commodity: Commodity) -> tuple[float, int]:
        mine, value = super().worth(held, commodity)
        rival = commodity in self._rivals.values() and held[_i(commodity)] < SET_SIZE - 2
        return mine - 3 * rival + 0.5 * self._supply[_i(commodity)], value

    def accept_value(
        self,
        hand: PitHand,
        player: int,
        held: list[int],
        offer: OpenOffer,
        lot: Lot,
        target: Commodity,
    ) -> float:
        score = super().accept_value(hand, player, held, offer, lot, target)
        dumped = self.dumped.get(offer.seat)
        if dumped is not None and dumped[_i(target)]:
            score += 3  # this seller gives away what we collect
        return score

    def rank(self, state: State[Any], player: int) -> list[PitAction]:
        # Reading the history first changes no later decision: it is read in
        # full before any, whenever it is read.
        self._update(current_hand(state), player)
        return super().rank(state, player)

    def may_pay(self, offer: OpenOffer, lot: Lot) -> bool:
        # Never feed a rival's corner.
        return lot.commodity is None or lot.commodity is not self._rivals.get(offer.seat)


_KIND = {commodity: INDEX[PitCard[commodity.name]] for commodity in Commodity}


def _i(commodity: Commodity) -> int:
    """The kind index of `commodity`'s cards (bots ask often: a table, not enum lookups)."""
    return _KIND[commodity]


def _has(offer: OpenOffer, commodity: Commodity) -> bool:
    card = PitCard[commodity.name]
    return card in offer.cards or PitCard.BULL in offer.cards
