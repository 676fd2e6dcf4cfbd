"""The profiles' rows: profiles, their devices, one-time codes, passkeys, and the
seats they hold, as jobs for the writer (docs/profiles.md).

Each function returns a job (`Store.run` runs it in the writer thread). Secrets are
never stored: a device's secret and a code are kept as hashes, a passkey as its
public key. A seat's profile is tied to the seat's secret (its hash, in `seats`):
the join of `profile_seats` with `seats` on that hash says which seats a profile
holds now, whatever the host has done since.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update

from pitkit.server.store.storage import (
    SeatRecord,
    profile_challenges_t,
    profile_codes_t,
    profile_devices_t,
    profile_passkeys_t,
    profile_seats_t,
    profiles_t,
    save_seat,
    seats_t,
    tables_t,
)

__all__ = [
    "HELD",
    "DeviceRecord",
    "NewDevice",
    "PasskeyRecord",
    "ProfileRecord",
    "SeatHeld",
    "add_device",
    "add_passkey",
    "challenge",
    "create",
    "device_of",
    "devices",
    "drop_device",
    "drop_passkey",
    "new_code",
    "passkey",
    "passkey_used",
    "passkeys",
    "redeem_code",
    "rename",
    "seat_profiles",
    "seats_held",
    "sit",
    "tables_of",
    "take_challenge",
]


@dataclass(frozen=True, slots=True)
class ProfileRecord:
    """A profile as stored: its public id, name and colour."""

    id: str
    name: str
    colour: str
    created: float


@dataclass(frozen=True, slots=True)
class NewDevice:
    """A device to sign in: its secret's hash, its public id, and how it came
    ("new": the profile was made on it; "code", "passkey": signed in so)."""

    digest: str
    id: str
    how: str


@dataclass(frozen=True, slots=True)
class DeviceRecord:
    """A signed-in device, as its profile's owner sees it."""

    id: str
    how: str
    created: float


@dataclass(frozen=True, slots=True)
class PasskeyRecord:
    """A passkey: its credential's id, the profile it signs in, its public key (COSE,
    base64url) and the authenticator's count of its uses."""

    credential_id: str
    profile_id: str
    public_key: str
    sign_count: int
    created: float


@dataclass(frozen=True, slots=True)
class SeatHeld:
    """A seat a profile holds, with its table as stored."""

    table_id: str
    game: str
    players: int
    status: str
    match_no: int
    updated: float
    event: str | None
    seat: int
    name: str | None


def _profile(row: Any) -> ProfileRecord:
    return ProfileRecord(row.id, row.name, row.colour, row.created)


def _name_taken(conn: Connection, skeleton: str, but: str | None = None) -> bool:
    query = select(profiles_t.c.id).where(profiles_t.c.skeleton == skeleton)
    if but is not None:
        query = query.where(profiles_t.c.id != but)
    return conn.execute(query).first() is not None


# -- profiles and devices ------------------------------------------------------------------


def create(
    profile: ProfileRecord, skeleton: str, device: NewDevice
) -> Callable[[Connection], bool]:
    """A job that stores a new profile and its first device; False (nothing stored):
    another profile's name looks the same (`skeleton`)."""

    def job(conn: Connection) -> bool:
        if _name_taken(conn, skeleton):
            return False
        conn.execute(
            insert(profiles_t).values(
                id=profile.id,
                name=profile.name,
                skeleton=skeleton,
                colour=profile.colour,
                created=profile.created,
            )
        )
        _insert_device(conn, profile.id, device, profile.created)
        return True

    return job


def rename(
    profile_id: str, name: str | None, skeleton: str | None, colour: str | None
) -> Callable[[Connection], ProfileRecord | None]:
    """A job that gives a profile a new name (with its `skeleton`) or colour, and reads
    it back; None (nothing changed): another profile's name looks the same."""

    def job(conn: Connection) -> ProfileRecord | None:
        values: dict[str, str] = {}
        if name is not None and skeleton is not None:
            if _name_taken(conn, skeleton, but=profile_id):
                return None
            values.update(name=name, skeleton=skeleton)
        if colour is not None:
            values["colour"] = colour
        if values:
            conn.execute(update(profiles_t).where(profiles_t.c.id == profile_id).values(values))
        row = conn.execute(select(profiles_t).where(profiles_t.c.id == profile_id)).one()
        return _profile(row)

    return job


