"""Where arena matches run: the local backend, and the choice of one by name.

The arena hands a backend (`pitkit.arena.backend.Backend`, which this module
exports too) a function and a list of tasks and reads back the results in the
order they finish. Tasks and results are plain picklable data
(`pitkit.arena.tournament.MatchSpec` and `MatchResult`), and the function is
a module-level name, so the same call can go to local processes or to a
cluster: `pitkit.arena.cluster.RayBackend` implements `Backend` with
``ray.remote(fn)``, and `make_backend` imports it (and Ray) only when it is
chosen, so pitkit runs without the ``ray`` extra.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

from pitkit.arena.backend import Backend, in_flight

__all__ = ["BACKENDS", "Backend", "LocalBackend", "default_workers", "make_backend"]

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _wait_futures(pending: list[Future[R]]) -> tuple[list[Future[R]], list[Future[R]]]:
    done, rest = wait(pending, return_when=FIRST_COMPLETED)
    return list(done), list(rest)


class LocalBackend:
    """Processes on this machine; with one worker, this process itself.

    Workers are started with ``spawn``: each imports pitkit afresh, as a
    cluster worker would, and no lock held by a thread of the parent (the
    progress bar's) is copied into them; they get this process's ``sys.path``,
    so a ``module:attribute`` bot that imports here imports there. At most
    two tasks a worker are in flight, so the results stream back while the
    rest wait their turn.
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
        pool = self._pool
        for future in in_flight(
            tasks, 2 * self._workers, lambda task: pool.submit(fn, task), _wait_futures
        ):
            yield future.result()

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


BACKENDS: dict[str, str] = {
    "local": "processes on this machine (--workers of them; 1 runs in this process)",
    "ray": "a Ray cluster (--address; default: Ray started on this machine); pitkit[ray]",
}


def make_backend(name: str, workers: int | None = None, address: str | None = None) -> Backend:
    """The backend called `name` with `workers` workers (None: every core it
    has). `address` is the Ray cluster to join (only for ``ray``)."""
    if name == "local":
        if address is not None:
            raise ValueError("--address is for --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        from pitkit.arena.cluster import RayBackend  # imports Ray, an optional extra

        return RayBackend(workers, address)
    raise ValueError(f"no backend named {name!r}; backends are: {', '.join(BACKENDS)}")
