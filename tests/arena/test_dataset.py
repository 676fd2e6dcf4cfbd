"""Human games as a dataset, without a server (`pitkit.arena.dataset`): records
replay to their matches, the loader's views are the acting seat's own, names
become keyed pseudonyms, and files round-trip as JSON lines (gzipped or not) and
as Parquet. The database and `pitkit db export-games`: tests/server/test_export_games.py."""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pitkit import games
from pitkit.arena import dataset
from pitkit.arena.dataset import Decision, Pseudonyms

KEY = b"a test key, not a secret one"


@dataclass
class Seat:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


@dataclass
class Step:
    version: int
    seat: int | None
    action: str | None
    events: list[dict[str, Any]]


@dataclass
class Stored:
    """A finished match as the store reads it (storage.FinishedMatch's shape)."""

    table_id: str
    game: str
    players: int
    rules: dict[str, Any]
    seats: list[Seat]
    number: int
    seed: int
    outcome: dict[str, Any] | None
    ended: float
    steps: list[Step]
    expected: list[Decision] = field(default_factory=list)
    """Every move as it was played: the seat's view, its legal actions, the action."""
    hidden: int = 0
    """Moves at which a redeal of what the seat could not see changed the cards."""


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _played(game_name: str, rules: dict[str, Any], seed: int, seats: list[Seat]) -> Stored:
    """A match played by random legal moves, stored as the server stores one, with
    each move's view checked unchanged by a redeal of the cards its seat cannot see."""
    game = games.get(game_name)
    match = game.new_match(len(seats), rules, seed=seed)
    rng = random.Random(seed)
    steps = [Step(0, None, None, _json([e.to_json() for e in match.log]))]
    stored = Stored("Tbl0000secret", game_name, len(seats), match.rules.to_json(), seats, 1, seed,
                    None, 1_790_000_000.0, steps)  # fmt: skip
    while not match.is_over:
        seat = min(match.to_act)
        view = _json(match.view(seat))
        redealt = match.redeal_unseen(seat, rng.getrandbits(32))
        assert _json(redealt.view(seat)) == view
        stored.hidden += redealt.zones() != match.zones()
        legal = [str(a) for a in match.legal_actions(seat)]
        action = rng.choice(legal)
        stored.expected.append(Decision(view, legal, action))
        events = match.apply(seat, action)
        steps.append(Step(len(steps), seat, action, _json([e.to_json() for e in events])))
    assert match.outcome is not None
    stored.outcome = match.outcome.to_json()
    return stored


ANN = Seat(0, "player", None, "Ann Lovelace")
GREEDY = Seat(1, "bot", "greedy", None)


@pytest.mark.parametrize(
    ("game", "rules"),
    [("ace-pit", {"hands": 1}), ("pitty-pat", {"target": 1}), ("pits", {"hands": 1})],
)
def test_a_record_replays_to_its_match_and_gives_each_seats_own_views(
    game: str, rules: dict[str, Any]
) -> None:
    players = 5 if game == "pits" else 2
    seats = [ANN, GREEDY] + [Seat(i, "open", None, None) for i in range(2, players)]
    stored = _played(game, rules, 11, seats)
    record = dataset.match_record(stored, Pseudonyms(KEY))
    events = [e for step in stored.steps for e in step.events]
    match = dataset.replay(record)
    assert _json([e.to_json() for e in match.log]) == events
    assert match.outcome is not None and match.outcome.to_json() == stored.outcome
    # Every move, the seat's own view as it was (a redeal of its unseen cards left it
    # the same, and did change the cards of others at some moves).
    assert list(dataset.decisions(record, people_only=False)) == stored.expected
    assert stored.hidden > 0
    for view, legal, action in stored.expected:
        assert action in legal and view["legal"] == legal
    # By default, the person's moves alone.
    own = [d for d in stored.expected if d.view["seat"] == 0]
    assert list(dataset.decisions(record)) == own and 0 < len(own) < len(stored.expected)


def test_a_concealed_action_is_taken_whole_from_the_secret_part() -> None:
    stored = _played("pits", {"hands": 2}, 4, [Seat(i, "player", None, f"P{i}") for i in range(5)])
    record = dataset.match_record(stored, Pseudonyms(KEY))
    hidden = [
        e for step in record["steps"] for e in step["events"] if "action" in e.get("secret", {})
    ]
    assert hidden, "Pits' exchange is concealed: its action is in the event's secret part"
    assert [d.action for d in dataset.decisions(record)] == [d.action for d in stored.expected]


