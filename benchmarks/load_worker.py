"""One `pitkit serve` worker for the load test (benchmarks/load.py): behind its proxy
(`--workers`), or alone on SQLite under a profiler (`--cprofile`).

`pitkit serve`'s options lift only some per-address caps (load.py's QUIET);
behind HAProxy every client of the load test comes from 127.0.0.1, and a
thousand tables are created from it in a few seconds, so this worker lifts
all of them, as tests/server/fast_worker.py does for the tests. The other
limits (messages a connection may send, bots' pace, ...) stay as deployed.

With `--profile FILE`, the event loop's thread runs under cProfile, timed by
that thread's CPU clock (waiting is not counted, nor the database writer's
thread), and the statistics are written to FILE when the worker stops.

    python benchmarks/load_worker.py --port P --data D [--database URL] [--profile FILE]
"""

from __future__ import annotations

import argparse
import cProfile
import signal
import sys
import time

from pitkit.server import Limits, serve

#: Per-address caps lifted (load.py's QUIET, and HTTP requests a second from one address).
LIMITS = Limits(
    creates_per_minute=1_000_000,
    tables_per_address=100_000,
    connections_per_address=100_000,
    requests_per_second=100_000,
    request_burst=100_000,
)

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--database", default=None, help="default: SQLite in --data")
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--profile", default=None, metavar="FILE", help="cProfile's statistics")
    args = parser.parse_args()
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    if profile is not None:
        # uvicorn stops on SIGTERM, then raises it again to the handler before its own:
        # this one exits through `finally`, where the statistics are written.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        profile.enable()
    try:
        serve(
            port=args.port,
            data=args.data,
            database=args.database,
            log_level=args.log_level,
            limits=LIMITS,
            trusted_proxies=("127.0.0.1",),
        )
    finally:
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
