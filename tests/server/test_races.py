"""The races of play together: a restart during the pause between hands keeps the
pause; an action meant for a seat its socket no longer holds (the host moved its
player) is refused, never played in the new seat; and a request that found its table
just before the worker let it go (handed to another worker, or stopping) changes
nothing here, where its steps would be stored beside the new worker's."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from pitkit.server.client import TableClient
from pitkit.server.live.tables import Table, TableElsewhereError
from pitkit.server.store import storage
from tests.server.conftest import FAST, ServerThread, run
from tests.server.test_pacing import QUICK, play_until
from tests.waiting import patience


def _person_and_bot(server: ServerThread) -> tuple[str, str]:
    """A Pitty Pat table of one person and a bot, with a minute's pause between hands:
    its id and the person's invitation."""
    created = server.create(
        game="pitty-pat",
        players=2,
        seats=[None, "sensible"],
        rules=QUICK,
        settings={"bot_delay": 0.01, "next_hand_seconds": 60},
    )
    return created["table"]["id"], created["seats"][0]["token"]


def test_a_restart_during_the_pause_keeps_the_pause(tmp_path: Path, database: str) -> None:
    first = ServerThread(tmp_path / "first", FAST, database=database)
    try:
        tid, invitation = _person_and_bot(first)

        async def until_the_pause() -> tuple[TableClient, int]:
            ann = TableClient(first.base, tid, invitation)
            await ann.connect(name="Ann")
            ended = await play_until(ann, "hand")
            assert ended["next_hand"] is not None and not ended["over"]
            # The server stops with Ann still there (had she left, the hand would
            # have started: nobody would be waited for).
            await asyncio.to_thread(first.stop)
            await ann.close()
            return ann, ended["version"]

        ann, version = run(until_the_pause())
    finally:
        first.stop()

    again = ServerThread(tmp_path / "again", FAST, database=database)
    try:

        async def after_the_restart() -> None:
            back = TableClient(again.base, tid, ann.token)
            await back.connect(name="Ann")
            welcome = await back.recv_type("welcome")
            pause = welcome["next_hand"]
            assert pause is not None, "the restart started the hand at once"
            assert 0 < pause["left"] <= 60 and pause["waiting"] == [0]
            await asyncio.sleep(0.5)  # in which nothing may happen: a duration, not a deadline
            assert again.table(tid)["version"] == version  # the bot waits too
            await back.send({"type": "ready"})
            while (await back.recv_type("next_hand"))["next_hand"] is not None:
                pass  # (her coming back was told first)
            deadline = time.monotonic() + patience(10)
            while again.table(tid)["version"] == version:  # and the hand goes on
                assert time.monotonic() < deadline, "the hand did not go on"
                if back.seat in back.to_act and back.legal:
                    act = {"type": "act", "action": back.legal[0], "version": back.version}
                    await back.send(act)
                await back.recv()
            await back.close()

        run(after_the_restart())
    finally:
        again.stop()


def test_a_page_that_reloads_during_the_pause_keeps_it(server: ServerThread) -> None:
    """The only person at the table reloads her page during the pause: the hand waits
    for her still (it starts a moment after the last person leaves, not at once)."""
    tid, invitation = _person_and_bot(server)

    async def main() -> None:
        ann = TableClient(server.base, tid, invitation)
        await ann.connect(name="Ann")
        ended = await play_until(ann, "hand")
        await ann.close()
        again = TableClient(server.base, tid, ann.token)
        await again.connect(name="Ann")
        welcome = await again.recv_type("welcome")
        assert welcome["next_hand"] is not None and welcome["next_hand"]["waiting"] == [0]
        # Longer than the moment the hand waits for nobody (pacing.EMPTY_SECONDS), in
        # which it must not start: a duration, not a deadline.
        await asyncio.sleep(2.5)
        assert server.table(tid)["version"] == ended["version"]
        await again.close()

    run(main())


def test_an_action_meant_for_the_old_seat_is_refused_after_a_move(server: ServerThread) -> None:
    created = server.create(
        game="pitty-pat", players=2, seats=["open", "open"], rules={"hands": 1, "turn_limit": 4}
    )
    tid, host = created["table"]["id"], {"Authorization": f"Bearer {created['host_token']}"}
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        ann, bo = TableClient(server.base, tid, tokens[0]), TableClient(server.base, tid, tokens[1])
        for client, name in ((ann, "Ann"), (bo, "Bo")):
            await client.connect(name=name)
        for client in (ann, bo):
            await client.recv_type("sync")
        await asyncio.gather(play_until(ann, "match"), play_until(bo, "match"))
        moved = server.http.post(f"/api/tables/{tid}/seats/0/move", json={"to": 1}, headers=host)
        assert moved.status_code == 200, moved.text
        assert server.http.post(f"/api/tables/{tid}/rematch", headers=host).status_code == 200
        for client, seat in ((ann, 1), (bo, 0)):
            assert (await client.recv_type("welcome"))["seat"] == seat
            await client.recv_type("sync")
        # Whoever is to act in the new match: an action meant for their seat before the
        # move (sent before its page read the welcome) is refused, though it is legal
        # in the seat they hold now.
        mover, old = (ann, 0) if 1 in ann.to_act else (bo, 1)
        stale = {"type": "act", "action": mover.legal[0], "version": mover.version, "seat": old}
        await mover.send(stale)
        refused = await mover.recv_type("error")
        assert refused["code"] == "seat_changed", refused
        assert refused["reason"] == (
            "this action was meant for the seat this connection held before the host moved it"
        )
        assert server.table(tid)["version"] == 0
        # Meant for the seat it holds, it is played.
        meant = {**stale, "seat": mover.seat, "id": 7}
        await mover.send(meant)
        assert (await mover.recv_type("ack"))["id"] == 7
        for client in (ann, bo):
            await client.close()

    run(main())


