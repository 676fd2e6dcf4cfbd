"""The lobby over HTTP: games, tables, seats, invitations, host rights, limits."""

from __future__ import annotations

import pytest

from pitkit.server.live import manager
from tests.server.conftest import ServerThread
from tests.waiting import patience, wait_until


def test_games_and_openapi(server: ServerThread) -> None:
    games = server.http.get("/api/games").json()
    assert {g["name"] for g in games} >= {"pitty-pat", "pits", "ace-pit", "pitch"}
    assert all("random" in g["bots"] for g in games)
    spec = server.http.get("/openapi.json").json()
    assert "/api/tables" in spec["paths"] and "/api/tables/{table_id}/join" in spec["paths"]
    assert server.http.get("/").status_code == 200
    assert server.http.get("/healthz").json()["ok"] is True


def test_create_join_and_start(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=[None, "sensible", "open"])
    table = created["table"]
    assert table["status"] == "waiting" and table["players"] == 3
    invites = {s["seat"]: s for s in created["seats"]}
    assert set(invites) == {0, 2}
    assert invites[0]["invite"].endswith(f"/t/{table['id']}#token={invites[0]['token']}")
    assert "seed" not in str(table)
    joined = server.http.post(
        f"/api/tables/{table['id']}/join", json={"token": invites[0]["token"], "name": "Ann"}
    )
    # Claimed: the seat answers to its own new secret, and the invitation (which the
    # host holds too) opens nothing now; whoever tries it is told the seat is taken.
    secret = joined.json()["token"]
    assert joined.json()["seat"] == 0 and secret and secret != invites[0]["token"]
    again = server.http.post(
        f"/api/tables/{table['id']}/join", json={"token": invites[0]["token"], "name": "Eve"}
    )
    assert again.status_code == 403 and "taken: Ann has it" in again.json()["detail"]
    mine = server.http.post(f"/api/tables/{table['id']}/join", json={"token": secret})
    assert mine.json() == {"seat": 0, "token": None}
    assert server.table(table["id"])["status"] == "waiting"
    server.http.post(f"/api/tables/{table['id']}/join", json={"token": invites[2]["token"]})
    info = server.table(table["id"])
    assert info["status"] == "playing" and info["match"] == 1
    assert [s["name"] for s in info["seats"]] == ["Ann", None, "Player 3"]
    assert any(t["id"] == table["id"] for t in server.http.get("/api/tables").json())


def test_a_table_seats_as_many_as_its_rules_call_for(server: ServerThread) -> None:
    # Pitch's two teams of three need six seats; nobody has to say so twice.
    created = server.create(game="pitch", rules={"teams": "2x3"}, seats=["random"])
    assert created["table"]["players"] == 6 and len(created["seats"]) == 5


def test_bad_tables_are_refused(server: ServerThread) -> None:
    cases = [
        {"game": "chess"},
        {"game": "pitty-pat", "players": 9},
        {"game": "pitty-pat", "rules": {"no_such_rule": 1}},
        {"game": "pitty-pat", "seats": ["deep-blue"]},
        {"game": "pitty-pat", "seats": ["random"] * 5, "players": 3},
        {"game": "pitty-pat", "settings": {"bot_delay": -1}},
        {"game": "pitty-pat", "settings": {"colour": "red"}},
    ]
    for body in cases:
        response = server.http.post("/api/tables", json=body)
        assert response.status_code in (400, 422), (body, response.text)
        assert response.json()["detail"]
    assert server.http.post("/api/tables", content=b"{not json").status_code == 422
    huge = {"game": "pitty-pat", "rules": {"x": "y" * 100_000}}
    assert server.http.post("/api/tables", json=huge).status_code == 413
    assert server.http.get("/api/tables").json() == []


def test_host_rights(server: ServerThread) -> None:
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid, host = created["table"]["id"], created["host_token"]
    seat_token = created["seats"][0]["token"]
    for token in (None, seat_token, "nonsense"):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        assert server.http.post(f"/api/tables/{tid}/start", headers=headers).status_code == 403
        put = server.http.put(f"/api/tables/{tid}/seats/1", json={"bot": "greedy"}, headers=headers)
        assert put.status_code == 403
    auth = {"Authorization": f"Bearer {host}"}
    bad = server.http.put(f"/api/tables/{tid}/seats/1", json={"bot": "nobody"}, headers=auth)
    assert bad.status_code == 400
    reopened = server.http.put(f"/api/tables/{tid}/seats/0", json={}, headers=auth).json()
    assert reopened["token"] and reopened["token"] != seat_token
    old = server.http.post(f"/api/tables/{tid}/join", json={"token": seat_token})
    assert old.status_code == 403
    server.http.put(f"/api/tables/{tid}/seats/1", json={"bot": "greedy"}, headers=auth)
    assert server.http.post(f"/api/tables/{tid}/start", headers=auth).status_code == 200
    info = server.table(tid)
    assert info["status"] == "playing" and info["seats"][1]["bot"] == "greedy"
    assert server.http.get("/api/tables/nope").status_code == 404
    log = server.http.get(f"/api/tables/{tid}/matches/1/log")
    assert log.status_code == 409  # the full log waits for the end of the match


def test_finished_tables_leave_the_list(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A finished table stays listed a while after its last move (with its replay),
    # then leaves; one still playing or waiting stays.
    monkeypatch.setattr(manager, "FINISHED_LISTED", patience(3.0))
    waiting = server.create(game="ace-pit", seats=[None, "greedy"])["table"]["id"]
    done = server.create(game="ace-pit", rules={"hands": 1}, seats=["greedy", "random"])
    tid = done["table"]["id"]
    server.wait_for(tid, "over")
    assert tid in {t["id"] for t in server.http.get("/api/tables").json()}
    listed = wait_until(
        lambda: {t["id"] for t in server.http.get("/api/tables").json()} == {waiting},
        10,
        "the finished table to leave the list",
    )
    assert listed
    assert server.table(tid)["status"] == "over"  # still there, at its own address
