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
(`refusal`): a trade attempt before the opening by a seat other than the
dealer (T3), and a false announcement ``corner wheat`` (T5). Neither is
ever a listed legal action, so random play never seeks a penalty, and an
action that was legal earlier is refused, not penalized, when replayed out
of its time: the listed corner is ``corner`` alone, the checked call,
which is refused when false.

Real-time play asks a seat for its legal actions each time it looks at the
table, so they are quick to list: what a seat may do with its own cards and
what it can pay for an offer of each size (`_choices_for`) are remembered per
holding, and each acceptance of an offer is made once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Final, Self, TypeVar

from mypy_extensions import mypyc_attr

from pitkit.cards import Commodity, PitCard
from pitkit.core.actions import Action
from pitkit.core.chance import Chance
from pitkit.core.errors import IllegalActionError
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
    COMMODITIES,
    INDEX,
    KINDS,
    LOT_KEYS,
    MAX_LOT,
    CardFacts,
    Lot,
    OpenOffer,
    Trade,
    counts_of,
    describe_cards,
    facts_of,
    payable_lots,
)
from pitkit.games.pit.rules import Rules

__all__ = ["PENALTY", "SET_SIZE", "Phase", "PitHand", "apply_checked", "attempt_checked"]

SET_SIZE: Final = 9
"""Cards of each commodity (T1)."""
MAX_SEATS: Final = 7
"""Pit seats at most 7 players (T1)."""
PENALTY: Final = 20
"""Points lost for early trading (T3), a false corner, and holding the Bear or
someone else's Bull at a corner (T5)."""


class Phase(Enum):
    """Where the hand stands."""

    SORTING = "sorting"  # dealt; the dealer has not opened the pit yet (T3)
    TRADING = "trading"  # the pit is open: everyone trades at once (T4)
    OVER = "over"


# Looked up often: a name here is quicker than an attribute of the Enum class.
_SORTING: Final = Phase.SORTING
_TRADING: Final = Phase.TRADING
_OVER: Final = Phase.OVER
# Made once: legal action lists share them.
_OPEN: Final = Open()
_WITHDRAW: Final = Withdraw()
_CORNER: Final = Corner()
#: The lots one can pay for an offer, by its size.
Payments = tuple[tuple[Lot, ...], ...]
#: What a seat may do with its own cards (its legal actions but the
#: acceptances: call a corner, withdraw, or offer), and what it can pay.
Choices = tuple[tuple[PitAction, ...], Payments]
_CHOICES: Final[dict[tuple[int, ...], Choices]] = {}
_SHARED: Final[dict[Any, Any]] = {}
T = TypeVar("T")


def _choices_for(free: Sequence[int], offer: OpenOffer | None) -> Choices:
    """The `Choices` of a seat holding `free` (counts per kind) and `offer`."""
    lot = None if offer is None else offer.facts.lot
    if offer is not None and lot is None:  # only in a copy with unseen cards redealt
        return _work_out(free, offer)
    # Remembered: play meets the same few thousand holdings over and over.
    # Forgotten wholesale now and then, to bound the memory it takes.
    key = (*free, -1 if lot is None else lot.key)
    known = _CHOICES.get(key)
    if known is None:
        if len(_CHOICES) >= 1 << 15:
            _CHOICES.clear()
            _SHARED.clear()
        known = _CHOICES[key] = _work_out(free, offer)
    return known


def _shared(value: T) -> T:
    """The one kept copy of a tuple equal to `value`: thousands of holdings
    share a few hundred lists of choices, and each object kept is work for
    the garbage collector."""
    shared: T = _SHARED.setdefault(value, value)
    return shared


def _work_out(free: Sequence[int], offer: OpenOffer | None) -> Choices:
    held = list(free)
    own: list[PitAction] = []
    sizes = range(1, MAX_LOT + 1)
    pay = ((), *(_shared(tuple(payable_lots(free, size))) for size in sizes))
    if offer is None:
        own += [action for size in sizes for action in OFFERS.payable(free, size)]
    else:
        own.append(_WITHDRAW)
        for i, n in offer.facts.needs:
            held[i] += n
        lot = offer.facts.lot
        if lot is not None and lot not in pay[lot.size]:
            pay = tuple(
                _shared((*lots, lot)) if size == lot.size else lots for size, lots in enumerate(pay)
            )
    if _cornered(held) is not None:
        own.insert(0, _CORNER)  # the safe call; a named false announcement costs 20
    return _shared((_shared(tuple(own)), _shared(pay)))


# Each acceptance made once, by `_offer_key(offer) + lot.key`: every seat lists
# them look after look, and offers of the same number, seat and size recur
# from match to match.
_ACCEPTS: Final[dict[int, Accept]] = {}


