"""What a seat sees, declared: the types of `State.view` and their JSON Schema.

Every game's view is a JSON object with the same backbone (`TableView`):
whose view it is, the phase, who may act, the seats (each a `SeatView`),
the seat's own cards, its legal actions, the outcome, and a match's
record. A game declares its own view as a `TypedDict` extending it, with
its public places of cards typed `list[Card]`, and names it in
`Game.view_type`. `json_schema` turns the declaration into a JSON Schema:
the server publishes it, a test checks every view of random play against
it, and the browser draws a game that has no drawing of its own from it
(a card place is marked ``"format": "card"``).
"""

# No `from __future__ import annotations` here: a game's view inherits these
# fields, and their annotations must be objects, not names to look up in the
# game's module (where `Card` may be `pitkit.cards.Card`).
import types
import typing
from typing import Any, Literal, NewType, NotRequired, Required, TypedDict

__all__ = [
    "Card",
    "MatchRecord",
    "OutcomeView",
    "SeatView",
    "TableView",
    "json_schema",
]

Card = NewType("Card", str)
"""A card's text, as `pitkit.cards` writes it: ``7H``, ``RJ``, ``wheat``."""


class OutcomeView(TypedDict):
    """How a hand or a match ended (`Outcome.to_json`)."""

    ranks: list[int]
    points: list[float]
    summary: str
    detail: dict[str, Any]


class SeatView(TypedDict):
    """One seat as everyone sees it; games add their own public facts."""

    seat: int
    cards: int


class MatchRecord(TypedDict):
    """A match's part of a view (`Match.view`)."""

    hand: int
    dealer: int
    scores: list[int] | None
    seated: list[int]
    results: list[str]
    totals: list[list[int]]
    """The scores after each hand, one row a hand (none while scores are hidden)."""
    outcome: OutcomeView | None
    sheet: NotRequired[dict[str, Any]]


class TableView(TypedDict):
    """The backbone of every game's view. A game's view adds ``players``, a
    list of its `SeatView`, and its public places of cards."""

    game: str
    seat: int | None
    phase: str
    to_act: list[int]
    dealer: int | None
    outcome: OutcomeView | None
    hand: NotRequired[list[Card]]
    """The seat's own cards (absent for a spectator)."""
    legal: NotRequired[list[str]]
    """The seat's legal actions now, as text."""
    history: NotRequired[list[dict[str, Any]]]
    """The hand's events as the seat saw them."""
    match: NotRequired[MatchRecord]


def json_schema(view_type: type) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a declared view type."""
    schema = _schema(view_type)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = view_type.__name__
    return schema


def _schema(kind: Any) -> dict[str, Any]:
    """The schema of one annotation: TypedDicts, lists, unions, literals and scalars."""
    if kind is Card:
        return {"type": "string", "format": "card"}
    if kind is Any:
        return {}
    if kind is type(None):
        return {"type": "null"}
    scalars = {bool: "boolean", int: "integer", float: "number", str: "string"}
    if kind in scalars:
        return {"type": scalars[kind]}
    if typing.is_typeddict(kind):
        return _object(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (Required, NotRequired):
        return _schema(args[0])
    if origin is list:
        return {"type": "array", "items": _schema(args[0])}
    if origin is tuple:
        return {"type": "array", "prefixItems": [_schema(a) for a in args], "items": False}
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema(args[1])}
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema(a) for a in args]}
    raise TypeError(f"a view cannot declare {kind!r}")


def _object(kind: Any) -> dict[str, Any]:
    hints = typing.get_type_hints(kind, include_extras=True)
    properties = {}
    for name, hint in hints.items():
        properties[name] = {"title": name.replace("_", " ").capitalize(), **_schema(hint)}
    return {
        "type": "object",
        "properties": properties,
        "required": sorted(kind.__required_keys__),
        "additionalProperties": False,
    }
