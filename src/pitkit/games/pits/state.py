"""One hand of Pits (rulings P1, P6-P8): the exchange, then rounds of melds.

Zones: each player's ``hand``, the melds ``played`` so far this hand (face
up), and the exchange's face-up ``offered`` cards and face-down
``concealed`` cards while they lie on the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from enum import Enum
from typing import Any, Self

from mypy_extensions import mypyc_attr

from pitkit.cards import Card, format_cards, standard_deck
from pitkit.core.actions import Action
from pitkit.core.chance import Chance
from pitkit.core.errors import BadActionError
from pitkit.core.events import Event
from pitkit.core.state import Outcome, State
from pitkit.games.pits.actions import CODEC, Give, Pass, PitsAction, Play, Take, reading_name
from pitkit.games.pits.melds import Meld, legal_plays, pits_rank, read_as
from pitkit.games.pits.rules import Rules

__all__ = ["PLAYERS", "POINTS", "Phase", "PitsHand"]

PLAYERS = 5
POINTS = (2, 1, 0, 0, 0)  # by finishing place (P7)


class Phase(Enum):
    """Where the hand stands."""

    GIVE_HIGHEST = "give_highest"  # 4th and 5th give their highest card, face up
    FIRST_TAKES = "first_takes"  # 1st takes one; 2nd gets the other
    GIVE_CONCEALED = "give_concealed"  # 1st and 2nd give any card, face down
    FOURTH_TAKES = "fourth_takes"  # 4th takes one; 5th gets the other
    PLAY = "play"
    OVER = "over"


def _sort(cards: list[Card]) -> None:
    cards.sort(key=lambda c: (pits_rank(c), int(c)))


# Compiled (hatch_build.py), a class would build each instance by running its
# __init__, which `clone` cannot do: see `pitkit.games.pit.state.Hand`.
@mypyc_attr(allow_interpreted_subclasses=True)
class PitsHand(State[PitsAction]):
    """One hand of Pits, dealt by `dealer`. `places` is the previous hand's
    finishing order (1st to 5th), which calls for the exchange (P8)."""

    codec = CODEC
    game = "pits"

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        chance: Chance,
        *,
        places: Sequence[int] | None = None,
        log: list[Event] | None = None,
    ) -> None:
        self.rules = rules
        self.players = PLAYERS
        self.dealer = dealer
        self.places = tuple(places) if places else None
        self._join(log, chance)
        self.cards: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.played: list[Card] = []
        self.offered: dict[int, Card] = {}  # face up, from 4th and 5th
        self.concealed: dict[int, Card] = {}  # face down, from 1st and 2nd
        # What the exchange tells everyone: who holds each exchanged card, and
        # the highest rank 4th and 5th can hold (they gave their highest).
        self.known: dict[Card, int] = {}
        self.caps: dict[int, int] = {}
        self.finished: list[int] = []  # seats in the order they went out
        self.table: Meld | None = None
        self.owner: int | None = None  # who laid the meld on the table
        self.passed: set[int] = set()
        self.player = dealer  # whose turn it is in play
        self._plays: dict[Play, Meld] = {}
        self._plays_key: tuple[int, int] | None = None
        self._outcome: Outcome | None = None
        self._deal()
        self.phase = Phase.GIVE_HIGHEST if self.places else Phase.PLAY

    def _deal(self) -> None:
        deck = self.chance.shuffle(standard_deck(jokers=True))
        for i, card in enumerate(deck):  # one at a time from the dealer's left (P1)
            self.cards[(self.dealer + 1 + i) % PLAYERS].append(card)
        for hand in self.cards:
            _sort(hand)
        self.log.append(
            Event(
                "deal",
                {"dealer": self.dealer, "counts": [len(h) for h in self.cards]},
                {seat: {"hand": format_cards(self.cards[seat])} for seat in range(PLAYERS)},
            )
        )

    # -- who acts ---------------------------------------------------------------

    def place(self, n: int) -> int:
        """The seat that finished `n`th (1-5) in the previous hand."""
        assert self.places is not None
        return self.places[n - 1]

    @property
    def to_act(self) -> frozenset[int]:
        if self.phase is Phase.PLAY:
            return frozenset((self.player,))
        if self.phase is Phase.GIVE_HIGHEST:
            return frozenset(s for s in (self.place(4), self.place(5)) if s not in self.offered)
        if self.phase is Phase.FIRST_TAKES:
            return frozenset((self.place(1),))
        if self.phase is Phase.GIVE_CONCEALED:
            return frozenset(s for s in (self.place(1), self.place(2)) if s not in self.concealed)
        if self.phase is Phase.FOURTH_TAKES:
            return frozenset((self.place(4),))
        return frozenset()

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def holders(self) -> list[int]:
        """The seats still holding cards."""
        return [s for s in range(PLAYERS) if self.cards[s]]

    def next_holder(self, seat: int, skip: AbstractSet[int] = frozenset()) -> int:
        """The next seat to the left of `seat` that holds cards (and is not in `skip`)."""
        for step in range(1, PLAYERS + 1):
            other = (seat + step) % PLAYERS
            if self.cards[other] and other not in skip:
                return other
        raise AssertionError("nobody holds cards")

    # -- legal actions ----------------------------------------------------------

    def plays(self) -> dict[Play, Meld]:
        """The current player's legal plays, with the meld each one lays."""
        key = (len(self.log), self.player)
        if self._plays_key != key:
            melds = legal_plays(self.cards[self.player], self.table, self.rules)
            self._plays = {Play.of(m): m for m in melds}
            self._plays_key = key
        return self._plays

    def _legal_actions(self, player: int) -> list[PitsAction]:
        if player not in self.to_act:
            return []
        if self.phase is Phase.PLAY:
            actions: list[PitsAction] = list(self.plays())
            if self.table is not None:
                actions.append(Pass())
            return actions
        if self.phase is Phase.GIVE_HIGHEST:
            hand = self.cards[player]
            top = pits_rank(hand[-1])
            return [Give(c) for c in hand if pits_rank(c) == top]
        if self.phase is Phase.GIVE_CONCEALED:
            return [Give(c) for c in self.cards[player]]
        return [Take(c) for c in sorted(self.offered.values() or self.concealed.values())]

    def parse_action(self, spelling: str | Mapping[str, Any] | Action) -> PitsAction:
        action: PitsAction = super().parse_action(spelling)
        if isinstance(action, Play) and action.reading is None:
            return self._declare(action)
        return action

    def _declare(self, play: Play) -> Play:
        """Supply the reading a player left out: the table's, or the only one."""
        if self.table is not None:
            return Play(reading_name(self.table), play.cards)
        readings = [p for p in self.plays() if p.cards == play.cards]
        if len(readings) > 1:
            options = ", ".join(str(p) for p in readings)
            raise BadActionError(f"these cards can be read more than one way; say which: {options}")
        return readings[0] if readings else Play("set", play.cards)

    def why_illegal(self, player: int, action: PitsAction) -> str:
        hand = self.cards[player]
        cards = [action.card] if isinstance(action, Give | Take) else getattr(action, "cards", [])
        if isinstance(action, Take):
            return f"{action.card} is not one of the cards to take"
        missing = [c for c in cards if c not in hand]
        if missing:
            return f"you do not hold {format_cards(missing)}"
        if self.phase is not Phase.PLAY:
            if isinstance(action, Give):
                return f"you must give your highest card, not {action.card}"
            return f"now is the exchange: {', '.join(str(a) for a in self.legal_actions(player))}"
        if isinstance(action, Pass):
            return "you have the lead: play any meld"
        if isinstance(action, Play):
            return self._why_not_meld(action)
        return f"{action} is not a move in the play"

    def _why_not_meld(self, play: Play) -> str:
        kind = "run_of_sets" if play.set_size else play.reading
        if kind not in ("single", "set", "run", "run_of_sets"):
            return f"{play.reading} is not a kind of meld"
        meld = read_as(play.cards, kind, self.rules, set_size=play.set_size)  # type: ignore[arg-type]
        if meld is None:
            return f"{format_cards(play.cards)} is not a {play.reading}"
        if self.table is None:
            return f"{play} is not a legal lead"
        if meld.shape != self.table.shape:
            return f"the table holds {self.table.describe()}: play the same kind with as many cards"
        return f"{meld.describe()} does not beat {self.table.describe()}"

    # -- applying actions -------------------------------------------------------------

    def _action_event(self, player: int, action: PitsAction) -> Event:
        if self.phase is Phase.GIVE_CONCEALED:
            hidden = {"action": str(action)}
            return Event(
                "action", {"seat": player, "action": "give (face down)"}, {player: hidden}, hidden
            )
        return super()._action_event(player, action)

    def _apply(self, player: int, action: PitsAction) -> None:
        if isinstance(action, Play):
            # The plays were listed when `apply` checked the action, before its
            # event was logged; listing them again would only repeat the work.
            self._play(player, self._plays[action])
        elif isinstance(action, Pass):
            self._pass(player)
        elif isinstance(action, Give):
            self._give(player, action.card)
        else:
            self._take(player, action.card)

    def _play(self, player: int, meld: Meld) -> None:
        hand = self.cards[player]
        for card in meld.cards:
            hand.remove(card)
        self.played += meld.cards
        for card in meld.cards:
            self.known.pop(card, None)
        self.table, self.owner = meld, player
        if not self.rules.no_rejoin_after_pass:
            self.passed = set()  # BGA: passing is only for this meld (P6)
        self.log.append(Event("meld", {"seat": player, "meld": meld.describe(), "left": len(hand)}))
        if not hand:
            self.finished.append(player)
            self.log.append(Event("out", {"seat": player, "place": len(self.finished)}))
            if len(self.holders()) <= 1:
                self._finish()
                return
        self._next_turn()

    def _pass(self, player: int) -> None:
        self.passed.add(player)
        self._next_turn()

    def _next_turn(self) -> None:
        assert self.owner is not None
        others = [s for s in self.holders() if s != self.owner]
        if all(s in self.passed for s in others):
            # The round is over: the last to lay a meld leads, or the next holder on (P6).
            self.player = self.owner if self.cards[self.owner] else self.next_holder(self.owner)
            self.table, self.owner, self.passed = None, None, set()
            self.log.append(Event("round", {"leader": self.player}))
            return
        skip = self.passed if self.rules.no_rejoin_after_pass else frozenset()
        self.player = self.next_holder(self.player, skip)

    def _finish(self) -> None:
        self.finished += self.holders()
        self.phase = Phase.OVER
        ranks = [0] * PLAYERS
        points = [0.0] * PLAYERS
        for place, seat in enumerate(self.finished):
            ranks[seat] = place + 1
            points[seat] = POINTS[place]
        order = ", ".join(f"seat {s}" for s in self.finished)
        self._outcome = Outcome(
            tuple(ranks), tuple(points), f"finishing order: {order}", {"order": self.finished}
        )
        self.log.append(Event("hand_end", {"order": list(self.finished)}))

    def _give(self, player: int, card: Card) -> None:
        self.cards[player].remove(card)
        if self.phase is Phase.GIVE_HIGHEST:
            self.offered[player] = card
            self.caps[player] = pits_rank(card)
            self.log.append(Event("offered", {"seat": player, "card": str(card)}))
            if len(self.offered) == 2:
                self.phase = Phase.FIRST_TAKES
            return
        self.concealed[player] = card
        if len(self.concealed) == 2:
            shown = {str(seat): str(c) for seat, c in self.concealed.items()}
            self.log.append(Event("revealed", {"cards": shown}))  # every exchanged card is public
            self.phase = Phase.FOURTH_TAKES

    def _take(self, player: int, card: Card) -> None:
        pool = self.offered if self.phase is Phase.FIRST_TAKES else self.concealed
        other = next(c for c in pool.values() if c != card)
        partner = self.place(2) if self.phase is Phase.FIRST_TAKES else self.place(5)
        for seat, got in ((player, card), (partner, other)):
            self.cards[seat].append(got)
            self.known[got] = seat
            _sort(self.cards[seat])
        self.log.append(
            Event("exchanged", {"took": {str(player): str(card), str(partner): str(other)}})
        )
        pool.clear()
        if self.phase is Phase.FIRST_TAKES:
            self.phase = Phase.GIVE_CONCEALED
        else:
            self.phase = Phase.PLAY
            self.player = self.dealer

    # -- views -------------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "phase": self.phase.value,
            "to_act": sorted(self.to_act),
            "dealer": self.dealer,
            "places": list(self.places) if self.places else None,
            "players": [
                {
                    "seat": s,
                    "cards": len(self.cards[s]),
                    "passed": s in self.passed,
                    "place": self.finished.index(s) + 1 if s in self.finished else None,
                    "gave_face_down": s in self.concealed,
                }
                for s in range(PLAYERS)
            ],
            "table": None
            if self.table is None
            else {
                "cards": [str(c) for c in self.table.cards],
                "reading": reading_name(self.table),
                "meld": self.table.describe(),
                "seat": self.owner,
            },
            "offered": {str(s): str(c) for s, c in self.offered.items()},
            "played": [str(c) for c in self.played],
            "outcome": self._outcome.to_json() if self._outcome else None,
            "history": self.history(seat),
        }
        if seat is not None:
            view["hand"] = [str(c) for c in self.cards[seat]]
            view["legal"] = [str(a) for a in self.legal_actions(seat)]
            if seat in self.concealed:
                view["gave"] = str(self.concealed[seat])
        return view

    # -- copies and zones ------------------------------------------------------------------

    def clone(self) -> Self:
        new = self._clone_base()
        new.cards = [list(h) for h in self.cards]
        new.played = list(self.played)
        new.offered = dict(self.offered)
        new.concealed = dict(self.concealed)
        new.known = dict(self.known)
        new.finished = list(self.finished)
        new.passed = set(self.passed)
        new._plays_key = None
        return new

    def zones(self) -> dict[str, Sequence[Any]]:
        zones: dict[str, Sequence[Any]] = {f"hand {s}": self.cards[s] for s in range(PLAYERS)}
        zones["played"] = self.played
        zones["offered"] = list(self.offered.values())
        for s, card in self.concealed.items():
            zones[f"concealed {s}"] = [card]
        return zones

    def hidden_zones(self, seat: int | None) -> list[str]:
        names = [f"hand {s}" for s in range(PLAYERS) if s != seat]
        if self.phase is Phase.GIVE_CONCEALED:  # face down until both have given
            names += [f"concealed {s}" for s in self.concealed if s != seat]
        return names

    def _set_zone(self, name: str, cards: list[Any]) -> None:
        kind, seat = name.split()
        if kind == "hand":
            self.cards[int(seat)] = sorted(cards, key=lambda c: (pits_rank(c), int(c)))
        else:
            self.concealed[int(seat)] = cards[0]
        self._plays_key = None
