"""The server's logs, as text and as JSON lines: no token ever appears in them.

A server logging everything (DEBUG: uvicorn's access log, every WebSocket frame)
sees every way a token travels: the host's and seats' tokens in the answer that
creates a table, a seat's in POST /join's body, in a hello, in a query string a
careless client wrote, in `Authorization: Bearer`, and in the text of a message
that fails with a traceback. Not one of them may reach a log line.
"""

from __future__ import annotations

import io
import json
import logging
import logging.config
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.asyncio.client import connect

from pitkit.server import create_app
from pitkit.server.client import TableClient
from pitkit.server.live.protocol import parse as real_parse
from pitkit.server.ops import logs
from pitkit.server.ops.settings import database_url
from pitkit.server.web import play
from pitkit.server.web.guards import server_config
from tests.server.conftest import FAST, run
from tests.waiting import patience, wait_until

CLOSED = "> EOF"
"""The last line the server logs (at DEBUG) as it closes a WebSocket."""


class LoggedServer:
    """The server as `pitkit serve --log-level debug --log-format FORMAT` runs it,
    its log lines written to `lines` instead of stderr."""

    def __init__(self, data: Path, log_format: str) -> None:
        self.log_format = log_format
        app = create_app(database_url(str(data), None), FAST)
        config = server_config(app, FAST, port=0, log_level="debug", log_format=log_format)
        # uvicorn has applied logs.config: one handler serves pitkit's loggers and uvicorn's.
        handler = logging.getLogger("uvicorn.access").handlers[0]
        assert handler in logging.getLogger("pitkit").handlers
        assert isinstance(handler, logging.StreamHandler)
        self.stream = io.StringIO()
        handler.setStream(self.stream)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        wait_until(
            lambda: self.server.started or not self.thread.is_alive(), 20, "the server to start"
        )
        assert self.thread.is_alive(), "the server did not start"
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.http = httpx.Client(base_url=self.base, timeout=patience(10))

    def stop(self) -> str:
        """Stop serving; everything logged."""
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=patience(20))
        return self.stream.getvalue()


@pytest.fixture(params=logs.FORMATS)
def logged(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LoggedServer]:
    server = LoggedServer(tmp_path, request.param)
    yield server
    server.stop()
    # Back to what the other tests' servers log: warnings, to stderr.
    logging.config.dictConfig(logs.config("text", "warning"))
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)


