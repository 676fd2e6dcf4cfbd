"""Joining from the lobby and Play now: an open seat taken without an invitation,
a table found or opened for whoever presses Play now, bots of the chosen strength in
the empty seats after a visible wait, and never one seat given twice."""

from __future__ import annotations

import dataclasses
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from pitkit import bots, games
from pitkit.bots import levels
from pitkit.bots.search import Budget
from pitkit.server import Limits
from tests.server.conftest import FAST, ServerThread
from tests.waiting import patience, wait_until


def test_every_game_has_an_easy_a_medium_and_a_hard_bot_the_server_seats() -> None:
    cap = Limits().bot_seconds
    for game in games.all_games():
        chosen = levels.levels(game)
        assert list(chosen) == list(levels.LEVELS)
        for level in chosen.values():
            bot = bots.make(game, level.bot, 0)  # a known name, or this raises
            budget = getattr(bot, "budget", None)
            assert not isinstance(budget, Budget) or (budget.seconds or 0) <= cap, level
            assert level.why and level.bot in levels.bot_for(game, level.level)
        # Three different bots: a choice of strength is a real choice.
        assert len({level.bot for level in chosen.values()}) == 3, game.name
    with pytest.raises(ValueError, match="easy, medium, hard"):
        levels.bot_for(games.get("pits"), "brutal")


def test_the_levels_are_served_as_chosen(server: ServerThread) -> None:
    served = server.http.get("/api/levels").json()
    for game in games.all_games():
        assert served[game.name] == [dataclasses.asdict(v) for v in levels.levels(game).values()]


def _play_now(server: ServerThread, **body: Any) -> httpx.Response:
    with httpx.Client(base_url=server.base, timeout=patience(10)) as http:
        return http.post("/api/play-now", json=body)


def test_play_now_seats_people_together_then_bots_of_the_level_fill_the_rest(
    server: ServerThread,
) -> None:
    first = _play_now(server, game="pitty-pat", level="easy", name="Ann", wait=2)
    assert first.status_code == 200, first.text
    ann = first.json()
    assert ann["seat"] == 0 and ann["bot"] == "random" and 0 < ann["starts_in"] <= 2
    waiting = server.http.get("/api/play-now").json()
    assert [w["table"] for w in waiting] == [ann["table"]] and waiting[0]["open"] == 2
    # Another player of the same game and strength sits at the same table...
    bob = _play_now(server, game="pitty-pat", level="easy", name="Bob", wait=30).json()
    assert bob["table"] == ann["table"] and bob["seat"] == 1 and bob["token"] != ann["token"]
    # ...another strength opens a table of its own.
    hard = _play_now(server, game="pitty-pat", level="medium", name="Cy", wait=30).json()
    assert hard["table"] != ann["table"] and hard["bot"] == "sensible"
    info = server.wait_for(ann["table"], "playing")
    assert [s["kind"] for s in info["seats"]] == ["player", "player", "bot"]
    assert [s["name"] for s in info["seats"][:2]] == ["Ann", "Bob"]
    assert info["seats"][2]["bot"] == "random"
    # The seat's secret is the player's own: it opens the seat, and nobody else's.
    mine = server.http.post(f"/api/tables/{ann['table']}/join", json={"token": bob["token"]})
    assert mine.json() == {"seat": 1, "token": None}
    assert ann["table"] not in [w["table"] for w in server.http.get("/api/play-now").json()]


def test_many_presses_at_once_never_give_a_seat_twice(server: ServerThread) -> None:
    body = {"game": "ace-pit", "level": "medium", "wait": 30}
    with ThreadPoolExecutor(7) as pool:
        answers = list(pool.map(lambda i: _play_now(server, name=f"P{i}", **body), range(7)))
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    seated = [(a.json()["table"], a.json()["seat"]) for a in answers]
    assert len(set(seated)) == 7
    per_table = Counter(table for table, _ in seated)
    # Two seats a table: three full tables (which start at once) and one waiting.
    assert sorted(per_table.values()) == [1, 2, 2, 2]
    for table, n in per_table.items():
        if n == 2:
            info = server.wait_for(table, "playing")
            assert {s["name"] for s in info["seats"]} <= {f"P{i}" for i in range(7)}