def test_a_socket_that_found_its_table_before_it_was_let_go_is_sent_on(
    server: ServerThread,
) -> None:
    """The socket was given the table, then the table was closed as its worker handed
    it over; its hello is not taken by the closed table (whose sockets nobody tells
    anything now) but closes the socket as "try again" (1013), and the retry finds the
    worker that runs the table. Over HTTP, the same is a 503."""
    created = server.create(game="ace-pit", seats=[None, None])
    tid, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]
    table = server.app.state.manager.tables[tid]

    async def main() -> None:
        late = TableClient(server.base, tid, tokens[1])
        await late.connect(name="Bo")  # its hello comes after the close below
        assert late.ws is not None
        with pytest.raises(ConnectionClosed) as closed:
            await late.recv_type("welcome")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013

    server.call(table.close())  # as `Manager._unload` does
    asyncio.run(main())
    joined = server.http.post(f"/api/tables/{tid}/join", json={"token": tokens[0], "name": "Ann"})
    assert joined.status_code == 503 and joined.headers["Retry-After"] == "1", joined.text
    assert joined.json()["detail"] == "this table is moving between servers; try again"
    assert [seat.name for seat in table.seats] == [None, None]


def _ace_pit_under_way(server: ServerThread, settings: dict[str, Any] | None = None) -> Table:
    """A table of Ace Pit where Ann and Bo sat down, and whose match began (they left)."""
    created = server.create(game="ace-pit", seats=[None, None], settings=settings or {})
    tid, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]

    async def seated() -> None:
        clients = [TableClient(server.base, tid, token) for token in tokens]
        for client, name in zip(clients, ("Ann", "Bo"), strict=True):
            await client.connect(name=name)
        for client in clients:
            await client.recv_type("sync")
            await client.close()

    asyncio.run(seated())
    table: Table = server.app.state.manager.tables[tid]
    return table


def test_an_action_that_reaches_a_table_after_it_was_let_go_is_not_stored(
    server: ServerThread,
) -> None:
    table = _ace_pit_under_way(server)
    tid = table.id
    match = table.match
    assert match is not None and table.status == "playing"
    seat = sorted(match.to_act)[0]
    action, version = match.legal_actions(seat)[0], table.version
    server.call(table.close())
    with pytest.raises(TableElsewhereError):
        server.call(table.act(seat, action, version))
    number = table.match_no
    stored = server.call(table.store.run(lambda db: storage.stored_version(db, tid, number)))
    assert stored == version == table.version


def test_a_move_whose_time_ran_out_as_the_table_was_let_go_forfeits_nothing_here(
    server: ServerThread,
) -> None:
    """The move's time ran out just as the worker let the table go: the forfeit, waiting
    for the table's lock, finds the table closed and makes nothing. The worker that runs
    the table now times the move out itself, from its stored deadline."""
    settings = {"own_pace": 3600, "on_timeout": "forfeit"}
    table = _ace_pit_under_way(server, settings)
    tid = table.id
    assert table.status == "playing"
    version = table.version

    async def run_out_then_let_go() -> None:
        table.reminders.ran_out(version)  # its forfeit waits for its turn at the lock
        await table.close()  # as `Manager._unload` does, waiting for that forfeit

    server.call(run_out_then_let_go())
    record = server.call(table.store.run(lambda db: storage.read_table(db, tid)))
    assert record is not None and record.match is not None
    assert (record.status, record.match.over) == ("playing", False)
    assert table.status == "playing"


class _SlowStore:
    """A table's store whose writes wait until `go` is set (a database slow to commit);
    `writing` is set once one has begun."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.writing = threading.Event()
        self.go = threading.Event()

    async def run(self, job: Any) -> Any:
        self.writing.set()
        while not self.go.is_set():
            await asyncio.sleep(0.01)
        return await self.store.run(job)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def test_a_hello_under_way_as_the_table_is_let_go_is_sent_on_when_it_is_done(
    server: ServerThread,
) -> None:
    """A hello was storing its seat's claim when the worker let the table go: it
    finishes first, and its socket is then closed with the others (1012), never left
    on the closed table, where nobody would tell it anything again."""
    created = server.create(game="ace-pit", seats=[None, None])
    tid, token = created["table"]["id"], created["seats"][0]["token"]
    table = server.app.state.manager.tables[tid]
    slow = table.door.store = _SlowStore(table.door.store)
    closed: list[asyncio.Task[None]] = []

    async def let_go() -> None:
        closed.append(asyncio.create_task(table.close()))  # as `Manager._unload` does
        await asyncio.sleep(0.05)  # it goes as far as it can without the claim

    async def main() -> None:
        ann = TableClient(server.base, tid, token)
        await ann.connect(name="Ann")
        await asyncio.to_thread(slow.writing.wait, patience(10))
        server.call(let_go())
        slow.go.set()
        with pytest.raises(ConnectionClosed) as gone:
            await ann.recv_type("never", timeout=10)
        assert gone.value.rcvd is not None and gone.value.rcvd.code == 1012

    asyncio.run(main())
    server.call(asyncio.wait_for(asyncio.shield(closed[0]), patience(10)))
    assert table.seats[0].name == "Ann"  # the claim stood, stored before the close ended
