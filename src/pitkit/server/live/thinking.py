"""Bots' thinking on the server, bounded: what a bot may spend, and where it runs.

A slow bot (one that may think for more than about a millisecond a move, as its
class declares: `pitkit.core.game.is_slow`; the search bots, `search:…` and
`rollouts:…`, and the games' look-ahead bots) would slow every table on the
server on the event loop, or in a thread holding the GIL. So it thinks in a
small pool of worker processes that run at a lower priority than the server.
Each table has one decision in the pool at a time, and tables are served in the
order they asked, those where people sit first: with P processes, one table
gets at most a 1/P share of them while others wait. Every search budget is
capped (`Limits.bot_seconds`): a longer time budget is refused when the bot is
seated, and an iteration budget gets that time as a ceiling. Every other bot
decides in microseconds, on the event loop (a thread's hand-over would cost
more than the decision).

The thinker also holds the worker's bots' pace (`BotPace`) and their budget of
moves a second (`BotBudget`), which every table's bots share.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import weakref
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from pitkit import bots as bot_registry
from pitkit import play
from pitkit.bots.search import Budget
from pitkit.core.actions import Action
from pitkit.core.game import Bot, Game, is_slow
from pitkit.core.state import State
from pitkit.server.live.budget import BotBudget, BotPace
from pitkit.server.live.workers import worker_context
from pitkit.server.ops.settings import Limits

__all__ = ["Thinker"]

log = logging.getLogger("pitkit.server")

#: Seconds past its budget after which a decision is given up (a bot's bug).
GRACE = 5.0


class Slots:
    """The pool's processes, lent one decision at a time, in the order asked: those
    asked for at tables where people sit before the others."""

    def __init__(self, size: int) -> None:
        self._free = size
        self._lines: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(),
            deque(),
        )

    @contextlib.asynccontextmanager
    async def lend(self, urgent: bool) -> AsyncIterator[None]:
        """Hold one process (`urgent`: for a table where people sit)."""
        if self._free and not any(self._lines):
            self._free -= 1
        else:
            called = asyncio.get_running_loop().create_future()
            self._lines[0 if urgent else 1].append(called)
            try:
                await called
            except asyncio.CancelledError:
                if called.done() and not called.cancelled():
                    self._give_back()  # lent just as its asker was cancelled
                raise
        try:
            yield
        finally:
            self._give_back()

    def _give_back(self) -> None:
        for line in self._lines:
            while line:
                called = line.popleft()
                if not called.done():
                    called.set_result(None)
                    return
        self._free += 1


class Thinker:
    """Makes bots within the server's limits and asks them for moves."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.pace = BotPace.of(limits)
        """How fast bots may move, at a table and on this worker."""
        self.budget = BotBudget(self.pace.worker)
        """The worker's bot moves a second, shared by every table's bots."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._slots = Slots(limits.bot_processes)
        self._turns: weakref.WeakKeyDictionary[object, asyncio.Lock] = weakref.WeakKeyDictionary()

    def check(self, game: Game, name: str) -> None:
        """Refuse (ValueError, a reason for people) an unknown bot, or a time
        budget over the server's cap, before it is seated."""
        budget = getattr(bot_registry.make(game, name, 0), "budget", None)
        cap = self.limits.bot_seconds
        if isinstance(budget, Budget) and budget.seconds is not None and budget.seconds > cap:
            raise ValueError(
                f"a bot may think at most {cap:g} s a move on this server, "
                f"not {budget.seconds:g} s ({name})"
            )

    def make(self, game: Game, name: str, seed: int | None) -> Bot:
        """The bot `name` for `game`, its budget within the server's cap (a table
        stored before the cap was lowered gets its bots cut down to it)."""
        bot = bot_registry.make(game, name, seed)
        budget = getattr(bot, "budget", None)
        if isinstance(budget, Budget):
            cap = self.limits.bot_seconds
            # Iterations take longer on a busy machine: the time cap holds for them too.
            seconds = min(budget.seconds or cap, cap)
            bot.budget = Budget(budget.iterations, seconds)  # type: ignore[attr-defined]
        return bot

    async def decide(
        self, owner: object, bot: Bot, state: State[Any], seat: int, urgent: bool = False
    ) -> tuple[Action | None, Bot]:
        """What `bot` sends now for `seat` of `state` (a copy it may change), and
        the bot as it is after deciding (a slow bot comes back from its process
        with its random state moved on). `owner` is the table asking; `urgent`,
        whether people sit there (they go first in the pool)."""
        if not is_slow(bot):
            return play.decide(bot, state, seat), bot
        turn = self._turns.setdefault(owner, asyncio.Lock())
        async with turn, self._slots.lend(urgent):
            pool = self._start()
            future = asyncio.wrap_future(pool.submit(_decide, bot, state, seat))
            try:
                async with asyncio.timeout(self.limits.bot_seconds + GRACE):
                    return await future
            except concurrent.futures.BrokenExecutor:
                log.error("a bot process died; starting new ones")
                self._stop()
                raise

    def _start(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.limits.bot_processes,
                mp_context=worker_context(),
                initializer=_lower_priority,
            )
        return self._pool

    def _stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the worker processes (server shutdown), waiting for them to exit:
        a decision under way ends within the cap."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


def _lower_priority() -> None:
    """In each worker: yield the CPU to the server, whose players are waiting."""
    with contextlib.suppress(OSError):
        os.nice(10)


def _decide(bot: Bot, state: State[Any], seat: int) -> tuple[Action | None, Bot]:
    return play.decide(bot, state, seat), bot
