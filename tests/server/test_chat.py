"""The table's chat: who may say what, its bounds, who hears it, and that it is kept."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import sqlalchemy

from pitkit.server.client import TableClient
from tests.server.conftest import FAST, ServerThread, run
from tests.waiting import wait_until


async def _join(server: ServerThread, tid: str, token: str | None, name: str) -> TableClient:
    client = TableClient(server.base, tid, token)
    await client.connect(name=name)
    await client.recv_type("welcome")
    return client


async def _quiet(client: TableClient, kind: str) -> bool:
    """Whether no message of type `kind` arrives in the next moment."""
    try:
        while True:
            if (await client.recv(0.3))["type"] == kind:
                return False
    except TimeoutError:
        return True


def test_players_chat_spectators_do_not(server: ServerThread, tmp_path: Path) -> None:
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        ann = await _join(server, tid, tokens[0], "Ann")
        bea = await _join(server, tid, tokens[1], "Bea")
        watcher = await _join(server, tid, None, "Wat")
        await ann.send({"type": "chat", "text": "  Good game 👍 ", "id": 1})
        for client in (ann, bea):
            said = await client.recv_type("said")
            assert {k: said[k] for k in ("seat", "name", "text")} == {
                "seat": 0,
                "name": "Ann",
                "text": "Good game 👍",
            }
            assert isinstance(said["at"], float) and "spectator" not in said
        # A spectator neither hears the chat nor speaks, unless the host allows it.
        assert await _quiet(watcher, "said")
        await watcher.send({"type": "chat", "text": "hi", "id": "w"})
        refused = await watcher.recv_type("error")
        assert refused["code"] == "no_chat" and refused["id"] == "w"
        # Bounds: refused in words, and nothing is said.
        for text in ("", "   ", "x" * 201, "two\nlines"):
            await bea.send({"type": "chat", "text": text})
            assert (await bea.recv_type("error"))["code"] == "bad_chat"
        await bea.send({"type": "chat", "text": 5})
        assert (await bea.recv_type("error"))["code"] == "malformed"
        assert await _quiet(ann, "said")
        # Five at once, then one a second.
        for n in range(6):
            await bea.send({"type": "chat", "text": f"Hurry up {n}"})
        for n in range(5):
            assert (await ann.recv_type("said"))["text"] == f"Hurry up {n}"
        assert (await bea.recv_type("error"))["code"] == "chat_too_fast"
        assert await _quiet(ann, "said")
        secrets.append(ann.token)  # the seat's own secret, since claimed
        for c in (ann, bea, watcher):
            await c.close()

    secrets: list[str | None] = []
    run(main())
    server.stop()
    # Kept with the table: a restarted server sends a returning player the chat so far.
    again = ServerThread(tmp_path, FAST, database=server.database)
    try:

        async def back() -> list[dict[str, object]]:
            ann = TableClient(again.base, tid, secrets[0])
            await ann.connect(name="Ann")
            welcome = await ann.recv_type("welcome")
            await ann.close()
            return list(welcome["chat"])

        chat = run(back())
        assert [m["text"] for m in chat] == ["Good game 👍"] + [f"Hurry up {n}" for n in range(5)]
        assert chat[1]["seat"] == 1 and chat[1]["name"] == "Bea"
    finally:
        again.stop()


def test_spectators_chat_when_the_host_allows(server: ServerThread) -> None:
    created = server.create(
        game="ace-pit", seats=["open", "open"], settings={"spectator_chat": True}
    )
    tid = created["table"]["id"]
    token = created["seats"][0]["token"]

    async def main() -> None:
        ann = await _join(server, tid, token, "Ann")
        await ann.send({"type": "chat", "text": "Welcome"})
        await ann.recv_type("said")
        watcher = TableClient(server.base, tid, None)
        await watcher.connect(name="Wat")
        welcome = await watcher.recv_type("welcome")
        assert [m["text"] for m in welcome["chat"]] == ["Welcome"]
        await watcher.send({"type": "chat", "text": "Well played"})
        for client in (ann, watcher):
            said = await client.recv_type("said")
            assert said["spectator"] is True and said["name"] == "Wat" and "seat" not in said
        for c in (ann, watcher):
            await c.close()

    run(main())


def test_a_newcomer_gets_the_latest(tmp_path: Path, database: str) -> None:
    """Only the last `chat_kept` messages come in welcome, oldest first."""
    limits = dataclasses.replace(FAST, chat_rate=1000, chat_burst=1000, chat_kept=3)
    server = ServerThread(tmp_path, limits, database=database)
    try:
        created = server.create(game="ace-pit", seats=["open", "open"])
        tid, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]

        async def main() -> None:
            ann = await _join(server, tid, tokens[0], "Ann")
            for n in range(5):
                await ann.send({"type": "chat", "text": f"line {n}"})
                await ann.recv_type("said")
            bea = TableClient(server.base, tid, tokens[1])
            await bea.connect(name="Bea")
            welcome = await bea.recv_type("welcome")
            assert [m["text"] for m in welcome["chat"]] == ["line 2", "line 3", "line 4"]
            for c in (ann, bea):
                await c.close()

        run(main())
    finally:
        server.stop()


def test_zalgo_is_refused_and_accents_are_not(server: ServerThread) -> None:
    """A pile of combining marks (which spills over the lines around it) is refused as
    in names; a language's accents pass."""
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        ann = await _join(server, tid, tokens[0], "Ann")
        bea = await _join(server, tid, tokens[1], "Bea")
        await ann.send({"type": "chat", "text": "he" + "\u0301\u0300\u0302" * 50 + "llo"})
        refused = await ann.recv_type("error")
        assert refused["code"] == "bad_chat" and "marks on one letter" in refused["reason"]
        assert await _quiet(bea, "said")
        await ann.send({"type": "chat", "text": "Chúc mừng, Tiếng Việt"})
        assert (await bea.recv_type("said"))["text"] == "Chúc mừng, Tiếng Việt"
        for c in (ann, bea):
            await c.close()

    run(main())


