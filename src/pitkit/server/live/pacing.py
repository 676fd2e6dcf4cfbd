"""A table's pace: the pause between hands, the turn timer and the sorting clock.

One object for the three clocks a table shows (`Clocks`). It reads the table's
state and room, sends the pace's own message (``next_hand``), and tells the
table what only the table may do through the hooks it is given: which seats a
bot plays, that a hand has started (the bots may act), that a person's turn ran
out (a stand-in moves, or the player forfeits), that a move's deadline is set (a
table at its own pace stores it, so that a restart keeps it).

The turn timer runs on the server's `Clock`, wall-clock time that a test may move
forward (`Clock.advance`): a table at its own pace gives each move hours or days,
and its deadline is an absolute time (docs/turn-based.md).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pitkit import play
from pitkit.core.actions import Action
from pitkit.core.events import Event
from pitkit.core.match import Match
from pitkit.server.live import messages
from pitkit.server.live.messages import Clocks
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.room import Room
from pitkit.server.live.state import Setup, TableState
from pitkit.server.live.wire import PauseInfo
from pitkit.server.ops.settings import Limits

__all__ = ["Clock", "Deadline", "Pace", "Pacing", "Pause"]

#: Seconds the pause between hands lasts once nobody is left to wait for: a page that
#: reloads, or a server that restarts (its sockets close first), keeps the pause.
EMPTY_SECONDS = 2.0


class Clock:
    """The server's wall clock (seconds since the epoch, as `time.time`), which a test
    may move forward: `advance` adds to every reading, and wakes each table whose
    turn timer has run out meanwhile. Nothing over HTTP reaches it; a test holds the
    server's `Manager` (``app.state.services.manager.clock``) and calls `advance`."""

    def __init__(self) -> None:
        self.skew = 0.0
        """Seconds added to the real time (only ever by a test)."""
        self._moved: list[tuple[asyncio.AbstractEventLoop, Callable[[], None]]] = []

    def now(self) -> float:
        """The time now, in wall-clock seconds."""
        return time.time() + self.skew

    def on_advance(self, loop: asyncio.AbstractEventLoop, wake: Callable[[], None]) -> None:
        """Call `wake` on `loop` each time the clock is moved forward."""
        self._moved.append((loop, wake))

    def advance(self, seconds: float) -> None:
        """Move the clock `seconds` forward (a test's simulated day); from any thread."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.skew += seconds
        for loop, wake in self._moved:
            loop.call_soon_threadsafe(wake)


@dataclass(frozen=True)
class Deadline:
    """When the move due at a version of a match must be made by (`Clock.now` seconds)."""

    match: int
    version: int
    ends: float

    def to_json(self) -> dict[str, float]:
        """As stored in the table's settings (``deadline``)."""
        return {"match": self.match, "version": self.version, "ends": self.ends}

    @staticmethod
    def from_json(data: Any) -> Deadline | None:
        """A stored deadline, or None if there is none (or it cannot be read)."""
        try:
            return Deadline(int(data["match"]), int(data["version"]), float(data["ends"]))
        except (TypeError, KeyError, ValueError):
            return None


@dataclass(eq=False)
class Pause:
    """The pause between two hands where people sit: the next hand, dealt already,
    starts when every person present is ready, or when the countdown runs out."""

    ends: float
    """When the countdown runs out (`time.monotonic`)."""
    timer: asyncio.TimerHandle
    ready: set[int] = field(default_factory=set)
    """The seats whose players said they are ready."""
    empty: asyncio.TimerHandle | None = None
    """Set while nobody is left to wait for: the hand starts unless someone comes back."""


@dataclass(frozen=True)
class Pace:
    """What the pace asks of its table, and tells it."""

    bot_plays: Callable[[int], bool]
    """Whether a bot plays a seat now (its own, or a stand-in)."""
    started: Callable[[], None]
    """A hand started after the pause: the bots may act."""
    ran_out: Callable[[int], None]
    """The turn timer ran out at this version."""
    timed: Callable[[Deadline], None]
    """A turn timer started with this deadline (a table at its own pace stores it)."""


