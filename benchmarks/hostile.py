"""Normal tables beside hostile clients: does anyone at a normal table notice?

Runs benchmarks/load.py's test on fresh servers with the same options, quiet
and then with strangers doing at the same time what adversarial testers found
could stall or wear out the server. The first six (`--strangers six`, the default):

1. `thinkers`: seating the slowest search bots the server allows at tables of their own;
2. `marathons`: bot-only marathons as fast as the server lets bots play;
3. `log-reader`: re-reading a finished match's log over and over;
4. `idle-spectators`: holding idle spectator sockets at every table they can find;
5. `slowloris`: half-sent HTTP requests, kept open;
6. `junk`: a socket sending malformed messages as fast as it can, reconnecting when closed.

The probe of issue 36 found four more (`--strangers probe`):

7. `replays`: cycling through the replays of more finished matches than the server caches;
8. `event-pages`: polling the pages of a 2,000-player tournament it fills itself;
9. `endless-bots`: as many bot-only Pits tables as one address may hold, of 10**18 hands;
10. `lookahead`: Pitch tables of `lookahead` bots, the slowest bot that is not a search.

It reports the normal tables' latency and the server's CPU from every run side
by side; the goal is a hostile p99 within 2x of the quiet one. `--each` runs
the strangers one at a time (after the same quiet runs) and gives each its ratio.

    .venv/bin/python benchmarks/hostile.py --tables 100 --seconds 20 --warmup 5 --rounds 3
    .venv/bin/python benchmarks/hostile.py --strangers junk --seconds 10
    .venv/bin/python benchmarks/hostile.py --strangers probe --each --warmup 45

The probe's strangers build what they then use at the server's pace (bot tables
played out, 2,000 entries at 50 a second): a long --warmup measures only their
steady state. Each stranger comes from its own loopback address, under the limits
of a public site (`pitkit serve`'s defaults).
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
SIX = ["thinkers", "marathons", "log-reader", "idle-spectators", "slowloris", "junk"]
PROBE = ["replays", "event-pages", "endless-bots", "lookahead"]
STRANGERS = SIX + PROBE
#: Names `--strangers` takes for a group.
GROUPS = {"six": SIX, "probe": PROBE, "all": STRANGERS}


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

    async def finished(self, tables: list[str], enough: int) -> list[str]:
        """Those of `tables` whose first match is over, once `enough` of them are (or
        after three minutes)."""
        deadline = time.monotonic() + 180
        over: list[str] = []
        while time.monotonic() < deadline and len(over) < enough:
            await asyncio.sleep(1)  # 30 tables a second: under the address's 50 requests
            over = []
            for table in tables:
                with contextlib.suppress(httpx.HTTPError, ValueError, KeyError):
                    answer = await self.http.get(f"/api/tables/{table}")
                    if answer.json()["status"] == "over":
                        over.append(table)
        return over


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


async def _replays(me: Stranger) -> None:
    """30 bot tables of Ace Pit played out, then the replays of those over (3 each: each
    seat's and the all-seeing one) read in turn, over and over, once there are more than
    the server keeps ready (64). The tables take a while to finish on a busy server: give
    a long --warmup to measure only the cycling."""
    made = [
        await me.create(game="ace-pit", seats=["random"] * 2, settings={"bot_delay": 0})
        for _ in range(30)
    ]
    tables = await me.finished([t for t in made if t is not None], enough=22)
    paths = [
        f"/api/tables/{t}/matches/1/replay?seat={seat}" for t in tables for seat in ("all", 0, 1)
    ]
    print(f"stranger replays: cycling through {len(paths)} replays", file=sys.stderr)
    while paths:
        for path in paths:
            with contextlib.suppress(httpx.HTTPError):
                await me.http.get(path)


async def _event_pages(me: Stranger) -> None:
    """A Pits tournament filled with 2,000 players by its manager's link (as fast as the
    server lets it: under the default limits 50 a second, so give a --warmup of 40 s to
    measure a full one), its public page and standings read in a loop meanwhile."""
    made = await me.http.post("/api/events", json={"kind": "pits-continuous", "name": "Crowd"})
    if made.status_code != 201:
        print(f"stranger event-pages: no event ({made.status_code})", file=sys.stderr)
        return
    event = made.json()["event"]["id"]
    manager = {"authorization": f"Bearer {made.json()['manager']['token']}"}

    async def fill() -> None:
        for i in range(2000):
            entry = {"type": "add_player", "data": {"name": f"Player {i}"}}
            while True:
                answer = await me.http.post(
                    f"/api/events/{event}/entries", json=entry, headers=manager
                )
                if answer.status_code != 429:
                    break
                await asyncio.sleep(0.2)
            if answer.status_code != 201:
                print(
                    f"stranger event-pages: {i} players, then {answer.status_code}",
                    file=sys.stderr,
                )
                return

    async def poll() -> None:
        while True:
            for path in (f"/api/events/{event}", f"/api/events/{event}/standings.csv"):
                with contextlib.suppress(httpx.HTTPError):
                    await me.http.get(path)

    await asyncio.gather(fill(), poll())


async def _endless_bots(me: Stranger) -> None:
    """As many Pits tables of five random bots as the server lets one address hold, each
    a match of 10**18 hands, played as fast as the server lets bots play."""
    held = 0
    for _ in range(60):
        table = await me.create(
            game="pits",
            seats=["random"] * 5,
            rules={"hands": 10**18},
            settings={"bot_delay": 0},
        )
        held += table is not None
    print(f"stranger endless-bots: {held} tables", file=sys.stderr)
    await asyncio.Event().wait()


async def _lookahead(me: Stranger) -> None:
    """10 Pitch tables of four `lookahead` bots to 1,000 points, at full speed."""
    for _ in range(10):
        await me.create(
            game="pitch",
            seats=["lookahead"] * 4,
            rules={"target": 1000},
            settings={"bot_delay": 0},
        )
    await asyncio.Event().wait()


_JOBS: dict[str, Callable[[Stranger], Awaitable[None]]] = {
    "thinkers": _thinkers,
    "marathons": _marathons,
    "log-reader": _log_reader,
    "idle-spectators": _idle_spectators,
    "slowloris": _slowloris,
    "junk": _junk,
    "replays": _replays,
    "event-pages": _event_pages,
    "endless-bots": _endless_bots,
    "lookahead": _lookahead,
}


def _chosen(text: str) -> list[str]:
    """The strangers `--strangers` names: groups and names, comma-separated."""
    which: list[str] = []
    for name in text.split(","):
        for one in GROUPS.get(name, [name]):
            if one not in STRANGERS:
                raise SystemExit(f"strangers are: {', '.join(STRANGERS)} (or {', '.join(GROUPS)})")
            if one not in which:
                which.append(one)
    return which


def _row(name: str, f: Figures) -> str:
    strangers = f.cpu.get("beside", 0.0) / f.seconds if f.seconds else 0.0
    return (
        f"{name:>16} {f.actions_per_second:>10,.1f} {f.p50:>8.1f} {f.p99:>8.1f} "
        f"{f.max:>8.1f} {f.server_p99:>10} {f.errors:>7} {f.server_cpu:>11.2f} "
        f"{f.clients_cpu:>8.2f} {strangers:>9.2f}"
    )


def main() -> None:
    options = parser()
    options.add_argument(
        "--strangers",
        default="six",
        help=f"which strangers, comma-separated: of {', '.join(STRANGERS)}, or a group "
        f"({', '.join(f'{k}: {len(v)}' for k, v in GROUPS.items())}); default: six",
    )
    options.add_argument(
        "--each", action="store_true", help="run the strangers one at a time, each its own ratio"
    )
    options.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="quiet and hostile runs, alternated (a single p99 varies 2x from run to run)",
    )
    args = options.parse_args()
    which = _chosen(args.strangers)
    groups = [[name] for name in which] if args.each else [which]
    quiet: list[Figures] = []
    hostile: dict[str, list[Figures]] = {",".join(g): [] for g in groups}
    for _ in range(args.rounds):
        quiet.append(measure(args))
        for group in groups:
            hostile[",".join(group)].append(measure(args, functools.partial(strangers, group)))
    print(
        f"{args.game}: {args.tables} tables, {quiet[0].clients} WebSocket clients, "
        f"think {args.think} s, {args.seconds:.0f} s measured a run; strangers: {', '.join(which)}"
    )
    print(
        f"{'':>16} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
        f"{'server p99':>10} {'errors':>7} {'server cores':>11} {'clients':>8} {'strangers':>9}"
    )
    print(
        "(p50, p99, max: as the clients measure, sending to acknowledgement; server p99: the "
        "server's own, receiving to acknowledging, to its histogram's bucket; cores: CPU "
        "over the measured window)"
    )
    for f in quiet:
        print(_row("quiet", f))
    for name, runs in hostile.items():
        for f in runs:
            print(_row(name[:16], f))
    calm = statistics.median(f.p99 for f in quiet)
    calm_cpu = statistics.median(f.server_cpu for f in quiet)
    for name, runs in hostile.items():
        p99 = statistics.median(f.p99 for f in runs)
        cpu = statistics.median(f.server_cpu for f in runs)
        print(
            f"{name}: median p99 quiet {calm:.1f} ms, hostile {p99:.1f} ms; ratio "
            f"{p99 / calm:.2f} (goal: at most 2); server {calm_cpu:.2f} -> {cpu:.2f} cores"
        )


if __name__ == "__main__":
    main()
