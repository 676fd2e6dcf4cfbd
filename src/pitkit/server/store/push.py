"""Web Push's rows: the server's keys and each profile's push subscriptions, as jobs
for the writer (docs/notices.md).

Each function returns a job (`Store.run` runs it in the writer thread). A
subscription is a browser's: its push service's endpoint (unique) and the keys that
encrypt messages to it. It belongs to one profile; the same endpoint offered by
another profile is refused, so nobody can take another's notices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from sqlalchemy import Connection, delete, func, insert, select, update

from pitkit.server.store.storage import push_subscriptions_t, server_keys_t

__all__ = [
    "Subscribed",
    "SubscriptionRecord",
    "drop",
    "server_key",
    "subscribe",
    "subscriptions",
    "unsubscribe",
]


@dataclass(frozen=True, slots=True)
class SubscriptionRecord:
    """A browser's push subscription: where to send, and the keys to encrypt with
    (base64url, as the browser gives them)."""

    endpoint: str
    p256dh: str
    auth: str
    created: float


class Subscribed(Enum):
    """What became of an offered subscription."""

    NEW = "new"
    KEPT = "kept"
    """The profile had it already (its keys are updated)."""
    TAKEN = "taken"
    """Another profile holds this endpoint: nothing changed."""


def server_key(name: str, made: str, at: float) -> Callable[[Connection], str]:
    """A job that reads the server's key `name`, keeping `made` as it if there is none
    yet; the key kept. (Two workers making it at once: one insert fails, and its caller
    reads the other's.)"""

    def job(conn: Connection) -> str:
        value = conn.execute(
            select(server_keys_t.c.value).where(server_keys_t.c.name == name)
        ).scalar()
        if value is not None:
            return str(value)
        conn.execute(insert(server_keys_t).values(name=name, value=made, created=at))
        return made

    return job


def subscribe(
    profile_id: str, record: SubscriptionRecord, most: int
) -> Callable[[Connection], Subscribed]:
    """A job that keeps `record` as the profile's; beyond `most` subscriptions the
    profile's oldest are dropped."""

    def job(conn: Connection) -> Subscribed:
        owner = conn.execute(
            select(push_subscriptions_t.c.profile_id).where(
                push_subscriptions_t.c.endpoint == record.endpoint
            )
        ).scalar()
        if owner is not None and owner != profile_id:
            return Subscribed.TAKEN
        if owner is not None:
            conn.execute(
                update(push_subscriptions_t)
                .where(push_subscriptions_t.c.endpoint == record.endpoint)
                .values(p256dh=record.p256dh, auth=record.auth)
            )
            return Subscribed.KEPT
        _make_room(conn, profile_id, most - 1)
        conn.execute(
            insert(push_subscriptions_t).values(
                endpoint=record.endpoint,
                profile_id=profile_id,
                p256dh=record.p256dh,
                auth=record.auth,
                created=record.created,
            )
        )
        return Subscribed.NEW

    return job


def _make_room(conn: Connection, profile_id: str, keep: int) -> None:
    """Drop the profile's oldest subscriptions until `keep` are left."""
    mine = push_subscriptions_t.c.profile_id == profile_id
    held = conn.execute(select(func.count()).where(mine)).scalar_one()
    if held <= keep:
        return
    oldest = conn.execute(
        select(push_subscriptions_t.c.endpoint)
        .where(mine)
        .order_by(push_subscriptions_t.c.created, push_subscriptions_t.c.endpoint)
        .limit(held - keep)
    ).scalars()
    conn.execute(
        delete(push_subscriptions_t).where(push_subscriptions_t.c.endpoint.in_(list(oldest)))
    )


def unsubscribe(profile_id: str, endpoint: str) -> Callable[[Connection], bool]:
    """A job that forgets the profile's subscription at `endpoint`; False: the profile
    has none there (another's is left alone)."""

    def job(conn: Connection) -> bool:
        gone = conn.execute(
            delete(push_subscriptions_t).where(
                push_subscriptions_t.c.endpoint == endpoint,
                push_subscriptions_t.c.profile_id == profile_id,
            )
        )
        return gone.rowcount > 0

    return job


def subscriptions(profile_id: str) -> Callable[[Connection], list[SubscriptionRecord]]:
    """A job that reads the profile's subscriptions, oldest first."""

    def job(conn: Connection) -> list[SubscriptionRecord]:
        rows = conn.execute(
            select(push_subscriptions_t)
            .where(push_subscriptions_t.c.profile_id == profile_id)
            .order_by(push_subscriptions_t.c.created, push_subscriptions_t.c.endpoint)
        )
        return [SubscriptionRecord(r.endpoint, r.p256dh, r.auth, r.created) for r in rows]

    return job


def drop(endpoint: str) -> Callable[[Connection], bool]:
    """A job that forgets the subscription at `endpoint`, whoever's it was (its push
    service says it is gone); False: there was none."""

    def job(conn: Connection) -> bool:
        gone = conn.execute(
            delete(push_subscriptions_t).where(push_subscriptions_t.c.endpoint == endpoint)
        )
        return gone.rowcount > 0

    return job
