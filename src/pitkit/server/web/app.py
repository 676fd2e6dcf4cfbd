"""The ASGI app: the lobby over HTTP + JSON, play over WebSocket, static pages.

`create_app(database_url)` builds it; `pitkit serve` runs it with uvicorn.
The HTTP API is described by the OpenAPI spec at ``/openapi.json`` (browse it
at ``/docs``); the WebSocket protocol by docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Header, HTTPException, Query, Request, WebSocket
from fastapi import Path as InPath
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from pitkit import bots as bot_registry
from pitkit import games
from pitkit.core.events import Event
from pitkit.core.narrate import plain
from pitkit.core.views import json_schema
from pitkit.server.live.manager import Manager, TableElsewhereError
from pitkit.server.live.protocol import (
    Act,
    Body,
    Chat,
    ClientMessage,
    Hello,
    ProtocolError,
    bearer,
    error,
    parse,
)
from pitkit.server.live.replays import replay
from pitkit.server.live.tables import Conn, Table
from pitkit.server.ops.metrics import Metrics
from pitkit.server.ops.settings import Bucket, Limits, TableSettings
from pitkit.server.store import storage
from pitkit.server.store.owners import owners_for
from pitkit.server.store.storage import Store
from pitkit.server.tournaments.online import EventTables
from pitkit.server.tournaments.service import Events
from pitkit.server.web.guards import RequestRate, SameOriginSockets, SecurityHeaders, Site, add_docs
from pitkit.server.web.tournaments import event_routes
from pitkit.tournaments import KINDS
from pitkit.tournaments.log import ForbiddenError

__all__ = ["create_app"]

log = logging.getLogger("pitkit.server")
STATIC = Path(__file__).parent.parent / "static"


@contextlib.contextmanager
def refused(status: int) -> Iterator[None]:
    """Turn a `ValueError` raised inside into an HTTP error `status` with its words
    (a request the table refuses, changing nothing)."""
    try:
        yield
    except ValueError as exc:
        raise HTTPException(status, str(exc)) from None


def _module_url(game: str) -> str | None:
    """Where the browser finds a game's own drawing, found by its registry name
    (None: the page draws the game from its declared view alone)."""
    path = STATIC / "js" / "games" / f"{game}.js"
    return f"/static/js/games/{game}.js" if path.is_file() else None


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# -- request and response bodies (they make the OpenAPI spec) --------------------


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
        max_length=8,
        description=(
            "bot_delay (s), away_timeout (s, 0: never), standin (bot), listed, spectator_chat."
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


class JudgeQuestion(Body):
    """A rules question for a game's judge, as `pitkit judge GAME ARGS...` takes it."""

    args: list[Annotated[str, Field(max_length=120)]] = Field(
        min_length=1, max_length=8, examples=[["8H", "7H 9H"]]
    )


class Verdict(BaseModel):
    """The judge's answer, as text."""

    verdict: str


class Reopened(BaseModel):
    """The seat's new token and invitation (null when a bot took the seat)."""

    seat: int
    token: str | None
    invite: str | None


TableId = Annotated[str, InPath(max_length=64)]
"""A table's id in a URL (ids are 8 characters; longer is no table, not a 500)."""

Authorization = Annotated[str | None, Header(max_length=200)]
"""The host's ``Bearer`` token."""


# -- limits on HTTP ---------------------------------------------------------------


