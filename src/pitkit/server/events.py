"""Events: tournaments run from the server, each a log of entries made through links.

An event (a BGA continuous Pits tournament, a Darrtown Pitch tournament) is
its kind, its options and an append-only list of entries: a player added, a
hand entered, a sheet signed, a misplay ruled. Everything shown about the
event is the entries replayed by its kind (`pits_event.py`,
`pitch_event.py`), so nothing is ever overwritten: a correction is a new
entry naming the entry it corrects (or voids), and the replay uses it in that
entry's place.

Every entry is made through a link, and records the link's role and name and
the time. A link is a secret token (stored hashed): the manager's is made
with the event, a player's or a judge's when the manager adds them. A link
does what its role may at this event (the kind decides), and nothing else;
the public view needs no link.

Several workers may serve one event: each entry is appended at the next
sequence number in one transaction, after catching up with the entries the
others stored; a clash is retried.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sqlalchemy import Connection, func, insert, select, update

from pitkit.server.storage import Store, event_entries_t, event_links_t, events_t
from pitkit.server.tables import hash_token, new_token

__all__ = [
    "NAME_CHARS",
    "NEW_LINK",
    "OPEN_TABLE",
    "ROLES",
    "Actor",
    "Entry",
    "Events",
    "ForbiddenError",
    "Kind",
    "Loaded",
    "Online",
    "RefusedError",
    "by_its_table",
    "entry_name",
    "replay",
]

ROLES = ("manager", "judge", "player", "public", "table")
"""Who makes entries: people through their links, and the event's online tables
(`event_tables.py`), which enter the hands played at them."""

NAME_CHARS = 40
"""The longest name of a player, a judge or a table at an event."""

NEW_LINK = "new_link"
"""The entry by which the manager replaces a player's or a judge's link (one lost,
or passed on): {role, name}. The old link stops working; the event is unchanged."""


class RefusedError(ValueError):
    """An entry the event refuses (an impossible finishing order, a hand entered
    twice...): nothing changed. The message says why, in words for people."""


class ForbiddenError(PermissionError):
    """The link's role may not do this (or the link is not one of this event's)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: a role, and for a player or a judge their name."""

    role: str
    name: str | None = None

    @property
    def label(self) -> str:
        """How entries name the author: "the manager", "judge Ann", "Bob"."""
        if self.role == "manager":
            return "the manager"
        if self.role == "judge":
            return f"judge {self.name}"
        if self.role == "table":
            return "the online table"
        return self.name or self.role


PUBLIC_ACTOR = Actor("public")


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of an event's log: what was entered, by whom, when; `corrects`
    names an earlier entry this one replaces (type "void": strikes it)."""

    seq: int
    at: float
    role: str
    author: str | None
    type: str
    data: Mapping[str, Any]
    corrects: int | None = None

    @property
    def actor(self) -> Actor:
        """Who made the entry."""
        return Actor(self.role, self.author)

    def to_json(self) -> dict[str, Any]:
        """This entry as JSON."""
        return {
            "seq": self.seq,
            "at": self.at,
            "role": self.role,
            "author": self.author,
            "by": self.actor.label,
            "type": self.type,
            "data": dict(self.data),
            "corrects": self.corrects,
        }


@dataclass(frozen=True, slots=True)
class Online:
    """A game of an event to be played at a pitkit table: the game, its rules,
    and the event's players in seat order."""

    game: str
    rules: Mapping[str, Any]
    players: tuple[str, ...]


OPEN_TABLE = "open_table"
"""The entry by which the manager puts one of the event's games at a pitkit table;
the server opens the table and writes its id into the entry (``table_id``)."""


