"""The round clock: how long the players of a Go-Round (or an evening's games) have left.

The manager sets it with ``clock`` entries, {action, seconds?, label?}:

- ``start`` {seconds, label?}: a clock of `seconds` starts now (a new one replaces any
  other); `label` says what it times ("Go-Round 2");
- ``pause`` and ``resume``: it stops with the time it has left, and goes on from there;
- ``add`` {seconds}: time added (or, below 0, taken off) while it runs or is paused;
- ``clear``: no clock any more.

Like every entry, each is kept in the log and never rewritten, and the clock is what the
log's clock entries make: it reads the time of each entry (the server's), never a clock
of its own, so a replay of the log sets it exactly as it was. A page shows it counting
down to the time it runs out (`RoundClock.ends`), by the server's clock: the event's
news stream tells the page the server's time, and the page corrects its own by it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pitkit.tournaments.log import Actor, Entry, ForbiddenError, RefusedError, entry_name

__all__ = ["ACTIONS", "LONGEST", "RoundClock", "check", "set_clock"]

ACTIONS = ("start", "pause", "resume", "add", "clear")
"""What a ``clock`` entry does."""
LONGEST = 6 * 3600
"""The longest a clock may run or have added at once, in seconds (six hours)."""


@dataclass(frozen=True, slots=True)
class RoundClock:
    """The round clock as the log sets it. `ends`: the server's time at which it runs
    out, while it runs (None while paused); `paused_left`: the seconds it had left when
    it was paused; `entry`: the clock entry that last set it, made `by` whom."""

    label: str
    seconds: float
    """Its length: the seconds it started with, and any added since."""
    ends: float | None
    paused_left: float
    entry: int
    by: str

    @property
    def running(self) -> bool:
        """Whether it counts down now (it may have run out)."""
        return self.ends is not None

    def left(self, now: float) -> float:
        """The seconds left at the server's time `now` (0 once it has run out)."""
        return max(0.0, self.ends - now) if self.ends is not None else self.paused_left

    def to_json(self) -> dict[str, Any]:
        """The clock as a page draws it: while it runs, counting down to `ends` (the
        server's time: the page corrects its own clock by the server's, which the
        event's news stream sends); while paused, showing `left` (None while it runs)."""
        return {
            "label": self.label,
            "seconds": round(self.seconds, 3),
            "running": self.running,
            "ends": self.ends,
            "left": None if self.running else round(self.paused_left, 3),
            "entry": self.entry,
            "by": self.by,
        }


def _seconds(data: Mapping[str, Any], *, signed: bool = False) -> int:
    """The entry's `seconds`, a whole number from 1 to `LONGEST` (or, `signed`, from
    -`LONGEST` to -1 too: time taken off), else RefusedError."""
    value = data.get("seconds")
    if not isinstance(value, int) or isinstance(value, bool):
        raise RefusedError("give the clock's seconds as a whole number (e.g. 1800 for 30 minutes)")
    if not 1 <= abs(value) <= LONGEST or (value < 0 and not signed):
        least = f"-{LONGEST:,} to -1 or " if signed else ""
        raise RefusedError(f"a clock's seconds are {least}1 to {LONGEST:,}, not {value}")
    return value


def check(actor: Actor, data: Mapping[str, Any]) -> None:
    """ForbiddenError unless the manager sets the clock; RefusedError for an action the
    clock has not, or data it does not take."""
    if actor.role != "manager":
        raise ForbiddenError("only the manager sets the round clock")
    action = data.get("action")
    if action not in ACTIONS:
        raise RefusedError(f"the clock's action is one of {', '.join(ACTIONS)}, not {action!r}")
    extra = sorted(set(data) - {"action", "seconds", "label"})
    if extra:
        raise RefusedError(f"a clock entry has an action, seconds and a label, not {extra}")


def set_clock(clock: RoundClock | None, entry: Entry) -> RoundClock | None:
    """The clock after the ``clock`` entry `entry` (checked by `check`), made at the
    server's time `entry.at`. RefusedError if the clock cannot do that now (nothing
    to pause, resume a clock that runs...): nothing changes."""
    data, at, by = entry.data, entry.at, entry.actor.label
    action = data.get("action")
    if action == "start":
        label = entry_name(data, "label") if data.get("label") is not None else ""
        seconds = _seconds(data)
        return RoundClock(label, seconds, at + seconds, float(seconds), entry.seq, by)
    if clock is None:
        raise RefusedError("there is no round clock: start one first")
    if action == "clear":
        return None
    if action == "pause":
        if clock.ends is None:
            raise RefusedError("the clock is paused already")
        return replace(clock, ends=None, paused_left=clock.left(at), entry=entry.seq, by=by)
    if action == "resume":
        if clock.ends is not None:
            raise RefusedError("the clock is running already")
        if clock.paused_left <= 0:
            raise RefusedError("the clock has run out: add time, or start it again")
        return replace(clock, ends=at + clock.paused_left, entry=entry.seq, by=by)
    # add: time added, or taken off (never below none left)
    seconds = _seconds(data, signed=True)
    left = clock.left(at) + seconds
    if left < 0:
        raise RefusedError(
            f"the clock has {round(clock.left(at))} s left: it cannot lose {-seconds} s"
        )
    length = clock.seconds + seconds
    if clock.ends is not None:
        return replace(clock, seconds=length, ends=at + left, entry=entry.seq, by=by)
    return replace(clock, seconds=length, paused_left=left, entry=entry.seq, by=by)
