"""Load test of `pitkit serve`: many concurrent tables of bot clients over real WebSockets.

Starts the server as a child process on a free loopback port with a fresh
SQLite database, opens `--tables` tables with every seat open, and connects
one client per seat (spread over `--procs` client processes). Each client
plays random legal actions after a think time, with one action in flight;
finished matches are rematched so every table stays busy. Reports tables,
accepted actions per second, and p50/p99 latency from sending an action to
receiving its acknowledgement (which comes after the action is committed).

`--game mixed` spreads the tables over every game in turn. Pit is played in
real time: each client acts whenever legal actions come, and two of a Pit
table's four seats are `sensible` bots at a person's pace.

`--workers N` runs the server as it scales out instead: a throwaway
PostgreSQL (tests/postgres.py; `--database` for a PostgreSQL server of one's
own), N `pitkit serve` workers on it (benchmarks/load_worker.py, every
per-address cap lifted, since all clients come from 127.0.0.1) and HAProxy in
front (pitkit.server.ops.proxy); the clients reach the proxy only. `--compare 1,2`
runs 1 worker then 2 in one invocation and prints a markdown table, with the
CPU seconds each process used in the measured window (from /proc).

The client processes run at a lower priority (`--nice`, default 10): in a
real deployment they are elsewhere, and here they should not take the CPU
from the server they measure; `--pin` puts them on other cores than the
server's. `--views` makes every client ask for its view in each update, as
the browser page does.

Each run prints the server's CPU per stored action (every action, bots' too,
from /proc over the measured window; behind HAProxy, each worker's, and
PostgreSQL's and HAProxy's apart) and the actions stored by game. `--each`
runs one game at a time and tabulates the CPU per action by game. Where that
CPU goes: `--profile FILE` samples the server with py-spy over the measured
window (benchmarks/spy.py), `--cprofile FILE` runs its event loop under
cProfile, timed by that thread's CPU.

    .venv/bin/python benchmarks/load.py --tables 200 --seconds 30
    .venv/bin/python benchmarks/load.py --game mixed --views --tables 200 --seconds 20 --each
    python benchmarks/load.py --game mixed --tables 1000 --compare 1,2 --seconds 20 --warmup 10
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import io
import itertools
import math
import multiprocessing
import os
import pstats
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

import spy
from pitkit.server.client import RandomPlayer, TableClient

SERVE = [sys.executable, "-m", "pitkit.cli", "serve"]
QUIET = [
    "--log-level",
    "warning",
    "--tables-per-minute",
    "1000000",
    "--tables-per-address",
    "100000",
    # Every client of this test comes from 127.0.0.1. Trusted as a proxy would be, it is
    # spared the sockets-an-address and requests-a-second caps (a proxy caps its own
    # clients; a thousand tables are created in a few seconds). Strangers (hostile.py)
    # come from 127.0.0.2-11 and meet every cap of a public site.
    "--trusted-proxy",
    "127.0.0.1",
]
#: A worker behind the proxy: `pitkit serve` with every per-address cap lifted.
WORKER = [sys.executable, str(Path(__file__).with_name("load_worker.py"))]
#: `--game mixed`: the tables go to each game in turn.
MIXED = ["pitty-pat", "ace-pit", "pits", "pitch", "pit"]
ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _table(game: str) -> dict[str, Any]:
    """The body of POST /api/tables for one table of `game`."""
    if game == "pit":
        # Real time: every seat may act at once. Two clients and two bots, the bots at a
        # person's pace (a bot delay gives them their own think time); no sorting period
        # (T3), which would hold each deal's opening for 30 s and refuse the client's.
        return {
            "game": "pit",
            "players": 4,
            "seats": [None, None, "sensible", "sensible"],
            "rules": {"sorting_seconds": 0},
            "settings": {"bot_delay": 0.6, "away_timeout": 0},
        }
    return {"game": game, "settings": {"bot_delay": 0, "away_timeout": 0}}


async def _seat(
    player: TimedPlayer, start: float, warm: float, end: float, views: bool, out: dict[str, Any]
) -> None:
    """Play one seat until `end`, asking for a rematch whenever a match ends."""
    client = player.client
    try:
        await asyncio.sleep(start - time.monotonic())
        for attempt in range(3):  # a proxy may answer 503 while a table changes workers
            try:
                await client.connect(name="load", views=views)
                break
            except (OSError, WebSocketException):
                if attempt == 2:
                    raise
                await asyncio.sleep(0.5)
        while time.monotonic() < end:
            await player.run(end, matches=client.match or 1)
            if client.over and time.monotonic() < end:
                await client.send({"type": "rematch"})
                client.over = False
                out["matches"] += 1
        await client.close()
    except (OSError, WebSocketException) as exc:
        # A seat cut off (or never connected) before the end: its table stops.
        if time.monotonic() < end:
            out["drops"] += 1
            why = type(exc).__name__
            if isinstance(exc, ConnectionClosed):
                close = exc.rcvd or exc.sent
                why += f" {close.code} {close.reason}" if close else " (no close frame)"
            elif isinstance(exc, InvalidStatus):
                why += f" {exc.response.status_code}"
            out["why"][why] = out["why"].get(why, 0) + 1
    # Only actions acknowledged after the warm-up count.
    out["latencies"].extend(
        lat for lat, at in zip(player.latencies, player.ack_times, strict=True) if at >= warm
    )
    for e in player.errors:
        # A move that raced another (stale, lost_race) or the pause after a hand
        # (between_hands) is the random client's race, refused as it should be.
        if e["code"] not in ("stale", "lost_race", "between_hands"):
            out["errors"] += 1
            out["codes"][e["code"]] = out["codes"].get(e["code"], 0) + 1


class TimedPlayer(RandomPlayer):
    """A RandomPlayer that also notes when each acknowledgement came."""

    def __init__(self, client: TableClient, seed: int, think: float) -> None:
        super().__init__(client, seed, think)
        stamped = _Stamped()
        self.latencies = stamped
        self.ack_times = stamped.at
        """When each latency was taken (time.monotonic), that is when its ack came."""


class _Stamped(list[float]):
    """A list that notes when each item was appended (RandomPlayer appends a latency
    as its acknowledgement comes)."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []

    def append(self, item: float) -> None:
        super().append(item)
        self.at.append(time.monotonic())


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
    spread: float,
    queue: Any,
) -> None:
    """One client process: play `seats` (table id, token) and report to `queue`."""
    # In a real deployment the clients run elsewhere: here they yield the CPU to the
    # server when both want it, so that the server's latency is what is measured.
    os.nice(nice)
    out: dict[str, Any] = {
        "latencies": [],
        "errors": 0,
        "codes": {},
        "matches": 0,
        "drops": 0,
        "why": {},
    }

    async def main() -> None:
        # Connections are spread over `spread` seconds, as people arrive.
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
                _seat(p, start + spread * i / len(players), warm, end, views, out)
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
    parser.add_argument(
        "--game", default="pitty-pat", help=f"a game, or mixed ({', '.join(MIXED)} in turn)"
    )
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
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server's processes on the first core, the clients on the others "
        "(as taskset would): the clients then take nothing of the server's core",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="FILE",
        help="record the server (each worker: FILE.1, FILE.2, ...) with py-spy over the "
        "measured window, and print where its CPU went (benchmarks/spy.py)",
    )
    return parser


