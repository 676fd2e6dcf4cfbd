"""`pitkit db backup` and `pitkit db restore`: a restored database, of the same
kind or the other (SQLite, PostgreSQL), resumes every table as it was; a backup
taken while the server writes is consistent; a restore that cannot be done
changes nothing."""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from pitkit.cli import app as cli
from pitkit.server.client import TableClient
from pitkit.server.ops.settings import database_url
from pitkit.server.store import storage
from pitkit.server.store.backup import BackupError, backup, restore
from pitkit.server.store.storage import make_engine, metadata
from tests.server.conftest import FAST, ServerThread, run
from tests.waiting import patience, wait_until

Rows = dict[str, list[dict[str, Any]]]


def _fresh(kind: str, request: pytest.FixtureRequest, folder: Path) -> str:
    """A new, empty database's URL, of `kind` (sqlite or postgres)."""
    if kind == "sqlite":
        return database_url(str(folder), None)
    pg = request.getfixturevalue("postgres")
    url: str = pg.new_database()
    return url


def _kind(url: str) -> str:
    return "sqlite" if url.startswith("sqlite") else "postgres"


def _dump(url: str) -> Rows:
    """Every row of every table, in primary-key order."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {
                t.name: [
                    dict(row._mapping)
                    for row in conn.execute(select(t).order_by(*t.primary_key.columns))
                ]
                for t in metadata.sorted_tables
            }
    finally:
        engine.dispose()


def _take(url: str, path: Path) -> dict[str, int]:
    engine = make_engine(url)
    try:
        with path.open("wb") as f:
            return backup(engine, f).tables
    finally:
        engine.dispose()


def _restore(url: str, data: bytes, force: bool = False) -> dict[str, int]:
    engine = make_engine(url)
    try:
        return restore(engine, io.BytesIO(data), force=force).tables
    finally:
        engine.dispose()


def _read(data: bytes) -> tuple[dict[str, Any], Rows]:
    """A backup's header and its rows by table."""
    lines = gzip.decompress(data).splitlines()
    header = json.loads(lines[0])
    rows: Rows = {t.name: [] for t in metadata.sorted_tables}
    for line in lines[1:]:
        item = json.loads(line)
        rows[item["t"]].append(item["r"])
    return header, rows


def _gzip(lines: list[dict[str, Any]]) -> bytes:
    return gzip.compress(b"".join(json.dumps(line).encode() + b"\n" for line in lines))


# -- a server with tables in every state, backed up and restored --------------------


def _join(server: ServerThread, tid: str, token: str, name: str) -> str:
    """Claim the invitation's seat; returns the seat's own secret (the invitation's dead now)."""
    joined = server.http.post(f"/api/tables/{tid}/join", json={"token": token, "name": name})
    assert joined.status_code == 200, joined.text
    secret: str = joined.json()["token"]
    return secret


def _settle(server: ServerThread, tid: str, seat: int) -> dict[str, Any]:
    """Wait until only the person at `seat` may act (the bots have played up to them)."""
    deadline = time.monotonic() + patience(20)
    while True:
        info = server.table(tid)
        if info["status"] == "playing" and info["to_act"] == [seat]:
            return info
        assert time.monotonic() < deadline, info
        time.sleep(0.02)


