"""Judging a trick of Ace Pit: which response may be played, who wins, and
for how many points (seed ``ace-pit.txt``, rulings A2-A4).

>>> str(score_response("8H", "7H 9H"))
'The Pin, Double Flush, Double Spoon — 95'
>>> score_response("6S", "6D").points
20

Besides `score_response`, which names every part, this module keeps flat
tables of the same numbers (`single_value`, `pair_value`) for bots that judge
thousands of tricks a second; the tests check that both agree everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple

from pitkit.cards import Card, Rank, format_cards, parse_cards

__all__ = [
    "ACE_PIT",
    "DOUBLE_FORK",
    "EVEN_STEVENS",
    "FLUSH",
    "LED_ACE_POINTS",
    "PIN",
    "POINTS",
    "SPOON",
    "THROW_AWAY",
    "Part",
    "Parts",
    "Score",
    "Winner",
    "best_response",
    "best_value",
    "card_value",
    "is_two_card_response",
    "judge_cards",
    "pair_value",
    "parse_lead",
    "parse_response",
    "score_response",
    "single_value",
]

PIN = "Pin"
DOUBLE_FORK = "Double Fork"
EVEN_STEVENS = "Even Stevens"
SPOON = "Spoon"
ACE_PIT = "Ace Pit"
FLUSH = "Flush"
THROW_AWAY = "Throw Away"

#: Points of each part (A3); the Throw Away's 10 go to the leader.
POINTS: dict[str, int] = {
    ACE_PIT: 50,
    PIN: 25,
    DOUBLE_FORK: 30,
    EVEN_STEVENS: 20,
    FLUSH: 20,
    SPOON: 15,
    THROW_AWAY: 10,
}
#: What the leader of an unbeaten Ace scores (A4).
LED_ACE_POINTS = 50

# The order in which parts are named: the seed's own ("The Ace Pit Pin,
# double flush, double spoon", "The Double Fork, Double Even Stevens").
_ORDER = (ACE_PIT, PIN, DOUBLE_FORK, EVEN_STEVENS, FLUSH, SPOON, THROW_AWAY)
_MULTIPLE = {2: "Double", 3: "Triple"}

Winner = Literal["responder", "leader"]

_DECK = [Card(i) for i in range(52)]
_RANK: tuple[int, ...] = tuple(c.rank for c in _DECK)
_SUIT: tuple[int, ...] = tuple(c.suit for c in _DECK)


class Part(NamedTuple):
    """One named part of a trick's score, e.g. ``Part("Flush", 20)``."""

    name: str
    points: int


class Parts(tuple[Part, ...]):
    """The parts of a score, one entry per occurrence, in the seed's order.

    A tuple, so that a `Score` stays immutable and hashable; it also compares
    equal to a list of ``(name, points)`` pairs, as the issue spells them.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            other = tuple(other)
        return isinstance(other, tuple) and tuple(self) == other

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return repr(list(self))


@dataclass(frozen=True, slots=True)
class Score:
    """The verdict on one trick: the points, who scores them (and leads
    next), and the named parts that make up the points."""

    points: int
    winner: Winner
    parts: Parts

    def __post_init__(self) -> None:
        if not isinstance(self.parts, Parts):
            object.__setattr__(self, "parts", Parts(Part(str(n), int(p)) for n, p in self.parts))

    @property
    def responder_wins(self) -> bool:
        """True when the response wins the trick."""
        return self.winner == "responder"

    @property
    def name(self) -> str:
        """The play's name as the seed writes it: "The Pin, Double Flush, Spoon"."""
        if self.winner == "leader" and self.parts[0].name == ACE_PIT:
            return "The Ace Pit, led and unbeaten"
        counts: dict[str, int] = {}
        for part in self.parts:
            counts[part.name] = counts.get(part.name, 0) + 1
        words = [
            name if n == 1 else f"{_MULTIPLE.get(n, f'{n} ×')} {name}" for name, n in counts.items()
        ]
        return "The " + ", ".join(words)

    def __str__(self) -> str:
        return f"{self.name} — {self.points}"


# -- reading cards ---------------------------------------------------------


def _tokens(cards: str | Card | Iterable[str | Card]) -> list[Card]:
    if isinstance(cards, Card):
        found = [cards]
    elif isinstance(cards, str):
        found = parse_cards(cards)
    else:
        found = []
        for item in cards:
            found += _tokens(item)
    for card in found:
        if card.is_joker:
            raise ValueError(f"Ace Pit is played without Jokers: {card}")
    return found


