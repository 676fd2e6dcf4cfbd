"""Where the server's worker processes come from: the replays' builder and the search
bots' pool (`replays`, `thinking`).

Not forked from the server: it has threads (the database writer, uvicorn's) that a
forked child would inherit in whatever state they were. Not spawned either: a spawned
worker starts a new interpreter and imports the server's modules afresh, some 2 s of
CPU before its first job (docs/performance.md, "Worker processes"). They come from a
fork server: a clean interpreter with no threads, started at the first worker, that
imports those modules once and forks each worker from itself, so a worker starts at
once with them loaded. One fork server serves every worker of the process.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.context import BaseContext

__all__ = ["PRELOADED", "worker_context"]

PRELOADED = ("pitkit.server.live.replays", "pitkit.server.live.thinking")
"""The modules the fork server imports before it forks a worker: what the workers run."""


def worker_context() -> BaseContext:
    """The multiprocessing context the server's process pools start their workers in."""
    context = multiprocessing.get_context("forkserver")
    # Taken when the fork server starts (the first worker); later calls change nothing.
    context.set_forkserver_preload(list(PRELOADED))
    return context
