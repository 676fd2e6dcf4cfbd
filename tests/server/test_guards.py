"""The guards of guards.py on a real server: deadlines for a request's head and body,
the cap on one address's sockets, forwarded addresses, what browsers are told, the
WebSocket Origin check, and invitation links."""

from __future__ import annotations

import asyncio
import functools
import json
import re
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from uvicorn.server import ServerState
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidMessage, InvalidStatus
from websockets.http11 import Request
from websockets.protocol import State
from websockets.typing import Origin

from pitkit.server import Limits, create_app
from pitkit.server.web.guards import GuardedConfig, Site, _GuardedWebSocket
from tests import serving
from tests.server.conftest import FAST, ServerThread, run
from tests.waiting import patience, until

Start = Callable[..., ServerThread]


def limited(**changes: Any) -> Limits:
    return Limits(**{**FAST.__dict__, **changes})


@pytest.fixture
def start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Start]:
    """Start servers with the given Limits and Site options (SQLite; stopped after the test)."""
    started: list[ServerThread] = []

    def start(limits: Limits = FAST, **site: Any) -> ServerThread:
        monkeypatch.setattr(serving, "create_app", functools.partial(create_app, site=Site(**site)))
        server = ServerThread(tmp_path / f"server{len(started)}", limits)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def dial(server: ServerThread, source: str = "127.0.0.1") -> socket.socket:
    """A raw TCP socket to the server from the loopback address `source`."""
    return socket.create_connection(
        ("127.0.0.1", server.port), timeout=patience(5), source_address=(source, 0)
    )


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds`, answering nothing."""
    sock.settimeout(seconds)
    try:
        return sock.recv(4096) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def answers(server: ServerThread, source: str = "127.0.0.1") -> bool:
    """Whether a new socket from `source` gets a GET /healthz answered."""
    with dial(server, source) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            return sock.recv(4096).startswith(b"HTTP/1.1 200")
        except OSError:
            return False


# -- deadlines -------------------------------------------------------------------------


def test_half_sent_requests_are_cut_off_while_others_are_served(start: Start) -> None:
    server = start(limited(header_seconds=0.5, body_seconds=0.5))
    heads = [dial(server) for _ in range(50)]
    for sock in heads:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line
    body = dial(server)
    body.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    assert server.http.get("/healthz").status_code == 200
    began = time.monotonic()
    assert all(closed_within(sock, patience(5)) for sock in [*heads, body])
    # Cut off at their deadlines (0.5 s), with slack for a busy machine, well short of
    # any other reason to close them (uvicorn's own 5 s keep-alive).
    assert time.monotonic() - began < 0.5 + min(patience(2.5), 4.0)
    assert server.http.get("/healthz").status_code == 200
    for sock in [*heads, body]:
        sock.close()


def test_the_head_deadline_is_not_reset_by_each_byte(start: Start) -> None:
    server = start(limited(header_seconds=0.5))
    cut_off = 0.5 + patience(1.5)  # the deadline, and slack for a busy machine
    with dial(server) as sock:
        began = time.monotonic()
        # A header that never ends, a byte every 0.1 s (slowloris).
        sock.sendall(b"GET / HTTP/1.1\r\nX-Slow: ")
        while time.monotonic() - began < cut_off + 1:
            try:
                sock.sendall(b"a")
            except OSError:
                break
            if closed_within(sock, 0.1):
                break
        assert time.monotonic() - began < cut_off


# -- sockets per address -------------------------------------------------------------------


def test_one_address_holds_at_most_the_cap_of_sockets(start: Start) -> None:
    server = start(limited(connections_per_address=4))
    table = server.create(game="pitty-pat")["table"]["id"]
    ws_url = server.base.replace("http", "ws") + f"/ws/tables/{table}"
    # All from 127.0.0.3: the test client's own keep-alive socket (127.0.0.1) is apart.
    here, there = "127.0.0.3", "127.0.0.4"

    async def check() -> None:
        sockets = [await ws_connect(ws_url, local_addr=(here, 0)) for _ in range(2)]
        held = [dial(server, here) for _ in range(2)]
        # Four open, two of them WebSockets: a fifth, HTTP or WebSocket, is closed at once.
        assert closed_within(dial(server, here), patience(2))
        with pytest.raises(InvalidMessage):
            await ws_connect(ws_url, local_addr=(here, 0))
        # Another address is counted on its own.
        assert answers(server, there)
        # A closed WebSocket gives its place back.
        await sockets[0].close()
        await until(
            lambda: answers(server, here), 5, "the closed WebSocket to stop counting", every=0.05
        )
        for sock in held:
            assert not closed_within(sock, 0.05)  # still open (a glance, not a wait)
            sock.close()
        await sockets[1].close()

    run(check())


def test_a_trusted_proxy_is_not_capped_but_others_are(start: Start) -> None:
    server = start(limited(connections_per_address=2), trusted_proxies=("127.0.0.1",))
    proxied = [dial(server) for _ in range(4)]
    assert answers(server)
    assert not any(closed_within(sock, 0.05) for sock in proxied)
    direct = [dial(server, "127.0.0.3") for _ in range(2)]
    assert closed_within(dial(server, "127.0.0.3"), patience(2))
    for sock in [*proxied, *direct]:
        sock.close()


# -- forwarded addresses ---------------------------------------------------------------------


def creates(server: ServerThread, forwarded_for: list[str]) -> list[int]:
    """Status of a table created with each X-Forwarded-For in turn."""
    return [
        server.http.post(
            "/api/tables", json={"game": "pitty-pat"}, headers={"X-Forwarded-For": address}
        ).status_code
        for address in forwarded_for
    ]


def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(start: Start) -> None:
    spoofed = start(limited(creates_per_minute=2))
    assert creates(spoofed, ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) == [201, 201, 429]
    proxied = start(limited(creates_per_minute=2), trusted_proxies=("127.0.0.1",))
    assert creates(proxied, ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) == [201] * 3
    assert creates(proxied, ["203.0.113.9"] * 3) == [201, 201, 429]


# -- what browsers are told -----------------------------------------------------------------------


def test_every_answer_forbids_framing_and_foreign_scripts(start: Start) -> None:
    server = start(limited(body_bytes=100))
    responses = [
        server.http.get(path)
        for path in ["/", "/t/abc", "/static/js/table.js", "/api/games", "/docs", "/nowhere"]
    ]
    responses.append(server.http.post("/api/tables", content=b"x" * 200))
    assert [r.status_code for r in responses] == [200] * 5 + [404, 413]
    for response in responses:
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "default-src 'none'" in csp and "connect-src 'self'" in csp
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def test_the_api_docs_load_nothing_from_another_origin(start: Start) -> None:
    server = start()
    page = server.http.get("/docs").text
    assert "swagger-ui" in page
    # Every script is a file (the CSP allows no inline one), and every file is ours.
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    links = re.findall(r"""(?:src|href)=["']([^"']+)""", page)
    assert len(links) >= 4
    for link in links:
        assert link.startswith("/") and not link.startswith("//"), link
        assert server.http.get(link).status_code == 200, link
    start_js = server.http.get("/docs/start.js").text
    assert "'/openapi.json'" in start_js and "validatorUrl: null" in start_js
    assert server.http.get("/redoc").status_code == 404


# -- WebSocket origins --------------------------------------------------------------------------


async def opens(server: ServerThread, origin: str | None, table: str = "nope") -> bool:
    """Whether a WebSocket with this Origin header is accepted (False: refused with 403)."""
    url = server.base.replace("http", "ws") + f"/ws/tables/{table}"
    try:
        async with ws_connect(url, origin=None if origin is None else Origin(origin)) as ws:
            # Accepted: the table's own answer (there is no such table) comes through.
            assert json.loads(await ws.recv())["code"] == "no_table"
            return True
    except InvalidStatus as exc:
        assert exc.response.status_code == 403
        return False


def test_a_websocket_from_another_site_is_refused(start: Start) -> None:
    server = start()
    assert not run(opens(server, "http://evil.example"))
    assert not run(opens(server, "null"))
    assert not run(opens(server, f"http://127.0.0.1:{server.port + 1}"))
    assert run(opens(server, server.base))
    assert run(opens(server, None))  # not a browser (tests, bots, pitkit's client)


def test_with_a_public_url_only_its_pages_open_websockets(start: Start) -> None:
    server = start(public_url="https://Pit.example.org:443/")
    # Named too, for browsers whose connect-src 'self' leaves WebSockets out (Safari < 16).
    csp = server.http.get("/").headers["content-security-policy"]
    assert "connect-src 'self' wss://pit.example.org;" in csp
    assert run(opens(server, "https://pit.example.org"))
    assert not run(opens(server, "http://pit.example.org"))
    assert not run(opens(server, server.base))


# -- invitation links ------------------------------------------------------------------------------


def invite(server: ServerThread, host: str | None = None) -> str:
    """Seat 0's invitation link from a table created with this Host header."""
    headers = {"Host": host} if host else {}
    response = server.http.post("/api/tables", json={"game": "pitty-pat"}, headers=headers)
    assert response.status_code == 201, response.text
    link: str = response.json()["seats"][0]["invite"]
    return link


def test_invitations_ignore_a_forged_host(start: Start) -> None:
    server = start()
    assert invite(server).startswith(f"{server.base}/t/")
    assert invite(server, f"localhost:{server.port}").startswith(
        f"http://localhost:{server.port}/t/"
    )
    forged_hosts = [
        "evil.example",
        f"evil.example:{server.port}",
        f"127.0.0.1:{server.port + 1}",
        f"127.0.0.1:{server.port}/evil",
        f"evil.example@127.0.0.1:{server.port}",
    ]
    for forged in forged_hosts:
        assert invite(server, forged).startswith("/t/"), forged


def test_invitations_use_the_public_url(start: Start) -> None:
    server = start(public_url="https://pit.example.org")
    for host in [None, "evil.example"]:
        assert invite(server, host).startswith("https://pit.example.org/t/")


def test_a_malformed_public_url_or_proxy_is_refused() -> None:
    for url in ["pit.example.org", "ftp://pit.example.org", "https://pit.example.org/play"]:
        with pytest.raises(ValueError):
            Site(public_url=url)
    with pytest.raises(ValueError, match="trusted proxy"):
        Site(trusted_proxies=("proxy.example",))
    assert Site(public_url="HTTPS://Pit.Example.org:443").public_url == "https://pit.example.org"


class _Transport(asyncio.Transport):
    """A socket's transport that only knows whether it was closed."""

    def __init__(self) -> None:
        super().__init__()
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pass  # the frames sent are not this test's subject

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


def test_a_server_stopping_closes_a_socket_whose_other_end_is_closing_it() -> None:
    """The stop of a server met a socket whose client had sent its close frame, not
    yet answered by the app: uvicorn's own shutdown raised there (websockets refuses a
    second close), and the rest of the server's stop did not happen."""
    loop = asyncio.new_event_loop()
    try:
        config = GuardedConfig(FastAPI(), Limits(), Site())
        ws = _GuardedWebSocket(config, ServerState(), {}, _loop=loop)
        ws.transport = _Transport()
        # The handshake is done (the app accepted it) ...
        ws.conn.receive_data(
            b"GET /ws HTTP/1.1\r\nHost: pitkit\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        (request,) = ws.conn.events_received()
        assert isinstance(request, Request)
        ws.conn.send_response(ws.conn.accept(request))
        ws.handshake_complete = True
        assert ws.conn.state is State.OPEN
        # ... and the client's close frame (masked, code 1000) arrives: uvicorn answers
        # it, tells the app and closes the transport; the socket is still among the
        # server's connections until the loop reports it lost.
        ws.data_received(b"\x88\x82\x00\x00\x00\x00\x03\xe8")
        assert ws.conn.state.name == "CLOSING" and not ws.close_sent
        assert ws.queue.get_nowait()["type"] == "websocket.disconnect"

        ws.shutdown()  # the server stops then: nothing raised
        assert ws.transport.is_closing()
    finally:
        loop.close()
