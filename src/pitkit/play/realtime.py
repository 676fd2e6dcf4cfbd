"""Running a real-time game: everybody acts at once, in arrival order.

The pieces, from the bottom up:

- `TradingPit` takes actions one at a time in the order they arrive and says
  what became of each (`Arrival`): taken, or refused with the reason, e.g.
  "seat 2's offer #7 was taken by seat 4". An action is sent with the
  number of the hand it was decided in; one that arrives after that hand
  ended (a corner ends it at once) is refused as too late, with how the
  hand ended. The pit also holds the sorting period: the dealer may not
  open the pit before it is over (T3).
- A real-time bot (`RealtimeBot`) has `act(state, seat)`, which returns an
  action or None to wait, and `think_time`, the range of seconds it takes
  to react. Any other bot (`choose` always returns an action, like the
  generic random bot) is driven the same way with `DEFAULT_THINK`.
- `VirtualRun` (and `play_virtual`) does the same on a virtual clock, with
  no waiting at all: deterministic from a seed, for simulations.

The runner's own random choices (think times, and so arrival order) come
from its seed; the game's come from the match's `Chance`.
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from pitkit.core.actions import Action
from pitkit.core.errors import IllegalActionError
from pitkit.core.events import Event
from pitkit.core.match import Match
from pitkit.core.state import State
from pitkit.play.bots import DEFAULT_THINK, RealtimeBot, decide, decider, think_range

__all__ = [
    "DEFAULT_THINK",
    "Arrival",
    "HandTiming",
    "RealtimeBot",
    "StalledError",
    "TradingPit",
    "VirtualRun",
    "decide",
    "decider",
    "play_virtual",
    "think_range",
]


@dataclass(frozen=True)
class Arrival:
    """What became of one action sent to the pit."""

    seat: int
    action: str
    time: float
    hand: int
    accepted: bool
    reason: str | None = None
    events: tuple[Event, ...] = ()


@dataclass
class HandTiming:
    """When one hand was dealt, opened and ended, on the pit's clock."""

    hand: int
    dealt: float
    opened: float | None = None
    ended: float | None = None
    cornered: bool = False
    trades: int = 0

    @property
    def trading_time(self) -> float | None:
        """Seconds from the opening to the end of the hand."""
        if self.opened is None or self.ended is None:
            return None
        return self.ended - self.opened


