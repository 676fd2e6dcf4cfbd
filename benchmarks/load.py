"""Load test of `pitkit serve`: many concurrent tables of bot clients over real WebSockets.

Starts the server as a child process on a free loopback port with a fresh
SQLite database, opens `--tables` tables with every seat open, and connects
one client per seat (spread over `--procs` client processes). Each client
plays random legal actions after a think time, with one action in flight;
finished matches are rematched so every table stays busy. Reports tables,
accepted actions per second, and p50/p99 latency from sending an action to
receiving its acknowledgement (which comes after the action is committed).

The client processes run at a lower priority (`--nice`, default 10): in a
real deployment they are elsewhere, and here they should not take the CPU
from the server they measure. `--views` makes every client ask for its view
in each update, as the browser page does.

    .venv/bin/python benchmarks/load.py --tables 200 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from pitkit.server.client import RandomPlayer, TableClient

SERVE = [sys.executable, "-m", "pitkit.cli", "serve"]
QUIET = [
    "--log-level",
    "warning",
    "--tables-per-minute",
    "1000000",
    "--tables-per-address",
    "100000",
    # Every client of this test comes from 127.0.0.1; strangers (hostile.py) from elsewhere.
    "--connections-per-address",
    "100000",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _seat(
    player: TimedPlayer, start: float, warm: float, end: float, views: bool, out: dict[str, Any]
) -> None:
    """Play one seat until `end`, asking for a rematch whenever a match ends."""
    client = player.client
    with contextlib.suppress(ConnectionClosed, OSError):
        await asyncio.sleep(start - time.monotonic())
        await client.connect(name="load", views=views)
        while time.monotonic() < end:
            await player.run(end, matches=client.match or 1)
            if client.over and time.monotonic() < end:
                await client.send({"type": "rematch"})
                client.over = False
                out["matches"] += 1
        await client.close()
    # Only actions acknowledged after the warm-up count.
    out["latencies"].extend(
        lat for lat, at in zip(player.latencies, player.ack_times, strict=True) if at >= warm
    )
    out["errors"] += sum(1 for e in player.errors if e["code"] not in ("stale", "lost_race"))


class TimedPlayer(RandomPlayer):
    """A RandomPlayer that also notes when each acknowledgement came."""

    def __init__(self, client: TableClient, seed: int, think: float) -> None:
        super().__init__(client, seed, think)
        self.ack_times: list[float] = []

    async def run(self, until: float, matches: int = 1) -> None:
        before = len(self.latencies)
        await super().run(until, matches)
        self.ack_times.extend([time.monotonic()] * (len(self.latencies) - before))


async def _freeze_at(when: float) -> None:
    """Once every client is connected (at the end of the warm-up), take what is alive
    out of garbage collection: a full collection of this process's heap would stall
    all of its clients at once, and show up as server latency."""
    await asyncio.sleep(when - time.monotonic())
    gc.collect()
    gc.freeze()


def _clients(
    base: str,
    seats: list[tuple[str, str]],
    think: float,
    warmup: float,
    seconds: float,
    begin: float,
    nice: int,
    views: bool,
    queue: Any,
) -> None:
    """One client process: play `seats` (table id, token) and report to `queue`."""
    # In a real deployment the clients run elsewhere: here they yield the CPU to the
    # server when both want it, so that the server's latency is what is measured.
    os.nice(nice)
    out: dict[str, Any] = {"latencies": [], "errors": 0, "matches": 0}

    async def main() -> None:
        # Connections are spread over the first second, as people arrive.
        now = time.monotonic()
        start, end = now + 0.5, now + (begin - time.time()) + warmup + seconds
        warm = now + (begin - time.time()) + warmup
        players = [
            TimedPlayer(TableClient(base, tid, token, keep_log=False), seed=i, think=think)
            for i, (tid, token) in enumerate(seats)
        ]
        await asyncio.gather(
            _freeze_at(warm),
            *(
                _seat(p, start + i / len(players), warm, end, views, out)
                for i, p in enumerate(players)
            ),
        )

    asyncio.run(main())
    out["cpu"] = time.process_time()
    queue.put(out)


def parser() -> argparse.ArgumentParser:
    """The load test's options (benchmarks/hostile.py takes the same)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--game", default="pitty-pat")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured time first")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds before acting")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--data", default=None, help="folder for the database (default: temp)")
    parser.add_argument(
        "--nice", type=int, default=10, help="niceness of the client processes (0: as the server)"
    )
    parser.add_argument(
        "--views", action="store_true", help="clients ask for the view in every update, as pages do"
    )
    return parser


