"""What each entry of a Darrtown Pitch tournament does to its state, and what it
refuses (RefusedError: nothing changed, once the caller restores the state).
Who may make which entry is the kind's to say (`kind.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pitkit.games.pitch.rules import MAX_BID, MIN_BID
from pitkit.games.pitch.sheet import Confirm, Misdeal, Misplay, ScoreSheet
from pitkit.tournaments.checkin import CHECK_IN
from pitkit.tournaments.log import (
    DIFFERS,
    OPEN_TABLE,
    Actor,
    Entry,
    RefusedError,
    entry_name,
)
from pitkit.tournaments.pitch.bidding import Bidding
from pitkit.tournaments.pitch.counts import check_game, count_words, read_counts
from pitkit.tournaments.pitch.pad import hand_bidding, read_pad
from pitkit.tournaments.pitch.seating import seat_round
from pitkit.tournaments.pitch.state import (
    FOUND,
    NOTE_CHARS,
    RULES,
    Appeal,
    GoRoundTable,
    Line,
    PitchTournamentState,
)

__all__ = ["TYPES", "offline_table", "sheet_of"]


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


def signed_profile(
    state: PitchTournamentState, actor: Actor, data: Mapping[str, Any], needed: bool
) -> str | None:
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


def sheet_of(table: GoRoundTable) -> ScoreSheet:
    """The table's score pad, or RefusedError before the players have cut for the deal."""
    if table.sheet is None:
        raise RefusedError(f"the players at {table.label} cut for the deal first")
    return table.sheet


def _record(
    table: GoRoundTable, before: int, entry: Entry, pad: dict[str, Any] | None = None
) -> None:
    """Note the entry behind the lines an entry added to the table's sheet."""
    assert table.sheet is not None
    for _ in range(before, len(table.sheet.entries)):
        table.lines.append(Line(entry.seq, pad, role=entry.role))


# -- the entries -----------------------------------------------------------------------


def _add_player(state: PitchTournamentState, entry: Entry) -> None:
    name = entry_name(entry.data)
    if state.rounds:
        raise RefusedError("Go-Round 1 is seated: the roster is closed")
    if name.casefold() in (p.casefold() for p in state.players):
        raise RefusedError(f"{name} is on the roster already")
    if name.casefold() in (j.casefold() for j in state.judges):
        raise RefusedError(f"{name} is a judge: a judge does not play")
    state.players.append(name)


def _add_judge(state: PitchTournamentState, entry: Entry) -> None:
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


def _assign_judge(state: PitchTournamentState, entry: Entry) -> None:
    table = state.table(entry.data)
    judge = _maybe_name(entry.data, "judge")
    if judge is not None and judge not in state.judges:
        raise RefusedError(f"{judge} is not one of the judges")
    table.judge = judge


def _cut(state: PitchTournamentState, entry: Entry) -> None:
    table = state.table(entry.data)
    if table.sheet is not None:
        raise RefusedError(f"the players at {table.label} have cut already (entry #{table.cut})")
    dealer = table.seat(entry_name(entry.data, "dealer"))
    rnd = state.rounds[table.round - 1]
    table.sheet = ScoreSheet(
        RULES, len(table.players), dealer, names=table.players, go_round=rnd.go
    )
    table.cut = entry.seq


def _hand(state: PitchTournamentState, entry: Entry) -> None:
    data = entry.data
    table = state.table(data)
    sheet = sheet_of(table)
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
    read = read_pad(table, sheet, entry, table.bidding)
    before = len(sheet.entries)
    sheet.record_hand(read.result)
    _record(table, before, entry, read.pad)
    meta = table.lines[-1]
    meta.bidding, meta.counts = read.bidding, read.counts
    meta.counted_by = None if read.counts is None else entry.actor.label
    table.bidding = None  # the hand is over: the next one is bid afresh


def _bidding(state: PitchTournamentState, entry: Entry) -> None:
    table = state.table(entry.data)
    sheet = sheet_of(table)
    if sheet.outcome is not None:
        raise RefusedError(f"the game at {table.label} is over: {sheet.outcome.summary}")
    if table.bidding is not None:
        raise RefusedError(
            f"the bidding of the hand in play at {table.label} is recorded already (entry "
            f"#{table.bidding.entry}): correct that entry to change it"
        )
    table.bidding = hand_bidding(table, sheet, entry.data.get("calls"), entry.seq)


def _confirm(state: PitchTournamentState, entry: Entry) -> None:
    data = entry.data
    table = state.table(data)
    sheet = sheet_of(table)
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
    initials = signed_profile(state, entry.actor, data, needed=True)
    assert initials is not None
    counts = _counted(table, line, data)
    sheet.rule(Confirm(line, initials))
    meta.confirmed, meta.confirmed_by = entry.seq, by
    if counts is not None and meta.counts is None:
        meta.counts, meta.counted_by = counts, by


