"""The typed wire (docs/protocol.md, "The typed wire"): the browser's
``static/js/wire.d.ts`` is written from the Python declarations, and what the
server really sends fits them.

Every message of a turn-based table and of a real-time one, every answer of the
lobby the pages read, and every tournament read through its links (both kinds,
each role) is checked against the JSON Schema of its declaration, where no object
may hold a field it does not declare (but a game's events, seats and view, whose
own fields are checked against the game's view schema)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
import typing
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from pitkit import games
from pitkit.core.game import Game
from pitkit.core.views import json_schema
from pitkit.server.client import RandomPlayer, TableClient
from pitkit.server.live import wire as live
from pitkit.server.live.protocol import ERRORS
from pitkit.server.ops.settings import database_url
from pitkit.server.wire import PATH, render, schema
from pitkit.tournaments import wire as tournaments
from tests.server.conftest import FAST, ServerThread, run
from tests.server.test_events import Desk
from tests.server.test_pitch_event import EIGHT, PitchDesk
from tests.waiting import patience

MESSAGES: dict[str, Any] = {
    typing.get_args(typing.get_type_hints(kind)["type"])[0]: kind
    for kind in typing.get_args(live.ServerMessage)
}
"""Each server message's declaration, by its ``type``."""

VIEWS: dict[str, Any] = {
    "pits-continuous": tournaments.PitsTournamentView,
    "pitch-tournament": tournaments.PitchTournamentView,
}
"""Each tournament kind's view."""


class Wire:
    """Checks values against their declarations, and counts what it checked."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()
        self._validators: dict[Any, jsonschema.protocols.Validator] = {}

    def check(self, value: Any, kind: Any, seen: str, schema_of: Any = schema) -> None:
        """`value` fits declaration `kind` (or, with `json_schema`, a game's view type)."""
        validator = self._validators.get(kind)
        if validator is None:
            made = jsonschema.Draft202012Validator(schema_of(kind))
            validator = self._validators[kind] = made
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]
        assert not errors, f"{seen} does not fit {kind.__name__}:\n" + "\n".join(errors[:5])
        self.seen[seen] += 1

    def message(self, message: dict[str, Any], game: Game) -> None:
        """A message of a table's socket, and the view it carries in its game's terms."""
        assert message.get("type") in MESSAGES, f"an undeclared message: {message}"
        self.check(message, MESSAGES[message["type"]], message["type"])
        if "view" in message:
            self.check(message["view"], game.view_type, f"{message['type']} view", json_schema)
        if message["type"] == "sync" and message["earlier"]:
            self.seen["earlier"] += 1

    def tournament(self, read: dict[str, Any]) -> None:
        """A tournament as a link's role reads it, and its kind's view."""
        self.check(read, tournaments.TournamentInfo, "tournament")
        view = read["view"]
        self.check(view, VIEWS[read["kind"]], f"{read['kind']} {read['me']['role']}")
        if "mine" in view:
            self.seen[f"{read['kind']} mine"] += 1


