"""Pits actions: play a meld, pass, and the moves of the exchange (P8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pitkit.cards import Card, format_cards, parse_cards
from pitkit.core.actions import Action, ActionCodec
from pitkit.core.errors import BadActionError
from pitkit.games.pits.melds import Meld, pits_rank

__all__ = ["CODEC", "Give", "Pass", "PitsAction", "Play", "Take", "reading_name"]

_SET_WORDS = {2: "pairs", 3: "triples", 4: "quads"}
_READINGS = {"single", "set", "run", *_SET_WORDS.values()}


def reading_name(meld: Meld) -> str:
    """How a play declares its reading: single, set, run, pairs, triples,
    quads, or run-of-N for runs of larger sets."""
    if meld.kind != "run_of_sets":
        return meld.kind
    return _SET_WORDS.get(meld.set_size, f"run-of-{meld.set_size}")


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Lay `cards` as a meld, declaring how they are read: ``play run 5C 6D 7H``,
    ``play set AS AH 2C``, ``play pairs 7H 7S 2C 2D 9H 9S``. The reading may
    be left out when the cards allow only one, or when following."""

    kind: ClassVar[str] = "play"
    reading: str | None
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        # One spelling per choice of cards, whatever order they were typed in.
        object.__setattr__(
            self, "cards", tuple(sorted(self.cards, key=lambda c: (pits_rank(c), int(c))))
        )

    @classmethod
    def of(cls, meld: Meld) -> Play:
        """The play that lays `meld` (its cards are in order already)."""
        play = object.__new__(cls)
        object.__setattr__(play, "reading", reading_name(meld))
        object.__setattr__(play, "cards", meld.cards)
        return play

    @property
    def set_size(self) -> int | None:
        """The set size a run-of-sets reading declares, else None."""
        if self.reading in ("pairs", "triples", "quads"):
            return {"pairs": 2, "triples": 3, "quads": 4}[self.reading]
        if self.reading and self.reading.startswith("run-of-"):
            return int(self.reading.removeprefix("run-of-"))
        return None

    def __str__(self) -> str:
        return " ".join(w for w in ("play", self.reading, format_cards(self.cards)) if w)

    @classmethod
    def parse_words(cls, words: Sequence[str]) -> Self:
        if not words:
            raise BadActionError("play which cards?")
        reading: str | None = words[0].lower()
        if reading in _READINGS or (reading and _is_run_of(reading)):
            words = words[1:]
        else:
            reading = None
        try:
            cards = parse_cards(list(words))
        except ValueError as exc:
            raise BadActionError(str(exc)) from None
        if not cards:
            raise BadActionError("play which cards?")
        return cls(reading, tuple(cards))

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        if not isinstance(data.get("cards"), list):
            raise BadActionError("a play needs a list of cards")
        reading = data.get("reading")
        words = ([str(reading)] if reading else []) + [str(c) for c in data["cards"]]
        return cls.parse_words(words)


def _is_run_of(word: str) -> bool:
    size = word.removeprefix("run-of-")
    return word.startswith("run-of-") and size.isdigit() and int(size) >= 2


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass: play nothing this turn. Text: ``pass``."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Give(Action):
    """In the exchange, give up `card`: 4th and 5th their highest card face up,
    1st and 2nd any card face down (P8). Text: ``give AS``."""

    kind: ClassVar[str] = "give"
    card: Card


@dataclass(frozen=True, slots=True)
class Take(Action):
    """In the exchange, take `card` from the two given (1st, then 4th). Text: ``take AS``."""

    kind: ClassVar[str] = "take"
    card: Card


PitsAction = Play | Pass | Give | Take
CODEC = ActionCodec(Play, Pass, Give, Take)
