"""What a move's time at a table stores: the table's settings anew (at your own pace,
with the deadline of the move due, which a restart reads back with the table), and a
match that ended because a player let the time run out (docs/turn-based.md)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, update

from pitkit.server.store.storage import json_text, matches_t, tables_t

__all__ = ["forfeit_match", "save_settings"]


def save_settings(table_id: str, settings: dict[str, Any]) -> Callable[[Connection], None]:
    """A job that stores a table's settings (`TableSettings.to_json`, and the move's
    ``deadline`` at your own pace)."""
    text = json_text(settings)

    def job(conn: Connection) -> None:
        conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(settings=text))

    return job


def forfeit_match(
    table_id: str, number: int, outcome: dict[str, Any]
) -> Callable[[Connection], bool]:
    """A job that ends match `number` with `outcome`, the server's (the ``forfeit``
    seats last, everyone else first): whether it did (False: it had ended already)."""
    text = json_text(outcome)

    def job(conn: Connection) -> bool:
        ended = conn.execute(
            update(matches_t)
            .where(
                matches_t.c.table_id == table_id,
                matches_t.c.number == number,
                matches_t.c.outcome.is_(None),
            )
            .values(outcome=text, ended=time.time())
        )
        return bool(ended.rowcount)

    return job