def cluster_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """load.py's own options: the server scaled out behind HAProxy."""
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="N >= 1: N workers on PostgreSQL behind HAProxy (default: one server on SQLite)",
    )
    parser.add_argument(
        "--compare",
        default=None,
        metavar="N,M,...",
        help="one run per worker count, in this order, as one markdown table (e.g. 1,2)",
    )
    parser.add_argument(
        "--cprofile",
        type=Path,
        default=None,
        metavar="FILE",
        help="one server on SQLite (every per-address cap lifted), its event loop's thread "
        "under cProfile by that thread's CPU time, for the whole run; the statistics are "
        "written to FILE and their top entries printed",
    )
    parser.add_argument(
        "--each",
        action="store_true",
        help="one run per game of the mix (or the one game), each with --tables tables, "
        "and a table of the server's CPU per stored action by game",
    )
    parser.add_argument(
        "--check-seconds",
        type=float,
        default=1.0,
        help="HAProxy's health checks: every so often, each given as long to answer "
        "(default: `pitkit proxy`'s 1 s)",
    )
    parser.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="a PostgreSQL server of one's own (postgresql+psycopg://...): each run creates a "
        "database there and drops it after, so the role needs CREATEDB "
        "(default: a throwaway server, tests/postgres.py)",
    )
    return parser


