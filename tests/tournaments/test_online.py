"""Online results belong to the table (issue 35, 8), without a server: what an online
table entered is corrected by the manager only; the table's sync compares the hands'
contents with the match, not their number, and says where they differ; at a game
played online, only the manager names a replacement, and the quitter's seat is
given up at the quit. The tables themselves, through HTTP, are
tests/server/test_event_tables.py.

The matches here are stand-ins holding only what `Kind.sync` reads: a Pits match's
finishing orders by seat, a Pitch match's first dealer and scored hands."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pitkit.games.pitch.scoring import score_pad
from pitkit.tournaments import Tournament
from pitkit.tournaments.log import DIFFERS, Actor, Entry, ForbiddenError
from tests.tournaments.desk import Desk, PitchDesk

FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]
TABLE = Actor("table", "t1")


def _pits_match(*orders: list[int]) -> Any:
    """A Pits match that has played these hands (each a finishing order by seat)."""
    return SimpleNamespace(results=[SimpleNamespace(detail={"order": o}) for o in orders])


def _sync(desk: Desk, match: Any, table: str = "t1") -> list[tuple[str, dict[str, Any]]]:
    tournament = desk.tournament
    return tournament.kind.sync(tournament.state, table, match)


def _feed(desk: Desk, match: Any) -> list[Entry]:
    """Enter what the table's sync calls for, as the online table."""
    return [desk.ok(TABLE, type, **data) for type, data in _sync(desk, match)]


def _online_pits() -> Desk:
    """Game 1 (Ann..Eve, Ann keeps the sheet) at online table t1; Fay and Gus free."""
    desk = Desk()
    for name in [*FIVE, "Fay", "Gus"]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=FIVE, scorer="Ann")
    desk.ok(desk.manager, "open_table", game=1, table_id="t1")
    return desk


# Cat (seat 2) 1st in hand 1; then the order moves round the table.
PLAYED = [[2, 0, 1, 3, 4], [0, 1, 2, 3, 4], [1, 2, 3, 4, 0], [3, 4, 0, 1, 2]]


def test_a_scorer_cannot_rewrite_what_the_online_table_entered() -> None:
    desk = _online_pits()
    entered = _feed(desk, _pits_match(*PLAYED[:2]))
    assert [e.type for e in entered] == ["hand", "hand"]
    assert entered[0].data["order"] == ["Cat", "Ann", "Bob", "Dan", "Eve"]
    ann, bob = desk.by["Ann"], desk.by["Bob"]
    first = entered[0].seq
    mine = {"game": 1, "hand": 1, "order": ["Ann", "Cat", "Bob", "Dan", "Eve"]}
    for who in (ann, bob):  # the scorer, and another player at the table
        why = desk.refused(ForbiddenError, who, "hand", corrects=first, **mine)
        assert "entered by the online table" in why and "only the manager" in why
        desk.refused(ForbiddenError, who, "void", corrects=first)
    assert desk.view()["games"][0]["hands"][0]["order"][0] == "Cat"
    # Nor may anyone but the table say where its play differs.
    for who in (desk.manager, ann, Actor("table", "t2")):
        desk.refused(ForbiddenError, who, DIFFERS, game=1, hand=1, played=[], sheet=[])
    # The table goes on: its sync finds every hand as played.
    assert [e.data["hand"] for e in _feed(desk, _pits_match(*PLAYED[:3]))] == [3]
    assert _sync(desk, _pits_match(*PLAYED[:3])) == []


def test_the_sync_compares_contents_and_a_managers_correction_stands() -> None:
    desk = _online_pits()
    first = _feed(desk, _pits_match(*PLAYED[:2]))[0].seq
    ruled = ["Ann", "Cat", "Bob", "Dan", "Eve"]
    desk.enter(desk.manager, "hand", corrects=first, game=1, hand=1, order=ruled)
    said = _sync(desk, _pits_match(*PLAYED[:3]))
    assert [type for type, _ in said] == [DIFFERS, "hand"]  # it says so, and goes on
    differs = said[0][1]
    assert differs["hand"] == 1 and differs["sheet"] == ruled
    assert differs["played"] == ["Cat", "Ann", "Bob", "Dan", "Eve"]
    assert "the manager's correction stands" in differs["note"]
    for type, data in said:
        desk.ok(TABLE, type, **data)
    assert _sync(desk, _pits_match(*PLAYED[:3])) == []  # said once
    assert desk.view()["games"][0]["hands"][0]["order"] == ruled
    assert len(desk.view()["games"][0]["hands"]) == 3


def test_a_sheet_changed_before_the_rule_stops_the_table_until_the_manager_rules() -> None:
    # A log stored before only the manager could correct an online table's hand: the
    # scorer turned hand 1 (Cat 1st) into Ann 1st. Counting the hands, the table
    # would go on entering hands under it; comparing them, it says so and waits.
    desk = _online_pits()
    fed = _feed(desk, _pits_match(PLAYED[0]))
    ann = {"game": 1, "hand": 1, "order": ["Ann", "Cat", "Bob", "Dan", "Eve"]}
    forced = Entry(desk.tournament.last + 1, 99.0, "player", "Ann", "hand", ann, fed[0].seq)
    kind = desk.tournament.kind
    desk.tournament = Tournament(kind, {}, [*desk.tournament.entries, forced])
    said = _sync(desk, _pits_match(*PLAYED[:3]))
    assert [type for type, _ in said] == [DIFFERS]
    assert "enters no more hands until the manager corrects it" in said[0][1]["note"]
    desk.ok(TABLE, DIFFERS, **said[0][1])
    assert _sync(desk, _pits_match(*PLAYED[:3])) == []  # said once; no hand entered
    assert len(desk.view()["games"][0]["hands"]) == 1
    # The manager puts the hand back as played: the table enters the rest.
    desk.enter(desk.manager, "hand", corrects=fed[0].seq, **fed[0].data)
    assert [e.data["hand"] for e in _feed(desk, _pits_match(*PLAYED[:3]))] == [2, 3]


