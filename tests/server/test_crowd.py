"""A table with a crowd watching (a tournament's top board, say): its players hear each
move before any spectator does, not after every spectator's copy of it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from pitkit.server.live.conn import Conn
from pitkit.server.live.manager import Manager
from pitkit.server.ops.metrics import Metrics
from pitkit.server.ops.settings import TableSettings
from pitkit.server.store.storage import Store
from tests.server.conftest import FAST
from tests.waiting import until


class Heard:
    """A socket that writes down who was sent which message, in one list for all."""

    def __init__(self, who: str, log: list[tuple[str, str]]) -> None:
        self.who = who
        self.log = log

    async def send_text(self, data: str) -> None:
        self.log.append((self.who, json.loads(data)["type"]))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def test_the_players_hear_a_move_before_the_spectators(tmp_path: Path) -> None:
    async def main() -> list[str]:
        store = Store(f"sqlite:///{tmp_path}/pitkit.db")
        store.start()
        manager = Manager(store, FAST, Metrics())
        log: list[tuple[str, str]] = []
        try:
            settings = TableSettings(bot_delay=0, away_timeout=0)
            table, _, tokens = await manager.create("ace-pit", None, {}, [], settings)

            async def join(who: str, token: str | None) -> Conn:
                conn = Conn(Heard(who, log), FAST)
                asyncio.get_running_loop().create_task(conn.pump())
                await table.attach(conn, token, None, None, None)
                return conn

            # The spectators come first: the first to arrive are not the first told.
            for i in range(6):
                await join(f"spectator {i}", None)
            players = [await join(f"seat {i}", token) for i, token in enumerate(tokens)]
            await until(lambda: sum(kind == "sync" for _, kind in log) == 8, 10, "the syncs")
            assert table.match is not None
            seat = min(table.match.to_act)
            action = table.match.legal_actions(seat)[0]
            await table.act(seat, str(action), table.version, players[seat])
            await until(lambda: sum(kind == "update" for _, kind in log) == 8, 10, "the updates")
            return [who for who, kind in log if kind == "update"]
        finally:
            await manager.close()
            store.close()

    told = asyncio.run(main())
    assert sorted(told[:2]) == ["seat 0", "seat 1"]
    assert all(who.startswith("spectator") for who in told[2:])
