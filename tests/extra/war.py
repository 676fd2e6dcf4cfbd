"""War with a choice: a sixth game written in this file alone, to show that a
game needs nothing outside its own code. Each player is dealt five cards.
Each round the leader plays a card face up, then the other player answers
with one; the higher rank wins the round (a tie wins nothing) and the
winner leads next. Most rounds won wins the hand; a match is `hands` hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pitkit.cards import Card, standard_deck
from pitkit.core import (
    Action,
    ActionCodec,
    BotInfo,
    Chance,
    Event,
    Game,
    Match,
    Outcome,
    RuleSet,
    State,
    option,
)
from pitkit.core.narrate import Narrator
from pitkit.core.views import Card as CardText
from pitkit.core.views import SeatView, TableView

CARDS = 5


@dataclass(frozen=True)
class Rules(RuleSet):
    """War's one option."""

    hands: int = option(3, "hands in a match")


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play a card face up. Text: ``play 7H``."""

    kind: ClassVar[str] = "play"
    card: Card


class WarSeat(SeatView):
    won: int


class WarView(TableView):
    players: list[WarSeat]
    table: list[CardText]


class WarHand(State[PlayCard]):
    """One hand of War."""

    codec = ActionCodec(PlayCard)
    game = "war"

    def __init__(self, dealer: int, chance: Chance, log: list[Event] | None = None) -> None:
        self.players, self.dealer = 2, dealer
        self._join(log, chance)
        deck = self.chance.shuffle(standard_deck())
        self.cards = [sorted(deck[:CARDS]), sorted(deck[CARDS : 2 * CARDS])]
        self.stock = deck[2 * CARDS :]  # never dealt, never seen
        self.played: list[Card] = []  # rounds over
        self.table: list[tuple[int, Card]] = []
        self.won = [0, 0]
        self.leader = 1 - dealer
        private = {s: {"hand": " ".join(map(str, self.cards[s]))} for s in (0, 1)}
        self.log.append(Event("deal", {"dealer": dealer}, private))

    @property
    def to_act(self) -> frozenset[int]:
        if self.is_over:
            return frozenset()
        return frozenset({self.leader if not self.table else 1 - self.leader})

    def _legal_actions(self, player: int) -> list[PlayCard]:
        return [PlayCard(c) for c in self.cards[player]] if player in self.to_act else []

    def _apply(self, player: int, action: PlayCard) -> None:
        self.cards[player].remove(action.card)
        self.table.append((player, action.card))
        if len(self.table) == 2:
            (a, x), (b, y) = self.table
            winner = None if x.rank == y.rank else (a if x.rank > y.rank else b)
            if winner is not None:
                self.won[winner] += 1
                self.leader = winner
            self.log.append(Event("round", {"winner": winner}))
            self.played += [x, y]
            self.table = []

    @property
    def is_over(self) -> bool:
        return not self.cards[0] and not self.cards[1]

    @property
    def outcome(self) -> Outcome | None:
        if not self.is_over:
            return None
        points = tuple(float(w) for w in self.won)
        return Outcome(Outcome.ranking(points), points, f"rounds won {self.won[0]}-{self.won[1]}")

    def view(self, seat: int | None = None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "phase": "over" if self.is_over else "play",
            "to_act": sorted(self.to_act),
            "dealer": self.dealer,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "players": [
                {"seat": s, "cards": len(self.cards[s]), "won": self.won[s]} for s in (0, 1)
            ],
            "table": [str(card) for _, card in self.table],
            "history": self.history(seat),
        }
        if seat is not None:
            view["hand"] = [str(c) for c in self.cards[seat]]
            view["legal"] = [str(a) for a in self.legal_actions(seat)]
        return view

    def clone(self) -> Self:
        new = self._clone_base()
        new.cards = [list(c) for c in self.cards]
        new.table, new.won = list(self.table), list(self.won)
        new.stock, new.played = list(self.stock), list(self.played)
        return new

    def zones(self) -> dict[str, Sequence[Any]]:
        table = [card for _, card in self.table]
        hands = {f"hand {s}": self.cards[s] for s in (0, 1)}
        return {**hands, "table": table, "played": self.played, "stock": self.stock}

    def hidden_zones(self, seat: int | None) -> list[str]:
        return [f"hand {s}" for s in (0, 1) if s != seat] + ["stock"]

    def _set_zone(self, name: str, cards: list[Any]) -> None:
        if name == "stock":
            self.stock = cards
        else:
            self.cards[int(name.split()[1])] = sorted(cards)


class WarMatch(Match[PlayCard, Rules]):
    """`rules.hands` hands of War, the deal alternating."""

    game = "war"

    def deal(self) -> WarHand:
        return WarHand(self.dealer, self.chance, self.log)

    def score_hand(self, result: Outcome) -> None:
        for seat in (0, 1):
            self.scores[seat] += int(result.points[seat])
        self.dealer = 1 - self.dealer

    def match_outcome(self) -> Outcome | None:
        if len(self.results) < self.rules.hands:
            return None
        return self.ranked([float(s) for s in self.scores], f"rounds won {self.scores}")


def describe(event: Mapping[str, Any], say: Narrator) -> str | None:
    """War's events in words."""
    if event["type"] == "action":
        return f"{say.does(event['seat'], 'plays')} {event['action'].split()[1]}."
    if event["type"] == "round":
        winner = event["winner"]
        return "A tie." if winner is None else f"{say.does(winner, 'wins')} the round."
    return None


class HighCard:
    """Plays its highest card: War's heuristic."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, state: State[Any], player: int) -> Action:
        actions: list[PlayCard] = state.legal_actions(player)
        return max(actions, key=lambda a: a.card.rank)


GAME = Game(
    name="war",
    title="War",
    summary="Play a card; the higher one wins the round.",
    min_players=2,
    max_players=2,
    default_players=2,
    rules=Rules,
    match=WarMatch,
    render=lambda view: f"table {view['table']}, your hand {view.get('hand')}",
    describe=describe,
    bots={"high": BotInfo("plays its highest card", HighCard)},
    heuristic="high",
    opponent="high",
    view_type=WarView,
)
