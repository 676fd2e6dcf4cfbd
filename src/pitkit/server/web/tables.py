"""The tables over HTTP: the lobby lists and creates them, players claim seats, and
the host (``Authorization: Bearer`` with the host token) changes seats, starts,
rematches and closes. Play itself goes over the WebSocket (play.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import Response
from pydantic import BaseModel, Field

from pitkit import games
from pitkit.bots import levels
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.quick import SeatTakenError, take_seat
from pitkit.server.live.tables import Table
from pitkit.server.ops.settings import TableSettings
from pitkit.server.store.storage import DatabaseError, StoreTimeoutError
from pitkit.server.web.bodies import (
    Authorization,
    Body,
    CreatedTable,
    CreateTable,
    EventSeat,
    Join,
    Joined,
    Reopened,
    SeatChange,
    SeatInvite,
    SeatMove,
    SeatName,
    SeatNumber,
    TableId,
    as_sent,
    bearer,
)
from pitkit.server.web.services import Services, Wired
from pitkit.tournaments.log import ForbiddenError

__all__ = ["PlayNowAsk", "PlayNowSeat", "TakeSeat", "router", "table_moving", "table_or_404"]

router = APIRouter()

_STATUS = {
    "no_table": 404,
    "bad_token": 403,
    "not_over": 409,
    "no_match": 409,
    "table_full": 409,
    "server_error": 503,
    "unconfirmed": 503,
    "closed": 409,
}
"""The HTTP status of a refusal, by its protocol code (others: 400)."""


async def table_moving(request: Request, exc: Exception) -> Response:
    """Any route's answer when this worker does not run the table now
    (`TableElsewhereError`): 503, and the retry reaches the worker that does."""
    moving = HTTPException(
        503, "this table is moving between servers; try again", {"Retry-After": "1"}
    )
    return await http_exception_handler(request, moving)


async def table_or_404(services: Services, table_id: str) -> Table:
    """The table, loaded if need be (404: no such table; 503: it is changing servers,
    or the database that would say is not answering)."""
    try:
        table = await services.manager.get(table_id)
    except (DatabaseError, StoreTimeoutError):
        raise HTTPException(
            503, "the database is not answering; try again in a moment", {"Retry-After": "5"}
        ) from None
    if table is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    return table


async def _hosted(services: Services, table_id: str, authorization: str | None) -> Table:
    """The table, for its host alone (403 for any other token)."""
    table = await table_or_404(services, table_id)
    if not table.is_host(bearer(authorization)):
        raise HTTPException(403, "this needs the table's host token (Authorization: Bearer)")
    return table


def _invite(services: Services, request: Request, table: Table, token: str) -> str:
    """The link that opens `table`'s page holding the seat `token`."""
    return f"{services.site.base_url(request.scope)}/t/{table.id}#token={token}"


@contextlib.contextmanager
def _refused(status: int) -> Iterator[None]:
    """Turn a `ValueError` raised inside into an HTTP error `status` with its words
    (a request the table refuses, changing nothing)."""
    try:
        yield
    except ValueError as exc:
        raise HTTPException(status, str(exc)) from None


def _protocol_refusal(exc: ProtocolError) -> HTTPException:
    """A table's refusal as an HTTP error."""
    return HTTPException(_STATUS.get(exc.code, 400), exc.reason)


# -- the lobby ------------------------------------------------------------------------------


@router.get("/api/tables", tags=["lobby"])
async def list_tables(
    services: Wired,
    status: Annotated[str | None, Query(max_length=16)] = None,
    game: Annotated[str | None, Query(max_length=32)] = None,
) -> list[dict[str, Any]]:
    """The listed tables (waiting, playing, or lately over), newest first."""
    return [as_sent(info) for info in await services.manager.listed(status, game)]


def _counted(request: Request, services: Services, what: str) -> str:
    """The client's address, once this request is counted against its budget of tables
    created and seats taken a minute (429 beyond it)."""
    client = request.client.host if request.client else "?"
    if not services.creates.take(client):
        raise HTTPException(429, f"too many {what}; wait a minute")
    return client