class Kind(Protocol):
    """What an event kind decides: its state, who may enter what, and its views."""

    name: str
    title: str
    links: Mapping[str, str]
    """Entry types that make a link, and the link's role (the entry's `name` names it)."""
    correctable: frozenset[str]
    """Entry types a later entry may correct or void."""

    def options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The event's options, checked and completed (RefusedError if wrong)."""

    def start(self, options: Mapping[str, Any]) -> Any:
        """A new event's state."""

    def check(
        self, state: Any, actor: Actor, type: str, data: Mapping[str, Any], correcting: bool
    ) -> None:
        """Raise ForbiddenError if `actor` may not make this entry now (`correcting`:
        in place of an earlier one), RefusedError if nobody may."""

    def decide(self, state: Any, type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """What the server decides for a checked entry before it is made (a draw's
        seating), added to its data so that the log holds it and a replay reads it
        back; RefusedError if it cannot be decided."""

    def apply(self, state: Any, entry: Entry) -> None:
        """Apply one entry (RefusedError if the state does not allow it; then the
        state may be half-changed: the caller replays onto a fresh one)."""

    def view(self, state: Any, actor: Actor) -> dict[str, Any]:
        """Everything `actor` sees of the event, as JSON."""

    def csv(self, state: Any) -> dict[str, str]:
        """Every sheet and the standings, as CSV texts by file name."""

    def online(self, state: Any, data: Mapping[str, Any]) -> Online:
        """The table an `OPEN_TABLE` entry asks for (RefusedError if its game cannot
        be played online now)."""

    def seat_at(self, state: Any, table_id: str, name: str) -> int:
        """`name`'s seat at the event's online table `table_id` (ForbiddenError if
        they do not sit there now)."""

    def sync(self, state: Any, table_id: str, match: Any) -> list[tuple[str, dict[str, Any]]]:
        """The entries (type, data) that bring the event up to date with the match
        played at its online table `table_id`: the hands not entered yet."""


def by_its_table(actor: Actor, online: str | None, where: str, what: str) -> bool:
    """Whether an entry of what an online table enters (a hand, a cut) is that table's
    own: True then, and the kind's other checks do not apply; False where nothing is
    played online. RefusedError for anyone else's at an online table, or a table's
    about a game it does not play."""
    if actor.role != "table" and online is None:
        return False
    if actor.role != "table" or online != actor.name:
        raise RefusedError(f"{where} is played online: {what} come from its table")
    return True


def entry_name(data: Mapping[str, Any], key: str = "name") -> str:
    """The name an entry's data gives under `key`, spaces tidied; RefusedError if
    there is none or it is longer than NAME_CHARS."""
    value = data.get(key)
    if not isinstance(value, str) or not " ".join(value.split()):
        raise RefusedError(f"give a {key}")
    name = " ".join(value.split())
    if len(name) > NAME_CHARS:
        raise RefusedError(f"a name has at most {NAME_CHARS} characters")
    return name


def replay(kind: Kind, options: Mapping[str, Any], entries: list[Entry]) -> Any:
    """The event's state after `entries`, each correction used in place of the
    entry it corrects (its latest one), voided entries skipped."""
    latest: dict[int, Entry] = {}
    for entry in entries:
        if entry.corrects is not None:
            latest[entry.corrects] = entry
    state = kind.start(options)
    for entry in entries:
        if entry.corrects is not None or entry.type == NEW_LINK:
            continue
        used = latest.get(entry.seq)
        if used is not None:
            if used.type == "void":
                continue
            entry = replace(used, seq=entry.seq, corrects=None)
        kind.apply(state, entry)
    return state


@dataclass
class Loaded:
    """An event in memory: its record, entries and replayed state."""

    id: str
    kind: Kind
    name: str
    options: dict[str, Any]
    created: float
    entries: list[Entry]
    state: Any
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def corrections(self) -> dict[int, list[Entry]]:
        """For each corrected entry, the entries that correct it, in order."""
        out: dict[int, list[Entry]] = {}
        for entry in self.entries:
            if entry.corrects is not None:
                out.setdefault(entry.corrects, []).append(entry)
        return out

    def log(self) -> list[dict[str, Any]]:
        """Every entry, with what corrected it."""
        fixes = self.corrections()
        out = []
        for entry in self.entries:
            line = entry.to_json()
            line["corrected_by"] = [e.seq for e in fixes.get(entry.seq, [])]
            out.append(line)
        return out


class Events:
    """The events a server runs: made, loaded, entered into, each through its links."""

    def __init__(self, store: Store, kinds: Mapping[str, Kind]) -> None:
        self.store = store
        self.kinds = dict(kinds)
        self.loaded: dict[str, Loaded] = {}

    async def create(
        self, kind_name: str, name: str, options: Mapping[str, Any]
    ) -> tuple[Loaded, str]:
        """A new event; returns it and the manager's token (RefusedError on bad input)."""
        kind = self.kinds.get(kind_name)
        if kind is None:
            raise RefusedError(f"no kind of event {kind_name!r}; there are {', '.join(self.kinds)}")
        name = " ".join(name.split())
        if not name:
            raise RefusedError("give the event a name")
        checked = kind.options(options)
        event_id = secrets.token_urlsafe(6)
        token = new_token()
        now = time.time()

        def job(conn: Connection) -> None:
            conn.execute(
                insert(events_t).values(
                    id=event_id, kind=kind.name, name=name, options=json.dumps(checked), created=now
                )
            )
            conn.execute(
                insert(event_links_t).values(
                    event_id=event_id, token_hash=hash_token(token), role="manager", created=now
                )
            )

        await self.store.run(job)
        loaded = Loaded(event_id, kind, name, checked, now, [], kind.start(checked))
        self.loaded[event_id] = loaded
        return loaded, token

    async def get(self, event_id: str) -> Loaded | None:
        """The event, caught up with every entry stored (by any worker), or None."""
        loaded = self.loaded.get(event_id)
        if loaded is None:
            if not 0 < len(event_id) <= 24:
                return None
            row = await self.store.run(
                lambda conn: conn.execute(select(events_t).where(events_t.c.id == event_id)).first()
            )
            if row is None or row.kind not in self.kinds:
                return None
            kind = self.kinds[row.kind]
            options = json.loads(row.options)
            loaded = self.loaded.setdefault(
                event_id,
                Loaded(event_id, kind, row.name, options, row.created, [], kind.start(options)),
            )
        async with loaded.lock:
            await self._catch_up(loaded)
        return loaded

    async def _catch_up(self, loaded: Loaded) -> None:
        since = loaded.entries[-1].seq if loaded.entries else 0
        rows = await self.store.run(lambda conn: _entries_after(conn, loaded.id, since))
        if rows:
            loaded.entries.extend(rows)
            loaded.state = replay(loaded.kind, loaded.options, loaded.entries)

    async def actor(self, loaded: Loaded, token: str | None) -> Actor:
        """Who holds `token` at this event (no token: the public). ForbiddenError
        for a token that is not a live link of this event."""
        if not token:
            return PUBLIC_ACTOR
        digest = hash_token(token)
        row = await self.store.run(
            lambda conn: conn.execute(
                select(event_links_t).where(
                    event_links_t.c.event_id == loaded.id,
                    event_links_t.c.token_hash == digest,
                    event_links_t.c.revoked.is_(None),
                )
            ).first()
        )
        if row is None:
            raise ForbiddenError("this link is not (or no longer) one of this event's")
        return Actor(row.role, row.name)

    async def enter(
        self,
        loaded: Loaded,
        actor: Actor,
        type: str,
        data: Mapping[str, Any],
        corrects: int | None = None,
        decided: Mapping[str, Any] | None = None,
    ) -> tuple[Entry, str | None]:
        """Append an entry by `actor`; returns it, and the token of the link it made
        (adding a player or a judge), if any. `decided`: what the server decided
        (a table's id), added to the data once it is checked, beside what the kind
        decides (`Kind.decide`). RefusedError or
        ForbiddenError: nothing changed."""
        async with loaded.lock:
            for _attempt in range(5):
                await self._catch_up(loaded)
                entry, state = self._try(loaded, actor, type, data, corrects, decided or {})
                link = None
                token = None
                if type == NEW_LINK:
                    token = new_token()
                    link = (hash_token(token), str(data["role"]), str(data["name"]))
                elif type in loaded.kind.links:
                    token = new_token()
                    link = (hash_token(token), loaded.kind.links[type], str(data["name"]))
                stored = await self.store.run(
                    _append(loaded.id, entry, link, replace_old=type == NEW_LINK)
                )
                if stored:
                    loaded.entries.append(entry)
                    loaded.state = state
                    return entry, token
            raise RefusedError("too many entries at once; try again")

    def _try(
        self,
        loaded: Loaded,
        actor: Actor,
        type: str,
        data: Mapping[str, Any],
        corrects: int | None,
        decided: Mapping[str, Any],
    ) -> tuple[Entry, Any]:
        """The entry that would be appended, and the state after it; or why not."""
        kind = loaded.kind
        if actor.role == "public":
            raise ForbiddenError("the public view cannot make entries")
        seq = (loaded.entries[-1].seq if loaded.entries else 0) + 1
        if type == NEW_LINK:
            self._check_new_link(loaded, actor, data, corrects)
            entry = Entry(seq, time.time(), actor.role, actor.name, type, dict(data))
            return entry, loaded.state
        if corrects is not None:
            target = next((e for e in loaded.entries if e.seq == corrects), None)
            if target is None or target.corrects is not None:
                raise RefusedError(f"there is no entry #{corrects} to correct")
            if target.type not in kind.correctable:
                raise RefusedError(f"a {target.type.replace('_', ' ')} entry cannot be corrected")
            if type not in (target.type, "void"):
                raise RefusedError(f"entry #{corrects} is corrected by another {target.type}")
            kind.check(loaded.state, actor, target.type, target.data, True)
            if type != "void":
                kind.check(loaded.state, actor, type, data, True)
        else:
            kind.check(loaded.state, actor, type, data, False)
        if corrects is None:
            decided = {**kind.decide(loaded.state, type, data), **decided}
        data = {**data, **decided}
        entry = Entry(seq, time.time(), actor.role, actor.name, type, data, corrects)
        try:
            if corrects is None:
                state = replay(kind, loaded.options, loaded.entries)  # a fresh copy to change
                kind.apply(state, entry)
            else:
                state = replay(kind, loaded.options, [*loaded.entries, entry])
        except (KeyError, TypeError) as exc:
            raise RefusedError(
                f"this {type.replace('_', ' ')} entry is incomplete: {exc}"
            ) from None
        return entry, state

    def _check_new_link(
        self, loaded: Loaded, actor: Actor, data: Mapping[str, Any], corrects: int | None
    ) -> None:
        if actor.role != "manager":
            raise ForbiddenError("only the manager may give someone a new link")
        if corrects is not None:
            raise RefusedError("a new link cannot be corrected: give another")
        role, name = data.get("role"), data.get("name")
        made = {
            (loaded.kind.links[e.type], e.data.get("name"))
            for e in loaded.entries
            if e.type in loaded.kind.links and e.corrects is None
        }
        if (role, name) not in made:
            raise RefusedError(f"there is no {role} named {name!r} at this event")


def _entries_after(conn: Connection, event_id: str, since: int) -> list[Entry]:
    rows = conn.execute(
        select(event_entries_t)
        .where(event_entries_t.c.event_id == event_id, event_entries_t.c.seq > since)
        .order_by(event_entries_t.c.seq)
    )
    return [
        Entry(r.seq, r.at, r.role, r.author, r.type, json.loads(r.data), r.corrects) for r in rows
    ]


def _append(
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
                _revoke_links(event_id, role, name)(conn)
            conn.execute(
                insert(event_links_t).values(
                    event_id=event_id, token_hash=digest, role=role, name=name, created=entry.at
                )
            )
        return True

    return job


def _revoke_links(event_id: str, role: str, name: str) -> Callable[[Connection], None]:
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
