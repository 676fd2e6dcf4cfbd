"""Normal tables beside six hostile clients: does anyone at a normal table notice?

Runs benchmarks/load.py's test twice on fresh servers with the same options:
once quiet, once with six strangers doing at the same time what an
adversarial tester found could stall or wear out the server:

1. seating the slowest search bots the server allows at tables of their own;
2. bot-only marathons as fast as the server lets bots play;
3. re-reading a finished match's log over and over;
4. holding idle spectator sockets at every table they can find;
5. half-sent HTTP requests, kept open (slowloris);
6. a socket sending malformed messages as fast as it can, reconnecting when closed.

It reports the normal tables' latency from both runs side by side; the goal
is a hostile p99 within 2x of the quiet one.

    .venv/bin/python benchmarks/hostile.py --tables 100 --seconds 20
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from load import Figures, measure, parser

#: Search bots at the server's cap (`Limits.bot_seconds`, 3 s a move).
SLOWEST_BOT = "search:3s"
STRANGERS = ["thinkers", "marathons", "log-reader", "idle-spectators", "slowloris", "junk"]


def strangers(which: list[str], base: str, until: float) -> None:
    """The hostile clients named in `which` (of `STRANGERS`), in one process,
    until wall-clock time `until`. Each comes from a loopback address of its own
    (127.0.0.2, .3, ...), not the normal clients' 127.0.0.1, as strangers come
    from other machines; and they run at the lowest priority, since on a real
    network they take nothing from the server's CPU."""
    os.nice(19)

    async def main() -> None:
        await asyncio.gather(
            *(_stranger(name, base, f"127.0.0.{STRANGERS.index(name) + 2}") for name in which)
        )

    with contextlib.suppress(TimeoutError):
        asyncio.run(asyncio.wait_for(main(), until - time.time()))


async def _stranger(name: str, base: str, address: str) -> None:
    """Run one stranger; one the server cuts off starts again (and says so)."""
    while True:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        try:
            async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as http:
                await _JOBS[name](Stranger(http, base.replace("http://", "ws://", 1), address))
        except Exception as exc:
            print(f"stranger {name}: {exc!r}; starting again", file=sys.stderr)
            await asyncio.sleep(0.5)


@dataclass(frozen=True)
class Stranger:
    """One hostile client: its HTTP client, the server's WebSocket URL, its address."""

    http: httpx.AsyncClient
    ws: str
    address: str

    async def create(self, **body: Any) -> str | None:
        response = await self.http.post("/api/tables", json=body)
        return str(response.json()["table"]["id"]) if response.status_code == 201 else None

    async def socket(self, table: str) -> ClientConnection:
        return await connect(
            f"{self.ws}/ws/tables/{table}", open_timeout=5, local_addr=(self.address, 0)
        )


async def _thinkers(me: Stranger) -> None:
    for _ in range(6):
        await me.create(game="pits", seats=[SLOWEST_BOT] * 5, settings={"bot_delay": 0})
    await asyncio.Event().wait()


async def _marathons(me: Stranger) -> None:
    for _ in range(3):
        await me.create(
            game="pitch", rules={"target": 1000}, seats=["random"] * 4, settings={"bot_delay": 0}
        )
    await asyncio.Event().wait()


async def _log_reader(me: Stranger) -> None:
    table = await me.create(game="ace-pit", seats=["random"] * 2, settings={"bot_delay": 0})
    while table is not None:
        if (await me.http.get(f"/api/tables/{table}")).json()["status"] == "over":
            break
        await asyncio.sleep(0.2)
    while True:
        with contextlib.suppress(httpx.HTTPError):
            await me.http.get(f"/api/tables/{table}/matches/1/log")


async def _idle_spectators(me: Stranger) -> None:
    held = []
    for table in (await me.http.get("/api/tables")).json():
        for _ in range(40):  # more than a table takes
            with contextlib.suppress(Exception):
                ws = await me.socket(table["id"])
                await ws.send('{"type": "hello"}')
                held.append(ws)
    await asyncio.Event().wait()


async def _slowloris(me: Stranger) -> None:
    host, port = me.ws.removeprefix("ws://").split(":")
    writers = []
    while True:
        for _ in range(100):
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection(
                    host, int(port), local_addr=(me.address, 0)
                )
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never finished
                writers.append(writer)
        await asyncio.sleep(1)
        writers = [w for w in writers if not w.is_closing()][-2000:]


async def _junk(me: Stranger) -> None:
    table = await me.create(game="ace-pit", seats=["open", "open"])
    while table is not None:
        with contextlib.suppress(Exception):
            async with await me.socket(table) as ws:
                await ws.send('{"type": "hello"}')
                while True:
                    await ws.send('{"type": "act", "action": "\\u0000", "version": 1e400}')
        await asyncio.sleep(0.1)


_JOBS: dict[str, Callable[[Stranger], Awaitable[None]]] = {
    "thinkers": _thinkers,
    "marathons": _marathons,
    "log-reader": _log_reader,
    "idle-spectators": _idle_spectators,
    "slowloris": _slowloris,
    "junk": _junk,
}


def main() -> None:
    options = parser()
    options.add_argument(
        "--strangers",
        default=",".join(STRANGERS),
        help=f"which strangers, comma-separated (default: all of {', '.join(STRANGERS)})",
    )
    options.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="quiet and hostile runs, alternated (a single p99 varies 2x from run to run)",
    )
    args = options.parse_args()
    which = args.strangers.split(",")
    if not set(which) <= set(STRANGERS):
        raise SystemExit(f"strangers are: {', '.join(STRANGERS)}")
    runs: dict[str, list[Figures]] = {"quiet": [], "hostile": []}
    for _ in range(args.rounds):
        runs["quiet"].append(measure(args))
        runs["hostile"].append(measure(args, functools.partial(strangers, which)))
    print(
        f"{args.game}: {args.tables} tables, {runs['quiet'][0].clients} WebSocket clients, "
        f"think {args.think} s, {args.seconds:.0f} s measured a run; strangers: {', '.join(which)}"
    )
    print(f"{'':>8} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7}")
    for name, figures in runs.items():
        for f in figures:
            print(
                f"{name:>8} {f.actions_per_second:>10,.1f} {f.p50:>8.1f} {f.p99:>8.1f} "
                f"{f.max:>8.1f} {f.errors:>7}"
            )
    quiet = statistics.median(f.p99 for f in runs["quiet"])
    hostile = statistics.median(f.p99 for f in runs["hostile"])
    print(
        f"median p99: quiet {quiet:.1f} ms, hostile {hostile:.1f} ms; "
        f"ratio {hostile / quiet:.2f} (goal: at most 2)"
    )


if __name__ == "__main__":
    main()
