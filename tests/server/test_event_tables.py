"""An event's games played online: the manager opens a pitkit table for a game,
each player takes their seat with their own event link, and the table enters
the hands (a Pits finishing order; a Pitch cut and pad lines, still confirmed
by the judge)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tests.server.conftest import ServerThread
from tests.server.test_events import PLAYERS, Desk
from tests.waiting import patience


def _until(read: Callable[[], Any], done: Callable[[Any], bool], seconds: float = 90) -> Any:
    """`read()` once `done` with it, or once `seconds` (scaled) have passed."""
    deadline = time.monotonic() + patience(seconds)
    while True:
        value = read()
        if done(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _bots_everywhere(server: ServerThread, table: dict[str, Any], seats: int) -> None:
    """The host (the manager, through the table's host token) puts bots in every seat."""
    for seat in range(seats):
        response = server.http.put(
            f"/api/tables/{table['id']}/seats/{seat}",
            json={"bot": "random"},
            headers=_bearer(table["host_token"]),
        )
        assert response.status_code == 200, response.text


def test_a_pits_game_online_seats_its_players_and_enters_its_hands(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS[:6]:
        desk.add(name)
    five = PLAYERS[:5]
    desk.ok(desk.manager, "start_game", players=five, table="Table A")
    # Only the manager opens a table, and only for an open game with no hands yet.
    assert "manager" in desk.refused(403, desk.tokens["Ann"], "open_table", game=1)
    assert "server" in desk.refused(409, desk.manager, "open_table", game=1, table_id="x")
    assert "10 to 100" in desk.refused(409, desk.manager, "open_table", game=1, hands=9)
    # No maximum number of hands is set (P10): this table plays twelve.
    opened = desk.ok(desk.manager, "open_table", game=1, hands=12, bot_delay=0)
    table = opened["table"]
    assert table["host_token"] and table["url"].endswith(f"/t/{table['id']}#watch")
    assert opened["entry"]["data"]["table_id"] == table["id"]
    assert desk.read()["view"]["games"][0]["online"] == table["id"]
    assert "already" in desk.refused(409, desk.manager, "open_table", game=1)
    info = server.http.get(f"/api/tables/{table['id']}").json()
    assert info["game"] == "pits" and info["rules"]["hands"] == 12
    assert info["settings"]["listed"] is False and info["settings"]["event"] == desk.id
    # The table is not in the lobby, and a client cannot tie a table to an event.
    assert table["id"] not in {t["id"] for t in server.http.get("/api/tables").json()}
    forged = server.http.post("/api/tables", json={"game": "pits", "settings": {"event": desk.id}})
    assert forged.status_code == 400 and "event" in forged.text

    # Each player takes their own seat with their own link; nobody else can.
    seat_url = f"/api/tables/{table['id']}/event-seat"
    for token in (None, desk.manager, desk.tokens["Fay"]):
        assert server.http.post(seat_url, headers=_bearer(token)).status_code == 403
    first = server.http.post(seat_url, headers=_bearer(desk.tokens["Ann"])).json()
    assert first["seat"] == 0 and first["url"].endswith(f"#token={first['token']}")
    again = server.http.post(seat_url, headers=_bearer(desk.tokens["Ann"])).json()
    # A second device takes the seat; the first token stops working.
    stale = server.http.post(f"/api/tables/{table['id']}/join", json={"token": first["token"]})
    assert stale.status_code >= 400
    fresh = server.http.post(f"/api/tables/{table['id']}/join", json={"token": again["token"]})
    assert fresh.status_code == 200 and fresh.json()["seat"] == 0
    seats = server.http.get(f"/api/tables/{table['id']}").json()["seats"]
    assert seats[0]["kind"] == "player" and seats[0]["name"] == "Ann"

    # The scorer may not enter the hands of an online game: the table does.
    order = five
    assert "online" in desk.refused(409, desk.tokens["Ann"], "hand", game=1, hand=1, order=order)
    assert "online" in desk.refused(409, desk.manager, "hand", game=1, hand=1, order=order)
    _bots_everywhere(server, table, 5)
    event = _until(desk.read, lambda e: len(e["view"]["games"][0]["hands"]) == 12)
    game = event["view"]["games"][0]
    assert len(game["hands"]) == 12 and game["complete"]
    by_table = [e for e in event["log"] if e["type"] == "hand"]
    assert [e["by"] for e in by_table] == ["the online table"] * 12
    assert all(e["role"] == "table" and e["author"] == table["id"] for e in by_table)
    for hand in game["hands"]:
        assert sorted(hand["order"]) == sorted(five)
    assert sum(game["points"].values()) == 3 * 12  # 2 + 1 a hand (P7)
    # The players then rule off and sign as at a table of cards.
    desk.ok(desk.tokens["Bob"], "quit", game=1, player="Bob")
    for name in five:
        desk.ok(desk.tokens[name], "sign", game=1, player=name)
    assert desk.read()["view"]["games"][0]["confirmed"]


def test_a_pitch_table_online_enters_its_cut_and_hands_for_the_judge(
    server: ServerThread,
) -> None:
    desk = Desk(server, "pitch-tournament")
    for name in PLAYERS[:3]:
        desk.add(name)
    judge = desk.ok(desk.manager, "add_judge", name="Jo", initials="JO")["link"]["token"]
    desk.ok(desk.manager, "seat_round", by="draw", seed=7, judges=["Jo"])
    players = desk.read()["view"]["rounds"][0]["tables"][0]["players"]
    table = desk.ok(desk.manager, "open_table", round=1, table=1, bot_delay=0)["table"]
    # The dealer records nothing at an online table, nor the judge the cut.
    assert "online" in desk.refused(409, judge, "cut", round=1, table=1, dealer=players[0])
    seat = server.http.post(
        f"/api/tables/{table['id']}/event-seat", headers=_bearer(desk.tokens[players[1]])
    ).json()
    assert seat["seat"] == 1
    _bots_everywhere(server, table, 3)

    def over(event: dict[str, Any]) -> bool:
        table_view = event["view"]["rounds"][0]["tables"][0]
        return bool(table_view["lines"]) and not table_view["dealer"]

    event = _until(desk.read, over)
    pad = event["view"]["rounds"][0]["tables"][0]
    info = server.http.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "over"
    entries = [e for e in event["log"] if e["type"] in ("cut", "hand")]
    assert entries[0]["type"] == "cut" and entries[0]["by"] == "the online table"
    assert all(e["by"] == "the online table" for e in entries)
    assert all(line["status"] == "pending" for line in pad["lines"])
    # The judge's confirmation step stays: the champion waits for it.
    assert event["view"]["champion"] is None
    for line in pad["lines"]:
        desk.ok(judge, "confirm", round=1, table=1, line=line["line"])
    final = desk.read()["view"]
    scores = final["rounds"][0]["tables"][0]["scores"]
    leaders = [name for name, points in scores.items() if points == max(scores.values())]
    assert leaders == [final["champion"]]  # C10: tied leaders play on, so one leads
