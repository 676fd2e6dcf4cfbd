"""A real server on a free loopback port, in a thread, with its own database."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from pitkit.server import Limits, create_app
from pitkit.server.settings import database_url

FAST = Limits(rate=100_000, burst=100_000)


class ServerThread:
    """uvicorn serving the app on 127.0.0.1:<free port> in a background thread."""

    def __init__(self, data: Path, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.app = create_app(database_url(str(data), None), self.limits)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=0,
            log_level="warning",
            ws_max_size=self.limits.frame_bytes,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.http = httpx.Client(base_url=self.base, timeout=10)

    def create(self, **body: Any) -> dict[str, Any]:
        """POST /api/tables, expecting success."""
        body.setdefault("settings", {})
        body["settings"].setdefault("bot_delay", 0)
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def table(self, table_id: str) -> dict[str, Any]:
        response = self.http.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.text
        info: dict[str, Any] = response.json()
        return info

    def wait_for(self, table_id: str, status: str, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            info = self.table(table_id)
            if info["status"] == status:
                return info
            assert time.monotonic() < deadline, f"table {table_id} is {info['status']}"
            time.sleep(0.02)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=20)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    # Test clients act as fast as they can: far above the rate limit meant for people.
    s = ServerThread(tmp_path, FAST)
    yield s
    s.stop()


def run(coro: Any) -> Any:
    """Run a coroutine to its end (the tests' clients are asyncio ones)."""
    return asyncio.run(coro)
