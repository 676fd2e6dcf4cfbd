"""Storage: the schema, its migrations, and one writer thread with group commit.

Everything the server must not lose is a row here: each table (game, rules,
settings, seats) and, per match, its seed and an append-only list of steps.
Step 0 holds the events of the deal; step v (v >= 1) is the v-th accepted
action with every event it produced, in the full form of `Event.to_json`, so
`Game.replay` rebuilds the match exactly. A step is committed before the
action is acknowledged or broadcast.

All database work runs on one thread, so SQLite sees one writer and the event
loop never blocks on disk. Jobs that arrive while a commit is under way are
committed together (group commit): one fsync for many tables' actions.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import SQLAlchemyError

from pitkit.server.ops.metrics import Metrics

__all__ = [
    "COMMIT_GAP",
    "ChatRecord",
    "DatabaseError",
    "FinishedMatch",
    "MatchRecord",
    "SeatRecord",
    "StepRecord",
    "Store",
    "StoreTimeoutError",
    "StoreUnsureError",
    "TableRecord",
    "json_text",
    "metadata",
    "migrate",
]

log = logging.getLogger("pitkit.server")
T = TypeVar("T")

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rules", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_tables_status", "status"),
)

seats_t = Table(
    "seats",
    metadata,
    Column("table_id", String(24), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("bot", String(40), nullable=True),
    Column("name", String(80), nullable=True),
    Column("token_hash", String(64), nullable=False),
    PrimaryKeyConstraint("table_id", "seat"),
    ForeignKeyConstraint(["table_id"], ["tables.id"]),
)

matches_t = Table(
    "matches",
    metadata,
    Column("table_id", String(24), nullable=False),
    Column("number", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("outcome", Text, nullable=True),
    Column("started", Float, nullable=False),
    Column("ended", Float, nullable=True),
    PrimaryKeyConstraint("table_id", "number"),
    ForeignKeyConstraint(["table_id"], ["tables.id"]),
)

steps_t = Table(
    "steps",
    metadata,
    Column("table_id", String(24), nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("action", Text, nullable=True),
    Column("events", Text, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "match_no", "version"),
    ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.number"]),
)


# Tournaments (server/tournaments/service.py): each is a log of entries, never rewritten.
events_t = Table(
    "events",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("kind", String(32), nullable=False),
    Column("name", String(120), nullable=False),
    Column("options", Text, nullable=False),
    Column("created", Float, nullable=False),
)

event_links_t = Table(
    "event_links",
    metadata,
    Column("event_id", String(24), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("role", String(16), nullable=False),
    Column("name", String(80), nullable=True),
    Column("created", Float, nullable=False),
    Column("revoked", Float, nullable=True),
    PrimaryKeyConstraint("event_id", "token_hash"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)

event_entries_t = Table(
    "event_entries",
    metadata,
    Column("event_id", String(24), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("role", String(16), nullable=False),
    Column("author", String(80), nullable=True),
    Column("type", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("corrects", Integer, nullable=True),
    PrimaryKeyConstraint("event_id", "seq"),
    ForeignKeyConstraint(["event_id"], ["events.id"]),
)

# Each table's chat (issue 20): what the players said, kept with the table.
chat_t = Table(
    "chat",
    metadata,
    Column("table_id", String(24), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("name", String(80), nullable=False),
    Column("text", Text, nullable=False),
    PrimaryKeyConstraint("table_id", "seq"),
    ForeignKeyConstraint(["table_id"], ["tables.id"]),
)

# Players' profiles (docs/profiles.md; their jobs: store/profiles.py). No password, no
# e-mail: each device holds its own secret (a hash here), and a profile signs a new
# device in by a one-time code or a passkey.
profiles_t = Table(
    "profiles",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("skeleton", String(320), nullable=False),
    Column("colour", String(7), nullable=False),
    Column("created", Float, nullable=False),
    # Two profiles never look alike: the name folded for look-alikes (live/names.py).
    Index("ix_profiles_skeleton", "skeleton", unique=True),
)

profile_devices_t = Table(
    "profile_devices",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("id", String(16), nullable=False),
    Column("profile_id", String(16), nullable=False),
    Column("how", String(16), nullable=False),
    Column("created", Float, nullable=False),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"]),
    Index("ix_profile_devices_id", "id", unique=True),
    Index("ix_profile_devices_profile", "profile_id"),
)

profile_codes_t = Table(
    "profile_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("profile_id", String(16), nullable=False),
    Column("expires", Float, nullable=False),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"]),
    Index("ix_profile_codes_profile", "profile_id"),
)

profile_passkeys_t = Table(
    "profile_passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),
    Column("profile_id", String(16), nullable=False),
    Column("public_key", Text, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("created", Float, nullable=False),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"]),
    Index("ix_profile_passkeys_profile", "profile_id"),
)

profile_challenges_t = Table(
    "profile_challenges",
    metadata,
    Column("challenge", String(128), primary_key=True),
    Column("purpose", String(16), nullable=False),
    Column("profile_id", String(16), nullable=True),
    Column("expires", Float, nullable=False),
)

# A seat's profile follows the seat's secret (its hash): a host's move carries it to
# the other seat with its player, and a seat reopened or given to a bot has a new
# secret, so it is nobody's profile's any more.
profile_seats_t = Table(
    "profile_seats",
    metadata,
    Column("table_id", String(24), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("profile_id", String(16), nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "token_hash"),
    ForeignKeyConstraint(["table_id"], ["tables.id"]),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"]),
    Index("ix_profile_seats_profile", "profile_id"),
)

# Web Push (docs/notices.md; their jobs: store/push.py). The server's VAPID key is made
# once and kept here, so every worker signs with the same one; a browser's subscription
# belongs to a profile and is removed when the push service says it is gone.
server_keys_t = Table(
    "server_keys",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
    Column("created", Float, nullable=False),
)

push_subscriptions_t = Table(
    "push_subscriptions",
    metadata,
    Column("endpoint", String(1000), primary_key=True),
    Column("profile_id", String(16), nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created", Float, nullable=False),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"]),
    Index("ix_push_subscriptions_profile", "profile_id"),
)

# Ratings (docs/ratings.md; their jobs: store/ratings.py). A profile's openskill rating
# per game, and one row per profile per rated match: its history, and the guard that
# rates a match once however many workers see it end.
ratings_t = Table(
    "ratings",
    metadata,
    Column("profile_id", String(16), nullable=False),
    Column("game", String(32), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    PrimaryKeyConstraint("profile_id", "game"),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"]),
    Index("ix_ratings_game", "game"),
)

rated_matches_t = Table(
    "rated_matches",
    metadata,
    Column("table_id", String(24), nullable=False),
    Column("number", Integer, nullable=False),
    Column("profile_id", String(16), nullable=False),
    Column("game", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "number", "profile_id"),
    ForeignKeyConstraint(["table_id", "number"], ["matches.table_id", "matches.number"]),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"]),
    Index("ix_rated_matches_profile", "profile_id", "at"),
)


@dataclass
class SeatRecord:
    """One seat as stored."""

    seat: int
    kind: str  # open | bot | player
    bot: str | None
    name: str | None
    token_hash: str


@dataclass
class ChatRecord:
    """One chat message as stored (seat None: a spectator)."""

    seq: int
    at: float
    seat: int | None
    name: str
    text: str


@dataclass
class MatchRecord:
    """One match as stored: its seed and its steps' events, by version."""

    number: int
    seed: int
    steps: list[list[dict[str, Any]]]
    over: bool


