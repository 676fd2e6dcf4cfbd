"""The play protocol over WebSocket: views, updates, acks, errors, resync, rematch, stand-ins."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from pitkit import games
from pitkit.core.events import Event
from pitkit.server.client import RandomPlayer, TableClient
from tests.server.conftest import ServerThread, run
from tests.waiting import patience


def _two_player_table(server: ServerThread, **settings: Any) -> tuple[str, list[str], str]:
    created = server.create(game="ace-pit", seats=["open", "open"], settings=settings)
    return created["table"]["id"], [s["token"] for s in created["seats"]], created["host_token"]


async def _join(server: ServerThread, tid: str, token: str | None) -> TableClient:
    client = TableClient(server.base, tid, token)
    await client.connect(name="T")
    await client.recv_type("welcome")
    return client


def test_views_updates_acks_and_errors(server: ServerThread) -> None:
    tid, tokens, _ = _two_player_table(server)

    async def main() -> None:
        a = await _join(server, tid, tokens[0])
        b = await _join(server, tid, tokens[1])
        watcher = await _join(server, tid, None)
        for c in (a, b):
            await c.recv_type("sync")
        sync = await watcher.recv_type("sync")
        assert watcher.seat is None and sync["view"]["seat"] is None
        assert "hand" not in sync["view"] or not sync["view"]["hand"]
        mover, other = (a, b) if a.legal else (b, a)
        assert mover.legal and not other.legal
        v = mover.version
        assert v is not None
        # Errors name their reason and change nothing.
        await other.send({"type": "act", "action": "lead 2C", "version": v, "id": "x"})
        err = await other.recv_type("error")
        assert err["code"] == "not_your_turn" and err["id"] == "x" and err["version"] == v
        await mover.send({"type": "act", "action": "jump", "version": v})
        assert (await mover.recv_type("error"))["code"] == "bad_action"
        await mover.send({"type": "act", "action": mover.legal[0], "version": v + 5})
        assert (await mover.recv_type("error"))["code"] == "bad_version"
        await watcher.send({"type": "act", "action": mover.legal[0], "version": v})
        assert (await watcher.recv_type("error"))["code"] == "spectator"
        # A legal action: ack, then the update for everyone.
        await mover.send({"type": "act", "action": mover.legal[0], "version": v, "id": 7})
        ack = await mover.recv_type("ack")
        assert ack == {"type": "ack", "id": 7, "match": 1, "version": v + 1}
        for c in (mover, other, watcher):
            update = await c.recv_type("update")
            assert update["from"] == v and update["version"] == v + 1
            assert update["events"][0]["type"] == "action"
        # The same action again, on the old version: stale.
        await mover.send({"type": "act", "action": "lead 2C", "version": v})
        assert (await mover.recv_type("error"))["code"] in ("stale", "not_your_turn")
        await mover.send({"type": "ping", "id": "p"})
        assert (await mover.recv_type("pong"))["id"] == "p"
        await mover.send({"type": "sync"})
        assert (await mover.recv_type("sync"))["version"] == v + 1
        for c in (a, b, watcher):
            await c.close()

    run(main())


def test_resume_gets_missed_events_or_a_full_view(server: ServerThread) -> None:
    tid, tokens, _ = _two_player_table(server, away_timeout=0)

    async def main() -> None:
        a = await _join(server, tid, tokens[0])
        b = await _join(server, tid, tokens[1])
        players = [RandomPlayer(a, 1), RandomPlayer(b, 2)]
        await a.recv_type("sync")
        await b.recv_type("sync")
        # b leaves at once; a keeps playing through the rest of b's turns on its own.
        match, version = b.match, b.version
        await b.close()
        await b.connect(resume=True)
        await b.recv_type("welcome")
        assert b.version == version and b.match == match
        await players[0]._maybe_act()
        await players[1]._maybe_act()
        deadline = time.monotonic() + patience(5)
        while min(a.version or 0, b.version or 0) < 6 and time.monotonic() < deadline:
            for p in players:
                try:
                    m = await p.client.recv(0.05)
                except TimeoutError:
                    continue
                if m["type"] == "ack":
                    p.pending = None
                elif m["type"] in ("update", "sync", "error"):
                    p.pending = None if m["type"] == "error" else p.pending
                    await p._maybe_act()
        assert b.version and b.version >= 6
        # Reconnect from an older version: only the missed events come, as one update.
        old = b.version - 3
        b2 = TableClient(server.base, tid, b.token)  # the seat's own secret, since claimed
        b2.match, b2.version = b.match, old
        await b2.connect(resume=True)
        await b2.recv_type("welcome")
        update = await b2.recv()
        assert update["type"] == "update" and update["from"] == old
        # Unknown history (another match number): a full view.
        b3 = TableClient(server.base, tid, b.token)
        b3.match, b3.version = 99, 0
        await b3.connect(resume=True)
        await b3.recv_type("welcome")
        assert (await b3.recv())["type"] == "sync"
        for c in (a, b, b2, b3):
            await c.close()

    run(main())


def test_full_match_then_rematch_and_log(server: ServerThread) -> None:
    tid, tokens, _ = _two_player_table(server)

    async def main() -> None:
        clients = [await _join(server, tid, t) for t in tokens]
        players = [RandomPlayer(c, seed) for seed, c in enumerate(clients)]
        until = time.monotonic() + patience(30)
        await asyncio.gather(*(p.run(until) for p in players))
        assert all(c.over for c in clients)
        assert server.table(tid)["status"] == "over"
        # The log is published once the match is over, and replays to the same events.
        text = server.http.get(f"/api/tables/{tid}/matches/1/log").text
        lines = [json.loads(line) for line in text.splitlines()]
        header, events = lines[0], [Event.from_json(e) for e in lines[1:]]
        replayed = games.get("ace-pit").replay(header, events)
        assert replayed.is_over and len(replayed.log) == len(events)
        # A rematch starts when both players ask for it.
        await clients[0].send({"type": "rematch"})
        table = await clients[1].recv_type("table")
        while not table["table"]["seats"][0]["rematch"]:
            table = await clients[1].recv_type("table")
        await clients[1].send({"type": "rematch"})
        sync = await clients[0].recv_type("sync")
        assert sync["match"] == 2 and sync["version"] == 0
        await clients[0].send({"type": "rematch"})
        assert (await clients[0].recv_type("error"))["code"] == "not_over"
        for c in clients:
            await c.close()

    run(main())


def test_absent_player_is_replaced_by_a_bot_and_comes_back(server: ServerThread) -> None:
    tid, tokens, _ = _two_player_table(server, away_timeout=0.2)

    async def main() -> None:
        a = await _join(server, tid, tokens[0])
        b = await _join(server, tid, tokens[1])
        await a.recv_type("sync")
        await b.close()
        # b is away: the stand-in plays its turns, so a's game goes on.
        player = RandomPlayer(a, 3)
        await player._maybe_act()
        deadline = time.monotonic() + patience(10)
        while time.monotonic() < deadline and (a.version or 0) < 20:
            message = await a.recv(5)
            if message["type"] == "ack":
                player.pending = None
            elif message["type"] in ("update", "error"):
                player.pending = None if message["type"] == "error" else player.pending
                await player._maybe_act()
        assert (a.version or 0) >= 20
        assert server.table(tid)["seats"][1]["away"] is True
        b2 = await _join(server, tid, b.token)  # the seat's own secret, since claimed
        info = server.table(tid)
        assert info["seats"][1]["away"] is False and info["seats"][1]["connected"] is True
        await b2.close()
        await a.close()

    run(main())


def test_bot_tables_play_to_the_end(server: ServerThread) -> None:
    ids = [
        server.create(game=name, seats=["random"] * games.get(name).default_players)["table"]["id"]
        for name in ("pitty-pat", "ace-pit")
    ]
    for tid in ids:
        info = server.wait_for(tid, "over", timeout=30)
        assert info["outcome"] and info["version"] > 10


def test_views_in_updates_keep_the_client_view_exact(server: ServerThread) -> None:
    """A client that asks for views in its hello holds, after every update, exactly the
    view a `sync` would send (less the history), though updates leave out the match's
    record while it does not change."""
    created = server.create(game="ace-pit", seats=["open", "random"])
    tid, token = created["table"]["id"], created["seats"][0]["token"]

    async def main() -> None:
        client = TableClient(server.base, tid, token)
        watcher = TableClient(server.base, tid, None)
        await client.connect(views=True)
        await watcher.connect(views=True)
        await RandomPlayer(client, 3).run(time.monotonic() + patience(30))
        assert client.over
        while not watcher.over:
            await watcher.recv()
        updates = [m for m in client.log if m["type"] == "update"]
        assert all("view" in m for m in updates)
        assert any("match" not in m["view"] for m in updates)
        assert sum("match" in m["view"] for m in updates) >= 2  # hands ended
        for c in (client, watcher):
            held = dict(c.view or {})
            await c.send({"type": "sync"})
            fresh = dict((await c.recv_type("sync"))["view"])
            held.pop("history", None)  # an update's view holds none: the events are its history
            del fresh["history"]
            assert held == fresh
            await c.close()

    run(main())
