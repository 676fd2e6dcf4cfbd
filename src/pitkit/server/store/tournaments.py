"""The tournaments' rows: their records, entries and links, as jobs for the writer.

Each function returns a job (`Store.run` runs it in the writer thread) or is one.
The rules of a tournament are `pitkit.tournaments`'; this module only reads and
writes its log.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from sqlalchemy import Connection, func, insert, select, update

from pitkit.server.store.storage import event_entries_t, event_links_t
from pitkit.tournaments.log import Entry

__all__ = ["append", "entries_after", "revoke_links"]


def entries_after(conn: Connection, event_id: str, since: int) -> list[Entry]:
    rows = conn.execute(
        select(event_entries_t)
        .where(event_entries_t.c.event_id == event_id, event_entries_t.c.seq > since)
        .order_by(event_entries_t.c.seq)
    )
    return [
        Entry(r.seq, r.at, r.role, r.author, r.type, json.loads(r.data), r.corrects) for r in rows
    ]


def append(
    event_id: str, entry: Entry, link: tuple[str, str, str] | None, replace_old: bool = False
) -> Callable[[Connection], bool]:
    """A job that stores `entry` if it is still the next one (False: another worker
    stored one first), and the link it makes (`replace_old`: ending the links of the
    same role and name)."""

    def job(conn: Connection) -> bool:
        last = conn.execute(
            select(func.max(event_entries_t.c.seq)).where(event_entries_t.c.event_id == event_id)
        ).scalar()
        if (last or 0) != entry.seq - 1:
            return False
        conn.execute(
            insert(event_entries_t).values(
                event_id=event_id,
                seq=entry.seq,
                at=entry.at,
                role=entry.role,
                author=entry.author,
                type=entry.type,
                data=json.dumps(entry.data),
                corrects=entry.corrects,
            )
        )
        if link is not None:
            digest, role, name = link
            if replace_old:
                revoke_links(event_id, role, name)(conn)
            conn.execute(
                insert(event_links_t).values(
                    event_id=event_id, token_hash=digest, role=role, name=name, created=entry.at
                )
            )
        return True

    return job


def revoke_links(event_id: str, role: str, name: str) -> Callable[[Connection], None]:
    """A job that ends every link of `role` named `name` (a new one replaces them)."""

    def job(conn: Connection) -> None:
        conn.execute(
            update(event_links_t)
            .where(
                event_links_t.c.event_id == event_id,
                event_links_t.c.role == role,
                event_links_t.c.name == name,
                event_links_t.c.revoked.is_(None),
            )
            .values(revoked=time.time())
        )

    return job
