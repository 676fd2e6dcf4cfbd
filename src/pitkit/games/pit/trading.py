"""The market of one hand of Pit: what each seat holds and holds out, the
offers and the trades (T4).

Zones: each seat's ``hand`` (the cards it holds and has not offered) and
``offer`` (the cards it holds out, face down). Everything is hidden except
a seat's own two zones; a corner reveals the cornerer's cards.

`Trading` keeps that side of a hand: the market moves (an offer, its
withdrawal, the blind swap of a trade), why an offer cannot be taken or a
lot cannot be paid, and the fate of every closed offer, so that the second
acceptance of an offer is refused naming who took it. `PitHand`
(`pitkit.games.pit.state`) builds the hand on it: the deal, the bell, the
corners and the score, the legal actions and the views.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any, Final, Self

from mypy_extensions import mypyc_attr

from pitkit.cards import Commodity, PitCard
from pitkit.core.events import Event
from pitkit.core.state import State
from pitkit.games.pit.actions import Accept, Offer, PitAction, Withdraw
from pitkit.games.pit.choices import SET_SIZE, Choices, choices_for, cornered
from pitkit.games.pit.market import (
    BULL,
    COMMODITIES,
    KINDS,
    CardFacts,
    Lot,
    OpenOffer,
    Trade,
    counts_of,
    facts_of,
)
from pitkit.games.pit.rules import Rules

__all__ = ["Phase", "Resolved", "Trading"]


class Phase(Enum):
    """Where the hand stands."""

    SORTING = "sorting"  # dealt; the dealer has not opened the pit yet (T3)
    TRADING = "trading"  # the pit is open: everyone trades at once (T4)
    OVER = "over"


# Looked up often: a name here is quicker than an attribute of the Enum class.
_SORTING: Final = Phase.SORTING
_TRADING: Final = Phase.TRADING

Resolved = tuple[Accept, OpenOffer, Lot, bool]
"""An acceptance spelled out: the full action, the offer it takes, the
payment, and whether the payment is the acceptor's own open offer."""


# Compiled (hatch_build.py), a class would build each instance by running its
# __init__, which `copy.copy`, and so `clone`, cannot do; a class open to
# subclasses written in Python is built as Python builds classes.
@mypyc_attr(allow_interpreted_subclasses=True)
class Trading(State[PitAction]):
    """The market of one hand of Pit among all `players` seats, under `rules`.

    `first_offer` numbers the hand's offers (a match keeps numbers unique
    across hands); `previous` says how the previous hand ended, so that a
    late action racing a corner is refused with that reason.
    """

    # What each seat may do with its own cards, until they change (`_forget`).
    _choices: list[Choices | None]
    # The last acceptance resolved: `apply` checks it, logs it and carries it
    # out, so it is worked out once (keyed by the action's identity).
    _resolved: tuple[Accept, int, Resolved | str] | None

    def __init__(self, rules: Rules, players: int, first_offer: int, previous: str | None) -> None:
        self.rules = rules
        self.players = players
        self.commodities = rules.chosen(players)
        self.free: list[list[int]] = [[0] * len(KINDS) for _ in range(players)]
        self.offers: dict[int, OpenOffer] = {}
        self.fates: dict[int, tuple[int, str]] = {}  # closed offer -> (owner, what became of it)
        self.first_offer = self.next_offer = first_offer
        self.previous = previous
        self.trades: list[Trade] = []
        self.idle = 0  # market actions (offers, withdrawals, acceptances) since the last trade
        self.phase = _SORTING
        self._forget_all()

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
        kind = cornered(held)
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

    def payments(self, player: int, size: int) -> Sequence[Lot]:
        """What `player` can pay for an offer of `size` cards: cards not on
        offer, or the player's own open offer of that size, traded whole."""
        return (self._choices[player] or self._study(player))[1][size]

    def _study(self, player: int) -> Choices:
        """What `player` may do with its own cards, kept until they change."""
        known = self._choices[player] = choices_for(self.free[player], self.offers.get(player))
        return known

    def _forget(self, seat: int) -> None:
        """Drop what was worked out from `seat`'s cards: they changed."""
        self._choices[seat] = None
        self._resolved = None

    def _forget_all(self) -> None:
        self._choices = [None] * self.players
        self._resolved = None

    # -- why a market move is refused ---------------------------------------------

    def _market_refusal(self, player: int, action: Offer | Withdraw | Accept) -> str | None:
        """Why `player` may not make the market move `action` in the open pit, or None (T4)."""
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
        resolved = self._resolve(player, action)
        return resolved if isinstance(resolved, str) else None

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

    # -- the market moves ------------------------------------------------------------

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

    # -- copies and zones ------------------------------------------------------------------

    def clone(self) -> Self:
        new = self._clone_base()
        new.free = [list(f) for f in self.free]
        new.offers = dict(self.offers)
        new.fates = dict(self.fates)
        new.trades = list(self.trades)
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
