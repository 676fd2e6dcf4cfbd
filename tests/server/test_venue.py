"""A venue (issue 36): a hall of players behind one router, which the server sees as
one address, plays under the limits of a public site: players' sockets count by their
seat and their links' requests by their token, not against the address, while a
flooding socket from the same address is cut off."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from pitkit.server import Limits
from pitkit.server.client import RandomPlayer, TableClient
from pitkit.server.ops.tokens import new_token
from pitkit.server.web.limits import TOKEN_SHAPE
from tests.server.conftest import FAST, ServerThread, run
from tests.server.flood import dropped_within, flood, raw_socket
from tests.waiting import patience, wait_until

TABLES = 26
"""Tables of four: 104 players, more sockets than one address may hold anonymously (100)."""
POLLS = 250
"""Event page polls at least: more than one address's burst of requests (200)."""


def test_a_hall_behind_one_address_plays_while_a_flood_from_it_is_cut_off(
    tmp_path: Path,
) -> None:
    server = ServerThread(tmp_path, Limits())  # a public site's limits, not a venue's
    try:
        seats = [
            (created["table"]["id"], seat["token"])
            for created in (
                server.create(
                    game="pitty-pat", seats=["open"] * 4, settings={"next_hand_seconds": 0}
                )
                for _ in range(TABLES)
            )
            for seat in created["seats"]
        ]
        event, links = _event(server, TABLES)
        run(_hall(server, seats, event, links))
    finally:
        server.stop()


def _event(server: ServerThread, players: int) -> tuple[str, list[str]]:
    """A Pits tournament of `players`; its id and each player's link token."""
    made = server.http.post("/api/events", json={"kind": "pits-continuous", "name": "Hall"})
    assert made.status_code == 201, made.text
    manager = {"authorization": f"Bearer {made.json()['manager']['token']}"}
    event = made.json()["event"]["id"]
    links = []
    for i in range(players):
        entry = {"type": "add_player", "data": {"name": f"Player {i}"}}
        answer = server.http.post(f"/api/events/{event}/entries", json=entry, headers=manager)
        assert answer.status_code == 201, answer.text
        links.append(answer.json()["link"]["token"])
    return event, links


async def _hall(
    server: ServerThread, seats: list[tuple[str, str]], event: str, links: list[str]
) -> None:
    players = [
        RandomPlayer(TableClient(server.base, t, token), seed=i, think=0.3)
        for i, (t, token) in enumerate(seats)
    ]
    # People arrive a few dozen at a time (all of them from 127.0.0.1).
    for start in range(0, len(players), 40):
        await asyncio.gather(*(_arrive(p.client) for p in players[start : start + 40]))
    # Three seconds of play and polls (longer on a busy machine: enough of each to count).
    until = time.monotonic() + patience(3)
    statuses: list[int] = []
    async with httpx.AsyncClient(
        base_url=server.base, limits=httpx.Limits(max_connections=8), timeout=patience(10)
    ) as http:
        play = [p.run(until, matches=1000) for p in players]
        polls = [_poll(http, event, link, until, statuses) for link in links]
        junk = asyncio.to_thread(_junk, server, seats[0][0], statuses)
        *_, cut_off = await asyncio.gather(*play, *polls, junk)
    assert cut_off is not None and cut_off < dropped_within(), cut_off
    # Every page's poll answered: more than the address's burst (200), each on its link.
    assert len(statuses) > POLLS and set(statuses) == {200}, sorted(set(statuses))
    # On a busy machine a table may not have come round to every seat yet: play on
    # until each player has moved (or the deadline says something is wrong).
    deadline = time.monotonic() + patience(30)
    while not all(p.acked for p in players) and time.monotonic() < deadline:
        more = time.monotonic() + 1
        await asyncio.gather(*(p.run(more, matches=1000) for p in players))
    for p in players:
        assert p.client.seat is not None and p.acked, "a player was refused or never played"
        races = ("stale", "not_your_turn", "lost_race")
        assert not [e for e in p.errors if e["code"] not in races], p.errors
    for p in players:
        await p.client.close()