def test_at_an_online_game_only_the_manager_names_a_replacement() -> None:
    desk = _online_pits()
    _feed(desk, _pits_match(*PLAYED[:2]))
    eve = desk.by["Eve"]
    asks: list[dict[str, Any]] = [{"replacement": "Fay"}, {}]
    for data in asks:
        why = desk.refused(ForbiddenError, eve, "quit", game=1, player="Eve", **data)
        assert "only the manager" in why and "replacement" in why
    kind, state = desk.tournament.kind, desk.tournament.state
    assert kind.seat_at(state, "t1", "Eve") == 4
    quit = desk.ok(desk.manager, "quit", game=1, player="Eve", replacement="Fay")
    # The quitter's seat is given up at the quit: the server ends its secret then.
    assert kind.vacated(state, quit) == [("t1", 4)]
    assert kind.seat_at(state, "t1", "Fay") == 4
    with pytest.raises(ForbiddenError, match="Eve does not play game 1"):
        kind.seat_at(state, "t1", "Eve")
    # Eve's hands still agree with the match, seat by seat; Fay's are named for her.
    fed = _feed(desk, _pits_match(*PLAYED))
    assert [e.type for e in fed] == ["hand", "hand"]
    assert fed[0].data["order"] == ["Bob", "Cat", "Dan", "Fay", "Ann"]


def test_a_game_played_with_cards_keeps_its_quits_as_they_were() -> None:
    desk = Desk()
    for name in [*FIVE, "Fay"]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=FIVE)
    quit = desk.ok(desk.by["Eve"], "quit", game=1, player="Eve", replacement="Fay")
    assert desk.tournament.kind.vacated(desk.tournament.state, quit) == []
    assert desk.view()["games"][0]["seats"][4] == ["Eve", "Fay"]


def _pitch_match(first_dealer: int, *hands: dict[str, Any]) -> Any:
    """A Pitch match of three that has scored these hands (seats as in `score_pad`)."""
    results = [SimpleNamespace(result=score_pad([0, 1, 2], **hand)) for hand in hands]
    return SimpleNamespace(sheet=SimpleNamespace(first_dealer=first_dealer, entries=results))


def _hand(pitcher: int, bid: int, winner: int) -> dict[str, Any]:
    return {"pitcher": pitcher, "bid": bid, "trump": "H", "high": winner, "low": winner,
            "jack": None, "game": winner}  # fmt: skip


def test_a_dealer_and_a_judge_cannot_rewrite_what_the_online_table_entered() -> None:
    desk = PitchDesk()
    for name in ["Ann", "Bob", "Cat"]:
        desk.add(name)
    desk.judge("Jo")
    desk.ok(desk.manager, "seat_round", by="draw", seed=7, judges=["Jo"])
    desk.ok(desk.manager, "open_table", round=1, table=1, table_id="t1")
    players = desk.table(1, 1)["players"]
    match = _pitch_match(0, _hand(0, 2, 0), _hand(1, 3, 0))
    fed = _feed(desk, match)
    assert [e.type for e in fed] == ["cut", "hand", "hand"]
    cut, line = fed[0], fed[1]
    dealer = desk.by[players[0]]  # the first dealer, who dealt line 1
    jo = desk.by["Jo"]
    mine = {**line.data, "high": players[1], "game": players[1]}
    for who in (dealer, jo):
        why = desk.refused(ForbiddenError, who, "hand", corrects=line.seq, **mine)
        assert "entered by the online table" in why
        desk.refused(ForbiddenError, who, "void", corrects=line.seq)
        desk.refused(ForbiddenError, who, "cut", corrects=cut.seq, **cut.data)
        desk.refused(ForbiddenError, who, DIFFERS, **{**line.data, "sheet": {}, "played": {}})
    assert _sync(desk, match) == []
    # The judge still initials the table's lines.
    desk.confirm(1, 1, 1)
    # The manager may correct a pending line: the table says so once, and goes on.
    desk.enter(desk.manager, "hand", corrects=fed[2].seq, **{**fed[2].data, "bid": 4})
    match = _pitch_match(0, _hand(0, 2, 0), _hand(1, 3, 0), _hand(2, 2, 2))
    said = _sync(desk, match)
    assert [type for type, _ in said] == [DIFFERS, "hand"]
    assert said[0][1]["line"] == 2 and said[0][1]["sheet"]["bid"] == 4
    assert "the manager's correction stands" in said[0][1]["note"]
    for type, data in said:
        desk.ok(TABLE, type, **data)
    assert _sync(desk, match) == []
    assert [line["pad"]["bid"] for line in desk.table(1, 1)["lines"]] == [2, 4, 2]
