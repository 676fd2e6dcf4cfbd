"""One hand of Pitty Pat (rulings Y1-Y4), as a state machine.

Zones: each player's ``hand``, the ``pairs`` laid face up in front of them,
the face-up discard ``pile`` (last card on top) and the face-down ``stock``
(last card on top). Every card played goes face up, so only the hands of
others and the stock's order are hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any, Self

from mypy_extensions import mypyc_attr

from pitkit.cards import Card, format_cards
from pitkit.core.chance import Chance
from pitkit.core.events import Event
from pitkit.core.state import Outcome, State
from pitkit.games.pittypat.actions import CODEC, Draw, MatchCard, PittyPatAction
from pitkit.games.pittypat.rules import Rules

__all__ = ["HAND_SIZE", "Phase", "PittyPatHand"]

HAND_SIZE = 5
"""Cards dealt to each player in the seed's game (Y1); `Rules.cards_each`."""

# Precomputed once, for the hot paths: each card's rank as a small int, the
# one-seat sets `to_act` returns, and every action, so that listing the legal
# moves builds no new objects and checking a move finds it by identity.
_RANK: tuple[int, ...] = tuple(i % 13 for i in range(52))
_SEAT: tuple[frozenset[int], ...] = tuple(frozenset((s,)) for s in range(4))
_NOBODY: frozenset[int] = frozenset()
_DRAW = Draw()
_GO_OUT: tuple[MatchCard, ...] = tuple(MatchCard(Card(i)) for i in range(52))
_MATCH: tuple[tuple[MatchCard, ...], ...] = tuple(
    tuple(MatchCard(Card(i), Card(j)) for j in range(52)) for i in range(52)
)


class Phase(Enum):
    """Where the hand stands."""

    TURN = "turn"  # the player to act may match the top card or draw
    AFTER_DRAW = "after_draw"  # the player turned a card they can match, and must match it
    OVER = "over"


