"""Servers as child processes on loopback ports, for tests that kill them."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from tests.waiting import patience

__all__ = [
    "SERVE",
    "Process",
    "acknowledged_are_stored",
    "free_port",
    "stored_table",
    "wait_until_healthy",
]

SERVE = [sys.executable, "-m", "pitkit.cli", "serve"]


def free_port() -> int:
    """A loopback port nobody listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Process:
    """`pitkit serve` as a child process on a loopback port; SQLite in `data`
    unless `database` is another database's URL. `command` replaces `pitkit serve`
    (it gets the same arguments)."""

    def __init__(
        self,
        data: Path,
        port: int,
        database: str,
        command: Sequence[str] = SERVE,
        log_level: str = "warning",
    ) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        # SQLite through --data alone, as people run it; anything else through --database.
        other = [] if database.startswith("sqlite") else ["--database", database]
        # The log goes to a file, never to a pipe nobody reads: a full pipe (64 KiB of
        # warnings) would stop the server at its next line of log.
        data.mkdir(parents=True, exist_ok=True)
        self.log = data / "server.log"
        args = ["--port", str(port), "--data", str(data), *other, "--log-level", log_level]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [*command, *args],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        self.http = httpx.Client(base_url=self.base, timeout=patience(10))
        try:
            wait_until_healthy(self.http, self.proc, log=self.log)
        except BaseException:
            self.kill()
            raise

    def create(self, **body: Any) -> dict[str, Any]:
        """POST /api/tables, expecting success."""
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def table(self, table_id: str) -> dict[str, Any]:
        """GET /api/tables/{id}."""
        info: dict[str, Any] = self.http.get(f"/api/tables/{table_id}").json()
        return info

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last commit (Popen.kill, safe once the process is gone)."""
        self.proc.kill()
        self.proc.wait(patience(10))
        self.http.close()

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not stop in 15 s (scaled)."""
        if self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(patience(15))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(patience(5))
        self.http.close()

    def log_tail(self, lines: int = 40) -> str:
        """The last `lines` lines the server logged, for a failing test to show (not
        uvicorn's line for each request, which a log level of info adds)."""
        logged = self.log.read_text(errors="replace").splitlines()
        return "\n".join([line for line in logged if " uvicorn.access: " not in line][-lines:])


def wait_until_healthy(
    http: httpx.Client, proc: subprocess.Popen[bytes], seconds: float = 30, log: Path | None = None
) -> None:
    """Until GET /healthz answers 200 (waiting `seconds`, scaled); fails if the
    process ends first, with what it logged (`log`, or its stderr if piped)."""
    deadline = time.monotonic() + patience(seconds)
    while True:
        if proc.poll() is not None:
            said = log.read_text(errors="replace") if log else ""
            piped = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise AssertionError(said or piped)
        with contextlib.suppress(httpx.TransportError):
            if http.get("/healthz").status_code == 200:
                return
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)


def acknowledged_are_stored(database: str, acked: Sequence[tuple[str, int, int, str]]) -> int:
    """Assert that every acknowledged (table, match, version, action) is in the
    database's steps as it was acknowledged; returns how many steps are stored."""
    engine = create_engine(database)
    with engine.connect() as db:
        stored = {
            (t, m, v): a
            for t, m, v, a in db.execute(
                text("SELECT table_id, match_no, version, action FROM steps")
            )
        }
    engine.dispose()
    for table_id, match, version, action in acked:
        assert stored.get((table_id, match, version)) == action
    return len(stored)


def stored_table(database: str, table_id: str) -> str:
    """What the database holds of a table, in a line, for a failing test to show
    beside what a worker answered: its status, match, and last step stored."""
    engine = create_engine(database)
    with engine.connect() as db:
        status = db.execute(
            text("SELECT status, match_no FROM tables WHERE id = :t"), {"t": table_id}
        ).first()
        last = db.execute(
            text(
                "SELECT match_no, version, seat, action FROM steps WHERE table_id = :t "
                "ORDER BY match_no DESC, version DESC LIMIT 1"
            ),
            {"t": table_id},
        ).first()
    engine.dispose()
    return f"stored: status and match {tuple(status) if status else None}, last step {last}"
