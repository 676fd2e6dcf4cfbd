"""`pitkit db export-games`: the finished matches people played, read from the
server's database (SQLite and PostgreSQL), replay exactly as stored; names become
stable pseudonyms and no name, token, hash, table id or chat line is written; bot-only
tables and unfinished matches stay out. The pure parts: tests/arena/test_dataset.py."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pitkit.arena import dataset
from pitkit.cli import app
from pitkit.server.client import RandomPlayer, TableClient
from pitkit.server.ops.settings import database_url
from pitkit.server.store import storage
from tests.server.conftest import ServerThread, run
from tests.waiting import patience

runner = CliRunner()
ANN, BOB = "Ann Lovelace", "Bob Babbage"
SAID = "meet me at the usual place, xyzzy"
RULES = {"hands": 1}


def _people_play(
    server: ServerThread, seats: list[str | None], names: list[str]
) -> tuple[dict[str, Any], list[TableClient], list[RandomPlayer]]:
    """An Ace Pit table whose open seats people (`names`, in seat order) claim and
    play to the end by random legal moves; the first of them says something."""
    created = server.create(game="ace-pit", seats=seats, rules=RULES)
    tid: str = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"] if s["token"]]
    clients = [TableClient(server.base, tid, token) for token in tokens]
    players = [RandomPlayer(client, seed=i) for i, client in enumerate(clients)]

    async def main() -> None:
        for client, name in zip(clients, names, strict=True):
            await client.connect(name=name)
            await client.recv_type("welcome")
        await clients[0].send({"type": "chat", "text": SAID})
        until = time.monotonic() + patience(30)
        await asyncio.gather(*(player.run(until) for player in players))
        for client in clients:
            await client.close()

    run(main())
    assert server.wait_for(tid, "over")["status"] == "over"
    return created, clients, players


def _unfinished(server: ServerThread) -> str:
    """A person's table whose match is dealt and waits for them: never over."""
    # No stand-in for the absent person (away_timeout 0): the match waits for them.
    created = server.create(
        game="ace-pit", seats=[None, "greedy"], rules={"hands": 5}, settings={"away_timeout": 0}
    )
    tid: str = created["table"]["id"]

    async def main() -> None:
        client = TableClient(server.base, tid, created["seats"][0]["token"])
        await client.connect(name="Cy Unfinished")
        await client.recv_type("sync")
        await client.close()

    run(main())
    server.wait_for(tid, "playing")
    return tid


def _bots_only(server: ServerThread) -> str:
    """A table of bots alone, which starts at once and plays to its end."""
    created = server.create(game="ace-pit", seats=["greedy", "random"], rules=RULES)
    tid: str = created["table"]["id"]
    server.wait_for(tid, "over")
    return tid


def _export(*args: str) -> Any:
    result = runner.invoke(app, ["db", "export-games", *args])
    assert result.exit_code == 0, result.output
    return result


def _stored(url: str, tid: str) -> tuple[storage.TableRecord, tuple[int, bool, list[Any]]]:
    """A table as stored, and its first match's seed, end and steps."""
    engine = storage.make_engine(url)
    try:
        with engine.connect() as conn:
            record = storage.read_table(conn, tid)
            found = storage.read_match_steps(conn, tid, 1)
    finally:
        engine.dispose()
    assert record is not None and found is not None
    return record, found


def _replays_as_stored(database: str, tid: str, record: dict[str, Any], raw: bytes) -> None:
    """The record of table `tid`'s match replays to the stored match, event for event,
    and the export holds nothing that names or opens the table or a seat."""
    table, (seed, over, steps) = _stored(database, tid)
    assert over and record["seed"] == seed and record["rules"] == table.rules
    match = dataset.replay(record)
    stored = [e for step in steps for e in step]
    assert json.loads(json.dumps([e.to_json() for e in match.log])) == stored
    assert match.outcome is not None and record["outcome"] == match.outcome.to_json()
    assert [s["events"] for s in record["steps"]] == steps
    for secret in [tid, table.host_hash, *(s.token_hash for s in table.seats), SAID]:
        assert secret.encode() not in raw


