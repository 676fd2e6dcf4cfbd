"""Which worker runs which table: ownership fenced in the database.

Several `pitkit serve` workers may share one PostgreSQL behind a proxy that
sends each table's traffic to one of them (`pitkit proxy`). A table must never
run in two workers at once, or two event loops would deal its cards and append
its steps. A worker therefore holds a PostgreSQL *session advisory lock* on
every table it runs, on one connection of its own:

- a lock is taken before a table is loaded, and let go after it is unloaded;
- when a worker dies, PostgreSQL ends its session and frees every lock at once,
  so a live worker can take its tables over as soon as their clients reconnect;
- when the proxy sends a table to a worker that does not hold it (a worker came
  back, the proxy restarted), that worker asks the holder to let go
  (`NOTIFY pitkit_handoff`); the holder closes the table's sockets (the clients
  reconnect through the proxy) and unlocks, and the asker takes it.

Even if two workers ever ran a table at once (a lock connection lost and not yet
noticed), the steps' primary key lets one write each version; the loser's store
fails, and it reloads the table from the database (`Table._check_stored`).

SQLite has one process by nature: `SoleOwner` owns everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

from sqlalchemy.engine import make_url

from pitkit.server.store.storage import DatabaseError

__all__ = ["Owners", "PostgresOwners", "SoleOwner", "lock_key", "owners_for"]

log = logging.getLogger("pitkit.server")

HANDOFF = "pitkit_handoff"
"""The channel on which a worker asks the others to let go of a table."""

Release = Callable[[str], Awaitable[None]]
"""What the manager does to give a table up: unload it (sockets closed)."""
Lost = Callable[[], Awaitable[None]]
"""What the manager does when every lock is lost at once: unload everything."""


def lock_key(table_id: str) -> int:
    """The table's advisory lock: 64 bits of a hash of its id, signed as PostgreSQL's bigint."""
    digest = hashlib.blake2b(table_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Owners(Protocol):
    """Claims tables for this worker; see the module's docstring."""

    shared: bool
    """Whether other workers may own tables of the same database."""

    async def start(self, release: Release, lost: Lost) -> None:
        """Begin; `release(id)` is called when another worker wants a table of ours,
        `lost()` when our locks are gone (the database connection broke)."""

    async def close(self) -> None:
        """Let go of every table (shutdown)."""

    async def claim(self, table_id: str, wait: float) -> bool:
        """Own `table_id`; if another worker holds it, ask for it and wait up to `wait`
        seconds. False: it is still held elsewhere."""

    async def release(self, table_id: str) -> None:
        """Let go of `table_id` (after unloading it)."""

    async def unowned(self, table_ids: Iterable[str]) -> list[str]:
        """Which of these tables no worker holds (their worker died)."""


class SoleOwner:
    """One process owns every table (SQLite): whatever it has not loaded, nobody runs."""

    shared = False

    async def start(self, release: Release, lost: Lost) -> None:
        """Nothing to start."""

    async def close(self) -> None:
        """Nothing to let go of."""

    async def claim(self, table_id: str, wait: float) -> bool:
        """Always ours."""
        return True

    async def release(self, table_id: str) -> None:
        """Nothing to release."""

    async def unowned(self, table_ids: Iterable[str]) -> list[str]:
        """All of them: no other process could be running them."""
        return list(table_ids)


def owners_for(database_url: str) -> Owners:
    """The fence that suits the database: advisory locks on PostgreSQL."""
    if make_url(database_url).get_backend_name() == "postgresql":
        return PostgresOwners(database_url)
    return SoleOwner()


