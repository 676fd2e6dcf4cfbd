"""What everyone sees of a Darrtown Pitch tournament, as pure functions of its
state: the view as JSON (the public's, and a judge's or a player's own part) and
the pads and standings as CSV.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pitkit.core.export import Cell, csv_text
from pitkit.games.pitch.rules import TOURNAMENT_DEALS
from pitkit.tournaments.log import Actor
from pitkit.tournaments.pitch.bidding import calling_order
from pitkit.tournaments.pitch.state import (
    MAX_SEATS,
    MIN_SEATS,
    PAD,
    GoRoundTable,
    PitchTournamentState,
    Round,
    standings,
)

__all__ = ["csv", "own", "seat_of", "view"]


def view(state: PitchTournamentState) -> dict[str, Any]:
    """The rosters, every Go-Round with its tables and pads, the pending hands
    and open appeals, the misplay register, the standings and the champion."""
    rounds = [_round_json(state, rnd) for rnd in state.rounds]
    pending = [
        _pending(table, line)
        for rnd in state.rounds
        for table in rnd.tables
        for line in table.pending
    ]
    out: dict[str, Any] = {
        "players": list(state.players),
        "judges": _judges_json(state),
        "rounds": rounds,
        "pending": pending,
        "appeals": [a.to_json() for a in state.appeals if a.status == "open"],
        "all_appeals": [a.to_json() for a in state.appeals],
        "register": list(state.register),
        "disqualified": [{"player": p, **where} for p, where in state.disqualified.items()],
        "standings": [{"round": r["round"], "lines": r["standings"]} for r in rounds],
        "champion": state.champion(),
        "status": state.status(),
        "rules": {
            "seats": [MIN_SEATS, MAX_SEATS],
            "deals_each": TOURNAMENT_DEALS,
            "advance": state.advance,
            "misplays_to_disqualify": 2,
        },
        "check_in": state.check_in.view(state.players),
    }
    return out


def own(state: PitchTournamentState, actor: Actor) -> dict[str, Any]:
    """A judge's or a player's own part of the view (``mine``); nothing for others."""
    return {"mine": _mine(state, actor)} if actor.role in ("judge", "player") else {}


def seat_of(state: PitchTournamentState, role: str, name: str) -> str | None:
    """Where `name` plays (a player: "table 2 of Go-Round 1, seat 3") or judges (a
    judge: "judge of table 1 and table 2 of Go-Round 1") in the Go-Round now, if anywhere."""
    if not state.rounds:
        return None
    tables = state.rounds[-1].tables
    if role == "judge":
        mine = [t for t in tables if t.judge == name]
        if not mine:
            return None
        where = " and ".join(f"table {t.number}" for t in mine)
        return f"judge of {where} of Go-Round {mine[0].round}"
    seated = next((t for t in tables if name in t.players), None)
    return None if seated is None else f"{seated.label}, seat {seated.players.index(name) + 1}"


def _round_json(state: PitchTournamentState, rnd: Round) -> dict[str, Any]:
    """A Go-Round as JSON: its tables, its misplays and its standings."""
    return {
        "round": rnd.number,
        "by": rnd.by,
        "seed": rnd.seed,
        "entry": rnd.entry,
        "final": rnd.final,
        "over": rnd.over,
        "tables": [_table_json(state, t) for t in rnd.tables],
        "misplays": dict(rnd.go.misplays),
        "standings": standings(state, rnd),
    }


def _judges_json(state: PitchTournamentState) -> list[dict[str, Any]]:
    """Each judge with their initials and the tables they judge."""
    return [
        {
            "name": name,
            "initials": initials,
            "tables": [
                {"round": t.round, "table": t.number}
                for rnd in state.rounds
                for t in rnd.tables
                if t.judge == name
            ],
        }
        for name, initials in state.judges.items()
    ]


_PADS_HEADER = (
    "round", "table", "line", "entry", "kind", "dealer", "seated", *PAD,
    "changes", "scores", "status", "initials", "note", "bidding", "counts",
)  # fmt: skip


def csv(state: PitchTournamentState) -> dict[str, str]:
    """`pads.csv`: every line of every table's pad; `standings.csv`: each Go-Round's.
    Every cell is safe to open in a spreadsheet (`export.cell`)."""
    pads: list[list[Cell]] = []
    for rnd in state.rounds:
        for table in rnd.tables:
            for line in _lines(table):
                pad = line["pad"] or {}
                pads.append(
                    [
                        rnd.number,
                        table.number,
                        line["line"],
                        line["entry"],
                        line["kind"],
                        line["dealer"],
                        " ".join(line["seated"]),
                        *("" if pad.get(key) is None else pad[key] for key in PAD),
                        "; ".join(f"{p} {d:+d}" for p, d in line["changes"].items()),
                        "; ".join(f"{p} {s}" for p, s in line["scores"].items()),
                        line["status"],
                        line["initials"] or "",
                        line["note"],
                        _calls_text(line["bidding"]),
                        "; ".join(f"{p} {n}" for p, n in (line["counts"] or {}).items()),
                    ]
                )
    standing: list[list[Cell]] = [
        [
            rnd.number,
            f"{line['place']}{'' if line['final'] else ' (so far)'}",
            line["player"],
            line["table"],
            line["points"],
            line["misplays"],
            line["status"],
        ]
        for rnd in state.rounds
        for line in standings(state, rnd)
    ]
    return {
        "pads.csv": csv_text(_PADS_HEADER, pads),
        "standings.csv": csv_text(
            ["round", "place", "player", "table", "points", "misplays", "status"], standing
        ),
    }


def _calls_text(bidding: dict[str, Any] | None) -> str:
    """A line's bidding in words, for pads.csv: "Ann passed; Bob bid 3; ..."."""
    if bidding is None:
        return ""
    return "; ".join(f"{call['player']} {call['words']}" for call in bidding["calls"])


