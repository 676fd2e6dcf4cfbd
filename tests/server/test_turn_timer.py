"""The turn timer: a person who takes too long over a move has the stand-in bot make
that one move, and everyone is told in words."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pitkit.server.client import TableClient
from tests.server.conftest import FAST, ServerThread, run


def test_time_runs_out(tmp_path: Path, database: str) -> None:
    server = ServerThread(
        tmp_path, dataclasses.replace(FAST, turn_seconds_least=0.1), database=database
    )
    try:
        created = server.create(
            game="ace-pit", seats=["open", "greedy"], settings={"turn_seconds": 0.4}
        )
        tid, token = created["table"]["id"], created["seats"][0]["token"]

        async def main() -> None:
            ann = TableClient(server.base, tid, token)
            await ann.connect(name="Ann")
            watcher = TableClient(server.base, tid, None)
            await watcher.connect()
            # Ann's turn comes with the time left to make it; she lets it run out.
            while True:
                message = await ann.recv()
                if message["type"] in ("sync", "update") and 0 in ann.to_act:
                    assert 0 < message["turn_left"] <= 0.4
                    break
            # The stand-in's move, in Ann's seat, then the words.
            moved = None
            while (told := await ann.recv(5))["type"] != "timed_out":
                moved = told if told["type"] == "update" else moved
            assert moved is not None and moved["events"][0]["seat"] == 0
            assert told == {
                "type": "timed_out",
                "seat": 0,
                "text": "Time ran out: a bot played for you",
            }
            seen = await watcher.recv_type("timed_out", timeout=5)
            assert seen["text"] == "Time ran out: a bot played for Ann"
            for c in (ann, watcher):
                await c.close()

        run(main())
    finally:
        server.stop()


def test_turn_timer_bounds(server: ServerThread) -> None:
    for wrong in (5, 601, 0, "60", True):
        response = server.http.post(
            "/api/tables",
            json={
                "game": "ace-pit",
                "seats": ["open", "greedy"],
                "settings": {"turn_seconds": wrong},
            },
        )
        assert response.status_code in (400, 422), response.text
        assert "turn_seconds" in response.text
    created = server.create(game="ace-pit", seats=["open", "greedy"], settings={"turn_seconds": 60})
    assert created["table"]["settings"]["turn_seconds"] == 60
