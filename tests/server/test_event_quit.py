"""A player who quits a game played online gives up their seat at the quit: the
seat's secret stops working at once, a stand-in plays it, and only the manager
records the quit and names who takes the seat (docs/tournaments.md)."""

from __future__ import annotations

from tests.server.conftest import ServerThread
from tests.server.test_event_tables import _bearer
from tests.server.test_events import PLAYERS, Desk


def test_a_quitters_seat_secret_dies_at_the_quit(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS[:6]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5], table="Table A")
    table = desk.ok(desk.manager, "open_table", game=1, bot_delay=0)["table"]
    ann = PLAYERS[0]
    seat = server.http.post(
        f"/api/tables/{table['id']}/event-seat", headers=_bearer(desk.tokens[ann])
    ).json()
    join = f"/api/tables/{table['id']}/join"
    assert server.http.post(join, json={"token": seat["token"]}).status_code == 200

    # Before the tenth hand, neither the quitter nor another player records the quit.
    data = {"game": 1, "player": ann, "replacement": PLAYERS[5]}
    assert "manager" in desk.refused(403, desk.tokens[ann], "quit", **data)  # nothing changed
    assert "themselves" in desk.refused(403, desk.tokens[PLAYERS[1]], "quit", **data)
    assert server.http.post(join, json={"token": seat["token"]}).status_code == 200

    desk.ok(desk.manager, "quit", game=1, player=ann, replacement=PLAYERS[5])
    # The quitter's secret opens nothing now, and the seat waits for its next player.
    assert server.http.post(join, json={"token": seat["token"]}).status_code >= 400
    info = server.http.get(f"/api/tables/{table['id']}").json()
    assert info["seats"][seat["seat"]]["kind"] == "open"
    # The replacement takes it with their own link.
    fay = server.http.post(
        f"/api/tables/{table['id']}/event-seat", headers=_bearer(desk.tokens[PLAYERS[5]])
    )
    assert fay.status_code == 200 and fay.json()["seat"] == seat["seat"]
