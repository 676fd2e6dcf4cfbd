"""Checking players in (pitkit/tournaments/checkin.py): who may mark whom present or
absent, what is refused, and that only present players are seated, at a Pits game
and at a Pitch Go-Round; an event without a check-in desk seats everyone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitkit.tournaments import KINDS, Tournament
from pitkit.tournaments.log import Actor, ForbiddenError, RefusedError
from tests.tournaments.desk import PLAYERS, Desk, PitchDesk

FIVE = PLAYERS[:5]


def hall(kind: str = "pits-continuous") -> Desk:
    """An event that checks its players in, with the seven players on its roster."""
    desk = PitchDesk(check_in=True) if kind == "pitch-tournament" else Desk(kind, check_in=True)
    for name in PLAYERS:
        desk.add(name)
    return desk


def present(desk: Desk) -> list[str]:
    names: list[str] = desk.view()["check_in"]["present"]
    return names


def test_the_option_is_true_or_false_and_an_event_without_it_keeps_its_options() -> None:
    for kind in KINDS.values():
        assert kind.options({"check_in": True})["check_in"] is True
        assert "check_in" not in kind.options({"check_in": False})
        with pytest.raises(RefusedError, match="true or false"):
            kind.options({"check_in": "yes"})
    assert KINDS["pits-continuous"].options({}) == {}


def test_a_player_checks_in_only_themselves_and_the_manager_marks_anyone() -> None:
    desk = hall()
    ann, bob = desk.by["Ann"], desk.by["Bob"]
    assert "only themselves" in desk.refused(ForbiddenError, ann, "check_in", player="Bob")
    assert "only themselves" in desk.refused(
        ForbiddenError, ann, "check_in", player="Ann", present=False
    )
    assert "only a player" in desk.refused(
        ForbiddenError, Actor("judge", "Jo"), "check_in", player="Ann"
    )
    assert "public" in desk.refused(ForbiddenError, Actor("public"), "check_in", player="Ann")
    desk.ok(ann, "check_in", player="Ann")
    desk.ok(desk.manager, "check_in", player="Bob")
    assert present(desk) == ["Ann", "Bob"]
    marks = desk.view()["check_in"]["marks"]
    assert marks["Ann"]["by"] == "Ann" and marks["Bob"]["by"] == "the manager"
    log = desk.tournament.log()
    assert [(e["by"], e["data"]["player"]) for e in log if e["type"] == "check_in"] == [
        ("Ann", "Ann"),
        ("the manager", "Bob"),
    ]
    # Checked in twice, absent twice, absent before ever present: refused, nothing changed.
    twice = desk.refused(RefusedError, bob, "check_in", player="Bob")
    assert twice == f"Bob is checked in already (entry #{marks['Bob']['entry']})"
    desk.ok(desk.manager, "check_in", player="Bob", present=False)
    assert "marked absent already" in desk.refused(
        RefusedError, desk.manager, "check_in", player="Bob", present=False
    )
    assert "absent already" in desk.refused(
        RefusedError, desk.manager, "check_in", player="Cat", present=False
    )
    assert "not on the roster" in desk.refused(RefusedError, desk.manager, "check_in", player="Zed")
    assert "true or false" in desk.refused(
        RefusedError, desk.manager, "check_in", player="Cat", present="no"
    )
    assert present(desk) == ["Ann"]
    assert desk.view()["check_in"]["absent"] == PLAYERS[1:]


def test_an_event_without_a_desk_seats_everyone_and_takes_no_check_in() -> None:
    desk = Desk()
    for name in PLAYERS:
        desk.add(name)
    assert "without a check-in desk" in desk.refused(
        RefusedError, desk.manager, "check_in", player="Ann"
    )
    assert desk.view()["check_in"] == {
        "on": False,
        "present": PLAYERS,
        "absent": [],
        "marks": {},
    }
    desk.ok(desk.manager, "start_game", players=FIVE)


def test_a_pits_game_seats_only_players_present_and_so_does_a_replacement() -> None:
    desk = hall()
    for name in FIVE[:4]:
        desk.ok(desk.by[name], "check_in", player=name)
    refusal = desk.refused(RefusedError, desk.manager, "start_game", players=FIVE)
    assert "Eve is not checked in" in refusal
    desk.ok(desk.manager, "check_in", player="Eve")
    desk.ok(desk.manager, "start_game", players=FIVE)
    # Fay is not here: she may not take Eve's seat; once ticked in, she may.
    assert "Fay is not checked in" in desk.refused(
        RefusedError, desk.manager, "quit", game=1, player="Eve", replacement="Fay"
    )
    desk.ok(desk.manager, "check_in", player="Fay")
    desk.ok(desk.manager, "quit", game=1, player="Eve", replacement="Fay")
    # Marked absent while playing: the game goes on (absence only stops a new seat).
    desk.ok(desk.manager, "check_in", player="Ann", present=False)
    assert desk.view()["games"][0]["at_table"] == ["Ann", "Bob", "Cat", "Dan", "Fay"]


def test_a_pitch_go_round_seats_only_players_present() -> None:
    desk = hall("pitch-tournament")
    here = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    for name in here:
        desk.ok(desk.by[name], "check_in", player=name)
    entry = desk.ok(desk.manager, "seat_round", by="draw", seed=7)
    seated = sorted(name for table in entry.data["seating"] for name in table)
    assert seated == here
    # The log replayed (a restart) seats the same players: the check-ins come first.
    again = Tournament(desk.tournament.kind, desk.tournament.options, desk.tournament.entries)
    assert again.view(desk.manager) == desk.tournament.view(desk.manager)


def test_a_pitch_seating_naming_an_absent_player_is_refused() -> None:
    desk = hall("pitch-tournament")
    for name in ["Ann", "Bob", "Cat"]:
        desk.ok(desk.manager, "check_in", player=name)
    assert "Dan is not checked in" in desk.refused(
        RefusedError, desk.manager, "seat_round", by="standing", players=["Ann", "Bob", "Dan"]
    )
    desk.ok(desk.manager, "seat_round", by="standing", players=["Ann", "Bob", "Cat"])


def test_a_pitch_player_who_advances_but_is_marked_absent_is_not_seated_again() -> None:
    desk = hall("pitch-tournament")
    assert isinstance(desk, PitchDesk)
    for name in PLAYERS[:4]:
        desk.ok(desk.manager, "check_in", player=name)
    desk.judge("Jo")
    desk.ok(desk.manager, "seat_round", by="standing", tables=2, judges=["Jo", "Jo"])
    tables = [t["players"] for t in desk.view()["rounds"][0]["tables"]]
    for number, players in enumerate(tables, 1):
        desk.ok(desk.by["Jo"], "cut", round=1, table=number, dealer=players[0])
        desk.play_out(1, number, players[0])
    winners = [players[0] for players in tables]
    desk.ok(desk.manager, "check_in", player=winners[0], present=False)
    assert "a Go-Round needs at least 2 players" in desk.refused(
        RefusedError, desk.manager, "seat_round", by="standing"
    )
    desk.ok(desk.manager, "check_in", player=winners[0])
    final = desk.ok(desk.manager, "seat_round", by="standing")
    assert sorted(final.data["seating"][0]) == sorted(winners)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(PLAYERS), st.booleans(), st.booleans()), min_size=1, max_size=30
    )
)
def test_who_is_present_is_the_last_entry_taken_for_each_and_a_replay_agrees(
    marks: list[tuple[str, bool, bool]],
) -> None:
    # Any sequence of ticks (by the player themselves, or the manager): each is taken
    # or refused as a whole, and a player is present exactly when the last entry
    # taken for them said so; the log replayed shows the same desk.
    desk = hall()
    expected: dict[str, bool] = {}
    for name, by_self, now in marks:
        actor = desk.by[name] if by_self else desk.manager
        try:
            desk.enter(actor, "check_in", player=name, present=now)
        except (RefusedError, ForbiddenError):
            continue
        expected[name] = now
    assert present(desk) == [p for p in PLAYERS if expected.get(p)]
    again = Tournament(desk.tournament.kind, desk.tournament.options, desk.tournament.entries)
    assert again.view(desk.manager)["check_in"] == desk.view()["check_in"]
