"""Ray, started once a module for the tests that run on it (the `ray` mark). Once a
module: `test_cluster.py` checks what happens where no Ray runs."""

from __future__ import annotations

import fcntl
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pitkit.arena.pool import Backend, make_backend

# One file for every test process on this machine (both test workers, and any other
# run of the suite): Ray's tests hold it shared while their Ray is up, and the test
# that needs no Ray running on the machine holds it alone, so neither skips the other.
RAY_LOCK = Path(tempfile.gettempdir()) / "pitkit-tests-ray.lock"


@contextmanager
def ray_lock(alone: bool) -> Iterator[None]:
    """Hold `RAY_LOCK`: shared, or `alone` (waiting until no test's Ray is up)."""
    with RAY_LOCK.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def ray_backend() -> Iterator[Backend]:
    """The Ray backend on a local cluster of this machine's share, two CPUs; skipped
    without Ray."""
    pytest.importorskip("ray")
    with ray_lock(alone=False):
        backend = make_backend("ray", 2)  # ray.init(num_cpus=2)
        yield backend
        backend.close()  # Ray's processes have ended when it returns
