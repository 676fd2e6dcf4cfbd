"""One `pitkit serve` worker behind the load test's proxy (benchmarks/load.py --workers).

`pitkit serve`'s options lift only some per-address caps (load.py's QUIET);
behind HAProxy every client of the load test comes from 127.0.0.1, and a
thousand tables are created from it in a few seconds, so this worker lifts
all of them, as tests/server/fast_worker.py does for the tests. The other
limits (messages a connection may send, bots' pace, ...) stay as deployed.

    python benchmarks/load_worker.py --port P --data D --database URL --log-level L
"""

from __future__ import annotations

import argparse

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
    parser.add_argument("--database", required=True)
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args()
    serve(
        port=args.port,
        data=args.data,
        database=args.database,
        log_level=args.log_level,
        limits=LIMITS,
        trusted_proxies=("127.0.0.1",),
    )
