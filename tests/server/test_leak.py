"""No message to a connection holds a card its seat may not see.

Many matches are played through the server by WebSocket clients (and
server-side bots), with a spectator at each table. Afterwards each match is
replayed from its published log, giving the true position at every version,
and every message each connection received is checked:

1. It is exactly what the protocol allows: an update's events are the true
   events' `seen_by` for that seat, a sync's view is the true `view(seat)`,
   and no message carries a seed, a secret or another seat's private part.
2. Against the true zones: a card lying, at that version, in a zone hidden
   from that seat appears only if the seat saw it in an open zone earlier in
   the same hand, a public event showed it, or the public record of the hands
   played so far (the `match` part of every view) names it.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import time
from collections.abc import Set as AbstractSet
from typing import Any

import orjson

from pitkit import games
from pitkit.core.events import Event
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.server.client import RandomPlayer, TableClient
from pitkit.server.live.messages import named
from tests.server.conftest import ServerThread, run
from tests.waiting import patience

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHS]|RJ|BJ)(?![A-Za-z0-9])")
FORBIDDEN_KEYS = {"seed", "secret", "private"}


def _cards(data: Any) -> set[str]:
    return set(CARD.findall(json.dumps(data)))


def _as_sent(value: Any) -> Any:
    """`value` as a client reads it back from JSON (keys as strings, tuples as lists),
    written with orjson as the server writes its messages."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def _unworded(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as the engine saw them: less their words (the words are scanned
    for cards with the rest of the message)."""
    assert all(isinstance(e["text"], str | None) for e in events)
    return [{k: v for k, v in e.items() if k != "text"} for e in events]


def _keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


class Truth:
    """The true match at every version, rebuilt from the published log."""

    def __init__(
        self,
        header: dict[str, Any],
        events: list[Event],
        views: set[tuple[Any, int]],
        parts: AbstractSet[tuple[Any, int]] = frozenset(),
    ):
        """Replay the match; keep the whole view of each (seat, version) in `views`,
        and in `parts` the view less its history and the match's record (which is
        costly to build and encode in a long match, and is all such an update holds)."""
        game = games.get(header["game"])
        n = int(header["players"])
        self.seats: list[int | None] = [None, *range(n)]
        self.starts: list[int] = []
        self.views: dict[tuple[int | None, int], dict[str, Any]] = {}
        self.hidden: list[dict[int | None, set[str]]] = []
        self.disclosed: list[dict[int | None, set[str]]] = []
        match: Match[Any, Any] | None = None
        log_len = 0
        results = 0
        record: set[str] = set()
        seen: dict[int | None, set[str]] = {s: set() for s in self.seats}
        for version, match in enumerate(game.replay_steps(header, events)):
            # Yielded before each action and at the end: version v's events
            # begin where the log ended at the previous yield.
            self.starts.append(log_len)
            log_len = len(match.log)
            new_hand = len(match.results) > results
            results = len(match.results)
            start = self.starts[version]
            public = _cards([e.seen_by(None) for e in match.log[start:]])
            # The record of the hands played so far is shown to everyone, spectators too;
            # it changes only when a hand ends.
            if new_hand or version == 0:
                record = _cards(match.view(None)["match"])
            zones = match.zones()
            self.hidden.append({})
            self.disclosed.append({})
            for seat in self.seats:
                hidden_names = set(match.hidden_zones(seat))
                hidden = {str(c) for name in hidden_names for c in zones[name]}
                visible = {
                    str(c) for name in zones if name not in hidden_names for c in zones[name]
                }
                if new_hand:
                    seen[seat] = set()
                seen[seat] |= visible | public
                self.hidden[version][seat] = hidden
                self.disclosed[version][seat] = seen[seat] | record
                if (seat, version) in views:
                    self.views[(seat, version)] = _as_sent(match.view(seat))
                elif (seat, version) in parts:
                    view = match.current_hand.view(seat)  # the match's view less its record
                    del view["history"]
                    self.views[(seat, version)] = _as_sent(view)
        assert match is not None
        self.log = match.log

    def events(self, seat: int | None, since: int, version: int) -> list[dict[str, Any]]:
        start = self.starts[since + 1]
        end = self.starts[version + 1] if version + 1 < len(self.starts) else len(self.log)
        return [_as_sent(e.seen_by(seat)) for e in self.log[start:end]]


async def _play_table(server: ServerThread, name: str, bot_seats: int) -> list[TableClient]:
    game = games.get(name)
    n = game.default_players
    seats = ["random"] * bot_seats + ["open"] * (n - bot_seats)
    # Random players: a short match (Pit's random traders rarely corner).
    created = server.create(game=name, seats=seats, rules=dict(game.short_match))
    tid = created["table"]["id"]
    clients = [TableClient(server.base, tid, s["token"]) for s in created["seats"]]
    watcher = TableClient(server.base, tid, None)
    await watcher.connect()
    for i, c in enumerate(clients):
        # One seat also gets its view in every update (hello's `views`).
        await c.connect(views=i == 0)
    players = [RandomPlayer(c, i) for i, c in enumerate(clients)]
    # Generous: the test is about what each message shows, not speed, and PostgreSQL
    # on a busy 2-core machine commits a turn at a time slowly.
    until = time.monotonic() + patience(120)
    await asyncio.gather(*(p.run(until) for p in players), _watch(watcher, until))
    assert server.table(tid)["status"] == "over", name
    for c in [*clients, watcher]:
        await c.close()
    return [*clients, watcher]


async def _watch(watcher: TableClient, until: float) -> None:
    while time.monotonic() < until and not watcher.over:
        try:
            await watcher.recv(max(0.05, until - time.monotonic()))
        except TimeoutError:
            return


def _check(server: ServerThread, clients: list[TableClient]) -> int:
    tid = clients[0].url.rsplit("/", 1)[1]
    text = server.http.get(f"/api/tables/{tid}/matches/1/log").text
    lines = [json.loads(line) for line in text.splitlines()]
    header, events = lines[0], [Event.from_json(e) for e in lines[1:]]
    wanted = {
        (c.seat, m["version"])
        for c in clients
        for m in c.log
        if m.get("type") == "sync" or "match" in m.get("view", ())
    }
    parts = {(c.seat, m["version"]) for c in clients for m in c.log if "view" in m} - wanted
    truth = Truth(header, events, wanted, parts)
    labels = [seat["label"] for seat in server.table(tid)["seats"]]

    def expected(seat: int | None, version: int) -> dict[str, Any]:
        """The true view, its sentences naming the seats as the table does."""
        return named(copy.deepcopy(truth.views[(seat, version)]), Narrator.named(labels, seat))

    checked = 0
    for client in clients:
        seat = client.seat
        for message in client.log:
            assert not _keys(message) & FORBIDDEN_KEYS, message
            kind = message.get("type")
            if kind == "sync":
                version = message["version"]
                view = {**message["view"], "history": _unworded(message["view"]["history"])}
                assert view == expected(seat, version)
            elif kind == "update":
                version = message["version"]
                events_seen = _unworded(message["events"])
                assert events_seen == truth.events(seat, message["from"], version)
                if "view" in message:
                    # Less the history (and the match's record when it did not change:
                    # test_play checks that the client's copy stays right).
                    whole = expected(seat, version)
                    whole.pop("history", None)
                    if "match" not in message["view"]:
                        whole.pop("match", None)
                    assert message["view"] == whole
            else:
                continue
            leaked = _cards(message) & truth.hidden[version][seat] - truth.disclosed[version][seat]
            assert not leaked, (header["game"], seat, version, leaked)
            checked += 1
    return checked


def test_no_message_leaks_a_hidden_card(server: ServerThread) -> None:
    plan = [
        ("pitty-pat", 1),
        ("pits", 2),
        ("ace-pit", 0),
        ("pitch", 2),
        ("pit", 4),  # real time: commodity cards, so only the exactness check bites
    ]

    async def main() -> list[list[TableClient]]:
        return list(await asyncio.gather(*(_play_table(server, g, b) for g, b in plan)))

    tables = run(main())
    checked = sum(_check(server, clients) for clients in tables)
    assert checked > 1000
