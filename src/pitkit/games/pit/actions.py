"""Pit's actions: open the pit, offer, withdraw, accept, corner (T3-T5).

Text forms::

    open
    offer 2 wheat            offer 3 wheat bull      offer 1 bear
    withdraw
    accept 3 corn #12        accept 3 corn           accept 3
    corner wheat             corner

An offer's number is the count everybody sees, the Bull and the Bear
included. ``accept 3 corn #12`` takes offer #12 of seat 3, paying with as
many cards as it holds, of corn; without ``#12`` it takes seat 3's offer
open when it arrives, and without the payment the payment is the only one
the acceptor can make (the state resolves both, knowing the acceptor).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from pitkit.cards import Commodity
from pitkit.core.actions import Action, ActionCodec
from pitkit.core.errors import BadActionError
from pitkit.games.pit.market import (
    NAMES,
    Lot,
    LotTable,
    lot_of,
    parse_commodity,
    parse_lot_words,
)

__all__ = ["CODEC", "OFFERS", "Accept", "Corner", "Offer", "Open", "PitAction", "Withdraw"]


@dataclass(frozen=True, slots=True)
class Open(Action):
    """The dealer rings the bell: the pit is open (T3). Text: ``open``."""

    kind: ClassVar[str] = "open"


@dataclass(frozen=True, slots=True)
class Offer(Action):
    """Hold out `count` cards for trade: of `commodity`, with the Bull and/or
    the Bear if flagged (T4). Text: ``offer 3 wheat bull``."""

    kind: ClassVar[str] = "offer"
    count: int
    commodity: Commodity | None = None
    bull: bool = False
    bear: bool = False
    lot: Lot = field(init=False, repr=False, compare=False)
    """The cards offered (the fields over again, looked up once: play asks often)."""

    def __post_init__(self) -> None:
        # Validates too: a malformed offer cannot exist.
        object.__setattr__(self, "lot", lot_of(self.count, self.commodity, self.bull, self.bear))

    def __hash__(self) -> int:
        return hash(self.lot)  # the lot stands for the compared fields, and hashes fast

    @staticmethod
    def of(lot: Lot) -> Offer:
        """The offer of `lot`."""
        return Offer(lot.size, lot.commodity, lot.bull, lot.bear)

    def __str__(self) -> str:
        return "offer " + self.lot.text

    def to_json(self) -> dict[str, Any]:
        # Action.to_json would add `lot`, which only repeats the fields.
        return {
            "kind": self.kind,
            "count": self.count,
            "commodity": None if self.commodity is None else NAMES[self.commodity],
            "bull": self.bull,
            "bear": self.bear,
        }

    @classmethod
    def parse_words(cls, words: Sequence[str]) -> Self:
        if not words:
            raise BadActionError("say what you offer, e.g. offer 2 wheat")
        count = _number(words[0], "an offer's count")
        commodity, bull, bear, rest = parse_lot_words(words[1:], "an offer")
        if rest:
            raise BadActionError(f"offer: {' '.join(rest)!r} is not a card")
        return cls(count, commodity, bull, bear)

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        _known(cls, data, {"count", "commodity", "bull", "bear"})
        return cls(
            _json_int(data, "count"),
            _json_commodity(data),
            _json_bool(data, "bull"),
            _json_bool(data, "bear"),
        )


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """Take back one's open offer (T4). Text: ``withdraw``."""

    kind: ClassVar[str] = "withdraw"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Take seat `seat`'s open offer (number `offer`, or whichever is open),
    paying with as many cards, of `commodity` with the Bull and/or the Bear
    if flagged (T4). No payment named: the only one the acceptor can make.
    Text: ``accept 3 corn bull #12``."""

    kind: ClassVar[str] = "accept"
    seat: int
    commodity: Commodity | None = None
    bull: bool = False
    bear: bool = False
    offer: int | None = None

    @property
    def names_payment(self) -> bool:
        """Whether the acceptor said what they pay with."""
        return self.commodity is not None or self.bull or self.bear

    def payment(self, size: int) -> Lot:
        """The payment for an offer of `size` cards; `BadAction` if it cannot be."""
        return lot_of(size, self.commodity, self.bull, self.bear)

    def __str__(self) -> str:
        number = "" if self.offer is None else f" #{self.offer}"
        return f"accept {self.seat}{_PAYMENT_WORDS[self.commodity, self.bull, self.bear]}{number}"

    @classmethod
    def parse_words(cls, words: Sequence[str]) -> Self:
        if not words:
            raise BadActionError("say whose offer you accept, e.g. accept 3 (seat 3)")
        seat = _number(words[0], "a seat")
        offer: int | None = None
        rest = []
        for word in words[1:]:
            if word.startswith("#"):
                if offer is not None:
                    raise BadActionError("name one offer")
                offer = _number(word[1:], "an offer number")
            else:
                rest.append(word)
        # The payment's size is the offer's, so it is checked against the offer.
        commodity, bull, bear, extra = parse_lot_words(rest, "a payment")
        if extra:
            raise BadActionError(f"accept: {' '.join(extra)!r} is not a card")
        return cls(seat, commodity, bull, bear, offer)

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        _known(cls, data, {"seat", "commodity", "bull", "bear", "offer"})
        offer = data.get("offer")
        return cls(
            _json_int(data, "seat"),
            _json_commodity(data),
            _json_bool(data, "bull"),
            _json_bool(data, "bear"),
            None if offer is None else _json_int(data, "offer"),
        )


@dataclass(frozen=True, slots=True)
class Corner(Action):
    """Announce a corner of `commodity` (None: of whatever one holds) (T5).
    Text: ``corner wheat`` or ``corner``."""

    kind: ClassVar[str] = "corner"
    commodity: Commodity | None = None

    @classmethod
    def parse_words(cls, words: Sequence[str]) -> Self:
        if len(words) > 1:
            raise BadActionError("corner names one commodity, e.g. corner wheat")
        return cls(parse_commodity(words[0]) if words else None)

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        _known(cls, data, {"commodity"})
        return cls(_json_commodity(data))


#: The words of an acceptance's payment (after a space), by its fields.
_PAYMENT_WORDS = {
    (commodity, bull, bear): "".join(
        f" {word}"
        for word in ([] if commodity is None else [NAMES[commodity]])
        + ["bull"] * bull
        + ["bear"] * bear
    )
    for commodity in (None, *Commodity)
    for bull in (False, True)
    for bear in (False, True)
}
OFFERS: LotTable[Offer] = LotTable(Offer.of)
"""Every possible offer, made once: move generation lists many."""

PitAction = Open | Offer | Withdraw | Accept | Corner
CODEC = ActionCodec(Open, Offer, Withdraw, Accept, Corner)


def _number(word: str, what: str) -> int:
    if not word.isdigit():
        raise BadActionError(f"{what} is a number, not {word!r}")
    return int(word)


def _known(cls: type[Action], data: Mapping[str, Any], fields: set[str]) -> None:
    extra = set(data) - fields - {"kind"}
    if extra:
        raise BadActionError(f"unknown fields for {cls.kind!r}: {', '.join(sorted(extra))}")


def _json_int(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadActionError(f"{name} is a whole number, not {value!r}")
    return value


def _json_bool(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise BadActionError(f"{name} is true or false, not {value!r}")
    return value


def _json_commodity(data: Mapping[str, Any]) -> Commodity | None:
    value = data.get("commodity")
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadActionError(f"a commodity is written as text, not {value!r}")
    return parse_commodity(value)
