"""One hand of Pitch (rulings C2, C4-C8), as a state machine.

Phases: bidding (ending with the dealer, who after an all-pass takes it or
runs it), the second round of bids after a run (ending with the dealer,
who sells or steals), then play. Trump is set by the pitcher's first card.

Zones: each seat's ``hand``, the tricks each seat has ``won`` (face up here:
every card in them was played face up, so nothing in them is secret), the
``trick`` on the table and the face-down ``stock`` of undealt cards, which
also holds the run-it cards until they are dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any, Self

from mypy_extensions import mypyc_attr

from pitkit.cards import Card, Suit, format_cards
from pitkit.core.chance import Chance
from pitkit.core.events import Event
from pitkit.core.state import Outcome, State
from pitkit.games.pitch.actions import CODEC, Bid, PitchAction, Play, Run
from pitkit.games.pitch.bidding import bid_refusal, calls_open, dealer_contract
from pitkit.games.pitch.rules import MIN_BID, Rules, run_size
from pitkit.games.pitch.scoring import HandResult, Trick, hand_sides, score_tricks, trick_winner
from pitkit.games.pitch.sheet import cut_offered_to, next_seat

__all__ = ["HAND_SIZE", "PACKET", "Phase", "PitchHand", "run_size"]

# Precomputed once, for the hot paths: each card's suit, the one-seat sets
# `to_act` returns, and the play of each card, so that listing legal moves
# builds no new objects and checking a move finds it by identity.
_SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52))
_SEAT: tuple[frozenset[int], ...] = tuple(frozenset((s,)) for s in range(6))
_NOBODY: frozenset[int] = frozenset()
_PLAY: tuple[Play, ...] = tuple(Play(Card(i)) for i in range(52))

HAND_SIZE = 6  # C2: six each (`Rules.cards_each`)
PACKET = 3  # C2: three at a time


class Phase(Enum):
    """Where the hand stands."""

    BIDDING = "bidding"  # the first round of bids, ending with the dealer
    REBIDDING = "rebidding"  # the dealer ran it: others bid 3 or 4, then the dealer sells or steals
    PLAY = "play"
    OVER = "over"


# Compiled (hatch_build.py), a class would build each instance by running its
# __init__, which `clone` cannot do: see `pitkit.games.pit.state.Hand`.
@mypyc_attr(allow_interpreted_subclasses=True)
class PitchHand(State[PitchAction]):
    """One hand of Pitch among the `seated` players, dealt by `dealer`."""

    codec = CODEC
    game = "pitch"

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
        self.teams = rules.teams_for(players)
        self.seated = tuple(sorted(range(players) if seated is None else seated))
        if not 2 <= len(self.seated) <= 6 or len(set(self.seated)) != len(self.seated):
            raise ValueError(f"a hand of Pitch is for 2 to 6 players, not {list(self.seated)}")
        if not all(0 <= s < players for s in self.seated):
            raise ValueError(f"seats are numbered 0 to {players - 1}: {list(self.seated)}")
        if dealer not in self.seated:
            raise ValueError(f"the dealer, seat {dealer}, is not seated")
        self.dealer = dealer
        self._join(log, chance)
        # C4: bidding runs clockwise from the dealer's left and ends with the dealer.
        order = [next_seat(self.seated, dealer)]
        while order[-1] != dealer:
            order.append(next_seat(self.seated, order[-1]))
        self.order: tuple[int, ...] = tuple(order)
        self._left = {seat: order[(i + 1) % len(order)] for i, seat in enumerate(order)}
        self.cards: list[list[Card]] = [[] for _ in range(players)]
        self.won: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[Trick] = []
        self.bids: list[tuple[int, str]] = []  # (seat, what they said), both rounds
        self.high = 0  # the highest bid so far (the dealer's 2 once run)
        self.high_bidder: int | None = None
        self.turn = 0  # index in `order` of the bidder to act
        self.ran = False
        self.pitcher: int | None = None
        self.contract = 0  # the bid the pitcher must make
        self.trump: Suit | None = None
        self.gone = 0  # the cards played so far, as a bitmask (see `Card.bit`)
        self.phase = Phase.BIDDING
        self.player = self.order[0]
        self.result: HandResult | None = None
        self._outcome: Outcome | None = None
        self._deal()

    # -- the deal (C2) and the run (C5) ------------------------------------

    def _deal(self) -> None:
        deck = self.chance.shuffle(self.rules.deck())
        each = self.rules.cards_each
        at = 0
        # Three at a time; a cut hand of a size not a multiple of three ends
        # with a smaller packet.
        for start in range(0, each, PACKET):
            packet = min(PACKET, each - start)
            for seat in self.order:
                self.cards[seat] += deck[at : at + packet]
                at += packet
        self.stock = deck[at:]
        public: dict[str, Any] = {
            "dealer": self.dealer,
            "seated": list(self.seated),
            "cards_each": each,
            "stock": len(self.stock),
        }
        if self.rules.tournament:
            # Topic 8: the tournament dealer offers the cut to the player on the right.
            public["cut_by"] = cut_offered_to(self.dealer, self.seated)
        self.log.append(
            Event(
                "deal",
                public,
                {seat: {"hand": format_cards(self.cards[seat])} for seat in self.seated},
            )
        )

    def _run_it(self) -> None:
        size = run_size(len(self.seated), self.rules.run_cards)
        dealt: dict[int, list[Card]] = {}
        for seat in self.order:
            dealt[seat] = self.stock[:size]
            del self.stock[:size]
            self.cards[seat] += dealt[seat]
        self.log.append(
            Event(
                "run",
                {"dealer": self.dealer, "cards_each": size, "stock": len(self.stock)},
                {seat: {"cards": format_cards(cards)} for seat, cards in dealt.items()},
            )
        )

    # -- State ----------------------------------------------------------------

    @property
    def to_act(self) -> frozenset[int]:
        return _NOBODY if self.phase is Phase.OVER else _SEAT[self.player]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def cards_played(self) -> int:
        """Cards played so far in this hand."""
        return len(self.trick) + len(self.seated) * len(self.tricks)

    def trick_cards(self) -> list[Card]:
        """The cards in the trick on the table."""
        return [card for _, card in self.trick]

    @property
    def highest_bid(self) -> int:
        """The highest bid made so far in this hand (0 before any), for misplay penalties (C11)."""
        return max(self.high, self.contract)

    def side(self, seat: int) -> tuple[int, ...]:
        """The seats that share `seat`'s points: its team, or itself."""
        if self.teams is not None:
            for team in self.teams:
                if seat in team:
                    return team
        return (seat,)

    def _legal_actions(self, player: int) -> list[PitchAction]:
        if self.phase is Phase.OVER or player != self.player:
            return []
        if self.phase is Phase.PLAY:
            return [_PLAY[card] for card in self._playable(player)]
        return calls_open(
            player == self.dealer,
            self.phase is Phase.REBIDDING,
            self.high,
            self.high_bidder is not None,
            self.rules.dealer_steal,
        )

    def _playable(self, player: int) -> list[Card]:
        hand = self.cards[player]
        if self.trick:
            suit = _SUIT
            led = suit[self.trick[0][1]]
            trump = self.trump
            # C6: follow the suit led when able, but a trump may always be played.
            for c in hand:
                if suit[c] == led:
                    return sorted([c for c in hand if suit[c] == led or suit[c] == trump])
        return sorted(hand)

    def why_illegal(self, player: int, action: PitchAction) -> str:
        if self.phase is Phase.OVER:
            return "the hand is over"
        if player != self.player:
            return f"it is seat {self.player}'s turn, not seat {player}'s"
        legal = ", ".join(str(a) for a in self.legal_actions(player))
        if self.phase is Phase.PLAY:
            if not isinstance(action, Play):
                return f"the bidding is over; play a card ({legal})"
            card = action.card
            if card not in self.cards[player]:
                return f"you do not hold {card}"
            led = self.trick[0][1]
            return (
                f"{card} does not follow {led}: you hold {led.suit.letter}, "
                "so play that suit or a trump (C6)"
            )
        return bid_refusal(
            action,
            player == self.dealer,
            self.phase is Phase.REBIDDING,
            self.high,
            self.rules.dealer_steal,
            legal,
        )

    # -- carrying out actions -------------------------------------------------

    def _apply(self, player: int, action: PitchAction) -> None:
        if isinstance(action, Play):
            self._play(player, action.card)
            return
        self.bids.append((player, str(action)))
        if isinstance(action, Run):
            self.ran = True
            self.high, self.high_bidder = MIN_BID, player
            self._run_it()
            self.phase = Phase.REBIDDING
            self.turn = 0
            self.player = self.order[0]
            return
        if isinstance(action, Bid):
            self.high, self.high_bidder = action.amount, player
        if player == self.dealer:  # the dealer's call ends the bidding
            self._pitch(*dealer_contract(action, player, self.high, self.high_bidder))
            return
        self.turn += 1
        self.player = self.order[self.turn]
        if (
            self.player == self.dealer
            and self.phase is Phase.REBIDDING
            and (self.high_bidder == self.dealer)
        ):
            # C5: nobody outbid the dealer who ran it, who pitches at 2.
            self._pitch(self.dealer, MIN_BID, "ran it and nobody outbid")

    def _pitch(self, pitcher: int, bid: int, how: str) -> None:
        self.pitcher, self.contract = pitcher, bid
        self.phase = Phase.PLAY
        self.player = pitcher
        self.log.append(Event("contract", {"pitcher": pitcher, "bid": bid, "how": how}))

    def _play(self, player: int, card: Card) -> None:
        self.cards[player].remove(card)
        self.gone |= 1 << card
        if self.trump is None:
            # C6: the pitcher's first card sets trump.
            self.trump = card.suit
            self.log.append(Event("trump", {"suit": card.suit.letter, "pitcher": player}))
        self.trick.append((player, card))
        if len(self.trick) < len(self.seated):
            self.player = self._left[player]
            return
        winner = trick_winner(self.trick, self.trump)
        trick = Trick(tuple(self.trick))
        self.tricks.append(trick)
        self.won[winner] += trick.cards
        self.trick = []
        self.log.append(
            Event("trick", {"winner": winner, "cards": str(trick), "number": len(self.tricks)})
        )
        self.player = winner
        if not self.cards[winner]:
            self._finish()

    def _finish(self) -> None:
        assert self.pitcher is not None
        assert self.trump is not None
        result = score_tricks(
            self.tricks,
            self.trump,
            self.pitcher,
            self.contract,
            hand_sides(self.seated, self.teams),
            self.players,
            self.rules.jack_to,
        )
        self.result = result
        self.phase = Phase.OVER
        standing = [
            float(result.deltas[s]) if s in self.seated else float("-inf")
            for s in range(self.players)
        ]
        record = result.to_json()  # once: it is worth a summary's text
        self._outcome = Outcome(
            Outcome.ranking(standing),
            tuple(float(d) for d in result.deltas),
            record["summary"],
            {"result": record},
        )
        self.log.append(Event("hand_end", {"result": record}))

    # -- views ------------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "phase": self.phase.value,
            "to_act": sorted(self.to_act),
            "dealer": self.dealer,
            "seated": list(self.seated),
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "bids": [{"seat": s, "said": said} for s, said in self.bids],
            "high": self.high,
            "high_bidder": self.high_bidder,
            "ran": self.ran,
            "pitcher": self.pitcher,
            "bid": self.contract or None,
            "trump": None if self.trump is None else self.trump.letter,
            "trick": [{"seat": s, "card": str(c)} for s, c in self.trick],
            "last_trick": str(self.tricks[-1]) if self.tricks else None,
            "tricks": len(self.tricks),
            "stock": len(self.stock),
            "players": [
                {
                    "seat": s,
                    "seated": s in self.seated,
                    "cards": len(self.cards[s]),
                    "won": format_cards(self.won[s]),
                }
                for s in range(self.players)
            ],
            "result": None if self.result is None else self.result.to_json(),
            "outcome": self._outcome.to_json() if self._outcome else None,
            "history": self.history(seat),
        }
        if seat is not None:
            view["hand"] = [str(c) for c in sorted(self.cards[seat])]
            view["legal"] = [str(a) for a in self.legal_actions(seat)]
        return view

    # -- copies and zones ---------------------------------------------------------

    def clone(self) -> Self:
        new = self._clone_base()
        new.cards = [list(h) for h in self.cards]
        new.won = [list(w) for w in self.won]
        new.stock = list(self.stock)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.bids = list(self.bids)
        return new

    def zones(self) -> dict[str, Sequence[Any]]:
        zones: dict[str, Sequence[Any]] = {
            "stock": self.stock,
            "trick": [card for _, card in self.trick],
        }
        for seat in range(self.players):
            zones[f"hand {seat}"] = self.cards[seat]
            zones[f"won {seat}"] = self.won[seat]
        return zones

    def hidden_zones(self, seat: int | None) -> list[str]:
        # The stock (and in it the run-it cards) and every other seat's hand.
        return ["stock"] + [f"hand {s}" for s in self.seated if s != seat]

    def _set_zone(self, name: str, cards: list[Any]) -> None:
        if name == "stock":
            self.stock = cards
        elif name.startswith("hand "):
            self.cards[int(name.split()[1])] = cards
        else:
            raise ValueError(f"zone {name!r} is not hidden from anyone")

    # -- sampling what a seat cannot see ---------------------------------------

    def shown_voids(self) -> list[set[int]]:
        """The suits each seat has shown it is out of: a card that neither
        follows the suit led nor is trump shows that (C6). Hands only shrink
        once play starts, so a void stays a void."""
        voids: list[set[int]] = [set() for _ in range(self.players)]
        trump = self.trump
        for plays in [*(t.plays for t in self.tricks), self.trick]:
            if plays:
                led = plays[0][1] // 13
                for seat, card in plays[1:]:
                    if card // 13 != led and card // 13 != trump:
                        voids[seat].add(led)
        return voids