def test_bad_play_now_asks_change_nothing(server: ServerThread) -> None:
    cases = [
        ({"game": "chess"}, 400),
        ({"game": "pits", "level": "brutal"}, 400),
        ({"game": "pits", "name": "\x00"}, 400),
        ({"game": "pits", "wait": 0}, 422),
        ({"game": "pits", "wait": "soon"}, 422),
        ({"game": "pits", "colour": "red"}, 422),
    ]
    for body, status in cases:
        answer = server.http.post("/api/play-now", json=body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["detail"]
    assert server.http.get("/api/tables").json() == []
    assert server.http.get("/api/play-now").json() == []


def test_an_open_seat_is_taken_from_the_lobby_once(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=[None, "random", None])
    tid = created["table"]["id"]
    invite = {s["seat"]: s["token"] for s in created["seats"]}
    with ThreadPoolExecutor(4) as pool:
        answers = list(
            pool.map(
                lambda i: httpx.post(
                    f"{server.base}/api/tables/{tid}/take-seat",
                    json={"seat": 2, "name": f"N{i}"},
                    timeout=patience(10),
                ),
                range(4),
            )
        )
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
    won = next(a.json() for a in answers if a.status_code == 200)
    assert won["seat"] == 2 and won["token"]
    refused = next(a.json()["detail"] for a in answers if a.status_code == 409)
    assert "seat 3 is taken" in refused
    # The seat's invitation opens nothing now; the seat's new secret does.
    assert server.http.post(f"/api/tables/{tid}/join", json={"token": invite[2]}).status_code == 403
    info = server.table(tid)
    assert info["status"] == "waiting" and info["seats"][2]["kind"] == "player"
    # The first open seat, when none is named; the table is then full and starts.
    last = server.http.post(f"/api/tables/{tid}/take-seat", json={"name": "Dee"})
    assert last.json()["seat"] == 0
    assert server.wait_for(tid, "playing")["seats"][0]["name"] == "Dee"
    full = server.http.post(f"/api/tables/{tid}/take-seat", json={})
    assert full.status_code == 409 and "every seat" in full.json()["detail"]


def test_unlisted_and_missing_tables_take_nobody_from_the_lobby(server: ServerThread) -> None:
    created = server.create(game="ace-pit", seats=[None, None], settings={"listed": False})
    tid = created["table"]["id"]
    hidden = server.http.post(f"/api/tables/{tid}/take-seat", json={"seat": 1})
    assert hidden.status_code == 409 and "invitation" in hidden.json()["detail"]
    assert server.table(tid)["seats"][1]["kind"] == "open"
    assert server.http.post("/api/tables/nope/take-seat", json={}).status_code == 404
    listed = server.create(game="ace-pit", seats=[None, None])["table"]["id"]
    for body, status in [({"seat": 7}, 409), ({"seat": -1}, 422), ({"name": "\x07"}, 400)]:
        answer = server.http.post(f"/api/tables/{listed}/take-seat", json=body)
        assert answer.status_code == status, (body, answer.text)
    assert [s["kind"] for s in server.table(listed)["seats"]] == ["open", "open"]


def test_play_now_and_seats_count_against_the_address(tmp_path: Path, database: str) -> None:
    limits = dataclasses.replace(FAST, creates_per_minute=2)
    server = ServerThread(tmp_path, limits, database=database)
    try:
        assert _play_now(server, game="pits", wait=60).status_code == 200
        assert _play_now(server, game="pits", wait=60).status_code == 200
        third = _play_now(server, game="pits", wait=60)
        assert third.status_code == 429 and "wait a minute" in third.json()["detail"]
        (waiting,) = wait_until(lambda: server.http.get("/api/play-now").json())
        assert waiting["open"] == 3  # the refused press took no seat
    finally:
        server.stop()


def test_an_open_seat_is_taken_during_a_match(server: ServerThread) -> None:
    # The host started without waiting: the stand-in bot plays the open seat until
    # someone takes it from the lobby, and from then on the player does.
    # Slow bots: the match is still on when the seat is taken.
    created = server.create(
        game="pitty-pat", seats=["random", None, "random"], settings={"bot_delay": 30}
    )
    tid, host = created["table"]["id"], created["host_token"]
    auth = {"Authorization": f"Bearer {host}"}
    assert server.http.post(f"/api/tables/{tid}/start", headers=auth).status_code == 200
    taken = server.http.post(f"/api/tables/{tid}/take-seat", json={"name": "Late"})
    assert taken.status_code == 200, taken.text
    info = server.table(tid)
    assert info["status"] == "playing" and info["seats"][1]["name"] == "Late"
    assert info["seats"][1]["kind"] == "player"
