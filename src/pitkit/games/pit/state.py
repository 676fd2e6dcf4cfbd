"""One hand of Pit (rulings T1-T5) as a state machine for simultaneous play.

Phases: *sorting* (only the dealer may act: ``open`` rings the bell, T3),
*trading* (everyone acts at once, in arrival order, T4), *over* (a corner,
T5, or a pitkit safety limit).

Zones: each seat's ``hand`` (the cards it holds and has not offered) and
``offer`` (the cards it holds out, face down). Everything is hidden except
a seat's own two zones; a corner reveals the cornerer's cards.

Several seats may act at once, so `apply` takes actions one at a time in
the order they arrive, and the second acceptance of an offer is refused
naming who took it. Two moves are taken and penalized rather than refused
(`check`): a trade attempt before the opening by a seat other than the
dealer (T3), and a false announcement ``corner wheat`` (T5). Neither is
ever a listed legal action, so random play never seeks a penalty, and an
action that was legal earlier is refused, not penalized, when replayed out
of its time: the listed corner is ``corner`` alone, the checked call,
which is refused when false.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Self

from pitkit.cards import Commodity, PitCard
from pitkit.core.actions import Action
from pitkit.core.chance import Chance
from pitkit.core.errors import IllegalAction
from pitkit.core.events import Event
from pitkit.core.state import Outcome, State
from pitkit.games.pit.actions import (
    CODEC,
    OFFERS,
    Accept,
    Corner,
    Offer,
    Open,
    PitAction,
    Withdraw,
)
from pitkit.games.pit.market import (
    BEAR,
    BULL,
    INDEX,
    KINDS,
    MAX_LOT,
    Lot,
    OpenOffer,
    Trade,
    counts_of,
    describe_cards,
    payable_lots,
)
from pitkit.games.pit.rules import Rules

__all__ = ["PENALTY", "SET_SIZE", "Hand", "Phase", "apply_checked", "outside_turn"]

SET_SIZE = 9
"""Cards of each commodity (T1)."""
PENALTY = 20
"""Points lost for early trading (T3), a false corner, and holding the Bear or
someone else's Bull at a corner (T5)."""


class Phase(Enum):
    """Where the hand stands."""

    SORTING = "sorting"  # dealt; the dealer has not opened the pit yet (T3)
    TRADING = "trading"  # the pit is open: everyone trades at once (T4)
    OVER = "over"


