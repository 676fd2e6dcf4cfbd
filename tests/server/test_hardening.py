"""What one stranger can do to the server: each stall or abuse found by an
adversarial tester, bounded. Bots' thinking, match length and pace, closed and
expired tables, the table cap, sockets at a table, a failing or hanging database,
and slow work kept off the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Connection

from pitkit import games
from pitkit.bots.search import Budget
from pitkit.server import Limits
from pitkit.server.client import TableClient
from pitkit.server.live import manager
from pitkit.server.live.thinking import Thinker
from pitkit.server.ops.settings import database_url
from pitkit.server.store import storage
from pitkit.server.store.storage import Store, StoreTimeoutError, StoreUnsureError
from tests.server.conftest import FAST, ServerThread, run
from tests.server.processes import Process, free_port
from tests.waiting import patience, wait_until


def _with(**changes: Any) -> Limits:
    return Limits(**{**FAST.__dict__, **changes})


@pytest.fixture
def make_server(tmp_path: Path, database: str) -> Iterator[Callable[..., ServerThread]]:
    """A server on SQLite or PostgreSQL with some limits changed (FAST's otherwise)."""
    started: list[ServerThread] = []

    def make(**changes: Any) -> ServerThread:
        s = ServerThread(tmp_path, _with(**changes), database=database)
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


def _join(server: ServerThread, tid: str, token: str | None) -> TableClient:
    return TableClient(server.base, tid, token)


async def _seated(
    server: ServerThread, tid: str, tokens: list[str]
) -> tuple[list[TableClient], TableClient]:
    """Every seat's player at the table, once the match has started, and the one to move.
    `tokens` become the seats' own secrets (claiming a seat replaces its invitation)."""
    clients = [_join(server, tid, t) for t in tokens]
    for c in clients:
        await c.connect(name="P")
    for c in clients:
        await c.recv_type("sync")
    tokens[:] = [str(c.token) for c in clients]
    return clients, next(c for c in clients if c.legal)


# -- bots' thinking ------------------------------------------------------------------


def test_a_bot_may_not_think_longer_than_the_cap(make_server: Callable[..., ServerThread]) -> None:
    server = make_server(bot_seconds=2.0)
    refused = server.http.post(
        "/api/tables", json={"game": "ace-pit", "seats": ["search:3600s", "random"]}
    )
    assert refused.status_code == 400
    assert "at most 2 s a move" in refused.json()["detail"]
    created = server.create(game="ace-pit", seats=["open", "open"])
    seat = server.http.put(
        f"/api/tables/{created['table']['id']}/seats/1",
        json={"bot": "rollouts:5s"},
        headers={"Authorization": f"Bearer {created['host_token']}"},
    )
    assert seat.status_code == 400 and "at most 2 s" in seat.json()["detail"]
    assert server.table(created["table"]["id"])["seats"][1]["kind"] == "open"


def test_an_iteration_budget_gets_the_time_cap_too() -> None:
    thinker = Thinker(Limits(bot_seconds=1.5))
    game = games.get("pits")
    bot = thinker.make(game, "search:100000000", 1)
    assert bot.budget == Budget(100000000, 1.5)  # type: ignore[attr-defined]
    assert thinker.make(game, "search:0.5s", 1).budget == Budget(None, 0.5)  # type: ignore[attr-defined]
    # A table stored before the cap was lowered keeps its bot, cut down to the cap.
    assert thinker.make(game, "search:60s", 1).budget == Budget(None, 1.5)  # type: ignore[attr-defined]


class _Owner:
    """Stands for the table asking."""


def test_search_bots_think_in_another_process_and_come_back_moved_on() -> None:
    async def main() -> None:
        # The first move starts the worker process (and the fork server it comes from: a
        # fresh interpreter), which a busy machine takes its time over: the bot's time
        # is scaled like any wait.
        thinker = Thinker(Limits(bot_processes=1, bot_seconds=patience(10.0)))
        try:
            game = games.get("ace-pit")
            match = game.new_match(2, {}, 7)
            seat = sorted(match.to_act)[0]
            bot = thinker.make(game, "search:50", 3)
            action, after = await thinker.decide(_Owner(), bot, match.clone(), seat)
            assert action in match.legal_actions(seat)
            assert after is not bot  # a copy, back from the worker process
            assert after.rng.getstate() != bot.rng.getstate()  # type: ignore[attr-defined]
        finally:
            await thinker.close()

    run(main())


def test_tables_of_search_bots_do_not_stall_another_table(
    make_server: Callable[..., ServerThread],
) -> None:
    """Eight tables of the most expensive bots the cap allows, thinking all the
    time; a table of quick bots beside them still plays its match to the end."""
    server = make_server(bot_seconds=1.0, bot_processes=1, bot_actions_per_second=1000)
    busy = [server.create(game="pits", seats=["search:1s"] * 5)["table"]["id"] for _ in range(8)]
    quick = server.create(game="ace-pit", seats=["greedy", "random"])["table"]["id"]
    assert server.wait_for(quick, "over", timeout=60)["outcome"]
    assert all(server.table(t)["status"] == "playing" for t in busy)


# -- match length and pace -------------------------------------------------------------


def test_a_match_is_stopped_at_the_move_limit(make_server: Callable[..., ServerThread]) -> None:
    server = make_server(match_actions=40, bot_actions_per_second=1000)
    tid = server.create(game="pitch", rules={"target": 1000}, seats=["random"] * 4)["table"]["id"]
    info = server.wait_for(tid, "closed")
    assert info["version"] == 40 and "stopped after 40 moves" in info["problem"]
    time.sleep(0.2)  # in which no bot may move: a duration, not a deadline
    assert server.table(tid)["version"] == 40  # the bots have stopped


def test_a_tables_bots_are_paced(make_server: Callable[..., ServerThread]) -> None:
    server = make_server(bot_actions_per_second=10)
    tid = server.create(game="pitty-pat", seats=["random"] * 3)["table"]["id"]
    start = time.monotonic()
    time.sleep(1.0)  # the pace under test: a duration, measured below (not scaled)
    version = server.table(tid)["version"]
    elapsed = time.monotonic() - start
    assert 0 < version <= 2 + 10 * elapsed  # one at once, then ten a second at most


def test_the_host_closes_a_table(make_server: Callable[..., ServerThread]) -> None:
    server = make_server()
    created = server.create(game="ace-pit", seats=["open", "random"])
    tid, token = created["table"]["id"], created["seats"][0]["token"]
    assert server.http.delete(f"/api/tables/{tid}").status_code == 403
    stranger = {"Authorization": f"Bearer {token}"}
    assert server.http.delete(f"/api/tables/{tid}", headers=stranger).status_code == 403
    host = {"Authorization": f"Bearer {created['host_token']}"}
    closed = server.http.delete(f"/api/tables/{tid}", headers=host)
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert closed.json()["problem"] == "the host closed the table"
    joined = server.http.post(f"/api/tables/{tid}/join", json={"token": token, "name": "Al"})
    assert joined.status_code == 409
    assert server.http.post(f"/api/tables/{tid}/start", headers=host).status_code == 409


def test_a_closed_table_takes_no_more_moves(make_server: Callable[..., ServerThread]) -> None:
    server = make_server()
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]

    async def main() -> None:
        clients, mover = await _seated(server, tid, tokens)
        host = {"Authorization": f"Bearer {created['host_token']}"}
        async with httpx.AsyncClient(base_url=server.base) as http:
            assert (await http.delete(f"/api/tables/{tid}", headers=host)).status_code == 200
        await mover.send({"type": "act", "action": mover.legal[0], "version": mover.version})
        error = await mover.recv_type("error")
        assert error["code"] == "closed" and error["reason"] == "the host closed the table"
        for c in clients:
            await c.close()

    run(main())
    assert server.table(tid)["version"] == 0