def device_of(digest: str) -> Callable[[Connection], tuple[ProfileRecord, str] | None]:
    """A job that reads the profile a device's secret (its hash) signs in, and the
    device's id; None: no signed-in device has it."""

    def job(conn: Connection) -> tuple[ProfileRecord, str] | None:
        row = conn.execute(
            select(profiles_t, profile_devices_t.c.id.label("device"))
            .join(profile_devices_t, profile_devices_t.c.profile_id == profiles_t.c.id)
            .where(profile_devices_t.c.token_hash == digest)
        ).first()
        return None if row is None else (_profile(row), row.device)

    return job


def _insert_device(conn: Connection, profile_id: str, device: NewDevice, at: float) -> None:
    conn.execute(
        insert(profile_devices_t).values(
            token_hash=device.digest,
            id=device.id,
            profile_id=profile_id,
            how=device.how,
            created=at,
        )
    )


def add_device(
    profile_id: str, device: NewDevice, most: int
) -> Callable[[Connection], ProfileRecord]:
    """A job that signs a device in to a profile, read back; beyond `most` devices,
    the one signed in longest ago is signed out."""

    def job(conn: Connection) -> ProfileRecord:
        _insert_device(conn, profile_id, device, time.time())
        kept = (
            select(profile_devices_t.c.id)
            .where(profile_devices_t.c.profile_id == profile_id)
            .order_by(profile_devices_t.c.created.desc(), profile_devices_t.c.id)
            .limit(most)
        )
        conn.execute(
            delete(profile_devices_t).where(
                profile_devices_t.c.profile_id == profile_id,
                profile_devices_t.c.id.not_in(kept.scalar_subquery()),
            )
        )
        row = conn.execute(select(profiles_t).where(profiles_t.c.id == profile_id)).one()
        return _profile(row)

    return job


def devices(profile_id: str) -> Callable[[Connection], list[DeviceRecord]]:
    """A job that reads a profile's signed-in devices, oldest first."""

    def job(conn: Connection) -> list[DeviceRecord]:
        rows = conn.execute(
            select(profile_devices_t)
            .where(profile_devices_t.c.profile_id == profile_id)
            .order_by(profile_devices_t.c.created, profile_devices_t.c.id)
        )
        return [DeviceRecord(r.id, r.how, r.created) for r in rows]

    return job


def drop_device(profile_id: str, device_id: str) -> Callable[[Connection], bool]:
    """A job that signs a profile's device out; False: it has no such device."""

    def job(conn: Connection) -> bool:
        done = conn.execute(
            delete(profile_devices_t).where(
                profile_devices_t.c.profile_id == profile_id,
                profile_devices_t.c.id == device_id,
            )
        )
        return bool(done.rowcount)

    return job


# -- one-time codes -----------------------------------------------------------------------


def new_code(profile_id: str, digest: str, expires: float) -> Callable[[Connection], None]:
    """A job that stores a profile's new one-time code (its hash), which voids the
    profile's earlier one; codes gone stale anywhere are swept away."""

    def job(conn: Connection) -> None:
        conn.execute(
            delete(profile_codes_t).where(
                or_(
                    profile_codes_t.c.profile_id == profile_id,
                    profile_codes_t.c.expires < time.time(),
                )
            )
        )
        conn.execute(
            insert(profile_codes_t).values(code_hash=digest, profile_id=profile_id, expires=expires)
        )

    return job


