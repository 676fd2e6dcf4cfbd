"""Time and calls in the hall, through the API (issue 35): the round clock (only the
manager sets it; every page reads it with the server's time), calls to the judge (only
that table's judge gets one, a table has one open call however often its players press,
and each link's calls are bounded an hour), and the roster's CSV file (imported all or
nothing, with every bad row named; exported safe for a spreadsheet)."""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pitkit.server import Limits
from pitkit.server.ops.settings import database_url
from tests.server.conftest import FAST, ServerThread
from tests.server.test_events import Desk

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[ServerThread]:
    """A server (SQLite) whose links may each call the judge three times an hour."""
    limits = Limits(**{**FAST.__dict__, "judge_calls_per_hour": 3})
    s = ServerThread(tmp_path, limits, database=database_url(str(tmp_path), None))
    yield s
    s.stop()


class Pitch(Desk):
    """A Pitch Go-Round 1 of two tables through the API: Ann, Cat, Eve, Gus at table 1
    (judge Jo), Bob, Dan, Fay at table 2 (judge Kim)."""

    def __init__(self, server: ServerThread) -> None:
        super().__init__(server, "pitch-tournament")
        for name in PLAYERS:
            self.add(name)
        for judge in ("Jo", "Kim"):
            self.tokens[judge] = self.ok(self.manager, "add_judge", name=judge)["link"]["token"]
        self.ok(self.manager, "seat_round", by="standing", tables=2, judges=["Jo", "Kim"])

    def call(self, name: str) -> httpx.Response:
        token = self.tokens[name]
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.post(f"/api/events/{self.id}/calls", headers=headers)

    def hall(self, name: str | None = None) -> dict[str, Any]:
        seen: dict[str, Any] = self.read(
            None if name is None else self.tokens.get(name, self.manager)
        )["hall"]
        return seen

    def calls_made(self) -> int:
        return sum(1 for e in self.read()["log"] if e["type"] == "call_judge")


def test_a_call_reaches_that_tables_judge_and_no_other(hall: ServerThread) -> None:
    desk = Pitch(hall)
    made = desk.call("Bob")
    assert made.status_code == 201, made.text
    entry = made.json()["entry"]
    assert entry["by"] == "Bob" and entry["data"]["judge"] == "Kim"
    assert [c["player"] for c in desk.hall("Kim")["calls"]] == ["Bob"]
    assert desk.hall("Jo")["calls"] == []  # the judge of another table does not get it
    assert desk.hall("Dan")["calls"][0]["where"] == "table 2 of Go-Round 1"
    assert desk.hall("Ann")["calls"] == [] and desk.hall()["calls"] == []  # public: none
    # Kim is on the way, then done; Jo may not answer it.
    call = entry["seq"]
    assert (
        desk.enter(desk.tokens["Jo"], "answer_call", call=call, status="coming").status_code == 403
    )
    desk.ok(desk.tokens["Kim"], "answer_call", call=call, status="coming")
    assert desk.hall("Bob")["calls"][0]["status"] == "coming"
    desk.ok(desk.tokens["Kim"], "answer_call", call=call, status="done")
    assert desk.hall("Kim")["calls"] == []


def test_a_hundred_presses_make_one_open_call(hall: ServerThread) -> None:
    desk = Pitch(hall)
    answers = [desk.call("Bob").status_code for _ in range(100)]
    assert answers.count(201) == 1 and answers.count(409) == 99
    words = desk.call("Dan").json()["detail"]  # a tablemate is told the same
    assert words.startswith("The judge has been called; they are on their way")
    assert desk.calls_made() == 1


def test_each_links_calls_are_bounded_an_hour(hall: ServerThread) -> None:
    desk = Pitch(hall)
    for _ in range(3):
        made = desk.call("Bob")
        assert made.status_code == 201, made.text
        desk.ok(desk.tokens["Kim"], "answer_call", call=made.json()["entry"]["seq"], status="done")
    refused = desk.call("Bob")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "3 times in the last hour" in refused.json()["detail"]
    assert desk.calls_made() == 3
    assert desk.call("Dan").status_code == 201  # another link has its own bound


@pytest.mark.parametrize("who", ["manager", "Jo", "public", "wrong"])
def test_only_a_seated_player_calls(hall: ServerThread, who: str) -> None:
    desk = Pitch(hall)
    desk.tokens["manager"] = desk.manager
    desk.tokens["public"] = ""
    desk.tokens["wrong"] = "ABCDEFGHJK"
    assert desk.call(who).status_code == 403
    assert desk.calls_made() == 0


def test_a_call_goes_only_through_its_own_route(hall: ServerThread) -> None:
    desk = Pitch(hall)
    refused = desk.refused(409, desk.tokens["Bob"], "call_judge")
    assert f"/api/events/{desk.id}/calls" in refused


