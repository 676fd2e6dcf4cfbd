"""Several workers on one PostgreSQL: a table runs in one worker at a time, moves to
the worker the proxy sends it to, and survives its worker's death (owners.py, proxy.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pitkit.server.client import RandomPlayer, TableClient
from pitkit.server.ops.proxy import find_haproxy, haproxy_config, start_haproxy
from pitkit.server.store.owners import HANDOFF, PostgresOwners
from tests.postgres import REQUIRE_ENV, PostgresServer
from tests.server.conftest import FAST, ServerThread, run
from tests.server.processes import (
    Process,
    acknowledged_are_stored,
    free_port,
    stored_table,
    wait_until_healthy,
)
from tests.waiting import patience, until, wait_until

WORKER = [sys.executable, "-m", "tests.server.fast_worker"]


async def _nothing() -> None:
    """A worker's `lost` that does nothing (the test looks at its locks instead)."""


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """A new, empty PostgreSQL database."""
    return postgres.new_database()


def test_a_table_is_owned_by_one_worker_and_handed_over_on_request(pg_url: str) -> None:
    async def scenario() -> None:
        a, b = PostgresOwners(pg_url, heartbeat=0.2), PostgresOwners(pg_url, heartbeat=0.2)
        handed: list[str] = []
        lost: list[bool] = []

        async def a_releases(table_id: str) -> None:
            handed.append(table_id)
            await a.release(table_id)

        async def refuse(table_id: str) -> None:
            pass  # b never lets go (a worker mid-load would finish first)

        async def a_lost() -> None:
            lost.append(True)

        await a.start(a_releases, a_lost)
        await b.start(refuse, _nothing)
        try:
            assert await a.claim("t1", wait=0)
            assert await a.claim("t1", wait=0)  # again: still one lock
            assert not await b.claim("t1", wait=0)
            assert await b.unowned(["t1", "t2"]) == ["t2"]
            # b is sent t1: it asks, a lets go, b takes it.
            assert await b.claim("t1", wait=patience(3))
            assert handed == ["t1"] and "t1" not in a.held
            # a cannot take it back from a worker that will not let go (in 0.3 s: how
            # long it tries, under test; not a deadline).
            assert not await a.claim("t1", wait=0.3)
            # A lost session frees every lock, and its worker hears of it.
            assert await a.claim("t3", wait=0)
            pid = (await (await a._locks.execute("SELECT pg_backend_pid()")).fetchone())[0]
            await b._locks.execute("SELECT pg_terminate_backend(%s)", (pid,))
            await until(lambda: lost, 2.5, "a to hear that its session was lost")
            assert not a.held
            assert await b.claim("t3", wait=0)
        finally:
            await a.close()
            await b.close()

    run(scenario())


def test_a_worker_does_not_hear_its_own_ask_as_anothers(pg_url: str) -> None:
    """A worker asks for a table, again every half second, until its holder lets go.
    An ask still on its way when the table became its own must not make it let go of
    what it just took (a busy machine delivered one late: the new holder unloaded the
    table under its player, who was told to try again)."""

    async def scenario() -> None:
        a = PostgresOwners(pg_url, heartbeat=0.2)
        handed: list[str] = []

        async def a_releases(table_id: str) -> None:
            handed.append(table_id)
            await a.release(table_id)

        await a.start(a_releases, _nothing)
        try:
            assert await a.claim("t1", wait=0) and await a.claim("t2", wait=0)
            # a's own ask for t1, late (as `claim` sends it), then another worker's for t2.
            await a._sql("SELECT pg_notify(%s, %s)", HANDOFF, "t1")
            async with await psycopg.AsyncConnection.connect(a.dsn, autocommit=True) as other:
                await other.execute("SELECT pg_notify(%s, %s)", (HANDOFF, "t2"))
            # Asks arrive in order: once t2 is handed over, the ask for t1 was heard.
            await until(lambda: "t2" in handed, 2.5, "a to hand t2 over")
            assert handed == ["t2"] and "t1" in a.held
        finally:
            await a.close()

    run(scenario())


