"""Bad Wi-Fi at a tournament (issue 35): an entry sent again under its Idempotency-Key
(its reply was lost, or a phone's queue sent it again once the network came back)
lands exactly once and is answered as the entry it made, at any worker; other
content under a used key is refused, naming its entry. The pages follow an event
through a stream of its news (server-sent events): an entry made at either worker
reaches a stream within two seconds, and one address holds only so many streams."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import FAST, ServerThread, run
from tests.server.test_events import PLAYERS, Desk
from tests.waiting import patience

FIVE = PLAYERS[:5]


def sent(desk: Desk, token: str | None, key: str, type: str, **data: Any) -> httpx.Response:
    """An entry sent with an Idempotency-Key."""
    headers = {"Idempotency-Key": key}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = {"type": type, "data": data}
    return desk.http.post(f"/api/events/{desk.id}/entries", json=body, headers=headers)


def a_game(server: ServerThread) -> Desk:
    """Five players at a game that Ann scores."""
    desk = Desk(server)
    for name in FIVE:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=FIVE, table="Table A")
    return desk


def test_an_entry_sent_again_under_its_key_is_answered_as_made(server: ServerThread) -> None:
    desk = a_game(server)
    ann = desk.tokens["Ann"]
    first = sent(desk, ann, "hand-one-aaaa", "hand", game=1, hand=1, order=FIVE)
    assert first.status_code == 201 and first.json()["replayed"] is False
    before = desk.read()
    # The reply was lost: the scorer's phone sends it again. Not refused ("entered
    # already"), not doubled: the same entry, 200.
    again = sent(desk, ann, "hand-one-aaaa", "hand", game=1, hand=1, order=FIVE)
    assert again.status_code == 200, again.text
    assert again.json()["replayed"] is True
    assert again.json()["entry"] == first.json()["entry"]
    assert desk.read() == before
    # The key is the server's business: the log shows the entry as given.
    assert "idempotency" not in json.dumps(before["log"])
    # Without a key, the same hand is a second entry of hand 1: refused, as before.
    assert "entered already" in desk.refused(409, ann, "hand", game=1, hand=1, order=FIVE)


def test_other_content_under_a_used_key_is_refused_naming_its_entry(server: ServerThread) -> None:
    desk = a_game(server)
    ann, bob = desk.tokens["Ann"], desk.tokens["Bob"]
    made = sent(desk, ann, "k" * 22, "hand", game=1, hand=1, order=FIVE).json()["entry"]
    before = desk.read()
    other = [*FIVE[1:], FIVE[0]]
    for token, data in (
        (ann, {"game": 1, "hand": 2, "order": other}),  # the next hand, under the old key
        (ann, {"game": 1, "hand": 1, "order": other}),
        (bob, {"game": 1, "hand": 1, "order": FIVE}),  # someone else's, under Ann's key
    ):
        refused = sent(desk, token, "k" * 22, "hand", **data)
        assert refused.status_code == 409, refused.text
        assert f"entry #{made['seq']}" in refused.json()["detail"]
        assert desk.read() == before
    # A key that is no key, and the stored key's own field in the data, are refused.
    for key in ("short", "x" * 65, "spaces in it", "dots.in.the.key"):
        assert sent(desk, ann, key, "hand", game=1, hand=2, order=other).status_code == 422
    smuggled = sent(desk, ann, "k" * 23, "hand", game=1, hand=2, order=other, idempotency={})
    assert smuggled.status_code == 409 and "Idempotency-Key" in smuggled.json()["detail"]
    assert desk.read() == before


def test_a_key_is_kept_across_workers_and_lands_once_when_sent_to_both(
    server: ServerThread, tmp_path: Path, database: str
) -> None:
    desk = a_game(server)
    ann = desk.tokens["Ann"]
    second = ServerThread(tmp_path / "second", FAST, database=database)
    try:
        there = Desk.at(second, desk)
        first = sent(desk, ann, "across-workers-1", "hand", game=1, hand=1, order=FIVE)
        assert first.status_code == 201
        # Sent again through the other worker, which has not seen the entry yet.
        again = sent(there, ann, "across-workers-1", "hand", game=1, hand=1, order=FIVE)
        assert again.status_code == 200 and again.json()["entry"] == first.json()["entry"]

        # The same entry sent to both workers at once, several times over: one lands.
        async def both(hand: int) -> list[int]:
            order = FIVE[hand % 5 :] + FIVE[: hand % 5]
            body = {"type": "hand", "data": {"game": 1, "hand": hand, "order": order}}
            headers = {"Authorization": f"Bearer {ann}", "Idempotency-Key": f"both-at-once-{hand}"}
            async with (
                httpx.AsyncClient(base_url=server.base, timeout=patience(30)) as one,
                httpx.AsyncClient(base_url=second.base, timeout=patience(30)) as two,
            ):
                url = f"/api/events/{desk.id}/entries"
                answers = await asyncio.gather(
                    *(c.post(url, json=body, headers=headers) for c in (one, two, one, two))
                )
            return sorted(a.status_code for a in answers)

        for hand in range(2, 6):
            assert run(both(hand)) == [200, 200, 200, 201]
        log = there.read()["log"]
        hands = [e["data"]["hand"] for e in log if e["type"] == "hand"]
        assert hands == [1, 2, 3, 4, 5]
        assert desk.read() == there.read()
    finally:
        second.stop()


def test_an_online_table_opened_again_under_its_key_is_not_opened_twice(
    server: ServerThread,
) -> None:
    desk = a_game(server)
    tables = len(server.app.state.services.manager.tables)
    first = sent(desk, desk.manager, "open-table-01", "open_table", game=1, bot_delay=0)
    assert first.status_code == 201 and first.json()["table"]["host_token"]
    again = sent(desk, desk.manager, "open-table-01", "open_table", game=1, bot_delay=0)
    assert again.status_code == 200 and again.json()["table"] is None
    assert again.json()["entry"] == first.json()["entry"]
    assert len(server.app.state.services.manager.tables) == tables + 1


async def _news(base: str, event: str) -> AsyncGenerator[tuple[str, int], None]:
    """An event's stream of news: (kind, last entry's number) as each comes."""
    async with (
        httpx.AsyncClient(base_url=base, timeout=patience(30)) as http,
        http.stream("GET", f"/api/events/{event}/stream") as response,
    ):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        kind = ""
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                yield kind, json.loads(line.removeprefix("data: "))["seq"]


def test_a_stream_tells_of_each_entry_made_at_either_worker_within_two_seconds(
    server: ServerThread, tmp_path: Path, database: str
) -> None:
    desk = a_game(server)
    second = ServerThread(tmp_path / "second", FAST, database=database)
    try:
        there = Desk.at(second, desk)

        async def follow() -> list[float]:
            news = _news(server.base, desk.id)
            kind, seq = await anext(news)
            assert (kind, seq) == ("entry", desk.read()["log"][-1]["seq"])
            delays = []
            for hand, at in enumerate((desk, there, there, desk), start=1):
                order = FIVE[hand:] + FIVE[:hand]
                entry = await asyncio.to_thread(
                    at.ok, desk.tokens["Ann"], "hand", game=1, hand=hand, order=order
                )
                # From the entry's answer: the entry stands from then on (its request's
                # own time, long on a busy machine, is not the news's delay).
                made = time.monotonic()
                while (kind, seq) != ("entry", entry["entry"]["seq"]):
                    kind, seq = await asyncio.wait_for(anext(news), patience(5))
                delays.append(time.monotonic() - made)
            await news.aclose()
            return delays

        delays = run(follow())
        # Made here: at once; made at the other worker: within the look a second.
        assert max(delays) < patience(2), delays
    finally:
        second.stop()


async def _status(base: str, event: str) -> int:
    """The status a new stream of the event gets (then it is closed at once)."""
    async with (
        httpx.AsyncClient(base_url=base, timeout=patience(10)) as http,
        http.stream("GET", f"/api/events/{event}/stream") as response,
    ):
        if response.status_code == 429:
            await response.aread()
            assert "streams of events' news from one address" in response.json()["detail"]
        return response.status_code


def test_one_address_holds_so_many_streams(tmp_path: Path, database: str) -> None:
    limits = dataclasses.replace(FAST, event_streams_per_address=2)
    server = ServerThread(tmp_path, limits, database=database)
    try:
        desk = Desk(server)

        async def streams() -> None:
            first, second = _news(server.base, desk.id), _news(server.base, desk.id)
            assert await anext(first) == await anext(second) == ("entry", 0)
            assert await _status(server.base, desk.id) == 429
            # A stream closed gives its place back (once the server sees it go).
            await first.aclose()

            deadline = time.monotonic() + patience(10)
            while await _status(server.base, desk.id) != 200:
                assert time.monotonic() < deadline, "a stream's place was not given back"
                await asyncio.sleep(0.05)
            await second.aclose()

        run(streams())
    finally:
        server.stop()