def test_only_the_manager_sets_the_clock_and_everyone_sees_it(hall: ServerThread) -> None:
    desk = Pitch(hall)
    for who in ("Ann", "Jo"):
        desk.refused(403, desk.tokens[who], "clock", action="start", seconds=1800)
    desk.refused(403, None, "clock", action="start", seconds=1800)
    before = time.time()
    desk.ok(desk.manager, "clock", action="start", seconds=1800, label="Go-Round 1")
    for reader in (None, "Ann", "Jo"):
        clock = desk.hall(reader)["clock"]
        assert clock["running"] and clock["label"] == "Go-Round 1" and clock["by"] == "the manager"
        assert before + 1800 <= clock["ends"] <= time.time() + 1800
    desk.ok(desk.manager, "clock", action="pause")
    paused = desk.hall("Ann")["clock"]
    assert not paused["running"] and 1790 < paused["left"] <= 1800
    desk.refused(409, desk.manager, "clock", action="pause")
    desk.ok(desk.manager, "clock", action="clear")
    assert desk.hall("Ann")["clock"] is None


# -- the roster's CSV file -------------------------------------------------------------


def import_roster(desk: Desk, text: str, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token or desk.manager}"}
    return desk.http.post(f"/api/events/{desk.id}/roster", json={"csv": text}, headers=headers)


def test_a_roster_with_a_bad_row_imports_nobody_and_names_each_bad_row(hall: ServerThread) -> None:
    desk = Desk(hall)
    desk.add("Ann")
    before = desk.read()
    text = (
        "name,club\nBob Ray,York\n\nNul\x00Name,Leeds\nann,Hull\n"
        + ("x" * 41)
        + ",\nBob Ray,York\n,Leeds\n"
    )
    refused = import_roster(desk, text)
    assert refused.status_code == 422, refused.text
    problems = [d["msg"] for d in refused.json()["detail"]]
    assert problems[0].startswith("4 problems in the roster, so nothing was imported")
    assert problems[1].startswith("row 4: there is an invisible control character (U+0000)")
    assert problems[2] == "row 6: a name has at most 40 characters"
    assert problems[3] == "row 7: Bob Ray is on row 2 already"
    assert problems[4] == "row 8: give a name"
    assert desk.read() == before
    # The event refuses a name on its roster already: every such row named, nothing made.
    refused = import_roster(desk, "Cat\nann\nDan\nANN\n")
    assert refused.status_code == 422  # ann and ANN: twice in the file
    refused = import_roster(desk, "Cat\nann,Hull\nDan\n")
    assert refused.status_code == 409, refused.text
    assert [d["msg"] for d in refused.json()["detail"]][1:] == [
        "row 2: ann is on the roster already"
    ]
    assert desk.read() == before


def test_a_roster_is_imported_by_the_manager_and_exported_safe(hall: ServerThread) -> None:
    desk = Desk(hall)
    desk.add("Ann")
    assert import_roster(desk, "Bob\n", desk.tokens["Ann"]).status_code == 403
    text = 'Name,Club\nBob Ray,York\n"=HYPERLINK(""http://x"",""prize"")",@SUM(1+1)\nCat,\n'
    made = import_roster(desk, text)
    assert made.status_code == 201, made.text
    added = made.json()["added"]
    assert [(a["row"], a["name"], a["club"]) for a in added] == [
        (2, "Bob Ray", "York"),
        (3, '=HYPERLINK("http://x","prize")', "@SUM(1+1)"),
        (4, "Cat", None),
    ]
    log = desk.read()["log"]
    imported = [e for e in log if e["type"] == "add_player"][1:]
    assert [e["by"] for e in imported] == ["the manager"] * 3
    assert imported[0]["data"]["club"] == "York"
    exported = desk.http.get(f"/api/events/{desk.id}/roster.csv")
    assert exported.status_code == 200
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert rows[0] == ["name", "club"]
    assert rows[1:] == [
        ["Ann", ""],
        ["Bob Ray", "York"],
        ['\'=HYPERLINK("http://x","prize")', "'@SUM(1+1)"],
        ["Cat", ""],
    ]


def test_the_news_stream_tells_the_servers_time(hall: ServerThread) -> None:
    desk = Desk(hall)
    before = time.time()
    with desk.http.stream("GET", f"/api/events/{desk.id}/stream") as stream:
        data = next(line for line in stream.iter_lines() if line.startswith("data:"))
    news = json.loads(data.removeprefix("data:"))
    # The server's time is given to the millisecond, rounded to the nearest.
    assert news["seq"] == 0 and before - 0.0005 <= news["now"] <= time.time() + 0.0005
