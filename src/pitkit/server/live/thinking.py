"""Bots' thinking on the server, bounded: what a bot may spend, and where it runs.

A search bot (`search:…`, `rollouts:…`) may think for seconds a move. On the
event loop, or in a thread holding the GIL, that would slow every table on
the server, so it thinks in a small pool of worker processes that run at a
lower priority than the server. Each table has one decision in the pool at a
time, and tables are served in the order they asked: with P processes, one
table gets at most a 1/P share of them while others wait. Every budget is
capped (`Limits.bot_seconds`): a longer time budget is refused when the bot
is seated, and an iteration budget gets that time as a ceiling. Every other
bot decides in microseconds, in a thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import weakref
from typing import Any

from pitkit import bots as bot_registry
from pitkit import play
from pitkit.bots.search import Budget
from pitkit.core.actions import Action
from pitkit.core.game import Bot, Game
from pitkit.core.state import State
from pitkit.server.ops.settings import Limits

__all__ = ["Thinker", "is_search"]

log = logging.getLogger("pitkit.server")

#: Seconds past its budget after which a decision is given up (a bot's bug).
GRACE = 5.0


def is_search(bot: object) -> bool:
    """Whether `bot` thinks within a search budget (and so runs in a worker process)."""
    return isinstance(getattr(bot, "budget", None), Budget)


class Thinker:
    """Makes bots within the server's limits and asks them for moves."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._slots = asyncio.Semaphore(limits.bot_processes)
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
        self, owner: object, bot: Bot, state: State[Any], seat: int
    ) -> tuple[Action | None, Bot]:
        """What `bot` sends now for `seat` of `state` (a copy it may change), and
        the bot as it is after deciding (a search bot comes back from its process
        with its random state moved on). `owner` is the table asking."""
        if not is_search(bot):
            action = await asyncio.to_thread(play.decide, bot, state, seat)
            return action, bot
        turn = self._turns.setdefault(owner, asyncio.Lock())
        async with turn, self._slots:
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
            # spawn, not fork: the server has threads (the database writer) that a
            # forked child would inherit in whatever state they were.
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.limits.bot_processes,
                mp_context=multiprocessing.get_context("spawn"),
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