def redeem_code(digest: str) -> Callable[[Connection], str | None]:
    """A job that spends a one-time code (its hash): the profile it signs in to, or
    None if no live code has it. A code works once."""

    def job(conn: Connection) -> str | None:
        row = conn.execute(
            select(profile_codes_t).where(profile_codes_t.c.code_hash == digest)
        ).first()
        if row is None:
            return None
        conn.execute(delete(profile_codes_t).where(profile_codes_t.c.code_hash == digest))
        return str(row.profile_id) if row.expires >= time.time() else None

    return job


# -- passkeys -----------------------------------------------------------------------------


def challenge(
    value: str, purpose: str, profile_id: str | None, expires: float
) -> Callable[[Connection], None]:
    """A job that stores a passkey ceremony's challenge (`purpose`: "register", for
    `profile_id`, or "sign-in"), sweeping away stale ones."""

    def job(conn: Connection) -> None:
        conn.execute(
            delete(profile_challenges_t).where(profile_challenges_t.c.expires < time.time())
        )
        conn.execute(
            insert(profile_challenges_t).values(
                challenge=value, purpose=purpose, profile_id=profile_id, expires=expires
            )
        )

    return job


def take_challenge(
    value: str, purpose: str, profile_id: str | None
) -> Callable[[Connection], bool]:
    """A job that spends a challenge: whether a live one for `purpose` (and
    `profile_id`) had this value. A challenge works once."""

    def job(conn: Connection) -> bool:
        where = and_(
            profile_challenges_t.c.challenge == value,
            profile_challenges_t.c.purpose == purpose,
            profile_challenges_t.c.expires >= time.time(),
        )
        if profile_id is not None:
            where = and_(where, profile_challenges_t.c.profile_id == profile_id)
        found = conn.execute(select(profile_challenges_t.c.challenge).where(where)).first()
        conn.execute(delete(profile_challenges_t).where(profile_challenges_t.c.challenge == value))
        return found is not None

    return job


def add_passkey(record: PasskeyRecord, most: int) -> Callable[[Connection], bool]:
    """A job that stores a profile's new passkey; False (nothing stored): the profile
    has `most` already, or the credential is known."""

    def job(conn: Connection) -> bool:
        held = conn.execute(
            select(func.count())
            .select_from(profile_passkeys_t)
            .where(profile_passkeys_t.c.profile_id == record.profile_id)
        ).scalar_one()
        known = conn.execute(
            select(profile_passkeys_t.c.credential_id).where(
                profile_passkeys_t.c.credential_id == record.credential_id
            )
        ).first()
        if held >= most or known is not None:
            return False
        conn.execute(
            insert(profile_passkeys_t).values(
                credential_id=record.credential_id,
                profile_id=record.profile_id,
                public_key=record.public_key,
                sign_count=record.sign_count,
                created=record.created,
            )
        )
        return True

    return job


def _passkey(row: Any) -> PasskeyRecord:
    return PasskeyRecord(
        row.credential_id, row.profile_id, row.public_key, row.sign_count, row.created
    )


def passkey(credential_id: str) -> Callable[[Connection], PasskeyRecord | None]:
    """A job that reads a passkey by its credential's id."""

    def job(conn: Connection) -> PasskeyRecord | None:
        row = conn.execute(
            select(profile_passkeys_t).where(profile_passkeys_t.c.credential_id == credential_id)
        ).first()
        return None if row is None else _passkey(row)

    return job


def passkeys(profile_id: str) -> Callable[[Connection], list[PasskeyRecord]]:
    """A job that reads a profile's passkeys, oldest first."""

    def job(conn: Connection) -> list[PasskeyRecord]:
        rows = conn.execute(
            select(profile_passkeys_t)
            .where(profile_passkeys_t.c.profile_id == profile_id)
            .order_by(profile_passkeys_t.c.created)
        )
        return [_passkey(r) for r in rows]

    return job


def passkey_used(credential_id: str, sign_count: int) -> Callable[[Connection], None]:
    """A job that keeps a passkey's new count of uses (a cloned authenticator would
    fall behind it, and be refused)."""

    def job(conn: Connection) -> None:
        conn.execute(
            update(profile_passkeys_t)
            .where(profile_passkeys_t.c.credential_id == credential_id)
            .values(sign_count=sign_count)
        )

    return job