class BodyLimit:
    """Refuse HTTP bodies over `limit` bytes with 413, whether or not they say their size."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _too_large(send)
                return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLargeError
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLargeError:
            await _too_large(send)


class _TooLargeError(Exception):
    pass


async def _too_large(send: Send) -> None:
    body = b'{"detail":"the request body is too large"}'
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


# -- the app ------------------------------------------------------------------------

_STATUS = {
    "no_table": 404,
    "bad_token": 403,
    "not_over": 409,
    "no_match": 409,
    "table_full": 409,
    "server_error": 503,
    "closed": 409,
}


def create_app(
    database_url: str,
    limits: Limits | None = None,
    started: Callable[[], None] | None = None,
    site: Site | None = None,
) -> FastAPI:
    """The pitkit server as an ASGI app, storing its tables at `database_url`.

    `started` is called once the app has started (tables loaded), before it serves.
    `site` says where it is reached (guards.py); `app.state.site` keeps it for uvicorn.
    """
    site = site or Site()
    limits = limits or Limits()
    metrics = Metrics()
    store = Store(database_url, timeout=limits.store_seconds, metrics=metrics)
    manager = Manager(store, limits, metrics, owners_for(database_url))
    events = Events(store, KINDS)
    event_tables = EventTables(events, manager)
    metrics.watch(manager)
    creates: dict[str, Bucket] = {}
    logs: dict[tuple[str, int], str] = {}
    """Finished matches' logs as served, oldest first (a log never changes once over)."""
    replays: dict[tuple[str, int, int | None], str] = {}
    """Finished matches' replays as served, by seat (None: all-seeing), oldest first."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store.start()
        await manager.load()
        if started is not None:
            started()
        try:
            yield
        finally:
            await event_tables.close()
            await manager.close()
            await asyncio.to_thread(store.close)

    app = FastAPI(
        title="pitkit server",
        summary="Tables for the Pit family of card games; play over WebSocket.",
        description="The play protocol over WebSocket is described in docs/protocol.md.",
        version="1",
        lifespan=lifespan,
        docs_url=None,  # add_docs: Swagger UI from this server, not a CDN
        redoc_url=None,
    )
    add_docs(app)
    app.state.site = site
    app.state.manager = manager
    app.state.events = events
    app.state.store = store
    app.state.metrics = metrics
    app.add_middleware(BodyLimit, limit=limits.body_bytes)
    app.add_middleware(SameOriginSockets, site=site)
    app.add_middleware(RequestRate, limits=limits, site=site)
    app.add_middleware(SecurityHeaders, site=site)  # the outermost: on a 413 too

    async def table_or_404(table_id: str) -> Table:
        try:
            table = await manager.get(table_id)
        except TableElsewhereError:
            raise HTTPException(
                503, "this table is moving between servers; try again", {"Retry-After": "1"}
            ) from None
        if table is None:
            raise HTTPException(404, f"there is no table {table_id!r}")
        return table

    async def hosted(table_id: str, authorization: str | None) -> Table:
        """The table, for its host alone (403 for any other token)."""
        table = await table_or_404(table_id)
        if not table.is_host(bearer(authorization)):
            raise HTTPException(403, "this needs the table's host token (Authorization: Bearer)")
        return table

    def invite(request: Request, table: Table, token: str) -> str:
        return f"{site.base_url(request.scope)}/t/{table.id}#token={token}"

    @app.get("/api/games", tags=["lobby"])
    async def list_games() -> list[dict[str, Any]]:
        """Every game: players, rule options and bots."""
        return [
            {
                "name": g.name,
                "title": g.title,
                "summary": g.summary,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "default_players": g.default_players,
                "realtime": g.realtime,
                "rules": [
                    {
                        "name": o.name,
                        "label": o.label,
                        "type": o.type,
                        "default": o.default,
                        "doc": plain(o.doc),
                        "choices": list(o.choices),
                    }
                    for o in g.rules.options()
                ],
                "bots": {
                    name: info.description for name, info in bot_registry.available(g).items()
                },
                "heuristic": g.heuristic,
                "opponent": g.opponent,
                "module": _module_url(g.name),
                "view_schema": json_schema(g.view_type) if g.view_type is not None else None,
            }
            for g in games.all_games()
        ]

    @app.post("/api/games/{name}/judge", tags=["lobby"])
    async def judge(name: Annotated[str, InPath(max_length=32)], body: JudgeQuestion) -> Verdict:
        """The game's rules judge: `{"args": ["8H", "7H 9H"]}` as in `pitkit judge`.

        Pages use it to explain a selection (Pits: its readings and whether it
        beats the table; Ace Pit: a response's score). 400 gives the reason
        the cards cannot be judged.
        """
        game = games.get(name) if name in games.names() else None
        if game is None or game.judge is None:
            raise HTTPException(404, f"there is no judge for {name[:40]!r}")
        try:
            # Off the event loop: the judge is plain CPU work.
            verdict = await asyncio.to_thread(game.judge, body.args)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        return Verdict(verdict=verdict)

    @app.get("/api/tables", tags=["lobby"])
    async def list_tables(
        status: Annotated[str | None, Query(max_length=16)] = None,
        game: Annotated[str | None, Query(max_length=32)] = None,
    ) -> list[dict[str, Any]]:
        """The listed tables (waiting, playing, or lately over), newest first."""
        return await manager.listed(status, game)

    @app.post("/api/tables", status_code=201, tags=["lobby"])
    async def create_table(body: CreateTable, request: Request) -> CreatedTable:
        """Create a table. Returns the host token and each seat's invitation link."""
        client = request.client.host if request.client else "?"
        bucket = creates.setdefault(
            client, Bucket(limits.creates_per_minute / 60, limits.creates_per_minute)
        )
        if not bucket.take():
            raise HTTPException(429, "too many tables created; wait a minute")
        if len(creates) > 10_000:
            creates.clear()  # a crude bound on memory; limits restart for everyone
        seats = [None if s in (None, "open", "") else s for s in body.seats]
        try:
            settings = TableSettings.from_json(dict(body.settings), client=True)
            table, host, tokens = await manager.create(
                body.game, body.players, body.rules, seats, settings, creator=client
            )
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        return CreatedTable(
            table=table.info(),
            host_token=host,
            seats=[
                SeatInvite(
                    seat=i, kind=s.kind, token=tokens[i], invite=invite(request, table, tokens[i])
                )
                for i, s in enumerate(table.seats)
                if s.kind != "bot"
            ],
        )

    @app.get("/api/tables/{table_id}", tags=["lobby"])
    async def get_table(table_id: TableId) -> dict[str, Any]:
        """A table's status: seats, match number, version, who may act, outcome."""
        return (await table_or_404(table_id)).info()

    @app.post("/api/tables/{table_id}/join", tags=["lobby"])
    async def join(table_id: TableId, body: Join) -> Joined:
        """Claim the open seat the token belongs to (or rename oneself)."""
        table = await table_or_404(table_id)
        try:
            seat, secret = await table.join(body.token, body.name)
            return Joined(seat=seat, token=secret)
        except ProtocolError as exc:
            metrics.refused(exc.code)
            raise HTTPException(_STATUS.get(exc.code, 400), exc.reason) from None

    @app.post("/api/tables/{table_id}/event-seat", tags=["events"])
    async def event_seat(
        table_id: TableId, request: Request, authorization: Authorization = None
    ) -> EventSeat:
        """At a table playing an event's game: take your seat with your own event
        link (``Authorization: Bearer``). The seat gets a new token, returned here
        once; a device that held the seat before is let go."""
        table = await table_or_404(table_id)
        try:
            seat, seat_token = await event_tables.seat(table, bearer(authorization))
        except ForbiddenError as exc:
            raise HTTPException(403, str(exc)) from None
        except ValueError as exc:
            raise HTTPException(409, str(exc)) from None
        return EventSeat(seat=seat, token=seat_token, url=invite(request, table, seat_token))

    @app.put("/api/tables/{table_id}/seats/{seat}", tags=["host"])
    async def change_seat(
        table_id: TableId,
        seat: Annotated[int, InPath(ge=0, le=15)],
        body: SeatChange,
        request: Request,
        authorization: Authorization = None,
    ) -> Reopened:
        """Host: seat a bot, or reopen the seat with a new invitation (old token void)."""
        table = await hosted(table_id, authorization)
        with refused(400):
            token = await table.set_seat(seat, body.bot)
        return Reopened(
            seat=seat,
            token=token,
            invite=invite(request, table, token) if token is not None else None,
        )

    @app.put("/api/tables/{table_id}/seats/{seat}/name", tags=["host"])
    async def rename_seat(
        table_id: TableId,
        seat: Annotated[int, InPath(ge=0, le=15)],
        body: SeatName,
        authorization: Authorization = None,
    ) -> dict[str, Any]:
        """Host: rename the player in a seat. The player is told, and so is the table."""
        table = await hosted(table_id, authorization)
        with refused(400):
            await table.rename_seat(seat, body.name)
        return table.info()

    @app.post("/api/tables/{table_id}/seats/{seat}/move", tags=["host"])
    async def move_seat(
        table_id: TableId,
        seat: Annotated[int, InPath(ge=0, le=15)],
        body: SeatMove,
        authorization: Authorization = None,
    ) -> dict[str, Any]:
        """Host: swap two seats' occupants, tokens and sockets (during a match, their
        hands): each moved player's page is sent its new seat's view; all are told."""
        table = await hosted(table_id, authorization)
        with refused(400):
            await table.move_seat(seat, body.to)
        return table.info()

    @app.post("/api/tables/{table_id}/start", tags=["host"])
    async def start(table_id: TableId, authorization: Authorization = None) -> dict[str, Any]:
        """Host: start without waiting; bots play the open seats until people claim them."""
        table = await hosted(table_id, authorization)
        with refused(409):
            await table.start()
        return table.info()

    @app.post("/api/tables/{table_id}/rematch", tags=["host"])
    async def rematch(table_id: TableId, authorization: Authorization = None) -> dict[str, Any]:
        """Host: start the next match with the same seats now."""
        table = await hosted(table_id, authorization)
        try:
            await table.rematch(None)
        except ProtocolError as exc:
            raise HTTPException(_STATUS.get(exc.code, 400), exc.reason) from None
        return table.info()

    @app.delete("/api/tables/{table_id}", tags=["host"])
    async def close_table(table_id: TableId, authorization: Authorization = None) -> dict[str, Any]:
        """Host: close the table for good. Its bots stop, nobody can move again,
        and what was played stays readable (the log of a match cut short stays private)."""
        table = await hosted(table_id, authorization)
        await table.shut("the host closed the table")
        return table.info()

    @app.get(
        "/api/tables/{table_id}/matches/{number}/log",
        tags=["lobby"],
        response_class=PlainTextResponse,
    )
    async def match_log(
        table_id: TableId, number: Annotated[int, InPath(ge=1, le=2**31 - 1)]
    ) -> PlainTextResponse:
        """A finished match's full log (JSON lines, as `pitkit replay` reads)."""
        table = await table_or_404(table_id)
        text = logs.get((table.id, number))
        if text is not None:
            return PlainTextResponse(text, media_type="application/x-ndjson")
        found = await store.run(lambda conn: storage.read_match_log(conn, table.id, number))
        if found is None:
            raise HTTPException(404, f"table {table_id} has no match {number}")
        seed, over, events = found
        if not over:
            # The full log holds every hidden card and the seed: only once it is over.
            raise HTTPException(409, "the log is published once the match is over")
        text = logs.get((table.id, number))
        if text is None:
            # Off the event loop, and kept: a long match's log is megabytes of JSON.
            text = await asyncio.to_thread(_log_text, _header(table, seed), events)
            _keep(logs, (table.id, number), text, limits.logs_cached)
        return PlainTextResponse(text, media_type="application/x-ndjson")

    @app.get("/api/tables/{table_id}/matches/{number}/replay", tags=["lobby"])
    async def match_replay(
        table_id: TableId,
        number: Annotated[int, InPath(ge=1, le=2**31 - 1)],
        seat: Annotated[str, Query(max_length=8)] = "all",
    ) -> Response:
        """A finished match, version by version, for the page to replay: each version's
        events in words and the view after them, as `seat` saw it (a seat number), or
        all-seeing (`all`: the spectator's view with every hand)."""
        table = await table_or_404(table_id)
        if seat == "all":
            who = None
        elif seat.isdigit() and int(seat) < table.players:
            who = int(seat)
        else:
            raise HTTPException(
                400, f"seat is a seat from 0 to {table.players - 1}, or all, not {seat!r}"
            )
        key = (table.id, number, who)
        text = replays.get(key)
        if text is not None:
            return Response(text, media_type="application/json")
        found = await store.run(lambda conn: storage.read_match_steps(conn, table.id, number))
        if found is None:
            raise HTTPException(404, f"table {table_id} has no match {number}")
        seed, over, steps = found
        if not over:
            # Every seat's cards: only once the match is over, as for the log.
            raise HTTPException(409, "the replay is shown once the match is over")
        if len(steps) > limits.replay_steps:
            raise HTTPException(
                409,
                f"this match is too long to replay here ({len(steps) - 1:,} moves; at most "
                f"{limits.replay_steps - 1:,}): its log can be replayed with pitkit replay",
            )
        header = _header(table, seed)
        labels = [s.label for s in table.seats]
        try:
            # Off the event loop, and kept: every version's view is CPU work.
            text = await asyncio.to_thread(
                lambda: json.dumps(
                    {
                        "match": number,
                        "seat": who,
                        "labels": labels,
                        "steps": replay(table.game, header, steps, who, labels),
                    },
                    separators=(",", ":"),
                )
            )
        except Exception:
            log.exception("table %s: match %d does not replay", table.id, number)
            raise HTTPException(500, "this match does not replay") from None
        _keep(replays, key, text, limits.logs_cached)
        return Response(text, media_type="application/json")

    @app.get("/healthz", tags=["server"])
    async def health() -> dict[str, Any]:
        """Liveness, and a few counters."""
        return {"ok": True, "tables": len(manager.tables), "commits": store.commits}

    @app.get("/metrics", tags=["server"], response_class=PlainTextResponse)
    async def prometheus() -> Response:
        """Prometheus metrics, as text: tables, sockets, actions, refusals, database time.

        Async, so that it counts the tables on the event loop that changes them."""
        return Response(metrics.text(), media_type=CONTENT_TYPE_LATEST)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> FileResponse:
        """A game's rules for players: the table page and the lobby's options link here."""
        if game not in {g.name for g in games.all_games()}:
            raise HTTPException(404, "there is no such game")
        return FileResponse(STATIC / "rules.html")

    app.include_router(event_routes(events, event_tables, site))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.websocket("/ws/tables/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        conn = Conn(ws, limits)
        pump = asyncio.create_task(conn.pump())
        table: Table | None = None
        try:
            try:
                table = await manager.get(table_id)
            except TableElsewhereError:
                conn.close(1013)  # another worker is handing it over: the client tries again
                return
            if table is None:
                metrics.refused("no_table")
                conn.send(error("no_table", f"there is no table {table_id[:40]!r}"))
                conn.close(4404)
                return
            await _serve_socket(ws, conn, table, limits)
        finally:
            if table is not None and conn.joined:
                table.detach(conn)
            conn.close(conn.close_code)
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5):
                    await pump
            pump.cancel()

    return app


K = TypeVar("K")


def _header(table: Table, seed: int) -> dict[str, Any]:
    """The first line of a table's match log: what replays it."""
    return {
        "game": table.game.name,
        "players": table.players,
        "rules": table.rules.to_json(),
        "seed": seed,
    }


def _keep(cache: MutableMapping[K, str], key: K, text: str, most: int) -> None:
    """Keep `text` in `cache`, dropping the oldest entries beyond `most`."""
    cache[key] = text
    while len(cache) > most:
        del cache[next(iter(cache))]


def _log_text(header: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """A match's log as JSON lines: the header, then each event in full."""
    lines = [json.dumps(header)] + [json.dumps(Event.from_json(e).to_json()) for e in events]
    return "\n".join(lines) + "\n"


async def _serve_socket(ws: WebSocket, conn: Conn, table: Table, limits: Limits) -> None:
    """Read a client's messages until it leaves, answering each."""
    bucket = Bucket(limits.rate, limits.burst)
    limited = 0
    while not conn.closed:
        try:
            if conn.joined:
                message = await ws.receive()
            else:
                async with asyncio.timeout(limits.hello_seconds):
                    message = await ws.receive()
        except TimeoutError:
            table.metrics.refused("hello_first")
            conn.send(error("hello_first", "no hello in time"))
            conn.close(4408)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        received = time.perf_counter()
        if not bucket.take():
            limited += 1
            if limited >= limits.abuse_close:
                conn.close(1008)
                return
            table.metrics.refused("rate_limited")
            conn.send(error("rate_limited", "too many messages; this one was dropped"))
            continue
        limited = 0
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes")
        ident: str | int | None = None
        try:
            parsed = parse(raw, limits.message_bytes)
            ident = getattr(parsed, "id", None)
            await _handle(conn, table, parsed, received)
        except ProtocolError as exc:
            table.metrics.refused(exc.code)
            extra = {"match": table.match_no, "version": table.version} if conn.joined else {}
            reason = table.narrator(conn.seat).with_names(exc.reason)
            conn.send(error(exc.code, reason, ident, **extra))
        except Exception:
            # Never let one message take the server down; the table is unchanged.
            log.exception("table %s: message failed", table.id)
            table.metrics.refused("server_error")
            conn.send(error("server_error", "the server failed on this message", ident))


async def _handle(conn: Conn, table: Table, message: ClientMessage, received: float) -> None:
    """Answer one message, read at `received` (`time.perf_counter`)."""
    if isinstance(message, Hello):
        if conn.joined:
            raise ProtocolError("already_joined")
        conn.views = message.views
        conn.name = message.name
        await table.attach(conn, message.token, message.name, message.match, message.version)
        return
    if not conn.joined:
        raise ProtocolError("hello_first")
    if isinstance(message, Act):
        if conn.seat is None:
            raise ProtocolError("spectator")
        await table.act(conn.seat, message.action, message.version, conn, message.id)
        table.metrics.action_seconds.observe(time.perf_counter() - received)
    elif isinstance(message, Chat):
        await table.say(conn, message.text)
    elif message.type == "sync":
        await table.sync(conn)
    elif message.type == "rematch":
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for a rematch")
        await table.rematch(conn.seat)
    elif message.type == "ready":
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators wait for the players")
        await table.ready(conn)
    elif message.type == "ping":
        conn.send({"type": "pong", "id": message.id})
