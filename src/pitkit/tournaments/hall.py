"""What a tournament keeps of the hall beside its rules: the round clock and the calls
to the judge (`log.HALL` entries).

These entries are the tournament's own, for every kind: its kind never sees them (a
replay of the kind skips them), and they change nothing of the sheets, pads or
standings. They are never corrected: a clock is set again, a call answered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pitkit.tournaments import clock
from pitkit.tournaments.calls import Calls
from pitkit.tournaments.log import (
    ANSWER_CALL,
    CALL_JUDGE,
    CLOCK,
    HALL,
    Actor,
    Entry,
    RefusedError,
)

__all__ = ["Hall"]


class Hall:
    """The round clock and the calls to the judge, as the log's hall entries make them."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.clock: clock.RoundClock | None = None
        self.calls = Calls({})
        for entry in entries:
            if entry.type in HALL and entry.corrects is None:
                self.apply(entry)

    def decide(
        self, state: Any, actor: Actor, type: str, data: Mapping[str, Any], corrects: int | None
    ) -> dict[str, Any]:
        """Check a hall entry about to be made by `actor` (the kind's state `state`), and
        what is decided for it (a call's table and judge). ForbiddenError or
        RefusedError: it is not made."""
        if corrects is not None:
            raise RefusedError(f"a {type.replace('_', ' ')} entry cannot be corrected")
        if type == CLOCK:
            clock.check(actor, data)
            return {}
        if type == CALL_JUDGE:
            if data:
                raise RefusedError("a call to the judge takes no data: your table is known")
            return self.calls.decide(state, actor)
        self.calls.check_answer(actor, data)
        return {}

    def apply(self, entry: Entry) -> None:
        """Apply a hall entry (RefusedError if the clock cannot do that now)."""
        if entry.type == CLOCK:
            self.clock = clock.set_clock(self.clock, entry)
        elif entry.type in (CALL_JUDGE, ANSWER_CALL):
            self.calls.apply(entry)

    def view(self, actor: Actor, state: Any) -> dict[str, Any]:
        """The hall as `actor` sees it: the clock (None: no clock), and the calls not
        done yet that they answer or made. Nothing in it depends on the time it is read."""
        return {
            "clock": None if self.clock is None else self.clock.to_json(),
            "calls": self.calls.seen_by(actor, state),
        }
