"""A real server on a free loopback port, in a thread, with its own database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pitkit.server import Limits
from tests.serving import ServingThread

FAST = Limits(rate=100_000, burst=100_000)


class ServerThread(ServingThread):
    """The server, with the API calls the tests make."""

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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    # Test clients act as fast as they can: far above the rate limit meant for people.
    s = ServerThread(tmp_path, FAST)
    yield s
    s.stop()


def run(coro: Any) -> Any:
    """Run a coroutine to its end (the tests' clients are asyncio ones)."""
    return asyncio.run(coro)
