"""Seats for whoever asks: an open seat taken from the lobby (no invitation needed),
and Play now, which seats a player at a waiting table of their game or opens one,
and after a short wait fills the empty seats with bots of the strength asked for.

Taking a seat checks that it is open and gives it to the player under the table's
lock, in one step: two people who ask for the same seat at once get it once, the
second a `SeatTakenError`. Play now finds and opens its tables under a lock of its
own, so two people pressing it at once sit at the same table (or, when it is full,
at two), and the bots sit down under that lock too. Play now's tables and their
waits live in this worker's memory: after a restart such a table waits for players
as any other does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pitkit.bots import levels
from pitkit.core.game import Game
from pitkit.server.live.seats import Seat, clean_name
from pitkit.server.live.tables import Table
from pitkit.server.ops.settings import Limits, TableSettings

__all__ = ["PlayNow", "SeatTakenError", "Waiting", "take_seat"]

log = logging.getLogger("pitkit.server")

Create = Callable[
    [str, int | None, Mapping[str, Any], list[str | None], TableSettings, str | None],
    Awaitable[tuple[Table, str, list[str]]],
]
"""`Manager.create`: a new table, its host token and its seats' tokens."""


class SeatTakenError(ValueError):
    """The seat asked for is not open (any more), or the table takes nobody from the lobby."""


def _open_seat(table: Table, index: int | None) -> Seat:
    """Seat `index` of `table` (None: its first open seat), if anyone may take it from
    the lobby: a listed table's open seat, before or during a match. Under the lock."""
    if not table.settings.listed or table.settings.event is not None:
        raise SeatTakenError("this table's seats go by invitation only")
    if table.status not in ("waiting", "playing"):
        raise SeatTakenError(f"the table is {table.status}: it takes no more players")
    if index is not None and not 0 <= index < len(table.seats):
        raise SeatTakenError(f"there is no seat {index + 1} at this table")
    candidates = table.seats if index is None else [table.seats[index]]
    for seat in candidates:
        if seat.kind == "open":
            return seat
    if index is None:
        raise SeatTakenError("every seat at this table is taken")
    raise SeatTakenError(f"seat {index + 1} is taken: {table.seats[index].label} sits there")


async def take_seat(
    table: Table, index: int | None, name: str | None, name_chars: int
) -> tuple[int, str]:
    """Give an open seat of `table` (`index`, or its first) to a player from the lobby,
    under `name`; returns the seat and its secret, from now on the player's alone. The
    seat's invitation stops working. ValueError: a bad name; `SeatTakenError`: not open."""
    clean = clean_name(name, name_chars)
    async with table.turn():
        seat = _open_seat(table, index)
        token = await table.host.give_seat(seat.index, clean or f"Player {seat.index + 1}")
    # Told as any player's arrival is, and a table whose last seat this was starts.
    await table.join(token, None)
    return seat.index, token


@dataclass
class Waiting:
    """A Play now table waiting for players, and when its bots sit down."""

    table: Table
    level: str
    bot: str
    starts: float
    """When the bots take the empty seats (wall-clock seconds)."""

    def shown(self) -> dict[str, Any]:
        """As the lobby shows it."""
        return {
            "table": self.table.id,
            "game": self.table.game.name,
            "level": self.level,
            "bot": self.bot,
            "open": sum(s.kind == "open" for s in self.table.seats),
            "starts_in": round(max(0.0, self.starts - time.time()), 1),
        }


class PlayNow:
    """Play now's tables on this worker: a player is seated at one waiting for their
    game and strength, or at a new one, whose empty seats bots take after its wait."""

    def __init__(self, create: Create, limits: Limits) -> None:
        self.create = create
        self.limits = limits
        self.lock = asyncio.Lock()
        self.waiting: dict[str, Waiting] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def listed(self) -> list[Waiting]:
        """The Play now tables still waiting for players, the soonest to start first."""
        return sorted(
            (w for w in self.waiting.values() if w.table.status == "waiting"),
            key=lambda w: w.starts,
        )

    async def seat(
        self, game: Game, level: str, name: str | None, wait: float, creator: str | None
    ) -> tuple[Waiting, int, str]:
        """Seat a player at a waiting Play now table of `game` at `level`, or at a new one
        (which waits `wait` seconds for others); returns the table, the seat and its
        secret. ValueError: an unknown level, a bad name, no room for another table."""
        bot = levels.bot_for(game, level)
        clean_name(name, self.limits.name_chars)  # refused before anything changes
        async with self.lock:
            for entry in self.listed():
                if entry.table.game.name != game.name or entry.level != level:
                    continue
                with contextlib.suppress(SeatTakenError):  # full or gone: the next one
                    index, token = await take_seat(entry.table, None, name, self.limits.name_chars)
                    return entry, index, token
            table, _host, tokens = await self.create(
                game.name, None, {}, [], TableSettings(), creator
            )
            _index, secret = await table.join(tokens[0], name)
            assert secret is not None  # an open seat, just claimed
            entry = Waiting(table, level, bot, time.time() + wait)
            self.waiting[table.id] = entry
            task = asyncio.create_task(self._fill_later(entry))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return entry, 0, secret

    async def _fill_later(self, entry: Waiting) -> None:
        """Once the wait is over, bots take the table's empty seats and the match starts."""
        await asyncio.sleep(max(0.0, entry.starts - time.time()))
        async with self.lock:
            self.waiting.pop(entry.table.id, None)
            try:
                await _fill(entry.table, entry.bot, entry.level)
            except Exception:  # the table closed meanwhile, or the database is down
                log.exception("Play now could not fill table %s", entry.table.id)

    def close(self) -> None:
        """Stop waiting (server shutdown): the tables stay, waiting as any other."""
        for task in self._tasks:
            task.cancel()


async def _fill(table: Table, bot: str, level: str) -> None:
    """Bots of `level` (`bot`) in every open seat of a waiting table, which then starts."""
    if table.status != "waiting":
        return  # full already, and playing; or closed
    async with table.turn():
        empty = [seat.index for seat in table.seats if seat.kind == "open"]
        for index in empty:
            await table.host.set_seat(index, bot)
    if empty:
        said = f"{len(empty)} {level} bot{'s' if len(empty) > 1 else ''} took the empty seats"
        table.room.tell(lambda _seat: said)
    await table.start()