def test_the_record_has_the_schema_and_no_name_token_or_table_id() -> None:
    seats = [Seat(0, "player", None, "Ann Lovelace"), Seat(1, "player", None, "Player 2")]
    stored = _played("ace-pit", {"hands": 1}, 5, seats)
    names = Pseudonyms(KEY)
    record = dataset.match_record(stored, names)
    assert set(record) == {
        "schema", "game", "table", "match", "players", "rules", "seed", "ended", "seats",
        "steps", "outcome",
    }  # fmt: skip
    assert (record["schema"], record["game"], record["match"]) == (1, "ace-pit", 1)
    assert record["table"] == names.table("Tbl0000secret") and record["ended"] == "2026-09-21"
    assert record["seats"] == [
        {"kind": "person", "id": names.person("Ann Lovelace", "Tbl0000secret"), "named": True},
        {"kind": "person", "id": names.person("Player 2", "Tbl0000secret"), "named": False},
    ]
    assert [s["version"] for s in record["steps"]] == list(range(len(stored.steps)))
    assert record["steps"][0]["seat"] is None and record["steps"][1]["action"]
    text = json.dumps(record)
    for secret in ("Ann", "Lovelace", "Player 2", "Tbl0000secret", seats[0].token_hash):
        assert secret not in text
    assert dataset.match_record(stored, Pseudonyms(KEY)) == record  # the same each time


def test_pseudonyms_are_keyed_stable_and_distinct(tmp_path: Path) -> None:
    names = Pseudonyms(KEY)
    ann = names.person("Ann", "t1")
    assert ann == names.person("Ann", "t2") == Pseudonyms(KEY).person("Ann", "t9")
    assert ann.startswith("p-") and len(ann) == 18
    assert names.person("Bob", "t1") != ann and names.person("ann", "t1") != ann
    assert Pseudonyms(b"another key, just as long").person("Ann", "t1") != ann
    # The server's default name stands for a seat: each table's is its own.
    assert names.person("Player 1", "t1") != names.person("Player 1", "t2")
    assert names.table("t1") != names.table("t2") and names.table("t1").startswith("t-")
    with pytest.raises(ValueError, match="16 characters"):
        Pseudonyms(b"short")
    # The key file is made once, readable by its owner alone, and read back after.
    path = tmp_path / dataset.KEY_FILE
    made = Pseudonyms.from_file(path).person("Ann", "t1")
    assert path.stat().st_mode & 0o777 == 0o600 and len(path.read_text().strip()) == 64
    assert Pseudonyms.from_file(path).person("Ann", "t1") == made != ann
    path.write_text("\n")
    with pytest.raises(ValueError, match="holds no key of 16 characters or more"):
        Pseudonyms.from_file(path)


def _records() -> list[dict[str, Any]]:
    names = Pseudonyms(KEY)
    return [
        dataset.match_record(_played("ace-pit", {"hands": 1}, seed, [ANN, GREEDY]), names)
        for seed in (1, 2)
    ] + [dataset.match_record(_played("pitty-pat", {"target": 1}, 3, [ANN, GREEDY]), names)]


def test_json_lines_round_trip_gzipped_or_not_and_by_game(tmp_path: Path) -> None:
    records = _records()
    out = io.StringIO()
    assert dataset.write_jsonl(records, out) == 3
    plain = tmp_path / "games.jsonl"
    plain.write_text(out.getvalue())
    zipped = tmp_path / "games.jsonl.gz"
    zipped.write_bytes(gzip.compress(out.getvalue().encode()))
    for path in (plain, zipped):
        assert list(dataset.read_games(path)) == records
        assert list(dataset.read_games(path, "pitty-pat")) == records[2:]
    loaded = list(dataset.load_decisions(plain, "ace-pit"))
    assert loaded == [d for r in records[:2] for d in dataset.decisions(r)] and loaded


def test_a_file_that_is_not_a_dataset_is_refused(tmp_path: Path) -> None:
    record = _records()[0]
    newer = tmp_path / "newer.jsonl"
    newer.write_text(json.dumps({**record, "schema": 2}) + "\n")
    with pytest.raises(ValueError, match="schema 2; this pitkit reads 1"):
        list(dataset.read_games(newer))
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(record) + "\n{not json\n")
    with pytest.raises(ValueError, match=r"broken.jsonl:2: not a line of pitkit games"):
        list(dataset.read_games(broken))


def test_parquet_without_pyarrow_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(ValueError, match=r"pip install pyarrow"):
        dataset.write_parquet(_records(), tmp_path / "games.parquet")
    assert not (tmp_path / "games.parquet").exists()


def test_parquet_round_trips(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    records = _records()
    path = tmp_path / "games.parquet"
    assert dataset.write_parquet(records, path) == 3
    assert list(dataset.read_games(path)) == records
    assert len(list(dataset.load_decisions(path, "pitty-pat"))) > 0
