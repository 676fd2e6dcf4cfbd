"""What HTTP requests and answers carry: the bodies (they make the OpenAPI spec),
the parts of a URL and the host's ``Authorization`` header.

Every request body is a `Body`: exact JSON types and no unknown fields, so a
malformed request is refused before any route reads it.
"""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import Header, HTTPException
from fastapi import Path as InPath
from pydantic import BaseModel, ConfigDict, Field, model_validator

from pitkit.server.live.protocol import json_problem
from pitkit.server.live.wire import TableInfo

__all__ = [
    "Authorization",
    "Body",
    "CreateTable",
    "CreatedTable",
    "EventSeat",
    "Join",
    "Joined",
    "JudgeQuestion",
    "Reopened",
    "SeatChange",
    "SeatInvite",
    "SeatMove",
    "SeatName",
    "SeatNumber",
    "TableId",
    "TournamentId",
    "Verdict",
    "as_sent",
    "bearer",
]


def bearer(authorization: str | None) -> str | None:
    """The token an ``Authorization: Bearer <token>`` header carries, if any."""
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip() or None
    return None


class Body(BaseModel):
    """A request body: exact JSON types (``"3"`` is no number), no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _plain_json(cls, data: Any) -> Any:
        # Checked before any field, and refused as an HTTPException rather than a
        # ValueError: FastAPI's 422 quotes the failing input, and a lone surrogate or
        # NaN in that quote cannot be written as JSON (the client got a 500).
        if not isinstance(data, dict):
            raise HTTPException(422, "the body is a JSON object (Content-Type: application/json)")
        problem = json_problem(data, depth=4)
        if problem is not None:
            raise HTTPException(422, f"the body cannot be read: {problem}")
        return data


# -- in a URL and its headers ------------------------------------------------------------

TableId = Annotated[str, InPath(max_length=64)]
"""A table's id in a URL (ids are 8 characters; longer is no table, not a 500)."""

TournamentId = Annotated[str, InPath(max_length=64)]
"""An event's id in a URL (longer than any is no event, not a 500)."""

SeatNumber = Annotated[int, InPath(ge=0, le=15)]
"""A seat in a URL (0 is the first)."""

Authorization = Annotated[str | None, Header(max_length=200)]
"""The ``Bearer`` token of whoever asks: a table's host, an event's link, a profile's
device."""


# -- the lobby's and the host's bodies ---------------------------------------------------

_Name = Annotated[str, Field(max_length=40)]
"""A bot's name, or a setting's or rule option's name."""

_OptionValue = Annotated[str, Field(max_length=200)] | int | float | bool | None


class CreateTable(Body):
    """A new table: the game, its rule options, who sits where, how it runs."""

    game: str = Field(max_length=32, examples=["pitty-pat"])
    players: int | None = Field(
        default=None, ge=1, le=16, description="Seats (default: the game's usual number)."
    )
    rules: dict[_Name, _OptionValue] = Field(
        default_factory=dict,
        max_length=32,
        description="Rule options by name; see GET /api/games.",
    )
    seats: list[_Name | None] = Field(
        default_factory=list,
        max_length=16,
        description='Per seat, a bot name, or null / "open" for a player (missing: open).',
        examples=[[None, "sensible", "open"]],
    )
    settings: dict[_Name, float | bool | _Name | None] = Field(
        default_factory=dict,
        max_length=12,
        description=(
            "bot_delay (s), away_timeout (s, 0: never), standin (bot), listed, spectator_chat, "
            "turn_seconds, next_hand_seconds, own_pace (s a move, 3600 to 259200), "
            'on_timeout ("standin" or "forfeit"): docs/protocol.md.'
        ),
    )


class SeatInvite(BaseModel):
    """A seat's secret token and invitation link."""

    seat: int
    kind: str
    token: str
    invite: str


class CreatedTable(BaseModel):
    """The new table, the host's token, and each seat's invitation."""

    table: dict[str, Any]
    host_token: str
    seats: list[SeatInvite]


class Join(Body):
    """Claim a seat with its token, under a name."""

    token: str = Field(max_length=64)
    name: str | None = Field(default=None, max_length=80)


class SeatChange(Body):
    """Host: put a bot in a seat, or reopen it (bot null) with a new invitation."""

    bot: _Name | None = None


class SeatName(Body):
    """Host: the new name of a seat's player (cleaned as a player's own name is)."""

    name: str = Field(min_length=1, max_length=80, examples=["Ann B."])


class SeatMove(Body):
    """Host: the seat to swap with (its occupant comes to this seat)."""

    to: int = Field(ge=0, le=15, description="The other seat (0 is the first).")


class Joined(BaseModel):
    """The seat a token holds; `token`: the seat's own secret, when this call claimed
    it (the invitation opens nothing from now on)."""

    seat: int
    token: str | None = None


class EventSeat(BaseModel):
    """An event player's seat at the event's table, with its new token and link."""

    seat: int
    token: str
    url: str


class Reopened(BaseModel):
    """The seat's new token and invitation (null when a bot took the seat)."""

    seat: int
    token: str | None
    invite: str | None


class JudgeQuestion(Body):
    """A rules question for a game's judge, as `pitkit judge GAME ARGS...` takes it."""

    args: list[Annotated[str, Field(max_length=120)]] = Field(
        min_length=1, max_length=8, examples=[["8H", "7H 9H"]]
    )


class Verdict(BaseModel):
    """The judge's answer, as text."""

    verdict: str


def as_sent(info: TableInfo) -> dict[str, Any]:
    """A table's info as the body of an answer. Its shape is declared once, in the wire's
    types (`TableInfo`, checked by mypy where it is built and by tests/server/test_wire.py
    against what is sent); FastAPI sends it as it is, since Pydantic reads no
    `typing.TypedDict` on Python 3.11."""
    return cast(dict[str, Any], info)