def _tables_in_every_state(server: ServerThread) -> dict[str, Any]:
    """Tables waiting, playing (people to act, a bot-only one mid-match), over
    (one in its second match) and closed; the people's tokens, by table."""
    people = {"bot_delay": 0, "away_timeout": 0}
    made: dict[str, Any] = {"tokens": {}}

    def create(name: str, **body: Any) -> str:
        created = server.create(**body)
        tid: str = created["table"]["id"]
        made[name] = tid
        made["tokens"][tid] = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        made.setdefault("hosts", {})[tid] = created["host_token"]
        return tid

    create("waiting", game="ace-pit", seats=["open", "open"], settings=dict(people))
    duel = create("duel", game="ace-pit", seats=["open", "open"], settings=dict(people))
    for seat, token in made["tokens"][duel].items():
        made["tokens"][duel][seat] = _join(server, duel, token, f"P{seat}")
    versus = create(
        "versus", game="pitty-pat", seats=["open", "random", "random"], settings=dict(people)
    )
    made["tokens"][versus][0] = _join(server, versus, made["tokens"][versus][0], "Ann")
    pit = create("pit", game="pit", players=3, seats=["open"] * 3, settings=dict(people))
    for seat, token in made["tokens"][pit].items():
        made["tokens"][pit][seat] = _join(server, pit, token, f"T{seat}")
    over = create("over", game="ace-pit", seats=["greedy", "random"], settings={"bot_delay": 0})
    server.wait_for(over, "over", timeout=60)
    host = {"Authorization": f"Bearer {made['hosts'][over]}"}
    assert server.http.post(f"/api/tables/{over}/rematch", headers=host).status_code == 200
    server.wait_for(over, "over", timeout=60)
    closed = create("closed", game="pitch", seats=["open"] * 4, settings=dict(people))
    host = {"Authorization": f"Bearer {made['hosts'][closed]}"}
    assert server.http.delete(f"/api/tables/{closed}", headers=host).status_code == 200

    # A few moves at the duel, so that it is not at version 0.
    async def play(moves: int) -> None:
        clients = [TableClient(server.base, duel, t) for t in made["tokens"][duel].values()]
        for c in clients:
            await c.connect()
            await c.recv_type("sync")
        for _ in range(moves):
            mover = next(c for c in clients if c.legal)
            await mover.send({"type": "act", "action": mover.legal[0], "version": mover.version})
            version = (await mover.recv_type("ack"))["version"]
            for c in clients:
                while c.version != version:
                    await c.recv()
        for c in clients:
            await c.close()

    run(play(3))
    _settle(server, versus, 0)
    # Bots only, slowed by the server's limit so that its match is still on at the backup.
    create("bots", game="pitty-pat", seats=["random"] * 3, settings={"bot_delay": 0})
    return made


def _views(server: ServerThread, tid: str, tokens: dict[int, str]) -> dict[int, Any]:
    """Each person's full view of the table's match, as the server sends it on joining."""

    async def main() -> dict[int, Any]:
        out = {}
        for seat, token in tokens.items():
            client = TableClient(server.base, tid, token)
            await client.connect()
            out[seat] = (await client.recv_type("sync"))["view"]
            await client.close()
        return out

    views: dict[int, Any] = run(main())
    return views


def _as_seen(server: ServerThread, made: dict[str, Any], stable: list[str]) -> dict[str, Any]:
    """The tables that stay still (no bot to move), as the lobby and as their
    people see them (the lobby first: joining shows people connected)."""
    infos = {name: server.table(made[name]) for name in stable}
    seen = {}
    for name, info in infos.items():
        people = [s["seat"] for s in info["seats"] if s["kind"] == "player"]
        tokens = {s: made["tokens"][made[name]][s] for s in people}
        views = _views(server, made[name], tokens) if info["status"] == "playing" else {}
        seen[name] = (info, views)
    return seen


def test_a_restored_database_resumes_every_table(
    tmp_path: Path, database: str, request: pytest.FixtureRequest
) -> None:
    slow_bots = dataclasses.replace(FAST, bot_actions_per_second=100)
    original = ServerThread(tmp_path / "a", slow_bots, database=database)
    try:
        made = _tables_in_every_state(original)
        file = tmp_path / "backup.jsonl.gz"
        counts = _take(database, file)  # while the server runs, the bot-only table playing
    finally:
        original.stop()
    data = file.read_bytes()
    header, rows = _read(data)
    assert header["tables"] == counts == {name: len(r) for name, r in rows.items()}
    status = {row["id"]: row["status"] for row in rows["tables"]}
    assert status[made["bots"]] == "playing" and status[made["closed"]] == "closed"
    assert len(status) == 7 and counts["steps"] > 10

    # The reference: the original database, under a server restarted on it.
    stable = ["waiting", "duel", "versus", "pit", "over", "closed"]
    restarted = ServerThread(tmp_path / "a", FAST, database=database)
    try:
        expected = _as_seen(restarted, made, stable)
    finally:
        restarted.stop()
    assert expected["duel"][0]["version"] == 3 and expected["over"][0]["match"] == 2
    views = {name: sorted(seen) for name, (_, seen) in expected.items() if seen}
    assert views == {"duel": [0, 1], "versus": [0], "pit": [0, 1, 2]}
    assert {name: info["status"] for name, (info, _) in expected.items()} == {
        "waiting": "waiting",
        "duel": "playing",
        "versus": "playing",
        "pit": "playing",
        "over": "over",
        "closed": "closed",
    }

    other = "postgres" if _kind(database) == "sqlite" else "sqlite"
    for kind in (_kind(database), other):
        target = _fresh(kind, request, tmp_path / f"restored-{kind}")
        assert _restore(target, data) == counts
        assert _dump(target) == rows  # every row, to the last bit of every float
        server = ServerThread(tmp_path / f"restored-{kind}", FAST, database=target)
        try:
            assert _as_seen(server, made, stable) == expected, kind
            # The bot-only table plays on to its end; the people's tables take their moves.
            assert server.wait_for(made["bots"], "over", timeout=60)["outcome"]
            for name, seat in (("duel", None), ("versus", 0)):
                _moves_on(server, made["tokens"][made[name]], made[name], seat)
        finally:
            server.stop()