def _offer_key(offer: OpenOffer) -> int:
    """Where `offer`'s acceptances start among the keys of `_ACCEPTS`."""
    return (offer.id * MAX_SEATS + offer.seat) * LOT_KEYS


def _acceptance(offer: OpenOffer, lot: Lot) -> Accept:
    """The acceptance of `offer` paying with `lot`, made and kept."""
    if len(_ACCEPTS) >= 1 << 15:
        _ACCEPTS.clear()
    accept = Accept(offer.seat, lot.commodity, lot.bull, lot.bear, offer.id)
    _ACCEPTS[_offer_key(offer) + lot.key] = accept
    return accept


def _cornered(held: Sequence[int]) -> int | None:
    """The kind of card a holding of `held` (counts per kind) corners, if
    any (T5): all 9 cards of a commodity, or 8 and the Bull, and not the Bear."""
    if held[BEAR]:
        return None
    for kind in range(len(COMMODITIES)):  # commodities come first in KINDS
        n = held[kind]
        if n == SET_SIZE or (n == SET_SIZE - 1 and held[BULL]):
            return kind
    return None


#: An acceptance spelled out: the full action, the offer it takes, the
#: payment, and whether the payment is the acceptor's own open offer.
Resolved = tuple[Accept, OpenOffer, Lot, bool]