@dataclass(frozen=True)
class Figures:
    """What one load test measured: the normal tables' actions and their latency (ms)."""

    clients: int
    actions_per_second: float
    """The clients' actions acknowledged a second (the latencies' count)."""
    p50: float
    p99: float
    max: float
    errors: int
    matches: int
    server_cpu: float
    """The server's processes (every worker), in cores over the measured window."""
    clients_cpu: float
    load: tuple[float, float]
    tables: int = 0
    workers: int = 0
    """Workers behind HAProxy (0: one server on SQLite, no proxy)."""
    drops: int = 0
    """Seats whose socket closed (or never opened) before the end."""
    why: dict[str, int] = field(default_factory=dict)
    """The exceptions that cut those seats off, counted by name."""
    codes: dict[str, int] = field(default_factory=dict)
    """The errors' codes, and how many of each."""
    downs: int = 0
    """Times HAProxy marked a worker down (a health check unanswered in time): it then
    closes every socket the worker has."""
    cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds each process (with its children) used in the measured window, by role."""
    busy: float = -1.0
    """CPU seconds the whole machine used in the measured window (-1: unknown)."""
    irq: float = 0.0
    """Of `busy`, the seconds spent in interrupts (loopback networking: no process's)."""
    seconds: float = 0.0
    stored_per_second: float = -1.0
    """Every action the server stored a second, bots' too (its /metrics; -1: unknown)."""
    server_p99: str = "-"
    """The server's own p99 from receiving an action to acknowledging it, to its
    histogram's bucket ("≤ 50": at most 50 ms)."""
    commit_p99: str = "-"
    """The same of the database writer's group commits."""
    others: dict[str, float] = field(default_factory=dict)
    """The other processes on the machine that used most CPU in the window (seconds)."""
    stored_by_game: dict[str, float] = field(default_factory=dict)
    """`stored_per_second` by game."""

    def per_action(self, role: str) -> float:
        """Microseconds of CPU that `role` used per action stored ("server": the server,
        or every worker; "postgres", "haproxy"); NaN if unknown."""
        stored = self.stored_per_second * self.seconds
        if stored <= 0:
            return math.nan
        if role == "server":
            used = sum(v for k, v in self.cpu.items() if k == "server" or k.startswith("worker"))
        else:
            used = self.cpu.get(role, math.nan)
        return used / stored * 1e6


@dataclass
class Servers:
    """What serves the clients: the URL they use, and the processes to account for."""

    base: str
    processes: dict[str, int]
    """Role ("server", "worker 1", "haproxy", "postgres") -> pid of the process (tree)."""
    direct: list[str]
    """Each server process's own URL (not the proxy's), for its /metrics."""


def _wait_healthy(http: httpx.Client, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"{what} stopped at start")
        with contextlib.suppress(httpx.TransportError):
            if http.get("/healthz").status_code == 200:
                return
        if time.monotonic() > deadline:
            raise SystemExit(f"{what} did not start")
        time.sleep(0.1)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


@contextlib.contextmanager
def _one_server(args: argparse.Namespace) -> Iterator[Servers]:
    """`pitkit serve` on a fresh SQLite database."""
    data = tempfile.mkdtemp(prefix="pitkit-load-", dir=args.data)
    port = _free_port()
    profile = getattr(args, "cprofile", None)
    if profile is None:
        command = [*SERVE, "--port", str(port), "--data", data, *QUIET]
    else:  # the same server, its event loop under cProfile (load_worker.py)
        command = [*WORKER, "--port", str(port), "--data", data, "--profile", str(profile)]
    server = subprocess.Popen(command)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            _wait_healthy(http, server, "the server")
        base = f"http://127.0.0.1:{port}"
        yield Servers(base, {"server": server.pid}, [base])
    finally:
        _stop(server)


_RUNS = itertools.count(1)


@contextlib.contextmanager
def _fresh_database(server_url: str) -> Iterator[str]:
    """A new database on the PostgreSQL server `server_url` reaches, dropped afterwards:
    a run must not adopt the tables (and bots) an earlier run left playing."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"pitkit_load_{os.getpid()}_{next(_RUNS)}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextlib.contextmanager
def _stderr_to(path: Path) -> Iterator[None]:
    """Standard error (file descriptor 2) appended to `path`, for the child processes
    started meanwhile."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "ab") as f:
        os.dup2(f.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextlib.contextmanager
def _cluster(
    args: argparse.Namespace,
    workers: int,
    server_url: str,
    postmaster: int | None,
    proxy_log: Path,
) -> Iterator[Servers]:
    """`workers` workers on a fresh database of `server_url`'s PostgreSQL, behind HAProxy."""
    from pitkit.server.ops.proxy import haproxy_config, start_haproxy

    with _fresh_database(server_url) as url:
        procs: list[subprocess.Popen[bytes]] = []
        proxy = None
        try:
            ports = [_free_port() for _ in range(workers)]
            # One after the other: workers starting together race to create the schema.
            for port in ports:
                data = tempfile.mkdtemp(prefix="pitkit-load-", dir=args.data)
                command = [*WORKER, "--port", str(port), "--data", data, "--database", url]
                procs.append(subprocess.Popen(command))
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                    _wait_healthy(http, procs[-1], f"the worker on port {port}")
            listen = f"127.0.0.1:{_free_port()}"
            config = haproxy_config(listen, [f"127.0.0.1:{p}" for p in ports], args.check_seconds)
            with _stderr_to(proxy_log):  # HAProxy says there when it marks a worker down
                proxy = start_haproxy(config, quiet=False)
            with httpx.Client(base_url=f"http://{listen}", timeout=30) as http:
                _wait_healthy(http, proxy, "HAProxy")
            roles = {f"worker {i}": p.pid for i, p in enumerate(procs, 1)}
            roles["haproxy"] = proxy.pid
            if postmaster is not None:
                roles["postgres"] = postmaster
            yield Servers(f"http://{listen}", roles, [f"http://127.0.0.1:{p}" for p in ports])
        finally:
            if proxy is not None:
                proxy.terminate()
                proxy.wait(10)
            for proc in procs:
                _stop(proc)


async def _create_tables(
    base: str, games: list[str], tables: int, place: bool
) -> list[tuple[str, str]]:
    """Create the tables (16 requests at a time); the open seats' (table id, token).
    With `place`, ask for each table through the proxy once, so that the worker the
    proxy sends it to takes it over now, not while the clients connect."""
    limit = asyncio.Semaphore(16)

    async def one(http: httpx.AsyncClient, i: int) -> list[tuple[str, str]]:
        async with limit:
            response = await http.post("/api/tables", json=_table(games[i % len(games)]))
            response.raise_for_status()
            created = response.json()
            tid = created["table"]["id"]
            if place:
                for _ in range(20):
                    if (await http.get(f"/api/tables/{tid}")).status_code == 200:
                        break
                    await asyncio.sleep(0.25)
            return [(tid, s["token"]) for s in created["seats"] if s["kind"] == "open"]

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        seats = await asyncio.gather(*(one(http, i) for i in range(tables)))
    return [seat for table in seats for seat in table]


def measure(
    args: argparse.Namespace,
    beside: Callable[[str, float], Any] | None = None,
    workers: int | None = None,
    database: str | None = None,
    postmaster: int | None = None,
) -> Figures:
    """Start a server, play `args.tables` tables on it, and measure them. `beside`,
    if given, runs in a process of its own from before the clients start, with the
    server's URL and the time the measurement ends (benchmarks/hostile.py's strangers).
    With `workers`, the server is that many workers behind HAProxy, on a fresh
    database of the PostgreSQL server `database` reaches (`postmaster`: its pid, if
    it runs here, so that its CPU time counts)."""
    games = MIXED if args.game == "mixed" else [args.game]
    proxy_log = Path(tempfile.mkdtemp(prefix="pitkit-load-")) / "haproxy.log"
    if workers is None:
        servers = _one_server(args)
    else:
        assert database is not None
        servers = _cluster(args, workers, database, postmaster, proxy_log)
    other = None
    with servers as running:
        base = running.base
        seats = asyncio.run(_create_tables(base, games, args.tables, workers is not None))

        context = multiprocessing.get_context("spawn")
        queue: Any = context.Queue()
        begin = time.time() + 1.5  # every process's clock starts from the same moment
        # A second for the first thousand clients; more for more, within the warm-up.
        spread = max(1.0, min(args.warmup / 2, len(seats) / 1000))
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
                    spread,
                    queue,
                ),
            )
            for i in range(args.procs)
        ]
        try:
            load_before = os.getloadavg()[0]
            for p in procs:
                p.start()
            if getattr(args, "pin", False):
                _pin(running.processes.values(), [p.pid for p in procs if p.pid])
            roles = dict(running.processes)
            roles.update({f"clients {i}": p.pid for i, p in enumerate(procs, 1) if p.pid})
            if other is not None and other.pid:
                roles["beside"] = other.pid
            # The measured window, as the clients count it: from the end of the warm-up.
            time.sleep(max(0.0, begin + args.warmup - time.time()))
            before, scraped_before = _snapshot(), _scrape(running.direct)
            spies = _profile(args, running.processes)
            time.sleep(max(0.0, begin + args.warmup + args.seconds - time.time()))
            after, scraped_after = _snapshot(), _scrape(running.direct)
            for spy_process, out in spies:
                spy_process.wait(60)
                print(f"\nWhere {out.name}'s CPU went (py-spy, {out}):\n{spy.summary(out)}\n")
            load_after = os.getloadavg()[0]
            results = [queue.get(timeout=120) for _ in procs]
            for p in procs:
                p.join()
        finally:
            if other is not None:
                other.terminate()

    latencies = sorted(lat for r in results for lat in r["latencies"])
    acked = len(latencies)
    if not latencies:  # the server collapsed: say so, in the figures too
        print("no action was acknowledged in the measured window", file=sys.stderr)
        latencies = [math.nan]
    trees = {role: _tree(before, pid) | _tree(after, pid) for role, pid in roles.items()}
    cpu = {role: _cpu_between(before, after, pids) for role, pids in trees.items()}
    ours = _tree(after, os.getpid()).union(*trees.values())
    server = sum(v for k, v in cpu.items() if k == "server" or k.startswith("worker"))
    clients = sum(v for k, v in cpu.items() if k.startswith("clients"))
    return Figures(
        clients=len(seats),
        actions_per_second=acked / args.seconds,
        **_server_side(scraped_before, scraped_after, args.seconds),
        p50=statistics.median(latencies) * 1000,
        p99=latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        max=latencies[-1] * 1000,
        errors=sum(r["errors"] for r in results),
        matches=sum(r["matches"] for r in results),
        server_cpu=server / args.seconds,
        clients_cpu=clients / args.seconds,
        load=(load_before, load_after),
        tables=args.tables,
        workers=workers or 0,
        drops=sum(r["drops"] for r in results),
        why=dict(sum((collections.Counter(r["why"]) for r in results), collections.Counter())),
        codes=dict(sum((collections.Counter(r["codes"]) for r in results), collections.Counter())),
        downs=_downs(proxy_log),
        others=_others(before, after, ours),
        cpu=cpu,
        busy=after.busy - before.busy,
        irq=after.irq - before.irq,
        seconds=args.seconds,
    )


