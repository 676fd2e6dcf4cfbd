"""The live tables' CPU per stored action, without the web: `Table.act` in process.

Opens `--tables` tables of each game on a fresh SQLite database (the real
`Store`: writer thread, group commit, fsync), seats a socket at every seat
(a stand-in that only counts what it is sent, asking for views as the browser
page does, `--views`), then plays random legal actions, every table at once,
each acting seat's action taken through `Table.act` as a client's would be
after the web layer has read it. Reports the process's CPU time (every
thread: the event loop, the writer, the sockets' pumps) per stored action,
by game, and the bytes sent. What it leaves out is the HTTP and WebSocket
stack (framing, the ASGI layers); `load.py` measures the whole server.

    python benchmarks/act_cost.py [--tables 40] [--actions 3000] [--rounds 3] [--views] [GAME ...]
    python benchmarks/act_cost.py --profile 25 pit     # cProfile's top entries
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import pstats
import random
import tempfile
import time
from dataclasses import dataclass

from pitkit.server.live.conn import Conn
from pitkit.server.live.manager import Manager
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.tables import Table
from pitkit.server.ops.metrics import Metrics
from pitkit.server.ops.settings import Limits, TableSettings
from pitkit.server.store.storage import Store

GAMES = ["pitty-pat", "ace-pit", "pits", "pitch", "pit"]
LIMITS = Limits(rate=1e6, burst=10**6, next_hand_seconds=0, outbox=10**6, match_actions=10**9)


class Counting:
    """A socket that keeps nothing: it counts the frames and characters it is sent."""

    def __init__(self) -> None:
        self.frames = 0
        self.chars = 0

    async def send_text(self, data: str) -> None:
        """Count one frame."""
        self.frames += 1
        self.chars += len(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Nothing to close."""


@dataclass
class Cost:
    """What one game's run measured."""

    game: str
    actions: int
    cpu: float
    frames: int
    chars: int

    def row(self) -> str:
        """The run as a markdown table's row."""
        per = self.cpu / self.actions * 1e6
        return (
            f"| {self.game} | {self.actions:,} | {per:,.0f} | {self.frames / self.actions:.1f} "
            f"| {self.chars / self.actions:,.0f} |"
        )


async def _seated(manager: Manager, game: str, views: bool) -> tuple[Table, list[Conn]]:
    """A table of `game` with every seat open, a counting socket at each seat."""
    settings = TableSettings(bot_delay=0, away_timeout=0)
    rules = {"sorting_seconds": 0} if game == "pit" else {}
    players = 4 if game == "pit" else None
    table, _, tokens = await manager.create(game, players, rules, [], settings)
    conns = []
    for token in tokens:
        conn = Conn(Counting(), LIMITS)
        conn.views = views
        asyncio.get_running_loop().create_task(conn.pump())
        await table.attach(conn, token, "load", None, None)
        conns.append(conn)
    return table, conns


async def _play(table: Table, conns: list[Conn], left: list[int], rng: random.Random) -> None:
    """Random legal actions at `table`, one at a time, while `left[0]` is above 0."""
    while left[0] > 0:
        match = table.match
        assert match is not None
        if match.is_over:
            await table.rematch(None)
            continue
        seat = rng.choice(sorted(match.to_act))
        action = rng.choice(match.legal_actions(seat))
        left[0] -= 1
        try:
            await table.act(seat, str(action), table.version, conns[seat], ident=left[0])
        except ProtocolError:
            left[0] += 1
        await asyncio.sleep(0)  # let the others' actions interleave, as sockets would


async def _run(game: str, tables: int, actions: int, views: bool, seed: int) -> Cost:
    with tempfile.TemporaryDirectory(prefix="pitkit-act-") as data:
        store = Store(f"sqlite:///{data}/pitkit.db", timeout=LIMITS.store_seconds)
        store.start()
        manager = Manager(store, LIMITS, Metrics())
        try:
            seated = [await _seated(manager, game, views) for _ in range(tables)]
            await asyncio.sleep(0.1)  # the welcomes and syncs sent
            sockets = [c.ws for _, conns in seated for c in conns]
            frames = sum(s.frames for s in sockets)  # type: ignore[attr-defined]
            chars = sum(s.chars for s in sockets)  # type: ignore[attr-defined]
            gc.collect()
            left = [actions]
            rng = random.Random(seed)
            started = time.process_time()
            await asyncio.gather(*(_play(t, c, left, rng) for t, c in seated))
            await asyncio.sleep(0.05)  # the last updates pumped out
            cpu = time.process_time() - started
            frames = sum(s.frames for s in sockets) - frames  # type: ignore[attr-defined]
            chars = sum(s.chars for s in sockets) - chars  # type: ignore[attr-defined]
        finally:
            await manager.close()
            store.close()
    return Cost(game, actions, cpu, frames, chars)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=GAMES, metavar="GAME")
    parser.add_argument("--tables", type=int, default=40, help="tables of each game")
    parser.add_argument("--actions", type=int, default=3000, help="actions stored a game")
    parser.add_argument("--views", action="store_true", help="sockets ask for views, as pages do")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="runs a game; the least CPU counts")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile's top N")
    args = parser.parse_args()
    costs = []
    # The event loop's CPU alone: not the time it waits, nor the writer thread's.
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    for game in args.games:
        if profile is not None:
            profile.enable()
        runs = [
            asyncio.run(_run(game, args.tables, args.actions, args.views, args.seed))
            for _ in range(args.rounds)
        ]
        costs.append(min(runs, key=lambda cost: cost.cpu))
        if profile is not None:
            profile.disable()
    views = "views in every update" if args.views else "no views"
    print(
        f"\n{args.tables} tables a game, {args.actions:,} actions a game, {views}, "
        f"best of {args.rounds} runs\n"
    )
    print("| game | actions | CPU µs an action | frames an action | characters an action |")
    print("|---|---:|---:|---:|---:|")
    for cost in costs:
        print(cost.row())
    total = Cost("all", sum(c.actions for c in costs), sum(c.cpu for c in costs), 0, 0)
    print(f"\nall games: {total.cpu / total.actions * 1e6:,.0f} µs an action")
    if profile is not None:
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("tottime").print_stats(args.profile)
        stats.sort_stats("cumulative").print_stats(args.profile)
        print(out.getvalue())


if __name__ == "__main__":
    main()