async def _arrive(client: TableClient) -> None:
    await client.connect(name="P")
    await client.recv_type("welcome")


async def _poll(
    http: httpx.AsyncClient, event: str, link: str, until: float, out: list[int]
) -> None:
    """A player's event page polling ten times a second (a page polls every 5 s), until
    `until` and until the pages together have polled more than the address's burst
    (a busy machine polls fewer times in the same seconds)."""
    deadline = until + patience(30)
    while (time.monotonic() < until or len(out) <= POLLS) and time.monotonic() < deadline:
        answer = await http.get(f"/api/events/{event}", headers={"authorization": f"Bearer {link}"})
        out.append(answer.status_code)
        await asyncio.sleep(0.1)


def _junk(server: ServerThread, table: str, statuses: list[int]) -> float | None:
    """A spectator's socket from the hall's address flooding junk once the hall is under
    way (as many polls as pages): seconds until cut off."""
    wait_until(lambda: len(statuses) >= 4 * TABLES, 10, "the hall's pages to poll")
    with raw_socket(server.port, table) as sock:
        sock.sendall(b"\x81\x90\0\0\0\0" + b'{"type":"hello"}')
        return flood(sock, within=dropped_within() + patience(1)).dropped


# -- requests by token -------------------------------------------------------------------


def limited(**changes: Any) -> Limits:
    return Limits(**{**FAST.__dict__, **changes})


def test_requests_with_a_link_are_counted_by_link_and_guesses_by_address(
    tmp_path: Path,
) -> None:
    server = ServerThread(tmp_path, limited(requests_per_second=0.01, request_burst=6))
    try:
        # 2 of the address's 6: the event, and the manager's first entry (a token is the
        # address's until a route that reads tokens has accepted it; then it has its own 6).
        event, links = _event(server, 2)
        path = f"/api/events/{event}"

        def get(token: str | None) -> int:
            headers = {"authorization": f"Bearer {token}"} if token else {}
            return server.http.get(path, headers=headers).status_code

        # Each link: its first request on the address (3, 4), then 6 of its own.
        assert [get(links[0]) for _ in range(8)] == [200] * 7 + [429]
        assert [get(links[1]) for _ in range(8)] == [200] * 7 + [429]
        # Made-up tokens are guesses: refused, and counted against the address (5, 6),
        # which then has nothing left for guesses or anyone anonymous.
        assert [get(new_token()) for _ in range(3)] == [403, 403, 429]
        assert get(None) == 429
        assert get(links[0]) == 429  # and a link's budget stays its own
    finally:
        server.stop()


def test_a_token_a_route_ignores_earns_no_budget_of_its_own(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, limited(requests_per_second=0.01, request_burst=5))
    try:
        made_up = {"authorization": f"Bearer {new_token()}"}
        codes = [server.http.get("/healthz", headers=made_up).status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
    finally:
        server.stop()


@pytest.mark.parametrize("header", ["Bearer short", "Basic abcdefghijklmnopqrstuvwx", ""])
def test_only_a_bearer_token_of_the_servers_shape_is_a_token(header: str) -> None:
    assert TOKEN_SHAPE.fullmatch(header.encode()) is None
    assert TOKEN_SHAPE.fullmatch(f"Bearer {new_token()}".encode()) is not None


def test_a_seated_socket_leaves_its_address_count(tmp_path: Path) -> None:
    server = ServerThread(tmp_path, limited(connections_per_address=4))
    try:
        created = server.create(game="pitty-pat", seats=["open"] * 4)
        table, tokens = created["table"]["id"], [s["token"] for s in created["seats"]]

        async def check() -> None:
            players = [TableClient(server.base, table, token) for token in tokens]
            for p in players:  # one at a time: each leaves the count once seated
                await p.connect()
                await p.recv_type("welcome")
            watchers = [TableClient(server.base, table) for _ in range(3)]
            for w in watchers:
                await w.connect()
                assert (await w.recv_type("welcome"))["seat"] is None
            # 7 WebSockets and the test's HTTP socket under a cap of 4: the seated don't count.
            for c in [*players, *watchers]:
                await c.close()

        run(check())
    finally:
        server.stop()