def _pin(servers: Iterable[int], clients: Iterable[int]) -> None:
    """`--pin`: every thread of the server processes on core 0, the clients' on the rest
    (threads and processes started later inherit it)."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("--pin needs two cores or more")
    now = _snapshot()
    servers = set().union(*(_tree(now, pid) for pid in servers))  # PostgreSQL's backends too
    for pids, where in ((servers, set(cores[:1])), (clients, set(cores[1:]))):
        for pid in pids:
            for task in os.listdir(f"/proc/{pid}/task"):
                with contextlib.suppress(ProcessLookupError):
                    os.sched_setaffinity(int(task), where)


def _profile(
    args: argparse.Namespace, processes: dict[str, int]
) -> list[tuple[subprocess.Popen[bytes], Path]]:
    """With `--profile`, py-spy recording each server process over the measured window."""
    if args.profile is None:
        return []
    servers = {role: pid for role, pid in processes.items() if role == "server" or "worker" in role}
    out = []
    for role, pid in servers.items():
        path = args.profile if role == "server" else args.profile.with_suffix(f".{role[7:]}")
        out.append((spy.record(pid, args.seconds, path), path))
    return out


def _scrape(servers: list[str]) -> collections.Counter[str] | None:
    """From the servers' /metrics, summed: actions stored so far (bots' too), and the
    cumulative buckets of the time to acknowledge a client's action and of a group
    commit (by upper bound); None if a server did not answer."""
    series = {
        "pitkit_actions_total{": "stored",
        "pitkit_action_seconds_bucket{": "act",
        "pitkit_store_commit_seconds_bucket{": "commit",
    }
    total: collections.Counter[str] = collections.Counter()
    try:
        for base in servers:
            for line in httpx.get(f"{base}/metrics", timeout=10).text.splitlines():
                for prefix, name in series.items():
                    if line.startswith(prefix):
                        labels, value = line.rsplit(" ", 1)
                        bound = labels.split('le="', 1)[1].split('"')[0] if "le=" in labels else ""
                        total[f"{name} {bound}".strip()] += int(float(value))
                        if name == "stored":  # and by game
                            game = labels.split('game="', 1)[1].split('"')[0]
                            total[f"stored by {game}"] += int(float(value))
    except (httpx.HTTPError, ValueError, IndexError):
        return None
    return total


def _server_side(
    before: collections.Counter[str] | None, after: collections.Counter[str] | None, seconds: float
) -> dict[str, Any]:
    """Figures from the servers' /metrics over the window (`Figures`' fields)."""
    if before is None or after is None:
        return {}
    games = [key.removeprefix("stored by ") for key in after if key.startswith("stored by ")]
    return {
        "stored_per_second": (after["stored"] - before["stored"]) / seconds,
        "stored_by_game": {
            game: (after[f"stored by {game}"] - before[f"stored by {game}"]) / seconds
            for game in sorted(games)
        },
        "server_p99": _p99_bound(before, after, "act"),
        "commit_p99": _p99_bound(before, after, "commit"),
    }


def _p99_bound(before: collections.Counter[str], after: collections.Counter[str], name: str) -> str:
    """The smallest bucket bound under which 99% of `name`'s observations in the window
    fall, as "<= X ms" (or "> 1000 ms")."""
    counts = {
        float(key.split()[1]): after[key] - before[key]
        for key in after
        if key.startswith(f"{name} ") and key.split()[1] != "+Inf"
    }
    everything = after[f"{name} +Inf"] - before[f"{name} +Inf"]
    if not everything:
        return "-"
    for bound in sorted(counts):
        if counts[bound] >= 0.99 * everything:
            return f"≤ {bound * 1000:g}"
    return f"> {max(counts) * 1000:g}"


def _downs(proxy_log: Path) -> int:
    """How often HAProxy's log says it marked a worker down (each backend counts)."""
    if not proxy_log.exists():
        return 0
    return sum(" is DOWN" in line for line in proxy_log.read_text().splitlines())


