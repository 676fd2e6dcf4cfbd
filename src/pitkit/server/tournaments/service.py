"""The tournaments a server runs: their logs in the store, the links that make entries.

A tournament (`pitkit.tournaments.Tournament`) is its kind, its options and an
append-only log of entries; every rule is the kind's. This module only keeps
the logs in the store, in step between workers, and says who holds a link.

Every entry is made through a link, and records the link's role and name and
the time. A link is a secret token (stored hashed): the manager's is made with
the tournament, a player's or a judge's when the manager adds them. A link
does what its role may (the kind decides), and nothing else; the public view
needs no link.

An entry costs one job of the store: it is checked and applied to the
tournament held in memory, then stored in one transaction that checks the link
it came through and that it is still the next entry (`store.tournaments.append`).
Several workers may serve one tournament: when another stored an entry first,
the answer brings the entries it missed, and the entry is tried again on them.
Each worker remembers the links it has seen, so that an entry needs no job to
say who makes it; the store still checks the link at every entry.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store import tournaments as rows
from pitkit.server.store.storage import Store
from pitkit.server.tournaments.shown import Page, Shown
from pitkit.tournaments.log import (
    NEW_LINK,
    PUBLIC_ACTOR,
    Actor,
    Entry,
    ForbiddenError,
    Kind,
    RefusedError,
    check_printable,
)
from pitkit.tournaments.tournament import Tournament

__all__ = ["Made", "NewLink", "Running", "Tournaments"]

ATTEMPTS = 5
"""How many times an entry is tried while other workers store entries first."""
NOT_A_LINK = "this link is not (or no longer) one of this event's"
"""Why a link is refused: not one of the tournament's, or ended by a new link."""


@dataclass
class Running:
    """A tournament this worker runs: its record, the tournament in memory, the
    links it has seen, and its lock. An entry is applied in memory before it is
    stored (and taken back if the store does not take it), so whatever reads the
    tournament holds the lock: nobody sees an entry that is not stored."""

    id: str
    name: str
    created: float
    tournament: Tournament
    links: dict[str, Actor] = field(default_factory=dict)
    """Who holds each live link this worker has seen, by its token's hash."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shown: Shown = field(default_factory=Shown)
    """Its pages as of its last entry, kept for the next readers."""

    @property
    def kind(self) -> Kind:
        """The tournament's kind."""
        return self.tournament.kind

    def catch_up(self, entries: list[Entry]) -> None:
        """Add entries stored by another worker, and forget the links they ended."""
        self.tournament.catch_up(entries)
        self.forget_ended_links(entries)

    def forget_ended_links(self, entries: Iterable[Entry]) -> None:
        """Forget the links that new-link entries ended."""
        for entry in entries:
            if entry.type == NEW_LINK:
                ended = Actor(str(entry.data.get("role")), str(entry.data.get("name")))
                self.links = {d: a for d, a in self.links.items() if a != ended}


@dataclass(frozen=True, slots=True)
class NewLink:
    """A link an entry made: its role, its name and its token (shown once)."""

    role: str
    name: str
    token: str


@dataclass(frozen=True, slots=True)
class Made:
    """An entry as stored, who made it, and the link it made, if any."""

    entry: Entry
    actor: Actor
    link: NewLink | None = None


