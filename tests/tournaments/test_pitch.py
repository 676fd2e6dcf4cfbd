"""The Darrtown Pitch tournament's rules, without a server (seeds/pitch.txt, the
TOURNAMENT column; rulings C1-C11): Go-Rounds seated within the rules and the
draw kept in the log, judges confined to their tables, refusals that change
nothing, the `advance` option and ties at the cut. The tournament end to end,
through HTTP, is tests/server/test_pitch_event.py.

Each test says which sentences of the seed's tournament column it covers."""

from __future__ import annotations

from typing import Any

import pytest

from pitkit.tournaments import Tournament
from pitkit.tournaments.log import PUBLIC_ACTOR, Entry, ForbiddenError, RefusedError, replay
from pitkit.tournaments.pitch import KIND as PITCH
from tests.tournaments.desk import PitchDesk

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def test_seating_within_the_rules_table_sizes_and_the_draw_is_stored() -> None:
    # Topic 2: "Two to four players" a table (C1), asked of the Rules.
    desk = PitchDesk()
    manager = desk.manager
    assert "at least 2 players, not 0" in desk.refused(
        RefusedError, manager, "seat_round", by="draw"
    )
    for n in range(9):
        desk.add(f"P{n}")
    assert "9 players at 2 tables would seat 5 at a table: tournament tables seat 2 to 4" in (
        desk.refused(RefusedError, manager, "seat_round", by="draw", tables=2)
    )
    assert "would seat 1 at a table" in desk.refused(
        RefusedError, manager, "seat_round", by="draw", tables=5
    )
    assert "by draw or by standing" in desk.refused(RefusedError, manager, "seat_round", by="lots")
    assert "a seed is for a draw" in desk.refused(
        RefusedError, manager, "seat_round", by="standing", seed=3
    )
    assert "Zed is not on the roster" in desk.refused(
        RefusedError, manager, "seat_round", by="draw", players=["P1", "Zed"]
    )
    assert "not one of the judges" in desk.refused(
        RefusedError, manager, "seat_round", by="draw", judges=["Nobody"]
    )
    # The server draws; a seating given as if drawn is refused.
    assert "the server" in desk.refused(
        RefusedError, manager, "seat_round", by="draw", seating=[["P0", "P1"]]
    )
    entry = desk.ok(manager, "seat_round", by="draw", seed=7)
    seating = entry.data["seating"]
    assert entry.data["seed"] == 7 and [len(t) for t in seating] == [3, 3, 3]
    assert sorted(p for t in seating for p in t) == [f"P{n}" for n in range(9)]
    # The seating is in the log, and the view is the log's.
    assert [t["players"] for t in desk.view()["rounds"][0]["tables"]] == seating
    logged = next(e for e in desk.read()["log"] if e["type"] == "seat_round")
    assert logged["data"]["seating"] == seating
    # The roster closes once Go-Round 1 is seated.
    assert "roster is closed" in desk.refused(RefusedError, manager, "add_player", name="Late")
    # A draw without a seed: the server picks one, and stores it with the seating.
    other = PitchDesk()
    for n in range(5):
        other.add(f"Q{n}")
    data = other.ok(other.manager, "seat_round", by="draw").data
    assert isinstance(data["seed"], int) and [len(t) for t in data["seating"]] == [3, 2]
    # The log read back (another worker, a restart) seats the same tables.
    again = Tournament(PITCH, other.tournament.options, other.tournament.entries)
    assert [t.players for t in again.state.rounds[0].tables] == data["seating"]


def test_replay_reads_the_stored_seating_and_never_draws_again() -> None:
    # The log's seating is used as it stands, whatever the seed would draw now.
    entries = [
        Entry(n, 0.0, "manager", None, "add_player", {"name": name})
        for n, name in enumerate(["Ann", "Bob", "Cat", "Dan"], 1)
    ]
    seating = [["Dan", "Ann"], ["Cat", "Bob"]]
    data = {"by": "draw", "seed": 1, "tables": 2, "seating": seating}
    entries.append(Entry(5, 0.0, "manager", None, "seat_round", data))
    for _ in range(3):
        state = replay(PITCH, PITCH.options({}), entries)
        assert [t.players for t in state.rounds[0].tables] == seating


