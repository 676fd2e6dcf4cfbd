"""Where arena matches run: a small backend interface, and the local one.

The arena hands a backend a function and a list of tasks and reads back the
results in the order they finish. Tasks and results are plain picklable data
(`pitkit.arena.tournament.MatchSpec` and `MatchResult`), and the function is
a module-level name, so the same call can go to local processes or to a
cluster. A Ray backend would implement `Backend` with ``ray.remote(fn)``,
submit one remote call a task and yield from ``ray.wait``; `make_backend`
then names it, and ``pitkit arena --backend ray`` uses it unchanged.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Protocol, TypeVar

__all__ = ["BACKENDS", "Backend", "LocalBackend", "default_workers", "make_backend"]

T = TypeVar("T")
R = TypeVar("R")


class Backend(Protocol):
    """Runs tasks somewhere and yields their results as they finish."""

    @property
    def workers(self) -> int:
        """How many tasks may run at once."""
        ...

    def map_unordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        """``fn(task)`` for every task, in the order they finish."""
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class LocalBackend:
    """Processes on this machine; with one worker, this process itself.

    Workers are started with ``spawn``: each imports pitkit afresh, as a
    cluster worker would, and no lock held by a thread of the parent (the
    progress bar's) is copied into them. At most two tasks a worker are in
    flight, so the results stream back while the rest wait their turn.
    """

    def __init__(self, workers: int | None = None) -> None:
        self._workers = max(1, workers if workers is not None else default_workers())
        self._pool: ProcessPoolExecutor | None = None

    @property
    def workers(self) -> int:
        """How many processes run tasks."""
        return self._workers

    def map_unordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        """``fn(task)`` for every task, in the order they finish."""
        if self._workers == 1:
            for task in tasks:
                yield fn(task)
            return
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self._workers, mp_context=multiprocessing.get_context("spawn")
            )
        pending: set[Future[R]] = set()
        queue = iter(tasks)
        for task in queue:
            pending.add(self._pool.submit(fn, task))
            if len(pending) >= 2 * self._workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                for task in queue:
                    pending.add(self._pool.submit(fn, task))
                    break

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


BACKENDS: dict[str, str] = {
    "local": "processes on this machine (--workers of them; 1 runs in this process)",
}


def make_backend(name: str, workers: int | None = None) -> Backend:
    """The backend called `name` with `workers` workers (None: every local core)."""
    if name == "local":
        return LocalBackend(workers)
    raise ValueError(f"no backend named {name!r}; backends are: {', '.join(BACKENDS)}")