@router.post("/api/tables", status_code=201, tags=["lobby"])
async def create_table(body: CreateTable, request: Request, services: Wired) -> CreatedTable:
    """Create a table. Returns the host token and each seat's invitation link."""
    client = _counted(request, services, "tables created")
    seats = [None if s in (None, "open", "") else s for s in body.seats]
    try:
        settings = TableSettings.from_json(dict(body.settings), client=True)
        table, host, tokens = await services.manager.create(
            body.game, body.players, body.rules, seats, settings, creator=client
        )
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    return CreatedTable(
        table=as_sent(table.info()),
        host_token=host,
        seats=[
            SeatInvite(
                seat=i,
                kind=s.kind,
                token=tokens[i],
                invite=_invite(services, request, table, tokens[i]),
            )
            for i, s in enumerate(table.seats)
            if s.kind != "bot"
        ],
    )


@router.get("/api/tables/{table_id}", tags=["lobby"])
async def get_table(table_id: TableId, services: Wired) -> dict[str, Any]:
    """A table's status: seats, match number, version, who may act, outcome."""
    return as_sent((await table_or_404(services, table_id)).info())


@router.post("/api/tables/{table_id}/join", tags=["lobby"])
async def join(table_id: TableId, body: Join, services: Wired) -> Joined:
    """Claim the open seat the token belongs to (or rename oneself)."""
    table = await table_or_404(services, table_id)
    try:
        seat, secret = await table.join(body.token, body.name)
        return Joined(seat=seat, token=secret)
    except ProtocolError as exc:
        services.metrics.refused(exc.code)
        raise _protocol_refusal(exc) from None


class TakeSeat(Body):
    """Take an open seat of a listed table, with no invitation."""

    seat: int | None = Field(default=None, ge=0, le=15, description="Default: the first open one.")
    name: str | None = Field(default=None, max_length=80)


