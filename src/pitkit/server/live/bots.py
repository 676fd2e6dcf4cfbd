"""The bots at one table: the bot seats' own bots, the stand-ins for open seats
and absent players, their turns, think times and fallbacks.

A bot's move goes through the table like a person's (`Move`: stored, then sent
to everyone). The bots read the table's state, room and pace; they decide on a
copy of the match (a slow bot in another process: `Thinker`), and move at the
table's pace and in their turn of the worker's budget (`BotPace`, `BotBudget`),
where people sit faster and sooner than at a table of bots alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable
from typing import Protocol

from pitkit import bots as bot_registry
from pitkit import play
from pitkit.core.actions import Action
from pitkit.core.game import Bot
from pitkit.server.live import messages
from pitkit.server.live.pacing import Pacing
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.room import Room
from pitkit.server.live.seats import Seat
from pitkit.server.live.state import Setup, TableState
from pitkit.server.live.thinking import Thinker
from pitkit.server.ops.settings import NORMAL_BOT_DELAY, Bucket

__all__ = ["WAIT_POLL", "BotSeats", "Move"]

log = logging.getLogger("pitkit.server")

#: How often a real-time bot that chose to wait looks again, at most.
WAIT_POLL = 0.5

#: Refusals a bot meets in the normal run of play (the table moved on meanwhile).
_EXPECTED = frozenset({"stale", "lost_race", "not_your_turn", "game_over", "between_hands"})


class Move(Protocol):
    """How a bot's move reaches the table (`Table.act`): applied, stored, then sent."""

    def __call__(
        self, seat: int, action: Action, version: int, /, *, by_bot: bool = False
    ) -> Awaitable[int]:
        """Play `action` for `seat` on `version`; the new version (`ProtocolError`: refused)."""
        ...