def test_judges_are_confined_to_their_tables_and_two_judges_at_once() -> None:
    # Topic 31: "the dealer signals to/calls for a tournament judge to ... confirm";
    # topic 35: the judge records "her/his initials on the score pad".
    desk = PitchDesk()
    for name in EIGHT[:4]:
        desk.add(name)
    desk.judge("Jo Dee")
    desk.judge("Max Ray")
    desk.ok(desk.manager, "seat_round", by="standing", tables=2, judges=["Jo Dee", "Max Ray"])
    # Table 1: Ann, Cat (judge Jo); table 2: Bob, Dan (judge Max).
    jo, max_, ann, bob, cat = (desk.by[n] for n in ["Jo Dee", "Max Ray", "Ann", "Bob", "Cat"])
    assert "does not judge table 1 of Go-Round 1 (judge Jo Dee)" in desk.refused(
        ForbiddenError, max_, "cut", round=1, table=1, dealer="Ann"
    )
    assert "only the judge of table 1" in desk.refused(
        ForbiddenError, ann, "cut", round=1, table=1, dealer="Ann"
    )
    desk.ok(jo, "cut", round=1, table=1, dealer="Ann")
    pad: dict[str, Any] = {"round": 1, "table": 1, "line": 1, "bid": 2, "pitcher": "Ann",
                           "trump": "D", "high": "Ann", "low": "Cat", "jack": "Cat",
                           "game": None}  # fmt: skip
    # Only the dealer records the hand (or the manager); the judge confirms it.
    assert "Ann deals this hand" in desk.refused(ForbiddenError, cat, "hand", **pad)
    assert "Bob does not play at table 1" in desk.refused(ForbiddenError, bob, "hand", **pad)
    assert "the judge confirms it" in desk.refused(ForbiddenError, jo, "hand", **pad)
    assert "public" in desk.refused(ForbiddenError, PUBLIC_ACTOR, "hand", **pad)
    desk.ok(ann, "hand", **pad)
    # A judge confirming a table that is not theirs; the judge's own initials only.
    assert "does not judge table 1" in desk.refused(
        ForbiddenError, max_, "confirm", round=1, table=1, line=1
    )
    assert "only the judge" in desk.refused(
        ForbiddenError, cat, "confirm", round=1, table=1, line=1
    )
    assert "initials JD, not XY" in desk.refused(
        RefusedError, jo, "confirm", round=1, table=1, line=1, initials="XY"
    )
    assert "give the initials" in desk.refused(
        RefusedError, desk.manager, "confirm", round=1, table=1, line=1
    )
    desk.ok(jo, "confirm", round=1, table=1, line=1, initials="jd")
    assert "confirmed line 1 already" in desk.refused(
        RefusedError, jo, "confirm", round=1, table=1, line=1
    )
    _two_judges_and_the_managers_entries(desk, pad)


def _two_judges_and_the_managers_entries(desk: PitchDesk, pad: dict[str, Any]) -> None:
    """The rest of the judges' test: line 1 at table 1 confirmed by Jo."""
    jo, max_, ann, cat = (desk.by[n] for n in ["Jo Dee", "Max Ray", "Ann", "Cat"])
    # The manager hands table 1 to Max: the line Jo initialled is not Max's to initial.
    desk.ok(desk.manager, "assign_judge", round=1, table=1, judge="Max Ray")
    assert "two judges at once" in desk.refused(
        RefusedError, max_, "confirm", round=1, table=1, line=1
    )
    assert "does not judge table 1" in desk.refused(
        ForbiddenError, jo, "appeal", round=1, table=1, offender="Cat"
    )
    # Two judges confirming the same hand: the first stands, the second is refused.
    desk.ok(cat, "hand", **{**pad, "line": 2, "pitcher": "Cat"})
    desk.ok(max_, "confirm", round=1, table=1, line=2)
    assert "two judges at once" in desk.refused(
        RefusedError, desk.manager, "confirm", round=1, table=1, line=2, initials="TM"
    )
    assert desk.table(1, 1)["lines"][1]["status"] == "confirmed"
    # Only the manager runs the rosters and the Go-Rounds.
    assert "only the tournament manager" in desk.refused(
        ForbiddenError, jo, "add_player", name="Zed"
    )
    assert "only the tournament manager" in desk.refused(
        ForbiddenError, ann, "seat_round", by="draw"
    )
    assert "only the tournament manager" in desk.refused(
        ForbiddenError, max_, "assign_judge", round=1, table=2, judge="Max Ray"
    )
    # The public sees the tournament, and no judge's or player's own part.
    assert "mine" not in desk.view() and "mine" in desk.view(jo)


