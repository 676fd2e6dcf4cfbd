"""A roster as a CSV file: read from one to import (names, and clubs if given), written
as one to export.

An import is the manager's ``add_player`` entries, one a row, in the file's order (a
club goes in the entry as ``club``). It is all or nothing: every row is checked as a
name typed at the desk would be (printable, at most `NAME_CHARS` characters, not on
the roster nor in the file twice, and whatever the event's kind says of a new player,
such as a Pitch roster closed once Go-Round 1 is seated) before any entry is made; one
bad row, and every problem is reported by its row's number, and nothing is imported.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pitkit.core.export import Cell, csv_text
from pitkit.tournaments.log import (
    NAME_CHARS,
    Actor,
    Entry,
    RefusedError,
    check_printable,
    entry_name,
)
from pitkit.tournaments.tournament import Tournament

__all__ = [
    "HEADER",
    "MOST_ROWS",
    "RosterError",
    "RosterRow",
    "clubs",
    "read_roster",
    "roster_csv",
    "try_roster",
]

MOST_ROWS = 1000
"""The most rows one import takes."""
HEADER = ("name", "club")
"""The roster file's columns (an import may leave out the club, and the header)."""
_NAME_HEADS = frozenset({"name", "names", "player", "players"})


class RosterError(RefusedError):
    """A roster file with rows that cannot be imported: `problems`, each naming its row
    ("row 3: ..."); nothing was imported."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        super().__init__(
            f"{count} problem{'s' if count != 1 else ''} in the roster, so nothing was "
            "imported: " + "; ".join(self.problems)
        )


@dataclass(frozen=True, slots=True)
class RosterRow:
    """One player of a roster file: its row's number (from 1, as a spreadsheet counts,
    the header included), the name, and the club (None: not given)."""

    row: int
    name: str
    club: str | None

    def data(self) -> dict[str, Any]:
        """The ``add_player`` entry's data for this row."""
        return {"name": self.name} if self.club is None else {"name": self.name, "club": self.club}


def _columns(first: Sequence[str]) -> tuple[int, int | None, bool]:
    """Where the names and the clubs are, and whether the first row is a header."""
    heads = [cell.strip().casefold() for cell in first]
    if heads and heads[0] in _NAME_HEADS:
        club = heads.index("club") if "club" in heads else None
        return 0, club, True
    return 0, 1, False


def _row(number: int, cells: Sequence[str], club_at: int | None) -> RosterRow:
    """One row read, checked as a name typed at the desk (RefusedError: what is wrong)."""
    raw_club = cells[club_at] if club_at is not None and club_at < len(cells) else ""
    extra = [c for i, c in enumerate(cells) if i not in (0, club_at) and c.strip()]
    if extra:
        raise RefusedError(f"a row has a name and a club, not {len(extra) + 2} cells")
    check_printable({"name": cells[0], "club": raw_club})
    name = entry_name({"name": cells[0]})
    club = " ".join(raw_club.split()) or None
    if club is not None and len(club) > NAME_CHARS:
        raise RefusedError(f"a club's name has at most {NAME_CHARS} characters")
    return RosterRow(number, name, club)


def read_roster(text: str) -> list[RosterRow]:
    """The players of a roster file: a name a row, and a club beside it if given; a
    first row of "name" (and "club") is a header. Blank rows are skipped. RosterError
    naming every bad row (no name, a control character, too long, a name twice)."""
    try:
        lines = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))
    except csv.Error as exc:
        raise RosterError([f"the file is not CSV: {exc}"]) from None
    rows = [(n, cells) for n, cells in enumerate(lines, 1) if any(c.strip() for c in cells)]
    if not rows:
        raise RosterError(["the file has no names: one name a row, and a club beside it"])
    _, club_at, header = _columns(rows[0][1])
    if header:
        rows = rows[1:]
    if len(rows) > MOST_ROWS:
        raise RosterError([f"the file has {len(rows):,} rows: at most {MOST_ROWS:,} at once"])
    out: list[RosterRow] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for number, cells in rows:
        try:
            row = _row(number, cells, club_at)
        except RefusedError as exc:
            problems.append(f"row {number}: {exc}")
            continue
        first = seen.setdefault(row.name.casefold(), number)
        if first != number:
            problems.append(f"row {number}: {row.name} is on row {first} already")
        out.append(row)
    if problems:
        raise RosterError(problems)
    return out


def try_roster(tournament: Tournament, actor: Actor, rows: Iterable[RosterRow], at: float) -> None:
    """Make the rows' entries on a copy of `tournament`, as `actor`: RosterError naming
    each row the event refuses (on the roster already, the roster closed...),
    ForbiddenError if `actor` may not add players. The tournament is not changed."""
    copy = Tournament(tournament.kind, tournament.options, tournament.entries)
    problems = []
    for row in rows:
        try:
            copy.enter(actor, "add_player", row.data(), at=at)
        except RefusedError as exc:
            problems.append(f"row {row.row}: {exc}")
    if problems:
        raise RosterError(problems)


def clubs(entries: Iterable[Entry]) -> dict[str, str]:
    """Each player's club, as their ``add_player`` entry gave it (players without one
    are left out)."""
    found: dict[str, str] = {}
    for entry in entries:
        club = entry.data.get("club")
        if entry.type == "add_player" and entry.corrects is None and isinstance(club, str):
            found[" ".join(str(entry.data.get("name", "")).split())] = club
    return found


def roster_csv(tournament: Tournament) -> str:
    """The roster as a CSV file an import reads back: each player's name and club, in
    the roster's order, and whether they are checked in (at an event with a check-in
    desk). Every cell safe to open in a spreadsheet (`export.csv_text`)."""
    view = tournament.kind.view(tournament.state)
    players: list[str] = list(view.get("players", []))
    found = clubs(tournament.entries)
    desk = view.get("check_in") or {}
    rows: list[list[Cell]] = []
    for name in players:
        row: list[Cell] = [name, found.get(name, "")]
        if desk.get("on"):
            row.append("yes" if name in desk.get("present", []) else "no")
        rows.append(row)
    header = [*HEADER, "present"] if desk.get("on") else list(HEADER)
    return csv_text(header, rows)
