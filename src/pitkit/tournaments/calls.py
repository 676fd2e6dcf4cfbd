"""Calls to the judge: a player at a table asks for the judge, who comes.

A player calls with a ``call_judge`` entry, made in their own name through their link;
the tournament finds their table and its judge then (a Pitch Go-Round's table and its
judge; at a Pits game, which has no judge, the manager is the judge), and keeps both in
the entry, so that a replay reads them back. A table has one open call at a time: a
player who calls again while the judge has not finished there is told the judge is
called, and nothing is made. The judge (or the manager) answers with ``answer_call``
{call, status}: ``coming`` (on my way) and then ``done``, or ``done`` at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pitkit.tournaments.log import Actor, Entry, ForbiddenError, RefusedError
from pitkit.tournaments.pitch.state import PitchTournamentState
from pitkit.tournaments.pits import PitsTournamentState

__all__ = ["ANSWERS", "Call", "Calls", "Spot", "refusal", "spot_of"]

ANSWERS = ("coming", "done")
"""What a judge answers a call: on my way; done."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A table in the hall as a call names it: a key, its name in words, and its judge
    (None: the manager is called)."""

    key: str
    where: str
    judge: str | None


def spot_of(state: Any, player: str) -> Spot | None:
    """The table `player` plays at now, and its judge, if they play at one: a Pitch
    player's table of the last Go-Round; a Pits player's open game."""
    if isinstance(state, PitchTournamentState):
        tables = state.rounds[-1].tables if state.rounds else []
        table = next((t for t in tables if player in t.players), None)
        if table is None:
            return None
        return Spot(f"round {table.round} table {table.number}", table.label, table.judge)
    if isinstance(state, PitsTournamentState):
        number = state.playing(player)
        if number is None:
            return None
        return Spot(f"game {number}", f"{state.tables[number - 1].label}, game {number}", None)
    return None


@dataclass(frozen=True, slots=True)
class Call:
    """A call to the judge: the entry that made it, when, who called, from where, for
    which judge (None: the manager); its status (open, coming, done) and who answered."""

    seq: int
    at: float
    player: str
    spot: str
    where: str
    judge: str | None
    status: str = "open"
    answered_by: str | None = None
    answered_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The call as a page shows it."""
        return {
            "call": self.seq,
            "at": self.at,
            "player": self.player,
            "where": self.where,
            "judge": self.judge,
            "status": self.status,
            "answered_by": self.answered_by,
            "answered_at": self.answered_at,
        }

    def answers(self, actor: Actor) -> bool:
        """Whether `actor` answers this call: its judge, or the manager."""
        return actor.role == "manager" or (actor.role == "judge" and actor.name == self.judge)


@dataclass
class Calls:
    """Every call made, by its entry's number."""

    made: dict[int, Call]

    def open_at(self, spot: str) -> Call | None:
        """The call not done yet at the table `spot`, if any."""
        return next((c for c in self.made.values() if c.spot == spot and c.status != "done"), None)

    def decide(self, state: Any, actor: Actor) -> dict[str, Any]:
        """What a player's call is, decided from the tournament's state: where they play
        and who judges there (kept in the entry). ForbiddenError for anyone but a player;
        RefusedError if they play nowhere now, or the judge is called there already."""
        if actor.role != "player" or actor.name is None:
            raise ForbiddenError("a player calls the judge, from their own page")
        spot = spot_of(state, actor.name)
        if spot is None:
            raise RefusedError(
                f"{actor.name} is not seated at a table now: ask at the desk instead"
            )
        called = self.open_at(spot.key)
        if called is not None:
            raise RefusedError(refusal(called))
        return {"spot": spot.key, "where": spot.where, "judge": spot.judge}

    def check_answer(self, actor: Actor, data: Mapping[str, Any]) -> None:
        """ForbiddenError unless `actor` answers the call the entry names; RefusedError
        for a status a call cannot take now."""
        call = self.made.get(data.get("call", 0)) if isinstance(data.get("call"), int) else None
        if call is None:
            raise RefusedError(f"there is no call #{data.get('call')}")
        if not call.answers(actor):
            whom = f"judge {call.judge}" if call.judge else "the manager"
            raise ForbiddenError(f"call #{call.seq} ({call.where}) is for {whom}")
        status = data.get("status")
        if status not in ANSWERS:
            raise RefusedError(f"answer a call with {' or '.join(ANSWERS)}, not {status!r}")
        if call.status == "done" or call.status == status:
            raise RefusedError(f"call #{call.seq} is {_status_words(call)} already")

    def apply(self, entry: Entry) -> None:
        """Record a call (its stored table and judge) or an answer to one."""
        data = entry.data
        if entry.type == "call_judge":
            judge = data.get("judge")
            self.made[entry.seq] = Call(
                entry.seq,
                entry.at,
                str(entry.author),
                str(data["spot"]),
                str(data["where"]),
                judge if isinstance(judge, str) else None,
            )
            return
        call = self.made[int(data["call"])]
        by = entry.actor.label
        self.made[call.seq] = replace(
            call, status=str(data["status"]), answered_by=by, answered_at=entry.at
        )

    def seen_by(self, actor: Actor, state: Any) -> list[dict[str, Any]]:
        """The calls not done yet that `actor` sees, oldest first: the manager every
        one, a judge those for them, a player the one at their own table."""
        mine: set[str] = set()
        if actor.role == "player" and actor.name is not None:
            spot = spot_of(state, actor.name)
            mine = set() if spot is None else {spot.key}
        return [
            call.to_json()
            for call in self.made.values()
            if call.status != "done" and (call.answers(actor) or call.spot in mine)
        ]


def _status_words(call: Call) -> str:
    return {"open": "open", "coming": "answered (on the way)", "done": "done"}[call.status]


def refusal(call: Call) -> str:
    """What a player who calls again is told while `call` is open at their table."""
    who = f"judge {call.judge}" if call.judge else "the tournament director"
    state = "answered" if call.status == "coming" else "not yet answered"
    return (
        f"The judge has been called; they are on their way ({call.player} called "
        f"{who}, call #{call.seq}, {state})"
    )