def test_options_are_checked() -> None:
    with pytest.raises(RefusedError, match="advance is 1 to 3"):
        PITCH.options({"advance": 4})
    with pytest.raises(RefusedError, match="only option is advance"):
        PITCH.options({"rounds": 2})


def test_bad_entries_are_refused_and_change_nothing() -> None:
    # Topic 35: the pad's lines in order, each a hand that can be ("Players may bid two,
    # three, or four points", topic 15; a trump suit); topic 37: a ruling of "not
    # correctable" needs "the highest bid made in the misplayed hand", and the offender
    # "sit out (not participate in) the next hand"; one ruling an appeal.
    desk = PitchDesk()
    for name in EIGHT[:3]:
        desk.add(name)
    desk.judge("Jo Dee")
    manager = desk.manager
    assert "already" in desk.refused(RefusedError, manager, "add_player", name="ann")
    assert "is a judge" in desk.refused(RefusedError, manager, "add_player", name="Jo Dee")
    assert "no 'bribe' entries" in desk.refused(RefusedError, manager, "bribe")
    assert "no Go-Round 1" in desk.refused(
        RefusedError, manager, "cut", round=1, table=1, dealer="Ann"
    )
    desk.ok(manager, "seat_round", by="standing", judges=["Jo Dee"])
    jo, ann = desk.by["Jo Dee"], desk.by["Ann"]
    assert "has no table 2" in desk.refused(RefusedError, jo, "cut", round=1, table=2, dealer="Ann")
    assert "Zed does not play" in desk.refused(
        RefusedError, jo, "cut", round=1, table=1, dealer="Zed"
    )
    desk.ok(jo, "cut", round=1, table=1, dealer="Ann")
    assert "cut already" in desk.refused(RefusedError, jo, "cut", round=1, table=1, dealer="Bob")
    pad: dict[str, Any] = {"round": 1, "table": 1, "line": 1, "bid": 3, "pitcher": "Ann",
                           "trump": "S", "high": "Ann", "low": "Bob", "jack": "Cat",
                           "game": "Ann"}  # fmt: skip
    # Pad lines that cannot be.
    assert "2, 3 or 4" in desk.refused(RefusedError, ann, "hand", **{**pad, "bid": 5})
    assert "a suit is" in desk.refused(RefusedError, ann, "hand", **{**pad, "trump": "X"})
    assert "Zed does not play" in desk.refused(RefusedError, ann, "hand", **{**pad, "high": "Zed"})
    assert "give a low" in desk.refused(RefusedError, ann, "hand", **{**pad, "low": None})
    assert "next line of table 1 of Go-Round 1's pad is line 1" in desk.refused(
        RefusedError, ann, "hand", **{**pad, "line": 3}
    )
    first = desk.ok(ann, "hand", **pad).seq
    assert f"line 1 of table 1 of Go-Round 1's pad is entered already (entry #{first})" in (
        desk.refused(RefusedError, manager, "hand", **pad)
    )
    _corrections_and_appeals(desk, pad, first)