def _counted(table: GoRoundTable, line: int, data: Mapping[str, Any]) -> dict[str, int] | None:
    """The counts a judge confirms a line with (topic 31), if any: they must be the
    line's own, when it has them, and give the game point as the line does."""
    if data.get("counts") is None:
        return None
    assert table.sheet is not None
    done, meta = table.sheet.entries[line - 1], table.lines[line - 1]
    counts = read_counts(data["counts"], [table.players[s] for s in done.seated])
    if meta.counts is not None and meta.counts != counts:
        raise RefusedError(
            f"line {line} was recorded with the counts {count_words(meta.counts)}, not "
            f"{count_words(counts)}: correct the line first, then initial it"
        )
    game = None if meta.pad is None else meta.pad.get("game")
    try:
        check_game(counts, game, f"line {line}")
    except RefusedError as exc:
        raise RefusedError(f"{exc}: correct the line first, then initial it") from None
    return counts


def _misdeal(state: PitchTournamentState, entry: Entry) -> None:
    data = entry.data
    table = state.table(data)
    sheet = sheet_of(table)
    found = data.get("found")
    if found not in FOUND:
        raise RefusedError(f"a misdeal is found {', '.join(FOUND)}, not {found!r}")
    before = len(sheet.entries)
    sheet.rule(Misdeal(found, signed_profile(state, entry.actor, data, needed=False)))
    _record(table, before, entry)
    table.bidding = None  # the cards are dealt again (or the deal passes): a new bidding


def _appeal(state: PitchTournamentState, entry: Entry) -> None:
    data = entry.data
    table = state.table(data)
    sheet = sheet_of(table)
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


def _ruled(state: PitchTournamentState, data: Mapping[str, Any]) -> tuple[Appeal, GoRoundTable]:
    appeal = state.appeal(data)
    if appeal.status != "open":
        raise RefusedError(f"appeal #{appeal.seq} was ruled on already (entry #{appeal.ruling})")
    return appeal, state.rounds[appeal.round - 1].tables[appeal.table - 1]


def _rule_misplay(state: PitchTournamentState, entry: Entry) -> None:
    data = entry.data
    appeal, table = _ruled(state, data)
    sheet = sheet_of(table)
    correctable = data.get("correctable")
    if not isinstance(correctable, bool):
        raise RefusedError("say whether the misplay is correctable: true or false")
    bidding = table.bidding
    highest = None if correctable else _highest(bidding, data.get("highest_bid"))
    initials = signed_profile(state, entry.actor, data, needed=False)
    seat = table.seat(appeal.offender)
    before = len(sheet.entries)
    done = sheet.rule(Misplay(seat, correctable, highest, judge=initials))
    _record(table, before, entry)
    if done.redeal:  # the cards are dealt again: a new bidding
        table.lines[-1].bidding, table.bidding = bidding, None
    rnd = state.rounds[table.round - 1]
    out = seat in sheet.disqualified
    state.register.append(
        {
            "round": table.round,
            "table": table.number,
            "player": appeal.offender,
            "ruling": "correctable" if correctable else "not correctable",
            "highest_bid": highest,
            "bidding": None if bidding is None or correctable else bidding.entry,
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


def _highest(bidding: Bidding | None, given: Any) -> int:
    """The highest bid made in the misplayed hand (topic 37): the recorded bidding's,
    which a bid the judge gives must agree with; without a recorded bidding, the
    judge's."""
    if bidding is not None:
        if given is not None and given != bidding.highest:
            raise RefusedError(
                f"the bidding recorded for this hand (entry #{bidding.entry}) makes the "
                f"highest bid {bidding.highest}, not {given}"
            )
        return bidding.highest
    if not isinstance(given, int) or isinstance(given, bool) or not MIN_BID <= given <= MAX_BID:
        raise RefusedError(
            f"give the highest bid made in the misplayed hand, {MIN_BID} to {MAX_BID} (the "
            "offender loses it), or have the dealer record the hand's bidding first"
        )
    return given


def offline_table(state: PitchTournamentState, data: Mapping[str, Any]) -> GoRoundTable:
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


def _open_table(state: PitchTournamentState, entry: Entry) -> None:
    table = offline_table(state, entry.data)
    table_id = entry.data.get("table_id")
    if not isinstance(table_id, str):
        raise RefusedError("the server writes the table's id into this entry")
    table.online = table_id


def _differs(state: PitchTournamentState, entry: Entry) -> None:
    table = state.table(entry.data)
    line, sheet = entry.data.get("line"), entry.data.get("sheet")
    if not isinstance(line, int) or not isinstance(sheet, dict):
        raise RefusedError("the online table names the pad's line and what the pad says")
    state.differs[table.round, table.number, line] = dict(sheet)


def _check_in(state: PitchTournamentState, entry: Entry) -> None:
    state.check_in.apply(entry, state.players)


def _dismiss_appeal(state: PitchTournamentState, entry: Entry) -> None:
    appeal, _table = _ruled(state, entry.data)
    appeal.status, appeal.ruling = "dismissed", entry.seq


TYPES: dict[str, Callable[[PitchTournamentState, Entry], None]] = {
    "add_player": _add_player,
    "add_judge": _add_judge,
    "seat_round": seat_round,
    "assign_judge": _assign_judge,
    "cut": _cut,
    "hand": _hand,
    "bidding": _bidding,
    "confirm": _confirm,
    "misdeal": _misdeal,
    "appeal": _appeal,
    "rule_misplay": _rule_misplay,
    "dismiss_appeal": _dismiss_appeal,
    OPEN_TABLE: _open_table,
    DIFFERS: _differs,
    CHECK_IN: _check_in,
}
