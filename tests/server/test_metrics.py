"""GET /metrics: after real play, Prometheus's text parses and every count is what happened."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

from pitkit.server.client import RandomPlayer, TableClient
from pitkit.server.ops.metrics import STATUSES, Metrics
from pitkit.server.ops.settings import database_url
from pitkit.server.store.storage import Store, StoreTimeoutError
from tests.server.conftest import ServerThread, run
from tests.waiting import patience, wait_until

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]

LABELS = {"game", "status", "role", "code", "reason", "le"}
"""Every label a pitkit_ metric may have: none can hold an id, a token, a name or a card."""


def scrape(server: ServerThread) -> tuple[str, Samples]:
    """The /metrics text, and its samples by (name, labels)."""
    response = server.http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return response.text, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _closed(server: ServerThread) -> tuple[str, Samples] | None:
    """The scrape, once it counts no player's nor spectator's socket (else None)."""
    scraped = scrape(server)
    counts = [value(scraped[1], "pitkit_connections", role=r) for r in ("player", "spectator")]
    return scraped if counts == [0, 0] else None


async def _join(server: ServerThread, tid: str, token: str | None) -> TableClient:
    client = TableClient(server.base, tid, token)
    await client.connect(name="T")
    await client.recv_type("welcome")
    return client


def test_metrics_count_tables_sockets_actions_refusals_and_database_time(
    server: ServerThread,
) -> None:
    waiting = server.create(game="pitty-pat", seats=["open", "open"])
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid = created["table"]["id"]
    tokens = [created["host_token"], waiting["host_token"]]
    tokens += [s["token"] for c in (created, waiting) for s in c["seats"]]
    clients: list[TableClient] = []
    players: list[RandomPlayer] = []

    async def main() -> None:
        clients.extend([await _join(server, tid, t) for t in tokens[2:4]])
        watcher = await _join(server, tid, None)
        for c in [*clients, watcher]:
            await c.recv_type("sync")
        _, samples = scrape(server)
        assert value(samples, "pitkit_connections", role="player") == 2
        assert value(samples, "pitkit_connections", role="spectator") == 1
        assert value(samples, "pitkit_tables", game="ace-pit", status="playing") == 1
        mover, other = (clients[0], clients[1]) if clients[0].legal else clients[::-1]
        # Refused: each under its own code.
        await other.send({"type": "act", "action": mover.legal[0], "version": other.version})
        assert (await other.recv_type("error"))["code"] == "not_your_turn"
        await mover.send("{")
        assert (await mover.recv_type("error"))["code"] == "malformed"
        await watcher.send({"type": "act", "action": mover.legal[0], "version": 0})
        assert (await watcher.recv_type("error"))["code"] == "spectator"
        # Then the whole match, by two random players.
        players.extend(RandomPlayer(c, seed) for seed, c in enumerate(clients))
        for c in clients:
            await c.send({"type": "sync"})  # the players start from a fresh view
        until = time.monotonic() + patience(30)
        await asyncio.gather(*(p.run(until) for p in players))
        assert all(c.over for c in clients)
        clients.append(watcher)
        for c in clients:
            await c.close()

    run(main())
    played = server.table(tid)["version"]
    acked = sum(len(p.acked) for p in players)
    assert played == acked > 0
    # The server sees the sockets close a moment after the clients do, and counts them out.
    scraped = wait_until(lambda: _closed(server), 10, "the sockets to be counted out")
    assert scraped is not None
    text_, samples = scraped

    # Tables by game and status: every game and status is reported, these two are counted.
    assert value(samples, "pitkit_tables", game="ace-pit", status="over") == 1
    assert value(samples, "pitkit_tables", game="pitty-pat", status="waiting") == 1
    tables = {k: v for k, v in samples.items() if k[0] == "pitkit_tables"}
    assert sum(tables.values()) == 2
    assert {dict(labels)["status"] for _, labels in tables} == set(STATUSES)

    # Every accepted action, and each client's one timed from receipt to acknowledgement.
    assert value(samples, "pitkit_actions_total", game="ace-pit") == played
    assert value(samples, "pitkit_action_seconds_count") == acked
    assert value(samples, "pitkit_action_seconds_bucket", le="+Inf") == acked
    assert 0 < value(samples, "pitkit_action_seconds_sum") < 10 * acked

    # Every error a client received was counted under its code, and nothing else was.
    received = Counter(m["code"] for c in clients for m in c.log if m["type"] == "error")
    assert received["not_your_turn"] >= 1 and received["malformed"] == 1
    counted = {
        dict(labels)["code"]: v
        for (name, labels), v in samples.items()
        if name == "pitkit_refusals_total"
    }
    assert counted == dict(received)

    # Database time: the tables, the claimed seats, the deal and every action were committed.
    commits = value(samples, "pitkit_store_commit_seconds_count")
    assert commits >= 1 and value(samples, "pitkit_store_commit_seconds_sum") > 0
    assert value(samples, "pitkit_store_jobs_total") >= 2 + 2 + 1 + played
    assert not any(name == "pitkit_store_failures_total" for name, _ in samples)
    # Process metrics come with it.
    assert value(samples, "process_cpu_seconds_total") > 0

    # Nothing secret: no token, no table id, and only labels from fixed lists.
    for secret in [*tokens, tid, waiting["table"]["id"]]:
        assert secret not in text_
    for name, labels in samples:
        if name.startswith("pitkit_"):
            assert {k for k, _ in labels} <= LABELS, name


def test_metrics_is_documented_among_the_servers_routes(server: ServerThread) -> None:
    spec = server.http.get("/openapi.json").json()
    assert spec["paths"]["/metrics"]["get"]["tags"] == ["server"]
    assert spec["paths"]["/healthz"]["get"]["tags"] == ["server"]
    # Scraped as often as a dashboard likes: each answer is a fresh count.
    for _ in range(20):
        assert server.http.get("/metrics").status_code == 200


def test_store_failures_and_timeouts_are_counted(tmp_path: Path) -> None:
    metrics = Metrics()
    store = Store(database_url(str(tmp_path), None), timeout=0.2, metrics=metrics)
    store.start()

    def missing(conn: Connection) -> None:
        conn.execute(text("SELECT * FROM no_such_table"))

    async def main() -> None:
        try:
            await store.run(lambda conn: conn.execute(text("SELECT 1")).scalar())
            with pytest.raises(DBAPIError, match="no_such_table"):
                await store.run(missing)
            with pytest.raises(StoreTimeoutError):
                await store.run(lambda conn: time.sleep(0.5))
        finally:
            # While the loop runs: the slow job still answers it once done.
            await asyncio.to_thread(store.close)

    run(main())
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(metrics.text().decode())
        for s in family.samples
    }
    assert value(samples, "pitkit_store_failures_total", reason="error") == 1
    assert value(samples, "pitkit_store_failures_total", reason="timeout") == 1
    # The good job, the bad one (its batch, then alone) and the slow one.
    assert value(samples, "pitkit_store_commit_seconds_count") == 3
    assert value(samples, "pitkit_store_commit_seconds_sum") >= 0.5


def test_each_app_counts_apart() -> None:
    first, second = Metrics(), Metrics()
    first.refused("stale")
    assert b'pitkit_refusals_total{code="stale"} 1.0' in first.text()
    assert b"pitkit_refusals_total{" not in second.text()