@dataclass
class Snapshot:
    """Every process's parent, CPU seconds so far and short name; the machine's busy seconds."""

    processes: dict[int, tuple[int, float, str]]
    busy: float
    irq: float
    """The part of `busy` spent serving interrupts (loopback networking, mostly), no process's."""


def _snapshot() -> Snapshot:
    """CPU time so far (utime + stime) of every process, and of the machine, from /proc (Linux)."""
    hz = os.sysconf("SC_CLK_TCK")
    processes = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                with open(f"/proc/{entry.name}/stat") as f:
                    comm, _, rest = f.read().rpartition(")")
                fields = rest.split()
                cpu = (int(fields[11]) + int(fields[12])) / hz
                with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                    argv = f.read().decode(errors="replace").split("\0")[:2]
                name = " ".join(os.path.basename(a) for a in argv if a) or comm.split("(", 1)[1]
                processes[int(entry.name)] = (int(fields[1]), cpu, name[:40])
    busy = irq = -1.0
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/stat") as f:
            ticks = [int(t) for t in f.readline().split()[1:9]]
        # user nice system idle iowait irq softirq steal: all but idle and iowait.
        busy = (sum(ticks) - ticks[3] - ticks[4]) / hz
        irq = (ticks[5] + ticks[6]) / hz
    return Snapshot(processes, busy, irq)