def _corrections_and_appeals(desk: PitchDesk, pad: dict[str, Any], first: int) -> None:
    """The rest of the bad entries: a hand line 1 at table 1 entered by Ann (`first`)."""
    jo, ann, bob = desk.by["Jo Dee"], desk.by["Ann"], desk.by["Bob"]
    # A hand not yet confirmed may be corrected (by its dealer); the original stays in the log.
    desk.enter(ann, "hand", corrects=first, **{**pad, "bid": 4, "game": "Bob"})
    assert desk.table(1, 1)["scores"] == {"Ann": -4, "Bob": 2, "Cat": 1}
    desk.refused(ForbiddenError, bob, "hand", corrects=first, **pad)
    desk.ok(jo, "confirm", round=1, table=1, line=1)
    desk.refused(RefusedError, ann, "hand", corrects=first, **pad)  # confirmed: it stands
    assert "no line 5" in desk.refused(RefusedError, jo, "confirm", round=1, table=1, line=5)
    # Appeals and rulings that cannot be.
    assert "Zed does not play" in desk.refused(
        RefusedError, bob, "appeal", round=1, table=1, offender="Zed"
    )
    appeal = desk.ok(bob, "appeal", round=1, table=1, offender="Cat").seq
    assert "open at table 1" in desk.refused(
        RefusedError, bob, "appeal", round=1, table=1, offender="Ann"
    )
    assert "the judge rules on it first" in desk.refused(
        RefusedError, bob, "hand", **{**pad, "line": 2}
    )
    assert "only the judge" in desk.refused(
        ForbiddenError, bob, "rule_misplay", appeal=appeal, correctable=True
    )
    assert "highest bid" in desk.refused(
        RefusedError, jo, "rule_misplay", appeal=appeal, correctable=False
    )
    assert "true or false" in desk.refused(
        RefusedError, jo, "rule_misplay", appeal=appeal, correctable="no"
    )
    assert "no appeal #99" in desk.refused(
        RefusedError, jo, "rule_misplay", appeal=99, correctable=True
    )
    desk.ok(jo, "rule_misplay", appeal=appeal, correctable=False, highest_bid=2)
    assert "ruled on already" in desk.refused(RefusedError, jo, "dismiss_appeal", appeal=appeal)
    # The uncorrectable misplay: Cat sits out the next hand, so she cannot appear on it.
    assert desk.table(1, 1)["sitting_out"] == ["Cat"]
    assert "Cat sits out this hand" in desk.refused(
        RefusedError, jo, "appeal", round=1, table=1, offender="Cat"
    )
    assert desk.table(1, 1)["lines"][1]["kind"] == "misplay"
    assert "not a scored hand" in desk.refused(
        RefusedError, jo, "confirm", round=1, table=1, line=2
    )
    # An appeal the judge dismisses counts for nothing.
    appeal = desk.ok(bob, "appeal", round=1, table=1, offender="Ann").seq
    desk.ok(jo, "dismiss_appeal", appeal=appeal)
    assert [r["player"] for r in desk.view()["register"]] == ["Cat"]
    # Three players make one table: the final, and nothing comes after it.
    assert "Go-Round 1 is the final: it is still being played" in desk.refused(
        RefusedError, desk.manager, "seat_round", by="standing"
    )


def test_advance_option_ties_at_the_cut_and_a_final_table() -> None:
    # Intro: "elimination rounds"; topic 1: ties for the most points "play additional
    # hands" (C10), but a tie for a later place is not broken: with advance=2 players
    # tied at the cut go on together, unless that would be the whole table.
    desk = PitchDesk(advance=2)
    assert desk.tournament.options == {"advance": 2}
    for name in EIGHT[:6]:
        desk.add(name)
    desk.ok(desk.manager, "seat_round", by="standing", tables=2)
    tables = [t["players"] for t in desk.view()["rounds"][0]["tables"]]
    assert tables == [["Ann", "Cat", "Eve"], ["Bob", "Dan", "Fay"]]
    for n, players in enumerate(tables, 1):
        desk.ok(desk.manager, "cut", round=1, table=n, dealer=players[0])
    # Table 1: Ann wins, Cat second, Eve third (no judge: the manager initials).
    while desk.table(1, 1)["outcome"] is None:
        dealer = desk.table(1, 1)["dealer"]
        second = "Cat" if dealer == "Cat" else "Ann"
        desk.hand(1, 1, bid=2, pitcher="Ann", high="Ann", low=second, game="Ann")
        line = desk.table(1, 1)["next_line"] - 1
        desk.ok(desk.manager, "confirm", round=1, table=1, line=line, initials="TM")
    # The next Go-Round waits for every table of this one.
    assert "Go-Round 1 is not over: table 2 of Go-Round 1 is still playing" in desk.refused(
        RefusedError, desk.manager, "seat_round", by="standing"
    )
    # Table 2: Bob wins; Dan and Fay tie for second.
    while desk.table(1, 2)["outcome"] is None:
        desk.hand(1, 2, bid=2, pitcher="Bob", high="Bob", low="Bob", game="Bob")
        line = desk.table(1, 2)["next_line"] - 1
        desk.ok(desk.manager, "confirm", round=1, table=2, line=line, initials="TM")
    view = desk.view()
    assert view["rounds"][0]["tables"][0]["advancing"] == ["Ann", "Cat"]
    assert view["rounds"][0]["tables"][1]["advancing"] == ["Bob"]  # a tie for the whole table
    assert "3 players go on" in view["status"]
    desk.ok(desk.manager, "seat_round", by="standing")
    final = desk.view()["rounds"][1]
    assert final["final"] and sorted(final["tables"][0]["players"]) == ["Ann", "Bob", "Cat"]