def _moves_on(server: ServerThread, tokens: dict[int, str], tid: str, seat: int | None) -> None:
    """The person to move (at `seat`, or whoever may) makes a move; it is accepted."""

    async def main() -> None:
        clients = [TableClient(server.base, tid, t) for s, t in tokens.items() if seat in (None, s)]
        for c in clients:
            await c.connect()
            await c.recv_type("sync")
        mover = next(c for c in clients if c.legal)
        version = mover.version
        assert version is not None
        await mover.send({"type": "act", "action": mover.legal[0], "version": version})
        assert (await mover.recv_type("ack"))["version"] == version + 1
        for c in clients:
            await c.close()

    run(main())


# -- a backup while the server writes ----------------------------------------------------------


def test_a_backup_taken_while_actions_are_written_is_consistent(
    server: ServerThread, database: str, tmp_path: Path
) -> None:
    """Bots play at full speed and tables come and go while backups are taken:
    each backup is one moment (its counts, tables, matches and steps agree)."""
    playing = [
        server.create(game="pitch", rules={"target": 1000}, seats=["random"] * 4)["table"]["id"]
        for _ in range(4)
    ]
    stop = threading.Event()

    def open_tables() -> None:  # new tables, matches and their ends, all the time
        while not stop.is_set():
            server.create(game="ace-pit", seats=["greedy", "random"])
            time.sleep(0.1)

    opener = threading.Thread(target=open_tables)
    opener.start()
    backups: list[bytes] = []
    try:
        wait_until(
            lambda: all(server.table(t)["version"] > 0 for t in playing), 10, "the bots to play"
        )
        # Two seconds of backups at least (a duration: not scaled).
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline or len(backups) < 3:
            out = io.BytesIO()
            engine = make_engine(database)
            try:
                backup(engine, out)
            finally:
                engine.dispose()
            backups.append(out.getvalue())
    finally:
        stop.set()
        opener.join()
    steps = [len(_read(data)[1]["steps"]) for data in backups]
    assert steps == sorted(steps) and steps[0] < steps[-1], steps  # written meanwhile
    for data in backups:
        header, rows = _read(data)
        assert header["tables"] == {name: len(r) for name, r in rows.items()}
        matches = {(m["table_id"], m["number"]): m for m in rows["matches"]}
        versions: dict[tuple[str, int], list[int]] = {key: [] for key in matches}
        for step in rows["steps"]:
            versions[step["table_id"], step["match_no"]].append(step["version"])
        assert all(v == list(range(len(v))) and v for v in versions.values())
        tables = {t["id"]: t for t in rows["tables"]}
        assert {table_id for table_id, _ in matches} <= set(tables)
        assert {s["table_id"] for s in rows["seats"]} == set(tables)
        for table in tables.values():
            if table["match_no"]:
                match = matches[table["id"], table["match_no"]]
                # A match's end and its table's status are written together.
                assert (match["ended"] is not None) == (table["status"] == "over"), table
    print(f"{len(backups)} backups, {steps[0]} to {steps[-1]} steps")
    # The last one restores, row for row.
    target = database_url(str(tmp_path / "restored"), None)
    _restore(target, backups[-1])
    assert _dump(target) == _read(backups[-1])[1]


# -- restores refused --------------------------------------------------------------------------


