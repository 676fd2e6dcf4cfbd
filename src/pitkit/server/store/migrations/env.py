"""Alembic environment: migrations run on the connection the server hands over.

`pitkit serve` runs them on start (`pitkit.server.store.storage.migrate`); the
`alembic` command works too, given ``-x url=DATABASE_URL``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from pitkit.server.store.storage import metadata

config = context.config


def _run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("give the database as: alembic -x url=DATABASE_URL upgrade head")
    engine = create_engine(url)
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


_run()