_SEATS = re.compile(r"\bseats \[([\d, ]*)\]")
_SEAT = re.compile(r"\bseat (\d+)\b")


def _named(note: str, names: Sequence[str]) -> str:
    """A sheet's note with the players' names for its seat numbers."""
    note = _SEATS.sub(
        lambda m: ", ".join(names[int(s)] for s in m.group(1).split(",") if s.strip()), note
    )
    return _SEAT.sub(lambda m: names[int(m.group(1))], note)


def _table_json(state: PitchTournamentState, table: GoRoundTable) -> dict[str, Any]:
    """A Go-Round table as JSON: its players, judge, pad and where its game stands."""
    names = table.players
    sheet = table.sheet
    outcome = None if sheet is None else sheet.outcome
    playing = sheet is not None and outcome is None
    rnd = state.rounds[table.round - 1]
    appeal = state.open_appeal(table)
    return {
        "round": table.round,
        "table": table.number,
        "label": table.label,
        "players": list(names),
        "judge": table.judge,
        "online": table.online,
        "cut": table.cut,
        "dealer": names[sheet.dealer] if playing and sheet is not None else None,
        "seated": [names[s] for s in sheet.seated] if playing and sheet is not None else [],
        "sitting_out": [names[s] for s in sheet.sitting_out] if sheet is not None else [],
        "scores": {n: (sheet.scores[s] if sheet else 0) for s, n in enumerate(names)},
        "deals": {n: (sheet.deals[s] if sheet else 0) for s, n in enumerate(names)},
        "misplays": {n: rnd.go.count(n) for n in names},
        "disqualified": [names[s] for s in sheet.disqualified] if sheet is not None else [],
        "next_line": len(sheet.entries) + 1 if sheet is not None else None,
        "lines": _lines(table),
        "pending": table.pending,
        "appeal": None if appeal is None else appeal.to_json(),
        "bidding": None if table.bidding is None or not playing else table.bidding.to_json(),
        "calling_order": calling_order(names, sheet.dealer, sheet.seated)
        if playing and sheet is not None
        else [],
        "outcome": None
        if outcome is None
        else {
            "summary": outcome.summary,
            "winner": names[outcome.winners[0]] if len(outcome.winners) == 1 else None,
            "places": {n: outcome.ranks[s] for s, n in enumerate(names)},
            "how": outcome.detail.get("how"),
        },
        "over": table.over,
        "advancing": state.advancing(table) if table.over and not rnd.final else [],
    }


def _lines(table: GoRoundTable) -> list[dict[str, Any]]:
    """Every line of a table's pad, as JSON, with the entry behind it."""
    names = table.players
    if table.sheet is None:
        return []
    lines = []
    for done, meta in zip(table.sheet.entries, table.lines, strict=True):
        hand = done.kind == "hand"
        status = (
            "voided"
            if done.voided
            else ("pending" if done.judge is None else "confirmed")
            if hand
            else "ruled"
            if done.kind == "misplay"
            else "recorded"
        )
        lines.append(
            {
                "line": done.line,
                "kind": done.kind,
                "entry": meta.entry,
                "dealer": names[done.dealer],
                "seated": [names[s] for s in done.seated],
                "pad": meta.pad,
                "changes": {names[s]: d for s, d in enumerate(done.deltas)},
                "scores": {names[s]: n for s, n in enumerate(done.scores)},
                "note": _named(done.note, names),
                "redeal": done.redeal,
                "voided": done.voided,
                "status": status,
                "pending": status == "pending",
                "initials": done.judge,
                "confirmed_by": meta.confirmed_by,
                "confirm_entry": meta.confirmed,
                "bidding": None if meta.bidding is None else meta.bidding.to_json(),
                "counts": None if meta.counts is None else dict(meta.counts),
                "counted_by": meta.counted_by,
            }
        )
    return lines


def _pending(table: GoRoundTable, line: int) -> dict[str, Any]:
    """A pad line waiting for the judge's initials."""
    assert table.sheet is not None
    done = table.sheet.entries[line - 1]
    meta = table.lines[line - 1]
    return {
        "round": table.round,
        "table": table.number,
        "line": line,
        "entry": meta.entry,
        "judge": table.judge,
        "dealer": table.players[done.dealer],
        "note": _named(done.note, table.players),
        "players": [table.players[s] for s in done.seated],
        "game": None if meta.pad is None else meta.pad.get("game"),
        "counts": None if meta.counts is None else dict(meta.counts),
    }


def _mine(state: PitchTournamentState, actor: Actor) -> dict[str, Any]:
    """A judge's tables, pending hands and open appeals; a player's table now."""
    if not state.rounds:
        return {"tables": [], "pending": [], "appeals": []}
    tables = [
        t
        for t in state.rounds[-1].tables
        if (t.judge == actor.name if actor.role == "judge" else actor.name in t.players)
    ]
    spots = {(t.round, t.number) for t in tables}
    return {
        "tables": [{"round": t.round, "table": t.number} for t in tables],
        "pending": [_pending(t, line) for t in tables for line in t.pending],
        "appeals": [
            a.to_json() for a in state.appeals if a.status == "open" and (a.round, a.table) in spots
        ],
    }
