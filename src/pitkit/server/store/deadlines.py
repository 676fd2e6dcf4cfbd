"""A table's settings stored anew: at a table at your own pace, with the deadline of the
move due (docs/turn-based.md), which a restart reads back with the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, update

from pitkit.server.store.storage import json_text, tables_t

__all__ = ["save_settings"]


def save_settings(table_id: str, settings: dict[str, Any]) -> Callable[[Connection], None]:
    """A job that stores a table's settings (`TableSettings.to_json`, and the move's
    ``deadline`` at your own pace)."""
    text = json_text(settings)

    def job(conn: Connection) -> None:
        conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(settings=text))

    return job
