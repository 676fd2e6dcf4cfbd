"""Tables at your own pace: each move may take hours, the table waits for it (through a
restart too), a stand-in or a forfeit when its time runs out, and "your turn" notices.

Time is the server's `Clock`, which a test moves forward (`Manager.clock.advance`):
"Bea's move, made a simulated day later, lands" without waiting a day."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pitkit.server.client import TableClient
from pitkit.server.live.manager import Manager
from pitkit.server.live.notices import Notice
from tests.server.conftest import FAST, ServerThread, run
from tests.waiting import wait_until

HOUR = 3600.0
DAY = 24 * HOUR


@pytest.fixture
def lone(tmp_path: Path) -> Iterator[ServerThread]:
    """A server on SQLite alone (the restart test runs on both databases)."""
    s = ServerThread(tmp_path, FAST)
    yield s
    s.stop()


def _manager(server: ServerThread) -> Manager:
    manager: Manager = server.app.state.services.manager
    return manager


def _record(server: ServerThread) -> list[tuple[str, Notice]]:
    """Every notice the server sends from now on, with the profile it is for."""
    told: list[tuple[str, Notice]] = []

    async def notify(profile: str, notice: Notice) -> None:
        told.append((profile, notice))

    _manager(server).notify = notify
    return told


def _seated(server: ServerThread, **settings: Any) -> tuple[str, list[dict[str, Any]]]:
    """A table of Ace Pit at its own pace (a day a move unless `settings` say), where Ann
    and Bea sit with their profiles: its id, and per seat the profile and seat token."""
    created = server.create(
        game="ace-pit", seats=[None, None], settings={"own_pace": DAY, **settings}
    )
    table = created["table"]["id"]
    people = []
    for name, invite in zip(("Ann", "Bea"), created["seats"], strict=True):
        made = server.http.post("/api/profiles", json={"name": name})
        assert made.status_code == 201, made.text
        secret = made.json()["secret"]
        sat = server.http.post(
            f"/api/tables/{table}/profile-seat",
            json={"token": invite["token"]},
            headers={"authorization": f"Bearer {secret}"},
        )
        assert sat.status_code == 200, sat.text
        people.append({"name": name, "profile": made.json()["profile"]["id"], "secret": secret})
        people[-1]["token"] = sat.json()["token"]
    server.wait_for(table, "playing")
    return table, people


async def _move(server: ServerThread, table: str, token: str) -> dict[str, Any]:
    """Connect with `token`, read the turn's time left, make the first legal move and wait
    until it is stored; returns the sync that came first."""
    client = TableClient(server.base, table, token)
    await client.connect()
    synced = await client.recv_type("sync")
    assert client.legal, "it is this seat's turn"
    version = client.version
    await client.send(
        {"type": "act", "action": client.legal[0], "version": version, "seat": client.seat}
    )
    await client.recv_type("ack")
    await client.close()
    return synced


def test_a_move_made_a_day_later_lands(lone: ServerThread) -> None:
    told = _record(lone)
    table, people = _seated(lone)
    first = lone.table(table)["to_act"][0]
    second = 1 - first
    by_profile = {p["profile"]: p for p in people}
    # The deal: the first to act is told, once, in words; nobody else.
    turn = wait_until(lambda: [n for _, n in told if n.kind == "your-turn"], 5, "a notice")
    assert [p for p, _ in told] == [people[first]["profile"]]
    where = "your table" if first == 0 else "Ann's table"
    assert turn[0].title == "Your turn in Ace Pit"
    assert turn[0].body == f"The cards are dealt; it's your move at {where}."
    assert turn[0].url == f"/t/{table}" and turn[0].table_id == table
    # Ann (or Bea) moves until it is the other's turn; the other is told who played.
    while lone.table(table)["to_act"] == [first]:
        synced = run(_move(lone, table, people[first]["token"]))
        assert DAY - 60 < synced["turn_left"] <= DAY
    theirs = wait_until(lambda: [n for p, n in told if p == people[second]["profile"]], 5)
    assert len(theirs) == 1
    mover, where = people[first]["name"], "your table" if second == 0 else "Ann's table"
    assert theirs[0].body == f"{mover} played; it's your move at {where}."
    assert all(by_profile[p] is people[first] for p, n in told if n is not theirs[0])
    # A simulated day less an hour later, the move is still awaited, with an hour left.
    version = lone.table(table)["version"]
    _manager(lone).clock.advance(DAY - HOUR)
    info = lone.table(table)
    assert (info["status"], info["version"], info["to_act"]) == ("playing", version, [second])
    # The player's tables list it first, "your turn", with the time left.
    mine = lone.http.get(
        "/api/profiles/me/tables", headers={"authorization": f"Bearer {people[second]['secret']}"}
    ).json()
    assert mine[0]["id"] == table and mine[0]["your_turn"] is True
    assert HOUR - 60 < mine[0]["move_left"] <= HOUR and mine[0]["own_pace"] == DAY
    # Bea's (or Ann's) move, made then, lands.
    synced = run(_move(lone, table, people[second]["token"]))
    assert HOUR - 60 < synced["turn_left"] <= HOUR
    assert lone.table(table)["version"] == version + 1


def test_a_move_whose_time_ran_out_is_made_by_a_bot_and_a_restart_keeps_the_time(
    tmp_path: Path, database: str
) -> None:
    server = ServerThread(tmp_path, FAST, database=database)
    try:
        table, people = _seated(server, own_pace=2 * HOUR)
        info = server.table(table)
        seat, version = info["to_act"][0], info["version"]
        server.stop()
        # A restart: the table is read again, its move's deadline with it (not a new one).
        server = ServerThread(tmp_path, FAST, port=server.port, database=database)
        _manager(server).clock.advance(HOUR)
        synced = run(_peek(server, table, people[seat]["token"]))
        assert synced["version"] == version and 0 < synced["turn_left"] <= HOUR
        assert server.table(table)["seats"][seat]["away"] is False
        # An hour and a bit later, the stand-in has made that move, and only that one.
        _manager(server).clock.advance(HOUR + 1)
        after = wait_until(lambda: (i := server.table(table))["version"] > version and i, 10)
        assert after["status"] == "playing" and after["seats"][seat]["kind"] == "player"
    finally:
        server.stop()


async def _peek(server: ServerThread, table: str, token: str) -> dict[str, Any]:
    """The sync a seat's socket gets on connecting."""
    client = TableClient(server.base, table, token)
    await client.connect()
    synced = await client.recv_type("sync")
    await client.close()
    return synced