class TradingPit:
    """One real-time match, taking actions one at a time in arrival order: the
    pit where everybody trades at once, which the dealer opens ("The pit is
    open!"). (`match` may also be a single hand of one, as in search's playouts.)

    `clock` gives the time in seconds (the event loop's, or a virtual one);
    `sorting` is the sorting period after each deal, before which the dealer
    may not open (T3). Listeners are called after every arrival.
    """

    def __init__(self, match: State[Any], clock: Callable[[], float], sorting: float = 0.0) -> None:
        self.match = match
        self.clock = clock
        self.sorting = sorting
        self.version = 0
        self.trades = 0
        self.refused = 0
        self.listeners: list[Callable[[Arrival], None]] = []
        self.timings = [HandTiming(1, clock())]
        self._starts = [clock()]

    @property
    def hand_number(self) -> int:
        """The number of the hand being played (1 for the first)."""
        return len(self.timings)

    @property
    def is_open(self) -> bool:
        """Whether trading is under way in the current hand."""
        return bool(getattr(self.match.current_hand, "is_open", True))

    @property
    def dealt_at(self) -> float:
        """When the current hand was dealt."""
        return self.timings[-1].dealt

    def begin(self) -> None:
        """The current hand starts now, later than it was dealt (a server table
        waits for its players between hands): its sorting period counts from now."""
        self.timings[-1].dealt = self.clock()

    def sorting_left(self) -> float:
        """Seconds left in the current hand's sorting period."""
        return max(0.0, self.dealt_at + self.sorting - self.clock())

    def hand_at(self, time: float) -> int:
        """The hand that was being played at `time`."""
        number = 1
        for i, timing in enumerate(self.timings, 1):
            if timing.dealt <= time:
                number = i
        return number

    def submit(
        self, seat: int, action: Action | str | Mapping[str, Any], hand: int | None = None
    ) -> Arrival:
        """Apply `action` for `seat` now, decided during hand `hand` (None:
        the current one). Never raises for bad input: the arrival says why
        it was refused."""
        now = self.clock()
        text = repr(dict(action)) if isinstance(action, Mapping) else str(action)
        counted, result = self._arrive(seat, action, hand, now)
        if isinstance(result, str):
            arrival = Arrival(seat, text, now, counted, False, result)
        else:
            arrival = Arrival(seat, text, now, counted, True, events=tuple(result))
        for listener in list(self.listeners):
            listener(arrival)
        return arrival

    def take(
        self,
        seat: int,
        action: Action | str | Mapping[str, Any],
        hand: int | None = None,
        now: float | None = None,
    ) -> bool:
        """`submit`, for a caller that only needs to know whether the action
        was taken: it makes no `Arrival` unless a listener wants one. `now`
        saves asking the clock, for a caller that knows the time."""
        if self.listeners:
            return self.submit(seat, action, hand).accepted
        now = self.clock() if now is None else now
        return not isinstance(self._arrive(seat, action, hand, now)[1], str)

    def _arrive(
        self, seat: int, action: Action | str | Mapping[str, Any], hand: int | None, now: float
    ) -> tuple[int, list[Event] | str]:
        """Apply one arrival: the hand it belongs to, and its events if it
        was taken, or the reason it was refused."""
        current = len(self.timings)  # the hand number
        if hand is not None and hand < current:
            results = self.match.results if isinstance(self.match, Match) else []
            ended = results[hand - 1].summary if hand <= len(results) else ""
            self.refused += 1
            return hand, f"too late: that hand is over ({ended})"
        try:
            move = action if isinstance(action, Action) else self.match.parse_action(action)
        except IllegalActionError as exc:  # malformed
            self.refused += 1
            return current, str(exc)
        refused = self.refusal(move)
        events = refused if refused is not None else self.match.attempt(seat, move)
        if isinstance(events, str):
            self.refused += 1
            return current, events
        self.record(events, now)
        return current, events

    def refusal(self, move: Action) -> str | None:
        """Why the pit refuses `move` before the game sees it, if it does:
        the dealer may not open the pit during the sorting period (T3)."""
        if move.kind == "open" and self.sorting_left() > 0:
            left = math.ceil(self.sorting_left())
            return f"the sorting period has {left} s left: ring the bell when it is over (T3)"
        return None

    def record(self, events: Sequence[Event], now: float | None = None) -> None:
        """Take note of an action the match took, by its events: the timings
        (the opening, trades, the end of a hand, the next deal) and the version."""
        now = self.clock() if now is None else now
        for event in events:
            if event.type != "action":  # (most are)
                self._note(event, now)
        self.version += 1

    def _note(self, event: Event, now: float) -> None:
        """Keep the timings: the opening, trades, the end of a hand, the next deal."""
        timing = self.timings[-1]
        if event.type == "open":
            timing.opened = now
        elif event.type == "trade":
            timing.trades += 1
            self.trades += 1
        elif event.type == "hand_end":
            timing.ended = now
            timing.cornered = event.public.get("cornerer") is not None
        elif event.type == "deal" and timing.ended is not None:
            self.timings.append(HandTiming(len(self.timings) + 1, now))


@mypyc_attr(native_class=False)  # compiled, a class can only subclass object or Exception
class StalledError(RuntimeError):
    """Nobody acted for the run's `max_quiet` virtual seconds."""


