"""Prometheus metrics of a running server, served at ``GET /metrics``.

Each app has its own `Metrics` on a registry of its own, not prometheus-client's
global one, so that many apps in one process (the tests) count apart. Labels are
only games, statuses, roles, refusal codes and failure reasons, all from fixed
lists: never a table id, a token, a name or a card.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterator
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from pitkit.server.live.manager import Manager

__all__ = ["STATUSES", "Metrics"]

STATUSES = ("waiting", "playing", "over", "closed", "expired", "broken")
"""Every status a table may have (each is reported, at 0 when no table has it)."""

# From a millisecond (a commit that found the disk idle) to a second (one that
# waited on a lock or an fsync storm); the store gives up after `Limits.store_seconds`.
SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


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

    def watch(self, manager: Manager) -> None:
        """Count `manager`'s tables, sockets and database jobs at every scrape."""
        self.registry.register(_Tables(manager))

    def refused(self, code: str) -> None:
        """Count a refusal with the protocol's error `code`."""
        self.refusals.labels(code).inc()

    def text(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)


class _Tables:
    """What is read from the tables in memory when Prometheus scrapes, rather than
    kept up to date at every change. Called on the event loop (the /metrics route
    is async), the one thread that changes the tables."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager

    def collect(self) -> Iterator[Metric]:
        tables = list(self.manager.tables.values())
        counts = Tally((t.game.name, t.status) for t in tables)
        by_state = GaugeMetricFamily(
            "pitkit_tables", "Tables in memory, by game and status.", labels=["game", "status"]
        )
        every = {(game, status) for game in games.names() for status in STATUSES}
        for game, status in sorted(every | set(counts)):
            by_state.add_metric([game, status], counts[game, status])
        yield by_state
        sockets = GaugeMetricFamily(
            "pitkit_connections",
            "Open WebSocket connections that said hello, by role.",
            labels=["role"],
        )
        sockets.add_metric(["player"], sum(len(s.conns) for t in tables for s in t.seats))
        sockets.add_metric(["spectator"], sum(len(t.spectators) for t in tables))
        yield sockets
        yield CounterMetricFamily(
            "pitkit_store_jobs",
            "Database jobs committed (each commit takes many: group commit).",
            value=self.manager.store.jobs,
        )
