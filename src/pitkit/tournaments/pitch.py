"""The Darrtown Pitch tournament as an event (seeds/pitch.txt, tournament column; C1-C11).

The tournament is played in Go-Rounds. The manager seats the players at
tables of 2 to 4 (C1), by draw or by standing, and assigns a judge to each
table. The players at a table cut for the deal (C3), and after each hand the
dealer records it on the table's score pad: the bid, the pitcher, trump, and
who won high, low, Jack and game (topic 35). The table's judge confirms each
line with initials; until then it is pending. A player at the table, or its
judge, appeals a misplay naming the offender; the judge rules it correctable
or not, and every misplay goes on the manager's register: two in one
Go-Round disqualify at once (topics 36-38, C11). A table's game ends once
everyone has dealt twice and one player leads (C10); its winner (option
`advance`: its best players) goes on to the next Go-Round, until a Go-Round
of one table, the final, whose winner is the champion.

The rules themselves are `pitkit.games.pitch.sheet` (one `ScoreSheet` a
table, one `GoRound` a round) and `score_pad`; this module says who may
enter what. Players and judges are named; a table is named by its Go-Round
and number (``round``, ``table``, from 1). The entries:

- ``add_player`` {name}, ``add_judge`` {name, initials?}: the manager; each
  makes a link. The roster closes when Go-Round 1 is seated.
- ``seat_round`` {by: draw | standing, seed?, tables?, players?, judges?}: the
  manager. The server seats the players (the fewest tables of 2 to 4 unless
  ``tables`` says) and writes ``seating`` (and the draw's ``seed``) into the
  entry, so a replay reads the seating and never draws.
- ``assign_judge`` {round, table, judge}: the manager.
- ``open_table`` {round, table, bot_delay?}: the manager, before the cut: the
  table is played online (`event_tables.py`), and that pitkit table enters its
  cut and its hands (role "table").
- ``cut`` {round, table, dealer}: the table's judge, the winner of the cut (C3).
- ``hand`` {round, table, line, bid, pitcher, trump, high, low, jack, game}:
  the hand's dealer; ``jack`` null when not dealt, ``game`` null for a tie.
  Correctable (by its dealer or the judge) until it is confirmed.
- ``confirm`` {round, table, line, initials?}: the table's judge.
- ``misdeal`` {round, table, found}: the table's judge (C11).
- ``appeal`` {round, table, offender, note?}: a player at the table or its judge.
- ``rule_misplay`` {appeal, correctable, highest_bid?}, ``dismiss_appeal``
  {appeal}: the table's judge.

The manager may make every entry.
"""

from __future__ import annotations

import csv
import io
import random
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pitkit.core.errors import BadOptionError
from pitkit.games.pitch.match import PitchMatch
from pitkit.games.pitch.rules import MAX_BID, MIN_BID, TOURNAMENT_DEALS, Rules
from pitkit.games.pitch.scoring import score_pad
from pitkit.games.pitch.sheet import Confirm, GoRound, Misdeal, Misplay, ScoreSheet
from pitkit.tournaments.log import (
    OPEN_TABLE,
    Actor,
    Entry,
    ForbiddenError,
    Online,
    RefusedError,
    by_its_table,
    entry_name,
)

__all__ = ["KIND", "PitchEvent", "PitchTournament"]

NOTE_CHARS = 200
RULES = Rules(mode="tournament")


def _allowed(players: int) -> bool:
    try:
        RULES.check_players(players)
    except BadOptionError:
        return False
    return True


#: The table sizes the tournament rules allow (C1: 2 to 4), asked of the Rules.
SEATS = tuple(n for n in range(1, 13) if _allowed(n))
MIN_SEATS, MAX_SEATS = SEATS[0], SEATS[-1]
#: By default the winner of each table advances: C10 decides a table's winner
#: (tied leaders play on), but no rule breaks a tie for any later place.
DEFAULT_ADVANCE = 1
FOUND = ("before_play", "during_play", "after_hand")


@dataclass
class Line:
    """What the event knows of a line of a table's pad beyond the sheet: the
    entry that made it, the pad as entered (a hand) and its confirmation."""

    entry: int
    pad: dict[str, Any] | None = None
    confirmed: int | None = None  # the confirming entry
    confirmed_by: str | None = None  # who confirmed: "judge Jo", "the manager"


@dataclass
class Table:
    """One table of a Go-Round: its players in seat order (clockwise), its
    judge, and its score pad once the players have cut for the deal."""

    round: int
    number: int
    players: list[str]
    judge: str | None
    sheet: ScoreSheet | None = None
    cut: int | None = None  # the entry of the cut for the deal
    lines: list[Line] = field(default_factory=list)
    online: str | None = None  # the pitkit table it is played at, which enters its hands

    @property
    def label(self) -> str:
        """ "table 2 of Go-Round 1"."""
        return f"table {self.number} of Go-Round {self.round}"

    @property
    def pending(self) -> list[int]:
        """The pad's scored hands that no judge has initialled yet."""
        return [] if self.sheet is None else self.sheet.unconfirmed

    @property
    def over(self) -> bool:
        """The game is over (C10) and every hand of it confirmed."""
        return self.sheet is not None and self.sheet.outcome is not None and not self.pending

    def seat(self, name: str) -> int:
        """`name`'s seat, or RefusedError."""
        if name not in self.players:
            raise RefusedError(f"{name} does not play at {self.label}")
        return self.players.index(name)


