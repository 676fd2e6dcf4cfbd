"""Malformed and hostile messages: each gets an error reply, nothing changes, nothing crashes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from pitkit.server import Limits
from pitkit.server.client import TableClient
from tests.server.conftest import ServerThread, run


def _hostile(rng: random.Random, version: int, legal: list[str], other: list[str]) -> list[Any]:
    """Messages that must all be refused by a seat whose legal actions are `legal`."""
    junk_actions: list[Any] = [
        "",
        " ",
        "lead",
        "lead ZZ",
        "lead 2C 3C 4C",
        "x" * 3000,
        "lead 10X",
        "☃ ♠",
        "\x00\x01",
        42,
        None,
        [],
        ["lead", "2C"],
        {"kind": "lead"},
        {"kind": "nope"},
        {"kind": 5},
        {"kind": "lead", "card": 7},
        {"kind": "lead", "card": "2C", "extra": 1},
        {"kind": "lead", "card": {"$gt": ""}},
        *other,
    ]
    bad_versions: list[Any] = [None, "1", 1.5, True, -1, 2**40, [version], version + 1]
    out: list[Any] = [
        b"\x00\xff binary",
        "not json",
        "{",
        "[" * 5000,
        '{"type": "act", "action": "' + "a" * 5000 + '", "version": 0}',
        "null",
        "17",
        '"hello"',
        "[]",
        '{"type": NaN}',
        '{"type": "act", "version": Infinity, "action": "x"}',
        {},
        {"type": None},
        {"type": "launch"},
        {"type": "act"},
        {"type": "act", "version": version},
        {"type": "hello"},
        {"type": "hello", "token": "x"},
        {"type": "ping", "id": {"a": 1}},
        {"type": "ping", "id": "x" * 100},
        {"type": "sync", "extra": 1},
        {"type": "rematch"},
        {"type": "act", "action": legal[0] if legal else "lead 2C", "version": version, "seats": 1},
    ]
    for action in junk_actions:
        out.append({"type": "act", "action": action, "version": version})
    for bad in bad_versions:
        out.append({"type": "act", "action": legal[0] if legal else "draw", "version": bad})
    for _ in range(60):
        size = rng.randrange(1, 200)
        out.append("".join(chr(rng.randrange(1, 0x3000)) for _ in range(size)))
        out.append(bytes(rng.randrange(256) for _ in range(size)))
        out.append(
            {rng.choice(["type", "action", "version", "id", "token"]): rng.choice(junk_actions)}
        )
    rng.shuffle(out)
    return out


async def _send_raw(client: TableClient, message: Any) -> None:
    assert client.ws is not None
    if isinstance(message, bytes | str):
        await client.ws.send(message)
    else:
        await client.ws.send(json.dumps(message))


def test_hostile_messages_change_nothing(server: ServerThread) -> None:
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        clients = [TableClient(server.base, tid, t) for t in tokens]
        watcher = TableClient(server.base, tid, None)
        for c in [*clients, watcher]:
            await c.connect()
        for c in [*clients, watcher]:
            await c.recv_type("sync")
        before = server.table(tid)
        views = {c.seat: c.view for c in [*clients, watcher]}
        mover = next(c for c in clients if c.legal)
        rng = random.Random(8)
        sent = 0
        for client in [*clients, watcher]:
            version = client.version or 0
            # The mover's own legal actions, sent by anyone else, are refused too.
            others = [] if client is mover else mover.legal
            for message in _hostile(rng, version, client.legal, others):
                await _send_raw(client, message)
                reply = await client.recv(5)
                while reply["type"] == "table":  # seat news, sent to everyone
                    reply = await client.recv(5)
                assert reply["type"] == "error", (message, reply)
                assert reply["code"] and reply["reason"]
                sent += 1
        # A stranger with bad hellos, and one that never says hello properly.
        stranger = TableClient(server.base, tid, "not-a-token")
        await stranger.connect()
        assert (await stranger.recv())["code"] == "bad_token"
        await _send_raw(stranger, {"type": "act", "action": mover.legal[0], "version": 0})
        assert (await stranger.recv())["code"] == "hello_first"
        await stranger.close()
        # A frame over the transport's limit closes only that socket.
        big = TableClient(server.base, tid, None)
        await big.connect()
        await big.recv_type("welcome")
        with pytest.raises((ConnectionClosed, TimeoutError)):
            await _send_raw(big, "x" * (server.limits.frame_bytes + 10))
            for _ in range(10):
                await big.recv(5)
        # Nothing changed: same version, same player to act, same views.
        after = server.table(tid)
        assert (after["version"], after["to_act"]) == (before["version"], before["to_act"])
        for c in [*clients, watcher]:
            await c.send({"type": "sync"})
            assert (await c.recv_type("sync"))["view"] == views[c.seat]
        assert server.http.get("/healthz").json()["ok"]
        # And the game goes on.
        await mover.send({"type": "act", "action": mover.legal[0], "version": mover.version})
        assert (await mover.recv_type("ack"))["version"] == (mover.version or 0) + 1
        assert sent > 500
        for c in [*clients, watcher]:
            await c.close()

    run(main())


def test_rate_limit_drops_then_disconnects(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, Limits(rate=5, burst=10, abuse_close=20))
    try:
        tid = server.create(game="pitty-pat", seats=["open"] * 3)["table"]["id"]

        async def main() -> None:
            client = TableClient(server.base, tid, None)
            await client.connect()
            codes: list[str] = []
            with pytest.raises(ConnectionClosed):
                for i in range(200):
                    await client.send({"type": "ping", "id": i})
                for _ in range(300):
                    message = await client.recv(5)
                    codes.append(message.get("code", message["type"]))
            assert "rate_limited" in codes and "pong" in codes
            assert client.ws is not None and client.ws.close_code == 1008
            assert server.http.get("/healthz").json()["ok"]

        run(main())
    finally:
        server.stop()
