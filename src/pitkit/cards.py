"""Playing cards: ranks, suits, the two Jokers, Pit's commodity cards, decks.

A `Card` is a small int (0-53) so that sets of cards can be bitmasks and
comparisons are cheap; all 54 cards exist once and are reused. The text form
follows the project's rulings: rank then suit (``TH``, ``AS``, ``2C``) and
``RJ``/``BJ`` for the strong ("red") and weak ("black") Jokers.

>>> parse_cards("AS, 10h 2♣ RJ")
[Card('AS'), Card('TH'), Card('2C'), Card('RJ')]
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from enum import Enum, IntEnum
from typing import TypeVar

__all__ = [
    "JOKERS",
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "Commodity",
    "PitCard",
    "Rank",
    "Suit",
    "commodity_deck",
    "format_cards",
    "parse_card",
    "parse_cards",
    "shuffled",
    "standard_deck",
]


class CardError(ValueError):
    """A card token that does not follow the card notation."""

    def __init__(self, token: str, why: str = "not a card") -> None:
        super().__init__(f"{why}: {token!r}")
        self.token = token


class Suit(IntEnum):
    """The four suits, in the order C D H S."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit's letter in card notation: C, D, H or S."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(IntEnum):
    """Ranks 2 to Ace, valued 2-14 (Ace high). Games that order ranks
    differently (Pits puts the 2 above the Ace) keep their own order."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The rank's letter in card notation: 2-9, T, J, Q, K, A."""
        return "23456789TJQKA"[self - 2]

    @property
    def written(self) -> str:
        """The rank as players write it: 2-10, J, Q, K, A."""
        return "10" if self == Rank.TEN else self.letter


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)

_BLACK_JOKER_INDEX = 52
_RED_JOKER_INDEX = 53