@dataclass
class TableRecord:
    """One table as stored, with its current match (if one has started)."""

    id: str
    game: str
    players: int
    rules: dict[str, Any]
    settings: dict[str, Any]
    host_hash: str
    status: str
    match_no: int
    created: float
    updated: float = 0.0
    seats: list[SeatRecord] = field(default_factory=list)
    match: MatchRecord | None = None
    chat: list[ChatRecord] = field(default_factory=list)
    """The latest chat messages, oldest first (`read_table`'s `chat` of them)."""


def json_text(value: Any) -> str:
    """`value` as compact JSON text: what is stored, and what goes on the wire.

    orjson writes it ten times as fast as the standard library, and as UTF-8
    rather than with \\u escapes; a string that is not valid UTF-8 (a lone
    surrogate, which a client's "\\ud800" decodes to) it refuses, and the
    standard library writes that as an escape."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"))


MIGRATION_LOCK = 0x70697463686D6967  # "pitchmig": the advisory lock migrations hold


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with the migrations shipped in the package."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Workers started together (systemd units) would race to create the
            # schema: one migrates, the others wait here, then find it done.
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = conn
        command.upgrade(config, "head")


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets WAL and full fsync, since a step must survive a
    crash; PostgreSQL gets timeouts (it is fsync'd by default)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    if url.startswith("postgresql"):
        # A database that hangs must fail a job, not hold the writer thread forever:
        # bounded connect, statements, lock waits and forgotten transactions, and
        # keepalives so a dead peer on TCP is noticed (libpq ignores them on a Unix socket).
        return create_engine(
            url,
            pool_pre_ping=True,
            connect_args={
                "connect_timeout": 5,
                "options": "-c statement_timeout=10000 -c lock_timeout=5000"
                " -c idle_in_transaction_session_timeout=30000",
                "keepalives": 1,
                "keepalives_idle": 30,
                "keepalives_interval": 10,
                "keepalives_count": 3,
            },
        )
    return create_engine(url, pool_pre_ping=True)


@dataclass
class _Job:
    fn: Callable[[Connection], Any]
    future: asyncio.Future[Any] | None
    loop: asyncio.AbstractEventLoop | None
    abandoned: bool = False
    """Set when the caller stopped waiting: a job not yet begun is then skipped."""
    begun: bool = False
    """Set by the writer as it takes the job into a commit (under `Store._claim`)."""


DatabaseError = SQLAlchemyError
"""Any error of the database or its driver: what a caller outside the store
catches (the CLI's `db` commands), without importing SQLAlchemy itself."""


class StoreTimeoutError(TimeoutError):
    """The database did not answer in time, and the job had not begun: it never will,
    so nothing it would have written is stored."""


class StoreUnsureError(StoreTimeoutError):
    """The database did not answer in time while it was committing the job: the job
    may still be committed later, or may not. Only the database can tell."""


_STOP = object()

COMMIT_GAP = 0.0
"""Seconds at least between the starts of two commits while the writer is busy, unless
the server sets its own (`Limits.commit_gap`, 5 ms). A commit costs the writer some
300 µs of CPU however few jobs it holds (SQLite's fsync, the driver, waking the event
loop), and a busy writer would commit each action nearly alone as it comes: waiting
after the last commit gathers those that follow (at 480 actions a second, 1.3 jobs a
commit became 2.6, and the server's CPU an action fell by a fifth), for at most that
much more latency."""

BUSY_SECONDS = 0.2
"""The writer is busy for this long after a commit that held more than one job (jobs
came from more than one table at once). One table playing alone, whose every action
waits for the one before, or an idle server, never waits for `COMMIT_GAP`."""


class Store:
    """The database, reached through one writer thread with group commit."""

    def __init__(
        self,
        url: str,
        batch: int = 512,
        timeout: float = 10.0,
        metrics: Metrics | None = None,
        gap: float = COMMIT_GAP,
    ) -> None:
        """`batch`: the most jobs a commit takes; `timeout`: seconds a caller waits
        (`run`); `gap`: the least time between the starts of two commits (`COMMIT_GAP`)."""
        self.url = url
        self.engine = make_engine(url)
        self.batch = batch
        self.timeout = timeout
        self.gap = gap
        self._last_commit = 0.0
        self._busy_until = 0.0
        self._queue: queue.SimpleQueue[_Job | object] = queue.SimpleQueue()
        # Settles the race between the writer taking a job and its caller giving up.
        self._claim = threading.Lock()
        self._thread: threading.Thread | None = None
        self.commits = 0
        self.jobs = 0
        self.metrics = metrics or Metrics()

    # -- life cycle ---------------------------------------------------------

    def start(self) -> None:
        """Migrate the schema and start the writer thread."""
        migrate(self.engine)
        self._thread = threading.Thread(target=self._run, name="pitkit-store", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Commit what is queued, stop the thread, and release the database."""
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(timeout=30)
            self._thread = None
        self.engine.dispose()

    # -- running jobs -------------------------------------------------------

    async def run(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` in a transaction on the writer thread; return once it is committed.

        Raises `StoreTimeoutError` if that takes longer than the store's timeout
        (a database that hangs must not leave players without an answer)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        job = _Job(fn, future, loop)
        self._queue.put(job)
        # A timer, where a timeout scope and a shield cost three times as much: every
        # action waits here.
        timer = loop.call_later(self.timeout, self._expire, job)
        try:
            return await future
        finally:
            timer.cancel()

    def _expire(self, job: _Job) -> None:
        """`job` took too long. A job not yet begun is skipped, and its caller gets
        `StoreTimeoutError`; one the database is committing may still land, and its
        caller gets `StoreUnsureError`."""
        if job.future is None or job.future.done():
            return
        with self._claim:
            job.abandoned = not job.begun
        self.metrics.store_failures.labels("timeout").inc()
        if job.abandoned:
            error = StoreTimeoutError("the database did not answer in time; nothing stored")
        else:
            error = StoreUnsureError("the database did not answer in time; it may store it")
        job.future.set_exception(error)

    def _run(self) -> None:
        conn = self.engine.connect()
        try:
            while True:
                first = self._queue.get()
                if first is _STOP:
                    return
                # Busy (a commit held more than one job not long ago): the jobs that
                # come until `gap` after the last commit's start join this one.
                now = time.monotonic()
                if now < self._busy_until and now < self._last_commit + self.gap:
                    time.sleep(self._last_commit + self.gap - now)
                self._last_commit = time.monotonic()
                jobs: list[_Job] = [first]  # type: ignore[list-item]
                stop = False
                while len(jobs) < self.batch:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is _STOP:
                        stop = True
                        break
                    jobs.append(more)  # type: ignore[arg-type]
                with self._claim:
                    jobs = [job for job in jobs if not job.abandoned]
                    for job in jobs:
                        job.begun = True
                if len(jobs) > 1:
                    self._busy_until = self._last_commit + BUSY_SECONDS
                if jobs:
                    conn = self._commit(conn, jobs)
                if stop:
                    return
        finally:
            conn.close()

    def _commit(self, conn: Connection, jobs: list[_Job]) -> Connection:
        """Commit `jobs` together; if that fails, each alone, so one bad job fails alone."""
        results: list[tuple[bool, Any]] = []
        started = time.perf_counter()
        try:
            with conn.begin():
                results = [(True, value) for value in _together(conn, jobs)]
            self.commits += 1
            self.jobs += len(jobs)
        except Exception:
            conn = self._fresh(conn)
            results = []
            for job in jobs:
                try:
                    with conn.begin():
                        results.append((True, job.fn(conn)))
                    self.commits += 1
                    self.jobs += 1
                except Exception as exc:
                    log.exception("a storage job failed")
                    self.metrics.store_failures.labels("error").inc()
                    results.append((False, exc))
                    conn = self._fresh(conn)
        self.metrics.store_seconds.observe(time.perf_counter() - started)
        # One wake-up of each event loop for the whole batch (each is a write to its pipe).
        settled: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]]
        settled = {}
        for job, (ok, value) in zip(jobs, results, strict=True):
            if job.future is not None and job.loop is not None:
                settled.setdefault(job.loop, []).append((job.future, ok, value))
        for loop, answers in settled.items():
            loop.call_soon_threadsafe(_settle_all, answers)
        return conn

    def _fresh(self, conn: Connection) -> Connection:
        """A usable connection after a failure (the old one may be broken)."""
        try:
            if conn.in_transaction():
                conn.rollback()
            return conn
        except Exception:
            conn.close()
            return self.engine.connect()


def _settle_all(answers: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """Give each waiting job its result or its exception (on the job's event loop)."""
    for future, ok, value in answers:
        if future.done():  # timed out, or its caller cancelled
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


def _together(conn: Connection, jobs: list[_Job]) -> list[Any]:
    """Run `jobs` in order in one transaction; their results. The steps of consecutive
    `append_step` jobs go in as one statement with many rows, which costs a fraction
    of a statement each (their other writes follow, in order)."""
    results: list[Any] = []
    steps: list[_StepJob] = []
    for job in [*jobs, None]:
        if job is not None and isinstance(job.fn, _StepJob):
            steps.append(job.fn)
            continue
        if steps:
            conn.execute(_INSERT_STEP, [step.row_now() for step in steps])
            for step in steps:
                step.finish(conn)
                results.append(None)
            steps = []
        if job is not None:
            results.append(job.fn(conn))
    return results


# -- jobs: functions of a connection, run inside the writer's transaction -------


def read_table(conn: Connection, table_id: str, chat: int = 100) -> TableRecord | None:
    """One table with its seats, current match and last `chat` chat messages, or None."""
    row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
    if row is None:
        return None
    record = _table_record(row)
    for seat in conn.execute(
        select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
    ):
        record.seats.append(_seat_record(seat))
    if record.match_no:
        match = conn.execute(
            select(matches_t).where(
                matches_t.c.table_id == table_id, matches_t.c.number == record.match_no
            )
        ).first()
        if match is not None:
            steps = [
                orjson.loads(step.events)
                for step in conn.execute(
                    select(steps_t.c.events)
                    .where(steps_t.c.table_id == table_id, steps_t.c.match_no == record.match_no)
                    .order_by(steps_t.c.version)
                )
            ]
            record.match = MatchRecord(match.number, match.seed, steps, match.ended is not None)
    said = conn.execute(
        select(chat_t)
        .where(chat_t.c.table_id == table_id)
        .order_by(chat_t.c.seq.desc())
        .limit(chat)
    )
    record.chat = [ChatRecord(r.seq, r.at, r.seat, r.name, r.text) for r in said][::-1]
    return record


def _table_record(row: Any) -> TableRecord:
    return TableRecord(
        id=row.id,
        game=row.game,
        players=row.players,
        rules=json.loads(row.rules),
        settings=json.loads(row.settings),
        host_hash=row.host_hash,
        status=row.status,
        match_no=row.match_no,
        created=row.created,
        updated=row.updated,
    )


def _seat_record(row: Any) -> SeatRecord:
    return SeatRecord(row.seat, row.kind, row.bot, row.name, row.token_hash)


def table_ids(statuses: tuple[str, ...]) -> Callable[[Connection], list[str]]:
    """A job that reads the ids of every table with one of `statuses`, oldest first."""

    def job(conn: Connection) -> list[str]:
        query = select(tables_t.c.id).where(tables_t.c.status.in_(statuses))
        return [row.id for row in conn.execute(query.order_by(tables_t.c.created))]

    return job


def lobby_tables(
    live: tuple[str, ...], ended: tuple[str, ...], since: float, limit: int = 200
) -> Callable[[Connection], list[TableRecord]]:
    """A job that reads the newest tables that are `live`, or `ended` after `since`,
    with their seats but not their matches (for the lobby)."""

    def job(conn: Connection) -> list[TableRecord]:
        rows = conn.execute(
            select(tables_t)
            .where(
                tables_t.c.status.in_(live)
                | (tables_t.c.status.in_(ended) & (tables_t.c.updated > since))
            )
            .order_by(tables_t.c.created.desc())
            .limit(limit)
        ).all()
        records = {row.id: _table_record(row) for row in rows}
        if records:
            for seat in conn.execute(
                select(seats_t)
                .where(seats_t.c.table_id.in_(records))
                .order_by(seats_t.c.table_id, seats_t.c.seat)
            ):
                records[seat.table_id].seats.append(_seat_record(seat))
        return list(records.values())

    return job


def stored_version(conn: Connection, table_id: str, number: int) -> int:
    """The last stored version of a match (-1: none), to check memory against."""
    row = conn.execute(
        select(steps_t.c.version)
        .where(steps_t.c.table_id == table_id, steps_t.c.match_no == number)
        .order_by(steps_t.c.version.desc())
        .limit(1)
    ).first()
    return -1 if row is None else int(row.version)


def read_match_log(
    conn: Connection, table_id: str, number: int
) -> tuple[int, bool, list[dict[str, Any]]] | None:
    """A match's seed, whether it is over, and its events, or None."""
    found = read_match_steps(conn, table_id, number)
    if found is None:
        return None
    seed, over, steps = found
    return seed, over, [event for step in steps for event in step]


def read_match_steps(
    conn: Connection, table_id: str, number: int
) -> tuple[int, bool, list[list[dict[str, Any]]]] | None:
    """A match's seed, whether it is over, and its events by version, or None."""
    match = conn.execute(
        select(matches_t).where(matches_t.c.table_id == table_id, matches_t.c.number == number)
    ).first()
    if match is None:
        return None
    steps = [
        orjson.loads(step.events)
        for step in conn.execute(
            select(steps_t.c.events)
            .where(steps_t.c.table_id == table_id, steps_t.c.match_no == number)
            .order_by(steps_t.c.version)
        )
    ]
    return match.seed, match.ended is not None, steps


@dataclass
class StepRecord:
    """One stored step: its version, who acted and the action's text (both None for
    the deal, version 0), and its events in full (`Event.to_json`)."""

    version: int
    seat: int | None
    action: str | None
    events: list[dict[str, Any]]


@dataclass
class FinishedMatch:
    """A finished match as stored, with its table's game, rules and seats (the seats
    as they are now: the store keeps no history of who sat where)."""

    table_id: str
    game: str
    players: int
    rules: dict[str, Any]
    seats: list[SeatRecord]
    number: int
    seed: int
    outcome: dict[str, Any] | None
    ended: float
    steps: list[StepRecord]


def finished_matches(conn: Connection, game: str | None = None) -> Iterator[FinishedMatch]:
    """Every finished match (of `game`, or of any) at a table where a person holds a
    seat (kind "player"), tables oldest first, each table's matches in order. One
    match's steps are read at a time: iterate inside the connection's use."""
    people = select(seats_t.c.table_id).where(seats_t.c.kind == "player")
    query = select(tables_t).where(tables_t.c.id.in_(people))
    if game is not None:
        query = query.where(tables_t.c.game == game)
    for table in conn.execute(query.order_by(tables_t.c.created, tables_t.c.id)).all():
        seats = [
            _seat_record(seat)
            for seat in conn.execute(
                select(seats_t).where(seats_t.c.table_id == table.id).order_by(seats_t.c.seat)
            )
        ]
        ended = conn.execute(
            select(matches_t)
            .where(matches_t.c.table_id == table.id, matches_t.c.ended.is_not(None))
            .order_by(matches_t.c.number)
        ).all()
        for match in ended:
            yield FinishedMatch(
                table_id=table.id,
                game=table.game,
                players=table.players,
                rules=json.loads(table.rules),
                seats=seats,
                number=match.number,
                seed=match.seed,
                outcome=None if match.outcome is None else orjson.loads(match.outcome),
                ended=match.ended,
                steps=_step_records(conn, table.id, match.number),
            )


def _step_records(conn: Connection, table_id: str, number: int) -> list[StepRecord]:
    """A match's steps in full, by version."""
    rows = conn.execute(
        select(steps_t.c.version, steps_t.c.seat, steps_t.c.action, steps_t.c.events)
        .where(steps_t.c.table_id == table_id, steps_t.c.match_no == number)
        .order_by(steps_t.c.version)
    )
    return [StepRecord(r.version, r.seat, r.action, orjson.loads(r.events)) for r in rows]


def insert_table(record: TableRecord) -> Callable[[Connection], None]:
    """A job that stores a new table and its seats."""

    def job(conn: Connection) -> None:
        now = time.time()
        conn.execute(
            tables_t.insert().values(
                id=record.id,
                game=record.game,
                players=record.players,
                rules=json.dumps(record.rules),
                settings=json.dumps(record.settings),
                host_hash=record.host_hash,
                status=record.status,
                match_no=record.match_no,
                created=record.created,
                updated=now,
            )
        )
        conn.execute(
            seats_t.insert(),
            [
                {
                    "table_id": record.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "token_hash": s.token_hash,
                }
                for s in record.seats
            ],
        )

    return job


def save_seat(table_id: str, seat: SeatRecord) -> Callable[[Connection], None]:
    """A job that stores a seat's new occupant or token."""
    return save_seats(table_id, [seat])


def save_seats(table_id: str, seats: Sequence[SeatRecord]) -> Callable[[Connection], None]:
    """A job that stores several seats' new occupants or tokens at once (two seats
    swapped: both or neither)."""

    def job(conn: Connection) -> None:
        for seat in seats:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat.seat)
                .values(kind=seat.kind, bot=seat.bot, name=seat.name, token_hash=seat.token_hash)
            )
        conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(updated=time.time()))

    return job


