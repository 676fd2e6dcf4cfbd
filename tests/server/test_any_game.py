"""The server serves any registered game through the interface alone: War
(tests/extra/war.py) exists only in the tests, and is listed, seated,
played against its bot, worded and replayed like the five."""

from __future__ import annotations

import json
import time

import jsonschema

from pitkit import games
from pitkit.core.events import Event
from pitkit.core.views import json_schema
from pitkit.server.client import RandomPlayer, TableClient
from tests.server.conftest import ServerThread, run
from tests.waiting import patience


def test_every_game_is_listed_with_its_roles_schema_and_drawing(server: ServerThread) -> None:
    listed = {g["name"]: g for g in server.http.get("/api/games").json()}
    assert set(listed) == set(games.names()) and "war" in listed
    for name, entry in listed.items():
        game = games.get(name)
        assert game.view_type is not None
        assert (entry["heuristic"], entry["opponent"]) == (game.heuristic, game.opponent)
        assert entry["opponent"] in entry["bots"]
        assert entry["view_schema"] == json_schema(game.view_type)
        jsonschema.Draft202012Validator.check_schema(entry["view_schema"])
    # A game's own drawing is found by its registry name; War has none.
    assert listed["war"]["module"] is None
    module = listed["pitty-pat"]["module"]
    assert module == "/static/js/games/pitty-pat.js"
    assert server.http.get(module).status_code == 200


def test_a_person_plays_war_against_its_bot_with_words_and_a_log(server: ServerThread) -> None:
    created = server.create(game="war", seats=[None, "high"])
    tid = created["table"]["id"]
    token = created["seats"][0]["token"]
    war = games.get("war").view_type
    assert war is not None
    schema = json_schema(war)

    async def main() -> TableClient:
        client = TableClient(server.base, tid, token)
        await client.connect(name="Ann", views=True)
        player = RandomPlayer(client, seed=5)
        await player.run(time.monotonic() + patience(30))
        await client.close()
        return client

    client = run(main())
    assert server.table(tid)["status"] == "over"
    syncs = [m for m in client.log if m.get("type") == "sync"]
    assert syncs
    for sync in syncs:
        jsonschema.validate(sync["view"], schema)
    words = [
        e["text"]
        for m in client.log
        for e in (m.get("events") or m.get("view", {}).get("history") or [])
        if e.get("text")
    ]
    # Ann reads her own moves in the second person, the bot's by its name.
    assert any(w.startswith("You play ") for w in words), words
    assert any(w.startswith("Bix plays ") for w in words), words
    assert not any("seat 1" in w.lower() for w in words), words
    # The published log replays to the same match.
    lines = server.http.get(f"/api/tables/{tid}/matches/1/log").text.splitlines()
    header = json.loads(lines[0])
    events = [Event.from_json(json.loads(line)) for line in lines[1:]]
    replayed = games.get("war").replay(header, events)
    assert replayed.is_over


def test_a_refusal_calls_the_seats_by_name(server: ServerThread) -> None:
    created = server.create(game="war", seats=[None, None])
    tid = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> str:
        ann, bo = TableClient(server.base, tid, tokens[0]), TableClient(server.base, tid, tokens[1])
        await ann.connect(name="Ann")
        await bo.connect(name="Bo")
        await ann.recv_type("sync")
        await bo.recv_type("sync")
        waiting = bo if ann.legal else ann
        await waiting.send({"type": "act", "action": "play 2C", "version": waiting.version})
        reason = str((await waiting.recv_type("error"))["reason"])
        await ann.close()
        await bo.close()
        return reason

    # The engine says "seat 1 may not act now"; the seat reads it of itself.
    assert run(main()) == "you may not act now"