class Card(int):
    """One card of a 54-card pack, as an int: ``suit * 13 + rank - 2``,
    then 52 for the weak (black) Joker and 53 for the strong (red) Joker.

    Build cards with ``Card.of(rank, suit)``, ``Card.parse("AS")`` or the
    constants ``Card.BJ`` / ``Card.RJ``; ``Card(n)`` returns the shared card n.
    """

    __slots__ = ()

    BJ: Card
    RJ: Card

    def __new__(cls, index: int) -> Card:
        return _ALL[index]

    @classmethod
    def _make(cls, index: int) -> Card:
        return int.__new__(cls, index)

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        """The card of this rank (2-14) and suit."""
        return _ALL[suit * 13 + rank - 2]

    @staticmethod
    def parse(token: str) -> Card:
        """The card written as `token`, e.g. ``"TH"``, ``"10h"``, ``"A♠"``, ``"RJ"``."""
        return parse_card(token)

    @property
    def is_joker(self) -> bool:
        """True for the two Jokers."""
        return self >= _BLACK_JOKER_INDEX

    @property
    def rank(self) -> Rank:
        """The card's rank; a Joker has none and raises ValueError."""
        if self >= _BLACK_JOKER_INDEX:
            raise ValueError(f"a Joker has no rank: {self}")
        return _RANK_OF[self]

    @property
    def suit(self) -> Suit:
        """The card's suit; a Joker has none and raises ValueError."""
        if self >= _BLACK_JOKER_INDEX:
            raise ValueError(f"a Joker has no suit: {self}")
        return _SUIT_OF[self]

    @property
    def bit(self) -> int:
        """This card as a one-bit mask, for sets of cards held as ints."""
        return 1 << self

    @property
    def written(self) -> str:
        """The card as players write it: ``A♦``, ``10♥``, ``red Joker``."""
        return _WRITTEN[self]

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_ALL: tuple[Card, ...] = tuple(Card._make(i) for i in range(54))
_RANK_OF: tuple[Rank, ...] = tuple(Rank(i % 13 + 2) for i in range(52))
_SUIT_OF: tuple[Suit, ...] = tuple(Suit(i // 13) for i in range(52))
_TEXT: tuple[str, ...] = tuple(
    [Rank(i % 13 + 2).letter + Suit(i // 13).letter for i in range(52)] + ["BJ", "RJ"]
)
_WRITTEN: tuple[str, ...] = tuple(
    [Rank(i % 13 + 2).written + Suit(i // 13).symbol for i in range(52)]
    + ["black Joker", "red Joker"]
)
Card.BJ = _ALL[_BLACK_JOKER_INDEX]
Card.RJ = _ALL[_RED_JOKER_INDEX]
JOKERS: tuple[Card, Card] = (Card.BJ, Card.RJ)

_RANK_TOKENS = {r.letter: r for r in Rank} | {"10": Rank.TEN}
_SUIT_TOKENS = {s.letter: s for s in Suit} | {s.symbol: s for s in Suit}
_SUIT_TOKENS |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
_SEPARATORS = re.compile(r"[\s,]+")


def parse_card(token: str) -> Card:
    """Parse one card token; raise `CardError` quoting the token if it is not one.

    Ranks ``2-9 T J Q K A`` (``10`` for ``T``), suits ``C D H S`` or their
    symbols, Jokers ``RJ`` and ``BJ``. Letters may be in either case.
    """
    text = token.strip().upper()
    if text in ("RJ", "BJ"):
        return Card.RJ if text == "RJ" else Card.BJ
    rank = _RANK_TOKENS.get(text[:-1])
    suit = _SUIT_TOKENS.get(text[-1:])
    if rank is None or suit is None:
        raise CardError(token)
    return _ALL[suit * 13 + rank - 2]


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse cards separated by spaces or commas, or a sequence of tokens or cards."""
    if isinstance(text, str):
        tokens: Iterable[str | Card] = [t for t in _SEPARATORS.split(text) if t]
    else:
        tokens = text
    return [t if isinstance(t, Card) else parse_card(t) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by single spaces."""
    return " ".join(_TEXT[c] for c in cards)


def standard_deck(jokers: bool = False) -> list[Card]:
    """A new 52-card pack in suit-then-rank order, or 54 cards with the two Jokers."""
    return list(_ALL if jokers else _ALL[:52])


class Commodity(Enum):
    """Pit's commodities with their values (ruling T1), highest value first."""

    WHEAT = 100
    BARLEY = 85
    CORN = 75
    RYE = 70
    OATS = 60
    HAY = 50
    FLAX = 40

    def __str__(self) -> str:
        return self.name.lower()


class PitCard(Enum):
    """A card of Pit's deck: one of the seven commodities, the Bull or the Bear."""

    WHEAT = "wheat"
    BARLEY = "barley"
    CORN = "corn"
    RYE = "rye"
    OATS = "oats"
    HAY = "hay"
    FLAX = "flax"
    BULL = "bull"
    BEAR = "bear"

    @property
    def commodity(self) -> Commodity | None:
        """The commodity on the card, or None for the Bull and the Bear."""
        return Commodity[self.name] if self.name in Commodity.__members__ else None

    @staticmethod
    def parse(token: str) -> PitCard:
        """A Pit card by name, e.g. ``"wheat"`` or ``"Bull"``."""
        try:
            return PitCard(token.strip().lower())
        except ValueError:
            raise CardError(token, "not a Pit card") from None

    def __str__(self) -> str:
        return self.value


def commodity_deck(players: int, bull_and_bear: bool = False) -> list[PitCard]:
    """Pit's deck for 3-7 players: 9 cards of each of the `players` most
    valuable commodities (T1), plus the Bull and the Bear if asked (T2)."""
    if not 3 <= players <= 7:
        raise ValueError(f"Pit is for 3 to 7 players, not {players}")
    if bull_and_bear and players > 6:
        raise ValueError("the Bull & Bear edition is for 3 to 6 players")
    deck = [PitCard[c.name] for c in list(Commodity)[:players] for _ in range(9)]
    if bull_and_bear:
        deck += [PitCard.BULL, PitCard.BEAR]
    return deck


T = TypeVar("T")


def shuffled(items: Sequence[T], seed: int | random.Random) -> list[T]:
    """A shuffled copy of `items`; the same seed always gives the same order."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    out = list(items)
    rng.shuffle(out)
    return out
