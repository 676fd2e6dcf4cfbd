"""A real pitkit server on loopback, in a thread, with its own database: the
base of the server tests' and the browser tests' servers."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn

from pitkit.server import Limits, create_app
from pitkit.server.ops.settings import database_url
from pitkit.server.web.guards import server_config
from tests.waiting import patience

T = TypeVar("T")


class _Server(uvicorn.Server):
    """uvicorn's server, which stops as soon as it is told to (uvicorn's own looks
    every 0.1 s, and then pauses 0.1 s more: a fifth of a second idle at the end of
    each of some 600 tests)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        ticks = 0
        # on_tick refreshes the Date header at every tenth tick (here, every second),
        # and says whether should_exit is set.
        while not await self.on_tick(ticks):
            ticks += 10
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), 1.0)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's shutdown less its fixed pause (0.1 s) after asking the connections to
        close: each connection and task is still waited for until it has ended."""
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        await asyncio.sleep(0)  # an idle connection closes at its next turn of the loop
        await self._wait_tasks_to_complete()
        if not self.force_exit:
            await self.lifespan.shutdown()

    def stop_soon(self) -> None:
        """Ask the server to stop, from any thread; it starts at once."""
        self.should_exit = True
        if self._loop is not None and self._wake is not None:
            with contextlib.suppress(RuntimeError):  # its loop has closed already
                self._loop.call_soon_threadsafe(self._wake.set)


class ServingThread:
    """uvicorn serving pitkit on 127.0.0.1 in a background thread.

    `port=0` picks a free port; a restart passes the old port and data folder.
    `database` is a database URL to use instead of SQLite in `data`.
    """

    def __init__(
        self,
        data: Path,
        limits: Limits | None = None,
        port: int = 0,
        database: str | None = None,
    ) -> None:
        self.data = data
        self.database = database
        self.limits = limits or Limits()
        self.app = create_app(database_url(str(data), database), self.limits)
        # The guards `pitkit serve` runs, on the app's Site (127.0.0.1 unless it says otherwise).
        config = server_config(self.app, self.limits, port=port, log_level="warning")
        self.server = _Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + patience(20)
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        self.port: int = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        # 30 s: a finished match's first log or replay starts the server's replay worker,
        # at low priority, which a busy machine serves last.
        # (verify=False: plain HTTP, so no certificates to load, 20 ms a client.)
        self.http = httpx.Client(base_url=self.base, timeout=patience(30), verify=False)

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run `coro` on the server's event loop, as its own tasks run, and return its result."""
        loop = self.server._loop
        assert loop is not None, "the server's loop has not started"
        return asyncio.run_coroutine_threadsafe(coro, loop).result(patience(10))

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        self.http.close()
        self.server.stop_soon()
        self.thread.join(timeout=patience(20))
