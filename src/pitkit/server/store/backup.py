"""Backups: the whole database as one portable file, and back (`pitkit db`).

A backup is gzip-compressed JSON lines. The first line is a header::

    {"format": "pitkit-backup", "version": 1, "schema": "0001",
     "taken": "2025-11-30T12:00:00+00:00", "tables": {"tables": 3, "seats": 9, ...}}

then one line per row, ``{"t": "steps", "r": {"table_id": ..., "version": 3, ...}}``,
table after table in foreign-key order (`metadata.sorted_tables`). Values are
plain JSON (strings, numbers, null), so a backup of SQLite restores into
PostgreSQL and the reverse.

A backup reads every table in one snapshot (PostgreSQL: a read-only REPEATABLE
READ transaction; SQLite: one read transaction, which WAL keeps apart from the
writer), so one taken while the server runs is consistent, and streams its rows.
A restore writes everything in one transaction: if anything is wrong (another
schema, a damaged file, a row count that differs from the header), nothing changes.
"""

from __future__ import annotations

import contextlib
import datetime
import gzip
import json
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Connection, Engine, Table, func, select
from sqlalchemy.exc import DBAPIError

from pitkit.server.store import storage

__all__ = ["FORMAT", "VERSION", "BackupError", "Summary", "backup", "head_revision", "restore"]

FORMAT = "pitkit-backup"
VERSION = 1
BATCH = 1000
"""Rows fetched, written or inserted at a time."""


class BackupError(Exception):
    """A backup cannot be taken or restored; the message says why."""


@dataclass
class Summary:
    """What a backup or a restore did: the schema revision, rows per table, seconds."""

    schema: str
    tables: dict[str, int]
    seconds: float

    @property
    def rows(self) -> int:
        """Rows in every table together."""
        return sum(self.tables.values())


def head_revision() -> str:
    """The schema revision this pitkit's migrations end at."""
    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