class Pacing:
    """The pause between hands, the turn timer and the sorting clock of one table."""

    def __init__(
        self,
        setup: Setup,
        limits: Limits,
        state: TableState,
        room: Room,
        hooks: Pace,
        wall: Clock | None = None,
    ) -> None:
        self.wall = wall or Clock()
        """The clock of the turn timer (a test's may be moved forward)."""
        self.game = setup.game
        self.settings = settings = setup.settings
        self.state = state
        self.room = room
        self.hooks = hooks
        self.sorting = setup.rules.sorting_period() if settings.bot_delay else 0.0
        """The sorting period after each deal (T3), when bots play at a person's
        pace; instant bots (no bot delay) trade at once, as in simulation."""
        own = settings.next_hand_seconds
        self.pause_seconds = limits.next_hand_seconds if own is None else own
        """How long the pause between hands lasts at most (0: none)."""
        self.clock: play.TradingPit | None = None
        """The match's real-time clock (`pitkit.play.TradingPit`): the sorting period
        (T3) and each hand's timings, for a game played in real time."""
        self.pause: Pause | None = None
        """The pause before the hand just dealt, while it lasts (`after_step`)."""
        self._turn_timer: asyncio.TimerHandle | None = None
        self._turn_ends: float | None = None
        """When the turn timer runs out for the person to act now (`Clock.now`)."""

    # -- what the table shows ---------------------------------------------------

    def clocks(self) -> Clocks:
        """Every clock as it stands now."""
        return Clocks(self._turn_left(), self._sorting_left(), self._next_hand())

    def broadcast(self) -> None:
        """Tell everyone where the pace stands (the ``next_hand`` message)."""
        state = self.state
        self.room.send_all(messages.next_hand(state.number, state.version, self.clocks()))

    def _next_hand(self) -> PauseInfo | None:
        pause = self.pause
        if pause is None:
            return None
        present = self.room.present()
        return {
            "left": round(max(0.0, pause.ends - time.monotonic()), 1),
            "ready": sorted(pause.ready & present),
            "waiting": sorted(present - pause.ready),
        }

    def _sorting_left(self) -> float | None:
        clock, match = self.clock, self.state.match
        if clock is None or not clock.sorting or clock.is_open or self.pause is not None:
            return None
        if match is None or match.is_over:
            return None
        return round(clock.sorting_left(), 1)

    def _turn_left(self) -> float | None:
        if self._turn_ends is None:
            return None
        return round(max(0.0, self._turn_ends - self.wall.now()), 1)

    # -- the sorting clock --------------------------------------------------------

    def new_match(self) -> None:
        """A match was dealt or read again: a new clock, and no pause (it goes straight on)."""
        self.drop_pause()
        match = self.state.match
        self.clock = None
        if match is not None and self.game.realtime:
            self.clock = play.TradingPit(match, time.monotonic, self.sorting)

    def follow(self, match: Match[Any, Any]) -> None:
        """The table's match was put back as it was (`Table.undo`): time that one."""
        if self.clock is not None:
            self.clock.match = match

    def refusal(self, move: Action) -> str | None:
        """Why the clock refuses `move` now (Pit's pit opened while sorting), or None."""
        return self.clock.refusal(move) if self.clock is not None else None

    def sorting_wait(self) -> float:
        """Seconds before anyone may trade in this hand (0: now)."""
        clock = self.clock
        if clock is None or clock.is_open:
            return 0.0
        return clock.sorting_left()

    # -- the pause between hands -------------------------------------------------

    def after_step(self, events: list[Event]) -> None:
        """After a stored step: the clock takes its events; if the step ended a hand and
        dealt the next (the match deals at once), the new hand waits until the people
        here are ready (tables of bots alone, or where nobody is connected, go straight
        on); the person to act next has a fresh turn."""
        if self.clock is not None:
            self.clock.record(events)
        match, seconds = self.state.match, self.pause_seconds
        goes_on = match is not None and not match.is_over
        scored = any(event.type == "scores" for event in events)
        if goes_on and scored and seconds > 0 and self.room.present():
            self._pause_for(seconds)
        self.restart_turn()

    def resume(self, events: list[Event], ended: float | None) -> None:
        """A match read again (after a restart) whose last step, stored at `ended`
        (wall-clock seconds; None: unknown), ended a hand and dealt the next: the pause
        before it goes on for what was left of it (all of it, if `ended` is unknown),
        where people sit. Nobody is connected yet: those who come back are waited for,
        and the countdown starts the hand if they do not."""
        match, seconds = self.state.match, self.pause_seconds
        goes_on = match is not None and not match.is_over
        scored = any(event.type == "scores" for event in events)
        people = any(seat.kind == "player" for seat in self.room.seats)
        left = seconds if ended is None else seconds - max(0.0, time.time() - ended)
        if goes_on and scored and people and left > 0:
            self._pause_for(left)

    def _pause_for(self, seconds: float) -> None:
        """Pause before the hand just dealt, for `seconds` at most."""
        self.drop_pause()
        timer = asyncio.get_running_loop().call_later(seconds, self.end_pause)
        self.pause = Pause(time.monotonic() + seconds, timer)

    def ready(self, seat: int) -> None:
        """A seat's player is ready for the next hand; the last one starts it."""
        if self.pause is None:
            raise ProtocolError("no_pause")
        self.pause.ready.add(seat)
        self.review()

    def review(self) -> None:
        """Start the hand if nobody present is still awaited (a moment later if nobody
        is present at all); else tell everyone."""
        pause = self.pause
        if pause is None:
            return
        present = self.room.present()
        if present - pause.ready:
            self.broadcast()
        elif present:
            self.end_pause()
        elif pause.empty is None:
            loop = asyncio.get_running_loop()
            pause.empty = loop.call_later(EMPTY_SECONDS, self._start_if_empty)

    def _start_if_empty(self) -> None:
        """Nobody was left to wait for a moment ago: start the hand if nobody came back."""
        if self.pause is not None:
            self.pause.empty = None
            if not self.room.present():
                self.end_pause()

    def end_pause(self) -> None:
        """The hand starts: its clocks start now (the turn timer, Pit's sorting
        period), everyone is told, and the bots may act."""
        if self.pause is None:
            return
        self.drop_pause()
        if self.clock is not None:
            self.clock.begin()
        self.restart_turn()
        self.broadcast()
        self.state.signal()
        self.hooks.started()

    def drop_pause(self) -> None:
        """Forget the pause, if one is on, without starting the hand."""
        if self.pause is not None:
            self.pause.timer.cancel()
            if self.pause.empty is not None:
                self.pause.empty.cancel()
            self.pause = None

    # -- the turn timer ------------------------------------------------------------

    @property
    def turn_running(self) -> bool:
        """Whether the turn timer runs."""
        return self._turn_timer is not None

    @property
    def move_seconds(self) -> float | None:
        """The time a person has for each move: at their own pace, or the turn timer."""
        return self.settings.own_pace or self.settings.turn_seconds

    def _timed_turn(self) -> bool:
        """Whether the person to act now has a turn timer: a turn-based game under way
        with a timer, no pause, and a person (not a bot) to act."""
        match = self.state.match
        if not self.move_seconds or self.game.realtime or match is None or match.is_over:
            return False
        if self.pause is not None:
            return False  # it starts with the hand (`end_pause`)
        return not all(self.hooks.bot_plays(i) for i in match.to_act)

    def restart_turn(self) -> None:
        """After each move (and each deal): a person to act has `move_seconds` for this
        move. Not in real time (Pit has no turns), nor for seats a bot plays."""
        self.stop_turn()
        seconds = self.move_seconds
        if seconds and self._timed_turn():
            self._run_turn(self.wall.now() + seconds)
            assert self._turn_ends is not None
            self.hooks.timed(Deadline(self.state.number, self.state.version, self._turn_ends))

    def restore_turn(self, stored: Deadline | None) -> None:
        """A match read again (after a restart): the turn timer runs to the deadline
        stored for this very move (it may have passed: the move times out at once), or,
        with none stored, gives the move its whole time from now."""
        state = self.state
        if stored is None or (stored.match, stored.version) != (state.number, state.version):
            self.restart_turn()
        elif self._timed_turn():
            self._run_turn(stored.ends)

    def _run_turn(self, ends: float) -> None:
        """Run the turn timer to `ends` (`Clock.now` seconds)."""
        self.stop_turn()
        self._turn_ends = ends
        loop = asyncio.get_running_loop()
        self._turn_timer = loop.call_later(max(0.0, ends - self.wall.now()), self.check_turn)

    def check_turn(self) -> None:
        """Whether the turn timer ran out (its timer fired, or a test moved the clock):
        if so, it stops and the table is told, once; else it waits on."""
        ends = self._turn_ends
        if ends is None:
            return
        if self.wall.now() < ends:
            self._run_turn(ends)  # woken early (the clock never goes back, but be sure)
            return
        version = self.state.version
        self.stop_turn()
        self.hooks.ran_out(version)

    def stop_turn(self) -> None:
        """Stop the turn timer, if it runs."""
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self._turn_timer, self._turn_ends = None, None

    def stop(self) -> None:
        """Stop every clock: the table takes no more moves."""
        self.stop_turn()
        self.drop_pause()
