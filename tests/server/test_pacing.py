"""Play at a person's pace: Pit's sorting period counts down in the messages, and
between hands the next hand waits for the people at the table (or its countdown)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from pathlib import Path
from typing import Any

from pitkit.server.client import TableClient
from tests.server.conftest import FAST, ServerThread, run
from tests.waiting import patience, until

SORTING = 2

# Short hands: a Pitty Pat hand that runs four turns is a draw.
QUICK = {"turn_limit": 4, "hands": 3}


async def play_until(client: TableClient, until: str) -> dict[str, Any]:
    """Play `client`'s seat (its first legal move) until a hand ends (`until` "hand") or
    the match is over (either way): the update that says so."""
    acted: int | None = None  # the version last acted on, until the table moves on
    while True:
        mine = client.seat in client.to_act and client.legal and client.next_hand is None
        if mine and client.version != acted:
            act = {"type": "act", "action": client.legal[0], "version": client.version}
            await client.send(act)
            acted = client.version
        message = await client.recv(10)
        if message["type"] == "error":
            acted = None
        elif message["type"] == "update":
            scored = any(e["type"] == "scores" for e in message["events"])
            if message["over"] or (until == "hand" and scored):
                return message


async def until_hand_ends(*clients: TableClient) -> dict[str, Any]:
    """Play the people's seats (each its first legal move) until a hand ends and the
    match goes on: the update that says so, as the first client got it."""
    ended = await asyncio.gather(*(play_until(client, "hand") for client in clients))
    for message in ended:
        assert not message["over"], "the match ended before a hand did"
    return ended[0]


async def drain(client: TableClient, seconds: float) -> list[dict[str, Any]]:
    """Every message `client` receives for `seconds` (how long nothing may happen, in a
    check that nothing does: not scaled)."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    with contextlib.suppress(TimeoutError):
        while time.monotonic() < deadline:
            # recv scales what it is given (TableClient.patience): this is a duration.
            left = max(0.01, deadline - time.monotonic()) / client.patience
            got.append(await client.recv(left))
    return got


def test_sorting_left_counts_down_and_goes_when_the_pit_opens(server: ServerThread) -> None:
    created = server.create(
        game="pit",
        players=3,
        seats=[None, "sensible", "sensible"],
        rules={"sorting_seconds": SORTING, "hand_limit": 1},
        settings={"bot_delay": 0.05},
    )
    tid, token = created["table"]["id"], created["seats"][0]["token"]

    async def main() -> None:
        ann = TableClient(server.base, tid, token)
        await ann.connect(name="Ann")
        first = await ann.recv_type("sync")
        assert first["next_hand"] is None
        assert 0 < first["sorting_left"] <= SORTING
        await asyncio.sleep(0.6)  # time passing on the countdown under test
        await ann.send({"type": "sync"})
        later = await ann.recv_type("sync")
        assert 0 <= later["sorting_left"] < first["sorting_left"] - 0.4
        if later["view"]["dealer"] == 0:
            # The sorting period's end, as the server counted it (a timer under test).
            await asyncio.sleep(later["sorting_left"] + 0.1)
            await ann.send({"type": "act", "action": "open", "version": ann.version})
        while True:  # the opening's update: sorting is over, and says so by its absence
            update = await ann.recv_type("update", timeout=SORTING + 10)
            if any(e["type"] == "open" for e in update["events"]):
                break
        assert update["sorting_left"] is None
        await ann.close()

    run(main())


def test_a_trade_during_sorting_costs_20_and_trades_nothing(server: ServerThread) -> None:
    created = server.create(
        game="pit",
        players=3,
        seats=[None, "sensible", "sensible"],
        rules={"sorting_seconds": 30, "hand_limit": 1},
        settings={"bot_delay": 0.05},
    )
    tid, token = created["table"]["id"], created["seats"][0]["token"]

    async def main() -> None:
        ann = TableClient(server.base, tid, token)
        await ann.connect(name="Ann", views=True)
        sync = await ann.recv_type("sync")
        assert sync["view"]["phase"] == "sorting" and sync["sorting_left"] > 25
        card = sync["view"]["hand"][0]
        await ann.send({"type": "act", "action": f"offer 1 {card}", "version": ann.version})
        taken = await ann.recv_type("update")
        kinds = [e["type"] for e in taken["events"]]
        assert "penalty" in kinds and "trade" not in kinds
        penalty = next(e for e in taken["events"] if e["type"] == "penalty")
        assert penalty["seat"] == 0 and penalty["points"] == -20
        assert penalty["text"] == "You traded before the pit was open: -20."
        # Nothing is on offer, nobody opened, and the bots wait for the bell as well.
        assert ann.view is not None and ann.view["offers"] == [] and not ann.view.get("offer")
        later = await drain(ann, 0.8)
        assert not any(e["type"] in ("trade", "open") for m in later for e in m.get("events", []))
        await ann.close()

    run(main())


