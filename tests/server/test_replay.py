"""What the server keeps for every device: the score sheet in the view, the
earlier hands in a sync's history, and the replay of a finished match, step by
step, as one seat saw it or all-seeing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pitkit import games
from pitkit.core.events import Event
from pitkit.core.narrate import Narrator
from pitkit.server.client import TableClient
from pitkit.server.live.messages import named
from pitkit.server.live.replays import replay
from tests.server.conftest import ServerThread, run


def _finished(
    server: ServerThread, game: str, seats: list[str], rules: dict[str, Any]
) -> dict[str, Any]:
    """A table whose open seats the stand-in played to the end of match 1."""
    created = server.create(game=game, seats=seats, rules=rules)
    tid = created["table"]["id"]
    auth = {"Authorization": f"Bearer {created['host_token']}"}
    assert server.http.post(f"/api/tables/{tid}/start", headers=auth).status_code == 200
    server.wait_for(tid, "over")
    return created


def _log(server: ServerThread, tid: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = server.http.get(f"/api/tables/{tid}/matches/1/log").text.splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


async def _sync(server: ServerThread, tid: str, token: str | None) -> dict[str, Any]:
    client = TableClient(server.base, tid, token)
    await client.connect(name="Ann")
    await client.recv_type("welcome")
    sync = await client.recv_type("sync")
    await client.close()
    return sync


def test_the_sheet_and_earlier_hands_come_with_every_sync(server: ServerThread) -> None:
    created = _finished(server, "ace-pit", ["open", "greedy"], {"hands": 5})
    tid = created["table"]["id"]
    _, events = _log(server, tid)
    scores = [e["scores"] for e in events if e["type"] == "scores"]
    assert len(scores) == 5
    # A reload, or a second device: the seat's secret opens the seat again.
    sync = run(_sync(server, tid, created["seats"][0]["token"]))
    record = sync["view"]["match"]
    assert record["totals"] == scores  # one row a hand: the scores after it
    # The history has the earlier hands: the last three in full, older ones summed up.
    earlier = sync["earlier"]
    assert [e["hand"] for e in earlier] == [1, 2, 3, 4]
    for entry in earlier[:1]:
        assert entry["summary"] and [e["type"] for e in entry["events"]] == ["scores"]
    for entry in earlier[1:]:
        kinds = [e["type"] for e in entry["events"]]
        assert "deal" in kinds[:2] and kinds[-1] == "scores" and "action" in kinds
        assert entry["left_out"] == 0 and "summary" not in entry
        assert all("text" in e for e in entry["events"])
    # The seat's own dealt cards are in its history; a spectator sees none of them.
    deal = next(e for e in earlier[1]["events"] if e["type"] == "deal")
    assert deal.get("hand")
    watched = run(_sync(server, tid, None))
    assert not any("hand" in e for e in watched["earlier"][1]["events"] if e["type"] == "deal")
    assert watched["view"]["match"]["totals"] == scores
    # This hand's events stay the view's history, as before.
    assert "deal" in [e["type"] for e in sync["view"]["history"][:2]]


def test_hidden_running_scores_leave_the_sheet_empty_until_the_end() -> None:
    game = games.get("ace-pit")
    match = game.new_match(2, {"hands": 3, "hidden_running_score": True}, seed=5)
    while not match.is_over:
        seat = min(match.to_act)
        match.apply(seat, match.legal_actions(seat)[0])
        if not match.is_over:
            assert match.view(0)["match"]["totals"] == []
    totals = match.view(0)["match"]["totals"]
    assert len(totals) == 3 and totals[-1] == match.scores


def test_the_pits_view_carries_the_bga_sheet() -> None:
    game = games.get("pits")
    match = game.new_match(5, {"hands": 2}, seed=3)
    while not match.is_over:
        seat = min(match.to_act)
        match.apply(seat, match.legal_actions(seat)[0])
    sheet = match.view(None)["match"]["sheet"]
    assert [h["hand"] for h in sheet["hands"]] == [1, 2]
    for hand, result in zip(sheet["hands"], match.results, strict=True):
        order = result.detail["order"]
        assert hand["points"][order[0]] == 2 and hand["points"][order[1]] == 1
        assert sum(hand["points"]) == 3 and hand["dealer"] == order[2]
    assert sheet["points"] == match.scores and sheet["full"] == 10
    assert sheet["percentage"] == [round(100 * p / 4, 1) for p in match.scores]


def test_a_replay_waits_for_the_end_and_checks_its_seat(server: ServerThread) -> None:
    # Slow bots: the match is still on while the test asks.
    created = server.create(game="ace-pit", seats=["open", "greedy"], settings={"bot_delay": 10})
    tid = created["table"]["id"]
    auth = {"Authorization": f"Bearer {created['host_token']}"}
    url = f"/api/tables/{tid}/matches/1/replay"
    assert server.http.get(url).status_code == 404  # no match yet
    assert server.http.post(f"/api/tables/{tid}/start", headers=auth).status_code == 200
    for seat in ("all", "0", "1"):
        refused = server.http.get(url, params={"seat": seat})
        assert refused.status_code == 409 and "over" in refused.json()["detail"]
    for seat in ("2", "-1", "x", "1.0", "all0", "٣"):
        bad = server.http.get(url, params={"seat": seat})
        assert bad.status_code == 400 and "seat" in bad.json()["detail"]
    assert server.http.get(f"/api/tables/{tid}/matches/2/replay").status_code == 404


def test_a_replay_shows_each_seat_what_it_saw_and_all_seeing_every_hand(
    server: ServerThread,
) -> None:
    created = _finished(server, "pitty-pat", ["open", "sensible", "random"], {})
    tid = created["table"]["id"]
    header, events = _log(server, tid)
    game = games.get("pitty-pat")
    labels = [s["label"] for s in server.table(tid)["seats"]]
    # The match's own views, version by version, from its log.
    states = game.replay_steps(header, [Event.from_json(e) for e in events])
    expected: list[dict[int | None, dict[str, Any]]] = []
    for match in states:
        views: dict[int | None, dict[str, Any]] = {}
        for seat in (None, 0, 1, 2):
            view = named(match.view(seat), Narrator.named(labels, seat))
            view.pop("history", None)
            view.pop("legal", None)
            views[seat] = json.loads(json.dumps(view))
        expected.append(views)
    for seat in (0, 1, 2):
        answer = server.http.get(f"/api/tables/{tid}/matches/1/replay", params={"seat": seat})
        assert answer.status_code == 200, answer.text
        replay = answer.json()
        assert replay["seat"] == seat and replay["labels"] == labels
        steps = replay["steps"]
        assert [s["version"] for s in steps] == list(range(len(expected)))
        record = None
        for step, views in zip(steps, expected, strict=True):
            view = step["view"]
            assert "hands" not in view
            # The match's record comes when it changed; the page keeps the last one.
            record = view.setdefault("match", record)
            assert view == views[seat]  # exactly what the seat saw, no more
        # Each step's events are the seat's part of them, in words.
        seen = [e for s in steps for e in s["events"]]
        assert len(seen) == len(events)
        for mine, full in zip(seen, events, strict=True):
            assert {k: v for k, v in mine.items() if k != "text"} == Event.from_json(full).seen_by(
                seat
            )
    everyone = server.http.get(f"/api/tables/{tid}/matches/1/replay").json()
    assert everyone["seat"] is None
    hands_seen = 0
    for step, views in zip(everyone["steps"], expected, strict=True):
        view = dict(step["view"])
        hands = view.pop("hands")
        record = view.setdefault("match", record)
        assert view == views[None]
        assert hands == [views[s].get("hand", []) for s in (0, 1, 2)]
        hands_seen += sum(1 for cards in hands if cards)
    assert hands_seen > 0
    # Kept: a second read gives the same text.
    again = server.http.get(f"/api/tables/{tid}/matches/1/replay", params={"seat": "all"})
    assert again.text == server.http.get(f"/api/tables/{tid}/matches/1/replay").text


@pytest.mark.parametrize("name", ["pitty-pat", "pits", "ace-pit", "pitch", "pit"])
def test_every_games_replay_is_its_own_views(name: str) -> None:
    """Random play of each game, replayed: every step's view is the match's own
    `view(seat)`, its record carried on from the last step that had it."""
    game = games.get(name)
    rules = {"pits": {"hands": 2}, "ace-pit": {"hands": 2}}.get(name, dict(game.short_match))
    match = game.new_match(None, rules, seed=11)
    rng = random.Random(11)
    labels = [f"P{s}" for s in range(match.players)]
    steps = [[e.to_json() for e in match.log]]
    expected = [_views(match, labels)]
    while not match.is_over and len(steps) < 400:
        seat = rng.choice(sorted(match.to_act))
        steps.append(
            [e.to_json() for e in match.apply(seat, rng.choice(match.legal_actions(seat)))]
        )
        expected.append(_views(match, labels))
    steps = json.loads(json.dumps(steps))
    for seat in (None, *range(match.players)):
        record = None
        got = json.loads(json.dumps(replay(game, match.header(), steps, seat, labels)))
        assert len(got) == len(expected)
        for step, views in zip(got, expected, strict=True):
            view = step["view"]
            record = view.setdefault("match", record)
            hands = view.pop("hands", None)
            assert view == views[seat]
            if seat is None:
                assert hands == [views[s].get("hand", []) for s in range(match.players)]


def _views(match: Any, labels: list[str]) -> dict[int | None, dict[str, Any]]:
    """Each seat's view now (None: a spectator's), as a replay gives it."""
    out: dict[int | None, dict[str, Any]] = {}
    for seat in (None, *range(match.players)):
        view = named(match.view(seat), Narrator.named(labels, seat))
        view.pop("history", None)
        view.pop("legal", None)
        out[seat] = json.loads(json.dumps(view))
    return out