def _stored(database: str, tid: str) -> list[str]:
    """The chat messages stored for table `tid`, oldest first."""
    engine = sqlalchemy.create_engine(database)
    try:
        with engine.connect() as db:
            rows = db.execute(
                sqlalchemy.text("SELECT text FROM chat WHERE table_id = :t ORDER BY seq"),
                {"t": tid},
            )
            return [row[0] for row in rows]
    finally:
        engine.dispose()


def test_the_chat_is_kept_for_a_bounded_count_and_time(tmp_path: Path, database: str) -> None:
    """Beyond `chat_stored` messages a table, and after `chat_days`, the older ones are
    deleted when a new one is said; nobody joining is sent them."""
    seconds = 2.0
    limits = dataclasses.replace(
        FAST, chat_rate=1000, chat_burst=1000, chat_stored=3, chat_days=seconds / 86400
    )
    server = ServerThread(tmp_path, limits, database=database)
    try:
        created = server.create(game="ace-pit", seats=["open", "open"])
        tid, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]

        async def main() -> None:
            ann = await _join(server, tid, tokens[0], "Ann")
            for n in range(5):
                await ann.send({"type": "chat", "text": f"line {n}"})
                await ann.recv_type("said")
            assert _stored(database, tid) == ["line 2", "line 3", "line 4"]
            said = time.time()
            wait_until(lambda: time.time() > said + seconds, 10, "the chat to grow old")
            await ann.send({"type": "chat", "text": "fresh"})
            await ann.recv_type("said")
            assert _stored(database, tid) == ["fresh"]
            bea = TableClient(server.base, tid, tokens[1])
            await bea.connect(name="Bea")
            welcome = await bea.recv_type("welcome")
            assert [m["text"] for m in welcome["chat"]] == ["fresh"]
            for c in (ann, bea):
                await c.close()

        run(main())
    finally:
        server.stop()