# Compiled (hatch_build.py), a class would build each instance by running its
# __init__, which `copy.copy`, and so `clone`, cannot do; a class open to
# subclasses written in Python is built as Python builds classes.
@mypyc_attr(allow_interpreted_subclasses=True)
class PitHand(State[PitAction]):
    """One hand of Pit among all `players` seats, dealt by `dealer`.

    `first_offer` numbers the hand's offers (a match keeps numbers unique
    across hands); `previous` says how the previous hand ended, so that a
    late action racing a corner is refused with that reason.
    """

    codec = CODEC
    game = "pit"

    # What each seat may do with its own cards, until they change (`_forget`).
    _choices: list[Choices | None]
    # The last acceptance resolved: `apply` checks it, logs it and carries it
    # out, so it is worked out once (keyed by the action's identity).
    _resolved: tuple[Accept, int, Resolved | str] | None

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
        self.phase = _SORTING
        self.cornerer: int | None = None
        self.summary = ""
        self._outcome: Outcome | None = None
        self._trade_limit = rules.trades_per_player * players
        self._everyone = frozenset(range(players))
        self._dealer_only = frozenset((dealer,))
        self._forget_all()
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
            for i, n in offer.facts.needs:
                counts[i] += n
        return counts

    def corner(self, seat: int) -> tuple[Commodity, int] | None:
        """The corner `seat` holds, and what it is worth, if any (T5): all 9
        cards of a commodity, or 8 and the Bull, and not the Bear. Nine and
        the Bull score double. Cards in the seat's open offer count: they
        are still its cards."""
        offer = self.offers.get(seat)
        if max(self.free[seat]) + (0 if offer is None else offer.count) < SET_SIZE - 1:
            return None  # quick: a corner needs at least 8 cards of a commodity
        held = self.holding(seat)
        kind = _cornered(held)
        if kind is None:
            return None
        commodity = COMMODITIES[kind]
        # Nine and the Bull score double.
        return commodity, commodity.value * (2 if held[kind] == SET_SIZE and held[BULL] else 1)

    @property
    def is_open(self) -> bool:
        """Whether the pit has been opened and trading goes on (T3)."""
        return self.phase is _TRADING

    def open_offers(self) -> list[OpenOffer]:
        """The open offers, oldest first. Only their owners may look at `cards`."""
        # A new offer has the highest number yet, and its seat has no other in
        # `offers`, so it joins the dict at the end: the dict is in number order.
        return list(self.offers.values())

    # -- State ---------------------------------------------------------------------

    @property
    def to_act(self) -> frozenset[int]:
        if self.phase is _TRADING:
            return self._everyone
        if self.phase is _SORTING:
            return self._dealer_only
        return frozenset()

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self, player: int) -> list[PitAction]:
        # Listed from parts kept per seat (see the module's docstring): no
        # cache of whole lists, which every arrival would make stale.
        if self.phase is not _TRADING or not 0 <= player < self.players:
            return [_OPEN] if self.phase is _SORTING and player == self.dealer else []
        own, pay = self._choices[player] or self._study(player)
        actions: list[PitAction] = list(own)
        made = _ACCEPTS.get
        for offer in self.offers.values():  # oldest first (see open_offers)
            if offer.seat != player:
                base = _offer_key(offer)
                for lot in pay[offer.count]:
                    actions.append(made(base + lot.key) or _acceptance(offer, lot))
        return actions

    def _legal_actions(self, player: int) -> list[PitAction]:
        return self.legal_actions(player)

    def payments(self, player: int, size: int) -> Sequence[Lot]:
        """What `player` can pay for an offer of `size` cards: cards not on
        offer, or the player's own open offer of that size, traded whole."""
        return (self._choices[player] or self._study(player))[1][size]

    def _study(self, player: int) -> Choices:
        """What `player` may do with its own cards, kept until they change."""
        known = self._choices[player] = _choices_for(self.free[player], self.offers.get(player))
        return known

    def _forget(self, seat: int) -> None:
        """Drop what was worked out from `seat`'s cards: they changed."""
        self._choices[seat] = None
        self._resolved = None

    def _forget_all(self) -> None:
        self._choices = [None] * self.players
        self._resolved = None

    def allows(self, player: int, action: PitAction) -> bool:
        return self.refusal(player, action) is None

    def why_illegal(self, player: int, action: PitAction) -> str:
        return self.refusal(player, action) or f"{action} is accepted now"

    def apply(self, player: int, action: PitAction | str | Mapping[str, Any]) -> list[Event]:
        """Play `action` for `player`. Before the opening a seat other than
        the dealer may not act, but its trade attempts are still taken, and
        penalized (T3); so `refusal` decides, not `to_act`."""
        move = action if isinstance(action, Action) else self.parse_action(action)
        if self.is_over:
            raise IllegalActionError(f"the hand is over: {self.summary}")
        return apply_checked(self, self, player, move)

    def attempt(self, player: int, action: PitAction) -> list[Event] | str:
        if self.is_over:
            return f"the hand is over: {self.summary}"
        return attempt_checked(self, self, player, action)

    def refusal(self, player: int, action: PitAction) -> str | None:
        """Why `player` may not take `action` now, or None when it is taken:
        legal, or taken and penalized (early trading T3, a false corner T5)."""
        if not 0 <= player < self.players:
            return f"there is no seat {player}"
        if self.phase is _OVER:
            return f"the hand is over: {self.summary}"
        if isinstance(action, Open):
            if self.phase is _TRADING:
                return "the pit is open already"
            return (
                None
                if player == self.dealer
                else f"only the dealer, seat {self.dealer}, opens the pit (T3)"
            )
        if self.phase is _SORTING:
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
        """Before the opening, a trade attempt by anyone, the dealer too, is
        taken, to be penalized (T3): nothing is traded, and it costs 20."""
        if isinstance(action, Accept) and action.offer is not None:
            # No offer is open before the opening: this one is of an earlier
            # hand (an acceptance that raced a corner), or of none.
            return self._gone(action.seat, action.offer)
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

    def _resolve(self, player: int, action: Accept) -> Resolved | str:
        """The acceptance spelled out (`Resolved`), or why it cannot be taken."""
        last = self._resolved
        if last is not None and last[0] is action and last[1] == player:
            return last[2]
        resolved = self._resolve_now(player, action)
        self._resolved = (action, player, resolved)
        return resolved

    def _resolve_now(self, player: int, action: Accept) -> Resolved | str:
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
        named = action.names_payment
        if not named:
            choices = self.payments(player, offer.count)
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
            own_offer = not lot.payable(self.free[player])
        else:
            try:
                lot = action.payment(offer.count)
            except ValueError as exc:
                return f"seat {action.seat} offers {offer.count}: {exc}"
            # Cards not on offer pay it, or the player's own offer must (then
            # `_check_lot` says why the cards not on offer do not).
            own_offer = not lot.payable(self.free[player])
            if own_offer:
                reason = self._check_lot(player, lot)
                if reason is not None and lot not in self.payments(player, offer.count):
                    return f"{reason}, to pay for {offer.count} cards (T4)"
        full = (
            action  # spelled out already: the listed form
            if named and action.offer == offer.id
            else Accept(action.seat, lot.commodity, lot.bull, lot.bear, offer.id)
        )
        return full, offer, lot, own_offer

    def _gone(self, seat: int, number: int) -> str:
        """Why offer `number` of `seat` cannot be taken: who won the race for it."""
        if number < self.first_offer:
            return f"offer #{number} is gone: its hand is over ({self.previous or 'ended'})"
        if self.phase is _SORTING:
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
            shown: dict[str, Any] = {"seat": player, "action": f"offer {action.count}"}
            if self.phase is _TRADING:
                shown["offer"] = self.next_offer
            part = {"action": str(action)}
            return Event("action", shown, {player: part}, part)
        if isinstance(action, Withdraw) and player in self.offers:
            return Event(
                "action", {"seat": player, "action": "withdraw", "offer": self.offers[player].id}
            )
        if isinstance(action, Accept):
            resolved = self._resolve(player, action) if self.phase is _TRADING else None
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
    def _hidden(player: int, public: str, full: str) -> Event:
        """An action whose cards only its player sees (T4): the table sees `public`."""
        part = {"action": full}
        return Event("action", {"seat": player, "action": public}, {player: part}, part)

    def _apply(self, player: int, action: PitAction) -> None:
        resolved = (
            self._resolve(player, action)
            if isinstance(action, Accept) and self.phase is _TRADING
            else None
        )
        self._resolved = None  # the position changes now
        if isinstance(action, Open):
            self.phase = _TRADING
            self.log.append(Event("open", {"dealer": player}))
        elif self.phase is _SORTING:
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
                assert isinstance(resolved, tuple)
                self._trade(player, *resolved[1:])
            self._check_limits()

    def _penalize(self, player: int, reason: str) -> None:
        self.points[player] -= PENALTY
        self.log.append(Event("penalty", {"seat": player, "points": -PENALTY, "reason": reason}))

    def _offer(self, player: int, lot: Lot) -> None:
        free = self.free[player]
        for i, n in lot.needs():
            free[i] -= n
        offer = OpenOffer(self.next_offer, player, lot.cards())
        self.next_offer += 1
        self.offers[player] = offer
        self._forget(player)

    def _withdraw(self, player: int) -> None:
        offer = self.offers.pop(player)
        self._take_back(offer)
        self.fates[offer.id] = (player, "withdrawn")

    def _take_back(self, offer: OpenOffer) -> None:
        free = self.free[offer.seat]
        for i, n in offer.facts.needs:
            free[i] += n
        self._forget(offer.seat)

    def _trade(self, buyer: int, offer: OpenOffer, payment: Lot, own_offer: bool) -> None:
        """The blind swap (T4): atomic, so the first valid acceptance wins."""
        seller = offer.seat
        del self.offers[seller]
        bought, sold = self.free[buyer], self.free[seller]
        public = {"offer": offer.id, "seller": seller, "buyer": buyer, "count": offer.count}
        if own_offer:
            own = self.offers.pop(buyer)
            paid = own.facts
            # Everyone sees the buyer's own offer leave the table as its payment.
            public["paid_with"] = own.id
            self.fates[own.id] = (buyer, f"paid to seat {seller} for offer #{offer.id}")
        else:
            for i, n in payment.needs():
                bought[i] -= n
            paid = facts_of(payment.cards())
        got = offer.facts
        for i, n in got.needs:
            bought[i] += n
        for i, n in paid.needs:
            sold[i] += n
        self._forget(buyer)
        self._forget(seller)
        self.fates[offer.id] = (seller, f"taken by seat {buyer}")
        self.trades.append(Trade(offer.id, seller, buyer, offer.count))
        self.idle = 0
        self.log.append(Event("trade", public, {seller: _side(paid, got), buyer: _side(got, paid)}))

    def _check_limits(self) -> None:
        """pitkit's safety limits: a market that never corners ends unscored."""
        if len(self.trades) >= self._trade_limit:
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
        self.phase = _OVER
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
        new._forget_all()
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
        self._forget(seat)
        if zone == "hand":
            self.free[seat] = counts_of(cards)
        elif cards:
            offer = self.offers[seat]
            self.offers[seat] = OpenOffer(offer.id, seat, tuple(cards))


