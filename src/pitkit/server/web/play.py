"""Play over WebSocket: one socket per page at a table, speaking the protocol of
docs/protocol.md (its messages: live/protocol.py).

The socket loop reads a client's messages one at a time, under a budget and a
deadline for the first (a hello), and answers each; a refused message changes
nothing and is answered with an error, and no message can take the server down.

A client over its budget (`Limits.rate`, bursts of `burst`) has each message
refused, and is not read in between (its writes back up on its side); one that
keeps sending is flooding, and is cut off within a second (1008, dropped at once:
guards.py). Who flooded then backs off (`Strikes`): a seat's holder by its token,
anyone else by their address, whose new sockets may meanwhile only take a seat by
its token, so that the players behind that address play on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time

from fastapi import APIRouter, WebSocket
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from pitkit.server.live.conn import Conn
from pitkit.server.live.protocol import Act, Chat, ClientMessage, Hello, ProtocolError, error, parse
from pitkit.server.live.tables import Table, TableElsewhereError
from pitkit.server.ops.settings import Bucket, Limits
from pitkit.server.web.guards import seated
from pitkit.server.web.services import Services, Wired

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
        await _Reader(ws, conn, table, services).serve()
    finally:
        if table is not None and conn.joined:
            table.detach(conn)
        conn.close(conn.close_code)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await pump
        pump.cancel()


class _Budget:
    """One socket's messages: `Limits.rate` a second on average, `burst` at once. Beyond
    it each is refused, and the socket is read at most 2 x `abuse_close` times a second;
    `abuse_close` refusals more than the rate forgives meanwhile (a second of flooding)
    mean the socket floods."""

    def __init__(self, limits: Limits) -> None:
        self.messages = Bucket(limits.rate, limits.burst)
        self.refusals = Bucket(limits.rate, limits.abuse_close)
        self.pause = 1 / (2 * limits.abuse_close)
        self.over = False
        """Whether the last message was over the budget."""

    def take(self) -> bool:
        """Whether one more message may be answered now (if so, it is counted)."""
        self.over = not self.messages.take()
        return not self.over

    def flooding(self) -> bool:
        """Count a refusal; whether the socket is flooding."""
        return not self.refusals.take()

    async def settle(self) -> None:
        """Wait before reading on, while over the budget: the socket is not read meanwhile."""
        if self.over:
            await asyncio.sleep(self.pause)


class _BackingOffError(Exception):
    """Who this socket speaks for is backing off (`Strikes`) for `seconds` more."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class _Reader:
    """One socket's messages, read and answered until it leaves."""

    def __init__(self, ws: WebSocket, conn: Conn, table: Table, services: Services) -> None:
        self.ws = ws
        self.conn = conn
        self.table = table
        self.services = services
        self.limits = services.limits
        self.budget = _Budget(services.limits)
        self.address = f"address {ws.client.host if ws.client else '?'}"
        self.holder: str | None = None
        """Who a seat's socket is, for the back-off: its hello's token."""

    async def serve(self) -> None:
        """Read the client's messages until it leaves, answering each."""
        while not self.conn.closed:
            await self.budget.settle()
            message = await self._receive()
            if message is None:
                return
            received = time.perf_counter()
            if not self.budget.take():
                if self.budget.flooding():
                    self.services.strikes.strike(self.holder or self.address)
                    self.conn.close(1008)
                    return
                self.table.metrics.refused("rate_limited")
                self.conn.send(error("rate_limited", "too many messages; this one was dropped"))
                continue
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes")
            await self._answer(raw, received)

    async def _receive(self) -> Message | None:
        """The next message; None once the client has gone, or said no hello in time."""
        try:
            if self.conn.joined:
                message = await self.ws.receive()
            else:
                async with asyncio.timeout(self.limits.hello_seconds):
                    message = await self.ws.receive()
        except TimeoutError:
            self.table.metrics.refused("hello_first")
            self.conn.send(error("hello_first", "no hello in time"))
            self.conn.close(4408)
            return None
        except (WebSocketDisconnect, RuntimeError):
            return None
        return None if message["type"] == "websocket.disconnect" else message

    async def _answer(self, raw: str | bytes | None, received: float) -> None:
        """Read and answer one message; a refusal or a failure is answered with an error."""
        conn, table = self.conn, self.table
        ident: str | int | None = None
        try:
            parsed = parse(raw, self.limits.message_bytes)
            ident = getattr(parsed, "id", None)
            await self._handle(parsed, received)
        except ProtocolError as exc:
            table.metrics.refused(exc.code)
            extra = {"match": table.match_no, "version": table.version} if conn.joined else {}
            reason = table.narrator(conn.seat).with_names(exc.reason)
            conn.send(error(exc.code, reason, ident, **extra))
        except TableElsewhereError:
            conn.close(1013)  # handed over as this came: the client finds where it went
        except _BackingOffError as exc:
            table.metrics.refused("rate_limited")
            wait = math.ceil(exc.seconds)
            conn.send(error("rate_limited", f"too many messages from here: try in {wait} s"))
            conn.close(1013)  # try again later (guards.py drops it at once)
        except Exception:
            # Never let one message take the server down; the table is unchanged.
            log.exception("table %s: message failed", table.id)
            table.metrics.refused("server_error")
            conn.send(error("server_error", "the server failed on this message", ident))

    def _check_backoff(self, token: str | None) -> None:
        """Raise _BackingOffError if the token's holder is backing off, or, for a socket
        without one, its address."""
        strikes = self.services.strikes
        seconds = strikes.backing_off(f"token {token}" if token else self.address)
        if seconds > 0:
            raise _BackingOffError(seconds)

    async def _handle(self, message: ClientMessage, received: float) -> None:
        """Answer one message, read at `received` (`time.perf_counter`)."""
        conn, table = self.conn, self.table
        if isinstance(message, Hello):
            if conn.joined:
                raise ProtocolError("already_joined")
            self._check_backoff(message.token)
            conn.views = message.views
            conn.name = message.name
            await table.attach(conn, message.token, message.name, message.match, message.version)
            if conn.seat is not None:
                self.holder = f"token {message.token}"
                seated(self.ws.scope)
            return
        if not conn.joined:
            self._check_backoff(None)
            raise ProtocolError("hello_first")
        if isinstance(message, Act):
            if conn.seat is None:
                raise ProtocolError("spectator")
            await table.act(
                conn.seat, message.action, message.version, conn, message.id, meant=message.seat
            )
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