@dataclass
class Appeal:
    """A misplay appealed to the table's judge (topic 37), and what became of it."""

    seq: int
    round: int
    table: int
    by: str
    offender: str
    note: str
    status: str = "open"  # open, misplay (ruled), dismissed
    ruling: int | None = None

    def to_json(self) -> dict[str, Any]:
        """This appeal as JSON."""
        return {
            "appeal": self.seq,
            "round": self.round,
            "table": self.table,
            "by": self.by,
            "offender": self.offender,
            "note": self.note,
            "status": self.status,
            "ruling": self.ruling,
        }


@dataclass
class Round:
    """A Go-Round: its tables, and the misplays counted over it (C11)."""

    number: int
    by: str
    seed: int | None
    entry: int
    tables: list[Table]
    go: GoRound = field(default_factory=GoRound)

    @property
    def final(self) -> bool:
        """A Go-Round of one table is the final."""
        return len(self.tables) == 1

    @property
    def over(self) -> bool:
        """Every table's game is over and confirmed."""
        return all(t.over for t in self.tables)


@dataclass
class PitchEvent:
    """The event's state: rosters, Go-Rounds, appeals and the misplay register."""

    advance: int = DEFAULT_ADVANCE
    players: list[str] = field(default_factory=list)
    judges: dict[str, str] = field(default_factory=dict)  # name -> initials
    rounds: list[Round] = field(default_factory=list)
    appeals: list[Appeal] = field(default_factory=list)
    register: list[dict[str, Any]] = field(default_factory=list)
    disqualified: dict[str, dict[str, Any]] = field(default_factory=dict)

    def round(self, number: Any) -> Round:
        """Go-Round `number` (from 1), or RefusedError."""
        if not isinstance(number, int) or not 1 <= number <= len(self.rounds):
            raise RefusedError(f"there is no Go-Round {number}")
        return self.rounds[number - 1]

    def table(self, data: Mapping[str, Any]) -> Table:
        """The table an entry names by `round` and `table`, or RefusedError."""
        rnd = self.round(data.get("round"))
        number = data.get("table")
        if not isinstance(number, int) or not 1 <= number <= len(rnd.tables):
            raise RefusedError(f"Go-Round {rnd.number} has no table {number}")
        return rnd.tables[number - 1]

    def at_table(self, table_id: str) -> Table | None:
        """The Go-Round table played online at pitkit table `table_id`."""
        for rnd in self.rounds:
            for table in rnd.tables:
                if table.online == table_id:
                    return table
        return None

    def appeal(self, data: Mapping[str, Any]) -> Appeal:
        """The appeal an entry names (by its entry number), or RefusedError."""
        seq = data.get("appeal")
        found = next((a for a in self.appeals if a.seq == seq), None)
        if found is None:
            raise RefusedError(f"there is no appeal #{seq}")
        return found

    def table_of(self, type: str, data: Mapping[str, Any]) -> Table:
        """The table an entry is about."""
        if type in ("rule_misplay", "dismiss_appeal"):
            appeal = self.appeal(data)
            return self.rounds[appeal.round - 1].tables[appeal.table - 1]
        return self.table(data)

    def open_appeal(self, table: Table) -> Appeal | None:
        """The appeal waiting for a ruling at `table`, if any."""
        return next(
            (
                a
                for a in self.appeals
                if a.status == "open" and (a.round, a.table) == (table.round, table.number)
            ),
            None,
        )

    def champion(self) -> str | None:
        """The winner of the final, once its game is over and confirmed."""
        if not self.rounds or not self.rounds[-1].final or not self.rounds[-1].over:
            return None
        table = self.rounds[-1].tables[0]
        assert table.sheet is not None and table.sheet.outcome is not None
        winners = table.sheet.outcome.winners
        return table.players[winners[0]] if len(winners) == 1 else None

    def advancing(self, table: Table) -> list[str]:
        """Who goes on from a table whose game is over: its `advance` best (ranked
        by C10, then points), never the whole table; players tied at the cut go
        on together unless that would be the whole table; never the disqualified."""
        sheet = table.sheet
        assert sheet is not None and sheet.outcome is not None
        ranks = sheet.outcome.ranks
        ok = [s for s in range(len(table.players)) if s not in sheet.disqualified]
        ok.sort(key=lambda s: (ranks[s], -sheet.scores[s], s))
        keep = min(self.advance, len(table.players) - 1)
        if len(ok) <= keep:
            return [table.players[s] for s in ok]
        cut = ranks[ok[keep - 1]]
        chosen = [s for s in ok if ranks[s] <= cut]
        if len(chosen) == len(table.players):
            chosen = [s for s in chosen if ranks[s] < cut] or chosen
        return [table.players[s] for s in chosen]

    def eligible(self) -> list[str]:
        """Who may be seated in the next Go-Round, best standing first: the roster
        for the first, then those who advance from the last."""
        if not self.rounds:
            return [p for p in self.players if p not in self.disqualified]
        out = []
        for line in standings(self, self.rounds[-1]):
            if line["status"] == "advances":
                out.append(line["player"])
        return out

    def status(self) -> str:
        """What happens next, in a sentence."""
        champion = self.champion()
        if champion is not None:
            return f"{champion} is the champion"
        if not self.rounds:
            return "add the players and the judges, then seat Go-Round 1"
        last = self.rounds[-1]
        if last.over:
            if last.final:
                return "the final ended in a tie for first place"
            return (
                f"Go-Round {last.number} is over: seat Go-Round {last.number + 1} "
                f"({len(self.eligible())} players go on)"
            )
        done = sum(t.over for t in last.tables)
        what = "the final" if last.final else f"Go-Round {last.number}"
        return f"{what} is in play: {done} of {len(last.tables)} tables finished"


