"""Ray, started once a module for the tests that run on it (the `ray` mark: they run
in the compiled stage only, docs/testing.md). Once a module: `test_cluster.py` checks
what happens where no Ray runs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pitkit.arena.pool import Backend, make_backend


@pytest.fixture(scope="module")
def ray_backend() -> Iterator[Backend]:
    """The Ray backend on a local cluster of this machine's share, two CPUs; skipped
    without Ray."""
    pytest.importorskip("ray")
    backend = make_backend("ray", 2)  # ray.init(num_cpus=2)
    yield backend
    backend.close()
