"""The tables a worker runs: their creation, loading, handover, expiry and unloading.

A worker runs the tables it owns (owners.py): every table on SQLite, and on
PostgreSQL the tables the proxy sends it, taken over from a dead worker or
handed over by a live one. Everything else about a table lives in tables.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

from pitkit import bots as bot_registry
from pitkit import games
from pitkit.core.game import Game
from pitkit.core.rules import RuleSet
from pitkit.server.live import messages
from pitkit.server.live.notices import Notify
from pitkit.server.live.pacing import Clock
from pitkit.server.live.quick import PlayNow
from pitkit.server.live.rebuild import Rebuilt, rebuild
from pitkit.server.live.seats import Seat
from pitkit.server.live.tables import Table, TableElsewhereError
from pitkit.server.live.thinking import Thinker
from pitkit.server.live.wire import TableInfo
from pitkit.server.ops.metrics import Census, Metrics
from pitkit.server.ops.settings import Limits, TableSettings
from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store import storage
from pitkit.server.store.owners import Owners, SoleOwner
from pitkit.server.store.storage import SeatRecord, Store, TableRecord

__all__ = ["Manager"]

log = logging.getLogger("pitkit.server")

UNFINISHED = ("waiting", "playing")
FINISHED = ("over", "closed", "broken", "expired")
FINISHED_LISTED = 15 * 60.0
"""Seconds a finished table stays in the lobby's list after anything last happened
there (replays stay at the table's address)."""


class Manager:
    """Every table this worker runs, and their creation, loading, handover and unloading."""

    def __init__(
        self,
        store: Store,
        limits: Limits,
        metrics: Metrics,
        owners: Owners | None = None,
        notify: Notify | None = None,
        clock: Clock | None = None,
    ) -> None:
        """`notify` tells players away from a table that it is their turn, or that a
        match is over (docs/turn-based.md); `clock` times the moves (a test's may be
        moved forward: `Clock.advance`)."""
        self.store = store
        self.notify = notify
        self.clock = clock or Clock()
        self.limits = limits
        self.metrics = metrics
        self.owners: Owners = owners or SoleOwner()
        self.thinker = Thinker(limits)
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self._handed: dict[str, float] = {}  # table id -> when we handed it over
        self._unloadable: set[str] = set()  # stored tables of a game or rule no longer known
        self._tasks: list[asyncio.Task[None]] = []
        self.on_event_step: Callable[[Table], None] | None = None
        """Told of each step at a table that plays an event's game (`OnlineTables`)."""
        self.play_now = PlayNow(self.create, limits)
        """Play now's tables waiting for players, and their bots' arrival."""

    async def load(self) -> None:
        """Start: take up every unfinished table no worker runs (on SQLite, all of
        them), and start sweeping and, beside other workers, adopting orphans."""
        await self.owners.start(self._hand_over, self._lose_all)
        self.clock.on_advance(asyncio.get_running_loop(), self._clock_moved)
        await self.adopt()
        log.info("running %d unfinished tables", len(self.tables))
        await self.sweep()
        self._tasks.append(asyncio.create_task(self._every(self._sweep_period(), self.sweep)))
        if self.owners.shared:
            adopting = self._every(self.limits.adopt_seconds, self.adopt)
            self._tasks.append(asyncio.create_task(adopting))

    def _clock_moved(self) -> None:
        """A test moved the clock forward: each move whose time ran out meanwhile times out."""
        for table in list(self.tables.values()):
            table.pacing.check_turn()

    def _sweep_period(self) -> float:
        return max(0.05, min(self.limits.waiting_seconds, self.limits.idle_seconds) / 4)

    async def _every(self, period: float, job: Callable[[], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await job()
            except Exception:
                log.exception("%s failed", getattr(job, "__name__", "a periodic job"))

    async def adopt(self) -> None:
        """Load the unfinished tables that nobody runs: at start, and when a worker
        dies its bot-only tables, which no client would bring back by reconnecting."""
        ids = await self.store.run(storage.table_ids(UNFINISHED))
        # Not a table just handed over: the worker that asked is about to take it.
        recent = time.monotonic() - 4 * self.limits.adopt_seconds
        self._handed = {t: at for t, at in self._handed.items() if at > recent}
        skip = self._unloadable | self._handed.keys()
        waiting = [i for i in ids if i not in self.tables and i not in skip]
        for table_id in await self.owners.unowned(waiting):
            if len(self.tables) >= self.limits.tables:
                break
            with contextlib.suppress(TableElsewhereError):  # another worker was quicker
                await self._load(table_id, wait=0.0)

    async def sweep(self) -> None:
        """Expire tables that waited too long for players (so the table cap frees
        itself), and unload finished tables nobody watches (they stay stored)."""
        now = time.time()
        for table in list(self.tables.values()):
            if table.watched:
                continue
            idle = now - table.touched
            # A table at its own pace gives its players as long as a move to sit down.
            waiting = max(self.limits.waiting_seconds, table.settings.own_pace or 0.0)
            if table.status == "waiting" and idle > waiting:
                with contextlib.suppress(Exception):  # the database may be down: next time
                    await table.expire()
                    await self._unload(table)
            elif table.status in FINISHED and idle > self.limits.idle_seconds:
                await self._unload(table)

    async def _unload(self, table: Table) -> None:
        """Stop the table, wait until what it wrote is stored, and let another worker have it."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        await table.close()  # an action under way finishes first
        with contextlib.suppress(Exception):
            # The writer is first in, first out: once this no-op is done, so is every
            # step the table queued before it (a bot's, cancelled while it waited).
            await self.store.run(lambda _conn: None)
        await self.owners.release(table.id)

    async def _hand_over(self, table_id: str) -> None:
        """Another worker was sent this table: let go (its clients reconnect there)."""
        async with self._one_at_a_time(table_id):
            self._handed[table_id] = time.monotonic()
            table = self.tables.get(table_id)
            if table is not None:
                await self._unload(table)
            else:
                await self.owners.release(table_id)
            log.info("table %s: handed over to another worker", table_id)

    async def _lose_all(self) -> None:
        """Our locks are gone: another worker may take any table now, so run none."""
        for table in list(self.tables.values()):
            del self.tables[table.id]
            await table.close()

    async def get(self, table_id: str) -> Table | None:
        """The table `table_id`, from memory or storage, or None if there is none.

        A table run by another worker is asked for (the proxy sent it here);
        TableElsewhereError if it is not handed over in time."""
        table = self.tables.get(table_id)
        if table is not None or not _plausible_id(table_id):
            return table
        return await self._load(table_id, wait=self.limits.handoff_seconds)

    @contextlib.asynccontextmanager
    async def _one_at_a_time(self, table_id: str) -> AsyncIterator[None]:
        """Loading, handing over and unloading one table never overlap."""
        entry = self._loading.setdefault(table_id, (asyncio.Lock(), [0]))
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._loading[table_id]

    async def _load(self, table_id: str, wait: float) -> Table | None:
        async with self._one_at_a_time(table_id):
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if len(self.tables) >= self.limits.tables:
                return None
            if not await self.owners.claim(table_id, wait):
                raise TableElsewhereError(table_id)
            # Read only once owned: the last owner's steps are all stored by now.
            record = await self.store.run(lambda conn: storage.read_table(conn, table_id))
            table = None
            if record is not None:
                rebuilt = None
                if record.match is not None and record.game in games.names():
                    # Off the event loop: a long match takes a while to replay.
                    rebuilt = await asyncio.to_thread(rebuild, games.get(record.game), record)
                table = self._adopt(record, rebuilt)
            if table is None:
                await self.owners.release(table_id)
            return table

    def _adopt(self, record: TableRecord, rebuilt: Rebuilt | None = None) -> Table | None:
        try:
            table = self._table(record, rebuilt)
        except ValueError as exc:  # a game or option no longer known
            log.error("table %s cannot be loaded: %s", record.id, exc)
            self._unloadable.add(record.id)
            return None
        self._register(table)
        if self.owners.shared:  # beside other workers: where each table runs, and since when
            log.info("table %s: runs here from version %s", record.id, table.version)
        table.start_timers()
        table.bots.schedule()
        return table

    def _table(
        self, record: TableRecord, rebuilt: Rebuilt | None, creator: str | None = None
    ) -> Table:
        """The live table of `record`, told how to reach players away and how to time moves."""
        return Table(
            record,
            self.store,
            self.limits,
            self.thinker,
            self.metrics,
            rebuilt,
            creator,
            notify=self.notify,
            clock=self.clock,
        )

    def _register(self, table: Table) -> None:
        self.tables[table.id] = table
        if table.settings.event is not None:
            table.on_step = self.on_event_step

    async def create(
        self,
        game_name: str,
        players: int | None,
        rules: Mapping[str, Any],
        seats: list[str | None],
        settings: TableSettings,
        creator: str | None = None,
    ) -> tuple[Table, str, list[str]]:
        """A new table; returns it, its host token, and every seat's token.

        `seats` names a bot for each seat, or None for an open seat (fewer
        entries than players: the rest are open). ValueError explains bad input.
        """
        self._check_room(creator)
        game = games.get(game_name)
        ruleset, seats = self._check_table(game, players, rules, seats, settings)
        n = len(seats)
        host = new_token()
        tokens = [new_token() for _ in range(n)]
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables or not await self.owners.claim(table_id, 0.0):
            table_id = secrets.token_urlsafe(6)
        record = TableRecord(
            id=table_id,
            game=game.name,
            players=n,
            rules=ruleset.to_json(),
            settings=settings.to_json(),
            host_hash=hash_token(host),
            status="waiting",
            match_no=0,
            created=time.time(),
            seats=[
                SeatRecord(i, "open" if bot is None else "bot", bot, None, hash_token(tokens[i]))
                for i, bot in enumerate(seats)
            ],
        )
        try:
            await self.store.run(storage.insert_table(record))
        except BaseException:
            await self.owners.release(table_id)
            raise
        table = self._table(record, None, creator)
        self._register(table)
        if all(s.kind == "bot" for s in table.seats):
            await table.start()
        return table, host, tokens

    def _check_room(self, creator: str | None) -> None:
        """Refuse (ValueError) a new table beyond the server's cap, or the creator's."""
        if len(self.tables) >= self.limits.tables:
            raise ValueError("the server holds as many tables as it can; try again later")
        if creator is not None:
            held = sum(
                t.creator == creator and t.status in UNFINISHED for t in self.tables.values()
            )
            if held >= self.limits.tables_per_address:
                raise ValueError(
                    f"you have {held} tables waiting or playing, the most one address may "
                    "have; close one or let one finish first"
                )

    def _check_table(
        self,
        game: Game,
        players: int | None,
        rules: Mapping[str, Any],
        seats: list[str | None],
        settings: TableSettings,
    ) -> tuple[RuleSet, list[str | None]]:
        """A new table's rules and its bot (or None) in every seat, checked (ValueError)."""
        usual = game.make_rules(dict(rules)).players() or game.default_players
        n = players if players is not None else max(len(seats), usual)
        match = game.new_match(n, dict(rules), 0)  # checks the player count and the rules
        if len(seats) > n:
            raise ValueError(f"{len(seats)} seats given for {n} players")
        for name in seats:
            if name is not None:
                self.thinker.check(game, name)
        if settings.standin is not None and settings.standin not in bot_registry.names(game):
            raise ValueError(
                f"no bot named {settings.standin!r} for {game.name}; "
                f"bots are: {', '.join(bot_registry.names(game))}"
            )
        if settings.own_pace is not None and game.realtime:
            raise ValueError(
                f"{game.title} is played in real time, all at once: it cannot be played "
                "at your own pace (the turn-based games can)"
            )
        least = self.limits.turn_seconds_least
        if settings.turn_seconds is not None and settings.turn_seconds < least:
            raise ValueError(f"turn_seconds is at least {least:g} (seconds), or null (none)")
        return match.rules, [*seats, *[None] * (n - len(seats))]

    def census(self) -> Census:
        """The tables in memory and their sockets, for a metrics scrape (`Metrics.watch`)."""
        tables = list(self.tables.values())
        return Census(
            tables=Counter((t.game.name, t.status) for t in tables),
            players=sum(len(s.conns) for t in tables for s in t.seats),
            spectators=sum(len(t.spectators) for t in tables),
            store_jobs=self.store.jobs,
        )

    async def listed(self, status: str | None, game: str | None) -> list[TableInfo]:
        """The lobby: listed tables, newest first, as anyone may see them; a finished
        table for `FINISHED_LISTED` seconds after its last move. Beside other workers,
        the database lists theirs too (without who is connected)."""
        now = time.time()
        mine = [
            t.info()
            for t in self.tables.values()
            if t.settings.listed and (t.status in UNFINISHED or now - t.touched < FINISHED_LISTED)
        ]
        if self.owners.shared:
            since = now - min(self.limits.idle_seconds, FINISHED_LISTED)
            records = await self.store.run(storage.lobby_tables(UNFINISHED, FINISHED, since))
            mine += [_summary(r) for r in records if r.id not in self.tables]
        out = [
            info
            for info in mine
            if (status is None or info["status"] == status)
            and (game is None or info["game"] == game)
            and info["settings"].get("listed", True)
        ]
        out.sort(key=lambda t: -float(t["created"]))
        return out[:200]

    async def close(self) -> None:
        """Stop every table (server shutdown); what was acknowledged is stored already."""
        for task in self._tasks:
            task.cancel()
        self.play_now.close()
        for table in list(self.tables.values()):
            await table.close()
        await self.owners.close()
        await self.thinker.close()


def _summary(record: TableRecord) -> TableInfo:
    """A table another worker runs, as the lobby shows it: what the database knows."""
    game = games.get(record.game) if record.game in games.names() else None
    return messages.table_info(
        id=record.id,
        game=record.game,
        title=game.title if game else record.game,
        players=record.players,
        rules=game.make_rules(record.rules).changed() if game else {},
        settings=record.settings,
        status=record.status,
        match=record.match_no,
        version=None,
        to_act=[],
        seats=[Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in record.seats],
        spectators=0,
        outcome=None,
        problem=None,
        created=record.created,
    )


def _plausible_id(table_id: str) -> bool:
    return 0 < len(table_id) <= 24 and all(ch.isalnum() or ch in "-_" for ch in table_id)