def drop_passkey(profile_id: str, credential_id: str) -> Callable[[Connection], bool]:
    """A job that forgets one of a profile's passkeys; False: it has no such passkey."""

    def job(conn: Connection) -> bool:
        done = conn.execute(
            delete(profile_passkeys_t).where(
                profile_passkeys_t.c.profile_id == profile_id,
                profile_passkeys_t.c.credential_id == credential_id,
            )
        )
        return bool(done.rowcount)

    return job


# -- seats --------------------------------------------------------------------------------

HELD = and_(
    seats_t.c.table_id == profile_seats_t.c.table_id,
    seats_t.c.token_hash == profile_seats_t.c.token_hash,
    seats_t.c.kind == "player",
)
"""A profile's link to a seat that still holds: the seat's secret is the one linked."""


def seats_held(table_id: str, profile_id: str) -> Callable[[Connection], list[int]]:
    """A job that reads the seats a profile holds at a table (one, or none)."""

    def job(conn: Connection) -> list[int]:
        rows = conn.execute(
            select(seats_t.c.seat)
            .join(profile_seats_t, HELD)
            .where(
                profile_seats_t.c.table_id == table_id,
                profile_seats_t.c.profile_id == profile_id,
            )
            .order_by(seats_t.c.seat)
        )
        return [int(r.seat) for r in rows]

    return job


def seat_profiles(table_id: str) -> Callable[[Connection], dict[int, str]]:
    """A job that reads which profile holds each seat of a table (seats no profile
    holds are left out): whom to tell that it is their turn."""

    def job(conn: Connection) -> dict[int, str]:
        rows = conn.execute(
            select(seats_t.c.seat, profile_seats_t.c.profile_id)
            .join(profile_seats_t, HELD)
            .where(profile_seats_t.c.table_id == table_id)
        )
        return {int(r.seat): str(r.profile_id) for r in rows}

    return job


def sit(table_id: str, seat: SeatRecord, profile_id: str) -> Callable[[Connection], None]:
    """A job that stores a seat's occupant (`storage.save_seat`) as held by a profile:
    its link to the seat's secret replaces any earlier one of the profile's at this
    table (a secret the seat had before, on another device)."""
    save = save_seat(table_id, seat)

    def job(conn: Connection) -> None:
        save(conn)
        conn.execute(
            delete(profile_seats_t).where(
                profile_seats_t.c.table_id == table_id,
                or_(
                    profile_seats_t.c.profile_id == profile_id,
                    profile_seats_t.c.token_hash == seat.token_hash,
                ),
            )
        )
        conn.execute(
            insert(profile_seats_t).values(
                table_id=table_id, token_hash=seat.token_hash, profile_id=profile_id, at=time.time()
            )
        )

    return job


def tables_of(profile_id: str, limit: int = 100) -> Callable[[Connection], list[SeatHeld]]:
    """A job that reads the seats a profile holds, at the tables changed last first."""

    def job(conn: Connection) -> list[SeatHeld]:
        rows = conn.execute(
            select(
                tables_t.c.id,
                tables_t.c.game,
                tables_t.c.players,
                tables_t.c.status,
                tables_t.c.match_no,
                tables_t.c.updated,
                tables_t.c.settings,
                seats_t.c.seat,
                seats_t.c.name,
            )
            .select_from(profile_seats_t)
            .join(seats_t, HELD)
            .join(tables_t, tables_t.c.id == profile_seats_t.c.table_id)
            .where(profile_seats_t.c.profile_id == profile_id)
            .order_by(tables_t.c.updated.desc(), tables_t.c.id)
            .limit(limit)
        )
        return [
            SeatHeld(
                r.id,
                r.game,
                r.players,
                r.status,
                r.match_no,
                r.updated,
                json.loads(r.settings).get("event"),
                r.seat,
                r.name,
            )
            for r in rows
        ]

    return job
