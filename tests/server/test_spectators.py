"""Spectators' places (issue 32): a spectator whose page sends nothing (no ping: the
page is hidden, or gone without closing) is told and let go after
`spectator_idle_seconds`, freeing the place; one whose page pings stays, and a
player's socket is never closed for idleness."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

from websockets.exceptions import ConnectionClosed

from pitkit.server.client import TableClient
from tests.server.conftest import FAST, ServerThread, run

IDLE = 1.5


async def _closed(client: TableClient) -> int | None:
    """The close code, once the server closes `client`'s socket (its messages read)."""
    try:
        while True:
            await client.recv()
    except ConnectionClosed:
        assert client.ws is not None
        return client.ws.close_code


def test_idle_spectators_are_let_go_and_pinging_ones_stay(tmp_path: Path, database: str) -> None:
    limits = dataclasses.replace(FAST, spectator_idle_seconds=IDLE, spectators_per_table=2)
    server = ServerThread(tmp_path, limits, database=database)
    try:
        created = server.create(game="pitty-pat", seats=["open", "open", "random"])
        tid, token = created["table"]["id"], created["seats"][0]["token"]

        async def main() -> None:
            player = TableClient(server.base, tid, token)
            await player.connect(name="Ann")
            await player.recv_type("welcome")
            quiet, pinging = TableClient(server.base, tid), TableClient(server.base, tid)
            # Before the quiet one's socket opens: its idle time counts from then.
            began = time.monotonic()
            for client in (quiet, pinging):
                await client.connect(name="W")
                await client.recv_type("welcome")

            async def ping() -> None:
                for n in range(100):
                    await pinging.send({"type": "ping", "id": n})
                    await pinging.recv_type("pong")
                    await asyncio.sleep(IDLE / 4)  # the page's pace, well inside the limit

            pinger = asyncio.create_task(ping())
            assert await _closed(quiet) == 4010
            assert time.monotonic() - began >= IDLE - 0.1
            reason = next(m for m in quiet.log if m.get("code") == "idle")["reason"]
            assert "stopped watching" in reason
            # The place is free again: a third spectator comes in (2 places).
            newcomer = TableClient(server.base, tid)
            await newcomer.connect(name="N")
            await newcomer.recv_type("welcome")
            # Two more idle spells later the pinging spectator and the player are still on.
            await asyncio.sleep(2 * IDLE)
            assert not pinger.done()
            await player.send({"type": "ping", "id": "p"})
            assert (await player.recv_type("pong"))["id"] == "p"
            pinger.cancel()
            for client in (player, pinging, newcomer):
                await client.close()

        run(main())
    finally:
        server.stop()
