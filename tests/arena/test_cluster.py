"""The Ray backend gives the process pool's results, seed for seed (skipped without Ray)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pitkit import arena, games
from pitkit.arena.cluster import MISSING_RAY
from pitkit.arena.pool import Backend, make_backend
from pitkit.arena.tournament import MatchResult, run, schedule
from pitkit.cli import app
from tests.arena.conftest import ray_lock

PITTY_PAT = games.get("pitty-pat")
RAY_FILE = "/tmp/ray/ray_current_cluster"


def same(r: MatchResult) -> tuple[Any, ...]:
    """Everything but the time a match took."""
    return (r.index, r.seed, r.seating, r.ranks, r.points, r.decisions, r.hands, r.summary)


def test_without_ray_the_backend_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    with pytest.raises(ValueError, match="install pitkit") as refused:
        make_backend("ray", 2)
    assert str(refused.value) == MISSING_RAY
    result = CliRunner().invoke(app, ["simulate", "pitty-pat", "-n", "2", "--backend", "ray"])
    assert result.exit_code != 0 and "pitkit[ray]" in result.output


def test_no_cluster_at_the_address_is_a_clear_error() -> None:
    pytest.importorskip("ray")
    import ray

    # `auto` finds a cluster that `ray start` left on this machine (its address file),
    # or any Ray running here: another test worker's is waited for (the lock), and
    # anyone else's makes the test skip.
    if ray.is_initialized() or os.environ.get("RAY_ADDRESS") or Path(RAY_FILE).exists():
        pytest.skip("Ray is running here")
    with ray_lock(alone=True):
        try:
            backend = make_backend("ray", address="auto")
        except ValueError as exc:
            assert "no Ray cluster at auto" in str(exc)
        else:  # a Ray that is not a test's came up on this machine meanwhile
            backend.close()
            pytest.skip("a Ray cluster came up on this machine meanwhile")


@pytest.fixture(scope="module")
def local_backend() -> Iterator[Backend]:
    backend = make_backend("local", 2)
    yield backend
    backend.close()


@pytest.mark.ray
def test_ray_runs_the_same_simulation_as_the_process_pool(
    ray_backend: Backend, local_backend: Backend
) -> None:
    specs = arena.simulation(PITTY_PAT, ["random", "sensible"], 8, seed=11)
    on_ray = run(specs, ray_backend)
    on_pool = run(specs, local_backend)
    assert [same(r) for r in on_ray] == [same(r) for r in on_pool]
    # and the same as `simulate` playing them here
    here = list(arena.simulate(PITTY_PAT, ["random", "sensible"], 8, seed=11))
    assert [r.ranks for r in on_ray] == [p.ranks for p in here]


@pytest.mark.ray
def test_ray_runs_the_same_duplicate_arena_as_the_process_pool(
    ray_backend: Backend, local_backend: Backend
) -> None:
    specs = schedule(PITTY_PAT, ["random", "sensible", "sensible"], 3, seed=5, duplicate=True)
    on_ray = run(specs, ray_backend)
    on_pool = run(specs, local_backend)
    assert len(on_ray) == 9
    assert [same(r) for r in on_ray] == [same(r) for r in on_pool]


@pytest.mark.ray
def test_cli_takes_the_ray_backend(ray_backend: Backend) -> None:
    def table(backend: str) -> str:
        args = ["simulate", "pitty-pat", "-n", "4", "--seed", "3", "--bots", "random,sensible"]
        result = CliRunner().invoke(app, [*args, "--backend", backend, "--workers", "2"])
        assert result.exit_code == 0, result.output
        speed = result.output.index("matches/s")
        return result.output[: result.output.rindex("\n", 0, speed)]  # the table, not the speed

    assert table("ray") == table("local")
