"""The round clock (pitkit/tournaments/clock.py) as the log's entries set it: started,
paused, resumed, time added and taken off, cleared; only the manager sets it; what it
cannot do is refused and changes nothing; a replay of the log sets it exactly as the
entries did, and it never counts on a clock of its own."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitkit.tournaments import KINDS, Tournament
from pitkit.tournaments.hall import Hall
from pitkit.tournaments.log import Actor, ForbiddenError, RefusedError

MANAGER = Actor("manager")


def event(kind: str = "pitch-tournament") -> Tournament:
    """An event with two players and a judge on its roster."""
    t = Tournament(KINDS[kind], KINDS[kind].options({}))
    for at, name in enumerate(("Ann", "Bob"), 1):
        t.enter(MANAGER, "add_player", {"name": name}, at=float(at))
    return t


def tick(t: Tournament, at: float, actor: Actor = MANAGER, **data: Any) -> dict[str, Any]:
    """Set the clock at the server's time `at`; the clock as then seen."""
    t.enter(actor, "clock", data, at=at)
    return clock_at(t, at)


def clock_at(t: Tournament, now: float) -> dict[str, Any]:
    """The clock as pages are sent it, with what a page shows at the server's time `now`:
    the seconds `left`, and whether it is `out` ("Time")."""
    sent: dict[str, Any] = t.hall_view(MANAGER)["clock"]
    assert t.hall.clock is not None
    left = t.hall.clock.left(now)
    if not sent["running"]:
        assert sent["left"] == left  # a paused clock is sent with its time left
    return {**sent, "left": left, "out": left <= 0}


def test_a_started_clock_counts_down_from_the_servers_time_and_says_when_it_is_out() -> None:
    t = event()
    started = tick(t, 100.0, action="start", seconds=1800, label="Go-Round 1")
    assert started["running"] and started["ends"] == 1900.0 and started["label"] == "Go-Round 1"
    assert clock_at(t, 700.0)["left"] == 1200.0
    assert not clock_at(t, 1899.5)["out"]
    assert clock_at(t, 1900.0)["out"] and clock_at(t, 5000.0)["left"] == 0
    assert t.hall_view(Actor("public"))["clock"] == t.hall_view(MANAGER)["clock"]


def test_pause_keeps_the_time_left_and_resume_goes_on_from_it() -> None:
    t = event()
    tick(t, 0.0, action="start", seconds=600)
    paused = tick(t, 100.0, action="pause")
    assert not paused["running"] and paused["ends"] is None and paused["left"] == 500.0
    assert clock_at(t, 10_000.0)["left"] == 500.0  # a paused clock does not run
    resumed = tick(t, 1000.0, action="resume")
    assert resumed["ends"] == 1500.0 and resumed["left"] == 500.0


def test_time_is_added_or_taken_off_while_it_runs_or_is_paused() -> None:
    t = event()
    tick(t, 0.0, action="start", seconds=600)
    assert tick(t, 100.0, action="add", seconds=120)["ends"] == 720.0
    assert tick(t, 200.0, action="add", seconds=-60)["ends"] == 660.0
    tick(t, 300.0, action="pause")
    assert tick(t, 400.0, action="add", seconds=40)["left"] == 400.0
    assert clock_at(t, 400.0)["seconds"] == 700


def test_clear_takes_the_clock_away() -> None:
    t = event()
    tick(t, 0.0, action="start", seconds=60)
    t.enter(MANAGER, "clock", {"action": "clear"}, at=5.0)
    assert t.hall_view(MANAGER)["clock"] is None


@pytest.mark.parametrize("role", ["player", "judge", "public", "table"])
def test_only_the_manager_sets_the_clock(role: str) -> None:
    t = event()
    before = t.log()
    with pytest.raises(ForbiddenError):
        t.enter(Actor(role, "Ann"), "clock", {"action": "start", "seconds": 60}, at=1.0)
    assert t.log() == before and t.hall_view(MANAGER)["clock"] is None