@contextlib.contextmanager
def _transaction(engine: Engine, read_only: bool) -> Iterator[Connection]:
    """One transaction that sees one moment of the database throughout."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            # pysqlite begins no transaction before a SELECT, so each read would see its
            # own moment: begin by hand. A read transaction's first read fixes its snapshot
            # (WAL: the server goes on writing meanwhile); IMMEDIATE takes the write lock.
            conn.execution_options(isolation_level="AUTOCOMMIT")
            conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.exec_driver_sql("ROLLBACK")
                raise
            conn.exec_driver_sql("ROLLBACK" if read_only else "COMMIT")
            return
        postgres = engine.dialect.name == "postgresql"
        if postgres:
            conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=read_only)
        with conn.begin():
            if postgres:
                # make_engine bounds each statement to 10 s and a transaction's pauses to
                # 30 s, for the server's sake; counting or emptying a big table may take
                # longer, and a backup piped to a slow reader pauses between fetches.
                conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
                conn.exec_driver_sql("SET LOCAL idle_in_transaction_session_timeout = 0")
            yield conn


def _revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def _line(data: dict[str, Any]) -> bytes:
    # ASCII: a lone surrogate in a stored string still round-trips (as an escape).
    return json.dumps(data, separators=(",", ":")).encode("ascii") + b"\n"


def backup(engine: Engine, out: IO[bytes]) -> Summary:
    """Write a backup of the database at `engine` to `out` (left open)."""
    start = time.perf_counter()
    head = head_revision()
    with _transaction(engine, read_only=True) as conn:
        schema = _revision(conn)
        if schema is None:
            raise BackupError("the database holds no pitkit schema")
        if schema != head:
            raise BackupError(
                f"the database's schema is revision {schema}, this pitkit's is {head}: "
                "back it up with the pitkit that uses it, or start this one on it first"
            )
        counts = {
            t.name: int(conn.execute(select(func.count()).select_from(t)).scalar_one())
            for t in storage.metadata.sorted_tables
        }
        header = {
            "format": FORMAT,
            "version": VERSION,
            "schema": schema,
            "taken": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "tables": counts,
        }
        with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=6) as gz:
            gz.write(_line(header))
            for table in storage.metadata.sorted_tables:
                written = _write_table(conn, table, gz)
                # Same snapshot: a difference is a bug here, not a busy server.
                if written != counts[table.name]:
                    raise BackupError(
                        f"read {written} rows of {table.name}, counted {counts[table.name]}"
                    )
    return Summary(schema, counts, time.perf_counter() - start)


def _write_table(conn: Connection, table: Table, gz: gzip.GzipFile) -> int:
    names = list(table.columns.keys())
    # yield_per streams: a server-side cursor on PostgreSQL, fetchmany on SQLite.
    result = conn.execution_options(yield_per=BATCH).execute(
        select(table).order_by(*table.primary_key.columns)
    )
    written = 0
    for rows in result.partitions():
        gz.write(
            b"".join(
                _line({"t": table.name, "r": dict(zip(names, row, strict=True))}) for row in rows
            )
        )
        written += len(rows)
    return written


def _read_header(gz: gzip.GzipFile) -> dict[str, Any]:
    first = gz.readline()
    try:
        header = json.loads(first)
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupError("this is not a pitkit backup")
    if header.get("version") != VERSION:
        raise BackupError(
            f"this backup's format is version {header.get('version')!r}; "
            f"this pitkit reads version {VERSION}"
        )
    head = head_revision()
    if header.get("schema") != head:
        raise BackupError(
            f"this backup's schema is revision {header.get('schema')!r}, this pitkit's is "
            f"{head}: restore it with the pitkit that took it"
        )
    known = {t.name for t in storage.metadata.sorted_tables}
    tables = header.get("tables")
    if (
        not isinstance(tables, dict)
        or set(tables) != known
        or not all(type(n) is int and n >= 0 for n in tables.values())
    ):
        raise BackupError("this backup's header is damaged (its table counts)")
    return header


def restore(engine: Engine, source: IO[bytes], force: bool = False) -> Summary:
    """Restore the backup read from `source` into the database at `engine`.

    The database is first migrated to this pitkit's schema. It must hold no
    rows unless `force`, which empties it first. Everything happens in one
    transaction: on any error (BackupError says which) the rows stay as they were.
    """
    start = time.perf_counter()
    try:
        with gzip.GzipFile(fileobj=source, mode="rb") as gz:
            return _restore(engine, gz, force, start)
    except (OSError, EOFError, zlib.error) as exc:
        # gzip: BadGzipFile (an OSError) for what is not gzip, EOFError for a cut-off file.
        raise BackupError(f"the backup file is damaged or cut short ({exc})") from None


def _restore(engine: Engine, gz: gzip.GzipFile, force: bool, start: float) -> Summary:
    header = _read_header(gz)
    try:
        storage.migrate(engine)
    except CommandError as exc:  # e.g. a database of a newer pitkit
        raise BackupError(
            f"the database cannot be brought to this pitkit's schema: {exc}"
        ) from None
    with _transaction(engine, read_only=False) as conn:
        if _revision(conn) != header["schema"]:
            raise BackupError(f"the database's schema is not revision {header['schema']}")
        tables = storage.metadata.sorted_tables
        held = [t.name for t in tables if conn.execute(select(1).select_from(t).limit(1)).first()]
        if held and not force:
            raise BackupError(
                f"the database already holds rows ({', '.join(held)}); "
                "restore into an empty one, or give --force to replace them"
            )
        for table in reversed(tables):  # children first, for the foreign keys
            conn.execute(table.delete())
        read = _insert_rows(conn, gz)
        expected: dict[str, int] = header["tables"]
        for table in tables:
            if read.get(table.name, 0) != expected[table.name]:
                raise BackupError(
                    f"the backup holds {read.get(table.name, 0)} rows of {table.name} where "
                    f"its header says {expected[table.name]}: it is incomplete or damaged"
                )
            stored = conn.execute(select(func.count()).select_from(table)).scalar_one()
            if stored != expected[table.name]:
                raise BackupError(
                    f"{stored} rows of {table.name} stored, not {expected[table.name]}"
                )
    return Summary(header["schema"], dict(expected), time.perf_counter() - start)


def _insert_rows(conn: Connection, gz: gzip.GzipFile) -> dict[str, int]:
    """Insert the rows after the header, a batch at a time; the rows read per table."""
    tables = {t.name: t for t in storage.metadata.sorted_tables}
    columns = {name: set(t.columns.keys()) for name, t in tables.items()}
    read: dict[str, int] = {}
    batch: list[dict[str, Any]] = []
    current: str | None = None

    def flush() -> None:
        if batch and current is not None:
            try:
                conn.execute(tables[current].insert(), batch)
            except DBAPIError as exc:
                raise BackupError(f"the database refused rows of {current}: {exc.orig}") from None
            batch.clear()

    for number, line in enumerate(gz, start=2):
        try:
            item = json.loads(line)
            name, row = item["t"], item["r"]
            ok = name in tables and isinstance(row, dict) and set(row) == columns[name]
        except (ValueError, TypeError, KeyError):
            ok = False
        if not ok:
            raise BackupError(f"line {number} of the backup is damaged")
        if name != current or len(batch) >= BATCH:
            flush()
            current = name
        batch.append(row)
        read[name] = read.get(name, 0) + 1
    flush()
    return read
