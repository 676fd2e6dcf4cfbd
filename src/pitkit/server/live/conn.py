"""One client's socket, as a table sees it: an outbox that a slow reader cannot clog.

The socket is anything with `Socket`'s two methods (the web layer hands in
Starlette's `WebSocket`): the live tables know no web framework.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Mapping
from typing import Any, Protocol

from pitkit.server.ops.settings import Bucket, Limits
from pitkit.server.store.storage import json_text

__all__ = ["Conn", "Socket", "dumps"]


class Socket(Protocol):
    """What a connection needs of its socket: to send text, and to close."""

    async def send_text(self, data: str) -> None:
        """Send one text frame."""
        ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close with `code`."""
        ...


def dumps(message: Mapping[str, Any]) -> str:
    """A message as the compact JSON text that goes on the wire."""
    return json_text(message)


class Conn:
    """One WebSocket client. Messages go through an outbox drained by `pump`,
    so a slow reader never holds up a table; one that falls too far behind
    is disconnected and resyncs when it comes back."""

    def __init__(self, ws: Socket, limits: Limits) -> None:
        self.ws = ws
        self.limits = limits
        self.seat: int | None = None
        self.joined = False
        self.views = False
        """Whether this client asked for its view in every update (hello's `views`)."""
        self.name: str | None = None
        """The name given in hello (a spectator's, for the chat)."""
        self.said = Bucket(limits.chat_rate, limits.chat_burst)
        """This client's chat messages, rate-limited apart from its moves."""
        self.closed = False
        self.close_code = 1000
        self.opened = time.monotonic()
        self.heard = self.opened
        """When the client last showed it is there (`time.monotonic`): its hello, a
        ping, a chat message. A spectator's page pings while it is shown."""
        self.idle_timer: asyncio.TimerHandle | None = None
        """A spectator's idleness check (`Room.watch_idle`)."""
        # A deque and one future to wake the pump: an asyncio.Queue costs several times
        # as much a message, and a table sends each action to every socket.
        self._outbox: deque[str | None] = deque()
        self._wake: asyncio.Future[None] | None = None

    def send(self, message: Mapping[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded)."""
        if self.closed:
            return
        if not isinstance(message, str) and message.get("type") == "pong":
            # A pong answers the client's ping (web/play.py): the client is there.
            self.heard = time.monotonic()
        if len(self._outbox) >= self.limits.outbox:
            self.close(4008)
            return
        self._put(message if isinstance(message, str) else dumps(message))

    def close(self, code: int = 1000) -> None:
        """Send what is queued, then close the socket with `code`."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self._put(None)

    def _put(self, text: str | None) -> None:
        self._outbox.append(text)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def pump(self) -> None:
        """Write queued messages to the socket until closed."""
        outbox = self._outbox
        while True:
            while not outbox:
                self._wake = asyncio.get_running_loop().create_future()
                await self._wake
            text = outbox.popleft()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(self.close_code)
                return
            await self.ws.send_text(text)