# -- reading entries -------------------------------------------------------------------


def _maybe_name(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else entry_name(data, key)


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RefusedError(f"give {key} as a whole number")
    return value


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or len(value) > NOTE_CHARS:
        raise RefusedError(f"{key} is a text of at most {NOTE_CHARS} characters")
    return " ".join(value.split())


def _initials(text: Any) -> str:
    """Initials as the sheet takes them (1-8 letters), or RefusedError."""
    if not isinstance(text, str):
        raise RefusedError("give initials: 1-8 letters")
    try:
        return Confirm(1, text.strip()).judge
    except ValueError as exc:
        raise RefusedError(str(exc)) from None


def _signed(state: PitchEvent, actor: Actor, data: Mapping[str, Any], needed: bool) -> str | None:
    """The initials a judge's entry carries: a judge's own (as registered), or the
    manager's, given in the entry."""
    given = data.get("initials")
    if actor.role == "judge" and actor.name in state.judges:
        mine = state.judges[actor.name]
        if given is not None and str(given).strip().casefold() != mine.casefold():
            raise RefusedError(f"judge {actor.name} initials {mine}, not {given}")
        return mine
    if given is None:
        if needed:
            raise RefusedError("give the initials that confirm the hand")
        return None
    return _initials(given)


def _sheet(state: PitchEvent, table: Table) -> ScoreSheet:
    if table.sheet is None:
        raise RefusedError(f"the players at {table.label} cut for the deal first")
    return table.sheet


def _record(table: Table, before: int, seq: int, pad: dict[str, Any] | None = None) -> None:
    """Note the entry behind the lines an entry added to the table's sheet."""
    assert table.sheet is not None
    for _ in range(before, len(table.sheet.entries)):
        table.lines.append(Line(seq, pad))


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


# -- the entries -----------------------------------------------------------------------


def _add_player(state: PitchEvent, entry: Entry) -> None:
    name = entry_name(entry.data)
    if state.rounds:
        raise RefusedError("Go-Round 1 is seated: the roster is closed")
    if name.casefold() in (p.casefold() for p in state.players):
        raise RefusedError(f"{name} is on the roster already")
    if name.casefold() in (j.casefold() for j in state.judges):
        raise RefusedError(f"{name} is a judge: a judge does not play")
    state.players.append(name)


def _add_judge(state: PitchEvent, entry: Entry) -> None:
    name = entry_name(entry.data)
    if name.casefold() in (j.casefold() for j in state.judges):
        raise RefusedError(f"{name} is a judge already")
    if name.casefold() in (p.casefold() for p in state.players):
        raise RefusedError(f"{name} is on the players' roster: a player does not judge")
    given = entry.data.get("initials")
    if given is None:
        letters = [w[0] for w in name.split() if w[0].isascii() and w[0].isalpha()]
        if not letters:
            raise RefusedError(f"give {name}'s initials")
        given = "".join(letters).upper()[:8]
    state.judges[name] = _initials(given)


def _judges(state: PitchEvent, data: Mapping[str, Any], tables: int) -> list[str | None]:
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


def _seating(state: PitchEvent, data: Mapping[str, Any]) -> dict[str, Any]:
    """The next Go-Round's seating (and a draw's seed), decided by the server before
    the ``seat_round`` entry is made, so that the log holds it and a replay never
    draws again; RefusedError if the Go-Round cannot be seated so."""
    number = len(state.rounds) + 1
    if state.rounds:
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
    by = data.get("by")
    if by not in ("draw", "standing"):
        raise RefusedError(f"seat a Go-Round by draw or by standing, not {by!r}")
    eligible = state.eligible()
    players = eligible
    if data.get("players") is not None:
        given = data["players"]
        if not isinstance(given, list) or not all(isinstance(p, str) for p in given):
            raise RefusedError("give players as a list of names")
        names = [" ".join(p.split()) for p in given]
        if len(set(names)) != len(names):
            raise RefusedError("a player is seated once")
        for name in names:
            _seatable(state, name, eligible, number)
        players = [p for p in eligible if p in names]  # in order of standing
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
        seating, start = [], 0
        for size in sizes:
            seating.append(order[start : start + size])
            start += size
    else:
        # By standing: dealt round the tables, so the best are spread out.
        seating = [players[j :: len(sizes)] for j in range(len(sizes))]
    _judges(state, data, len(seating))
    return {"seating": seating, "seed": seed}


def _seat_round(state: PitchEvent, entry: Entry) -> None:
    data = entry.data
    number = len(state.rounds) + 1
    eligible = state.eligible()
    seating = _stored(state, data.get("seating"), eligible, number)
    judges = _judges(state, data, len(seating))
    tables = [
        Table(number, n, list(names), judge)
        for n, (names, judge) in enumerate(zip(seating, judges, strict=True), 1)
    ]
    seed = data.get("seed") if isinstance(data.get("seed"), int) else None
    state.rounds.append(Round(number, str(data.get("by")), seed, entry.seq, tables))


def _seatable(state: PitchEvent, name: str, eligible: Sequence[str], number: int) -> None:
    if name not in state.players:
        raise RefusedError(f"{name} is not on the roster")
    dq = state.disqualified.get(name)
    if dq is not None:
        raise RefusedError(
            f"{name} was disqualified in Go-Round {dq['round']} (entry #{dq['entry']}, two "
            "misplays in one Go-Round) and cannot be seated again"
        )
    if name not in eligible:
        raise RefusedError(f"{name} did not advance from Go-Round {number - 1}")


def _stored(
    state: PitchEvent, stored: Any, eligible: Sequence[str], number: int
) -> list[list[str]]:
    """A seating read back from the log (as `_seating` decided it), checked again."""
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


def _assign_judge(state: PitchEvent, entry: Entry) -> None:
    table = state.table(entry.data)
    judge = _maybe_name(entry.data, "judge")
    if judge is not None and judge not in state.judges:
        raise RefusedError(f"{judge} is not one of the judges")
    table.judge = judge


def _cut(state: PitchEvent, entry: Entry) -> None:
    table = state.table(entry.data)
    if table.sheet is not None:
        raise RefusedError(f"the players at {table.label} have cut already (entry #{table.cut})")
    dealer = table.seat(entry_name(entry.data, "dealer"))
    rnd = state.rounds[table.round - 1]
    table.sheet = ScoreSheet(
        RULES, len(table.players), dealer, names=table.players, go_round=rnd.go
    )
    table.cut = entry.seq


_PAD = ("bid", "pitcher", "trump", "high", "low", "jack", "game")


def _hand(state: PitchEvent, entry: Entry) -> None:
    data = entry.data
    table = state.table(data)
    sheet = _sheet(state, table)
    if sheet.outcome is not None:
        raise RefusedError(f"the game at {table.label} is over: {sheet.outcome.summary}")
    line = _int(data, "line")
    expected = len(sheet.entries) + 1
    if line != expected:
        if 1 <= line < expected:
            raise RefusedError(
                f"line {line} of {table.label}'s pad is entered already (entry "
                f"#{table.lines[line - 1].entry}); correct that entry to change it"
            )
        raise RefusedError(f"the next line of {table.label}'s pad is line {expected}")
    appeal = state.open_appeal(table)
    if appeal is not None:
        raise RefusedError(
            f"an appeal against {appeal.offender} is open at {table.label} (entry "
            f"#{appeal.seq}): the judge rules on it first"
        )
    seats: dict[str, int | None] = {}
    for key in ("pitcher", "high", "low", "jack", "game"):
        needed = key in ("pitcher", "high", "low")
        name = entry_name(data, key) if needed else _maybe_name(data, key)
        if name is None:
            seats[key] = None
            continue
        seat = table.seat(name)
        if seat not in sheet.seated:
            why = "disqualified" if seat in sheet.disqualified else "sitting out"
            raise RefusedError(f"{name} does not play this hand: {why}")
        seats[key] = seat
    pitcher, high, low = seats["pitcher"], seats["high"], seats["low"]
    assert pitcher is not None and high is not None and low is not None
    trump = data.get("trump")
    if not isinstance(trump, str):
        raise RefusedError("give trump: C, D, H or S")
    try:
        result = score_pad(
            sheet.seated,
            pitcher=pitcher,
            bid=_int(data, "bid"),
            trump=trump,
            high=high,
            low=low,
            jack=seats["jack"],
            game=seats["game"],
            players=len(table.players),
        )
    except ValueError as exc:
        raise RefusedError(str(exc)) from None
    before = len(sheet.entries)
    sheet.record_hand(result)
    pad = {key: data.get(key) for key in _PAD}
    pad["trump"] = result.trump.letter
    _record(table, before, entry.seq, pad)


def _confirm(state: PitchEvent, entry: Entry) -> None:
    data = entry.data
    table = state.table(data)
    sheet = _sheet(state, table)
    line = _int(data, "line")
    if not 1 <= line <= len(sheet.entries):
        raise RefusedError(f"there is no line {line} on {table.label}'s pad")
    done = sheet.entries[line - 1]
    meta = table.lines[line - 1]
    if done.kind != "hand" or done.voided:
        raise RefusedError(
            f"line {line} of {table.label} is not a scored hand: there is nothing to confirm"
        )
    by = entry.actor.label
    if done.judge is not None:
        if meta.confirmed_by == by:
            raise RefusedError(f"{by} confirmed line {line} already (entry #{meta.confirmed})")
        raise RefusedError(
            f"line {line} of {table.label} is confirmed already, by {meta.confirmed_by} "
            f"({done.judge}, entry #{meta.confirmed}): two judges at once"
        )
    initials = _signed(state, entry.actor, data, needed=True)
    assert initials is not None
    sheet.rule(Confirm(line, initials))
    meta.confirmed, meta.confirmed_by = entry.seq, by


def _misdeal(state: PitchEvent, entry: Entry) -> None:
    data = entry.data
    table = state.table(data)
    sheet = _sheet(state, table)
    found = data.get("found")
    if found not in FOUND:
        raise RefusedError(f"a misdeal is found {', '.join(FOUND)}, not {found!r}")
    before = len(sheet.entries)
    sheet.rule(Misdeal(found, _signed(state, entry.actor, data, needed=False)))
    _record(table, before, entry.seq)


def _appeal(state: PitchEvent, entry: Entry) -> None:
    data = entry.data
    table = state.table(data)
    sheet = _sheet(state, table)
    if sheet.outcome is not None:
        raise RefusedError(f"the game at {table.label} is over")
    offender = entry_name(data, "offender")
    seat = table.seat(offender)
    if seat in sheet.disqualified:
        raise RefusedError(f"{offender} is disqualified")
    if seat not in sheet.seated:
        raise RefusedError(
            f"{offender} sits out this hand: nobody misplays a hand they do not play"
        )
    open_ = state.open_appeal(table)
    if open_ is not None:
        raise RefusedError(
            f"an appeal against {open_.offender} is open at {table.label} (entry #{open_.seq}): "
            "the judge rules on it first"
        )
    by = entry.actor.label
    state.appeals.append(
        Appeal(entry.seq, table.round, table.number, by, offender, _text(data, "note"))
    )


def _ruled(state: PitchEvent, data: Mapping[str, Any]) -> tuple[Appeal, Table]:
    appeal = state.appeal(data)
    if appeal.status != "open":
        raise RefusedError(f"appeal #{appeal.seq} was ruled on already (entry #{appeal.ruling})")
    return appeal, state.rounds[appeal.round - 1].tables[appeal.table - 1]


def _rule_misplay(state: PitchEvent, entry: Entry) -> None:
    data = entry.data
    appeal, table = _ruled(state, data)
    sheet = _sheet(state, table)
    correctable = data.get("correctable")
    if not isinstance(correctable, bool):
        raise RefusedError("say whether the misplay is correctable: true or false")
    highest: int | None = None
    if not correctable:
        value = data.get("highest_bid")
        if not isinstance(value, int) or isinstance(value, bool) or not MIN_BID <= value <= MAX_BID:
            raise RefusedError(
                f"give the highest bid made in the misplayed hand, {MIN_BID} to {MAX_BID}: "
                "the offender loses it"
            )
        highest = value
    initials = _signed(state, entry.actor, data, needed=False)
    seat = table.seat(appeal.offender)
    before = len(sheet.entries)
    done = sheet.rule(Misplay(seat, correctable, highest, judge=initials))
    _record(table, before, entry.seq)
    rnd = state.rounds[table.round - 1]
    out = seat in sheet.disqualified
    state.register.append(
        {
            "round": table.round,
            "table": table.number,
            "player": appeal.offender,
            "ruling": "correctable" if correctable else "not correctable",
            "highest_bid": highest,
            "lost": highest or 0,
            "judge": entry.actor.label,
            "initials": initials,
            "entry": entry.seq,
            "appeal": appeal.seq,
            "line": done.line,
            "in_round": rnd.go.count(appeal.offender),
            "disqualified": out,
        }
    )
    if out:
        state.disqualified[appeal.offender] = {
            "round": table.round,
            "table": table.number,
            "entry": entry.seq,
        }
    appeal.status, appeal.ruling = "misplay", entry.seq


def _offline_table(state: PitchEvent, data: Mapping[str, Any]) -> Table:
    """The table of the current Go-Round `data` names, still without a cut or a
    pitkit table, or RefusedError."""
    table = state.table(data)
    if table.round != len(state.rounds):
        raise RefusedError(f"Go-Round {table.round} is over")
    if table.online is not None:
        raise RefusedError(f"{table.label} is played online already")
    if table.sheet is not None:
        raise RefusedError(f"the players at {table.label} have cut: they play with cards")
    return table


def _open_table(state: PitchEvent, entry: Entry) -> None:
    table = _offline_table(state, entry.data)
    table_id = entry.data.get("table_id")
    if not isinstance(table_id, str):
        raise RefusedError("the server writes the table's id into this entry")
    table.online = table_id


def _dismiss_appeal(state: PitchEvent, entry: Entry) -> None:
    appeal, _table = _ruled(state, entry.data)
    appeal.status, appeal.ruling = "dismissed", entry.seq


_TYPES = {
    "add_player": _add_player,
    "add_judge": _add_judge,
    "seat_round": _seat_round,
    "assign_judge": _assign_judge,
    "cut": _cut,
    "hand": _hand,
    "confirm": _confirm,
    "misdeal": _misdeal,
    "appeal": _appeal,
    "rule_misplay": _rule_misplay,
    "dismiss_appeal": _dismiss_appeal,
    OPEN_TABLE: _open_table,
}
_MANAGER = frozenset({"add_player", "add_judge", "seat_round", "assign_judge", OPEN_TABLE})
_FROM_TABLE = frozenset({"cut", "hand"})  # what an online table enters
_WORDS = {
    "cut": "enter the cut for the deal",
    "hand": "record this hand",
    "confirm": "confirm a hand",
    "misdeal": "rule a misdeal",
    "appeal": "appeal a misplay",
    "rule_misplay": "rule on a misplay",
    "dismiss_appeal": "dismiss an appeal",
}


# -- the kind --------------------------------------------------------------------------


class PitchTournament:
    """The `pitch-tournament` kind of event."""

    name = "pitch-tournament"
    title = "Darrtown Pitch tournament"
    links: Mapping[str, str] = {"add_player": "player", "add_judge": "judge"}
    correctable = frozenset({"hand", "cut"})

    def options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """`advance`: how many go on from each table to the next Go-Round
        (default 1, the table's winner; at most 3, as a table always eliminates)."""
        unknown = sorted(set(given) - {"advance"})
        if unknown:
            raise RefusedError(f"a Pitch tournament's only option is advance, not {unknown}")
        advance = given.get("advance", DEFAULT_ADVANCE)
        if not isinstance(advance, int) or isinstance(advance, bool):
            raise RefusedError("advance is a whole number")
        if not 1 <= advance <= MAX_SEATS - 1:
            raise RefusedError(
                f"advance is 1 to {MAX_SEATS - 1}: tables seat {MIN_SEATS} to {MAX_SEATS} "
                "players, and each table eliminates at least one"
            )
        return {"advance": advance}

    def start(self, options: Mapping[str, Any]) -> PitchEvent:
        """An event with nobody on the rosters yet."""
        return PitchEvent(advance=int(options.get("advance", DEFAULT_ADVANCE)))

    def check(
        self,
        state: PitchEvent,
        actor: Actor,
        type: str,
        data: Mapping[str, Any],
        correcting: bool,
    ) -> None:
        """The manager may do anything. A table's judge enters the cut, confirms
        hands, rules misdeals and misplays (and hears appeals) at that table, and
        may correct its unconfirmed hands. A player at a table records the hand
        they dealt, and appeals a misplay there."""
        if type not in _TYPES:
            raise RefusedError(f"a Pitch tournament has no {type!r} entries")
        if correcting:
            _check_correction(state, type, data)
        if type in _FROM_TABLE and not correcting:
            table = state.table(data)
            if by_its_table(actor, table.online, table.label, "its cut and its hands"):
                return
        if type == "seat_round" and "seating" in data:
            raise RefusedError(
                "the server seats the players and stores the seating in the entry: "
                "give by=draw (and a seed, if you like) or by=standing"
            )
        if actor.role == "manager":
            return
        if type in _MANAGER:
            raise ForbiddenError("only the tournament manager may do this")
        table = state.table_of(type, data)
        what = _WORDS[type]
        if actor.role == "judge":
            if type == "hand" and not correcting:
                raise ForbiddenError("the dealer records each hand; the judge confirms it")
            if table.judge != actor.name:
                judge = f"judge {table.judge}" if table.judge else "no judge yet"
                raise ForbiddenError(
                    f"judge {actor.name} does not judge {table.label} ({judge}): only its judge "
                    f"or the manager may {what} there"
                )
            return
        if actor.role != "player":
            raise ForbiddenError("this link may not make entries")
        if actor.name not in table.players:
            raise ForbiddenError(f"{actor.name} does not play at {table.label}")
        if actor.name in state.disqualified:
            raise ForbiddenError(f"{actor.name} is disqualified")
        if type == "appeal":
            return
        if type == "hand":
            dealer = _dealer(state, table, data, correcting)
            if dealer != actor.name:
                raise ForbiddenError(
                    f"{dealer} deals this hand: only the dealer, the table's judge or the "
                    "manager may record it"
                )
            return
        raise ForbiddenError(f"only the judge of {table.label} or the manager may {what}")

    def decide(self, state: PitchEvent, type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """A Go-Round's seating, drawn (with its seed) or by standing."""
        return _seating(state, data) if type == "seat_round" else {}

    def apply(self, state: PitchEvent, entry: Entry) -> None:
        """Apply one entry (RefusedError: the rules do not allow it)."""
        try:
            _TYPES[entry.type](state, entry)
        except RefusedError:
            raise
        except ValueError as exc:  # the sheet's refusals
            raise RefusedError(str(exc)) from None

    def online(self, state: PitchEvent, data: Mapping[str, Any]) -> Online:
        """A pitkit table for a table of the current Go-Round (`round`, `table`)
        whose players have not cut yet: the tournament rules, its players in seat order."""
        table = _offline_table(state, data)
        return Online("pitch", RULES.to_json(), tuple(table.players))

    def seat_at(self, state: PitchEvent, table_id: str, name: str) -> int:
        """`name`'s seat at the Go-Round table played at `table_id`."""
        table = state.at_table(table_id)
        if table is None:
            raise ForbiddenError("this table plays none of the event's tables")
        if name not in table.players:
            raise ForbiddenError(f"{name} does not play at {table.label}")
        if name in state.disqualified:
            raise ForbiddenError(f"{name} is disqualified")
        return table.players.index(name)

    def sync(
        self, state: PitchEvent, table_id: str, match: PitchMatch
    ) -> list[tuple[str, dict[str, Any]]]:
        """The cut once the table has cut for the deal, then each hand the table
        has scored that the pad lacks, as the dealer would record it (topic 35)."""
        table = state.at_table(table_id)
        if table is None:
            return []
        where = {"round": table.round, "table": table.number}
        names = table.players
        if table.sheet is None:
            cut = ("cut", {**where, "dealer": names[match.sheet.first_dealer]})
            return [cut, *self._hands(where, names, match, 0, 1)]
        scored = sum(1 for done in table.sheet.entries if done.kind == "hand")
        return self._hands(where, names, match, scored, len(table.sheet.entries) + 1)

    @staticmethod
    def _hands(
        where: Mapping[str, Any], names: Sequence[str], match: PitchMatch, skip: int, line: int
    ) -> list[tuple[str, dict[str, Any]]]:
        results = [done.result for done in match.sheet.entries if done.result is not None]
        entries = []
        for result in results[skip:]:
            won = {award.point: award.credited for award in result.awards}
            pad: dict[str, Any] = {
                point: names[won[point][0]] if won[point] else None
                for point in ("high", "low", "jack", "game")
            }
            pad.update(bid=result.bid, pitcher=names[result.pitcher], trump=result.trump.letter)
            entries.append(("hand", {**where, "line": line, **pad}))
            line += 1
        return entries

    def view(self, state: PitchEvent, actor: Actor) -> dict[str, Any]:
        """The rosters, every Go-Round with its tables and pads, the pending hands
        and open appeals, the misplay register, the standings and the champion."""
        rounds = []
        for rnd in state.rounds:
            rounds.append(
                {
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
            )
        pending = [
            _pending(table, line)
            for rnd in state.rounds
            for table in rnd.tables
            for line in table.pending
        ]
        appeals = [a.to_json() for a in state.appeals if a.status == "open"]
        judges = [
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
        out: dict[str, Any] = {
            "players": list(state.players),
            "judges": judges,
            "rounds": rounds,
            "pending": pending,
            "appeals": appeals,
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
        }
        if actor.role in ("judge", "player"):
            out["mine"] = _mine(state, actor)
        return out

    def csv(self, state: PitchEvent) -> dict[str, str]:
        """`pads.csv`: every line of every table's pad; `standings.csv`: each Go-Round's."""
        pads = io.StringIO()
        writer = csv.writer(pads)
        writer.writerow(
            [
                "round",
                "table",
                "line",
                "entry",
                "kind",
                "dealer",
                "seated",
                *_PAD,
                "changes",
                "scores",
                "status",
                "initials",
                "note",
            ]
        )
        for rnd in state.rounds:
            for table in rnd.tables:
                for line in _table_json(state, table)["lines"]:
                    pad = line["pad"] or {}
                    writer.writerow(
                        [
                            rnd.number,
                            table.number,
                            line["line"],
                            line["entry"],
                            line["kind"],
                            line["dealer"],
                            " ".join(line["seated"]),
                            *("" if pad.get(key) is None else pad[key] for key in _PAD),
                            "; ".join(f"{p} {d:+d}" for p, d in line["changes"].items()),
                            "; ".join(f"{p} {s}" for p, s in line["scores"].items()),
                            line["status"],
                            line["initials"] or "",
                            line["note"],
                        ]
                    )
        standing = io.StringIO()
        writer = csv.writer(standing)
        writer.writerow(["round", "place", "player", "table", "points", "misplays", "status"])
        for rnd in state.rounds:
            for line in standings(state, rnd):
                writer.writerow(
                    [
                        rnd.number,
                        f"{line['place']}{'' if line['final'] else ' (so far)'}",
                        line["player"],
                        line["table"],
                        line["points"],
                        line["misplays"],
                        line["status"],
                    ]
                )
        return {"pads.csv": pads.getvalue(), "standings.csv": standing.getvalue()}


def _check_correction(state: PitchEvent, type: str, data: Mapping[str, Any]) -> None:
    table = state.table(data)
    sheet = _sheet(state, table)
    if type == "cut":
        if sheet.entries:
            raise RefusedError(f"{table.label} has lines on its pad: the cut for the deal stands")
        return
    line = data.get("line")
    if not isinstance(line, int) or not 1 <= line <= len(sheet.entries):
        raise RefusedError(f"there is no line {line} on {table.label}'s pad")
    done = sheet.entries[line - 1]
    if done.judge is not None:
        raise RefusedError(
            f"line {line} of {table.label} is confirmed by {done.judge}: it stands as confirmed"
        )


def _dealer(state: PitchEvent, table: Table, data: Mapping[str, Any], correcting: bool) -> str:
    """Who deals the hand an entry records: the sheet's dealer, or for a
    correction, the dealer of that line."""
    sheet = _sheet(state, table)
    if correcting:
        line = data.get("line")
        assert isinstance(line, int)  # _check_correction checked it
        return table.players[sheet.entries[line - 1].dealer]
    if sheet.outcome is not None:
        raise RefusedError(f"the game at {table.label} is over")
    return table.players[sheet.dealer]


_SEATS = re.compile(r"\bseats \[([\d, ]*)\]")
_SEAT = re.compile(r"\bseat (\d+)\b")


def _named(note: str, names: Sequence[str]) -> str:
    """A sheet's note with the players' names for its seat numbers."""
    note = _SEATS.sub(
        lambda m: ", ".join(names[int(s)] for s in m.group(1).split(",") if s.strip()), note
    )
    return _SEAT.sub(lambda m: names[int(m.group(1))], note)


def _table_json(state: PitchEvent, table: Table) -> dict[str, Any]:
    names = table.players
    sheet = table.sheet
    lines = []
    if sheet is not None:
        for done, meta in zip(sheet.entries, table.lines, strict=True):
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
                }
            )
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
        "lines": lines,
        "pending": table.pending,
        "appeal": None if appeal is None else appeal.to_json(),
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


def _pending(table: Table, line: int) -> dict[str, Any]:
    assert table.sheet is not None
    done = table.sheet.entries[line - 1]
    return {
        "round": table.round,
        "table": table.number,
        "line": line,
        "entry": table.lines[line - 1].entry,
        "judge": table.judge,
        "dealer": table.players[done.dealer],
        "note": _named(done.note, table.players),
    }


def standings(state: PitchEvent, rnd: Round) -> list[dict[str, Any]]:
    """A Go-Round's standings: each table's places (C10, final once its game is
    over and confirmed; until then by points so far), best first."""
    champion = state.champion()
    lines: list[dict[str, Any]] = []
    for table in rnd.tables:
        sheet = table.sheet
        scores = [sheet.scores[s] if sheet else 0 for s in range(len(table.players))]
        over = table.over
        advancing = state.advancing(table) if over and not rnd.final else []
        for seat, name in enumerate(table.players):
            if sheet is not None and sheet.outcome is not None:
                place = sheet.outcome.ranks[seat]
            else:
                place = 1 + sum(other > scores[seat] for other in scores)
            dq = state.disqualified.get(name)
            if dq is not None and dq["round"] == rnd.number:
                status = "disqualified"
            elif rnd.final and name == champion:
                status = "champion"
            elif name in advancing:
                status = "advances"
            elif over:
                status = "eliminated"
            else:
                status = "playing"
            lines.append(
                {
                    "player": name,
                    "table": table.number,
                    "place": place,
                    "final": over,
                    "points": scores[seat],
                    "misplays": rnd.go.count(name),
                    "status": status,
                }
            )
    lines.sort(key=lambda line: (line["place"], -line["points"], line["table"]))
    return lines


def _mine(state: PitchEvent, actor: Actor) -> dict[str, Any]:
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


KIND = PitchTournament()