# -- the table cap, expiry, and one address's share -------------------------------------------


def test_waiting_tables_expire_and_free_the_cap(make_server: Callable[..., ServerThread]) -> None:
    # The three requests below come within a second (scaled) of each other.
    server = make_server(tables=2, waiting_seconds=patience(1.0), idle_seconds=patience(1.0))
    first = server.create(game="ace-pit", seats=["open", "open"])["table"]["id"]
    server.create(game="ace-pit", seats=["open", "open"])
    full = server.http.post("/api/tables", json={"game": "ace-pit", "seats": ["open", "open"]})
    assert full.status_code == 400 and "as many tables as it can" in full.json()["detail"]
    wait_until(
        lambda: server.http.get("/healthz").json()["tables"] == 0,
        10,
        "the waiting tables to expire",
        every=0.1,
    )
    server.create(game="ace-pit", seats=["open", "open"])
    expired = server.table(first)  # still readable, from the database
    assert expired["status"] == "expired" and expired["problem"]


def test_a_watched_waiting_table_does_not_expire(
    make_server: Callable[..., ServerThread],
) -> None:
    # A second to spare (scaled) before the watcher comes and after it goes: 0.3 s was
    # once too little on a machine busy only with the suite.
    waiting = patience(1.0)
    server = make_server(waiting_seconds=waiting)
    tid = server.create(game="ace-pit", seats=["open", "open"])["table"]["id"]

    async def main() -> None:
        watcher = _join(server, tid, None)
        await watcher.connect()
        await watcher.recv_type("welcome")
        # Longer than the table may wait unwatched, in which it must not expire (a
        # duration, not a deadline).
        await asyncio.sleep(1.5 * waiting)
        await watcher.close()

    run(main())
    assert server.table(tid)["status"] == "waiting"