@dataclass(frozen=True)
class Figures:
    """What one load test measured: the normal tables' actions and their latency (ms)."""

    clients: int
    actions_per_second: float
    p50: float
    p99: float
    max: float
    errors: int
    matches: int
    server_cpu: float
    clients_cpu: float
    load: tuple[float, float]


def measure(args: argparse.Namespace, beside: Callable[[str, float], Any] | None = None) -> Figures:
    """Start a server, play `args.tables` tables on it, and measure them. `beside`,
    if given, runs in a process of its own from before the clients start, with the
    server's URL and the time the measurement ends (benchmarks/hostile.py's strangers)."""
    data = tempfile.mkdtemp(prefix="pitkit-load-", dir=args.data)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [*SERVE, "--port", str(port), "--data", data, *QUIET],
    )
    other = None
    try:
        http = httpx.Client(base_url=base, timeout=30)
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.TransportError):
                if http.get("/healthz").status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        seats: list[tuple[str, str]] = []
        for _ in range(args.tables):
            response = http.post(
                "/api/tables",
                json={"game": args.game, "settings": {"bot_delay": 0, "away_timeout": 0}},
            )
            response.raise_for_status()
            created = response.json()
            seats += [(created["table"]["id"], s["token"]) for s in created["seats"]]
        http.close()

        context = multiprocessing.get_context("spawn")
        queue: Any = context.Queue()
        begin = time.time() + 1.5  # every process's clock starts from the same moment
        if beside is not None:
            other = context.Process(
                target=beside, args=(base, begin + args.warmup + args.seconds), daemon=True
            )
            other.start()
        procs = [
            context.Process(
                target=_clients,
                args=(
                    base,
                    seats[i :: args.procs],
                    args.think,
                    args.warmup,
                    args.seconds,
                    begin,
                    args.nice,
                    args.views,
                    queue,
                ),
            )
            for i in range(args.procs)
        ]
        load_before = os.getloadavg()[0]
        cpu_before = _cpu(server.pid)
        for p in procs:
            p.start()
        results = [queue.get(timeout=args.warmup + args.seconds + 120) for _ in procs]
        cpu_after = _cpu(server.pid)
        load_after = os.getloadavg()[0]
        for p in procs:
            p.join()
    finally:
        if other is not None:
            other.terminate()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()

    latencies = sorted(lat for r in results for lat in r["latencies"])
    if not latencies:
        raise SystemExit("no action was acknowledged")
    measured = args.warmup + args.seconds
    return Figures(
        clients=len(seats),
        actions_per_second=len(latencies) / args.seconds,
        p50=statistics.median(latencies) * 1000,
        p99=latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        max=latencies[-1] * 1000,
        errors=sum(r["errors"] for r in results),
        matches=sum(r["matches"] for r in results),
        server_cpu=(cpu_after - cpu_before) / measured if cpu_before >= 0 else -1,
        clients_cpu=sum(r["cpu"] for r in results) / (measured + 1.5),
        load=(load_before, load_after),
    )


def main() -> None:
    args = parser().parse_args()
    f = measure(args)
    print(
        f"{args.game}: {args.tables} tables, {f.clients} WebSocket clients "
        f"({args.procs} client processes), think {args.think} s, {args.seconds:.0f} s measured"
    )
    print(
        f"actions/s {f.actions_per_second:,.1f}   "
        f"ack latency p50 {f.p50:.1f} ms  p99 {f.p99:.1f} ms  max {f.max:.1f} ms"
    )
    print(f"errors (not stale/lost races) {f.errors}; finished matches {f.matches}")
    if f.server_cpu >= 0:
        print(f"server CPU {f.server_cpu:.0%} of one core; ", end="")
    print(f"client processes {f.clients_cpu:.0%} (nice {args.nice})")
    print(f"load average (1 min) {f.load[0]:.2f} before, {f.load[1]:.2f} after")


def _cpu(pid: int) -> float:
    """CPU seconds used by process `pid` so far (Linux), or -1."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return -1.0


if __name__ == "__main__":
    main()
