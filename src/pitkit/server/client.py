"""A small client of the play protocol: for tests, the load benchmark, and remote bots.

It follows docs/protocol.md: say hello, keep the (match, version) it has
seen, apply updates that follow on from it, and ask for a full view when one
does not. `RandomPlayer` plays a seat by picking among the legal actions the
server sends.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect

__all__ = ["RandomPlayer", "TableClient"]


class TableClient:
    """One WebSocket connection to a table, as a seat (token) or a spectator."""

    patience = 1.0
    """A factor on every wait for the server (a test suite on a busy machine raises it)."""

    def __init__(
        self, base: str, table_id: str, token: str | None = None, keep_log: bool = True
    ) -> None:
        self.url = base.replace("http://", "ws://", 1).rstrip("/") + f"/ws/tables/{table_id}"
        self.token = token
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.match: int | None = None
        self.version: int | None = None
        self.legal: list[str] = []
        self.to_act: list[int] = []
        self.over = False
        self.next_hand: dict[str, Any] | None = None
        """The pause before the next hand (who is ready, seconds left), while it lasts:
        no move is taken meanwhile."""
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.syncing = False
        """Whether a full view was asked for and has not come yet (do not act meanwhile)."""
        self.keep_log = keep_log
        self.log: list[dict[str, Any]] = []
        """Every message received, in order, if `keep_log` (the leak test reads them all)."""

    async def connect(
        self, name: str | None = None, resume: bool = False, views: bool = False
    ) -> None:
        """Open the socket and say hello; with `resume`, from the last version seen;
        with `views`, asking for the seat's view in every update."""
        # Messages are small: compressing each one costs more CPU than it saves.
        self.ws = await connect(
            self.url, max_size=2**24, open_timeout=10 * self.patience, compression=None
        )
        hello: dict[str, Any] = {"type": "hello", "token": self.token, "name": name}
        if views:
            hello["views"] = True
        if resume and self.match is not None:
            hello["match"], hello["version"] = self.match, self.version
        await self.send(hello)

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send a message (a dict, or raw text for tests of bad input)."""
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else _dumps(message))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message, after taking in what it says about the table (waiting
        at most `timeout` times `patience` seconds)."""
        assert self.ws is not None
        # asyncio.timeout, not wait_for: no extra task per message (and on Python 3.11
        # wait_for can swallow a cancellation).
        async with asyncio.timeout(timeout * self.patience):
            raw = await self.ws.recv(decode=False)  # orjson reads the bytes as they came
        message: dict[str, Any] = _loads(raw)
        if self.keep_log:
            self.log.append(message)
        kind = message.get("type")
        if kind == "welcome":
            self.seat, self.table = message["seat"], message["table"]
            self.next_hand = message.get("next_hand")
            # A claimed seat's own secret replaces the invitation, which opens nothing now.
            self.token = message.get("token", self.token)
        elif kind == "table":
            self.table = message["table"]
        elif kind == "sync":
            self.match, self.version = message["match"], message["version"]
            self.syncing = False
            self.view = message["view"]
            self.legal = list(self.view.get("legal", []))
            self.to_act = list(self.view.get("to_act", []))
            self.over = bool(self.view.get("match", {}).get("outcome"))
            self.next_hand = message.get("next_hand")
        elif kind == "next_hand" and message["match"] == self.match:
            self.next_hand = message["next_hand"]
        elif kind == "error" and message.get("code") == "no_pause":
            self.next_hand = None  # the hand started as this client said ready
        elif kind == "update":
            if message["match"] != self.match or message["from"] != self.version:
                if not self.syncing:  # a gap: ask for the whole view, once
                    self.syncing = True
                    await self.send({"type": "sync"})
            else:
                self.version = message["version"]
                self.legal, self.to_act = message["legal"], message["to_act"]
                self.over = message["over"]
                self.next_hand = message.get("next_hand")
                if "view" in message:
                    view = dict(message["view"])  # the logged message stays as received
                    if "match" not in view and self.view is not None:
                        view["match"] = self.view.get("match")  # unchanged, so not sent
                    self.view = view
        return message

    async def recv_type(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """Read messages until one of type `kind`."""
        deadline = time.monotonic() + timeout * self.patience
        while True:
            message = await self.recv(max(0.01, deadline - time.monotonic()) / self.patience)
            if message.get("type") == kind:
                return message

    async def close(self) -> None:
        """Close the socket."""
        if self.ws is not None:
            await self.ws.close()


def _loads(raw: str | bytes) -> Any:
    """A message's JSON, read by orjson (a load test's clients read thousands a second);
    the standard library reads what orjson refuses (an escaped lone surrogate)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


def _dumps(message: dict[str, Any]) -> str:
    """A message as JSON text (by orjson, or the standard library for what orjson refuses)."""
    try:
        return orjson.dumps(message).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message)


class RandomPlayer:
    """Plays a seat over the network with random legal actions.

    It keeps one action in flight, and measures the time from sending an
    action to its acknowledgement (`latencies`, seconds).
    """

    def __init__(self, client: TableClient, seed: int, think: float = 0.0) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.think = think
        self.pending: float | None = None
        self.acked: list[tuple[int, int, str]] = []
        """(match, version, action) of every acknowledged action."""
        self.latencies: list[float] = []
        self.errors: list[dict[str, Any]] = []
        self._sent: str | None = None
        self._ready: tuple[int | None, int | None] | None = None
        """The (match, version) of the pause this player said ready in."""
        self._wake: asyncio.TimerHandle | None = None

    async def run(self, until: float, matches: int = 1) -> None:
        """Play until `until` (monotonic time) or the `matches`-th match is over."""
        while time.monotonic() < until:
            try:
                message = await self.client.recv(timeout=max(0.05, until - time.monotonic()))
            except TimeoutError:
                return
            kind = message.get("type")
            if kind == "ack":
                assert self.pending is not None and self._sent is not None
                self.latencies.append(time.perf_counter() - self.pending)
                self.acked.append((message["match"], message["version"], self._sent))
                self.pending = None
            elif kind == "error":
                self.errors.append(message)
                self.pending = None
                await self._maybe_act()
            elif kind in ("welcome", "sync", "update", "next_hand"):
                if kind == "welcome":
                    self._ready = None  # a new socket: a restarted server forgot who was ready
                if self.client.over and (self.client.match or 0) >= matches:
                    return
                await self._maybe_act()

    async def _maybe_act(self) -> None:
        client = self.client
        pause = client.next_hand
        if pause is not None:  # between hands: say ready, once, and wait for the deal
            here = (client.match, client.version)
            if client.seat in pause["waiting"] and self._ready != here:
                self._ready = here
                await client.send({"type": "ready"})
            return
        if self.pending is not None or not client.legal or client.over or client.syncing:
            return
        if self.think:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        action = self.rng.choice(client.legal)
        self._sent = action
        self.pending = time.perf_counter()
        await client.send({"type": "act", "action": action, "version": client.version})
