"""A real-time match on the wall clock: `RealtimeRunner` plays the bots with
asyncio while people send actions whenever they like.

One task per bot looks at the pit (`pitkit.play.realtime.TradingPit`),
decides, thinks, and sends; a waiting bot looks again when the pit changes or
when its think time runs out. People act through `submit`.

This module stays Python in the compiled build (hatch_build.py): it waits,
it does not compute, and coroutines compiled by mypyc were seen to lose
`asyncio.timeout`'s cancellations, so a runner could wait on after its
match had ended.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pitkit.core.actions import Action
from pitkit.core.match import Match
from pitkit.play.bots import decide, think_range
from pitkit.play.realtime import Arrival, TradingPit

__all__ = ["RealtimeRunner"]


@dataclass
class RealtimeRunner:
    """A real-time match on the asyncio clock: bots act concurrently with
    their think times (scaled by `pace`), people call `submit`.

    `players` holds a bot per seat, or None for a person. `sorting` is the
    sorting period in seconds (default: the rules' `sorting_period()`, T3).
    """

    match: Match[Any, Any]
    players: Sequence[object | None]
    seed: int | None = None
    sorting: float | None = None
    pace: float = 1.0
    table: TradingPit = field(init=False)
    rng: random.Random = field(init=False)
    _changed: asyncio.Event = field(init=False)
    _start: float = field(init=False)

    def __post_init__(self) -> None:
        if len(self.players) != self.match.players:
            raise ValueError(f"{self.match.players} seats need {self.match.players} players")
        self.rng = random.Random(self.seed)
        sorting = self.sorting
        if sorting is None:
            sorting = self.match.rules.sorting_period()
        self._start = time.monotonic()
        self._changed = asyncio.Event()
        self.table = TradingPit(self.match, self._clock, sorting)
        self.table.listeners.append(self._on_arrival)

    def _clock(self) -> float:
        # The event loop's clock is time.monotonic too; this one also works
        # before the loop runs, so people may act as soon as the table exists.
        return time.monotonic() - self._start

    def _on_arrival(self, arrival: Arrival) -> None:
        if arrival.accepted:
            self._changed.set()
            self._changed = asyncio.Event()

    def submit(
        self, seat: int, action: Action | str | Mapping[str, Any], hand: int | None = None
    ) -> Arrival:
        """Send a person's action now (see `TradingPit.submit`)."""
        return self.table.submit(seat, action, hand)

    async def run(self) -> None:
        """Play until the match is over (or the task is cancelled)."""
        tasks = [
            asyncio.create_task(self._bot(seat, bot))
            for seat, bot in enumerate(self.players)
            if bot is not None
        ]
        try:
            while not self.match.is_over:
                await self.wait_change(1.0)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def wait_change(self, timeout: float) -> bool:
        """Wait until the table changes or `timeout` seconds pass; True if it changed."""
        # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a
        # cancellation that comes as the wait ends, and the bots would play on.
        try:
            async with asyncio.timeout(timeout):
                await self._changed.wait()
        except TimeoutError:
            return False
        return True

    def think(self, bot: object) -> float:
        """A think time for `bot`, from the runner's seed, scaled by `pace`."""
        lo, hi = think_range(bot)
        return self.rng.uniform(lo, hi) * self.pace

    async def _bot(self, seat: int, bot: object) -> None:
        match, table = self.match, self.table
        while not match.is_over:
            if seat not in match.to_act:
                await self.wait_change(self.think(bot))
                continue
            if not table.is_open and table.sorting_left() > 0:
                await asyncio.sleep(table.sorting_left())
                continue
            hand = table.hand_number
            action = decide(bot, match, seat)
            if action is None:
                await self.wait_change(self.think(bot))
                continue
            await asyncio.sleep(self.think(bot))
            table.submit(seat, action, hand)