class PostgresOwners:
    """Tables owned through session advisory locks, handed over by LISTEN/NOTIFY.

    Two connections of its own: one holds the locks (its session is the
    ownership) and sends its asks, one listens for other workers' asks. Both
    are checked every `heartbeat` seconds; if either breaks, `lost()` unloads
    every table and new connections are made.
    """

    shared = True

    def __init__(self, database_url: str, heartbeat: float = 2.0) -> None:
        url = make_url(database_url).set(drivername="postgresql")
        self.dsn = url.render_as_string(hide_password=False)
        self.heartbeat = heartbeat
        self.held: set[str] = set()
        self._locks: Any = None  # psycopg.AsyncConnection
        self._listen: Any = None
        self._guard = asyncio.Lock()  # one statement at a time on the lock connection
        self._tasks: list[asyncio.Task[None]] = []
        self._release: Release | None = None
        self._lost: Lost | None = None

    async def _connect(self) -> None:
        import psycopg

        connect = psycopg.AsyncConnection.connect
        self._locks = await connect(self.dsn, autocommit=True, connect_timeout=5)
        self._listen = await connect(self.dsn, autocommit=True, connect_timeout=5)
        await self._listen.execute(f"LISTEN {HANDOFF}")

    async def start(self, release: Release, lost: Lost) -> None:
        """Connect, and start listening for handoffs and checking the connections."""
        self._release, self._lost = release, lost
        await self._connect()
        self._tasks = [asyncio.create_task(self._watch())]

    async def close(self) -> None:
        """Stop listening, and end the session (which frees every lock)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        for conn in (self._locks, self._listen):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self.held.clear()

    async def _sql(self, query: str, *args: Any) -> Any:
        """One statement on the lock connection; a lost database is the store's
        `DatabaseError`, as anywhere else in the store (the web answers 503)."""
        import psycopg

        async with self._guard:
            try:
                cursor = await self._locks.execute(query, args)
                row = await cursor.fetchone()
            except psycopg.Error as exc:
                raise DatabaseError(str(exc)) from exc
            return None if row is None else row[0]

    async def claim(self, table_id: str, wait: float) -> bool:
        """Take the table's lock; if it is held, ask its holder and retry until `wait`."""
        if table_id in self.held:
            return True
        key = lock_key(table_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        asked = -1.0
        while True:
            if await self._sql("SELECT pg_try_advisory_lock(%s)", key):
                self.held.add(table_id)
                return True
            now = loop.time()
            if now >= deadline:
                return False
            if now - asked >= 0.5:  # again now and then: a notice may cross a restart
                await self._sql("SELECT pg_notify(%s, %s)", HANDOFF, table_id)
                asked = now
            await asyncio.sleep(0.05)

    async def release(self, table_id: str) -> None:
        """Unlock the table, so that the worker that asked for it can take it."""
        if table_id not in self.held:
            return
        self.held.discard(table_id)
        with contextlib.suppress(Exception):  # a broken session frees it anyway
            await self._sql("SELECT pg_advisory_unlock(%s)", lock_key(table_id))

    async def unowned(self, table_ids: Iterable[str]) -> list[str]:
        """The tables whose lock nobody holds, read from pg_locks (a bigint advisory
        lock shows as its high and low 32 bits in classid and objid, objsubid 1)."""
        ids = [t for t in table_ids if t not in self.held]
        if not ids:
            return []
        async with self._guard:
            cursor = await self._locks.execute(
                "SELECT ((classid::bigint << 32) | objid::bigint) FROM pg_locks "
                "WHERE locktype = 'advisory' AND objsubid = 1 AND granted "
                "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
            rows = await cursor.fetchall()
        taken = {signed_profile(row[0]) for row in rows}
        return [t for t in ids if lock_key(t) not in taken]

    async def _watch(self) -> None:
        """Hand over what others ask for; notice a broken connection and start again."""
        while True:
            try:
                gen = self._listen.notifies(timeout=self.heartbeat)
                async for note in gen:
                    # Our own asks reach us too; one heard late, once the table is ours,
                    # would unload it under the player it was taken for.
                    mine = note.pid == self._locks.info.backend_pid
                    if not mine and note.payload in self.held and self._release is not None:
                        await self._release(note.payload)
                await self._sql("SELECT 1")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("the ownership connection failed (%s): giving up every table", exc)
                self.held.clear()
                if self._lost is not None:
                    with contextlib.suppress(Exception):
                        await self._lost()
                await self._reconnect()

    async def _reconnect(self) -> None:
        for conn in (self._locks, self._listen):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        while True:
            try:
                await self._connect()
                return
            except Exception as exc:
                log.error("cannot reach the database for ownership (%s); retrying", exc)
                await asyncio.sleep(self.heartbeat)


def signed_profile(value: int) -> int:
    """The bigint lock key from its two unsigned 32-bit halves."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value
