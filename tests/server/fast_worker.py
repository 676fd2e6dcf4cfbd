"""`pitkit serve` with the tests' fast limits, behind a proxy on 127.0.0.1: run as
`python -m tests.server.fast_worker --port P --data D --database URL --log-level L`."""

from __future__ import annotations

import argparse

from pitkit.server import serve
from tests.server.conftest import FAST

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    for flag in ("--port", "--data", "--database", "--log-level"):
        parser.add_argument(flag)
    args = parser.parse_args()
    serve(
        port=int(args.port),
        data=args.data,
        database=args.database,
        log_level=args.log_level,
        limits=FAST,
        trusted_proxies=("127.0.0.1",),
    )