def test_a_player_who_lets_the_time_run_out_forfeits(lone: ServerThread) -> None:
    told = _record(lone)
    table, people = _seated(lone, on_timeout="forfeit")
    late = people[lone.table(table)["to_act"][0]]["name"]
    _manager(lone).clock.advance(DAY + 1)
    info = lone.wait_for(table, "closed")
    assert info["problem"] == f"{late} let the time for a move run out and forfeits the match"
    over = wait_until(lambda: [(p, n) for p, n in told if n.kind == "match-over"], 5, "notices")
    assert {p for p, _ in over} == {p["profile"] for p in people}
    for _, notice in over:
        assert notice.title == "Match over in Ace Pit"
        assert notice.body.endswith(
            f"is over: {late} let the time for a move run out and forfeits the match."
        )
    # A forfeit is a loss: letting the time run out never saves a rating.
    for person in people:
        page = lone.http.get(f"/api/players/{person['profile']}").json()
        (rating,) = page["ratings"]
        assert (rating["game"], rating["matches"]) == ("ace-pit", 1)
        assert (rating["rating"] < 1500) == (person["name"] == late), (person, rating)
        assert page["matches"][0]["place"] == (2 if person["name"] == late else 1)


def test_a_table_waiting_for_its_players_waits_as_long_as_a_move(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, dataclasses.replace(FAST, waiting_seconds=0.2))
    try:
        ordinary = server.create(game="pitch", seats=[None, "random"])["table"]["id"]
        own = server.create(game="pitch", seats=[None, "random"], settings={"own_pace": HOUR})
        server.wait_for(ordinary, "expired")
        assert server.table(own["table"]["id"])["status"] == "waiting"
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"own_pace": 1800}, "from 1 hour"),
        ({"own_pace": 3 * DAY + 1}, "to 3 days"),
        ({"own_pace": "a day"}, "own_pace"),
        ({"own_pace": True}, "own_pace"),
        ({"own_pace": DAY, "turn_seconds": 60}, "leave turn_seconds out"),
        ({"own_pace": DAY, "on_timeout": "nap"}, 'on_timeout is "standin"'),
    ],
)
def test_bad_own_pace_settings_are_refused(
    lone: ServerThread, settings: dict[str, Any], says: str
) -> None:
    body = {"game": "pitch", "seats": [None, "random"], "settings": settings}
    refused = lone.http.post("/api/tables", json=body)
    assert refused.status_code == 400 and says in refused.json()["detail"], refused.text
    assert lone.http.get("/api/tables").json() == []


def test_pit_cannot_be_played_at_your_own_pace(lone: ServerThread) -> None:
    body = {"game": "pit", "seats": [None, "random", "random"], "settings": {"own_pace": DAY}}
    refused = lone.http.post("/api/tables", json=body)
    assert refused.status_code == 400, refused.text
    assert "cannot be played at your own pace" in refused.json()["detail"]
    assert lone.http.get("/api/tables").json() == []
