"""Prometheus metrics of a running server, served at ``GET /metrics``.

Each app has its own `Metrics` on a registry of its own, not prometheus-client's
global one, so that many apps in one process (the tests) count apart. Labels are
only games, statuses, roles, refusal codes and failure reasons, all from fixed
lists: never a table id, a token, a name or a card. The tables in memory are
counted by whoever holds them (the live manager), which hands a `Census` to each
scrape: the server's lowest layer knows nothing of tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from pitkit import games

__all__ = ["STATUSES", "Census", "Metrics"]

STATUSES = ("waiting", "playing", "over", "closed", "expired", "broken")
"""Every status a table may have (each is reported, at 0 when no table has it)."""

# From a millisecond (a commit that found the disk idle) to a second (one that
# waited on a lock or an fsync storm); the store gives up after `Limits.store_seconds`.
SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


@dataclass(frozen=True)
class Census:
    """What a scrape counts of the tables in memory, as the live manager reports it."""

    tables: Mapping[tuple[str, str], int]
    """Tables by game and status (those not in it: none)."""
    players: int
    """Open WebSocket connections of seated players that said hello."""
    spectators: int
    """Open WebSocket connections of spectators that said hello."""
    store_jobs: int
    """Database jobs committed so far."""


class Metrics:
    """A server's counters and timings, and its tables counted at each scrape."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.actions = Counter(
            "pitkit_actions",
            "Actions accepted and stored, by game (bots' and stand-ins' too).",
            ["game"],
            registry=registry,
        )
        self.action_seconds = Histogram(
            "pitkit_action_seconds",
            "Seconds from receiving a client's act message to its acknowledgement, "
            "the action stored.",
            buckets=SECONDS,
            registry=registry,
        )
        self.refusals = Counter(
            "pitkit_refusals",
            "WebSocket messages (and joins over HTTP) refused, by the protocol's error code.",
            ["code"],
            registry=registry,
        )
        self.store_seconds = Histogram(
            "pitkit_store_commit_seconds",
            "Seconds the database writer spent on one group commit (its jobs and the commit).",
            buckets=SECONDS,
            registry=registry,
        )
        self.store_failures = Counter(
            "pitkit_store_failures",
            "Database jobs that failed (error) or that the server stopped waiting for (timeout).",
            ["reason"],
            registry=registry,
        )
        # The process's CPU, memory, open files, Python version and garbage collections.
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)

    def watch(self, census: Callable[[], Census]) -> None:
        """Count the tables, sockets and database jobs that `census()` gives, at
        every scrape (it is called on the event loop: the /metrics route is async)."""
        self.registry.register(_Scrape(census))

    def refused(self, code: str) -> None:
        """Count a refusal with the protocol's error `code`."""
        self.refusals.labels(code).inc()

    def text(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)


class _Scrape:
    """What is read from the tables in memory when Prometheus scrapes, rather than
    kept up to date at every change."""

    def __init__(self, census: Callable[[], Census]) -> None:
        self.census = census

    def collect(self) -> Iterator[Metric]:
        census = self.census()
        by_state = GaugeMetricFamily(
            "pitkit_tables", "Tables in memory, by game and status.", labels=["game", "status"]
        )
        every = {(game, status) for game in games.names() for status in STATUSES}
        for game, status in sorted(every | set(census.tables)):
            by_state.add_metric([game, status], census.tables.get((game, status), 0))
        yield by_state
        sockets = GaugeMetricFamily(
            "pitkit_connections",
            "Open WebSocket connections that said hello, by role.",
            labels=["role"],
        )
        sockets.add_metric(["player"], census.players)
        sockets.add_metric(["spectator"], census.spectators)
        yield sockets
        yield CounterMetricFamily(
            "pitkit_store_jobs",
            "Database jobs committed (each commit takes many: group commit).",
            value=census.store_jobs,
        )
