"""Actions: small immutable values with one text form and one JSON form.

A person types the text (``match 7H 2C``), a bot builds the value, a log and
a network message carry the JSON (``{"kind": "match", "card": "7H",
"discard": "2C"}``); all three spell the same thing. Each game declares its
actions as frozen dataclasses deriving from `Action` with a ``kind``; the
text form is the kind followed by the fields in order, which suits most
actions, and a game may override `__str__`/`parse_words` where its own
vocabulary reads better.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pitkit.cards import Card, CardError, PitCard, format_cards, parse_cards
from pitkit.core.errors import BadActionError

__all__ = ["Action", "ActionCodec"]


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every game's actions."""

    kind: ClassVar[str] = ""

    def __str__(self) -> str:
        words = [self.kind]
        for name in _field_names(type(self)):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, tuple):
                words.append(format_cards(value) if value else "-")
            else:
                words.append(str(value))
        return " ".join(words)

    def to_json(self) -> dict[str, Any]:
        """The JSON form: ``{"kind": ..., field: value-as-text, ...}``."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                out[f.name] = [str(v) for v in value]
            elif value is None or (isinstance(value, int | str) and not isinstance(value, Card)):
                out[f.name] = value
            else:
                out[f.name] = str(value)
        return out

    @classmethod
    def parse_words(cls, words: Sequence[str]) -> Self:
        """Build this action from the words after its kind (default: fields in order)."""
        fields = dataclasses.fields(cls)
        hints = _hints(cls)
        values: dict[str, Any] = {}
        rest = list(words)
        for i, f in enumerate(fields):
            hint = hints[f.name]
            if typing.get_origin(hint) is tuple:
                # A tuple of cards takes every remaining word.
                if i != len(fields) - 1:
                    raise TypeError("a tuple field must come last")
                values[f.name] = _decode(hint, [] if rest == ["-"] else rest)
                rest = []
            elif rest:
                values[f.name] = _decode(hint, rest.pop(0))
            elif f.default is dataclasses.MISSING:
                raise BadActionError(f"{cls.kind!r} needs a {f.name}")
        if rest:
            raise BadActionError(f"too many words for {cls.kind!r}: {' '.join(rest)!r}")
        return cls(**values)

    @classmethod
    def from_fields(cls, data: Mapping[str, Any]) -> Self:
        """Build this action from its JSON form (without checking ``kind``)."""
        hints = _hints(cls)
        values = {}
        for f in dataclasses.fields(cls):
            if f.name in data:
                values[f.name] = _decode(hints[f.name], data[f.name])
            elif f.default is dataclasses.MISSING:
                raise BadActionError(f"{cls.kind!r} needs a {f.name}")
        extra = set(data) - {f.name for f in dataclasses.fields(cls)} - {"kind"}
        if extra:
            raise BadActionError(f"unknown fields for {cls.kind!r}: {', '.join(sorted(extra))}")
        return cls(**values)


_HINTS: dict[type, dict[str, Any]] = {}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The field names of an action class, in order."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _hints(cls: type) -> dict[str, Any]:
    """The field types of an action class, resolved once."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _decode(hint: Any, value: Any) -> Any:
    """Turn a JSON or text value into the field's type, or raise BadAction."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        return _decode(next(a for a in args if a is not type(None)), value)
    try:
        if origin is tuple:
            items = parse_cards(value) if isinstance(value, str) else list(value)
            return tuple(_decode(args[0], v) for v in items)
        if hint is Card:
            if isinstance(value, Card):
                return value
            if not isinstance(value, str):
                raise BadActionError(f"a card is written as text, not {value!r}")
            return Card.parse(value)
        if hint is PitCard:
            return value if isinstance(value, PitCard) else PitCard.parse(str(value))
        if hint is int:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise BadActionError(f"expected a number, not {value!r}")
            return int(value)
        if hint is str:
            return str(value)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return hint[str(value).upper()]
    except (CardError, KeyError) as exc:
        raise BadActionError(str(exc)) from None
    except ValueError:
        raise BadActionError(f"bad value {value!r}") from None
    raise TypeError(f"unsupported action field type {hint!r}")


class ActionCodec:
    """Parses the text or JSON form of one game's actions."""

    def __init__(self, *kinds: type[Action]) -> None:
        self.kinds = {k.kind: k for k in kinds}

    def parse(self, spelling: str | Mapping[str, Any] | Action) -> Action:
        """The action spelled by `spelling` (text, JSON object, or an Action)."""
        if isinstance(spelling, Action):
            return spelling
        if isinstance(spelling, Mapping):
            kind = spelling.get("kind")
            cls = self.kinds.get(kind) if isinstance(kind, str) else None
            if cls is None:
                raise BadActionError(f"unknown action kind {kind!r}; kinds are: {self._names()}")
            return cls.from_fields(spelling)
        if not isinstance(spelling, str):
            raise BadActionError(
                f"an action is text or a JSON object, not {type(spelling).__name__}"
            )
        words = spelling.replace(",", " ").split()
        if not words:
            raise BadActionError("empty action")
        cls = self.kinds.get(words[0].lower())
        if cls is None:
            raise BadActionError(f"unknown action {words[0]!r}; actions are: {self._names()}")
        return cls.parse_words(words[1:])

    def _names(self) -> str:
        return ", ".join(self.kinds)
