"""What every backend of the arena shares: the `Backend` interface, and
`in_flight`, the window of tasks each keeps running.

`pitkit.arena.pool` holds the local backend and chooses one by name;
`pitkit.arena.cluster` holds Ray's. Both build on this module, and only
`pool.make_backend` imports `cluster`, when Ray is chosen.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar

__all__ = ["Backend", "in_flight"]

T = TypeVar("T")
R = TypeVar("R")
H = TypeVar("H")


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


def in_flight(
    tasks: Sequence[T],
    limit: int,
    submit: Callable[[T], H],
    wait_some: Callable[[list[H]], tuple[list[H], list[H]]],
) -> Iterator[H]:
    """Submit `tasks` with at most `limit` in flight; yield each handle as it
    finishes. `wait_some(pending)` blocks until at least one is done and
    returns (done, still pending). Keeping the rest back lets results stream
    in while they wait, and keeps a million-task schedule out of the queue."""
    queue = iter(tasks)
    pending = [submit(task) for task in itertools.islice(queue, limit)]
    while pending:
        done, pending = wait_some(pending)
        for handle in done:
            yield handle
            pending.extend(submit(task) for task in itertools.islice(queue, 1))