def _played(url: str, folder: Path) -> None:
    """A database holding a waiting table and a finished match."""
    server = ServerThread(folder, FAST, database=url)
    try:
        server.create(game="ace-pit", seats=["open", "open"])
        tid = server.create(game="ace-pit", seats=["greedy", "random"])["table"]["id"]
        server.wait_for(tid, "over", timeout=60)
    finally:
        server.stop()


def test_a_restore_that_cannot_be_done_changes_nothing(tmp_path: Path, database: str) -> None:
    _played(database, tmp_path / "source")
    good = tmp_path / "good.jsonl.gz"
    _take(database, good)
    data = good.read_bytes()
    header, rows = _read(data)
    lines = gzip.decompress(data).splitlines()
    # The target holds what the backup holds, and one table more: a restore that
    # went part of the way (or emptied it first) would show.
    target = database_url(str(tmp_path / "target"), None)
    _restore(target, data)
    engine = make_engine(target)
    extra = storage.TableRecord("extra", "ace-pit", 2, {}, {}, "h", "waiting", 0, 1.0)
    extra.seats = [storage.SeatRecord(s, "open", None, None, "h") for s in range(2)]
    with engine.begin() as conn:
        storage.insert_table(extra)(conn)
    engine.dispose()
    before = _dump(target)
    assert len(before["tables"]) == len(rows["tables"]) + 1

    def refused(data: bytes, reason: str, force: bool = True) -> None:
        with pytest.raises(BackupError, match=reason):
            _restore(target, data, force=force)
        assert _dump(target) == before

    refused(data, "already holds rows", force=False)
    refused(_gzip([{**header, "schema": "0000"}, *map(json.loads, lines[1:])]), "schema")
    refused(_gzip([{**header, "version": 2}]), "format is version 2")
    refused(_gzip([{**header, "format": "something-else"}]), "not a pitkit backup")
    refused(b"tables,seats\n1,2\n", "damaged or cut short")
    refused(data[: len(data) // 2], "damaged or cut short")  # cut off
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    refused(bytes(flipped), "damaged")
    refused(gzip.compress(b"\n".join(lines[:-1]) + b"\n"), "incomplete")  # a row fewer
    refused(gzip.compress(b"\n".join(lines) + b'\n{"t": "steps"}\n'), "line .* damaged")
    duplicate = gzip.compress(b"\n".join([*lines, lines[-1]]) + b"\n")
    refused(duplicate, "refused rows of steps")
    # And forced, it replaces everything.
    assert _restore(target, data, force=True) == header["tables"]
    assert _dump(target) == rows


def test_the_cli_round_trip(tmp_path: Path, database: str, request: pytest.FixtureRequest) -> None:
    """`pitkit db backup` to a file and to stdout, `pitkit db restore` from both,
    into the other kind of database; a non-empty target is refused without --force."""
    _played(database, tmp_path / "source")
    source = _dump(database)
    runner = CliRunner()
    file = tmp_path / "pitkit.backup.gz"
    where = ["--data", str(tmp_path)] if _kind(database) == "sqlite" else ["--database", database]
    done = runner.invoke(cli, ["db", "backup", *where, str(file)])
    assert done.exit_code == 0, done.output
    assert "steps" in done.output and "rows/s" in done.output
    assert not (tmp_path / "pitkit.backup.gz.partial").exists()

    other = "postgres" if _kind(database) == "sqlite" else "sqlite"
    target = _fresh(other, request, tmp_path / "target")
    into = ["--database", target]
    done = runner.invoke(cli, ["db", "restore", *into, str(file)])
    assert done.exit_code == 0, done.output
    assert _dump(target) == source
    again = runner.invoke(cli, ["db", "restore", *into, str(file)])
    assert again.exit_code == 2 and "already holds rows" in again.output

    piped = runner.invoke(cli, ["db", "backup", *into, "-"])
    assert piped.exit_code == 0, piped.stderr
    assert piped.stdout_bytes.startswith(b"\x1f\x8b") and "rows/s" in piped.stderr
    done = runner.invoke(cli, ["db", "restore", *into, "--force", "-"], input=piped.stdout_bytes)
    assert done.exit_code == 0, done.output
    assert _dump(target) == source

    missing = runner.invoke(cli, ["db", "backup", "--data", str(tmp_path / "none"), str(file)])
    assert missing.exit_code == 2 and "there is no database" in missing.output