def test_a_table_moves_to_another_worker_and_play_goes_on(tmp_path: Path, pg_url: str) -> None:
    first = ServerThread(tmp_path / "a", FAST, database=pg_url)
    second = ServerThread(tmp_path / "b", FAST, database=pg_url)
    try:
        created = first.create(game="ace-pit", seats=[None, "random"])
        tid, token = created["table"]["id"], created["seats"][0]["token"]

        async def scenario() -> None:
            player = TableClient(first.base, tid, token)
            await player.connect(name="Ada")
            await player.recv_type("sync")
            # The proxy now sends this table to the second worker: it takes it over,
            # and the first closes the player's socket so that it reconnects there.
            assert second.table(tid)["players"] == 2
            with pytest.raises(ConnectionClosed) as closed:
                await player.recv_type("never", timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            assert tid not in first.app.state.manager.tables
            assert tid in second.app.state.manager.tables
            moved = TableClient(second.base, tid, player.token)  # the seat's own secret
            await moved.connect()
            assert (await moved.recv_type("sync"))["version"] >= player.version
            bot = RandomPlayer(moved, seed=1)
            await bot._maybe_act()
            await bot.run(time.monotonic() + patience(20))
            assert bot.acked and moved.over and not bot.errors
            await moved.close()

        run(scenario())
        assert second.table(tid)["status"] == "over"
    finally:
        first.stop()
        second.stop()


class Cluster:
    """PostgreSQL, HAProxy and `workers` fast workers on loopback."""

    def __init__(self, tmp_path: Path, url: str, workers: int) -> None:
        self.workers: list[Process] = []
        self.proxy: Any = None
        try:
            for i in range(workers):
                self.workers.append(Process(tmp_path / f"w{i}", free_port(), url, WORKER, "info"))
            port = free_port()
            listen = f"127.0.0.1:{port}"
            config = haproxy_config(listen, [f"127.0.0.1:{w.port}" for w in self.workers], 0.2)
            self.proxy = start_haproxy(config, quiet=True)
            self.base = f"http://{listen}"
            self.http = httpx.Client(base_url=self.base, timeout=patience(15))
            wait_until_healthy(self.http, self.proxy)
        except BaseException:
            self.stop()
            raise

    def get(self, path: str) -> dict[str, Any]:
        """GET through the proxy; a table moving between workers is asked again."""

        def answered() -> httpx.Response | None:
            response = self.http.get(path)
            return None if response.status_code == 503 else response

        response = wait_until(answered, 5, f"GET {path} to find its worker", every=0.25)
        assert response is not None  # (wait_until returns only an answer)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def logs(self) -> str:
        """What each worker logged last, for a failing test to show."""
        return "\n".join(f"-- worker {w.port}:\n{w.log_tail(60)}" for w in self.workers)

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(patience(10))


@pytest.fixture
def cluster(tmp_path: Path, pg_url: str) -> Iterator[Cluster]:
    try:
        find_haproxy()
    except FileNotFoundError as exc:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{exc} ({REQUIRE_ENV}=1)", pytrace=False)
        pytest.skip(str(exc))
    made = Cluster(tmp_path, pg_url, workers=3)
    yield made
    made.stop()


async def _play_on(player: RandomPlayer, deadline: float) -> None:
    """Play a seat through the proxy to the end of the match, reconnecting when a
    worker dies or hands the table over."""
    client = player.client
    while time.monotonic() < deadline:
        with contextlib.suppress(ConnectionClosed, OSError, InvalidStatus, TimeoutError):
            player.pending = None  # whatever was in flight is answered by the resync
            await client.connect(name="P", resume=True)
            await player._maybe_act()
            await player.run(deadline)
            if client.over:
                await client.close()
                return
        await asyncio.sleep(0.2)


def test_killing_a_worker_loses_no_acknowledged_action(cluster: Cluster, pg_url: str) -> None:
    fast = {"bot_delay": 0, "away_timeout": 0}
    create = cluster.http.post
    mixed = [("ace-pit", [None, None]), ("pitty-pat", [None, "random", None])]
    mixed += [("ace-pit", [None, "random"]), ("pitty-pat", [None, None])] * 2
    tables = []
    for game, seats in mixed:
        response = create("/api/tables", json={"game": game, "seats": seats, "settings": fast})
        assert response.status_code == 201, response.text
        tables.append(response.json())
    bot_only = []  # nobody connects to these: a live worker must adopt them
    for _ in range(3):
        body = {"game": "pitty-pat", "seats": ["random"] * 3, "settings": fast}
        bot_only.append(create("/api/tables", json=body).json()["table"]["id"])
    players = [
        RandomPlayer(TableClient(cluster.base, t["table"]["id"], s["token"]), seed=i)
        for i, (t, s) in enumerate(
            (t, s) for t in tables for s in t["seats"] if s["kind"] == "open"
        )
    ]

    async def scenario() -> None:
        deadline = time.monotonic() + patience(90)
        playing = [asyncio.create_task(_play_on(p, deadline)) for p in players]
        # Kill a worker once play is under way: every match started, some moves made.
        try:
            await until(
                lambda: (
                    all(p.client.version is not None for p in players)
                    and sum(len(p.acked) for p in players) >= 20
                ),
                30,
                "play to be under way at every table",
            )
        except AssertionError as exc:
            seats = [(p.client.url[-8:], p.client.version, len(p.acked)) for p in players]
            said = f"{exc}: (table, version, acks) {seats}\n{cluster.logs()}"
            raise AssertionError(said) from None
        busiest = max(cluster.workers, key=lambda w: w.http.get("/healthz").json()["tables"])
        assert busiest.http.get("/healthz").json()["tables"] > 0
        busiest.kill()  # in the middle of play, with actions in flight
        statuses = [cluster.get(f"/api/tables/{t['table']['id']}")["status"] for t in tables]
        assert statuses.count("playing") >= len(tables) // 2, statuses
        await asyncio.gather(*playing)

    run(scenario())
    unfinished = [p.client.url for p in players if not p.client.over]
    assert not unfinished, (
        f"players who did not see their match end: {unfinished}\n{cluster.logs()}"
    )
    deadline = time.monotonic() + patience(60)
    # Every table ends, the bot-only ones too (adopted by a live worker once theirs died).
    for tid in [t["table"]["id"] for t in tables] + bot_only:
        while (table := cluster.get(f"/api/tables/{tid}"))["status"] != "over":
            kind = "bots alone" if tid in bot_only else "with players"
            assert time.monotonic() < deadline, (
                f"table {tid} ({kind}) did not finish: {table}\n"
                f"{stored_table(pg_url, tid)}\n{cluster.logs()}"
            )
            time.sleep(0.2)

    # Every acknowledged action is stored as it was acknowledged, once.
    acked = [(p.client.url.rsplit("/", 1)[1], *a) for p in players for a in p.acked]
    assert len(acked) > 50
    stored = acknowledged_are_stored(pg_url, acked)
    print(f"{len(acked)} acknowledged actions, {stored} steps stored")


def test_pitkit_proxy_prints_a_valid_configuration_and_runs_it(tmp_path: Path) -> None:
    try:
        haproxy = find_haproxy()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    pitkit = [sys.executable, "-m", "pitkit.cli", "proxy"]
    printed = subprocess.run(
        [*pitkit, "--worker", "127.0.0.1:8001", "--worker", "127.0.0.1:8002", "--print"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    (tmp_path / "haproxy.cfg").write_text(printed)
    check = subprocess.run([haproxy, "-c", "-f", str(tmp_path / "haproxy.cfg")], check=False)
    assert check.returncode == 0 and "balance hdr(X-Pitkit-Table)" in printed
    wrong = subprocess.run([*pitkit, "--worker", "8001"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "is not host:port" in wrong.stdout

    # Run: it becomes HAProxy, which reaches the worker.
    worker = ServerThread(tmp_path, FAST)
    port = free_port()
    proxy = subprocess.Popen(
        [*pitkit, "--listen", f"127.0.0.1:{port}", "--worker", f"127.0.0.1:{worker.port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=patience(5)) as http:
            wait_until_healthy(http, proxy)
            assert http.get("/api/games").status_code == 200
    finally:
        proxy.terminate()
        assert proxy.wait(patience(10)) is not None  # SIGTERM reached HAProxy itself
        worker.stop()