def parse_lead(lead: str | Card | Iterable[str | Card]) -> Card:
    """The one led card, from text (``"8H"``, ``"10h"``) or a `Card`."""
    cards = _tokens(lead)
    if len(cards) != 1:
        raise ValueError(f"one card is led, not {len(cards)}: {format_cards(cards) or '-'}")
    return cards[0]


def parse_response(response: str | Card | Iterable[str | Card]) -> tuple[Card, ...]:
    """The cards of a response, from text (``"7H 9H"``), a `Card` or a list of either."""
    cards = _tokens(response)
    if not 1 <= len(cards) <= 2:
        raise ValueError(
            f"a response is one card or two, not {len(cards)}: {format_cards(cards) or '-'} (A2)"
        )
    if len(cards) == 2 and cards[0] == cards[1]:
        raise ValueError(f"{cards[0]} is played twice; a pack has one of each card")
    return tuple(cards)


# -- the verdict -------------------------------------------------------------


def score_response(
    lead: str | Card | Iterable[str | Card], response: str | Card | Iterable[str | Card]
) -> Score:
    """Judge `response` (one or two cards) to the led card `lead`.

    Raises ValueError for anything that may not be played: two cards that
    form neither a Pin nor a Double Fork (A2), the led card itself, a Joker,
    no card or more than two.
    """
    led = parse_lead(lead)
    cards = parse_response(response)
    if led in cards:
        raise ValueError(f"{led} is the led card; it cannot be in the response too")
    return judge_cards(led, cards)


def is_two_card_response(led: Card, a: Card, b: Card) -> bool:
    """Whether `a` and `b` may be played together against `led`: a Double
    Fork (same rank) or a Pin (same suit, one above and one below `led`)."""
    if _RANK[a] == _RANK[b]:
        return True
    rank = _RANK[led]
    return _SUIT[a] == _SUIT[b] and (_RANK[a] - rank) * (_RANK[b] - rank) < 0


def judge_cards(led: Card, cards: Sequence[Card]) -> Score:
    """`score_response` for cards already read and checked to be distinct."""
    return _judge(led, tuple(cards))


@lru_cache(maxsize=8192)
def _judge(led: Card, cards: tuple[Card, ...]) -> Score:
    # Scores are immutable values, so a trick judged again (the responder's
    # view lists every response; random play repeats them) costs a lookup.
    shape: str | None = None
    if len(cards) == 2:
        a, b = cards
        if a.rank == b.rank:
            shape = DOUBLE_FORK
        elif is_two_card_response(led, a, b):
            shape = PIN
        else:
            raise ValueError(
                f"{a} {b} may not be played: two cards must be a Pin (one suit, one above "
                f"and one below {led}) or a Double Fork (one rank) (A2)"
            )
    rank, suit = led.rank, led.suit
    counts = {
        ACE_PIT: sum(c.rank == Rank.ACE for c in cards),
        EVEN_STEVENS: sum(c.rank == rank for c in cards),
        FLUSH: sum(c.suit == suit for c in cards),
        # Ace is high only, so it is adjacent to the King alone (A1).
        SPOON: sum(c.suit == suit and abs(c.rank - rank) == 1 for c in cards),
    }
    if shape is not None:
        counts[shape] = 1
    winning = sum(n for name, n in counts.items() if name != FLUSH)
    if rank == Rank.ACE:
        # A4: only an Ace, a Double Fork or an Even Stevens (which against an
        # Ace is an Ace too) beats a led Ace; a Spoon or a Flush alone does not.
        if not (counts[ACE_PIT] or shape == DOUBLE_FORK or counts[EVEN_STEVENS]):
            return Score(LED_ACE_POINTS, "leader", Parts([Part(ACE_PIT, LED_ACE_POINTS)]))
    elif winning == 0:
        return Score(POINTS[THROW_AWAY], "leader", Parts([Part(THROW_AWAY, POINTS[THROW_AWAY])]))
    if winning == counts[SPOON] == 1:
        # A3: a straight Spoon scores no Flush ("this does not apply to straight spoons").
        counts[FLUSH] = 0
    parts = Parts(Part(name, POINTS[name]) for name in _ORDER for _ in range(counts.get(name, 0)))
    return Score(sum(p.points for p in parts), "responder", parts)


# -- flat tables for bots ------------------------------------------------------
#
# A bot weighs every response to every possible lead many times a move, so
# the numbers are kept in flat tuples indexed by ``lead * 52 + card``.
# A single card's signed value is the responder's points, or minus the
# leader's. A legal pair always wins, for its shape's points plus what each
# card is worth on its own as part of a combination (`card_value`).