@router.post("/api/tables/{table_id}/take-seat", tags=["lobby"])
async def take_open_seat(
    table_id: TableId, body: TakeSeat, request: Request, services: Wired
) -> Joined:
    """Take an open seat of a listed table from the lobby (the first open one unless
    `seat` says which): it becomes yours, with its own secret, returned once; its
    invitation stops working. 409: the seat is taken, or the table takes nobody
    more; a seat taken counts against the address's tables created a minute."""
    _counted(request, services, "seats taken")
    table = await table_or_404(services, table_id)
    try:
        seat, token = await take_seat(table, body.seat, body.name, services.limits.name_chars)
    except SeatTakenError as exc:
        raise HTTPException(409, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    except ProtocolError as exc:
        raise _protocol_refusal(exc) from None
    return Joined(seat=seat, token=token)


# -- Play now ---------------------------------------------------------------------------------


class PlayNowAsk(Body):
    """Play now: a game, the bots' strength, your name, and how long to wait for people."""

    game: str = Field(max_length=32, examples=["pitty-pat"])
    level: str = Field(default="medium", max_length=16, examples=["medium"])
    name: str | None = Field(default=None, max_length=80)
    wait: float = Field(
        default=10.0,
        ge=2.0,
        le=60.0,
        description="Seconds a new table waits for people before bots take its empty seats.",
    )


class PlayNowSeat(BaseModel):
    """Your seat at a Play now table, its secret, and when its bots sit down."""

    table: str
    seat: int
    token: str
    level: str
    bot: str
    starts_in: float
    """Seconds until bots take the empty seats and the match starts."""


@router.get("/api/levels", tags=["lobby"])
async def bot_levels() -> dict[str, list[dict[str, str]]]:
    """Each game's bots by strength, easy, medium and hard: the bot and why it was chosen."""
    return {g.name: [asdict(v) for v in levels.levels(g).values()] for g in games.all_games()}


@router.get("/api/play-now", tags=["lobby"])
async def play_now_tables(services: Wired) -> list[dict[str, Any]]:
    """Play now's tables waiting for players: game, level, open seats, seconds to go."""
    return [w.shown() for w in services.manager.play_now.listed()]


@router.post("/api/play-now", tags=["lobby"])
async def play_now(body: PlayNowAsk, request: Request, services: Wired) -> PlayNowSeat:
    """Sit down at a Play now table of the game whose bots are of this strength and
    which waits for players, or at a new one. Once its wait is over, bots take the
    empty seats and the match starts. Counts against the address's tables a minute."""
    client = _counted(request, services, "tables created")
    if body.game not in games.names():
        raise HTTPException(400, f"there is no game {body.game!r}")
    play_now = services.manager.play_now
    try:
        entry, seat, token = await play_now.seat(
            games.get(body.game), body.level, body.name, body.wait, client
        )
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    except ProtocolError as exc:
        raise _protocol_refusal(exc) from None
    shown = entry.shown()
    return PlayNowSeat(
        table=entry.table.id,
        seat=seat,
        token=token,
        level=entry.level,
        bot=entry.bot,
        starts_in=shown["starts_in"],
    )


@router.post("/api/tables/{table_id}/event-seat", tags=["events"])
async def event_seat(
    table_id: TableId, request: Request, services: Wired, authorization: Authorization = None
) -> EventSeat:
    """At a table playing an event's game: take your seat with your own event
    link (``Authorization: Bearer``). The seat gets a new token, returned here
    once; a device that held the seat before is let go."""
    table = await table_or_404(services, table_id)
    try:
        seat, seat_token = await services.online.seat(table, bearer(authorization))
    except ForbiddenError as exc:
        raise HTTPException(403, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(409, str(exc)) from None
    url = _invite(services, request, table, seat_token)
    return EventSeat(seat=seat, token=seat_token, url=url)


# -- the host's powers ----------------------------------------------------------------------


@router.put("/api/tables/{table_id}/seats/{seat}", tags=["host"])
async def change_seat(
    table_id: TableId,
    seat: SeatNumber,
    body: SeatChange,
    request: Request,
    services: Wired,
    authorization: Authorization = None,
) -> Reopened:
    """Host: seat a bot, or reopen the seat with a new invitation (old token void)."""
    table = await _hosted(services, table_id, authorization)
    with _refused(400):
        token = await table.set_seat(seat, body.bot)
    return Reopened(
        seat=seat,
        token=token,
        invite=_invite(services, request, table, token) if token is not None else None,
    )


@router.put("/api/tables/{table_id}/seats/{seat}/name", tags=["host"])
async def rename_seat(
    table_id: TableId,
    seat: SeatNumber,
    body: SeatName,
    services: Wired,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: rename the player in a seat. The player is told, and so is the table."""
    table = await _hosted(services, table_id, authorization)
    with _refused(400):
        await table.rename_seat(seat, body.name)
    return as_sent(table.info())


@router.post("/api/tables/{table_id}/seats/{seat}/move", tags=["host"])
async def move_seat(
    table_id: TableId,
    seat: SeatNumber,
    body: SeatMove,
    services: Wired,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: swap two seats' occupants, tokens and sockets (during a match, their
    hands): each moved player's page is sent its new seat's view; all are told."""
    table = await _hosted(services, table_id, authorization)
    with _refused(400):
        await table.move_seat(seat, body.to)
    return as_sent(table.info())


@router.post("/api/tables/{table_id}/start", tags=["host"])
async def start(
    table_id: TableId, services: Wired, authorization: Authorization = None
) -> dict[str, Any]:
    """Host: start without waiting; bots play the open seats until people claim them."""
    table = await _hosted(services, table_id, authorization)
    with _refused(409):
        await table.start()
    return as_sent(table.info())


@router.post("/api/tables/{table_id}/rematch", tags=["host"])
async def rematch(
    table_id: TableId, services: Wired, authorization: Authorization = None
) -> dict[str, Any]:
    """Host: start the next match with the same seats now."""
    table = await _hosted(services, table_id, authorization)
    try:
        await table.rematch(None)
    except ProtocolError as exc:
        raise _protocol_refusal(exc) from None
    return as_sent(table.info())


@router.delete("/api/tables/{table_id}", tags=["host"])
async def close_table(
    table_id: TableId, services: Wired, authorization: Authorization = None
) -> dict[str, Any]:
    """Host: close the table for good. Its bots stop, nobody can move again,
    and what was played stays readable (the log of a match cut short stays private)."""
    table = await _hosted(services, table_id, authorization)
    await table.shut("the host closed the table")
    return as_sent(table.info())
