"""Bad input from people, without a server (issue 35, 4): every CSV file of both kinds
is safe to open in a spreadsheet (a name that looks like a formula is written as
text, a score stays a number), and every text field a tournament takes refuses
control characters with words for people, changing nothing."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from pitkit.core.export import FORMULA_STARTS, cell, csv_text
from pitkit.tournaments import KINDS, Tournament
from pitkit.tournaments.log import (
    NEW_LINK,
    PUBLIC_ACTOR,
    Entry,
    RefusedError,
    control_character,
)
from tests.tournaments.desk import Desk, PitchDesk

HOSTILE = ['=HYPERLINK("http://x.example","prize")', "+cmd", "@SUM(1+1)", "-2+3", "Eve"]
"""Five players whose names a spreadsheet would take for formulas (and one it would not)."""

CONTROL = ["Nul\u0000Name", "Esc\u001bName", "Tab\tName", "Line\nName", "Cr\rName",
           "Rtl\u202eName", "Zwj\u200dName", "Private\ue000Name", "Unassigned\u0378Name",
           "Half\ud800Name"]  # fmt: skip
"""One of each kind of Unicode category C: Cc (NUL, escape, tab, line feed, carriage
return), Cf (right-to-left override, zero-width joiner), Co, Cn and Cs."""


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _safe(text: str) -> None:
    """No cell of a CSV file starts as a formula, unless it is a number."""
    for row in _rows(text):
        for value in row:
            if value.startswith(FORMULA_STARTS):
                float(value)  # a number the exporter wrote: -3 is read as minus three


def test_a_cell_that_a_spreadsheet_would_read_as_a_formula_is_written_as_text() -> None:
    for start in FORMULA_STARTS:
        assert cell(f"{start}x") == f"'{start}x"
    assert cell("Ann") == "Ann" and cell("") == "" and cell(None) is None
    assert cell(-3) == -3 and cell(2.5) == 2.5  # numbers stay numbers
    text = csv_text(["who", "points"], [["=1+1", -3], ["Bob", 4]])
    assert _rows(text) == [["who", "points"], ["'=1+1", "-3"], ["Bob", "4"]]


def test_every_pits_csv_writes_names_as_text() -> None:
    desk = Desk()
    for name in HOSTILE:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=HOSTILE, table="=Table A", scorer="Eve")
    for hand in range(1, 11):
        order = HOSTILE[hand % 5 :] + HOSTILE[: hand % 5]
        desk.ok(desk.by["Eve"], "hand", game=1, hand=hand, order=order)
    sheets, standings = desk.csv("sheets.csv"), desk.csv("standings.csv")
    for text in (sheets, standings):
        _safe(text)
    rows = _rows(sheets)
    assert rows[1][:3] == ["1", "'=Table A", "1"]
    assert rows[1][3:] == ["'+cmd", "'@SUM(1+1)", "'-2+3", "Eve", "'" + HOSTILE[0]]
    totals = rows[-1]
    assert totals[2] == "total" and totals[3].startswith("'" + HOSTILE[0])  # starts with a name
    players = {row[1] for row in _rows(standings)[1:]}
    assert players == {"'" + HOSTILE[0], "'+cmd", "'@SUM(1+1)", "'-2+3", "Eve"}
    assert all(int(row[2]) >= 0 for row in _rows(standings)[1:])  # points: numbers


def test_every_pitch_csv_writes_names_as_text_and_scores_as_numbers() -> None:
    desk = PitchDesk()
    names = HOSTILE[:3]
    for name in names:
        desk.add(name)
    desk.judge("Jo")
    desk.ok(desk.manager, "seat_round", by="standing", judges=["Jo"])
    desk.ok(desk.by["Jo"], "cut", round=1, table=1, dealer=names[0])
    dealer = desk.table(1, 1)["dealer"]
    # The dealer bids 4 and takes nothing: set back, a negative score.
    others = [n for n in names if n != dealer]
    desk.hand(1, 1, bid=4, pitcher=dealer, high=others[0], low=others[0], game=others[1])
    pads, standings = desk.csv("pads.csv"), desk.csv("standings.csv")
    for text in (pads, standings):
        _safe(text)
    header, line = _rows(pads)[:2]
    row = dict(zip(header, line, strict=True))
    assert row["dealer"] == "'" + dealer and row["pitcher"] == "'" + dealer
    assert row["seated"].startswith("'") and row["changes"].startswith("'")
    assert row["bid"] == "4"
    points = {r[2]: int(r[4]) for r in _rows(standings)[1:]}  # read back as numbers
    assert points["'" + dealer] == -4


def _pits_desk() -> Desk:
    """A Pits evening with a game of five under way and Gus free."""
    desk = Desk()
    for name in ["Ann", "Bob", "Cat", "Dan", "Eve", "Gus"]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=["Ann", "Bob", "Cat", "Dan", "Eve"])
    return desk


def _pits_fields(bad: str) -> list[tuple[str, dict[str, Any]]]:
    """Every Pits entry with a text field, each with `bad` in one field."""
    five = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    return [
        ("add_player", {"name": bad}),
        ("start_game", {"players": [*five[:4], bad]}),
        ("start_game", {"players": five, "scorer": bad}),
        ("start_game", {"players": five, "table": bad}),
        ("hand", {"game": 1, "hand": 1, "order": [*five[:4], bad]}),
        ("quit", {"game": 1, "player": bad, "replacement": "Gus"}),
        ("quit", {"game": 1, "player": "Eve", "replacement": bad}),
        ("sign", {"game": 1, "player": bad}),
        (NEW_LINK, {"role": "player", "name": bad}),
        ("add_player", {"name": "Zed", bad: "x"}),  # even a field's name
    ]


def _pitch_fields(bad: str) -> list[tuple[str, dict[str, Any]]]:
    """Every Pitch entry with a text field (Go-Round 1 seated, Ann to cut), each with
    `bad` in one field."""
    where = {"round": 1, "table": 1}
    pad = {**where, "line": 1, "bid": 2, "pitcher": "Ann", "trump": "H", "high": "Ann",
           "low": "Ann", "jack": None, "game": "Ann"}  # fmt: skip
    return [
        ("add_player", {"name": bad}),
        ("add_judge", {"name": bad}),
        ("add_judge", {"name": "Kim", "initials": bad}),
        ("seat_round", {"by": "standing", "players": ["Ann", bad]}),
        ("seat_round", {"by": "standing", "judges": [bad]}),
        ("assign_judge", {**where, "judge": bad}),
        ("cut", {**where, "dealer": bad}),
        *[("hand", {**pad, key: bad}) for key in ("pitcher", "trump", "high", "low", "jack")],
        ("appeal", {**where, "offender": bad}),
        ("appeal", {**where, "offender": "Bob", "note": bad}),
        ("confirm", {**where, "line": 1, "initials": bad}),
        ("misdeal", {**where, "found": bad}),
    ]


@pytest.mark.parametrize("bad", CONTROL)
def test_every_text_field_refuses_control_characters_and_changes_nothing(bad: str) -> None:
    pits = _pits_desk()
    for type, data in _pits_fields(bad):
        why = pits.refused(RefusedError, pits.manager, type, **data)
        assert "control character (U+" in why and "type it again without it" in why, type
    pitch = PitchDesk()
    for name in ["Ann", "Bob", "Cat"]:
        pitch.add(name)
    pitch.judge("Jo")
    for type, data in _pitch_fields(bad):
        if type in ("add_player", "add_judge", "seat_round"):
            why = pitch.refused(RefusedError, pitch.manager, type, **data)
            assert "control character" in why, type
    pitch.ok(pitch.manager, "seat_round", by="standing", judges=["Jo"])
    for type, data in _pitch_fields(bad):
        if type not in ("add_player", "add_judge", "seat_round"):
            why = pitch.refused(RefusedError, pitch.manager, type, **data)
            assert "control character" in why, type
    # The message names the character by its code, never shows it.
    found = control_character(bad)
    assert found is not None and f"U+{ord(found):04X}" in why and found not in why


def test_printable_names_of_every_script_are_taken() -> None:
    desk = Desk()
    for name in ["Zoë Ångström", "Łukasz", "李小龍", "Ana María  de la Cruz", "Sam 🂡"]:
        desk.add(name)
    assert desk.view()["players"][3] == "Ana María de la Cruz"  # spaces tidied


def test_a_log_stored_before_names_were_checked_still_loads() -> None:
    # The check is made on the way in: a name stored earlier is not a reason to lose
    # an evening's log.
    old = Entry(1, 1.0, "manager", None, "add_player", {"name": "Nul\u0000Name"})
    kind = KINDS["pits-continuous"]
    held = Tournament(kind, {}, [old])
    assert held.view(PUBLIC_ACTOR)["players"] == ["Nul\u0000Name"]