class Tournaments:
    """The tournaments a server runs: made, loaded, entered into, each through its links."""

    def __init__(self, store: Store, kinds: Mapping[str, Kind], entries: int) -> None:
        self.store = store
        self.kinds = dict(kinds)
        self.entries = entries
        """The most entries a tournament's log may hold."""
        self.running: dict[str, Running] = {}

    async def create(
        self, kind_name: str, name: str, options: Mapping[str, Any]
    ) -> tuple[Running, str]:
        """A new tournament; returns it and the manager's token (RefusedError on bad input)."""
        kind = self.kinds.get(kind_name)
        if kind is None:
            raise RefusedError(f"no kind of event {kind_name!r}; there are {', '.join(self.kinds)}")
        check_printable({"event_name": name})
        name = " ".join(name.split())
        if not name:
            raise RefusedError("give the event a name")
        checked = kind.options(options)
        tournament_id = secrets.token_urlsafe(6)
        token = new_token()
        now = time.time()
        digest = hash_token(token)
        await self.store.run(rows.create(tournament_id, kind.name, name, checked, digest, now))
        running = Running(tournament_id, name, now, Tournament(kind, checked))
        running.links[digest] = Actor("manager")
        self.running[tournament_id] = running
        return running, token

    async def get(self, tournament_id: str) -> Running | None:
        """The tournament, or None. Loaded from the store once (one job), then held
        in memory: `read` and `enter` catch up with what other workers store."""
        running = self.running.get(tournament_id)
        if running is not None:
            return running
        if not 0 < len(tournament_id) <= 24:
            return None
        record = await self.store.run(rows.load(tournament_id))
        if record is None or record.kind not in self.kinds:
            return None
        tournament = Tournament(self.kinds[record.kind], record.options, record.entries)
        running = Running(tournament_id, record.name, record.created, tournament)
        return self.running.setdefault(tournament_id, running)

    async def read(self, running: Running, token: str | None) -> Actor:
        """Catch up with every entry stored (by any worker), and say who holds `token`
        (no token: the public), in one job. ForbiddenError for a token that is not a
        live link of this tournament."""
        async with running.lock:
            return await self._catch_up(running, token)

    async def enter(
        self,
        running: Running,
        token: str | None,
        type: str,
        data: Mapping[str, Any],
        corrects: int | None = None,
        decided: Mapping[str, Any] | None = None,
    ) -> Made:
        """Make an entry through the link `token`; returns it, who made it, and the
        link it made (adding a player or a judge), if any. `decided`: what the server
        decided (a table's id), added to the data once it is checked. RefusedError or
        ForbiddenError: nothing changed."""
        async with running.lock:
            digest = hash_token(token) if token else None
            actor = running.links.get(digest) if digest is not None else PUBLIC_ACTOR
            fresh = actor is None
            if actor is None:
                actor = await self._catch_up(running, token)
            entry, link = await self._append(
                running, actor, digest, fresh, type, data, corrects, decided
            )
            return Made(entry, actor, link)

    async def enter_as(
        self, running: Running, actor: Actor, type: str, data: Mapping[str, Any]
    ) -> Entry:
        """Make an entry as the server's own `actor` (an online table), through no
        link. RefusedError or ForbiddenError: nothing changed."""
        async with running.lock:
            entry, _link = await self._append(running, actor, None, False, type, data, None, None)
            return entry

    async def shown(self, running: Running, actor: Actor) -> Page:
        """The tournament as `actor` sees it, with its log: JSON, built once an entry
        for every reader (`Shown`)."""
        async with running.lock:
            tournament = running.tournament
            head = {
                "id": running.id,
                "kind": running.kind.name,
                "title": running.kind.title,
                "name": running.name,
                "created": running.created,
                "options": tournament.options,
                "me": {"role": actor.role, "name": actor.name},
            }
            own = running.kind.own(tournament.state, actor)
            return await running.shown.page(tournament, head, own)

    async def csv(self, running: Running) -> dict[str, Page]:
        """Every sheet and the standings, as CSV by file name (kept until the next entry)."""
        async with running.lock:
            return await running.shown.csv(running.tournament)

    async def _catch_up(self, running: Running, token: str | None) -> Actor:
        """Read the entries stored since the last one held, and who holds `token`
        (one job); the caller holds the lock."""
        digest = hash_token(token) if token else None
        caught = await self.store.run(rows.catch_up(running.id, running.tournament.last, digest))
        running.catch_up(caught.entries)
        if digest is None:
            return PUBLIC_ACTOR
        if caught.holder is None:
            running.links.pop(digest, None)
            raise ForbiddenError(NOT_A_LINK)
        actor = running.links[digest] = Actor(*caught.holder)
        return actor

    async def _append(
        self,
        running: Running,
        actor: Actor,
        digest: str | None,
        fresh: bool,
        type: str,
        data: Mapping[str, Any],
        corrects: int | None,
        decided: Mapping[str, Any] | None,
    ) -> tuple[Entry, NewLink | None]:
        """Make the entry in memory and store it (with the link it makes), trying again
        on the entries other workers stored first; the caller holds the lock. `fresh`:
        the tournament was just caught up with the store (a refusal then stands
        without asking the store again)."""
        tournament = running.tournament
        for _attempt in range(ATTEMPTS):
            if tournament.last >= self.entries:
                raise RefusedError(
                    f"this event has {tournament.last:,} entries, the most an event may "
                    "have on this server"
                )
            try:
                entry = tournament.enter(
                    actor, type, data, at=time.time(), corrects=corrects, decided=decided
                )
            except (RefusedError, ForbiddenError):
                if fresh:
                    raise
                # Refused on what this worker holds: another may have stored what allows it.
                await self._catch_up(running, None)
                fresh = True
                continue
            link = _new_link(tournament, entry)
            appended = await self._store(running, entry, digest, link)
            if appended.stored:
                running.forget_ended_links([entry])
                if link is not None:
                    running.links[hash_token(link.token)] = Actor(link.role, link.name)
                return entry, link
            if not appended.link_live:
                running.links.pop(digest or "", None)
                raise ForbiddenError(NOT_A_LINK)
            running.catch_up(appended.newer)
            fresh = True
        raise RefusedError("too many entries at once; try again")

    async def _store(
        self, running: Running, entry: Entry, digest: str | None, link: NewLink | None
    ) -> rows.Appended:
        """Store an entry made in memory, and the link it makes; if the store does not
        take it (or fails), take it back."""
        made = None
        if link is not None:
            made = rows.NewLink(
                hash_token(link.token), link.role, link.name, replaces=entry.type == NEW_LINK
            )
        try:
            appended = await self.store.run(rows.append(running.id, entry, digest, made))
        except BaseException:
            running.tournament.take_back(entry)
            raise
        if not appended.stored:
            running.tournament.take_back(entry)
        return appended


def _new_link(tournament: Tournament, entry: Entry) -> NewLink | None:
    """The link an entry makes, with a new token, if it makes one."""
    made = tournament.link_made(entry)
    return None if made is None else NewLink(made[0], made[1], new_token())
