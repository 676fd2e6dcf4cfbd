"""Rule options: one frozen dataclass per game, one field per named option.

Fields carry their one-line explanation in ``metadata["doc"]``; `RuleSet`
gives every game the same parsing (``k=v`` text from the CLI, JSON from a
server), validation and description.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pitkit.core.errors import BadOptionError

__all__ = ["OptionInfo", "RuleSet", "option"]

_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}
_INT_LIMIT = 2**63


def option(default: Any, doc: str, label: str = "") -> Any:
    """A rule option with its default, a one-line explanation and the short
    name players read (by default the option's name, in words)."""
    return dataclasses.field(default=default, metadata={"doc": doc, "label": label})


@dataclass(frozen=True)
class OptionInfo:
    """One option as shown to users: name, type, default and explanation."""

    name: str
    type: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    label: str = ""
    """What players read for the option's name ("Bull & Bear edition")."""


@dataclass(frozen=True)
class RuleSet:
    """Base of every game's rules object. Subclasses add fields with `option`."""

    retired: ClassVar[frozenset[str]] = frozenset()
    """Options a ruling has since removed: still read in old logs and stored
    tables, and ignored."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check(self, f.name, getattr(self, f.name))

    def players(self) -> int | None:
        """The number of seats these rules call for, when an option fixes it
        (Pitch's teams need six); None leaves it to the game's usual number."""
        return None

    def sorting_period(self) -> float:
        """Seconds after each deal before anyone may trade, in real time (Pit's
        sorting period, T3); 0: play starts as soon as the cards are dealt."""
        return 0.0

    @classmethod
    def options(cls) -> list[OptionInfo]:
        """Every option of this rule set, in declaration order."""
        hints = _hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            out.append(
                OptionInfo(
                    f.name,
                    _type_name(hint),
                    f.default,
                    f.metadata.get("doc", ""),
                    _choices(hint),
                    f.metadata.get("label") or f.name.replace("_", " ").capitalize(),
                )
            )
        return out

    @classmethod
    def from_options(cls, pairs: Mapping[str, Any] | Iterable[str]) -> Self:
        """Rules from ``{"name": value}`` or ``["name=value", ...]``.

        A str value is read as text (``"11"``, ``"on"``); any other value must
        already have the option's type. For a whole number 2.0 is 2, while 1.5,
        NaN and True are refused (never rounded), as is anything beyond 64 bits.
        """
        if not isinstance(pairs, Mapping):
            items: dict[str, Any] = {}
            for pair in pairs:
                name, sep, value = pair.partition("=")
                if not sep:
                    raise BadOptionError(f"options are written name=value, not {pair!r}")
                items[name.strip().replace("-", "_")] = value.strip()
            pairs = items
        hints = _hints(cls)
        known = {f.name for f in dataclasses.fields(cls)}
        values = {}
        for name, value in pairs.items():
            if name in cls.retired:
                continue
            if name not in known:
                raise BadOptionError(
                    f"unknown option {name!r}; options are: {', '.join(sorted(known))}"
                )
            values[name] = _convert(name, hints[name], value)
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """Every option and its value, JSON-ready."""
        return dataclasses.asdict(self)

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != f.default
        }


def _choices(hint: Any) -> tuple[str, ...]:
    if typing.get_origin(hint) is typing.Literal:
        return tuple(str(a) for a in typing.get_args(hint))
    return ()


def _type_name(hint: Any) -> str:
    if typing.get_origin(hint) is typing.Literal:
        return "|".join(str(a) for a in typing.get_args(hint))
    if _is_optional(hint):
        return f"{_type_name(_non_none(hint))} or none"
    return getattr(hint, "__name__", str(hint))


def _is_optional(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and type(
        None
    ) in typing.get_args(hint)


def _non_none(hint: Any) -> Any:
    return next(a for a in typing.get_args(hint) if a is not type(None))


def _convert(name: str, hint: Any, value: Any) -> Any:
    """Turn text (from the CLI) or JSON (from a server) into the option's type,
    or raise BadOption. Text is read only from str values: JSON's numbers and
    booleans must already have the option's type."""
    if isinstance(value, str) and not _is_unicode(value):
        raise BadOptionError(f"option {name} is not valid text (it holds a lone surrogate)")
    if _is_optional(hint):
        if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "")):
            return None
        return _convert(name, _non_none(hint), value)
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise BadOptionError(f"option {name} is on or off, not {_shown(value)}")
    if hint is int:
        return _whole(name, value)
    if typing.get_origin(hint) is typing.Literal:
        for choice in typing.get_args(hint):
            if (isinstance(value, str) and str(choice) == value.strip()) or (
                type(value) is type(choice) and value == choice
            ):
                return choice
        raise BadOptionError(
            f"option {name} is one of {', '.join(_choices(hint))}, not {_shown(value)}"
        )
    if hint is str:
        if isinstance(value, str):
            return value
        raise BadOptionError(f"option {name} is text, not {_shown(value)}")
    raise BadOptionError(f"option {name} has a type that cannot be set from text")


def _whole(name: str, value: Any) -> int:
    """An int option's value: an int, a float with no fraction (2.0), or its text."""
    wrong = BadOptionError(f"option {name} is a whole number, not {_shown(value)}")
    if isinstance(value, bool):
        raise wrong  # True is an int to Python, never a count to a player
    if isinstance(value, float):
        # inf and nan are not integers either; 1.5 must not become 1 unnoticed.
        if not value.is_integer():
            raise wrong
        number = int(value)
    elif isinstance(value, int):
        number = value
    elif isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            raise wrong from None
    else:
        raise wrong
    if not -_INT_LIMIT <= number < _INT_LIMIT:
        # What a 64-bit integer holds, so every reader of stored rules can hold it too.
        raise BadOptionError(f"option {name} is out of range: from -2^63 to 2^63 - 1")
    return number


def _is_unicode(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (JSON's "\\ud800" escapes cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, cut short."""
    try:
        text = repr(value)
    except ValueError:  # an int of more digits than Python will print
        return "a number of thousands of digits"
    return text if len(text) <= 40 else text[:37] + "..."


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The option types of a rules class, resolved once."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _check(rules: RuleSet, name: str, value: Any) -> None:
    """Type-check a value given directly to the constructor."""
    converted = _convert(name, _hints(type(rules))[name], value)
    if type(converted) is not type(value) or converted != value:
        raise BadOptionError(f"option {name} cannot be {_shown(value)}")