@pytest.mark.parametrize(
    ("steps", "words"),
    [
        ([{"action": "pause"}], "no round clock"),
        ([{"action": "start", "seconds": 60}, {"action": "resume"}], "running already"),
        (
            [{"action": "start", "seconds": 60}, {"action": "pause"}, {"action": "pause"}],
            "paused already",
        ),
        ([{"action": "start", "seconds": 60}, {"action": "add", "seconds": -61}], "cannot lose"),
        ([{"action": "start", "seconds": 0}], "1 to 21,600"),
        ([{"action": "start", "seconds": -5}], "1 to 21,600"),
        ([{"action": "start", "seconds": 100_000}], "1 to 21,600"),
        ([{"action": "start", "seconds": "ten"}], "whole number"),
        ([{"action": "start", "seconds": True}], "whole number"),
        ([{"action": "stop"}], "one of start"),
        ([{"action": "start", "seconds": 60, "ends": 5}], "not \\['ends'\\]"),
        ([{"action": "start", "seconds": 60, "label": "Go\x00Round"}], "U\\+0000"),
        ([{"action": "start", "seconds": 60, "label": "x" * 41}], "at most 40"),
    ],
)
def test_what_the_clock_cannot_do_is_refused_and_changes_nothing(
    steps: list[dict[str, Any]], words: str
) -> None:
    t = event()
    *before, last = steps
    for at, data in enumerate(before):
        t.enter(MANAGER, "clock", data, at=float(at))
    log, seen = t.log(), t.hall_view(MANAGER)
    with pytest.raises(RefusedError, match=words):
        t.enter(MANAGER, "clock", last, at=10.0)
    assert t.log() == log and t.hall_view(MANAGER) == seen


def test_an_expired_clock_cannot_resume_until_time_is_added() -> None:
    t = event()
    tick(t, 0.0, action="start", seconds=60)
    tick(t, 90.0, action="pause")
    with pytest.raises(RefusedError, match="run out"):
        t.enter(MANAGER, "clock", {"action": "resume"}, at=100.0)
    tick(t, 100.0, action="add", seconds=30)
    assert tick(t, 110.0, action="resume")["ends"] == 140.0


def test_a_clock_entry_is_never_corrected_and_the_kind_never_sees_it() -> None:
    t = event("pits-continuous")
    first = t.enter(MANAGER, "clock", {"action": "start", "seconds": 60}, at=3.0)
    for fix in ("clock", "void"):
        with pytest.raises(RefusedError, match="cannot be corrected"):
            t.enter(MANAGER, fix, {"action": "clear"}, at=4.0, corrects=first.seq)
    # The sheets and standings are what they were: the kind's view does not change.
    plain = event("pits-continuous")
    assert t.view(MANAGER) == plain.view(MANAGER)


_ACTION = st.one_of(
    st.builds(lambda s: {"action": "start", "seconds": s}, st.integers(1, 5000)),
    st.just({"action": "pause"}),
    st.just({"action": "resume"}),
    st.just({"action": "clear"}),
    st.builds(lambda s: {"action": "add", "seconds": s}, st.integers(-3000, 3000).filter(bool)),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 400), _ACTION), max_size=25), st.integers(0, 9000))
def test_the_clock_follows_a_simple_model_and_a_replay_sets_it_the_same(
    steps: list[tuple[int, dict[str, Any]]], later: int
) -> None:
    """Whatever the manager does, in any order: the time left is what a plain count of
    seconds says, refused steps change nothing, and the log replayed gives the same clock."""
    t = event()
    now, model = 0.0, None  # model: (running, left at `now`) or None
    for gap, data in steps:
        now += gap
        if model is not None and model[0]:
            model = (True, max(0.0, model[1] - gap))
        try:
            t.enter(MANAGER, "clock", data, at=now)
        except RefusedError:
            continue
        action, seconds = data["action"], data.get("seconds", 0)
        if action == "start":
            model = (True, float(seconds))
        elif action == "clear":
            model = None
        elif model is not None:
            running = {"pause": False, "resume": True}.get(action, model[0])
            model = (running, model[1] + (seconds if action == "add" else 0))
    if model is None:
        assert t.hall_view(MANAGER)["clock"] is None
    else:
        seen = clock_at(t, now + later)
        expected = max(0.0, model[1] - later) if model[0] else model[1]
        assert seen["running"] == model[0]
        assert seen["left"] == pytest.approx(expected, abs=1e-6)
    replayed = Hall(t.entries)
    assert replayed.clock == t.hall.clock
