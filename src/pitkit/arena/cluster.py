"""The Ray backend: arena matches on a Ray cluster (the ``ray`` extra).

``pitkit arena GAME --backend ray --address auto`` joins the cluster that
``ray start --head`` made on this machine (or ``--address HOST:6379``
another); without ``--address`` Ray starts on this machine for the run
alone. Each task is one batch of `pitkit.arena.tournament.MatchSpec` run by
``run_matches`` as a Ray task of one CPU; the function goes by name, so
every node needs the same pitkit installed (docs/cluster.md), and the
modules of any ``module:attribute`` bot names (`pitkit.bots.agents`): Ray
puts the folder the run started from on its workers' path, not the rest of
this process's ``sys.path``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from pitkit.arena.backend import in_flight

__all__ = ["MISSING_RAY", "RayBackend"]

T = TypeVar("T")
R = TypeVar("R")

MISSING_RAY = "the ray backend needs Ray: install pitkit[ray] (pip install 'pitkit[ray]')"


class RayBackend:
    """Ray tasks, two a worker in flight; results in the order they finish.

    `workers` (default: every CPU of the cluster) sets how many tasks are
    in flight, two a worker. Without `address` Ray starts here with
    `workers` CPUs; if Ray is already running in this process, that session
    is used and left running on `close`.
    """

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        try:
            import ray as ray_module
        except ImportError as exc:
            raise ValueError(MISSING_RAY) from exc
        # Ray's own annotations are partial: used through Any, mypy passes with or without it.
        ray: Any = ray_module
        self._ray = ray
        self._owns = not ray.is_initialized()
        if self._owns:
            # The dashboard and the workers' log lines are for long-lived clusters;
            # an arena prints its own progress. One of address or num_cpus is None.
            try:
                ray.init(
                    address=address,
                    num_cpus=None if address is not None else workers,
                    include_dashboard=False,
                    log_to_driver=False,
                )
            except ConnectionError as exc:  # no cluster at `address`
                raise ValueError(f"no Ray cluster at {address}: {exc}") from exc
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self._workers = max(1, min(workers, cpus) if workers is not None else cpus)

    @property
    def workers(self) -> int:
        """How many tasks run at once."""
        return self._workers

    def map_unordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        """``fn(task)`` for every task, as Ray tasks, in the order they finish."""
        ray = self._ray
        remote = ray.remote(num_cpus=1)(fn)

        def wait_one(pending: list[Any]) -> tuple[list[Any], list[Any]]:
            done, rest = ray.wait(pending, num_returns=1)
            return list(done), list(rest)

        for ref in in_flight(tasks, 2 * self._workers, remote.remote, wait_one):
            try:
                result: R = ray.get(ref)
            except ray.exceptions.RayTaskError as exc:
                # Bad input met in a worker (a bot name its module cannot be imported
                # for) is raised as the process pool raises it: the error itself.
                if isinstance(exc.cause, ValueError):
                    raise exc.cause from None
                raise
            yield result

    def close(self) -> None:
        """Disconnect from Ray (and stop it, if this backend started it)."""
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()
