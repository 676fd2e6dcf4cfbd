"""The bots' share of one worker: how fast they may move, at one table and all
together, people's tables first.

A bot's move costs the server what a person's does (stored, then sent to everyone),
and a table of bots alone would ask for one every instant, for ever, with nobody
there to enjoy it. So (`BotPace`):

- a table's bots together move at most `per_table` times a second where a person
  sits, and `alone` times at a table of bots alone, whose match stops after
  `alone_moves` moves;
- all the tables' bots together move at most `worker` times a second (`BotBudget`):
  tables take their turns one move at a time, in the order they asked, and the
  tables where people sit are served before the tables of bots alone.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import deque
from dataclasses import dataclass

from pitkit.server.ops.settings import Limits

__all__ = ["BotBudget", "BotPace"]


@dataclass(frozen=True)
class BotPace:
    """How fast bots may move on this worker, and how long a match of bots alone lasts."""

    per_table: float
    """Moves a second of one table's bots together, where a person sits."""
    alone: float
    """Moves a second of one table's bots together, at a table of bots alone."""
    worker: float
    """Moves a second of every table's bots together."""
    alone_moves: int
    """Moves after which a match of bots alone is stopped (its table closed)."""

    @staticmethod
    def of(limits: Limits) -> BotPace:
        """The pace `limits` set (`Limits.bot_actions_per_second` and the three after it)."""
        return BotPace(
            per_table=limits.bot_actions_per_second,
            # Bots alone never move faster than a table's bots may.
            alone=min(limits.bot_alone_actions_per_second, limits.bot_actions_per_second),
            worker=limits.bot_actions_all_per_second,
            alone_moves=min(limits.match_actions, limits.bot_alone_match_actions),
        )


class BotBudget:
    """The worker's bot moves a second, shared out one move at a time: each table
    waits in line for its next move (one place in line a table, so a hundred tables
    get a hundredth each), and the line of tables where people sit goes first."""

    def __init__(self, per_second: float) -> None:
        self.rate = per_second
        self._tokens = 1.0
        self._at = time.monotonic()
        self._lines: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(),
            deque(),
        )
        """Who waits: the tables where people sit, then the tables of bots alone."""
        self._places: weakref.WeakKeyDictionary[object, asyncio.Lock] = weakref.WeakKeyDictionary()
        self._timer: asyncio.TimerHandle | None = None

    async def turn(self, table: object, people: bool) -> None:
        """Wait until `table`'s bots may make one move (`people`: a person sits there)."""
        place = self._places.setdefault(table, asyncio.Lock())
        async with place:  # one place in line a table, however many bots it has
            self._fill()
            if self._tokens >= 1 and not any(self._lines):
                self._tokens -= 1
                return
            called = asyncio.get_running_loop().create_future()
            self._lines[0 if people else 1].append(called)
            self._wake()
            await called  # cancelled (the table closed): skipped when its turn comes

    def _fill(self) -> None:
        now = time.monotonic()
        self._tokens = min(1.0, self._tokens + (now - self._at) * self.rate)
        self._at = now

    def _wake(self) -> None:
        """Call the next in line when the budget has a move for it."""
        if self._timer is None and any(self._lines):
            wait = max(0.0, (1 - self._tokens) / self.rate)
            self._timer = asyncio.get_running_loop().call_later(wait, self._serve)

    def _serve(self) -> None:
        self._timer = None
        self._fill()
        for line in self._lines:
            while line and self._tokens >= 1:
                called = line.popleft()
                if not called.done():
                    called.set_result(None)
                    self._tokens -= 1
        self._wake()
