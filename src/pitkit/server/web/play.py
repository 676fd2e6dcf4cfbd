"""Play over WebSocket: one socket per page at a table, speaking the protocol of
docs/protocol.md (its messages: live/protocol.py).

The socket loop reads a client's messages one at a time, under a rate limit and a
deadline for the first (a hello), and answers each; a refused message changes
nothing and is answered with an error, and no message can take the server down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from pitkit.server.live.conn import Conn
from pitkit.server.live.manager import TableElsewhereError
from pitkit.server.live.protocol import Act, Chat, ClientMessage, Hello, ProtocolError, error, parse
from pitkit.server.live.tables import Table
from pitkit.server.ops.settings import Bucket, Limits
from pitkit.server.web.services import Wired

__all__ = ["router"]

log = logging.getLogger("pitkit.server")

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def play(ws: WebSocket, table_id: str, services: Wired) -> None:
    """A page's socket at the table `table_id`, from accepting it to closing it."""
    await ws.accept()
    conn = Conn(ws, services.limits)
    pump = asyncio.create_task(conn.pump())
    table: Table | None = None
    try:
        try:
            table = await services.manager.get(table_id)
        except TableElsewhereError:
            conn.close(1013)  # another worker is handing it over: the client tries again
            return
        if table is None:
            services.metrics.refused("no_table")
            conn.send(error("no_table", f"there is no table {table_id[:40]!r}"))
            conn.close(4404)
            return
        await _serve_socket(ws, conn, table, services.limits)
    finally:
        if table is not None and conn.joined:
            table.detach(conn)
        conn.close(conn.close_code)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await pump
        pump.cancel()


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
        await _answer(conn, table, raw, received, limits)


async def _answer(
    conn: Conn, table: Table, raw: str | bytes | None, received: float, limits: Limits
) -> None:
    """Read and answer one message; a refusal or a failure is answered with an error."""
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