class Hand(State[PitAction]):
    """One hand of Pit among all `players` seats, dealt by `dealer`.

    `first_offer` numbers the hand's offers (a match keeps numbers unique
    across hands); `previous` says how the previous hand ended, so that a
    late action racing a corner is refused with that reason.
    """

    codec = CODEC
    game = "pit"

    def __init__(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        chance: Chance,
        *,
        log: list[Event] | None = None,
        first_offer: int = 1,
        previous: str | None = None,
    ) -> None:
        self.rules = rules
        self.players = players
        self.commodities = rules.chosen(players)
        self._kinds = [INDEX[PitCard[c.name]] for c in self.commodities]
        if not 0 <= dealer < players:
            raise ValueError(f"there is no seat {dealer} to deal")
        self.dealer = dealer
        self.log = [] if log is None else log
        self.log_start = len(self.log)
        self.chance = chance
        if chance.sink is None:
            chance.sink = self.log
        self.free: list[list[int]] = [[0] * len(KINDS) for _ in range(players)]
        self.offers: dict[int, OpenOffer] = {}
        self.fates: dict[int, tuple[int, str]] = {}  # closed offer -> (owner, what became of it)
        self.first_offer = self.next_offer = first_offer
        self.previous = previous
        self.trades: list[Trade] = []
        self.idle = 0  # market actions (offers, withdrawals, acceptances) since the last trade
        self.points = [0] * players
        self.phase = Phase.SORTING
        self.cornerer: int | None = None
        self.summary = ""
        self._outcome: Outcome | None = None
        self._deal()

    # -- the deal (T1, T2) ------------------------------------------------------

    def _deal(self) -> None:
        deck = [PitCard[c.name] for c in self.commodities for _ in range(SET_SIZE)]
        if self.rules.bull_and_bear:
            deck += [PitCard.BULL, PitCard.BEAR]
        deck = self.chance.shuffle(deck)
        # One card at a time from the dealer's left, so with the Bull and the
        # Bear the first two players from the dealer's left get 10 (T2).
        for i, card in enumerate(deck):
            self.free[(self.dealer + 1 + i) % self.players][INDEX[card]] += 1
        self.log.append(
            Event(
                "deal",
                {
                    "dealer": self.dealer,
                    "cards": [sum(f) for f in self.free],
                    "commodities": [str(c) for c in self.commodities],
                    "bull_and_bear": self.rules.bull_and_bear,
                },
                {s: {"hand": describe_cards(self.cards(s))} for s in range(self.players)},
            )
        )

    # -- what seats hold ---------------------------------------------------------

    def cards(self, seat: int) -> list[PitCard]:
        """The cards `seat` holds and has not offered, highest value first."""
        counts = self.free[seat]
        return [card for i, card in enumerate(KINDS) for _ in range(counts[i])]

    def holding(self, seat: int) -> list[int]:
        """Everything `seat` holds, its open offer included, as counts per kind."""
        counts = list(self.free[seat])
        offer = self.offers.get(seat)
        if offer is not None:
            for card in offer.cards:
                counts[INDEX[card]] += 1
        return counts

    def corner(self, seat: int) -> tuple[Commodity, int] | None:
        """The corner `seat` holds, and what it is worth, if any (T5): all 9
        cards of a commodity, or 8 and the Bull, and not the Bear. Nine and
        the Bull score double. Cards in the seat's open offer count: they
        are still its cards."""
        held = self.holding(seat)
        if held[BEAR]:
            return None
        for i, commodity in enumerate(self.commodities):
            n = held[self._kinds[i]]
            if n == SET_SIZE:
                return commodity, commodity.value * (2 if held[BULL] else 1)
            if n == SET_SIZE - 1 and held[BULL]:
                return commodity, commodity.value
        return None

    @property
    def is_open(self) -> bool:
        """Whether the pit has been opened and trading goes on (T3)."""
        return self.phase is Phase.TRADING

    def open_offers(self) -> list[OpenOffer]:
        """The open offers, oldest first. Only their owners may look at `cards`."""
        return sorted(self.offers.values(), key=lambda o: o.id)

    # -- State ---------------------------------------------------------------------

    @property
    def to_act(self) -> frozenset[int]:
        if self.phase is Phase.TRADING:
            return frozenset(range(self.players))
        if self.phase is Phase.SORTING:
            return frozenset((self.dealer,))
        return frozenset()

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def _legal_actions(self, player: int) -> list[PitAction]:
        if self.phase is Phase.SORTING:
            return [Open()] if player == self.dealer else []
        if self.phase is Phase.OVER or not 0 <= player < self.players:
            return []
        actions: list[PitAction] = []
        if self.corner(player) is not None:
            actions.append(Corner())  # the safe call; a named false announcement costs 20
        free = self.free[player]
        own = self.offers.get(player)
        if own is not None:
            actions.append(Withdraw())
        else:
            for size in range(1, MAX_LOT + 1):
                actions += OFFERS.payable(free, size)
        for offer in self.open_offers():
            if offer.seat != player:
                actions += [
                    Accept(offer.seat, lot.commodity, lot.bull, lot.bear, offer.id)
                    for lot in self.payments(player, offer.count)
                ]
        return actions

    def payments(self, player: int, size: int) -> list[Lot]:
        """What `player` can pay for an offer of `size` cards: cards not on
        offer, or the player's own open offer of that size, traded whole."""
        lots = payable_lots(self.free[player], size)
        own = self.offers.get(player)
        if own is not None and own.count == size:
            try:
                lot = Lot.of(own.cards)
            except ValueError:  # only in a copy with unseen cards redealt
                return lots
            if lot not in lots:
                lots.append(lot)
        return lots

    def allows(self, player: int, action: PitAction) -> bool:
        return self.check(player, action) is None

    def why_illegal(self, player: int, action: PitAction) -> str:
        return self.check(player, action) or f"{action} is accepted now"

    def apply(self, player: int, action: PitAction | str | Mapping[str, Any]) -> list[Event]:
        """Play `action` for `player`. Before the opening a seat other than
        the dealer may not act, but its trade attempts are still taken, and
        penalized (T3); so they bypass the `to_act` check."""
        move = action if isinstance(action, Action) else self.parse_action(action)
        if self.is_over:
            raise IllegalAction(f"the hand is over: {self.summary}")
        if outside_turn(self, player):
            return apply_checked(self, self, player, move)
        return super().apply(player, move)

    def check(self, player: int, action: PitAction) -> str | None:
        """Why `player` may not take `action` now, or None when it is taken:
        legal, or taken and penalized (early trading T3, a false corner T5)."""
        if not 0 <= player < self.players:
            return f"there is no seat {player}"
        if self.phase is Phase.OVER:
            return f"the hand is over: {self.summary}"
        if isinstance(action, Open):
            if self.phase is Phase.TRADING:
                return "the pit is open already"
            return (
                None
                if player == self.dealer
                else f"only the dealer, seat {self.dealer}, opens the pit (T3)"
            )
        if self.phase is Phase.SORTING:
            return self._check_early(player, action)
        if isinstance(action, Offer):
            own = self.offers.get(player)
            if own is not None:
                return (
                    f"you have an open offer already (#{own.id}, {own.count} cards); "
                    "withdraw it first: one open offer at a time (T4)"
                )
            return self._check_lot(player, action.lot)
        if isinstance(action, Withdraw):
            return None if player in self.offers else "you have no open offer to withdraw"
        if isinstance(action, Accept):
            resolved = self._resolve(player, action)
            return resolved if isinstance(resolved, str) else None
        if action.commodity is None:
            # "corner" alone asks the table to check: refused, not penalized, when false.
            if self.corner(player) is None:
                return (
                    "you hold no corner: 9 cards of one commodity, or 8 and the Bull, "
                    "and not the Bear (T5)"
                )
            return None
        if action.commodity not in self.commodities:
            return f"{action.commodity} is not traded in this game"
        return None  # a true corner, or a false announcement that costs 20 (T5)

    def _check_early(self, player: int, action: PitAction) -> str | None:
        """Before the opening, a trade attempt by anyone but the dealer is
        taken, to be penalized (T3). The dealer's is refused with a hint
        instead: the dealer decides when trading starts."""
        if isinstance(action, Accept) and action.offer is not None:
            # No offer is open before the opening: this one is of an earlier
            # hand (an acceptance that raced a corner), or of none.
            return self._gone(action.seat, action.offer)
        if isinstance(action, Offer | Accept) and player == self.dealer:
            return "you are the dealer: open the pit first (T3)"
        if isinstance(action, Offer):
            return self._check_lot(player, action.lot)
        if isinstance(action, Accept):
            if action.seat == player:
                return "you cannot accept your own offer"
            if not 0 <= action.seat < self.players:
                return f"there is no seat {action.seat}"
            return None
        if isinstance(action, Withdraw):
            return "you have no open offer: the pit is not open yet"
        return "the pit is not open yet: nobody can corner before the opening (T3)"

    def _check_lot(self, player: int, lot: Lot) -> str | None:
        if lot.commodity is not None and lot.commodity not in self.commodities:
            return f"{lot.commodity} is not traded in this game"
        if (lot.bull or lot.bear) and not self.rules.bull_and_bear:
            return "there is no Bull or Bear in this game (option bull_and_bear, T2)"
        if not lot.payable(self.free[player]):
            where = " outside your open offer" if player in self.offers else ""
            return f"you do not hold {lot.describe()}{where}"
        return None

    def _resolve(self, player: int, action: Accept) -> tuple[Accept, OpenOffer, Lot, bool] | str:
        """The acceptance spelled out: the full action, the offer it takes,
        the payment, and whether the payment is the acceptor's own open
        offer. Or why it cannot be taken."""
        if action.seat == player:
            return "you cannot accept your own offer"
        if not 0 <= action.seat < self.players:
            return f"there is no seat {action.seat}"
        offer = self.offers.get(action.seat)
        if action.offer is not None and (offer is None or offer.id != action.offer):
            return self._gone(action.seat, action.offer)
        if offer is None:
            last = [i for i, (owner, _) in self.fates.items() if owner == action.seat]
            if last:
                return self._gone(action.seat, max(last))
            return f"seat {action.seat} has no open offer"
        choices = self.payments(player, offer.count)
        if not action.names_payment:
            if len(choices) == 1:
                lot = choices[0]
            elif not choices:
                return (
                    f"you cannot pay {offer.count} cards of one commodity for seat "
                    f"{action.seat}'s offer (T4)"
                )
            else:
                spelled = ", ".join(
                    " ".join(["accept", str(action.seat), *c.words()]) for c in choices
                )
                return f"say what you pay with: {spelled}"
        else:
            try:
                lot = action.payment(offer.count)
            except ValueError as exc:
                return f"seat {action.seat} offers {offer.count}: {exc}"
            reason = self._check_lot(player, lot)
            if reason is not None and lot not in choices:
                return f"{reason}, to pay for {offer.count} cards (T4)"
        full = Accept(action.seat, lot.commodity, lot.bull, lot.bear, offer.id)
        return full, offer, lot, not lot.payable(self.free[player])

    def _gone(self, seat: int, number: int) -> str:
        """Why offer `number` of `seat` cannot be taken: who won the race for it."""
        if number < self.first_offer:
            return f"offer #{number} is gone: its hand is over ({self.previous or 'ended'})"
        if self.phase is Phase.SORTING:
            return f"there is no offer #{number}: the pit is not open yet"
        fate = self.fates.get(number)
        if fate is not None and fate[0] == seat:
            return f"seat {seat}'s offer #{number} was {fate[1]}"
        current = self.offers.get(seat)
        if fate is not None or (current is not None and current.id != number):
            return f"offer #{number} is not seat {seat}'s"
        return f"there is no offer #{number}"

    # -- applying actions ------------------------------------------------------------

    def _action_event(self, player: int, action: PitAction) -> Event:
        if isinstance(action, Offer):
            # An offer's number and count are public, its cards are not (T4).
            opened = {"offer": self.next_offer} if self.phase is Phase.TRADING else {}
            return self._hidden(player, f"offer {action.count}", str(action), **opened)
        if isinstance(action, Withdraw) and player in self.offers:
            return Event(
                "action", {"seat": player, "action": "withdraw", "offer": self.offers[player].id}
            )
        if isinstance(action, Accept):
            resolved = self._resolve(player, action) if self.phase is Phase.TRADING else None
            if isinstance(resolved, tuple):
                full = resolved[0]
                return self._hidden(player, f"accept {full.seat} #{full.offer}", str(full))
            number = "" if action.offer is None else f" #{action.offer}"
            public = f"accept {action.seat}{number}"
            return self._hidden(player, public, str(action))
        if isinstance(action, Corner) and action.commodity is None:
            corner = self.corner(player)
            if corner is not None:
                return Event("action", {"seat": player, "action": str(Corner(corner[0]))})
        return super()._action_event(player, action)

    @staticmethod
    def _hidden(player: int, public: str, full: str, **facts: Any) -> Event:
        """An action whose cards only its player sees (T4): the table sees `public`."""
        part = {"action": full}
        return Event("action", {"seat": player, "action": public, **facts}, {player: part}, part)

    def _apply(self, player: int, action: PitAction) -> None:
        if isinstance(action, Open):
            self.phase = Phase.TRADING
            self.log.append(Event("open", {"dealer": player}))
        elif self.phase is Phase.SORTING:
            self._penalize(player, "traded before the pit was open (T3)")
        elif isinstance(action, Corner):
            corner = self.corner(player)
            if corner is not None and action.commodity in (None, corner[0]):
                self._finish_corner(player, *corner)
            else:
                self._penalize(player, "announced a corner without having one (T5)")
        else:
            self.idle += 1
            if isinstance(action, Offer):
                self._offer(player, action.lot)
            elif isinstance(action, Withdraw):
                self._withdraw(player)
            else:
                resolved = self._resolve(player, action)
                assert isinstance(resolved, tuple)
                self._trade(player, *resolved[1:])
            self._check_limits()

    def _penalize(self, player: int, reason: str) -> None:
        self.points[player] -= PENALTY
        self.log.append(Event("penalty", {"seat": player, "points": -PENALTY, "reason": reason}))

    def _offer(self, player: int, lot: Lot) -> None:
        for i, n in lot.needs():
            self.free[player][i] -= n
        offer = OpenOffer(self.next_offer, player, lot.cards())
        self.next_offer += 1
        self.offers[player] = offer

    def _withdraw(self, player: int) -> None:
        offer = self.offers.pop(player)
        self._take_back(offer)
        self.fates[offer.id] = (player, "withdrawn")

    def _take_back(self, offer: OpenOffer) -> None:
        for card in offer.cards:
            self.free[offer.seat][INDEX[card]] += 1

    def _trade(self, buyer: int, offer: OpenOffer, payment: Lot, own_offer: bool) -> None:
        """The blind swap (T4): atomic, so the first valid acceptance wins."""
        seller = offer.seat
        del self.offers[seller]
        if own_offer:
            own = self.offers.pop(buyer)
            paid = own.cards
            self.fates[own.id] = (buyer, f"paid to seat {seller} for offer #{offer.id}")
        else:
            for i, n in payment.needs():
                self.free[buyer][i] -= n
            paid = payment.cards()
        for card in offer.cards:
            self.free[buyer][INDEX[card]] += 1
        for card in paid:
            self.free[seller][INDEX[card]] += 1
        self.fates[offer.id] = (seller, f"taken by seat {buyer}")
        self.trades.append(Trade(offer.id, seller, buyer, offer.count))
        self.idle = 0
        self.log.append(
            Event(
                "trade",
                {"offer": offer.id, "seller": seller, "buyer": buyer, "count": offer.count},
                {
                    seller: _side(paid, offer.cards),
                    buyer: _side(offer.cards, paid),
                },
            )
        )

    def _check_limits(self) -> None:
        """pitkit's safety limits: a market that never corners ends unscored."""
        if len(self.trades) >= self.rules.trades_per_player * self.players:
            self._finish(f"no corner after {len(self.trades)} trades (trades_per_player)")
        elif self.idle >= self.rules.idle_limit:
            self._finish(f"no trade in {self.idle} market actions (idle_limit)")

    def _finish_corner(self, player: int, commodity: Commodity, value: int) -> None:
        """Score a corner (T5): the cornerer's value, and 20 off the Bear's
        holder and the Bull's holder unless that is the cornerer."""
        held = self.holding(player)
        self.cornerer = player
        self.points[player] += value
        losers: dict[str, int] = {}
        for kind, name in ((BEAR, "bear"), (BULL, "bull")):
            for seat in range(self.players):
                if seat != player and self.holding(seat)[kind]:
                    self.points[seat] -= PENALTY
                    losers[name] = seat
        doubled = held[BULL] == 1 and held[INDEX[PitCard[commodity.name]]] == SET_SIZE
        self.log.append(
            Event(
                "corner",
                {
                    "seat": player,
                    "commodity": str(commodity),
                    "cards": describe_cards(
                        card for i, card in enumerate(KINDS) for _ in range(held[i])
                    ),
                    "points": value,
                    "doubled": doubled,
                    "bear": losers.get("bear"),
                    "bull": losers.get("bull"),
                },
            )
        )
        text = f"seat {player} cornered {commodity} for {value}"
        if "bear" in losers:
            text += f"; seat {losers['bear']} held the Bear"
        if "bull" in losers:
            text += f"; seat {losers['bull']} held the Bull"
        self._finish(text, commodity)

    def _finish(self, summary: str, commodity: Commodity | None = None) -> None:
        for offer in self.open_offers():
            self._take_back(offer)
            self.fates[offer.id] = (offer.seat, "void: the hand ended")
        self.offers = {}
        self.phase = Phase.OVER
        self.summary = summary
        points = tuple(float(p) for p in self.points)
        self._outcome = Outcome(
            Outcome.ranking(points),
            points,
            summary,
            {
                "cornerer": self.cornerer,
                "commodity": None if commodity is None else str(commodity),
                "trades": len(self.trades),
                "stalled": self.cornerer is None,
            },
        )
        self.log.append(
            Event(
                "hand_end",
                {
                    "cornerer": self.cornerer,
                    "summary": summary,
                    "points": list(self.points),
                    "trades": len(self.trades),
                },
            )
        )

    # -- views ---------------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "phase": self.phase.value,
            "to_act": sorted(self.to_act),
            "dealer": self.dealer,
            "commodities": [str(c) for c in self.commodities],
            "bull_and_bear": self.rules.bull_and_bear,
            "players": [
                {
                    "seat": s,
                    "cards": sum(self.free[s]) + (len(o.cards) if (o := self.offers.get(s)) else 0),
                    "points": self.points[s],
                }
                for s in range(self.players)
            ],
            "offers": [
                {"offer": o.id, "seat": o.seat, "count": o.count} for o in self.open_offers()
            ],
            "trades": len(self.trades),
            "outcome": self._outcome.to_json() if self._outcome else None,
            "history": self.history(seat),
        }
        if seat is not None:
            view["hand"] = [str(c) for c in self.cards(seat)]
            own = self.offers.get(seat)
            view["offer"] = (
                None
                if own is None
                else {"offer": own.id, "count": own.count, "cards": [str(c) for c in own.cards]}
            )
            view["legal"] = [str(a) for a in self.legal_actions(seat)]
        return view

    # -- copies and zones ------------------------------------------------------------------

    def clone(self) -> Self:
        new = self._clone_base()
        new.free = [list(f) for f in self.free]
        new.offers = dict(self.offers)
        new.fates = dict(self.fates)
        new.trades = list(self.trades)
        new.points = list(self.points)
        return new

    def zones(self) -> dict[str, Sequence[Any]]:
        zones: dict[str, Sequence[Any]] = {}
        for seat in range(self.players):
            zones[f"hand {seat}"] = self.cards(seat)
            offer = self.offers.get(seat)
            zones[f"offer {seat}"] = list(offer.cards) if offer else []
        return zones

    def hidden_zones(self, seat: int | None) -> list[str]:
        return [
            f"{zone} {s}" for s in range(self.players) if s != seat for zone in ("hand", "offer")
        ]

    def _set_zone(self, name: str, cards: list[Any]) -> None:
        zone, number = name.split()
        seat = int(number)
        if zone == "hand":
            self.free[seat] = counts_of(cards)
        elif cards:
            offer = self.offers[seat]
            self.offers[seat] = OpenOffer(offer.id, seat, tuple(cards))


def _side(received: Sequence[PitCard], gave: Sequence[PitCard]) -> dict[str, Any]:
    """One side's private view of a trade: what it received (and gave, which it knew)."""
    return {
        "received": describe_cards(received),
        "cards": [str(c) for c in received],
        "gave": [str(c) for c in gave],
    }


def outside_turn(state: State[PitAction], player: int) -> bool:
    """Whether `player` is a seat outside `to_act` in a game still going on."""
    return (
        not state.is_over
        and isinstance(player, int)
        and 0 <= player < state.players
        and player not in state.to_act
    )


def apply_checked(
    state: State[PitAction], hand: Hand, player: int, action: PitAction
) -> list[Event]:
    """Apply `action` for a seat outside `to_act` if `hand.check` takes it
    (only a trade attempt before the opening, which is penalized: T3)."""
    reason = hand.check(player, action)
    if reason is not None:
        raise IllegalAction(reason)
    start = len(state.log)
    state.log.append(state._action_event(player, action))
    state._apply(player, action)
    return state.log[start:]
