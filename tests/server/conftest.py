"""A real server on a free loopback port, in a thread, with its own database:
every test that takes `server` or `database` runs on SQLite, and on PostgreSQL (a
throwaway server, tests/postgres.py) as `EVERY_STORE` says."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pitkit.server import Limits
from pitkit.server.ops.settings import database_url
from pitkit.server.store.storage import Store
from tests.postgres import REQUIRE_ENV, PostgresServer, PostgresUnavailableError
from tests.serving import ServingThread
from tests.waiting import wait_until

# Test clients act as fast as they can, and bots as well: far above the limits meant
# for people and for strangers' bot-only tables.
FAST = Limits(
    rate=100_000,
    burst=100_000,
    bot_actions_per_second=100_000,
    bot_alone_actions_per_second=100_000,
    commit_gap=0,
    bot_actions_all_per_second=1_000_000,
    requests_per_second=100_000,
    request_burst=100_000,
    # No pause between hands unless a test asks for one (tests/server/test_pacing.py).
    next_hand_seconds=0,
)


class ServerThread(ServingThread):
    """The server, with the API calls the tests make."""

    def create(self, **body: Any) -> dict[str, Any]:
        """POST /api/tables, expecting success."""
        body.setdefault("settings", {})
        body["settings"].setdefault("bot_delay", 0)
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def table(self, table_id: str) -> dict[str, Any]:
        response = self.http.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.text
        info: dict[str, Any] = response.json()
        return info

    def wait_for(self, table_id: str, status: str, timeout: float = 20) -> dict[str, Any]:
        """The table's info once its status is `status` (waiting `timeout`, scaled)."""
        info: dict[str, Any] = wait_until(
            lambda: (i := self.table(table_id))["status"] == status and i,
            timeout,
            f"table {table_id} to be {status}",
        )
        return info


EVERY_STORE = frozenset(
    {
        "test_backup",
        "test_cluster",
        "test_database_down",
        "test_durability",
        "test_event_keys",
        "test_event_pads",
        "test_event_tables",
        "test_events",
        "test_export_games",
        "test_migrations",
        "test_own_pace",
        "test_pitch_event",
        "test_profiles",
        "test_push",
        "test_races",
        "test_ratings",
    }
)
"""The modules whose every test runs on both stores: their subject is what is stored
(backups, migrations, durability, profiles, ratings, push subscriptions, deadlines,
events' logs) or the same data at several workers. Every other module runs its first
test on PostgreSQL too, its flow end to end on each store, and the rest on SQLite
(docs/testing.md); ``PITKIT_EVERY_STORE=1`` runs them all on both."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the PostgreSQL runs `EVERY_STORE` does not ask for."""
    if os.environ.get("PITKIT_EVERY_STORE") == "1":
        return
    here = Path(__file__).parent
    first: set[str] = set()
    kept, left_out = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("database") == "postgres"
        module = item.path.stem
        if not on_postgres or item.path.parent != here or module in EVERY_STORE:
            kept.append(item)
        elif module not in first:
            first.add(module)
            kept.append(item)
        else:
            left_out.append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole session, started on first use."""
    try:
        pg = PostgresServer()
    except PostgresUnavailableError as exc:
        missing = str(exc)
    else:
        missing = ""
    if missing:
        # CI and `make test` must not pass by skipping: there it is a failure.
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{missing} ({REQUIRE_ENV}=1)", pytrace=False)
        pytest.skip(missing)
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database's URL: SQLite in `tmp_path`, or one on the PostgreSQL server.

    For a test that starts the `server` fixture, it is at the newest schema already: a
    copy of one migrated once a test worker, so that its server finds nothing to
    migrate (0.1 s a test on SQLite, 0.06 s on PostgreSQL). Any other test's is empty
    (test_migrations.py's and those that start their own servers start from nothing)."""
    migrated = "server" in request.fixturenames
    if request.param == "sqlite":
        url = database_url(str(tmp_path), None)
        if migrated:
            shutil.copyfile(request.getfixturevalue("migrated_sqlite"), _sqlite_file(url))
        return url
    pg: PostgresServer = request.getfixturevalue("postgres")
    return pg.new_database(request.getfixturevalue("migrated_postgres") if migrated else None)


SQLITE = "sqlite:///"


def _sqlite_file(url: str) -> Path:
    """The file of a SQLite database's URL (`database_url`'s)."""
    return Path(url.removeprefix(SQLITE))


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database at the newest schema (no rows: the migrations add none), made
    once a test worker, for `database` to copy."""
    url = database_url(str(tmp_path_factory.mktemp("migrated")), None)
    store = Store(url)
    store.start()
    store.close()  # the last connection's close writes the WAL back into the file
    path = _sqlite_file(url)
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture(scope="session")
def migrated_postgres(postgres: PostgresServer) -> str:
    """The name of a database on the test PostgreSQL at the newest schema, made once a
    test worker, for `database` to copy (nobody stays connected to it: a copy needs that)."""
    url = postgres.new_database()
    store = Store(url)
    store.start()
    store.close()
    return postgres.name(url)


@pytest.fixture
def server(tmp_path: Path, database: str) -> Iterator[ServerThread]:
    # Test clients act as fast as they can: far above the rate limit meant for people.
    s = ServerThread(tmp_path, FAST, database=database)
    yield s
    s.stop()


def run(coro: Any) -> Any:
    """Run a coroutine to its end (the tests' clients are asyncio ones)."""
    return asyncio.run(coro)