class VirtualRun:
    """A real-time match played on a virtual clock: no waiting, and the same
    seed gives the same game. Each bot looks, decides, and its action
    arrives one think time later; a bot that waits looks again when the
    table changes or its think time runs out. There is no sorting period
    in simulation (T3).

    A run may join a game under way, as search's playouts do: `send` queues
    a move already decided, and with `staggered` each other bot first looks
    after a random part of a think time, being somewhere in its own."""

    def __init__(
        self,
        match: State[Any],
        bots: Sequence[object],
        seed: int | None = None,
        *,
        max_quiet: float = 3600.0,
        staggered: bool = False,
    ) -> None:
        if len(bots) != match.players:
            raise ValueError(f"{match.players} seats need {match.players} bots, not {len(bots)}")
        self.match = match
        self.bots = list(bots)
        # Asked once: protocol checks are slow, and bots do not change kind.
        self._decide = [decider(bot) for bot in self.bots]
        self._think = [think_range(bot) for bot in self.bots]
        self.rng = random.Random(seed)
        self._random = self.rng.random
        self.now = 0.0
        self.table = TradingPit(match, lambda: self.now)
        self.decisions = 0  # actions taken; those refused are in table.refused
        self.max_quiet = max_quiet
        self._queue: list[tuple[float, int, int, int, Action | None, int]] = []
        self._order = itertools.count()
        self._generation = [0] * match.players  # a newer look cancels an older one
        self._waiting: set[int] = set()
        self._last_change = 0.0
        self._staggered = staggered
        self._sent: set[int] = set()  # seats with a move queued before the run

    def think(self, seat: int) -> float:
        """A think time for `seat`'s bot, from the runner's seed."""
        lo, hi = self._think[seat]
        return lo + (hi - lo) * self._random()  # rng.uniform(lo, hi), one call fewer

    def run(self) -> int:
        """Play to the end of the match; return the decisions made: the
        actions taken, as in turn-based play (not those refused in races)."""
        for seat in range(self.match.players):
            if seat not in self._sent:
                share = self._random() if self._staggered else 1.0
                self._look_at(seat, share * self.think(seat))
        match, queue, take, look = self.match, self._queue, self.table.take, self._look
        while queue and not match.is_over:
            time, _, seat, generation, action, hand = heapq.heappop(queue)
            self.now = time
            if action is not None:
                if take(seat, action, hand, time):
                    self.decisions += 1
                    self._last_change = time
                    self._wake()
                look(seat)
            elif generation == self._generation[seat]:
                look(seat)
            if time - self._last_change > self.max_quiet:
                raise StalledError(f"nobody acted for {self.max_quiet:.0f} virtual seconds")
        return self.decisions

    def send(self, seat: int, action: Action) -> None:
        """Before `run`: `seat` has decided `action`, which arrives one think
        time from now; the seat's bot looks again after that."""
        self._sent.add(seat)
        self._send(seat, action)

    def _send(self, seat: int, action: Action) -> None:
        self._generation[seat] += 1  # pending looks are void: the bot is busy
        entry = (
            self.now + self.think(seat),
            next(self._order),
            seat,
            self._generation[seat],
            action,
            len(self.table.timings),  # the hand number
        )
        heapq.heappush(self._queue, entry)

    def _look_at(self, seat: int, delay: float) -> None:
        self._generation[seat] += 1
        entry = (self.now + delay, next(self._order), seat, self._generation[seat], None, 0)
        heapq.heappush(self._queue, entry)

    def _wake(self) -> None:
        """Waiting bots look again at once: something changed."""
        if self._waiting:
            for seat in sorted(self._waiting):
                self._look_at(seat, 0.0)
            self._waiting.clear()

    def _look(self, seat: int) -> None:
        match = self.match
        if match.is_over:
            return
        if seat not in match.to_act:
            self._waiting.add(seat)
            self._look_at(seat, self.think(seat))
            return
        action = self._decide[seat](match, seat)
        if action is None:
            self._waiting.add(seat)
            self._look_at(seat, self.think(seat))
            return
        self._waiting.discard(seat)
        self._send(seat, action)


def play_virtual(match: Match[Any, Any], bots: Sequence[object], seed: int | None) -> int:
    """Play a real-time `match` to its end on a virtual clock; return the
    decisions made: the actions taken (those refused in races are not
    counted, as in turn-based play, where no action is refused)."""
    return VirtualRun(match, bots, seed).run()
