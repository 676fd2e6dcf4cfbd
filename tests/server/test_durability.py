"""SIGKILL the server in the middle of many games: every acknowledged action survives,
and every game goes on after a restart (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pitkit.server.client import RandomPlayer, TableClient
from tests.server.conftest import run
from tests.server.processes import Process, acknowledged_are_stored, free_port
from tests.waiting import patience, until, wait_until


async def _play(player: RandomPlayer, deadline: float) -> None:
    with contextlib.suppress(ConnectionClosed, OSError, InvalidStatus):
        await player.client.connect(name="P")
        await player.run(deadline, matches=5)


async def _watch(client: TableClient, seen: dict[str, int], deadline: float) -> None:
    with contextlib.suppress(ConnectionClosed, OSError, InvalidStatus):
        await client.connect()
        while time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                message = await client.recv(0.2)
                if message["type"] in ("update", "sync"):
                    seen[client.url] = message["version"]


@pytest.fixture
def serve(tmp_path: Path, database: str) -> Iterator[Callable[[], Process]]:
    """Starts `pitkit serve` on one port and database, as often as asked; whatever
    the test's outcome, no server outlives it."""
    port = free_port()
    started: list[Process] = []

    def start() -> Process:
        started.append(Process(tmp_path, port, database))
        return started[-1]

    yield start
    for process in started:
        process.stop()


def test_sigkill_loses_no_acknowledged_action(serve: Callable[[], Process], database: str) -> None:
    server = serve()
    slow_bots = {"bot_delay": 0.01, "away_timeout": 0}
    bot_tables = [
        server.create(game=g, seats=["random"] * n, settings=slow_bots)["table"]["id"]
        for g, n in [("pits", 5), ("pitch", 4), ("pits", 5), ("pitch", 4)]
    ]
    client_tables = [
        server.create(game=g, seats=["open"] * n, settings={"bot_delay": 0, "away_timeout": 0})
        for g, n in [("ace-pit", 2), ("pits", 5), ("pitty-pat", 3), ("pitch", 4)]
    ]
    players = [
        RandomPlayer(TableClient(server.base, t["table"]["id"], s["token"]), seed=i, think=0.002)
        for i, (t, s) in enumerate((t, s) for t in client_tables for s in t["seats"])
    ]
    watchers = [TableClient(server.base, tid, None) for tid in bot_tables]
    seen: dict[str, int] = {}

    async def first_run() -> None:
        deadline = time.monotonic() + patience(60)
        tasks = [asyncio.create_task(_play(p, deadline)) for p in players]
        tasks += [asyncio.create_task(_watch(w, seen, deadline)) for w in watchers]
        # Kill once play is in full swing (a busy machine takes longer to get there).
        await until(
            lambda: sum(len(p.acked) for p in players) > 100 and len(seen) == len(bot_tables),
            60,
            "play in full swing",
            every=0.1,
        )
        server.kill()  # in the middle of everything, with actions in flight
        await asyncio.gather(*tasks)

    run(first_run())
    acked = [(p.client.url.rsplit("/", 1)[1], *a) for p in players for a in p.acked]
    assert len(acked) > 100 and len(seen) == len(bot_tables)

    # Every acknowledged action is in the database, as it was acknowledged.
    stored = acknowledged_are_stored(database, acked)
    print(f"{len(acked)} acknowledged actions, {stored} steps stored")

    # After a restart every table is back, at least as far as anyone was told.
    server = serve()
    for url, version in seen.items():
        info = server.table(url.rsplit("/", 1)[1])
        assert info["version"] >= version or info["match"] > 1
    for p in players:
        tid = p.client.url.rsplit("/", 1)[1]
        mine = p.acked
        if mine:
            info = server.table(tid)
            assert info["match"] > mine[-1][0] or info["version"] >= mine[-1][1]

    # And every game goes on: bots by themselves, players when they come back.
    before = {tid: server.table(tid)["version"] for tid in bot_tables}
    resumed = [(t["table"]["id"], server.table(t["table"]["id"])["version"]) for t in client_tables]

    async def second_run() -> None:
        # Two seconds of play (more on a busy machine): each table takes a move in them.
        deadline = time.monotonic() + patience(2.0)
        for p in players:
            p.pending = None
        await asyncio.gather(*(_resume(p, deadline) for p in players))

    run(second_run())
    wait_until(lambda: all(_goes_on(server, t, before[t]) for t in bot_tables), 10, "bots' moves")
    for tid, version in resumed:
        info = server.table(tid)
        assert info["status"] == "over" or info["version"] > version


def _goes_on(server: Process, tid: str, version: int) -> bool:
    """Whether table `tid` is over or past `version`."""
    info = server.table(tid)
    return bool(info["status"] == "over" or info["version"] > version)


async def _resume(player: RandomPlayer, deadline: float) -> None:
    client = player.client
    await client.connect(resume=True)
    await player._maybe_act()
    with contextlib.suppress(ConnectionClosed):
        await player.run(deadline, matches=5)
