"""The pads the seeds keep, filled by an event's online tables: a Pits table enters its
game's first dealer, a Pitch table every line's bidding and each player's counted game
points (and the bidding of the hand in play), and the pads read back the same through
HTTP as the rules made them (tests/tournaments/test_pads.py has the rules)."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import ServerThread
from tests.server.test_event_tables import _bearer, _bots_everywhere
from tests.server.test_events import PLAYERS, Desk
from tests.waiting import wait_until


def test_an_online_pits_table_enters_its_first_dealer(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS[:5]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5])
    table = desk.ok(desk.manager, "open_table", game=1, bot_delay=0)["table"]
    # Nobody else says who deals first at an online game.
    assert "online" in desk.refused(409, desk.manager, "first_dealer", game=1, dealer=PLAYERS[0])
    _bots_everywhere(server, table, 5)

    def first() -> dict[str, Any] | None:
        game: dict[str, Any] = desk.read()["view"]["games"][0]
        return game if game["first_dealer"] and game["hands"] else None

    game = wait_until(first, 60, "the table's first dealer and hand 1")
    assert game is not None
    assert game["first_dealer"]["how"] == "online"
    assert game["hands"][0]["dealt"] == game["first_dealer"]["player"]
    log = desk.read()["log"]
    made = next(e for e in log if e["type"] == "first_dealer")
    assert made["by"] == "the online table" and made["seq"] < log[-1]["seq"]
    assert [e["type"] for e in log].count("first_dealer") == 1


def test_an_online_pitch_table_enters_the_bidding_and_the_counts(server: ServerThread) -> None:
    desk = Desk(server, "pitch-tournament")
    for name in PLAYERS[:3]:
        desk.add(name)
    judge = desk.ok(desk.manager, "add_judge", name="Jo", initials="JO")["link"]["token"]
    desk.ok(desk.manager, "seat_round", by="draw", seed=7, judges=["Jo"])
    table = desk.ok(desk.manager, "open_table", round=1, table=1, bot_delay=0)["table"]
    players = desk.read()["view"]["rounds"][0]["tables"][0]["players"]
    assert "online" in desk.refused(409, judge, "bidding", round=1, table=1, calls=["2"])
    seat = server.http.post(
        f"/api/tables/{table['id']}/event-seat", headers=_bearer(desk.tokens[players[0]])
    )
    assert seat.status_code == 200
    _bots_everywhere(server, table, 3)

    def over() -> dict[str, Any] | None:
        found: dict[str, Any] = desk.read()["view"]["rounds"][0]["tables"][0]
        return found if found["lines"] and not found["dealer"] else None

    pad = wait_until(over, 120, "the online game's end")
    assert pad is not None
    hands = [line for line in pad["lines"] if line["kind"] == "hand"]
    assert len(hands) >= 6  # every player deals twice (C10)
    for line in hands:
        bidding, counts = line["bidding"], line["counts"]
        assert bidding["pitcher"] == line["pad"]["pitcher"] and bidding["bid"] == line["pad"]["bid"]
        assert bidding["calls"][0]["player"] != line["dealer"]  # the left calls first
        assert set(counts) == set(line["seated"]) and line["counted_by"] == "the online table"
        top = max(counts.values())
        leaders = [p for p, n in counts.items() if n == top]
        assert line["pad"]["game"] == (leaders[0] if len(leaders) == 1 else None)  # topic 33
    log = desk.read()["log"]
    assert all(e["by"] == "the online table" for e in log if e["type"] in ("bidding", "hand"))
    # The judge initials each line with the counts the table entered.
    for line in hands:
        desk.ok(judge, "confirm", round=1, table=1, line=line["line"], counts=line["counts"])