def test_one_address_holds_a_bounded_number_of_tables(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(tables_per_address=3)
    for _ in range(3):
        server.create(game="ace-pit", seats=["open", "open"])
    refused = server.http.post("/api/tables", json={"game": "ace-pit", "seats": ["open", "open"]})
    assert refused.status_code == 400 and "the most one address may have" in refused.text


# -- sockets at a table ----------------------------------------------------------------------


def test_spectators_never_lock_a_player_out(make_server: Callable[..., ServerThread]) -> None:
    server = make_server(spectators_per_table=3, sockets_per_seat=2)
    created = server.create(game="ace-pit", seats=["open", "random"])
    tid, token = created["table"]["id"], created["seats"][0]["token"]

    async def main() -> None:
        watchers = [_join(server, tid, None) for _ in range(4)]
        for w in watchers[:3]:
            await w.connect()
            await w.recv_type("welcome")
        await watchers[3].connect()
        assert (await watchers[3].recv_type("error"))["code"] == "table_full"
        devices = [_join(server, tid, token)]
        await devices[0].connect(name="Al")
        await devices[0].recv_type("welcome")
        # The same player on two more devices, with the seat's own secret.
        devices += [_join(server, tid, devices[0].token) for _ in range(2)]
        for d in devices[1:]:
            await d.connect(name="Al")
            await d.recv_type("welcome")
        # The seat's third socket closed its oldest: the newest device wins.
        assert (await devices[0].recv_type("error"))["code"] == "bad_token"
        for c in [*watchers[:3], *devices[1:]]:
            await c.close()

    run(main())


# -- a failing or hanging database ----------------------------------------------------------


def _fail_next_step(
    monkeypatch: pytest.MonkeyPatch, wrap: Callable[[Any], Any], table_id: str
) -> None:
    """The next step stored at table `table_id` goes through `wrap` (which may fail or
    hang); later ones don't, nor any other table's (another test's server may be
    running in this process, as under pytest-xdist)."""
    real = storage.append_step
    used = threading.Event()

    def append_step(*args: Any, **kwargs: Any) -> Callable[[Connection], None]:
        job = real(*args, **kwargs)
        if used.is_set() or args[0] != table_id:
            return job
        used.set()
        return wrap(job)  # type: ignore[no-any-return]

    monkeypatch.setattr(storage, "append_step", append_step)


def _first_move(server: ServerThread, tid: str, tokens: list[str]) -> Any:
    """The first move, refused: its action, version, the error and the seconds it took."""

    async def main() -> tuple[str, int, dict[str, Any], float]:
        clients, mover = await _seated(server, tid, tokens)
        action, version = mover.legal[0], mover.version
        assert version is not None
        sent = time.monotonic()
        await mover.send({"type": "act", "action": action, "version": version})
        answer = await mover.recv_type("error", timeout=20)
        took = time.monotonic() - sent
        for c in clients:
            await c.close()
        return action, version, answer, took

    return run(main())


def test_a_failed_store_leaves_the_table_as_it_was(
    make_server: Callable[..., ServerThread],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    database: str,
) -> None:
    def failing(job: Any) -> Any:
        def job_that_fails(conn: Connection) -> None:
            raise RuntimeError("the database refused the write")

        return job_that_fails

    server = make_server()
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]
    _fail_next_step(monkeypatch, failing, tid)
    action, version, answer, _ = _first_move(server, tid, tokens)
    assert answer["code"] == "server_error" and answer["version"] == version
    assert server.table(tid)["version"] == version

    async def again() -> None:
        clients, mover = await _seated(server, tid, tokens)
        await mover.send({"type": "act", "action": action, "version": version})
        assert (await mover.recv_type("ack"))["version"] == version + 1
        for c in clients:
            await c.close()

    run(again())
    server.stop()
    # After a restart the table replays: no gap, nothing lost, not broken.
    restarted = ServerThread(tmp_path, FAST, database=database)
    try:
        info = restarted.table(tid)
        assert info["status"] == "playing" and info["version"] == version + 1
    finally:
        restarted.stop()