def _card_value(led: Card, card: Card) -> int:
    if card == led:
        return 0
    total = 0
    if card.rank == Rank.ACE:
        total += POINTS[ACE_PIT]
    if card.rank == led.rank:
        total += POINTS[EVEN_STEVENS]
    if card.suit == led.suit:
        total += POINTS[FLUSH]
        if abs(card.rank - led.rank) == 1:
            total += POINTS[SPOON]
    return total


def _single_value(led: Card, card: Card) -> int:
    if card == led:
        return 0
    score = judge_cards(led, (card,))
    return score.points if score.responder_wins else -score.points


_CARD_VALUE: tuple[int, ...] = tuple(_card_value(led, c) for led in _DECK for c in _DECK)
_SINGLE_VALUE: tuple[int, ...] = tuple(_single_value(led, c) for led in _DECK for c in _DECK)
_PIN, _FORK = POINTS[PIN], POINTS[DOUBLE_FORK]


def card_value(led: int, card: int) -> int:
    """What `card` adds to a winning combination against `led`: Ace Pit,
    Even Stevens, Flush and Spoon points (no straight-Spoon exception)."""
    return _CARD_VALUE[led * 52 + card]


def single_value(led: int, card: int) -> int:
    """A one-card response's points for the responder, or minus the leader's."""
    return _SINGLE_VALUE[led * 52 + card]


def pair_value(led: int, a: int, b: int) -> int:
    """A two-card response's points (it always wins), or 0 if it may not be played."""
    row = led * 52
    if _RANK[a] == _RANK[b]:
        return _FORK + _CARD_VALUE[row + a] + _CARD_VALUE[row + b]
    rank = _RANK[led]
    if _SUIT[a] == _SUIT[b] and (_RANK[a] - rank) * (_RANK[b] - rank) < 0:
        return _PIN + _CARD_VALUE[row + a] + _CARD_VALUE[row + b]
    return 0


def best_response(led: int, cards: Sequence[int]) -> tuple[int, int, int]:
    """The best response among `cards` to `led` by its signed value (see
    `single_value`): ``(value, a, b)``, the cards to play, b = -1 for one.

    It looks at each card once rather than at every pair: the best Double
    Fork of a rank joins its two best cards, and the best Pin of a suit its
    best card below the led rank with its best card above it.
    """
    row = led * 52
    low = _RANK[led]
    best, best_a, best_b = -1000, -1, -1
    below = [-1, -1, -1, -1]  # per suit: best card value below the led rank
    below_card = [-1, -1, -1, -1]
    above = [-1, -1, -1, -1]
    above_card = [-1, -1, -1, -1]
    top_of_rank: dict[int, int] = {}  # rank -> best card of that rank so far
    for card in cards:
        v = _SINGLE_VALUE[row + card]
        if v > best:
            best, best_a, best_b = v, card, -1
        w = _CARD_VALUE[row + card]
        rank, suit = _RANK[card], _SUIT[card]
        if rank < low:
            if w > below[suit]:
                below[suit], below_card[suit] = w, card
        elif rank > low and w > above[suit]:
            above[suit], above_card[suit] = w, card
        mate = top_of_rank.get(rank)
        if mate is None:
            top_of_rank[rank] = card
        else:
            m = _CARD_VALUE[row + mate]
            v = _FORK + m + w
            if v > best:
                best, best_a, best_b = v, mate, card
            if w > m:
                top_of_rank[rank] = card
    for suit in range(4):
        if below[suit] >= 0 and above[suit] >= 0:
            v = _PIN + below[suit] + above[suit]
            if v > best:
                best, best_a, best_b = v, below_card[suit], above_card[suit]
    return best, best_a, best_b


def best_value(led: int, cards: Sequence[int]) -> int:
    """The value of `best_response` alone: the most `cards` can make of `led`."""
    row = led * 52
    low = _RANK[led]
    best = -1000
    below = [-1, -1, -1, -1]
    above = [-1, -1, -1, -1]
    top_of_rank: dict[int, int] = {}  # rank -> best card value of that rank so far
    for card in cards:
        v = _SINGLE_VALUE[row + card]
        if v > best:
            best = v
        w = _CARD_VALUE[row + card]
        rank, suit = _RANK[card], _SUIT[card]
        if rank < low:
            if w > below[suit]:
                below[suit] = w
        elif rank > low and w > above[suit]:
            above[suit] = w
        m = top_of_rank.get(rank)
        if m is None:
            top_of_rank[rank] = w
        else:
            if _FORK + m + w > best:
                best = _FORK + m + w
            if w > m:
                top_of_rank[rank] = w
    for suit in range(4):
        if below[suit] >= 0 and above[suit] >= 0 and _PIN + below[suit] + above[suit] > best:
            best = _PIN + below[suit] + above[suit]
    return best