class BotSeats:
    """Who plays the seats no person plays now, and when they move."""

    def __init__(
        self,
        setup: Setup,
        thinker: Thinker,
        state: TableState,
        room: Room,
        pacing: Pacing,
        move: Move,
    ) -> None:
        self.table_id = setup.id
        self.game = setup.game
        self.settings = setup.settings
        self.thinker = thinker
        self.state = state
        self.room = room
        self.pacing = pacing
        self.move = move
        self.seated: dict[int, Bot] = {}
        """The bot of each bot seat, for the current match."""
        self.standins: dict[int, Bot] = {}
        """The bots standing in for open seats and absent players (made on first need)."""
        self._tasks: dict[int, asyncio.Task[None]] = {}
        pace = thinker.pace
        self._paces = {True: Bucket(pace.per_table, 1), False: Bucket(pace.alone, 1)}
        """The table's bots' pace, where people sit (True) and at a table of bots alone."""
        self._timing_out: asyncio.Task[None] | None = None
        # The table's own, as unpredictable as its bots' seeds: the global `random`'s
        # state is anybody's (a test's, a library's), and drawing from it moves theirs.
        self._random = random.Random(secrets.randbits(64))

    # -- who plays a seat ---------------------------------------------------------

    def player(self, index: int) -> Bot | None:
        """The bot playing a seat now: its own, or the stand-in for an open or absent seat."""
        seat = self.room.seats[index]
        if seat.kind == "bot":
            return self.seated.get(index)
        if seat.kind == "open" or seat.away:
            return self._standin(index)
        return None

    def plays(self, index: int) -> bool:
        """Whether a bot plays seat `index` now."""
        return self.player(index) is not None

    @property
    def alone(self) -> bool:
        """Whether no person sits at the table (bots and open seats only): its bots
        move at the pace of a table of bots alone, after the tables of people."""
        return not any(seat.kind == "player" for seat in self.room.seats)

    def _standin(self, index: int) -> Bot:
        """The bot that stands in for seat `index`'s player (made on first need)."""
        bot = self.standins.get(index)
        if bot is None:
            names = bot_registry.names(self.game)
            name = self.settings.standin if self.settings.standin in names else self.game.opponent
            bot = self.standins[index] = self.thinker.make(self.game, name, secrets.randbits(32))
        return bot

    def new_match(self) -> None:
        """Fresh bots for a new match (a bot may keep memory of the match it plays)."""
        self.seated = {
            seat.index: self.thinker.make(self.game, seat.bot, secrets.randbits(32))
            for seat in self.room.seats
            if seat.kind == "bot" and seat.bot is not None
        }
        self.standins = {}

    def reseat(self, seat: Seat) -> None:
        """The bot that plays `seat` now that its occupant changed: a fresh one for a
        bot seat during a match (a new match makes its own, `new_match`), else none."""
        self.seated.pop(seat.index, None)
        if seat.kind == "bot" and seat.bot is not None and self.state.match is not None:
            self.seated[seat.index] = self.thinker.make(self.game, seat.bot, secrets.randbits(32))

    def _keep(self, index: int, before: Bot, after: Bot) -> None:
        """Keep the bot as it came back from thinking (a search bot thinks in another
        process, and returns with its memory and random state moved on), unless
        the seat changed hands meanwhile."""
        if self.seated.get(index) is before:
            self.seated[index] = after
        elif self.standins.get(index) is before:
            self.standins[index] = after

    # -- their turns ---------------------------------------------------------------

    def schedule(self) -> None:
        """Start a task for each bot seat that may act now and has none running."""
        match = self.state.match
        if not self.state.in_play or self.state.closing or match is None:
            return
        if self.pacing.pause is not None:
            return  # bots wait for the hand to start, as people do
        for index in match.to_act:
            task = self._tasks.get(index)
            if (task is None or task.done()) and self.plays(index):
                self._tasks[index] = asyncio.create_task(self._turns(index))

    def think(self, bot: Bot) -> float:
        """How long a bot waits before acting: the table's bot delay, or in real time
        the bot's own think time (`play.think_range`) scaled by the table's speed
        (`NORMAL_BOT_DELAY`); a delay of 0 makes every bot instant, for tests."""
        delay = self.settings.bot_delay
        if not delay:
            return 0.0
        if self.game.realtime:
            low, high = play.think_range(bot)
            return self._random.uniform(low, high) * delay / NORMAL_BOT_DELAY
        return delay * self._random.uniform(0.7, 1.3)

    def _may_act(self, index: int) -> Bot | None:
        """The bot of seat `index`, if it is that seat's turn in a match under way."""
        match = self.state.match
        if match is None or match.is_over or index not in match.to_act:
            return None
        return self.player(index)

    async def _turns(self, index: int) -> None:
        """Play a bot's seat for as long as it may act: think, decide, act."""
        failures = 0
        try:
            while (bot := self._may_act(index)) is not None:
                if self.pacing.pause is not None:
                    return  # `Pacing.end_pause` schedules the bots again
                sorting = self.pacing.sorting_wait()
                if sorting > 0:
                    await asyncio.sleep(sorting)  # nobody trades while sorting
                    continue
                pace = self._paces[not self.alone]
                delay = max(self.think(bot), pace.wait())
                if delay:
                    await asyncio.sleep(delay)
                bot = self._may_act(index)
                if bot is None:
                    return
                if pace.take():  # else the table's bots moved enough for this moment
                    failures = await self._turn(index, bot, failures)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bot at seat %d failed", self.table_id, index)

    async def _turn(self, index: int, bot: Bot, failures: int) -> int:
        """One decision of the bot at seat `index`, and its move; returns the refusals
        in a row it has met since its last accepted move."""
        match = self.state.match
        assert match is not None
        version, changed = self.state.version, self.state.changed
        # On a copy (a slow bot in another process: it must not hold up the other tables).
        try:
            action, thought = await self.thinker.decide(
                self, bot, match.clone(), index, urgent=not self.alone
            )
        except Exception:  # too slow, its process died, a bug: the seat still moves
            log.exception("table %s: the bot at seat %d did not decide", self.table_id, index)
            await self._fallback(index)
            return failures
        self._keep(index, bot, thought)
        if action is None:  # a real-time bot waiting for the market to move
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for may swallow
            # the cancellation that stops this task.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WAIT_POLL):
                    await changed.wait()
            return failures
        try:
            await self._move(index, action, version)
            return 0
        except ProtocolError as exc:
            # A bot that saw a new hand dealt (a corner being stored) before the sorting
            # clock did: `_turns` waits out the sorting period, and nothing is wrong.
            if exc.code not in _EXPECTED and self.pacing.refusal(action) is None:
                failures += 1
                log.warning("table %s: bot at seat %d: %s", self.table_id, index, exc.reason)
                if failures >= 3:
                    await self._fallback(index)
            await asyncio.sleep(0)
            return failures

    async def _fallback(self, index: int) -> None:
        """A bot that keeps choosing refused actions: play a random legal one instead."""
        match = self.state.match
        if match is None:
            return
        legal = match.legal_actions(index)
        if legal:
            with contextlib.suppress(ProtocolError):
                await self._move(index, self._random.choice(legal), self.state.version)

    async def _move(self, index: int, action: Action, version: int) -> int:
        """Play the bot's move in the table's turn of the worker's budget."""
        await self.thinker.budget.turn(self, people=not self.alone)
        return await self.move(index, action, version, by_bot=True)

    # -- a person's turn ran out -------------------------------------------------------

    def ring(self, version: int) -> None:
        """The turn timer ran out at `version`: the stand-ins move (`_time_out`)."""
        self._timing_out = asyncio.create_task(self._time_out(version))  # kept: not collected

    async def _time_out(self, version: int) -> None:
        """A person's turn ran out at `version`: the stand-in bot makes one move for
        each person still to act then (as for an absent player), and everyone is told."""
        match = self.state.match
        if match is None or self.state.version != version or self.state.closing:
            return
        self.pacing.stop_turn()
        for index in sorted(match.to_act):
            if self.plays(index) or self.state.version != version:
                continue  # a bot plays the seat already, or the table moved on
            bot = self._standin(index)
            try:
                action, after = await self.thinker.decide(
                    self, bot, match.clone(), index, urgent=True
                )
                self._keep(index, bot, after)
            except Exception:  # as for any bot: the seat still moves
                log.exception(
                    "table %s: the stand-in at seat %d did not decide", self.table_id, index
                )
                action = None
            if action is None:
                action = self._random.choice(match.legal_actions(index))
            try:
                await self.move(index, action, version)
            except ProtocolError:
                continue  # the player moved at the last moment: their move stands
            self._tell_timed_out(index)
            self.schedule()

    def _tell_timed_out(self, index: int) -> None:
        labels = self.room.labels()
        self.room.send_each(
            lambda conn: conn.seat,
            lambda seat: messages.timed_out(index, messages.narrator(labels, seat)),
        )

    # -- stopping ----------------------------------------------------------------------

    def cancel(self) -> None:
        """Stop every bot's turns (the table is closed)."""
        for task in self._tasks.values():
            task.cancel()

    async def stop(self) -> None:
        """Stop every bot and wait until each has (the server shuts down)."""
        if self._timing_out is not None:
            self._timing_out.cancel()
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