# Compiled (hatch_build.py), a class would build each instance by running its
# __init__, which `clone` cannot do: see `pitkit.games.pit.state.Hand`.
@mypyc_attr(allow_interpreted_subclasses=True)
class PittyPatHand(State[PittyPatAction]):
    """One hand of Pitty Pat among the `seated` players, dealt by `dealer`."""

    codec = CODEC
    game = "pitty-pat"

    def __init__(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        chance: Chance,
        *,
        seated: Sequence[int] | None = None,
        log: list[Event] | None = None,
    ) -> None:
        self.rules = rules
        self.players = players
        self.seated = tuple(range(players) if seated is None else seated)
        if not 2 <= len(self.seated) <= 4:
            raise ValueError(f"Pitty Pat is for 2 to 4 players, not {len(self.seated)}")
        if dealer not in self.seated:
            raise ValueError(f"the dealer, seat {dealer}, is not seated")
        rules.check_players(len(self.seated))
        self.dealer = dealer
        self._join(log, chance)
        order = sorted(self.seated)
        self._left = {s: order[(i + 1) % len(order)] for i, s in enumerate(order)}
        self.cards: list[list[Card]] = [[] for _ in range(players)]
        self.pairs: list[list[Card]] = [[] for _ in range(players)]
        self.pile: list[Card] = []
        self.stock: list[Card] = []
        self.turns = 0
        self.winner: int | None = None
        self._outcome: Outcome | None = None
        self._deal()
        self.player = self.next_seat(dealer)
        self.phase = Phase.TURN
        self._check_dead()

    # -- the deal (Y1, Y3) ----------------------------------------------

    def _deal(self) -> None:
        deck = self.chance.shuffle(self.rules.deck())
        order = [self.next_seat(self.dealer)]
        while len(order) < len(self.seated):
            order.append(self.next_seat(order[-1]))
        # One card at a time from the dealer's left, five rounds (or `cards_each`).
        dealt = self.rules.cards_each * len(order)
        for i in range(dealt):
            self.cards[order[i % len(order)]].append(deck[i])
        rest = deck[dealt:]
        self.pile = [rest[0]]
        self.stock = rest[:0:-1]  # the top of the stock is the end of the list
        laid = {}
        for seat in self.seated:
            pairs = self._set_aside_pairs(seat)
            if pairs:
                laid[str(seat)] = format_cards(pairs)
        self.log.append(
            Event(
                "deal",
                {
                    "dealer": self.dealer,
                    "up": str(self.pile[0]),
                    "stock": len(self.stock),
                    "laid": laid,
                },
                {
                    seat: {"hand": format_cards(self.cards[seat] + self.pairs[seat])}
                    for seat in self.seated
                },
            )
        )

    def _set_aside_pairs(self, seat: int) -> list[Card]:
        """Lay down the pairs in a dealt hand: two of a rank make a pair,
        three make a pair and a single, four make two pairs (Y3)."""
        kept: dict[int, Card] = {}
        for card in self.cards[seat]:
            if card.rank in kept:
                self.pairs[seat] += [kept.pop(card.rank), card]
            else:
                kept[card.rank] = card
        self.cards[seat] = list(kept.values())
        return self.pairs[seat]

    # -- turn order -------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The seated player to the left of `seat`."""
        left = self._left.get(seat)
        if left is not None:
            return left
        later = [s for s in self.seated if s > seat]
        return later[0] if later else self.seated[0]

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.pile[-1]

    # -- State ------------------------------------------------------------

    @property
    def to_act(self) -> frozenset[int]:
        return _NOBODY if self.phase is Phase.OVER else _SEAT[self.player]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def matching_card(self, seat: int) -> Card | None:
        """The card in `seat`'s hand of the top card's rank, if any. A hand
        never holds two cards of one rank, since dealt pairs are laid down."""
        rank = _RANK[self.pile[-1]]
        for card in self.cards[seat]:
            if _RANK[card] == rank:
                return card
        return None

    def _legal_actions(self, player: int) -> list[PittyPatAction]:
        if self.phase is Phase.OVER or player != self.player:
            return []
        hand = self.cards[player]
        card = self.matching_card(player)
        actions: list[PittyPatAction] = []
        if card is not None:
            if len(hand) == 1:
                actions.append(_GO_OUT[card])
            else:
                pairs = _MATCH[card]
                actions += [pairs[other] for other in hand if other != card]
        if self.phase is Phase.TURN and not (card is not None and self.rules.must_match):
            actions.append(_DRAW)
        return actions

    def why_illegal(self, player: int, action: PittyPatAction) -> str:
        if isinstance(action, Draw):
            if self.phase is Phase.AFTER_DRAW:
                return "you have drawn already; match the card you turned"
            return "you can match the top card, and the rules say you must"
        hand = self.cards[player]
        if action.card not in hand:
            return f"you do not hold {action.card}"
        if action.card.rank != self.top.rank:
            return f"{action.card} does not match the top card {self.top}"
        if len(hand) == 1:
            return f"{action.card} is your last card: match it and discard nothing"
        if action.discard is None:
            return "after matching you must discard a card"
        if action.discard == action.card:
            return f"{action.card} is the card you are matching; discard another"
        return f"you do not hold {action.discard}"

    def _apply(self, player: int, action: PittyPatAction) -> None:
        if isinstance(action, Draw):
            self._draw(player)
        else:
            self._match(player, action)

    def _match(self, player: int, action: MatchCard) -> None:
        hand = self.cards[player]
        hand.remove(action.card)
        if self.rules.pairs_on_table:
            self.pairs[player] += [self.pile.pop(), action.card]
        else:
            self.pile.append(action.card)
        if not hand:
            self._finish(player, "went out")
            return
        assert action.discard is not None
        hand.remove(action.discard)
        self.pile.append(action.discard)
        self._end_turn()
        self._check_dead()

    def _draw(self, player: int) -> None:
        if not self.stock:
            if len(self.pile) <= 1:
                self._finish(None, "no card left to draw")
                return
            # Y4: the pile becomes the stock and its top card starts a new pile.
            self.stock = self.chance.shuffle(self.pile)
            self.pile = [self.stock.pop()]
            self.log.append(Event("restock", {"up": str(self.pile[0]), "stock": len(self.stock)}))
        card = self.stock.pop()
        self.pile.append(card)
        self.log.append(Event("turned", {"seat": player, "card": str(card)}))
        if self.matching_card(player) is not None:
            self.phase = Phase.AFTER_DRAW
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        if self.turns >= self.rules.turn_limit:
            self._finish(None, f"turn limit of {self.rules.turn_limit} reached")
            return
        self.player = self.next_seat(self.player)
        self.phase = Phase.TURN

    def _check_dead(self) -> None:
        """With `dead_hand`, end the hand as a draw once nobody can match again.

        Only a match changes a hand or what cycles through the stock and the pile (a
        drawn card goes to the pile, the pile back to the stock), so this is checked
        after the deal and after each match: if no card left there is of a rank that
        someone holds, every turn from now on is a draw that matches nothing."""
        if not self.rules.dead_hand or self.phase is Phase.OVER:
            return
        held = {_RANK[card] for seat in self.seated for card in self.cards[seat]}
        if not any(_RANK[card] in held for card in self.stock + self.pile):
            self._finish(None, "nobody can match again")

    def _finish(self, winner: int | None, reason: str) -> None:
        self.phase = Phase.OVER
        self.winner = winner
        points = [0.0] * self.players
        if winner is None:
            ranks = tuple(1 if s in self.seated else 2 for s in range(self.players))
            summary = f"draw: {reason}"
        else:
            points[winner] = 1.0
            ranks = tuple(1 if s == winner else 2 for s in range(self.players))
            summary = f"seat {winner} {reason}"
        self._outcome = Outcome(ranks, tuple(points), summary, {"winner": winner, "reason": reason})
        self.log.append(Event("hand_end", {"winner": winner, "reason": reason}))

    # -- views --------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "phase": self.phase.value,
            "to_act": sorted(self.to_act),
            "dealer": self.dealer,
            "turn": self.turns + 1,
            "top": str(self.top) if self.pile else None,
            "pile": [str(c) for c in self.pile],
            "stock": len(self.stock),
            "players": [
                {
                    "seat": s,
                    "seated": s in self.seated,
                    "cards": len(self.cards[s]),
                    "pairs": [str(c) for c in self.pairs[s]],
                }
                for s in range(self.players)
            ],
            "outcome": self._outcome.to_json() if self._outcome else None,
            "history": self.history(seat),
        }
        if seat is not None:
            view["hand"] = [str(c) for c in sorted(self.cards[seat], key=_by_rank)]
            view["legal"] = [str(a) for a in self.legal_actions(seat)]
        return view

    # -- copies and zones ------------------------------------------------------

    def clone(self) -> Self:
        new = self._clone_base()
        new.cards = [list(h) for h in self.cards]
        new.pairs = [list(p) for p in self.pairs]
        new.pile = list(self.pile)
        new.stock = list(self.stock)
        return new

    def zones(self) -> dict[str, Sequence[Any]]:
        zones: dict[str, Sequence[Any]] = {"pile": self.pile, "stock": self.stock}
        for seat in range(self.players):
            zones[f"hand {seat}"] = self.cards[seat]
            zones[f"pairs {seat}"] = self.pairs[seat]
        return zones

    def hidden_zones(self, seat: int | None) -> list[str]:
        return ["stock"] + [f"hand {s}" for s in self.seated if s != seat]

    def _set_zone(self, name: str, cards: list[Any]) -> None:
        if name == "stock":
            self.stock = cards
        else:
            self.cards[int(name.split()[1])] = cards

    # -- sampling what a seat cannot see ---------------------------------------

    def ranks_lacking(self) -> tuple[list[set[int]], bool]:
        """What the table knows of the hidden cards, from the public log alone:
        for each seat, the ranks it surely does not hold; and whether the stock
        was made from the pile this hand (then everyone knows what is in it).

        A hand never gains a card (drawn cards go to the pile) and never holds
        two of a rank (Y3), so a rank a player is shown to lack stays lacking:
        after matching or discarding a card of it; after turning up a card of
        it and not matching it; with `must_match`, after drawing instead of
        matching the top card.
        """
        lacking: list[set[int]] = [set() for _ in range(self.players)]
        restocked = False
        top: int | None = None
        turned: tuple[int, int] | None = None  # (seat, rank) of a card just turned up
        must_match = self.rules.must_match
        for event in self.log[self.log_start :]:
            kind, public = event.type, event.public
            if kind == "action":
                seat = public["seat"]
                if turned is not None and turned[0] != seat:
                    lacking[turned[0]].add(turned[1])  # the turn ended without a match
                turned = None
                words = public["action"].split()
                if words[0] == "match":
                    for word in words[1:]:
                        lacking[seat].add(Card.parse(word).rank)
                    top = Card.parse(words[-1]).rank
                elif must_match and top is not None:
                    lacking[seat].add(top)  # Y2: could not match, so drew
            elif kind == "turned":
                top = Card.parse(public["card"]).rank
                turned = (public["seat"], top)
            elif kind in ("deal", "restock"):
                top = Card.parse(public["up"]).rank
                restocked = restocked or kind == "restock"
        if turned is not None and not (self.phase is Phase.AFTER_DRAW and self.player == turned[0]):
            lacking[turned[0]].add(turned[1])
        return lacking, restocked


def _by_rank(card: Card) -> tuple[int, int]:
    return (card.rank, card.suit)
