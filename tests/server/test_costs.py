"""What a stored action costs the server, kept down (issue 36): the match's record
built once a version for every seat, many tables' steps stored by one statement, one
wake-up of the event loop a commit, and JSON written by orjson, falling back to the
standard library for what orjson refuses."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, event, func, select

from pitkit.core.match import RECORD_CHANGES
from pitkit.server.live.conn import Conn, dumps
from pitkit.server.live.manager import Manager
from pitkit.server.live.messages import named
from pitkit.server.live.tables import Table
from pitkit.server.ops.metrics import Metrics
from pitkit.server.ops.settings import Limits, TableSettings
from pitkit.server.store import storage
from pitkit.server.store.storage import DatabaseError, SeatRecord, Store, TableRecord
from tests.server.conftest import FAST
from tests.waiting import patience, until


class Keeping:
    """A socket that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


async def _hold(store: Store, gate: threading.Event) -> asyncio.Future[Any]:
    """A job that holds the store's writer until `gate` is set, once the writer has
    begun it: the jobs that follow queue up behind it."""
    begun = threading.Event()

    def hold(_conn: Connection) -> bool:
        begun.set()
        return gate.wait(patience(10))

    held = asyncio.ensure_future(store.run(hold))
    await until(begun.is_set, 10, "the writer to begin the holding job")
    return held


async def _queued(store: Store, jobs: int) -> None:
    """Until `jobs` jobs wait for the held writer."""
    await until(lambda: store._queue.qsize() >= jobs, 10, f"{jobs} jobs to queue up")


async def _seated(manager: Manager, game: str) -> tuple[Table, list[Conn]]:
    """A table of `game` with a socket asking for views at every seat."""
    settings = TableSettings(bot_delay=0, away_timeout=0)
    table, _, tokens = await manager.create(game, None, {}, [], settings)
    conns = []
    for token in tokens:
        conn = Conn(Keeping(), FAST)
        conn.views = True
        asyncio.get_running_loop().create_task(conn.pump())
        await table.attach(conn, token, None, None, None)
        conns.append(conn)
    return table, conns