def test_pit_sorting_starts_with_the_hand(server: ServerThread) -> None:
    """Between Pit's hands, the next hand's sorting period waits for the pause to end."""
    created = server.create(
        game="pit",
        players=3,
        seats=[None, "sensible", "sensible"],
        # A hand stalls at its first market action without a trade (T7): hands are short.
        rules={"sorting_seconds": SORTING, "idle_limit": 1, "hand_limit": 3},
        settings={"bot_delay": 0.05, "next_hand_seconds": 30},
    )
    tid, token = created["table"]["id"], created["seats"][0]["token"]

    async def main() -> None:
        ann = TableClient(server.base, tid, token)
        await ann.connect(name="Ann")
        sync = await ann.recv_type("sync")
        if sync["view"]["dealer"] == 0:
            await asyncio.sleep(SORTING + 0.1)  # the sorting period's end (a timer under test)
            await ann.send({"type": "act", "action": "open", "version": ann.version})
        while True:
            message = await ann.recv(SORTING + 10)
            if message["type"] == "update" and message["next_hand"] is not None:
                break
        assert message["sorting_left"] is None  # the next hand is dealt, not started
        await asyncio.sleep(1)  # a second between the deal and the start, under test
        await ann.send({"type": "ready"})
        started = await ann.recv_type("next_hand")
        assert started["next_hand"] is None
        # Counted from now: counted from the deal, a second would be gone. (Slack for a
        # busy machine, kept well short of that second.)
        slack = min(patience(0.3), 0.8)
        assert SORTING - slack < started["sorting_left"] <= SORTING
        await ann.close()

    run(main())


def paced(tmp_path: Path, database: str) -> ServerThread:
    """A server whose turn timer may be short, for the tests of the turn timer's start."""
    return ServerThread(
        tmp_path, dataclasses.replace(FAST, turn_seconds_least=0.1), database=database
    )


def test_the_next_hand_waits_for_every_person(tmp_path: Path, database: str) -> None:
    server = paced(tmp_path, database)
    try:
        created = server.create(
            game="pitty-pat",
            players=4,
            seats=[None, None, None, "sensible"],
            rules=QUICK,
            settings={"bot_delay": 0.01, "next_hand_seconds": 60, "turn_seconds": 30},
        )
        tid = created["table"]["id"]
        tokens = [s["token"] for s in created["seats"][:3]]

        async def main() -> None:
            people = [TableClient(server.base, tid, token) for token in tokens]
            for client, name in zip(people, ("Ann", "Bob", "Cy"), strict=True):
                await client.connect(name=name)
            ann, bob, cy = people
            ended = await until_hand_ends(*people)
            pause = ended["next_hand"]
            assert pause["ready"] == [] and pause["waiting"] == [0, 1, 2]
            assert 55 < pause["left"] <= 60
            assert ended["turn_left"] is None  # the turn timer starts with the hand
            version = ended["version"]

            # Nobody moves meanwhile: a person's move is refused in words, bots wait.
            mover = next((c for c in people if c.seat in c.to_act and c.legal), None)
            if mover is not None:
                act = {"type": "act", "action": mover.legal[0], "version": version}
                await mover.send(act)
                refused = await mover.recv_type("error")
                assert refused["code"] == "between_hands"
                assert refused["reason"] == "the next hand starts when everyone is ready"
            # Half a second in which nothing may happen: a duration, not a deadline.
            await asyncio.sleep(0.5)
            assert server.table(tid)["version"] == version

            # Ann is ready: everyone hears it; back on a new socket, she sees the same.
            await ann.send({"type": "ready"})
            for client in people:
                told = await client.recv_type("next_hand")
                assert told["next_hand"]["ready"] == [0]
                assert told["next_hand"]["waiting"] == [1, 2]
            await ann.close()
            ann = people[0] = TableClient(server.base, tid, ann.token)  # its own secret now
            await ann.connect(name="Ann")
            welcome = await ann.recv_type("welcome")
            assert welcome["next_hand"]["ready"] == [0]
            back = await ann.recv_type("sync")
            assert back["next_hand"]["ready"] == [0] and back["next_hand"]["waiting"] == [1, 2]
            assert server.table(tid)["version"] == version

            # Bob and Cy too: the hand starts, its clocks with it, and the table moves on.
            await bob.send({"type": "ready"})
            while (await cy.recv_type("next_hand"))["next_hand"]["waiting"] != [2]:
                pass  # (Ann's going and coming back were told too)
            await cy.send({"type": "ready"})
            started = await cy.recv_type("next_hand")
            assert started["next_hand"] is None and started["version"] == version
            if any(i in cy.to_act for i in (0, 1, 2)):
                assert 29 < started["turn_left"] <= 30
            else:
                assert started["turn_left"] is None  # the bot plays first
            await until_hand_ends(*people)
            for client in people:
                await client.close()

        run(main())
    finally:
        server.stop()


