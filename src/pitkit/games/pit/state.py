"""One hand of Pit (rulings T1-T5) as a state machine for simultaneous play.

Phases: *sorting* (only the dealer may act: ``open`` rings the bell, T3),
*trading* (everyone acts at once, in arrival order, T4), *over* (a corner,
T5, or a pitkit safety limit).

The market itself, each seat's ``hand`` and ``offer`` zones, the offers and
the trades, is `Trading` (`pitkit.games.pit.trading`), which `PitHand`
builds on; a hand's score is worked out in `pitkit.games.pit.scoring`.

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
table, so they are quick to list, from parts kept per seat and per holding
(`pitkit.games.pit.choices`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self

from mypy_extensions import mypyc_attr

from pitkit.cards import Commodity, PitCard
from pitkit.core.actions import Action
from pitkit.core.chance import Chance
from pitkit.core.errors import IllegalActionError
from pitkit.core.events import Event
from pitkit.core.state import Outcome, State
from pitkit.games.pit.actions import CODEC, Accept, Corner, Offer, Open, PitAction, Withdraw
from pitkit.games.pit.choices import ACCEPTS, SET_SIZE, acceptance, offer_key
from pitkit.games.pit.choices import MAX_SEATS as MAX_SEATS  # where the adapter reads it
from pitkit.games.pit.market import INDEX, describe_cards
from pitkit.games.pit.rules import Rules
from pitkit.games.pit.scoring import PENALTY, hand_end, settle_corner
from pitkit.games.pit.trading import Phase, Trading

__all__ = ["PENALTY", "SET_SIZE", "Phase", "PitHand", "apply_checked", "attempt_checked"]

# Looked up often: a name here is quicker than an attribute of the Enum class.
_SORTING: Final = Phase.SORTING
_TRADING: Final = Phase.TRADING
_OVER: Final = Phase.OVER
# Made once: legal action lists share it.
_OPEN: Final = Open()


# Compiled (hatch_build.py), a class would build each instance by running its
# __init__, which `copy.copy`, and so `clone`, cannot do; a class open to
# subclasses written in Python is built as Python builds classes.
@mypyc_attr(allow_interpreted_subclasses=True)
class PitHand(Trading):
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
        super().__init__(rules, players, first_offer, previous)
        if not 0 <= dealer < players:
            raise ValueError(f"there is no seat {dealer} to deal")
        self.dealer = dealer
        self.log = [] if log is None else log
        self.log_start = len(self.log)
        self.chance = chance
        if chance.sink is None:
            chance.sink = self.log
        self.points = [0] * players
        self.cornerer: int | None = None
        self.summary = ""
        self._outcome: Outcome | None = None
        self._trade_limit = rules.trades_per_player * players
        self._everyone = frozenset(range(players))
        self._dealer_only = frozenset((dealer,))
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
        made = ACCEPTS.get
        for offer in self.offers.values():  # oldest first (see open_offers)
            if offer.seat != player:
                base = offer_key(offer)
                for lot in pay[offer.count]:
                    actions.append(made(base + lot.key) or acceptance(offer, lot))
        return actions

    def _legal_actions(self, player: int) -> list[PitAction]:
        return self.legal_actions(player)

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
        if not isinstance(action, Corner):
            return self._market_refusal(player, action)
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

    def _check_limits(self) -> None:
        """pitkit's safety limits: a market that never corners ends unscored."""
        if len(self.trades) >= self._trade_limit:
            self._finish(f"no corner after {len(self.trades)} trades (trades_per_player)")
        elif self.idle >= self.rules.idle_limit:
            self._finish(f"no trade in {self.idle} market actions (idle_limit)")

    def _finish_corner(self, player: int, commodity: Commodity, value: int) -> None:
        """Score a corner (T5) and end the hand."""
        self.cornerer = player
        holdings = [self.holding(seat) for seat in range(self.players)]
        event, summary = settle_corner(self.points, holdings, player, commodity, value)
        self.log.append(event)
        self._finish(summary, commodity)

    def _finish(self, summary: str, commodity: Commodity | None = None) -> None:
        for offer in self.open_offers():
            self._take_back(offer)
            self.fates[offer.id] = (offer.seat, "void: the hand ended")
        self.offers = {}
        self.phase = _OVER
        self.summary = summary
        self._outcome, end = hand_end(
            self.points, summary, self.cornerer, commodity, len(self.trades)
        )
        self.log.append(end)

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

    # -- copies ----------------------------------------------------------------------------

    def clone(self) -> Self:
        new = super().clone()
        new.points = list(self.points)
        return new


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