def test_export_games_replays_people_s_matches_and_hides_who_they_are(
    server: ServerThread, database: str, tmp_path: Path
) -> None:
    solo, solo_clients, (ann_solo,) = _people_play(server, [None, "greedy"], [ANN])
    duo, duo_clients, (ann_duo, bob) = _people_play(server, [None, None], [ANN, BOB])
    bots, unfinished = _bots_only(server), _unfinished(server)
    keys, out = tmp_path / "keys", tmp_path / "games.jsonl"
    result = _export("--database", database, "--data", str(keys), "--output", str(out))
    assert "Exported 2 finished matches" in result.output
    names = dataset.Pseudonyms.from_file(keys / dataset.KEY_FILE)
    records = {r["table"]: r for r in dataset.read_games(out)}
    solo_record, duo_record = (records.pop(names.table(t["table"]["id"])) for t in (solo, duo))
    assert not records
    # The bot-only table finished, and the person's table has a match under way: neither is in.
    assert _stored(database, bots)[1][1] and not _stored(database, unfinished)[1][1]
    assert len(_stored(database, unfinished)[1][2]) >= 1

    raw = out.read_bytes()
    _replays_as_stored(database, solo["table"]["id"], solo_record, raw)
    _replays_as_stored(database, duo["table"]["id"], duo_record, raw)
    tokens = [s["token"] for t in (solo, duo) for s in t["seats"] if s["token"]]
    tokens += [solo["host_token"], duo["host_token"]]
    tokens += [c.token for c in [*solo_clients, *duo_clients]]  # each seat's secret, once claimed
    for secret in [ANN, BOB, "Lovelace", "Babbage", "Cy Unfinished", *tokens]:
        assert secret is not None and secret.encode() not in raw

    # One pseudonym a name, the same at both tables; bots by their names.
    ann, bob_id = names.person(ANN, ""), names.person(BOB, "")
    assert solo_record["seats"] == [
        {"kind": "person", "id": ann, "named": True},
        {"kind": "bot", "bot": "greedy"},
    ]
    assert [s["id"] for s in duo_record["seats"]] == [ann, bob_id] and bob_id != ann

    # The loader gives each person's moves, in order, as they made them.
    loaded = list(dataset.decisions(solo_record))
    assert [d.action for d in loaded] == [a for _, _, a in ann_solo.acked] and loaded
    both = list(dataset.decisions(duo_record))
    for seat, player in enumerate((ann_duo, bob)):
        moves = [d.action for d in both if d.view["seat"] == seat]
        assert moves == [a for _, _, a in player.acked] and moves
    assert all(d.action in d.legal for d in [*loaded, *both])


def test_exports_are_stable_under_a_key_and_differ_under_another(
    server: ServerThread, database: str, tmp_path: Path
) -> None:
    _people_play(server, [None, "greedy"], [ANN])
    keys = tmp_path / "keys"
    first, second = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    _export("--database", database, "--data", str(keys), "--output", str(first))
    _export("--database", database, "--data", str(keys), "--output", str(second))
    assert first.read_bytes() == second.read_bytes()
    streamed = _export("--database", database, "--data", str(keys), "--game", "ace-pit")
    assert streamed.stdout.encode() == first.read_bytes()
    salted = tmp_path / "salted.jsonl"
    _export("--database", database, "--salt", "sixteen chars at least", "--output", str(salted))
    (one,), (other,) = dataset.read_games(first), dataset.read_games(salted)
    assert one["seats"][0]["id"] != other["seats"][0]["id"] and one["table"] != other["table"]
    assert one["steps"] == other["steps"]
    none = _export("--database", database, "--salt", "sixteen chars at least", "--game", "pits")
    assert none.stdout == "" and "Exported 0 finished matches" in none.stderr


def test_a_parquet_export_holds_the_same_records(
    server: ServerThread, database: str, tmp_path: Path
) -> None:
    pytest.importorskip("pyarrow")
    _people_play(server, [None, "greedy"], [ANN])
    base = ["--database", database, "--data", str(tmp_path / "keys")]
    lines, table = tmp_path / "games.jsonl", tmp_path / "games.parquet"
    _export(*base, "--output", str(lines))
    result = _export(*base, "--output", str(table), "--format", "parquet")
    assert "Exported 1 finished match to" in result.output
    assert table.read_bytes()[:4] == b"PAR1" and ANN.encode() not in table.read_bytes()
    assert list(dataset.read_games(table)) == list(dataset.read_games(lines))


def _empty_database(tmp_path: Path) -> Path:
    """A data folder with a database that has the schema and nothing else."""
    engine = storage.make_engine(database_url(str(tmp_path / "data"), None))
    storage.migrate(engine)
    engine.dispose()
    return tmp_path / "data"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--format", "parquet"], "Parquet is written to a file: give --output FILE"),
        (["--game", "chess"], "no game named 'chess'"),
        (["--salt", "short"], "needs at least 16 characters"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(tmp_path: Path, args: list[str], says: str) -> None:
    data = _empty_database(tmp_path)
    result = runner.invoke(app, ["db", "export-games", "--data", str(data), *args])
    assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output
    assert result.output.count("error:") == 1


def test_no_database_and_no_pyarrow_are_plain_errors_and_leave_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = runner.invoke(app, ["db", "export-games", "--data", str(tmp_path / "none")])
    assert result.exit_code == 2 and "there is no database in" in result.output
    data = _empty_database(tmp_path)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    out = tmp_path / "games.parquet"
    args = ["--data", str(data), "--format", "parquet", "--output", str(out)]
    result = runner.invoke(app, ["db", "export-games", *args])
    assert result.exit_code == 2 and "pip install pyarrow" in result.output
    assert not out.exists() and not (tmp_path / "games.parquet.partial").exists()