def start_match(
    table_id: str, number: int, seed: int, events: list[dict[str, Any]]
) -> Callable[[Connection], None]:
    """A job that stores a new match, its deal (step 0), and the table's new status."""

    def job(conn: Connection) -> None:
        now = time.time()
        conn.execute(
            matches_t.insert().values(table_id=table_id, number=number, seed=seed, started=now)
        )
        conn.execute(
            steps_t.insert().values(
                table_id=table_id,
                match_no=number,
                version=0,
                seat=None,
                action=None,
                events=json_text(events),
                at=now,
            )
        )
        conn.execute(
            update(tables_t)
            .where(tables_t.c.id == table_id)
            .values(status="playing", match_no=number, updated=now)
        )

    return job


# One statement with bound parameters: SQLAlchemy compiles it once, whereas
# `insert().values(...)` builds and keys a new statement for every step (~5x the cost).
_INSERT_STEP = steps_t.insert()


class _StepJob:
    """The job `append_step` makes: its row of `steps`, which the writer may insert with
    other jobs' rows (`_together`), then `finish`, the match's end if the step ended it."""

    def __init__(self, row: dict[str, Any], outcome: dict[str, Any] | None) -> None:
        self.row = row
        self.outcome = outcome

    def __call__(self, conn: Connection) -> None:
        conn.execute(_INSERT_STEP, self.row_now())
        self.finish(conn)

    def row_now(self) -> dict[str, Any]:
        """The row, stamped with the time it is written."""
        return {**self.row, "at": time.time()}

    def finish(self, conn: Connection) -> None:
        """After the row: with an outcome, the match's end and the table's new status."""
        if self.outcome is None:
            return
        table_id, now = self.row["table_id"], time.time()
        conn.execute(
            update(matches_t)
            .where(matches_t.c.table_id == table_id, matches_t.c.number == self.row["match_no"])
            .values(outcome=json_text(self.outcome), ended=now)
        )
        conn.execute(
            update(tables_t).where(tables_t.c.id == table_id).values(status="over", updated=now)
        )


