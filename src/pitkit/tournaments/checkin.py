"""Checking players in at the hall: who is present, at the events that say so.

An event opened with the option ``check_in`` keeps a check-in desk: a player is
present once they open their own link (a ``check_in`` entry made by them, through
it) or once the manager ticks them (the manager's entry; the manager may also mark
someone absent again), and only present players are seated: the five of a Pits
game and a replacement, the players of a Pitch Go-Round. An event without the
option seats everyone on its roster, as it always did, and takes no ``check_in``
entry. The entry is ``check_in`` {player, present?}: `present` is true unless the
manager says false.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pitkit.tournaments.log import Actor, Entry, ForbiddenError, RefusedError, entry_name

__all__ = ["CHECK_IN", "OPTION", "Mark", "Presence", "option"]

CHECK_IN = "check_in"
"""The entry that marks a player present (or, by the manager, absent)."""
OPTION = "check_in"
"""The event's option that keeps a check-in desk."""


def option(given: Mapping[str, Any]) -> dict[str, Any]:
    """The check-in option as the event keeps it: ``{"check_in": True}``, or nothing
    (an event without a check-in desk keeps the options it always had); RefusedError
    unless it is true or false."""
    value = given.get(OPTION, False)
    if not isinstance(value, bool):
        raise RefusedError("check_in is true or false: whether players are checked in")
    return {OPTION: True} if value else {}


@dataclass(frozen=True, slots=True)
class Mark:
    """A player's last check-in entry: present or absent, its number, and who made it."""

    present: bool
    entry: int
    by: str


@dataclass
class Presence:
    """Who is at the hall. `on`: the event keeps a check-in desk; without one,
    everyone on the roster may be seated."""

    on: bool = False
    marks: dict[str, Mark] = field(default_factory=dict)

    def present(self, name: str) -> bool:
        """Whether `name` may be seated: checked in (or the event checks nobody in)."""
        mark = self.marks.get(name)
        return not self.on or (mark is not None and mark.present)

    def require(self, name: str) -> None:
        """RefusedError unless `name` may be seated."""
        if not self.present(name):
            raise RefusedError(
                f"{name} is not checked in: only players present at the hall are seated "
                "(they open their link, or the manager ticks them at the check-in desk)"
            )

    def check(self, actor: Actor, data: Mapping[str, Any]) -> None:
        """Who may make a ``check_in`` entry: a player, to check themselves in; the
        manager, to mark anyone present or absent."""
        if not self.on:
            raise RefusedError(
                "this event was opened without a check-in desk: every player on the "
                "roster may be seated"
            )
        present = data.get("present", True)
        if not isinstance(present, bool):
            raise RefusedError("present is true or false")
        if actor.role == "manager":
            return
        if actor.role != "player":
            raise ForbiddenError("only a player, for themselves, or the manager checks players in")
        if entry_name(data, "player") != actor.name or not present:
            raise ForbiddenError(
                "a player checks in only themselves; the manager marks a player absent"
            )

    def apply(self, entry: Entry, roster: Iterable[str]) -> None:
        """Mark the entry's player present or absent (RefusedError if they are so already,
        or not on the roster)."""
        name = entry_name(entry.data, "player")
        if name not in roster:
            raise RefusedError(f"{name} is not on the roster")
        present = entry.data.get("present", True)
        mark = self.marks.get(name)
        if mark is not None and mark.present == present:
            state = "checked in" if present else "marked absent"
            raise RefusedError(f"{name} is {state} already (entry #{mark.entry})")
        if mark is None and not present:
            raise RefusedError(f"{name} has not checked in: absent already")
        self.marks[name] = Mark(bool(present), entry.seq, entry.actor.label)

    def view(self, roster: Iterable[str]) -> dict[str, Any]:
        """The check-in desk as JSON: whether the event keeps one, who may be seated
        (`present`, in roster order; everyone without a desk) and who not, and each
        player's last check-in entry (its number, and who made it)."""
        names = list(roster)
        return {
            "on": self.on,
            "present": [name for name in names if self.present(name)],
            "absent": [name for name in names if not self.present(name)],
            "marks": {
                name: {"present": mark.present, "entry": mark.entry, "by": mark.by}
                for name, mark in self.marks.items()
            },
        }
