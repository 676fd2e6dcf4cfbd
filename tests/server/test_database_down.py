"""The lobby while the database is down: a clear 503 that says so, never a 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import PostgresServer, PostgresUnavailableError
from tests.server.conftest import FAST, ServerThread


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test's own, to stop mid-test."""
    try:
        pg = PostgresServer()
    except PostgresUnavailableError as exc:
        pytest.skip(str(exc))
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()


def test_a_table_asked_for_while_postgresql_is_down_is_a_503(
    tmp_path: Path, own_postgres: PostgresServer
) -> None:
    server = ServerThread(tmp_path, FAST, database=own_postgres.new_database())
    try:
        created = server.create(game="pitty-pat", seats=["open", "random", "random"])
        tid = created["table"]["id"]
        own_postgres.stop()
        # The worker gives up its tables when it loses the database (it can no longer
        # hold them against another worker), so each one asked for is to be loaded,
        # and whether an unknown one exists is the database's to say.
        for asked in (tid, "AbCdEfGhIjKl"):
            answer = server.http.get(f"/api/tables/{asked}")
            assert answer.status_code == 503, answer.text
            assert "database" in answer.json()["detail"]
            assert answer.headers.get("retry-after")
    finally:
        server.stop()