def append_step(
    table_id: str,
    number: int,
    version: int,
    seat: int,
    action: str,
    events: list[dict[str, Any]],
    outcome: dict[str, Any] | None,
) -> Callable[[Connection], None]:
    """A job that stores one accepted action; with `outcome`, also the match's end."""
    # Encoded here, on the event loop, so the writer thread holds the GIL for less time.
    row = {
        "table_id": table_id,
        "match_no": number,
        "version": version,
        "seat": seat,
        "action": action,
        "events": json_text(events),
    }
    return _StepJob(row, outcome)


def add_chat(
    table_id: str, said: ChatRecord, kept: int, since: float
) -> Callable[[Connection], None]:
    """A job that stores one chat message, and deletes the table's messages beyond the
    latest `kept`, and those said before `since` (its chat's retention)."""

    def job(conn: Connection) -> None:
        conn.execute(
            delete(chat_t).where(
                chat_t.c.table_id == table_id,
                or_(chat_t.c.seq <= said.seq - kept, chat_t.c.at < since),
            )
        )
        conn.execute(
            chat_t.insert().values(
                table_id=table_id,
                seq=said.seq,
                at=said.at,
                seat=said.seat,
                name=said.name,
                text=said.text,
            )
        )

    return job


def set_status(table_id: str, status: str) -> Callable[[Connection], None]:
    """A job that sets a table's status."""

    def job(conn: Connection) -> None:
        conn.execute(
            update(tables_t)
            .where(tables_t.c.id == table_id)
            .values(status=status, updated=time.time())
        )

    return job
