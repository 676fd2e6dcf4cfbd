"""Human games as a dataset: the finished matches people played on a server, for
research (docs/learning.md, *Human games as a dataset*).

`pitkit db export-games` reads the matches from the server's database and writes
one record a match (`match_record`): JSON lines, or Parquet when pyarrow is
installed. A record holds every event in full, secret parts included, and the
match's seed, so `replay` rebuilds the match exactly. It is full information on
purpose, and only of matches that are over: nothing in it is still hidden from
anyone at a table. People's names become pseudonyms (`Pseudonyms`: a keyed HMAC,
stable for a name under one key); tokens, their hashes and the chat are never read.

`load_decisions` turns records into `(view, legal, action)` for imitation
learning. The view is the acting seat's own, as it saw the table when it acted,
never the full information of the record. This module imports nothing of the
server: a dataset is read without one.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import hmac
import importlib
import itertools
import json
import os
import re
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple, Protocol

from pitkit import games
from pitkit.core.events import Event
from pitkit.core.match import Match

__all__ = [
    "KEY_FILE",
    "MISSING_PYARROW",
    "SCHEMA",
    "Decision",
    "Pseudonyms",
    "StoredMatch",
    "decisions",
    "load_decisions",
    "match_record",
    "read_games",
    "replay",
    "replay_header",
    "write_jsonl",
    "write_parquet",
]

SCHEMA = 1
"""The version of a record's layout; a reader refuses any other."""

KEY_FILE = "export.key"
"""The file in the server's data folder that holds the pseudonyms' key."""

MISSING_PYARROW = "Parquet needs pyarrow (pip install pyarrow); or write JSON lines instead"

DEFAULT_NAME = re.compile(r"Player \d+")
"""The name the server gives a person who gave none: it names a seat, not a person."""

PARQUET_BATCH = 256
"""Matches written to a Parquet file at a time."""

JSON_COLUMNS = ("rules", "seats", "steps", "outcome")
"""The nested fields of a record, kept as JSON text in a Parquet file."""


class StoredSeat(Protocol):
    """A seat as the store keeps it (`storage.SeatRecord` is one)."""

    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def name(self) -> str | None: ...


class StoredStep(Protocol):
    """A step as the store keeps it (`storage.StepRecord` is one)."""

    @property
    def version(self) -> int: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def action(self) -> str | None: ...
    @property
    def events(self) -> Sequence[Mapping[str, Any]]: ...