def test_a_match_record_is_built_once_for_every_seat_and_only_when_it_may_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pitch's record holds its whole score sheet: each seat's update with a view used
    to build it again (four times a move at four seats), to find it unchanged; and then
    once a move, though only a hand scored (or a ruling) changes it."""
    built = [0]
    changes = [0]

    async def main() -> tuple[list[Conn], list[dict[str, Any]]]:
        store = Store(f"sqlite:///{tmp_path}/pitkit.db")
        store.start()
        manager = Manager(store, FAST, Metrics())
        try:
            table, conns = await _seated(manager, "pitch")
            assert table.match is not None
            record = type(table.match).record

            def counted(match: Any) -> dict[str, Any]:
                built[0] += 1
                return record(match)

            monkeypatch.setattr(type(table.match), "record", counted)
            rng = random.Random(3)
            for _ in range(40):  # past the end of the first hand
                match = table.match
                seat = min(match.to_act)
                action = rng.choice(match.legal_actions(seat))
                await table.act(seat, str(action), table.version, conns[seat])
            # Every seat's socket has been sent the last update (its record built meanwhile).
            await until(lambda: all(len(_views(c)) == 41 for c in conns), 10, "the updates")
            monkeypatch.undo()
            changes[0] = sum(e.type in RECORD_CHANGES for e in table.match.log)
            records = [
                named({"match": table.match.record()}, table.narrator(seat))["match"]
                for seat in range(len(conns))
            ]
            return conns, records
        finally:
            await manager.close()
            store.close()

    conns, records = asyncio.run(main())
    # Once for the first update, then once after each hand scored: not once a seat, nor
    # once a version.
    assert changes[0] >= 1
    assert built[0] == 1 + changes[0]
    for conn, record in zip(conns, records, strict=True):
        views = _views(conn)
        assert len(views) == 41 and all(v["seat"] == conn.seat for v in views)
        assert all("history" not in v for v in views[1:])
        # The record comes when it changed (a hand was scored), else the client keeps its own.
        sent = ["match" in v for v in views[1:]]
        assert any(sent) and not all(sent)
        kept = [v["match"] for v in views if "match" in v][-1]
        assert kept == record


def _views(conn: Conn) -> list[dict[str, Any]]:
    """The views a socket of `_seated` has been sent, in its syncs and updates."""
    messages = [json.loads(m) for m in conn.ws.sent]  # type: ignore[attr-defined]
    return [m["view"] for m in messages if m["type"] in ("sync", "update")]


def _table(store: Store, table_id: str) -> None:
    record = TableRecord(
        id=table_id,
        game="pitty-pat",
        players=1,
        rules={},
        settings={},
        host_hash="h",
        status="waiting",
        match_no=0,
        created=0.0,
        seats=[SeatRecord(0, "open", None, None, "t")],
    )
    asyncio.run(store.run(storage.insert_table(record)))
    asyncio.run(store.run(storage.start_match(table_id, 1, 7, [{"type": "deal"}])))


def test_steps_queued_together_are_stored_by_one_statement(tmp_path: Path) -> None:
    """Steps waiting for the writer go in as one statement of many rows; a step that
    fails (no such match) still fails alone, and the others are stored."""
    store = Store(f"sqlite:///{tmp_path}/pitkit.db")
    store.start()
    inserts: list[int] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def seen(_c: Any, _cur: Any, sql: str, params: Any, _x: Any, many: bool) -> None:
        if sql.startswith("INSERT INTO steps"):
            inserts.append(len(params) if many else 1)

    try:
        for t in range(4):
            _table(store, f"t{t}")
        inserts.clear()
        gate = threading.Event()

        async def main() -> list[Any]:
            held = await _hold(store, gate)  # what follows queues up
            steps = [
                store.run(storage.append_step(f"t{t}", 1, v, 0, "draw", [{"type": "x"}], None))
                for v in (1, 2)
                for t in range(4)
            ]
            lost = store.run(storage.append_step("t0", 9, 1, 0, "draw", [], None))
            waiting = asyncio.gather(*steps, lost, return_exceptions=True)
            await _queued(store, 9)
            gate.set()
            await held
            return list(await waiting)

        results = asyncio.run(main())
        assert results[:8] == [None] * 8
        assert isinstance(results[8], DatabaseError)  # match 9 does not exist
        assert max(inserts) == 9  # all nine rows at once, before the batch failed
        with store.engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(storage.steps_t)).scalar()
        assert count == 4 + 8  # each deal, and the eight steps (retried one by one)
    finally:
        store.close()


def test_a_commit_wakes_the_event_loop_once(tmp_path: Path) -> None:
    """Every job of a group commit is answered by one call into the event loop (a write
    to its pipe each), not one a job."""
    store = Store(f"sqlite:///{tmp_path}/pitkit.db")
    store.start()
    try:
        _table(store, "t0")
        gate = threading.Event()
        calls = [0]

        async def main() -> None:
            loop = asyncio.get_running_loop()
            real = loop.call_soon_threadsafe

            def counted(*args: Any, **kwargs: Any) -> Any:
                calls[0] += 1
                return real(*args, **kwargs)

            loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]
            held = await _hold(store, gate)
            calls[0] = 0
            steps = [
                store.run(storage.append_step("t0", 1, v, 0, "draw", [], None))
                for v in range(1, 11)
            ]
            waiting = asyncio.gather(*steps)
            await _queued(store, 10)
            gate.set()
            await held
            await waiting

        asyncio.run(main())
        assert calls[0] == 2  # the gate's commit, then the ten steps'
    finally:
        store.close()


def test_a_store_that_hangs_times_out_and_skips_the_job(tmp_path: Path) -> None:
    """The caller hears `StoreTimeoutError` after the store's timeout; a job still queued
    then is never run."""
    store = Store(f"sqlite:///{tmp_path}/pitkit.db", timeout=0.2)
    store.start()
    ran: list[int] = []
    try:
        gate = threading.Event()

        async def main() -> None:
            held = await _hold(store, gate)
            with pytest.raises(storage.StoreTimeoutError):
                await store.run(lambda _conn: ran.append(1))
            gate.set()
            with pytest.raises(storage.StoreTimeoutError):
                await held
            await store.run(lambda _conn: None)  # the writer goes on

        asyncio.run(main())
        assert ran == []
    finally:
        store.close()


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    """A lone surrogate (a client's "\\ud800") is not UTF-8: orjson refuses it, and the
    message still goes, escaped."""
    message = {"type": "said", "name": "\ud800", "n": {1: 2}}
    text = dumps(message)
    assert json.loads(text) == {"type": "said", "name": "\ud800", "n": {"1": 2}}
    assert dumps({"b": [1, 2.5, None, "é"]}) == '{"b":[1,2.5,null,"é"]}'


def test_a_sockets_outbox_keeps_order_and_closes_when_full() -> None:
    async def main() -> tuple[Keeping, Keeping]:
        fine, full = Keeping(), Keeping()
        limits = Limits(outbox=3)
        a, b = Conn(fine, limits), Conn(full, limits)
        pumps = [asyncio.ensure_future(a.pump()), asyncio.ensure_future(b.pump())]
        for i in range(3):
            a.send({"n": i})
        await asyncio.sleep(0)
        a.send("raw")
        a.close(1001)
        a.send("after close")
        for i in range(4):  # no reader gets a turn: the fourth overflows
            b.send({"n": i})
        await asyncio.wait_for(asyncio.gather(*pumps), patience(5))
        return fine, full

    fine, full = asyncio.run(main())
    assert fine.sent == ['{"n":0}', '{"n":1}', '{"n":2}', "raw"] and fine.closed == 1001
    assert full.sent == ['{"n":0}', '{"n":1}', '{"n":2}'] and full.closed == 4008


def test_a_busy_writer_gathers_the_jobs_that_follow_a_commit(tmp_path: Path) -> None:
    """Once a commit held more than one job, the next starts `gap` after it: the jobs
    that come meanwhile share it. Jobs one after another (one table alone) never wait."""
    store = Store(f"sqlite:///{tmp_path}/pitkit.db", gap=0.3)
    store.start()
    try:

        async def main() -> float:
            loop = asyncio.get_running_loop()
            alone = 0.0
            for _ in range(5):  # one after another: each commits at once
                started = loop.time()
                await store.run(lambda _conn: None)
                alone = max(alone, loop.time() - started)
            gate = threading.Event()
            held = await _hold(store, gate)
            two = [asyncio.ensure_future(store.run(lambda _conn: None)) for _ in range(2)]
            await _queued(store, 2)
            gate.set()
            await asyncio.gather(held, *two)  # a commit of two: the writer is busy
            jobs = []
            for _ in range(10):  # one every 10 ms, all within the gap
                jobs.append(asyncio.ensure_future(store.run(lambda _conn: None)))
                await asyncio.sleep(0.01)
            await asyncio.gather(*jobs)
            return alone

        alone = asyncio.run(main())
        # None waited for the gap (0.3 s): each took a commit's time, however slow.
        assert alone < 0.25, alone
        assert (store.commits, store.jobs) == (5 + 1 + 1 + 1, 5 + 1 + 2 + 10)
    finally:
        store.close()