def _play(server: LoggedServer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every way a token travels, then a failing message quoting one; returns the tokens."""
    http = server.http
    created = http.post(
        "/api/tables", json={"game": "ace-pit", "seats": ["open", "open"], "settings": {}}
    ).json()
    tid, host = created["table"]["id"], created["host_token"]
    seats = [s["token"] for s in created["seats"]]
    bearer = {"Authorization": f"Bearer {host}"}
    joined = http.post(f"/api/tables/{tid}/join", json={"token": seats[0], "name": "Ann"})
    assert joined.is_success
    seats.append(joined.json()["token"])  # seat 0's own secret: the invitation is spent
    assert http.post(f"/api/tables/{tid}/join", json={"token": host}).status_code == 403
    assert http.get(f"/t/{tid}?token={seats[1]}").status_code == 200  # a careless link
    # A wrong host token (a seat's) over Authorization; the right one closes the table below.
    wrong = {"Authorization": f"Bearer {seats[1]}"}
    assert http.post(f"/api/tables/{tid}/rematch", headers=wrong).status_code == 403

    def parse(raw: Any, limit: int) -> Any:
        # A bug that quotes the message it failed on: its traceback holds a token.
        if isinstance(raw, str) and '"ping"' in raw and seats[1] in raw:
            raise ValueError(f"cannot read {raw}")
        return real_parse(raw, limit)

    monkeypatch.setattr(play, "parse", parse)

    async def main() -> None:
        a = TableClient(server.base, tid, seats[2])
        b = TableClient(server.base, tid, seats[1])
        for c in (a, b):
            await c.connect(name="Bo")
        for c in (a, b):
            await c.recv_type("sync")
        mover = a if a.legal else b
        await mover.send({"type": "act", "action": mover.legal[0], "version": mover.version})
        await mover.recv_type("ack")
        # Refused messages holding a token: a second hello, a token for an action.
        await a.send({"type": "hello", "token": seats[2]})
        assert (await a.recv_type("error"))["code"] == "already_joined"
        await b.send({"type": "act", "action": host, "version": 0})
        assert (await b.recv_type("error"))["code"] in ("bad_action", "stale", "not_your_turn")
        await b.send({"type": "ping", "id": seats[1]})
        assert (await b.recv_type("error"))["code"] == "server_error"
        for c in (a, b):
            await c.close()
        seats.append(str(b.token))  # seat 1's own secret, from its welcome
        # A script's socket sending the host token as a header too (logged at DEBUG).
        url = a.url + f"?token={seats[2]}"
        async with connect(url, additional_headers=bearer) as ws:
            await ws.send(json.dumps({"type": "hello", "token": seats[2]}))
            assert json.loads(await ws.recv())["type"] == "welcome"

    run(main())
    assert http.delete(f"/api/tables/{tid}", headers=bearer).is_success
    return [host, *seats]


def test_no_token_in_any_log_line(logged: LoggedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = _play(logged, monkeypatch)
    # The server logs its three sockets' closing a moment after the clients close them.
    wait_until(
        lambda: logged.stream.getvalue().count(CLOSED) >= 3, 10, "the sockets' closing lines"
    )
    text = logged.stop()
    for token in tokens:
        assert token not in text
    # The lines that would have held one are there, scrubbed.
    assert '"POST /api/tables/' in text and "/join HTTP/1.1" in text  # the access log
    assert "/t/" in text and "?token=[redacted]" in text
    assert "WebSocket /ws/tables/" in text and "TEXT [" in text  # frames: kind and size
    assert "authorization: Bearer [redacted]" in text  # the socket's request, at DEBUG
    assert "message failed" in text and "ValueError: cannot read" in text
    lines = text.splitlines()
    if logged.log_format == "json":
        records = [json.loads(line) for line in lines]
        assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
        loggers = {r["logger"] for r in records}
        assert {"pitkit.server", "uvicorn.access", "uvicorn.error"} <= loggers
        failed = next(r for r in records if "message failed" in r["message"])
        assert failed["level"] == "ERROR" and "ValueError" in failed["exception"]
    else:
        assert any(" INFO uvicorn.access: " in line for line in lines)


def test_json_lines_carry_extras_and_tracebacks_scrubbed() -> None:
    token = "AbCdEfGhIjKlMnOpQrStUv_-"
    try:
        raise RuntimeError(f"failed on {token}")
    except RuntimeError:
        failure = sys.exc_info()
    record = logging.makeLogRecord(
        {
            "name": "pitkit.server",
            "levelno": logging.ERROR,
            "levelname": "ERROR",
            "msg": "seat %s",
            "args": (token,),
            "exc_info": failure,
            "table": "t1",  # extras, as `log.error(..., extra={...})` gives them
            "secret": {"token": token},
        }
    )
    line = logs.JsonFormatter().format(record)
    assert "\n" not in line and token not in line
    parsed = json.loads(line)
    assert parsed["message"] == "seat [redacted]" and parsed["table"] == "t1"
    assert "RuntimeError: failed on [redacted]" in parsed["exception"]
    assert parsed["secret"] == {"token": "[redacted]"}
    # Text is scrubbed the same way; a table id, a word or a 64-digit hash is no token.
    scrubbed = logs.redact(f"table yxTMR9XD: seat {token}, hash {'0123456789abcdef' * 4}")
    assert scrubbed == f"table yxTMR9XD: seat [redacted], hash {'0123456789abcdef' * 4}"
    assert "[redacted]" in logs.TextFormatter().format(record)