def _side(received: CardFacts, gave: CardFacts) -> dict[str, Any]:
    """One side's private view of a trade: what it received (and gave, which it knew)."""
    # Tuples, not lists: a log of atomic values is left alone by the garbage collector.
    return {"received": received.text, "cards": received.names, "gave": gave.names}


def apply_checked(
    state: State[PitAction], hand: PitHand, player: int, action: PitAction
) -> list[Event]:
    """`State.apply` for `hand`, or for the match (`state`) playing it, once
    the game is known to go on: `action` is taken unless `hand.refusal`
    gives a reason. That is the listed legal actions for a seat in `to_act`, and also a
    trade attempt before the opening by a seat outside it (penalized: T3)."""
    taken = attempt_checked(state, hand, player, action)
    if isinstance(taken, str):
        raise IllegalActionError(taken)
    return taken


def attempt_checked(
    state: State[PitAction], hand: PitHand, player: int, action: PitAction
) -> list[Event] | str:
    """`apply_checked`, returning the reason for a refusal instead of raising
    it (`State.attempt`)."""
    if not (isinstance(player, int) and 0 <= player < state.players):
        return f"seat {player} may not act now"
    reason = hand.refusal(player, action)
    if reason is not None:
        return reason
    log = state.log
    start = len(log)
    log.append(hand._action_event(player, action))
    state._apply(player, action)
    return log[start:]