def test_a_hanging_database_gets_an_answer_in_time(
    make_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database takes longer than the server waits while it stores the move: the
    player hears at once that it may still land (not "nothing changed"), and when the
    write lands after all, the table catches up with it."""

    # The answer comes at the server's 0.5 s; the slack (scaled for a busy machine) is
    # kept short of the write's own end, which comes later still.
    in_time = 0.5 + patience(0.9)

    def hanging(job: Any) -> Any:
        def slow_job(conn: Connection) -> None:
            time.sleep(in_time + 0.1)
            job(conn)

        return slow_job

    server = make_server(store_seconds=0.5)
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]
    _fail_next_step(monkeypatch, hanging, tid)
    _, version, answer, took = _first_move(server, tid, tokens)
    assert answer["code"] == "unconfirmed" and took < in_time, took
    wait_until(  # the late write, taken in
        lambda: server.table(tid)["version"] == version + 1, 10, "the late write to land"
    )
    assert server.table(tid)["status"] == "playing"


def test_a_write_given_up_before_it_began_never_lands(tmp_path: Path) -> None:
    """Behind a commit the database hangs on, a caller who gives up is told nothing was
    stored, and that is true: the writer skips the job. The hanging one may land."""
    store = Store(f"sqlite:///{tmp_path}/pitkit.db", timeout=0.2)
    store.start()
    begun, gate, ran = threading.Event(), threading.Event(), threading.Event()
    try:

        def hang(_conn: Connection) -> bool:
            begun.set()
            return gate.wait(patience(10))

        async def main() -> list[Any]:
            hanging = asyncio.ensure_future(store.run(hang))
            assert await asyncio.to_thread(begun.wait, patience(10))
            queued = asyncio.ensure_future(store.run(lambda _conn: ran.set()))
            answers = await asyncio.gather(hanging, queued, return_exceptions=True)
            gate.set()
            await store.run(lambda _conn: None)  # the writer is past both
            return list(answers)

        hung, skipped = asyncio.run(main())
        assert isinstance(hung, StoreUnsureError)
        assert isinstance(skipped, StoreTimeoutError)
        assert not isinstance(skipped, StoreUnsureError)
        assert not ran.is_set()
    finally:
        gate.set()
        store.close()


# -- slow work off the event loop --------------------------------------------------------------


def _finished_table(server: ServerThread) -> str:
    tid: str = server.create(game="ace-pit", seats=["greedy", "random"])["table"]["id"]
    server.wait_for(tid, "over", timeout=60)
    return tid


def _blocked(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> tuple[Any, Any]:
    """Make `module.name` wait for a go-ahead: (entered, go) events."""
    real = getattr(module, name)
    entered, go = threading.Event(), threading.Event()

    def slow(*args: Any) -> Any:
        entered.set()
        assert go.wait(patience(20))
        return real(*args)

    monkeypatch.setattr(module, name, slow)
    return entered, go


def test_a_finished_table_is_replayed_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: str
) -> None:
    server = ServerThread(tmp_path, FAST, database=database)
    tid = _finished_table(server)
    server.stop()
    # Finished tables are not loaded at start.
    restarted = ServerThread(tmp_path, FAST, database=database)
    try:
        entered, go = _blocked(monkeypatch, manager, "rebuild")
        result: dict[str, Any] = {}
        url = f"{restarted.base}/api/tables/{tid}"
        reader = threading.Thread(
            target=lambda: result.update(info=httpx.get(url, timeout=patience(30)))
        )
        reader.start()
        assert entered.wait(patience(10))
        healthz = httpx.get(f"{restarted.base}/healthz", timeout=patience(3))
        assert healthz.status_code == 200
        go.set()
        reader.join()
        assert result["info"].json()["status"] == "over"
    finally:
        restarted.stop()


def test_one_address_hammering_a_url_is_slowed(make_server: Callable[..., ServerThread]) -> None:
    """A client re-reading one URL as fast as it can meets a 429; the rate refills."""
    server = make_server(requests_per_second=5, request_burst=10)
    codes = [server.http.get("/healthz").status_code for _ in range(15)]
    assert codes[:10] == [200] * 10 and 429 in codes[10:]
    time.sleep(0.5)  # the refill under test (2.5 requests' worth): a duration
    assert server.http.get("/healthz").status_code == 200


def _descendants(pid: int) -> dict[int, int]:
    """The processes started by `pid`, and by those, and so on (Linux /proc), each with
    its parent's: the server's fork server (and resource tracker), and the workers
    forked from the fork server."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(stat[1])
    found: dict[int, int] = {}
    more = {pid}
    while more:
        more = {child for child, parent in parents.items() if parent in more} - set(found)
        found |= {child: parents[child] for child in more}
    return found


def test_sigterm_stops_a_server_whose_bots_are_searching(tmp_path: Path) -> None:
    """SIGTERM while search bots think: the server and its bot processes exit
    promptly (it once hung behind a bot with an unbounded budget)."""
    server = Process(tmp_path, free_port(), database_url(str(tmp_path), None))
    try:
        tid = server.create(game="pits", seats=["search:3s"] * 5, settings={"bot_delay": 0})

        def started() -> dict[int, int]:
            """The server's processes, once a bot process is among them (one forked
            from its fork server, not started by the server itself); else none."""
            found = _descendants(server.proc.pid)
            return found if any(p != server.proc.pid for p in found.values()) else {}

        workers = wait_until(started, 20, "the bot process to start", every=0.1)
        assert server.table(tid["table"]["id"])["status"] == "playing"
        server.proc.terminate()
        # uvicorn shuts down, then re-raises the signal so that the exit status tells it.
        assert server.proc.wait(patience(20)) in (0, -signal.SIGTERM)
        wait_until(
            lambda: not any(Path(f"/proc/{worker}").exists() for worker in workers),
            10,
            "the bot processes to end with the server",
            every=0.1,
        )
    finally:
        server.stop()