def _tree(snapshot: Snapshot, root: int) -> set[int]:
    """Process `root` and its descendants (PostgreSQL's backends, a worker's bot processes)."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in snapshot.processes.items():
        children.setdefault(parent, []).append(pid)
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid in snapshot.processes:
            found.add(pid)
            todo.extend(children.get(pid, []))
    return found


def _cpu_between(before: Snapshot, after: Snapshot, pids: set[int]) -> float:
    """CPU seconds processes `pids` used from `before` to `after` (a process started
    meanwhile: all of its time)."""
    return sum(
        after.processes[p][1] - before.processes.get(p, (0, 0.0, ""))[1]
        for p in pids
        if p in after.processes
    )


def _others(before: Snapshot, after: Snapshot, ours: set[int]) -> dict[str, float]:
    """The CPU seconds other processes on the machine used meanwhile, by name, most first."""
    used: dict[str, float] = {}
    for pid, (_, _, name) in after.processes.items():
        if pid not in ours:
            used[name] = used.get(name, 0.0) + _cpu_between(before, after, {pid})
    most = sorted(used.items(), key=lambda item: -item[1])[:3]
    return {name: cpu for name, cpu in most if cpu >= 0.5}


def _report_one(args: argparse.Namespace, f: Figures) -> None:
    behind = f", {f.workers} worker(s) behind HAProxy" if f.workers else ""
    print(
        f"{args.game}: {args.tables} tables, {f.clients} WebSocket clients "
        f"({args.procs} client processes), think {args.think} s, {args.seconds:.0f} s measured"
        f"{behind}"
    )
    print(
        f"actions/s {f.actions_per_second:,.1f}   "
        f"ack latency p50 {f.p50:.1f} ms  p99 {f.p99:.1f} ms  max {f.max:.1f} ms"
    )
    print(
        f"actions stored/s, bots' too: {f.stored_per_second:,.1f}; p99 in the server "
        f"{f.server_p99} ms, of a group commit {f.commit_p99} ms (buckets)"
    )
    print(f"errors (not races) {f.errors} {f.codes}; finished matches {f.matches}")
    if f.drops or f.downs:
        print(f"sockets lost {f.drops} {f.why}; workers marked down by HAProxy {f.downs}")
    print(f"server CPU {f.server_cpu:.0%} of one core; ", end="")
    print(f"client processes {f.clients_cpu:.0%} (nice {args.nice})")
    print(f"server CPU per stored action: {f.per_action('server'):,.0f} µs", end="")
    for role in ("postgres", "haproxy"):
        if role in f.cpu:
            print(f"; {role} {f.per_action(role):,.0f} µs", end="")
    print()
    if f.stored_by_game:
        by_game = ", ".join(f"{game} {n:,.1f}" for game, n in f.stored_by_game.items())
        print(f"stored/s by game: {by_game}")
    print(f"load average (1 min) {f.load[0]:.2f} before, {f.load[1]:.2f} after")
    if f.others:
        print("other processes' CPU: " + ", ".join(f"{k} {v:.1f} s" for k, v in f.others.items()))


def _report_table(args: argparse.Namespace, runs: list[Figures]) -> None:
    """The runs as one markdown table; CPU in seconds over the measured window."""
    cores = os.cpu_count() or 1
    print(
        f"\n{args.game}: {args.tables} tables, {runs[0].clients} WebSocket clients in "
        f"{args.procs} client processes at nice {args.nice}, think {args.think} s; "
        f"{args.seconds:.0f} s measured after {args.warmup:.0f} s of warm-up; CPU seconds "
        f"used in the {args.seconds:.0f} s measured (of {args.seconds * cores:.0f} "
        f"on {cores} cores)\n"
    )
    print(
        "| workers | tables | actions/s | all stored/s | p50 ms | p99 ms | max ms "
        "| server's p99 ms | commit p99 ms | µs a stored action | CPU s per worker "
        "| HAProxy | PostgreSQL | clients | interrupts | machine | of it others | errors "
        "| load avg |"
    )
    print(
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---|"
    )
    for f in runs:
        workers = [f"{v:.1f}" for k, v in f.cpu.items() if k.startswith("worker")]
        per_worker = " + ".join(workers) or f"{f.cpu.get('server', 0):.1f}"
        pg = f"{f.cpu['postgres']:.1f}" if "postgres" in f.cpu else "-"
        errors = f"{f.errors}" + (f", {f.drops} sockets lost" if f.drops else "")
        if f.downs:
            errors += f", {f.downs} marked down"
        print(
            f"| {f.workers or 'SQLite'} | {f.tables:,} | {f.actions_per_second:,.0f} "
            f"| {f.stored_per_second:,.0f} "
            f"| {f.p50:.1f} | {f.p99:.1f} | {f.max:.0f} | {f.server_p99} | {f.commit_p99} "
            f"| {f.per_action('server'):,.0f} | {per_worker} "
            f"| {f.cpu.get('haproxy', 0):.1f} | {pg} "
            f"| {sum(v for k, v in f.cpu.items() if k.startswith('clients')):.1f} "
            f"| {f.irq:.1f} | {f.busy:.1f} | {f.busy - f.irq - sum(f.cpu.values()):.1f} "
            f"| {errors} "
            f"| {f.load[0]:.2f} → {f.load[1]:.2f} |"
        )
    print()
    for f in runs:
        met = f.p99 < 50 and f.max < 250
        others = ", ".join(f"{k} {v:.1f} s" for k, v in f.others.items()) or "none to speak of"
        print(
            f"{f.workers} worker(s): p99 {f.p99:.1f} ms, max {f.max:.0f} ms: "
            f"{'meets' if met else 'misses'} the goals (p99 < 50 ms, max < 250 ms); "
            f"other processes: {others}"
        )


def _report_cprofile(path: Path, top: int = 30) -> None:
    """The server's cProfile statistics: the functions of most CPU, with and without
    what they call."""
    out = io.StringIO()
    stats = pstats.Stats(str(path), stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    print(f"\nThe server's event loop under cProfile (its thread's CPU; {path}):")
    print(out.getvalue())


def _report_games(args: argparse.Namespace, runs: dict[str, Figures]) -> None:
    """`--each`'s runs, a game each, as one markdown table."""
    print(
        f"\n{args.tables} tables of one game a run, {args.seconds:.0f} s measured after "
        f"{args.warmup:.0f} s, think {args.think} s{', views' if args.views else ''}\n"
    )
    print("| game | clients | stored/s | server CPU | µs a stored action | p50 ms | p99 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game, f in runs.items():
        print(
            f"| {game} | {f.clients:,} | {f.stored_per_second:,.1f} | {f.server_cpu:.0%} "
            f"| {f.per_action('server'):,.0f} | {f.p50:.1f} | {f.p99:.1f} |"
        )


def _each(args: argparse.Namespace, measure_one: Callable[[argparse.Namespace], Figures]) -> None:
    """One run per game (`--each`), then the table of them."""
    runs = {}
    for game in MIXED if args.game == "mixed" else [args.game]:
        one = argparse.Namespace(**{**vars(args), "game": game})
        runs[game] = measure_one(one)
        _report_one(one, runs[game])
    _report_games(args, runs)


def main() -> None:
    args = cluster_options(parser()).parse_args()
    if args.compare:
        counts = [int(n) for n in args.compare.split(",")]
    else:
        counts = [args.workers] if args.workers is not None else []
    if any(n < 1 for n in counts):
        raise SystemExit("--workers and --compare count workers: 1 or more")
    if args.each and len(counts) > 1:
        raise SystemExit("--each runs one server setup: --workers N, not --compare")
    if args.cprofile is not None and counts:
        raise SystemExit("--cprofile profiles the one server on SQLite, not --workers")
    if not counts:
        if args.each:
            _each(args, measure)
        else:
            _report_one(args, measure(args))
        if args.cprofile is not None:
            _report_cprofile(args.cprofile)
        return

    postgres = None
    server_url, postmaster = args.database, None
    try:
        if server_url is None:
            sys.path.insert(0, str(ROOT))  # the tests' throwaway PostgreSQL
            from tests.postgres import PostgresServer

            postgres = PostgresServer()
            postgres.start()
            server_url = postgres.url("postgres")
            postmaster = int((postgres.data / "postmaster.pid").read_text().split()[0])
        if args.each:
            _each(args, lambda one: measure(one, None, counts[0], server_url, postmaster))
            return
        runs = []
        for n in counts:
            f = measure(args, workers=n, database=server_url, postmaster=postmaster)
            _report_one(args, f)
            runs.append(f)
    finally:
        if postgres is not None:
            postgres.stop()
    _report_table(args, runs)


if __name__ == "__main__":
    main()
