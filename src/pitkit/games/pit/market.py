"""The market's small values: lots of cards, open offers and trades (T4).

Cards of one commodity are identical, so a choice of cards is just a `Lot`:
how many cards in all, of which commodity, and whether the Bull and the Bear
go with them. Holdings are counts per kind of card (`KINDS` order), which
keeps move generation cheap.

There are only about a hundred valid lots, so each is made once at import
(`lot_of` finds it) and keeps its cards and text: the engine's hot paths
then never build a lot, nor touch the slow `Enum` properties and hashes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic, NamedTuple, TypeVar

from pitkit.cards import Commodity, PitCard
from pitkit.core.errors import BadActionError
from pitkit.core.pickling import frozen_reduce

__all__ = [
    "BEAR",
    "BULL",
    "COMMODITIES",
    "GOODS",
    "KINDS",
    "LOTS",
    "LOT_KEYS",
    "MAX_LOT",
    "NAMES",
    "CardFacts",
    "Lot",
    "LotTable",
    "OpenOffer",
    "Trade",
    "counts_of",
    "describe_cards",
    "exchange",
    "facts_of",
    "lot_of",
    "parse_commodity",
    "parse_lot_words",
    "payable_lots",
]

KINDS: Final[tuple[PitCard, ...]] = tuple(PitCard)
"""Every kind of Pit card: the seven commodities (highest value first), the Bull, the Bear."""
INDEX: Final[dict[PitCard, int]] = {card: i for i, card in enumerate(KINDS)}
BULL: Final = INDEX[PitCard.BULL]
BEAR: Final = INDEX[PitCard.BEAR]
GOODS: Final[tuple[int, ...]] = tuple(i for i in range(len(KINDS)) if i not in (BULL, BEAR))
"""The kind indexes of the commodities (every kind but the Bull and the Bear)."""
COMMODITIES: Final[tuple[Commodity, ...]] = tuple(Commodity)
MAX_LOT: Final = 4
"""A trade is of one to four cards (T4)."""
LOT_KEYS: Final = (MAX_LOT + 1) * 8 * 4
"""`Lot.key` is below this."""
NAMES: Final[dict[Commodity, str]] = {c: str(c) for c in Commodity}
"""Each commodity's name (quicker than `str`, which asks the `Enum` for it)."""
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Lot:
    """Cards put up together: `size` cards in all, of one `commodity` (None
    when the lot is only the Bull and/or the Bear), with the Bull and/or
    the Bear if flagged (T4)."""

    size: int
    commodity: Commodity | None = None
    bull: bool = False
    bear: bool = False
    _needs: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    _cards: tuple[PitCard, ...] = field(init=False, repr=False, compare=False)
    text: str = field(init=False, repr=False, compare=False)
    """The lot as action text spells it: its size and words, ``3 wheat bull``."""
    key: int = field(init=False, repr=False, compare=False)
    """A small number unique to the lot's cards, for tables of lots (below `LOT_KEYS`)."""

    def __post_init__(self) -> None:
        if not 1 <= self.size <= MAX_LOT:
            raise BadActionError(f"a trade is of 1 to {MAX_LOT} cards, not {self.size} (T4)")
        extra = self.bull + self.bear
        if self.commodity is None and extra != self.size:
            raise BadActionError(
                f"say what the {self.size} cards are, e.g. {self.size} wheat"
                if extra == 0
                else f"{self.size} cards cannot be just {self._specials()}"
            )
        if self.commodity is not None and extra >= self.size:
            raise BadActionError(
                f"{self.size} {_cards(self.size)} cannot be {self.commodity} and {self._specials()}"
            )
        # Kept: play asks for them often (a frozen value, so set once here).
        needs = self._make_needs()
        object.__setattr__(self, "_needs", needs)
        object.__setattr__(self, "_cards", tuple(KINDS[i] for i, n in needs for _ in range(n)))
        object.__setattr__(self, "text", " ".join([str(self.size), *self.words()]))
        goods = 0 if self.commodity is None else 1 + COMMODITIES.index(self.commodity)
        object.__setattr__(self, "key", ((self.size * 8 + goods) * 2 + self.bull) * 2 + self.bear)

    def __hash__(self) -> int:
        # The key is unique to the lot's cards: quicker than hashing the
        # fields, an `Enum` among them (Python-level hashing).
        return self.key

    @property
    def commodity_cards(self) -> int:
        """How many cards of the commodity the lot holds."""
        return self.size - self.bull - self.bear

    def needs(self) -> tuple[tuple[int, int], ...]:
        """The lot as (kind index, count) pairs."""
        return self._needs

    def _make_needs(self) -> tuple[tuple[int, int], ...]:
        out = []
        if self.commodity is not None:
            out.append((INDEX[PitCard[self.commodity.name]], self.commodity_cards))
        if self.bull:
            out.append((BULL, 1))
        if self.bear:
            out.append((BEAR, 1))
        return tuple(out)

    def cards(self) -> tuple[PitCard, ...]:
        """The lot's cards."""
        return self._cards

    def payable(self, counts: Sequence[int]) -> bool:
        """Whether a holding of `counts` covers this lot."""
        for i, n in self._needs:  # noqa: SIM110 -- all() of a generator is slower here
            if counts[i] < n:
                return False
        return True

    def words(self) -> list[str]:
        """The lot after its size in action text: ``wheat bull``."""
        out = [] if self.commodity is None else [str(self.commodity)]
        return out + ["bull"] * self.bull + ["bear"] * self.bear

    def describe(self) -> str:
        """The lot in words: ``2 wheat and the Bull``."""
        return describe_cards(self.cards())

    def _specials(self) -> str:
        names = ["the Bull"] * self.bull + ["the Bear"] * self.bear
        return " and ".join(names) or "nothing"

    @staticmethod
    def of(cards: Iterable[PitCard]) -> Lot:
        """The lot made of `cards`; `BadAction` if they mix commodities (T4)."""
        cards = list(cards)
        goods = {c.commodity for c in cards if c.commodity is not None}
        if len(goods) > 1:
            names = " and ".join(sorted(str(g) for g in goods))
            raise BadActionError(f"a trade holds one commodity, not {names} (T4)")
        return lot_of(
            len(cards),
            next(iter(goods)) if goods else None,
            PitCard.BULL in cards,
            PitCard.BEAR in cards,
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # compiled, it has no __dict__ to pickle


def _cards(n: int) -> str:
    return "card" if n == 1 else "cards"


def _all_lots() -> dict[tuple[int, Commodity | None, bool, bool], Lot]:
    """Every valid lot, by (size, commodity, bull, bear)."""
    lots = {}
    for size in range(1, MAX_LOT + 1):
        for bull in (False, True):
            for bear in (False, True):
                extra = bull + bear
                goods: tuple[Commodity | None, ...] = (
                    (None,) if size == extra else COMMODITIES if size > extra else ()
                )
                for commodity in goods:
                    lots[size, commodity, bull, bear] = Lot(size, commodity, bull, bear)
    return lots


_LOTS: Final = _all_lots()


def lot_of(
    size: int, commodity: Commodity | None = None, bull: bool = False, bear: bool = False
) -> Lot:
    """The lot of these cards, made once at import; `BadAction` if there is none."""
    lot = _LOTS.get((size, commodity, bull, bear))
    return Lot(size, commodity, bull, bear) if lot is None else lot  # None: Lot() says why


class LotTable(Generic[T]):
    """Every valid lot, mapped through `make` once, for fast move generation:
    `payable(counts, size)` lists the entries a holding can put up."""

    def __init__(self, make: Callable[[Lot], T]) -> None:
        # table[size][bull][bear]: the entries by commodity index (or the one
        # entry of the Bull and/or the Bear alone).
        self.table: list[list[list[list[T]]]] = [
            [
                [self._row(make, size, bull, bear) for bear in (False, True)]
                for bull in (False, True)
            ]
            for size in range(MAX_LOT + 1)
        ]

    @staticmethod
    def _row(make: Callable[[Lot], T], size: int, bull: bool, bear: bool) -> list[T]:
        if size == 0 or size < bull + bear:
            return []
        if size == bull + bear:
            return [make(_LOTS[size, None, bull, bear])]
        return [make(_LOTS[size, c, bull, bear]) for c in COMMODITIES]

    def payable(self, counts: Sequence[int], size: int) -> list[T]:
        """The entries for every lot of `size` cards a holding of `counts` can put up."""
        out: list[T] = []
        by_size = self.table[size]
        for bull in (0, 1) if counts[BULL] else (0,):
            for bear in (0, 1) if counts[BEAR] else (0,):
                k = size - bull - bear
                if k == 0:
                    out += by_size[bull][bear]
                elif k > 0:
                    entries = by_size[bull][bear]
                    out += [entries[i] for i in range(len(entries)) if counts[i] >= k]
        return out


LOTS: Final[LotTable[Lot]] = LotTable(lambda lot: lot)


def payable_lots(counts: Sequence[int], size: int) -> list[Lot]:
    """Every lot of `size` cards that a holding of `counts` can put up."""
    return LOTS.payable(counts, size)


def parse_lot_words(
    words: Sequence[str], what: str
) -> tuple[Commodity | None, bool, bool, list[str]]:
    """Read ``wheat bull`` (or ``+bull``): the commodity, Bull, Bear, and the
    words left over (those not naming cards) for the caller."""
    commodity: Commodity | None = None
    bull = bear = False
    rest: list[str] = []
    for word in words:
        token = word.lower().lstrip("+")
        if token in ("bull", "bear"):
            if bull if token == "bull" else bear:
                raise BadActionError(f"there is only one {token.capitalize()}")
            bull, bear = bull or token == "bull", bear or token == "bear"
        elif token in _COMMODITY_NAMES:
            named = _COMMODITY_NAMES[token]
            if commodity is not None and commodity is not named:
                raise BadActionError(
                    f"{what} holds one commodity, not {commodity} and {named} (T4)"
                )
            commodity = named
        elif token in ("and", "the", "+", "with"):
            continue
        else:
            rest.append(word)
    return commodity, bull, bear, rest


_COMMODITY_NAMES: Final[dict[str, Commodity]] = {str(c): c for c in Commodity}


def parse_commodity(word: str) -> Commodity:
    """A commodity by name, e.g. ``wheat``; `BadAction` naming the choices otherwise."""
    commodity = _COMMODITY_NAMES.get(word.lower())
    if commodity is None:
        raise BadActionError(
            f"{word!r} is not a commodity; they are: {', '.join(_COMMODITY_NAMES)}"
        )
    return commodity


def exchange(one: list[int], other: list[int], given: int, taken: int) -> None:
    """Swap a card between two holdings (counts per kind): `one` gives a
    card of kind `given` to `other` and takes one of kind `taken` back."""
    one[given] -= 1
    one[taken] += 1
    other[taken] -= 1
    other[given] += 1


def counts_of(cards: Iterable[PitCard]) -> list[int]:
    """A holding as counts per kind of card (`KINDS` order)."""
    counts = [0] * len(KINDS)
    for card in cards:
        counts[INDEX[card]] += 1
    return counts


def describe_cards(cards: Iterable[PitCard]) -> str:
    """Cards in words, grouped: ``3 wheat, 2 corn and the Bull`` (any mix)."""
    counts = counts_of(cards)
    parts = [f"{counts[i]} {c}" for i, c in enumerate(COMMODITIES) if counts[i]]
    parts += ["the Bull"] * counts[BULL] + ["the Bear"] * counts[BEAR]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class CardFacts(NamedTuple):
    """What play needs to know of a few cards, worked out once (`facts_of`)."""

    needs: tuple[tuple[int, int], ...]
    """The cards as (kind index, count) pairs, like `Lot.needs`."""
    lot: Lot | None
    """The cards as a lot, or None if they are none (mixed commodities)."""
    text: str
    """The cards in words (`describe_cards`)."""
    names: tuple[str, ...]
    """Each card's name, in order."""


_FACTS: Final[dict[tuple[PitCard, ...], CardFacts]] = {}
# The facts of each lot's own `cards()`, found by identity: a tuple of Enum
# members hashes by calling Python code for each card.
_LOT_FACTS: Final[dict[int, tuple[tuple[PitCard, ...], CardFacts]]] = {}


def facts_of(cards: tuple[PitCard, ...]) -> CardFacts:
    """The `CardFacts` of `cards`, remembered for lots' worth of cards."""
    known = _LOT_FACTS.get(id(cards))
    if known is not None and known[0] is cards:
        return known[1]
    facts = _FACTS.get(cards)
    if facts is None:
        counts = counts_of(cards)
        try:
            lot: Lot | None = Lot.of(cards)
        except BadActionError:
            lot = None
        facts = CardFacts(
            tuple((i, n) for i, n in enumerate(counts) if n),
            lot,
            describe_cards(cards),
            tuple(str(card) for card in cards),
        )
        if len(cards) <= MAX_LOT:  # at most a few thousand such tuples
            _FACTS[cards] = facts
    return facts


for _lot in _LOTS.values():
    _LOT_FACTS[id(_lot.cards())] = (_lot.cards(), facts_of(_lot.cards()))


@dataclass(frozen=True, slots=True)
class OpenOffer:
    """An offer on the market: its number (unique in a match), its owner,
    and the cards held out, which only the owner sees (T4)."""

    id: int
    seat: int
    cards: tuple[PitCard, ...]
    count: int = field(init=False, repr=False, compare=False)
    """How many cards are offered: all the others see."""
    facts: CardFacts = field(init=False, repr=False, compare=False)
    """What play needs to know of the cards; their `lot` is None only in a
    copy whose unseen cards were redealt."""

    def __post_init__(self) -> None:
        # Kept: play asks for them often (a frozen value, so set once here).
        object.__setattr__(self, "count", len(self.cards))
        object.__setattr__(self, "facts", facts_of(self.cards))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # compiled, it has no __dict__ to pickle


@dataclass(frozen=True, slots=True)
class Trade:
    """A trade as everyone saw it: offer `offer` of `seller` was taken by
    `buyer`, `count` cards each way (T4)."""

    offer: int
    seller: int
    buyer: int
    count: int

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # compiled, it has no __dict__ to pickle
