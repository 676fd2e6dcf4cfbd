"""Calls to the judge (pitkit/tournaments/calls.py) as log entries: a player calls from
their table, the entry keeps the table and its judge, one call a table is open at a
time, only that table's judge (or the manager) answers it, and each reader sees the
calls that are theirs."""

from __future__ import annotations

import pytest

from pitkit.tournaments.hall import Hall
from pitkit.tournaments.log import Actor, ForbiddenError, RefusedError
from tests.tournaments.desk import PLAYERS, Desk, PitchDesk


def two_tables() -> PitchDesk:
    """A Pitch Go-Round 1 of two tables (by standing: Ann, Cat, Eve, Gus at table 1;
    Bob, Dan, Fay at table 2), judged by Jo and Kim."""
    desk = PitchDesk()
    for name in PLAYERS:
        desk.add(name)
    desk.judge("Jo")
    desk.judge("Kim")
    desk.ok(desk.manager, "seat_round", by="standing", tables=2, judges=["Jo", "Kim"])
    return desk


def calls(desk: Desk, name: str | None = None) -> list[dict[str, object]]:
    actor = desk.manager if name is None else desk.by[name]
    seen: list[dict[str, object]] = desk.tournament.hall_view(actor)["calls"]
    return seen


def test_a_call_names_the_players_table_and_its_judge_and_reaches_only_that_judge() -> None:
    desk = two_tables()
    call = desk.ok(desk.by["Bob"], "call_judge")
    assert call.data == {
        "spot": "round 1 table 2",
        "where": "table 2 of Go-Round 1",
        "judge": "Kim",
    }
    assert call.actor == Actor("player", "Bob")
    assert [c["call"] for c in calls(desk, "Kim")] == [call.seq]
    assert calls(desk, "Jo") == []  # the judge of another table does not get it
    assert [c["player"] for c in calls(desk)] == ["Bob"]  # the manager sees every call
    assert [c["call"] for c in calls(desk, "Dan")] == [call.seq]  # Bob's tablemate too
    assert calls(desk, "Ann") == []


def test_a_table_has_one_open_call_however_often_its_players_call() -> None:
    desk = two_tables()
    first = desk.ok(desk.by["Bob"], "call_judge")
    for name in ("Bob", "Dan", "Bob"):
        words = desk.refused(RefusedError, desk.by[name], "call_judge")
        assert words.startswith("The judge has been called; they are on their way")
    assert len([e for e in desk.tournament.entries if e.type == "call_judge"]) == 1
    desk.ok(desk.by["Ann"], "call_judge")  # another table calls its own judge
    desk.ok(desk.by["Kim"], "answer_call", call=first.seq, status="coming")
    assert "answered" in desk.refused(RefusedError, desk.by["Dan"], "call_judge")
    desk.ok(desk.by["Kim"], "answer_call", call=first.seq, status="done")
    assert calls(desk, "Kim") == []
    desk.ok(desk.by["Dan"], "call_judge")  # done: the table may call again


def test_only_the_calls_judge_or_the_manager_answers_it() -> None:
    desk = two_tables()
    call = desk.ok(desk.by["Bob"], "call_judge")
    assert "judge Kim" in desk.refused(
        ForbiddenError, desk.by["Jo"], "answer_call", call=call.seq, status="coming"
    )
    desk.refused(ForbiddenError, desk.by["Bob"], "answer_call", call=call.seq, status="done")
    desk.refused(RefusedError, desk.manager, "answer_call", call=call.seq, status="soon")
    desk.refused(RefusedError, desk.manager, "answer_call", call=999, status="done")
    desk.ok(desk.manager, "answer_call", call=call.seq, status="done")
    desk.refused(RefusedError, desk.by["Kim"], "answer_call", call=call.seq, status="coming")


def test_who_may_not_call() -> None:
    desk = two_tables()
    desk.refused(ForbiddenError, desk.manager, "call_judge")
    desk.refused(ForbiddenError, desk.by["Jo"], "call_judge")
    desk.refused(RefusedError, desk.by["Bob"], "call_judge", spot="round 1 table 1")
    unseated = Desk()
    unseated.add("Ann")
    assert "not seated" in unseated.refused(RefusedError, unseated.by["Ann"], "call_judge")


def test_at_a_pits_game_the_manager_is_the_judge() -> None:
    desk = Desk()
    for name in PLAYERS[:5]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5], table="Table A", scorer="Ann")
    call = desk.ok(desk.by["Cat"], "call_judge")
    assert call.data["judge"] is None and "Table A" in str(call.data["where"])
    assert [c["call"] for c in calls(desk)] == [call.seq]
    desk.ok(desk.manager, "answer_call", call=call.seq, status="coming")
    assert calls(desk)[0]["status"] == "coming" and calls(desk)[0]["answered_by"] == "the manager"


def test_calls_replayed_from_the_log_are_the_calls_made() -> None:
    desk = two_tables()
    first = desk.ok(desk.by["Bob"], "call_judge")
    desk.ok(desk.by["Ann"], "call_judge")
    desk.ok(desk.by["Kim"], "answer_call", call=first.seq, status="coming")
    assert Hall(desk.tournament.entries).calls == desk.tournament.hall.calls
    # Calls change nothing of the pads or the standings.
    assert desk.view() == two_tables().view()


@pytest.mark.parametrize("status", ["coming", "done"])
def test_a_call_cannot_be_corrected(status: str) -> None:
    desk = two_tables()
    call = desk.ok(desk.by["Bob"], "call_judge")
    desk.refused(
        RefusedError, desk.by["Kim"], "answer_call", corrects=call.seq, call=call.seq, status=status
    )
