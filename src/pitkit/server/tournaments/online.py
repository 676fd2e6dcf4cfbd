"""A tournament's games played online, at pitkit tables.

The manager puts one of the tournament's games at a pitkit table (an
``open_table`` entry, with ``bot_delay`` if the manager likes): the server
opens an unlisted table for the game's players, tied to the tournament, and
hands the manager its host token once. Each player takes their seat with their
own tournament link (`seat`), which gives the seat a new token: nobody else,
the host included, ever holds it. The table then feeds the tournament: after
every stored step, the tournament's kind says which entries the match calls
for (`Kind.sync`: a Pits hand's finishing order, a Pitch cut and pad lines),
and they are entered as made by "the online table". Syncing compares the
tournament with the match, so a hand missed (a restart, a race) is entered at
the next step, and one entered twice is refused by the tournament like any
other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pitkit.server.live.manager import Manager
from pitkit.server.live.tables import Table
from pitkit.server.ops.settings import TableSettings
from pitkit.server.tournaments.service import Made, Running, Tournaments
from pitkit.tournaments.log import OPEN_TABLE, Actor, ForbiddenError, RefusedError

__all__ = ["OnlineTables"]

log = logging.getLogger("pitkit.server")


class OnlineTables:
    """Opens the tournaments' online tables, seats their players, and feeds their hands back."""

    def __init__(self, tournaments: Tournaments, manager: Manager) -> None:
        self.tournaments = tournaments
        self.manager = manager
        manager.on_event_step = self.stepped
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

    async def open(
        self,
        running: Running,
        token: str | None,
        data: Mapping[str, Any],
        key: str | None = None,
    ) -> tuple[Made, Table | None, str | None]:
        """Open a table for the game `data` names, for the holder of the link `token`;
        returns the entry made, the table and its host token. `key`: the entry's
        idempotency key: sent again, the entry is answered as made, and no other table
        opens (nor is its host token, shown once, shown again: table and token None).
        RefusedError or ForbiddenError: no table stays open."""
        actor = await self.tournaments.read(running, token)  # checked on the log as stored
        if actor.role != "manager":
            raise ForbiddenError("only the tournament manager may open a table")
        if "table_id" in data:
            raise RefusedError("the server opens the table and writes its id into the entry")
        async with running.lock:
            landed = (
                None if key is None else running.tournament.landed(actor, key, OPEN_TABLE, data)
            )
            if landed is not None:
                return Made(landed, actor, replayed=True), None, None
            running.kind.check(running.tournament.state, actor, OPEN_TABLE, data, False)
            online = running.kind.online(running.tournament.state, data)
        players = len(online.players)
        try:
            # The one table setting the manager chooses: how long bots (standing in
            # for players away, or put in a seat by the host) wait before they act.
            chosen = {name: data[name] for name in ("bot_delay",) if name in data}
            settings = replace(TableSettings.from_json(chosen), listed=False, event=running.id)
        except ValueError as exc:
            raise RefusedError(str(exc)) from None
        try:
            table, host, _tokens = await self.manager.create(
                online.game, players, online.rules, [None] * players, settings
            )
        except ValueError as exc:
            raise RefusedError(str(exc)) from None
        try:
            made = await self.tournaments.enter(
                running, token, OPEN_TABLE, data, decided={"table_id": table.id}, key=key
            )
        except BaseException:
            await table.shut("the event did not take this table")
            raise
        if made.replayed:  # the same entry, made meanwhile at another worker
            await table.shut("the event took another table for this game")
            return made, None, None
        return made, table, host

    async def seat(self, table: Table, token: str | None) -> tuple[int, str]:
        """Seat the tournament's player whose link `token` is at `table`; returns their
        seat and its new token (ForbiddenError: not a player sitting there)."""
        running = await self.tournaments.get(table.settings.event or "")
        if running is None:
            raise ForbiddenError("this table plays no event's game")
        actor = await self.tournaments.read(running, token)
        if actor.role != "player" or actor.name is None:
            raise ForbiddenError("only a player's own event link takes a seat here")
        async with running.lock:
            index = running.kind.seat_at(running.tournament.state, table.id, actor.name)
        return index, await table.give_seat(index, actor.name)

    async def vacate(self, running: Running, made: Made) -> None:
        """End the secrets of the seats `made` takes from their holders (a player who
        quit an online game): each seat is reopened at once, a stand-in plays it, and
        only the seat's next player (named by the manager) takes it again."""
        async with running.lock:
            seats = running.kind.vacated(running.tournament.state, made.entry)
        for table_id, index in seats:
            table = self.manager.tables.get(table_id)
            if table is None:  # not loaded on this worker: its seats load from the store
                log.warning("table %s: seat %d to close is not on this worker", table_id, index)
                continue
            await table.set_seat(index, None)

    def stepped(self, table: Table) -> None:
        """A step was stored at a tournament's table: sync the tournament (one sync a
        table at a time; steps during a sync call for one more)."""
        running = self._syncing.get(table.id)
        if running is not None and not running.done():
            self._again.add(table.id)
            return
        self._syncing[table.id] = asyncio.create_task(self._sync(table))

    async def _sync(self, table: Table) -> None:
        try:
            while True:
                self._again.discard(table.id)
                await self._sync_once(table)
                if table.id not in self._again:
                    return
        except Exception:  # the table plays on; the next step syncs again
            log.exception("table %s: could not feed its event", table.id)
        finally:
            self._syncing.pop(table.id, None)

    async def _sync_once(self, table: Table) -> None:
        # The tournament as this worker holds it: most steps call for no entry, and
        # reading the database at every move would load its writer for nothing. An
        # entry made is checked again on what the store holds (`Tournaments.enter_as`).
        running = await self.tournaments.get(table.settings.event or "")
        if running is None:
            return
        async with table.lock, running.lock:  # the match as stored, never mid-step
            match = table.match
            state = running.tournament.state
            entries = [] if match is None else running.kind.sync(state, table.id, match)
        author = Actor("table", table.id)
        for type, data in entries:
            try:
                await self.tournaments.enter_as(running, author, type, data)
            except (RefusedError, ForbiddenError) as exc:
                # Entered already (another sync), or the tournament moved on (ruled off).
                log.info(
                    "table %s: event %s did not take a %s: %s", table.id, running.id, type, exc
                )
                return

    async def close(self) -> None:
        """Let the syncs under way finish (server shutdown)."""
        tasks = [t for t in self._syncing.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=5)
