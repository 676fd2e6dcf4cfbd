"""The web's bounds on one client, alone: rate buckets per address, the bearer token."""

from __future__ import annotations

from pitkit.server.web.bodies import bearer
from pitkit.server.web.limits import Buckets


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
