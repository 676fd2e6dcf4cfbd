"""A tournament's desk without a server: a `Tournament` in memory, entered into as its
manager, players and judges would through their links."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from pitkit.tournaments import KINDS, Tournament
from pitkit.tournaments.log import PUBLIC_ACTOR, Actor, Entry

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


class Desk:
    """A tournament in memory, and who acts at it: the manager, and each player and
    judge added (`by`, by name)."""

    def __init__(self, kind: str = "pits-continuous", **options: Any) -> None:
        found = KINDS[kind]
        self.tournament = Tournament(found, found.options(options))
        self.manager = Actor("manager")
        self.by: dict[str, Actor] = {}
        self._clock = itertools.count(1)

    def enter(self, actor: Actor, type: str, corrects: int | None = None, **data: Any) -> Entry:
        """Make an entry (RefusedError or ForbiddenError if refused)."""
        at = float(next(self._clock))
        return self.tournament.enter(actor, type, data, at=at, corrects=corrects)

    def ok(self, actor: Actor, type: str, **data: Any) -> Entry:
        """Make an entry that must be taken."""
        return self.enter(actor, type, **data)

    def refused(
        self,
        error: type[Exception],
        actor: Actor,
        type: str,
        corrects: int | None = None,
        **data: Any,
    ) -> str:
        """Make an entry that must be refused with `error`, changing nothing; the reason."""
        before = self.read()
        with pytest.raises(error) as refusal:
            self.enter(actor, type, corrects, **data)
        assert self.read() == before  # nothing changed
        return str(refusal.value)

    def add(self, name: str) -> None:
        """Add a player to the roster (the manager's entry)."""
        self.ok(self.manager, "add_player", name=name)
        self.by[name] = Actor("player", name)

    def judge(self, name: str) -> None:
        """Add a judge (the manager's entry)."""
        self.ok(self.manager, "add_judge", name=name)
        self.by[name] = Actor("judge", name)

    def read(self, actor: Actor = PUBLIC_ACTOR) -> dict[str, Any]:
        """What `actor` sees: the view and the log, as the server would show them."""
        return {"view": self.tournament.view(actor), "log": self.tournament.log()}

    def view(self, actor: Actor = PUBLIC_ACTOR) -> dict[str, Any]:
        """The view as `actor` sees it."""
        return self.tournament.view(actor)

    def csv(self, name: str) -> str:
        """One of the tournament's CSV files."""
        return self.tournament.csv()[name]


class PitchDesk(Desk):
    """A Darrtown Pitch tournament's desk, with the steps of a table's pad."""

    def __init__(self, **options: Any) -> None:
        super().__init__("pitch-tournament", **options)

    def table(self, rnd: int, table: int) -> dict[str, Any]:
        """A Go-Round table as the public sees it."""
        found: dict[str, Any] = self.view()["rounds"][rnd - 1]["tables"][table - 1]
        return found

    def hand(self, rnd: int, table: int, by: Actor | None = None, **pad: Any) -> Entry:
        """Record the next hand on a table's pad, as its dealer (or `by`)."""
        now = self.table(rnd, table)
        actor = self.by[now["dealer"]] if by is None else by
        pad.setdefault("trump", "H")
        pad.setdefault("jack", None)
        return self.ok(actor, "hand", round=rnd, table=table, line=now["next_line"], **pad)

    def confirm(self, rnd: int, table: int, line: int, by: Actor | None = None) -> None:
        """The table's judge (or `by`) initials a line."""
        actor = self.by[self.table(rnd, table)["judge"]] if by is None else by
        self.ok(actor, "confirm", round=rnd, table=table, line=line)

    def win(self, rnd: int, table: int, winner: str) -> None:
        """A hand in which `winner` pitches 2 and takes high, low and game (no Jack
        dealt), confirmed by the table's judge."""
        self.hand(rnd, table, bid=2, pitcher=winner, high=winner, low=winner, game=winner)
        self.confirm(rnd, table, self.table(rnd, table)["next_line"] - 1)

    def play_out(self, rnd: int, table: int, winner: str) -> None:
        """Hands won by `winner` until the game at the table is over (C10)."""
        while self.table(rnd, table)["outcome"] is None:
            self.win(rnd, table, winner)
