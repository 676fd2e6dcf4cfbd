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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, insert, select

from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store.storage import Store, event_links_t, events_t
from pitkit.server.store.tournaments import append, entries_after
from pitkit.tournaments.log import (
    NEW_LINK,
    PUBLIC_ACTOR,
    Actor,
    Entry,
    ForbiddenError,
    Kind,
    RefusedError,
    replay,
)

__all__ = ["Events", "Loaded"]


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
        rows = await self.store.run(lambda conn: entries_after(conn, loaded.id, since))
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
                    append(loaded.id, entry, link, replace_old=type == NEW_LINK)
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
