"""The web's bounds on one client, alone: rate buckets per address, the bearer token,
the routes that read one."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import compile_path

from pitkit.server import create_app
from pitkit.server.ops.settings import database_url
from pitkit.server.web.bodies import bearer
from pitkit.server.web.limits import Buckets, TokenRoutes


def test_each_address_has_its_own_bucket() -> None:
    buckets = Buckets(rate=0.001, burst=2)
    assert [buckets.take("203.0.113.1") for _ in range(3)] == [True, True, False]
    assert buckets.take("203.0.113.2")


def test_buckets_forget_everyone_beyond_ten_thousand_addresses() -> None:
    buckets = Buckets(rate=0.001, burst=1)
    assert buckets.take("first") and not buckets.take("first")
    for i in range(9_999):
        buckets.take(f"10.0.{i // 256}.{i % 256}")
    assert len(buckets.buckets) == 10_000
    buckets.take("one more")  # a crude bound on memory: limits restart for all
    assert len(buckets.buckets) == 1
    assert buckets.take("first")


def test_bearer_reads_the_token_of_an_authorization_header() -> None:
    assert bearer("Bearer abc") == "abc"
    assert bearer("bearer  abc ") == "abc"
    assert bearer("Bearer ") is None
    assert bearer("Basic abc") is None
    assert bearer(None) is None


def test_the_routes_that_read_a_token_are_those_the_spec_gives_an_authorization_header(
    tmp_path: Path,
) -> None:
    """`TokenRoutes` reads the routes themselves; the OpenAPI spec, written from the same
    routes, must name the same operations: each path and its methods."""
    app = create_app(database_url(str(tmp_path), None))
    reads_token = next(
        m.kwargs["reads_token"] for m in app.user_middleware if "reads_token" in m.kwargs
    )
    assert isinstance(reads_token, TokenRoutes)
    in_spec = {
        (compile_path(path)[0].pattern, method.upper())
        for path, operations in app.openapi()["paths"].items()
        for method, operation in operations.items()
        if any(
            p["in"] == "header" and p["name"].lower() == "authorization"
            for p in operation.get("parameters", [])
        )
    }
    read = {
        (pattern.pattern, method) for pattern, methods in reads_token.routes for method in methods
    }
    assert read == in_spec
    assert len(read) >= 10  # the events', tables' and profiles' own routes
    assert reads_token({"path": "/api/events/abc/entries", "method": "POST"})
    assert not reads_token({"path": "/api/games", "method": "GET"})
