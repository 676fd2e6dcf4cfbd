"""The tournaments' rows: their records, entries and links, as jobs for the writer.

Each function returns a job (`Store.run` runs it in the writer thread) or is one.
The rules of a tournament are `pitkit.tournaments`'; this module only reads and
writes its log and its links. An entry is one job: the link it comes through is
checked, the entry appended if it is still the next one, and the link it makes
stored, in one transaction (`append`).

An entry's idempotency key (`pitkit.tournaments.log.Sent`) is kept in its data, as
stored, under `SENT_FIELD`, and read back out of it: no column, no index. The key
is looked up in the log held in memory; the store's check that an entry is still
the next one is what keeps two workers from making one key's entry twice (the
second catches up, and finds the key).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from pitkit.server.store.storage import event_entries_t, event_links_t, events_t
from pitkit.tournaments.log import SENT_FIELD, Entry, Sent

__all__ = [
    "Appended",
    "CaughtUp",
    "NewLink",
    "Record",
    "append",
    "catch_up",
    "create",
    "entries_after",
    "load",
    "revoke_links",
]

Holder = tuple[str, str | None]
"""The role and name of a link's holder."""


@dataclass(frozen=True, slots=True)
class Record:
    """A tournament's record, and its entries as stored."""

    kind: str
    name: str
    options: dict[str, Any]
    created: float
    entries: list[Entry]


@dataclass(frozen=True, slots=True)
class NewLink:
    """A link an entry makes: its token's hash, its role and name; `replaces`: the
    links of the same role and name end (a lost link replaced)."""

    digest: str
    role: str
    name: str
    replaces: bool = False


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """The entries stored after the last one held, and who holds the link asked
    about (None: no live link of this tournament, or none asked about)."""

    entries: list[Entry]
    holder: Holder | None


@dataclass(frozen=True, slots=True)
class Appended:
    """What became of an entry: stored; or not, because its link is not (or no
    longer) a live link of its author's, or because other entries were stored
    first (`newer`, to catch up with before trying again)."""

    stored: bool
    link_live: bool = True
    newer: list[Entry] = field(default_factory=list)


def create(
    tournament_id: str,
    kind: str,
    name: str,
    options: Mapping[str, Any],
    manager: str,
    at: float,
) -> Callable[[Connection], None]:
    """A job that stores a new tournament's record and its manager's link (`manager`:
    the hash of its token)."""

    def job(conn: Connection) -> None:
        conn.execute(
            insert(events_t).values(
                id=tournament_id, kind=kind, name=name, options=json.dumps(options), created=at
            )
        )
        conn.execute(
            insert(event_links_t).values(
                event_id=tournament_id, token_hash=manager, role="manager", created=at
            )
        )

    return job


def load(tournament_id: str) -> Callable[[Connection], Record | None]:
    """A job that reads a tournament's record and every entry (None: no such tournament)."""

    def job(conn: Connection) -> Record | None:
        row = conn.execute(select(events_t).where(events_t.c.id == tournament_id)).first()
        if row is None:
            return None
        entries = entries_after(conn, tournament_id, 0)
        return Record(row.kind, row.name, json.loads(row.options), row.created, entries)

    return job


def catch_up(
    tournament_id: str, since: int, digest: str | None
) -> Callable[[Connection], CaughtUp]:
    """A job that reads the entries after `since`, and who holds the live link whose
    token hashes to `digest`, if one is given."""

    def job(conn: Connection) -> CaughtUp:
        entries = entries_after(conn, tournament_id, since)
        return CaughtUp(entries, None if digest is None else _holder(conn, tournament_id, digest))

    return job


def append(
    tournament_id: str, entry: Entry, by: str | None, link: NewLink | None
) -> Callable[[Connection], Appended]:
    """A job that stores `entry` and the link it makes, if the link it comes through
    (`by`: its token's hash; None: the server's own entry) is a live one of the
    entry's author, and if the entry is still the next one. Otherwise nothing is
    written, and the answer says why."""

    def job(conn: Connection) -> Appended:
        if by is not None and _holder(conn, tournament_id, by) != (entry.role, entry.author):
            return Appended(stored=False, link_live=False)
        last = conn.execute(
            select(func.max(event_entries_t.c.seq)).where(
                event_entries_t.c.event_id == tournament_id
            )
        ).scalar()
        if (last or 0) != entry.seq - 1:
            return Appended(stored=False, newer=entries_after(conn, tournament_id, entry.seq - 1))
        conn.execute(insert(event_entries_t).values(event_id=tournament_id, **_row(entry)))
        if link is not None:
            if link.replaces:
                revoke_links(tournament_id, link.role, link.name)(conn)
            conn.execute(
                insert(event_links_t).values(
                    event_id=tournament_id,
                    token_hash=link.digest,
                    role=link.role,
                    name=link.name,
                    created=entry.at,
                )
            )
        return Appended(stored=True)

    return job


def entries_after(conn: Connection, tournament_id: str, since: int) -> list[Entry]:
    """The tournament's entries after number `since`, in order."""
    rows = conn.execute(
        select(event_entries_t)
        .where(event_entries_t.c.event_id == tournament_id, event_entries_t.c.seq > since)
        .order_by(event_entries_t.c.seq)
    )
    return [
        _entry(r.seq, r.at, r.role, r.author, r.type, json.loads(r.data), r.corrects) for r in rows
    ]


def _entry(
    seq: int,
    at: float,
    role: str,
    author: str | None,
    type: str,
    data: dict[str, Any],
    corrects: int | None,
) -> Entry:
    """An entry as stored: its idempotency key taken out of its data (`_row`)."""
    sent = Sent.from_json(data.get(SENT_FIELD))
    if sent is not None:
        del data[SENT_FIELD]
    return Entry(seq, at, role, author, type, data, corrects, sent)


def revoke_links(tournament_id: str, role: str, name: str) -> Callable[[Connection], None]:
    """A job that ends every link of `role` named `name` (a new one replaces them)."""

    def job(conn: Connection) -> None:
        conn.execute(
            update(event_links_t)
            .where(
                event_links_t.c.event_id == tournament_id,
                event_links_t.c.role == role,
                event_links_t.c.name == name,
                event_links_t.c.revoked.is_(None),
            )
            .values(revoked=time.time())
        )

    return job


def _holder(conn: Connection, tournament_id: str, digest: str) -> Holder | None:
    """Who holds the live link whose token hashes to `digest`, if any."""
    row = conn.execute(
        select(event_links_t.c.role, event_links_t.c.name).where(
            event_links_t.c.event_id == tournament_id,
            event_links_t.c.token_hash == digest,
            event_links_t.c.revoked.is_(None),
        )
    ).first()
    return None if row is None else (row.role, row.name)


def _row(entry: Entry) -> dict[str, Any]:
    """An entry's columns."""
    return {
        "seq": entry.seq,
        "at": entry.at,
        "role": entry.role,
        "author": entry.author,
        "type": entry.type,
        "data": json.dumps(
            entry.data if entry.sent is None else {**entry.data, SENT_FIELD: entry.sent.to_json()}
        ),
        "corrects": entry.corrects,
    }