class StoredMatch(Protocol):
    """A finished match as the store reads it (`storage.FinishedMatch` is one)."""

    @property
    def table_id(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def rules(self) -> Mapping[str, Any]: ...
    @property
    def seats(self) -> Sequence[StoredSeat]: ...
    @property
    def number(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def outcome(self) -> Mapping[str, Any] | None: ...
    @property
    def ended(self) -> float: ...
    @property
    def steps(self) -> Sequence[StoredStep]: ...


class Pseudonyms:
    """Pseudonyms for people's names and tables' ids: HMAC-SHA256 under a secret key,
    so the same name gets the same pseudonym in every match and every export under
    that key, and nobody without the key can test a guessed name against one (a bare
    hash of a name could be)."""

    def __init__(self, key: bytes) -> None:
        """`key`: at least 16 bytes, kept secret."""
        if len(key) < 16:
            raise ValueError("the pseudonyms' key (--salt) needs at least 16 characters")
        self._key = key

    @classmethod
    def from_file(cls, path: Path) -> Pseudonyms:
        """Pseudonyms under the key in `path`, which is made (random, readable by its
        owner alone) if there is none yet."""
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            key = path.read_text(encoding="utf-8").strip().encode()
            if len(key) < 16:
                raise ValueError(f"{path} holds no key of 16 characters or more") from None
            return cls(key)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(secrets.token_hex(32) + "\n")
        return cls.from_file(path)

    def _digest(self, *parts: str) -> str:
        message = "\0".join(parts).encode("utf-8", "surrogatepass")
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:16]

    def person(self, name: str, table_id: str) -> str:
        """A person's pseudonym, ``p-`` and 16 hex digits: the same for the same name
        at every table, except the server's default names ("Player 2"), which name a
        seat rather than a person and so get a pseudonym of that table alone."""
        if DEFAULT_NAME.fullmatch(name):
            return "p-" + self._digest("seat", table_id, name)
        return "p-" + self._digest("person", name)

    def table(self, table_id: str) -> str:
        """A table's pseudonym, ``t-`` and 16 hex digits (an id opens the table's page)."""
        return "t-" + self._digest("table", table_id)


def _seat_entry(seat: StoredSeat, table_id: str, names: Pseudonyms) -> dict[str, Any]:
    """Who holds a seat: a person by pseudonym, a bot by its name, or nobody."""
    if seat.kind == "player":
        name = seat.name or f"Player {seat.seat + 1}"
        named = DEFAULT_NAME.fullmatch(name) is None
        return {"kind": "person", "id": names.person(name, table_id), "named": named}
    if seat.kind == "bot":
        return {"kind": "bot", "bot": seat.bot}
    return {"kind": "open"}


def match_record(stored: StoredMatch, names: Pseudonyms) -> dict[str, Any]:
    """A finished match as one record of the dataset (docs/learning.md has the schema)."""
    ended = datetime.datetime.fromtimestamp(stored.ended, datetime.UTC).date()
    seats = sorted(stored.seats, key=lambda seat: seat.seat)
    return {
        "schema": SCHEMA,
        "game": stored.game,
        "table": names.table(stored.table_id),
        "match": stored.number,
        "players": stored.players,
        "rules": dict(stored.rules),
        "seed": stored.seed,
        "ended": ended.isoformat(),
        "seats": [_seat_entry(seat, stored.table_id, names) for seat in seats],
        "steps": [
            {
                "version": step.version,
                "seat": step.seat,
                "action": step.action,
                "events": list(step.events),
            }
            for step in stored.steps
        ],
        "outcome": None if stored.outcome is None else dict(stored.outcome),
    }


def write_jsonl(records: Iterable[Mapping[str, Any]], out: IO[str]) -> int:
    """Write `records` as JSON lines; how many were written."""
    count = 0
    for record in records:
        out.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n")
        count += 1
    return count


def _pyarrow() -> tuple[Any, Any]:
    """pyarrow and pyarrow.parquet, or ValueError saying how to get them."""
    try:
        return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ValueError(MISSING_PYARROW) from None


def _parquet_schema(pa: Any) -> Any:
    """The columns of a Parquet file: the record's fields, the nested ones as JSON text."""
    return pa.schema(
        [
            ("schema", pa.int32()),
            ("game", pa.string()),
            ("table", pa.string()),
            ("match", pa.int32()),
            ("players", pa.int32()),
            ("rules", pa.string()),
            ("seed", pa.int64()),
            ("ended", pa.string()),
            ("seats", pa.string()),
            ("steps", pa.string()),
            ("outcome", pa.string()),
        ]
    )


def write_parquet(records: Iterable[Mapping[str, Any]], path: Path) -> int:
    """Write `records` to a Parquet file at `path`, one row a match (the nested fields
    as JSON text); how many were written. ValueError without pyarrow."""
    pa, pq = _pyarrow()
    schema = _parquet_schema(pa)
    count = 0
    with pq.ParquetWriter(str(path), schema) as writer:
        records = iter(records)
        while batch := list(itertools.islice(records, PARQUET_BATCH)):
            rows = [
                {
                    key: json.dumps(value, separators=(",", ":")) if key in JSON_COLUMNS else value
                    for key, value in record.items()
                }
                for record in batch
            ]
            writer.write_table(pa.Table.from_pylist(rows, schema=schema))
            count += len(rows)
    return count


def _read_parquet(path: Path) -> Iterator[dict[str, Any]]:
    _, pq = _pyarrow()
    for batch in pq.ParquetFile(str(path)).iter_batches(batch_size=PARQUET_BATCH):
        for row in batch.to_pylist():
            yield {key: json.loads(v) if key in JSON_COLUMNS else v for key, v in row.items()}


def _text(path: Path) -> IO[str]:
    """`path` opened as text, gunzipped as it is read if it is gzipped."""
    with path.open("rb") as raw:
        zipped = raw.read(2) == b"\x1f\x8b"
    return gzip.open(path, "rt", encoding="utf-8") if zipped else path.open(encoding="utf-8")


def _read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with _text(path) as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not a line of pitkit games: {exc}") from None


def read_games(path: str | Path, game: str | None = None) -> Iterator[dict[str, Any]]:
    """The records in a file `pitkit db export-games` wrote (JSON lines, gzipped or
    not, or Parquet), those of `game` alone if given. ValueError: not such a file."""
    path = Path(path)
    with path.open("rb") as raw:
        parquet = raw.read(4) == b"PAR1"
    for record in _read_parquet(path) if parquet else _read_jsonl(path):
        if not isinstance(record, dict) or record.get("schema") != SCHEMA:
            found = record.get("schema") if isinstance(record, dict) else None
            raise ValueError(f"{path}: a record of schema {found!r}; this pitkit reads {SCHEMA}")
        if game is None or record["game"] == game:
            yield record


def replay_header(record: Mapping[str, Any]) -> dict[str, Any]:
    """What `Game.replay` needs besides the events: the first line of a match's log."""
    return {
        "game": record["game"],
        "players": record["players"],
        "rules": record["rules"],
        "seed": record["seed"],
    }


def _events(record: Mapping[str, Any]) -> list[Event]:
    return [Event.from_json(event) for step in record["steps"] for event in step["events"]]


def replay(record: Mapping[str, Any]) -> Match[Any, Any]:
    """The match a record holds, rebuilt from its seed and events."""
    return games.get(record["game"]).replay(replay_header(record), _events(record))


class Decision(NamedTuple):
    """One move of the dataset: what the seat saw, what it could do, what it did."""

    view: dict[str, Any]
    """The acting seat's own view (`State.view(seat)`) as the move was made."""
    legal: list[str]
    """The texts of its legal actions then (Pit accepts a false corner not among them)."""
    action: str
    """The text of the action it took."""


def decisions(record: Mapping[str, Any], people_only: bool = True) -> Iterator[Decision]:
    """Each move of a record's match as a `Decision`, in order; `people_only`: only
    the moves made at seats a person held."""
    game = games.get(record["game"])
    events = _events(record)
    states = game.replay_steps(replay_header(record), events)
    # `replay_steps` yields the match (changed in place) before each action and each
    # replayed event (a Pitch ruling), so each view is taken before asking for the next.
    first = next(states)
    moves = [e for e in events if e.type == "action" or e.type in first.replayed_events]
    people = {i for i, seat in enumerate(record["seats"]) if seat["kind"] == "person"}
    for event, match in zip(moves, itertools.chain([first], states), strict=False):
        if event.type != "action":
            continue
        seat = int(event.public["seat"])
        if people_only and seat not in people:
            continue
        # A copy through JSON: the match changes in place once the generator moves on.
        view = json.loads(json.dumps(match.view(seat)))
        legal = [str(action) for action in match.legal_actions(seat)]
        action = event.secret.get("action", event.public.get("action"))
        yield Decision(view, legal, str(action))


def load_decisions(
    path: str | Path, game: str | None = None, people_only: bool = True
) -> Iterator[Decision]:
    """Every `Decision` of a dataset file (of `game` alone if given): for imitation
    learning, by default the people's moves only."""
    for record in read_games(path, game):
        yield from decisions(record, people_only)
