"""The shipped Alembic migrations, up and down, on SQLite and on PostgreSQL; and
the engine's settings on each."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect, text

import pitkit.server.store.storage as storage
from pitkit.server.store.storage import make_engine, metadata, migrate
from tests.waiting import patience

SCHEMA = {
    "tables",
    "seats",
    "matches",
    "steps",
    "events",
    "event_links",
    "event_entries",
    "chat",
    "profiles",
    "profile_devices",
    "profile_codes",
    "profile_passkeys",
    "profile_challenges",
    "profile_seats",
    "server_keys",
    "push_subscriptions",
    "ratings",
    "rated_matches",
}


def _downgrade(engine: Engine, revision: str) -> None:
    """`migrate`'s counterpart: Alembic's downgrade on the engine, set up as `migrate` does."""
    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, revision)


def _tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def _revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def test_upgrade_downgrade_and_upgrade_again(database: str) -> None:
    engine = make_engine(database)
    try:
        migrate(engine)
        assert _tables(engine) == SCHEMA
        assert _revision(engine) is not None
        assert {ix["name"] for ix in inspect(engine).get_indexes("tables")} == {"ix_tables_status"}
        # What the migrations build is the schema the code declares, to the column.
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []

        _downgrade(engine, "base")
        assert _tables(engine) == set()
        assert _revision(engine) is None

        migrate(engine)
        assert _tables(engine) == SCHEMA
        with engine.begin() as conn:
            conn.execute(
                storage.tables_t.insert().values(
                    id="t1",
                    game="pit",
                    players=4,
                    rules="{}",
                    settings="{}",
                    host_hash="h",
                    status="waiting",
                    match_no=0,
                    created=1.0,
                    updated=1.0,
                )
            )
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM tables")).scalar_one() == 1
    finally:
        engine.dispose()


def test_the_engine_bounds_every_wait(database: str) -> None:
    """PostgreSQL sessions get the timeouts `make_engine` asks for; SQLite its pragmas."""
    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "postgresql":
                settings = {
                    name: conn.execute(text(f"SHOW {name}")).scalar_one()
                    for name in (
                        "statement_timeout",
                        "lock_timeout",
                        "idle_in_transaction_session_timeout",
                    )
                }
                assert settings == {
                    "statement_timeout": "10s",
                    "lock_timeout": "5s",
                    "idle_in_transaction_session_timeout": "30s",
                }
            else:
                assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
                assert conn.execute(text("PRAGMA synchronous")).scalar_one() == 2  # FULL
                assert conn.execute(text("PRAGMA busy_timeout")).scalar_one() == 5000
    finally:
        engine.dispose()


def test_workers_started_together_migrate_once(postgres: Any) -> None:
    # Several `pitkit serve` started at once on a new database (systemd units):
    # one creates the schema, the others wait for it and find it done.
    url = postgres.new_database()
    engines = [make_engine(url) for _ in range(4)]
    errors: list[BaseException] = []

    def start(engine: Engine) -> None:
        try:
            migrate(engine)
        except BaseException as exc:  # collected: a thread's failure would be lost
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(e,)) for e in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(patience(60))
    try:
        assert errors == []
        assert _tables(engines[0]) == SCHEMA
    finally:
        for engine in engines:
            engine.dispose()