class CheckedClient(TableClient):
    """A table client that checks every message it receives."""

    def __init__(self, wire: Wire, game: Game, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.wire = wire
        self.game = game

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        message = await super().recv(timeout)
        self.wire.message(message, self.game)
        return message


@pytest.fixture
def paced(tmp_path: Path) -> typing.Iterator[ServerThread]:
    """A server on SQLite (the wire is the same on every store) whose turn timer may be short."""
    limits = dataclasses.replace(FAST, turn_seconds_least=0.1)
    server = ServerThread(tmp_path, limits, database=database_url(str(tmp_path), None))
    yield server
    server.stop()


def test_the_browsers_types_are_written_from_the_declarations() -> None:
    assert PATH.read_text() == render(), "static/js/wire.d.ts is stale: run make wire"


def test_the_error_codes_are_the_servers() -> None:
    assert set(typing.get_args(live.ErrorCode)) == set(ERRORS)


def _lobby(server: ServerThread, wire: Wire, table_id: str) -> None:
    """The lobby's answers about a finished table: the games, the table, its replays."""
    for game in server.http.get("/api/games").json():
        wire.check(game, live.GameInfo, "game info")
    wire.check(server.table(table_id), live.TableInfo, "table info")
    for table in server.http.get("/api/tables").json():
        wire.check(table, live.TableInfo, "listed table")
    game = games.get(server.table(table_id)["game"])
    for seat in ("all", "0"):
        replay = server.http.get(f"/api/tables/{table_id}/matches/1/replay?seat={seat}")
        assert replay.status_code == 200, replay.text
        wire.check(replay.json(), live.Replay, "replay")
        for step in replay.json()["steps"]:
            view = {k: v for k, v in step["view"].items() if k != "hands"}
            wire.check(view, game.view_type, "replay view", json_schema)


def test_a_turn_based_table_sends_what_is_declared(paced: ServerThread) -> None:
    """Two people, a bot and a spectator at Pitty Pat, with a turn timer and a pause
    between hands: Bob never moves (the timer moves for him), both say ready."""
    wire = Wire()
    game = games.get("pitty-pat")
    created = paced.create(
        game="pitty-pat",
        seats=["open", "open", "sensible"],
        rules={"turn_limit": 4, "hands": 3},  # a hand that runs four turns is a draw
        settings={"turn_seconds": 0.3, "next_hand_seconds": 30},
    )
    tid, host = created["table"]["id"], created["host_token"]
    ann_token, bob_token = (seat["token"] for seat in created["seats"])

    async def play(client: CheckedClient, moves: bool) -> None:
        """Read until the match is over, saying ready when awaited; with `moves`, play
        the first legal action, and ask for a full view once, after a hand."""
        sent: set[tuple[str, Any]] = set()  # each message sent once, at its (match, version)

        async def once(key: tuple[str, Any], message: dict[str, Any]) -> None:
            if key not in sent:
                sent.add(key)
                await client.send(message)

        while not client.over:
            message = await client.recv(20)
            here = (client.match, client.version)
            pause = client.next_hand
            if pause is not None and client.seat in pause["waiting"]:
                await once(("ready", here), {"type": "ready"})
            elif moves and pause is None and client.seat in client.to_act and client.legal:
                await once(
                    ("act", here), {"type": "act", "action": client.legal[0], "version": here[1]}
                )
            events = message["events"] if message["type"] == "update" else []
            if moves and any(e["type"] == "scores" for e in events):
                await once(("sync", None), {"type": "sync", "id": "after a hand"})

    async def main() -> None:
        ann = CheckedClient(wire, game, paced.base, tid, ann_token)
        bob = CheckedClient(wire, game, paced.base, tid, bob_token)
        watcher = CheckedClient(wire, game, paced.base, tid, None)
        await ann.connect(name="Ann", views=True)
        await ann.recv_type("welcome")
        await watcher.connect(views=True)
        await watcher.recv_type("welcome")
        await ann.send({"type": "chat", "text": "Good luck"})
        await ann.send({"type": "ping", "id": "p"})
        await ann.send({"type": "act", "action": "jump", "version": 0, "id": 1})
        await bob.connect(name="Bob")  # the last seat: the match starts
        await bob.recv_type("welcome")
        renamed = paced.http.put(
            f"/api/tables/{tid}/seats/1/name",
            json={"name": "Bob B."},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert renamed.status_code == 200, renamed.text
        await asyncio.gather(play(ann, True), play(bob, False), play(watcher, False))
        for client in (ann, bob, watcher):
            await client.close()

    run(main())
    _lobby(paced, wire, tid)
    assert set(MESSAGES) <= set(wire.seen), f"not every message was seen: {wire.seen}"
    for seen in ("sync view", "update view", "earlier", "replay view", "game info"):
        assert wire.seen[seen], seen


def test_a_real_time_table_sends_what_is_declared(paced: ServerThread) -> None:
    """A person and two bots at Pit, at a person's pace (the sorting period runs)."""
    wire = Wire()
    game = games.get("pit")
    created = paced.create(
        game="pit",
        players=3,
        seats=[None, "sensible", "sensible"],
        # Twenty market actions without a trade stall a hand (T7); two hands end the match.
        rules={"sorting_seconds": 1, "idle_limit": 20, "hand_limit": 2},
        settings={"bot_delay": 0.05},
    )
    tid, token = created["table"]["id"], created["seats"][0]["token"]
    ann = CheckedClient(wire, game, paced.base, tid, token)

    async def main() -> None:
        await ann.connect(name="Ann", views=True)
        await RandomPlayer(ann, 5).run(time.monotonic() + patience(60))
        await ann.close()

    run(main())
    first = next(m for m in ann.log if m["type"] == "sync")
    assert first["sorting_left"] > 0 and ann.over
    _lobby(paced, wire, tid)
    for seen in ("welcome", "sync", "update", "ack", "table", "sync view", "update view"):
        assert wire.seen[seen], seen


def _check_reads(server: ServerThread, wire: Wire) -> None:
    """Check every tournament the server answers with: a read, a new one, an entry's."""

    def answered(response: httpx.Response) -> None:
        path = response.request.url.path
        if response.status_code not in (200, 201) or not path.startswith("/api/events"):
            return
        response.read()
        body = response.json()
        if re.fullmatch(r"/api/events/[^/]+", path) and response.request.method == "GET":
            wire.tournament(body)
        elif isinstance(body, dict) and "event" in body:
            wire.tournament(body["event"])

    server.http.event_hooks["response"].append(answered)


def test_a_pits_tournaments_views_are_what_is_declared(paced: ServerThread) -> None:
    wire = Wire()
    _check_reads(paced, wire)
    desk = Desk(paced)
    players = EIGHT[:6]
    for name in players:
        desk.add(name)
    table = players[:5]
    desk.ok(desk.manager, "start_game", players=table, table="Table A")
    for hand in range(1, 11):
        if hand == 4:  # Eve quits; Fay takes her seat
            desk.ok(desk.tokens["Eve"], "quit", game=1, player="Eve", replacement="Fay")
            table = [*table[:4], "Fay"]
        order = table[hand % 5 :] + table[: hand % 5]
        desk.ok(desk.tokens["Ann"], "hand", game=1, hand=hand, order=order)
    desk.ok(desk.tokens["Bob"], "quit", game=1, player="Bob")  # after ten: ruled off
    for name in table:
        desk.ok(desk.tokens[name], "sign", game=1, player=name)
    for token in (None, desk.manager, desk.tokens["Ann"]):
        desk.read(token)
    for role in ("public", "manager", "player"):
        assert wire.seen[f"pits-continuous {role}"], role


def test_a_pitch_tournaments_views_are_what_is_declared(paced: ServerThread) -> None:
    """Two Go-Rounds: a pending hand, appeals, a disqualification, a champion."""
    wire = Wire()
    _check_reads(paced, wire)
    desk = PitchDesk(paced)
    for name in EIGHT:
        desk.add(name)
    desk.judge("Jo Dee")
    desk.judge("Max Ray")
    desk.ok(desk.manager, "seat_round", by="standing", judges=["Jo Dee", "Max Ray"])
    desk.ok(desk.tokens["Jo Dee"], "cut", round=1, table=1, dealer="Ann")
    desk.ok(desk.tokens["Max Ray"], "cut", round=1, table=2, dealer="Bob")
    desk.hand(1, 1, bid=2, pitcher="Ann", high="Ann", low="Ann", game="Ann")
    desk.read(desk.tokens["Jo Dee"])  # the judge's pending line
    desk.confirm(1, 1, 1)
    for correctable in (True, False):
        appeal = desk.ok(desk.tokens["Eve"], "appeal", round=1, table=1, offender="Cat")
        desk.read(desk.tokens["Eve"])  # the player's table, its appeal open
        ruling = {"correctable": True} if correctable else {"correctable": False, "highest_bid": 3}
        desk.ok(desk.tokens["Jo Dee"], "rule_misplay", appeal=appeal["entry"]["seq"], **ruling)
        if correctable:
            desk.win(1, 1, "Ann")
    desk.play_out(1, 1, "Ann")
    desk.play_out(1, 2, "Hal")
    desk.ok(desk.manager, "seat_round", by="standing", judges=["Max Ray"])
    desk.ok(desk.tokens["Max Ray"], "cut", round=2, table=1, dealer="Hal")
    desk.play_out(2, 1, "Hal")
    assert desk.view()["champion"] == "Hal"
    for token in (None, desk.manager, desk.tokens["Max Ray"], desk.tokens["Hal"]):
        desk.read(token)
    for role in ("public", "manager", "judge", "player", "mine"):
        assert wire.seen[f"pitch-tournament {role}"], role
