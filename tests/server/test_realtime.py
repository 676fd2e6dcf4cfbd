"""Real-time tables (Pit) run on `pitkit.play`: the sorting period (T3)
holds for people and bots alike when bots play at a person's pace."""

from __future__ import annotations

import time

from pitkit import play
from pitkit.server.client import TableClient
from pitkit.server.ops.settings import NORMAL_BOT_DELAY
from tests.server.conftest import ServerThread, run

SORTING = 2


def test_nobody_opens_the_pit_during_the_sorting_period(server: ServerThread) -> None:
    dealt_by: set[str] = set()
    for _ in range(30):  # until both a person and a bot have dealt ((2/3)^30 to fail)
        created = server.create(
            game="pit",
            players=3,
            seats=[None, "sensible", "sensible"],
            rules={"sorting_seconds": SORTING, "hand_limit": 1},
            settings={"bot_delay": 0.05},
        )
        tid, token = created["table"]["id"], created["seats"][0]["token"]

        async def main(tid: str, token: str) -> tuple[int, float, str | None]:
            client = TableClient(server.base, tid, token)
            await client.connect(name="Ann")
            sync = await client.recv_type("sync")
            dealt = time.monotonic()
            dealer = int(sync["view"]["dealer"])
            refusal = None
            if dealer == 0:
                # The person deals: an opening at once is refused, with the reason.
                await client.send({"type": "act", "action": "open", "version": client.version})
                refusal = (await client.recv_type("error"))["reason"]
                await client.send({"type": "act", "action": "open", "version": client.version})
                while (await client.recv())["type"] == "error":
                    await client.send({"type": "act", "action": "open", "version": client.version})
            else:
                while True:
                    update = await client.recv_type("update", timeout=SORTING + 10)
                    if any(e["type"] == "open" for e in update["events"]):
                        break
            opened = time.monotonic() - dealt
            await client.close()
            return dealer, opened, refusal

        dealer, opened, refusal = run(main(tid, token))
        assert opened >= SORTING - 0.2, (dealer, opened)
        if dealer == 0:
            assert refusal is not None and "sorting period" in refusal
        dealt_by.add("person" if dealer == 0 else "bot")
        if len(dealt_by) == 2:
            return
    raise AssertionError(f"in thirty tables only a {dealt_by.pop()} dealt")


def test_the_tables_bot_speed_paces_real_time_bots(server: ServerThread) -> None:
    """Bot speed works in Pit: each bot's own think times, scaled by the table's
    bot delay over the usual one (the lobby's "slow", 2.5 s, about four times slower)."""
    for delay in (0.25, NORMAL_BOT_DELAY, 2.5):
        created = server.create(
            game="pit",
            players=3,
            seats=["sensible"] * 3,
            rules={"hand_limit": 1},
            settings={"bot_delay": delay},
        )
        table = server.app.state.manager.tables[created["table"]["id"]]
        bot = table.bots.seated[0]
        low, high = play.think_range(bot)
        scale = delay / NORMAL_BOT_DELAY
        thought = [table.bots.think(bot) for _ in range(200)]
        assert low * scale <= min(thought) and max(thought) <= high * scale
        assert max(thought) > (low + (high - low) * 0.9) * scale  # the whole range, scaled