def test_the_countdown_starts_the_next_hand(server: ServerThread) -> None:
    created = server.create(
        game="pitty-pat",
        players=2,
        seats=[None, "sensible"],
        rules=QUICK,
        settings={"bot_delay": 0.01, "next_hand_seconds": 1},
    )
    tid, token = created["table"]["id"], created["seats"][0]["token"]

    async def main() -> None:
        ann = TableClient(server.base, tid, token)
        await ann.connect(name="Ann")
        ended = await until_hand_ends(ann)
        assert ended["next_hand"]["waiting"] == [0]
        waited = time.monotonic()
        started = await ann.recv_type("next_hand", timeout=5)
        assert started["next_hand"] is None
        # The countdown's second, less the slack of two messages' delivery (more on a
        # busy machine, kept well short of the second: not at once).
        assert time.monotonic() - waited >= 1 - min(patience(0.2), 0.6)
        # Ready once the hand is under way: nothing to be ready for.
        await ann.send({"type": "ready"})
        late = await ann.recv_type("error")
        assert late["code"] == "no_pause"
        await ann.close()

    run(main())


def test_spectators_are_not_asked(server: ServerThread) -> None:
    created = server.create(
        game="pitty-pat",
        players=2,
        seats=[None, "sensible"],
        rules=QUICK,
        settings={"bot_delay": 0.01, "next_hand_seconds": 60, "away_timeout": 0.5},
    )
    tid, token = created["table"]["id"], created["seats"][0]["token"]

    async def main() -> None:
        ann = TableClient(server.base, tid, token)
        await ann.connect(name="Ann")
        watcher = TableClient(server.base, tid, None)
        await watcher.connect()
        await until_hand_ends(ann)
        await watcher.send({"type": "ready"})
        refused = await watcher.recv_type("error")
        assert refused["code"] == "spectator"
        got = await drain(ann, 0.3)
        assert got == [], ann.log[-6:]  # nothing changed for Ann: still waited for
        # Ann leaves: nobody is left to wait for, and the hand goes on (her seat soon
        # played by a bot, as for any absent player).
        before = server.table(tid)["version"]
        await ann.close()
        started = await watcher.recv_type("next_hand", timeout=5)
        assert started["next_hand"] is None
        await until(lambda: server.table(tid)["version"] != before, 10, "the bots to play on")
        await watcher.close()

    run(main())


def test_tables_of_bots_go_straight_on(server: ServerThread) -> None:
    created = server.create(
        game="pitty-pat",
        players=2,
        seats=["sensible", "sensible"],
        rules=QUICK,
        settings={"next_hand_seconds": 60},
    )
    tid = created["table"]["id"]
    info = server.wait_for(tid, "over", timeout=20)
    assert info["match"] == 1


def test_next_hand_seconds_bounds(server: ServerThread) -> None:
    for wrong in (-1, 301, "15", True):
        response = server.http.post(
            "/api/tables",
            content=f'{{"game": "ace-pit", "seats": ["open", "greedy"], '
            f'"settings": {{"next_hand_seconds": {_json(wrong)}}}}}',
            headers={"content-type": "application/json"},
        )
        assert response.status_code in (400, 422), response.text
        assert "next_hand_seconds" in response.text
    created = server.create(
        game="ace-pit", seats=["open", "greedy"], settings={"next_hand_seconds": 30}
    )
    assert created["table"]["settings"]["next_hand_seconds"] == 30


def _json(value: object) -> str:
    if value is True:
        return "true"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)
