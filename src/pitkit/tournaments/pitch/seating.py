"""Seating a Go-Round (C1): the tables' sizes, the seating the server decides (by
draw, with its seed, or by standing) before the ``seat_round`` entry is made, and
the entry itself, which reads that seating back and checks it again.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from pitkit.tournaments.log import Entry, RefusedError
from pitkit.tournaments.pitch.state import (
    MAX_SEATS,
    MIN_SEATS,
    GoRoundTable,
    PitchTournamentState,
    Round,
)

__all__ = ["seat_round", "seating"]


def _sizes(players: int, tables: int | None) -> list[int]:
    """Table sizes for a Go-Round, as even as can be (the fewest tables by default)."""
    if players < MIN_SEATS:
        raise RefusedError(f"a Go-Round needs at least {MIN_SEATS} players, not {players}")
    count = -(-players // MAX_SEATS) if tables is None else tables
    if count < 1:
        raise RefusedError("a Go-Round has at least one table")
    sizes = [players // count + (1 if i < players % count else 0) for i in range(count)]
    if sizes[-1] < MIN_SEATS or sizes[0] > MAX_SEATS:
        seated = sizes[-1] if sizes[-1] < MIN_SEATS else sizes[0]
        raise RefusedError(
            f"{players} players at {count} table{'s' if count > 1 else ''} would seat {seated} "
            f"at a table: tournament tables seat {MIN_SEATS} to {MAX_SEATS} players"
        )
    return sizes


def _judges(state: PitchTournamentState, data: Mapping[str, Any], tables: int) -> list[str | None]:
    value = data.get("judges")
    if value is None:
        return [None] * tables
    if not isinstance(value, list) or not all(v is None or isinstance(v, str) for v in value):
        raise RefusedError("give judges as a list: one judge's name (or null) a table")
    if len(value) > tables:
        raise RefusedError(f"{len(value)} judges for {tables} tables")
    out: list[str | None] = []
    for judge in value:
        if judge is not None and judge not in state.judges:
            raise RefusedError(f"{judge} is not one of the judges")
        out.append(judge)
    return out + [None] * (tables - len(out))


def seating(state: PitchTournamentState, data: Mapping[str, Any]) -> dict[str, Any]:
    """The next Go-Round's seating (and a draw's seed), decided by the server before
    the ``seat_round`` entry is made, so that the log holds it and a replay never
    draws again; RefusedError if the Go-Round cannot be seated so."""
    _check_last_over(state)
    by = data.get("by")
    if by not in ("draw", "standing"):
        raise RefusedError(f"seat a Go-Round by draw or by standing, not {by!r}")
    players = _players(state, data)
    count = data.get("tables")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool)):
        raise RefusedError("give tables as a whole number")
    sizes = _sizes(len(players), count)
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RefusedError("a draw's seed is a whole number")
    if seed is not None and by == "standing":
        raise RefusedError("a seed is for a draw: seating by standing draws nothing")
    if by == "draw":
        if seed is None:
            seed = secrets.randbelow(2**31)
        order = list(players)
        random.Random(seed).shuffle(order)
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
    else:
        # By standing: dealt round the tables, so the best are spread out.
        tables = [players[j :: len(sizes)] for j in range(len(sizes))]
    _judges(state, data, len(tables))
    return {"seating": tables, "seed": seed}


def _check_last_over(state: PitchTournamentState) -> None:
    """RefusedError unless the last Go-Round is over and not the final."""
    if not state.rounds:
        return
    last = state.rounds[-1]
    if last.final:
        champion = state.champion()
        raise RefusedError(
            f"Go-Round {last.number} is the final: "
            + (f"{champion} is the champion" if champion else "it is still being played")
        )
    waiting = [t.label for t in last.tables if not t.over]
    if waiting:
        raise RefusedError(
            f"Go-Round {last.number} is not over: {', '.join(waiting)} "
            f"{'is' if len(waiting) == 1 else 'are'} still playing or waiting for a judge"
        )


def _players(state: PitchTournamentState, data: Mapping[str, Any]) -> list[str]:
    """Who is to be seated, in order of standing: every eligible player, or those
    the entry names (each checked)."""
    eligible = state.eligible()
    if data.get("players") is None:
        return eligible
    given = data["players"]
    if not isinstance(given, list) or not all(isinstance(p, str) for p in given):
        raise RefusedError("give players as a list of names")
    names = [" ".join(p.split()) for p in given]
    if len(set(names)) != len(names):
        raise RefusedError("a player is seated once")
    for name in names:
        _seatable(state, name, eligible, len(state.rounds) + 1)
    return [p for p in eligible if p in names]


def seat_round(state: PitchTournamentState, entry: Entry) -> None:
    """Seat the next Go-Round as the entry's stored seating says, checked again."""
    data = entry.data
    number = len(state.rounds) + 1
    eligible = state.eligible()
    seating = _stored(state, data.get("seating"), eligible, number)
    judges = _judges(state, data, len(seating))
    tables = [
        GoRoundTable(number, n, list(names), judge)
        for n, (names, judge) in enumerate(zip(seating, judges, strict=True), 1)
    ]
    seed = data.get("seed") if isinstance(data.get("seed"), int) else None
    state.rounds.append(Round(number, str(data.get("by")), seed, entry.seq, tables))


def _seatable(state: PitchTournamentState, name: str, eligible: Sequence[str], number: int) -> None:
    if name not in state.players:
        raise RefusedError(f"{name} is not on the roster")
    dq = state.disqualified.get(name)
    if dq is not None:
        raise RefusedError(
            f"{name} was disqualified in Go-Round {dq['round']} (entry #{dq['entry']}, two "
            "misplays in one Go-Round) and cannot be seated again"
        )
    state.check_in.require(name)
    if name not in eligible:
        raise RefusedError(f"{name} did not advance from Go-Round {number - 1}")


def _stored(
    state: PitchTournamentState, stored: Any, eligible: Sequence[str], number: int
) -> list[list[str]]:
    """A seating read back from the log (as `seating` decided it), checked again."""
    if not isinstance(stored, list) or not all(
        isinstance(t, list) and all(isinstance(p, str) for p in t) for t in stored
    ):
        raise RefusedError("a seating is a list of tables, each a list of names")
    flat = [p for t in stored for p in t]
    for name in flat:
        _seatable(state, name, eligible, number)
    if len(set(flat)) != len(flat):
        raise RefusedError("the seating seats a player twice")
    for names in stored:
        if not MIN_SEATS <= len(names) <= MAX_SEATS:
            raise RefusedError(f"tournament tables seat {MIN_SEATS} to {MAX_SEATS} players")
    return [list(t) for t in stored]
