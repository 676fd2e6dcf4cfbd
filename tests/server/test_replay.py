"""What the server keeps for every device: the score sheet in the view, the
earlier hands in a sync's history, and the replay of a finished match, step by
step, as one seat saw it or all-seeing."""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from pitkit import games
from pitkit.core.events import Event
from pitkit.core.narrate import Narrator
from pitkit.server.client import TableClient
from pitkit.server.live import replays
from pitkit.server.live.messages import named
from pitkit.server.live.replays import BusyError, Kept, Played, Replays, replay
from pitkit.server.ops.settings import Limits
from tests.server.conftest import FAST, ServerThread, run
from tests.waiting import patience, until


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


def test_replays_and_logs_are_sent_gzipped_to_whoever_takes_gzip(server: ServerThread) -> None:
    created = _finished(server, "pitch", ["open", "random", "random", "random"], {"target": 5})
    tid = created["table"]["id"]
    for path in (f"/api/tables/{tid}/matches/1/replay", f"/api/tables/{tid}/matches/1/log"):
        packed = server.http.get(path, headers={"Accept-Encoding": "gzip"})
        plain = server.http.get(path, headers={"Accept-Encoding": "identity"})
        assert packed.status_code == plain.status_code == 200
        assert packed.headers["content-encoding"] == "gzip"
        assert "content-encoding" not in plain.headers
        assert packed.headers["vary"] == plain.headers["vary"] == "Accept-Encoding"
        assert packed.content == plain.content  # httpx unpacks what it was sent
        sent = int(packed.headers["content-length"])
        assert sent * 3 < len(plain.content), (sent, len(plain.content))
    assert server.http.get(f"/api/tables/{tid}/matches/1/log").text.startswith('{"game": "pitch"')


def test_kept_replays_are_bounded_by_bytes_the_least_recently_asked_for_dropped() -> None:
    kept = Kept(100)
    kept.put(("a", 1, "log"), b"x" * 40)
    kept.put(("b", 1, "log"), b"x" * 40)
    assert kept.get(("a", 1, "log")) is not None  # now the most recently asked for
    kept.put(("c", 1, "log"), b"x" * 40)  # 120 bytes: b goes
    assert kept.get(("b", 1, "log")) is None
    assert kept.get(("a", 1, "log")) and kept.get(("c", 1, "log"))
    assert kept.size == 80 and len(kept) == 2
    kept.put(("d", 1, "log"), b"x" * 101)  # larger than the whole bound: not kept
    assert kept.get(("d", 1, "log")) is None and kept.size == 80
    kept.put(("a", 1, "log"), b"x" * 10)  # kept again: counted once
    assert kept.size == 50


def _played(seed: int) -> Played:
    """A short finished pitty-pat match, as a replay is built from it."""
    game = games.get("pitty-pat")
    match = game.new_match(3, {}, seed=seed)
    rng = random.Random(seed)
    steps = [[e.to_json() for e in match.log]]
    while not match.is_over:
        seat = rng.choice(sorted(match.to_act))
        steps.append(
            [e.to_json() for e in match.apply(seat, rng.choice(match.legal_actions(seat)))]
        )
    return Played("pitty-pat", match.header(), steps, ["A", "B", "C"], 1, "all")


def test_a_replay_asked_for_at_once_by_many_is_built_once() -> None:
    async def main() -> None:
        replays = Replays(Limits().replay_bytes, Limits().replay_builds)
        reads = []

        async def read() -> Played:
            reads.append(1)
            return _played(5)

        key = ("t", 1, "all")
        answers = await asyncio.gather(*(replays.get(key, read) for _ in range(5)))
        assert len(reads) == 1 and replays.built == 1
        assert len(set(answers)) == 1
        shown = json.loads(gzip.decompress(answers[0]))
        assert shown["seat"] is None and shown["labels"] == ["A", "B", "C"]
        assert await replays.get(key, read) == answers[0] and len(reads) == 1

    run(main())


def test_too_many_builds_at_once_are_refused_before_anything_is_read() -> None:
    async def main() -> None:
        replays = Replays(Limits().replay_bytes, 1)
        go = asyncio.Event()
        reads = []

        async def read() -> Played:
            reads.append(1)
            await go.wait()
            raise LookupError("no such match")

        first = asyncio.ensure_future(replays.get(("t", 1, "all"), read))
        await until(lambda: reads, 5, "the first build to begin")
        with pytest.raises(BusyError):
            await replays.get(("t", 2, "all"), read)
        assert len(reads) == 1
        go.set()
        with pytest.raises(LookupError):
            await first
        assert len(replays.kept) == 0
        go.clear()
        second = asyncio.ensure_future(replays.get(("t", 2, "all"), read))  # room again
        await until(lambda: len(reads) == 2, 5, "the second build to begin")
        go.set()
        with pytest.raises(LookupError):
            await second

    run(main())


def test_a_match_too_long_to_replay_is_refused_without_reading_it(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, dataclasses.replace(FAST, replay_steps=5))
    try:
        created = _finished(server, "ace-pit", ["open", "random"], {"hands": 1})
        tid = created["table"]["id"]
        store = server.app.state.services.store
        jobs = store.jobs
        refused = server.http.get(f"/api/tables/{tid}/matches/1/replay")
        assert refused.status_code == 409 and "too long" in refused.json()["detail"]
        assert store.jobs == jobs  # its steps were not read: the table knows how many
        assert server.http.get(f"/api/tables/{tid}/matches/1/log").status_code == 200
    finally:
        server.stop()


def test_a_log_is_built_in_a_worker_process_once_while_the_server_answers(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (Once test_hardening's test_a_log_is_built_off_the_event_loop_and_kept, when a
    # log was built in one of the server's threads.)
    created = _finished(server, "ace-pit", ["open", "random"], {"hands": 2})
    tid = created["table"]["id"]

    def not_here(*args: Any) -> Any:
        raise AssertionError("built in the server's own process")

    monkeypatch.setattr(replays, "match_log", not_here)  # the worker has the real one
    entered, go = threading.Event(), threading.Event()
    builder: replays.Replays = server.app.state.services.replays
    real = builder._in_worker

    async def held(played: Played) -> bytes:
        entered.set()
        await until(go.is_set, 30, "the test's go-ahead")
        return await real(played)

    monkeypatch.setattr(builder, "_in_worker", held)
    url = f"{server.base}/api/tables/{tid}/matches/1/log"
    result: dict[str, Any] = {}
    reader = threading.Thread(
        target=lambda: result.update(log=httpx.get(url, timeout=patience(30)))
    )
    reader.start()
    assert entered.wait(patience(10))
    # While the log is being built, the server answers others.
    assert httpx.get(f"{server.base}/healthz", timeout=patience(3)).status_code == 200
    go.set()
    reader.join()
    first = result["log"]
    assert first.status_code == 200 and first.text.count("\n") > 2
    go.clear()  # a second read must not build it again (it would wait forever)
    assert httpx.get(url, timeout=patience(5)).text == first.text
