"""The pitkit game server: tables for every game over HTTP and WebSocket.

`create_app` builds the ASGI app; `serve` runs it with uvicorn (this is
`pitkit serve`). See docs/protocol.md for the play protocol.
"""

from __future__ import annotations

import gc
import sys

from pitkit.server.app import create_app
from pitkit.server.ops.settings import Limits, TableSettings, database_url

__all__ = ["Limits", "TableSettings", "create_app", "serve", "tune_process"]

#: Allocations between two collections of the youngest generation (CPython's default: 700).
GC_YOUNG = 5000


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    data: str = "data",
    database: str | None = None,
    log_level: str = "info",
    limits: Limits | None = None,
    public_url: str | None = None,
    trusted_proxies: tuple[str, ...] = (),
    log_format: str = "text",
) -> None:
    """Run the server until interrupted; SQLite in `data` unless `database` is a URL.

    `public_url` and `trusted_proxies` are `Site`'s (guards.py); ValueError if malformed.
    `log_format` is "text" or "json" (one object a line; logs.py).
    """
    from pitkit.server.web.asgi import run
    from pitkit.server.web.guards import Site

    limits = limits or Limits()
    site = Site(host, public_url, trusted_proxies)
    app = create_app(database_url(data, database), limits, started=tune_process, site=site)
    run(app, limits, port=port, log_level=log_level, log_format=log_format)


def tune_process() -> None:
    """Settings of the interpreter for a server process, where latency matters most.

    The writer thread (storage.py) needs the GIL for a moment around each SQLite call;
    by default it may wait up to 5 ms for the busy event loop each time, which adds up
    to tens of ms per commit under load. And every object alive once the server has
    started (over a hundred thousand: modules, classes, the loaded tables) would
    otherwise be walked again by each full garbage collection, a pause of tens of ms;
    frozen, they never are (the price: a reference cycle among them that becomes
    garbage is never freed, which start-up objects hardly ever do).
    """
    sys.setswitchinterval(0.0005)
    gc.collect()
    gc.freeze()
    # Collect the young generation less often, so that objects alive for only a few
    # messages (tasks, futures, frames) are not promoted towards the full collections.
    gc.set_threshold(GC_YOUNG, 10, 10)
