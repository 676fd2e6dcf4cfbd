"""Junk sockets (issue 36): a socket flooding malformed messages is cut off within a
second and dropped at once, is not read while over its budget, and its address backs
off, while a seat's holder at that address comes back to play."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from pitkit.server import Limits
from pitkit.server.client import TableClient
from tests.server.conftest import FAST, ServerThread, run
from tests.server.flood import dropped_within, flood, raw_socket
from tests.waiting import patience


def limited(**changes: Any) -> Limits:
    return Limits(**{**FAST.__dict__, **changes})


def refused(server: ServerThread, code: str) -> float:
    """Messages the server has refused with `code` so far (its /metrics)."""
    text = httpx.get(f"{server.base}/metrics").text
    found = re.search(rf'^pitkit_refusals_total{{code="{code}"}} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def test_a_flooding_socket_is_dropped_within_a_second(tmp_path: Path) -> None:
    """Once closed for abuse (1008), a socket is aborted: the server had gone on reading
    and parsing everything its client sent until the closing handshake timed out (10 s)."""
    server = ServerThread(tmp_path, Limits())  # the limits a public site runs
    try:
        table = server.create(game="ace-pit", seats=["open", "open"])["table"]["id"]
        with raw_socket(server.port, table) as sock:
            sock.sendall(b"\x81\x90\0\0\0\0" + b'{"type":"hello"}')
            took = flood(sock, within=patience(5)).dropped
        assert took is not None and took < dropped_within(), took
        assert server.http.get("/healthz").status_code == 200
    finally:
        server.stop()


def test_a_socket_over_its_budget_is_not_read(tmp_path: Path) -> None:
    """While over its budget, a socket is read at most 2 x abuse_close times a second
    (here 100): a client sending more waits, its messages unread. The rate here forgives
    what those reads refuse, so that the socket is slowed but never cut off. (The server
    used to read all it was sent, and after the close for abuse, discard it for 10 s.)"""
    server = ServerThread(tmp_path, limited(rate=100, burst=1, abuse_close=50))
    try:
        table = server.create(game="ace-pit", seats=["open", "open"])["table"]["id"]
        with raw_socket(server.port, table) as sock:
            before = refused(server, "hello_first") + refused(server, "rate_limited")
            flooded = flood(sock, within=1)  # a second of it: a duration, not a deadline
            read = refused(server, "hello_first") + refused(server, "rate_limited") - before
        assert flooded.dropped is None  # slowed, not cut off
        # Every message is refused (no hello: `hello_first`, or over the budget); some
        # 200 a second are read (100 refused, as many forgiven), a few more on the way.
        assert 0 < read < 400, read
        # What the server took: those, and what its buffers hold (a few 100 KiB).
        assert flooded.sent < 1024 * 1024, flooded.sent
    finally:
        server.stop()


def test_a_flooding_address_backs_off_but_its_players_play_on(tmp_path: Path) -> None:
    limits = limited(rate=10, burst=30, abuse_close=100, backoff_seconds=0.5)
    server = ServerThread(tmp_path, limits)
    try:
        created = server.create(game="ace-pit", seats=["open", "open"])
        table, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]

        async def check() -> None:
            ann = TableClient(server.base, table, tokens[0])
            await ann.connect(name="Ann")
            await ann.recv_type("welcome")
            with raw_socket(server.port, table) as sock:
                sock.sendall(b"\x81\x90\0\0\0\0" + b'{"type":"hello"}')
                assert flood(sock, within=patience(3)).dropped is not None
            # The address backs off: a spectator's socket from it is told to come back later.
            async with ws_connect(server.base.replace("http", "ws") + f"/ws/tables/{table}") as ws:
                await ws.send('{"type": "hello"}')
                answer = json.loads(await ws.recv())
                assert answer["code"] == "rate_limited" and "try in 1 s" in answer["reason"]
                try:
                    await asyncio.wait_for(ws.recv(), patience(5))
                except ConnectionClosed as exc:
                    assert exc.rcvd is not None and exc.rcvd.code == 1013
            # A seat's holder from that address is welcomed, and plays on.
            bob = TableClient(server.base, table, tokens[1])
            await bob.connect(name="Bob")
            assert (await bob.recv_type("welcome"))["seat"] == 1
            # Ann's socket was never slowed off: she still hears the table.
            await ann.send({"type": "ping", "id": 1})
            assert (await ann.recv_type("pong"))["id"] == 1
            # The back-off ends: a spectator is welcome again. (Not a wait for something to
            # happen: the back-off's own 0.5 s, since the drop, passing; not scaled.)
            await asyncio.sleep(0.6)
            watcher = TableClient(server.base, table)
            await watcher.connect()
            assert (await watcher.recv_type("welcome"))["seat"] is None
            for client in (ann, bob, watcher):
                await client.close()

        run(check())
    finally:
        server.stop()
