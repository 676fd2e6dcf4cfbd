"""The tournaments a server runs: their logs in the store, the links that make entries.

A tournament (`pitkit.tournaments.Tournament`) is its kind, its options and an
append-only log of entries; every rule is the kind's. This module only keeps
the logs in the store, in step between workers, and says who holds a link.

Every entry is made through a link, and records the link's role and name and
the time. A link is a secret token (stored hashed): the manager's is made with
the tournament, a player's or a judge's when the manager adds them (its secret
is then a code to type, made from the manager's: `codes.py`, which lets the desk
print everyone's slip). A link does what its role may (the kind decides), and
nothing else; the public view needs no link.

An entry costs one job of the store: it is checked and applied to the
tournament held in memory, then stored in one transaction that checks the link
it came through and that it is still the next entry (`store.tournaments.append`).
Several workers may serve one tournament: when another stored an entry first,
the answer brings the entries it missed, and the entry is tried again on them.
Each worker remembers the links it has seen, so that an entry needs no job to
say who makes it; the store still checks the link at every entry.

An entry sent with an idempotency key (a page's, `Sent`) is looked up by its key
before each try: sent again, it is answered as the entry it made (`Made.replayed`),
at whichever worker; a key's entry is never stored twice, as the store takes one
entry of each number, and the worker that loses catches up and finds the key.
Pages that follow a tournament live wait on its bell (`news.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store import tournaments as rows
from pitkit.server.store.storage import Store
from pitkit.server.tournaments import codes
from pitkit.server.tournaments.news import NEWS_CHECK_SECONDS, Bell
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

__all__ = ["Made", "NewLink", "NotALinkError", "Running", "Slip", "Tournaments"]

log = logging.getLogger("pitkit.server")

ATTEMPTS = 5
"""How many times an entry is tried while other workers store entries first."""
NOT_A_LINK = "this link is not (or no longer) one of this event's"
"""Why a link is refused: not one of the tournament's, or ended by a new link. It
never says whose a link might have been."""
CODES_KEPT = 4096
"""Codes' hashes a worker remembers for each tournament (beyond it, it forgets them all)."""


class NotALinkError(ForbiddenError):
    """A token that is no live link of the tournament: a wrong or guessed one, or a
    link ended by a new one (`NOT_A_LINK`)."""

    def __init__(self) -> None:
        super().__init__(NOT_A_LINK)


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
    codes: dict[str, str] = field(default_factory=dict)
    """The stored hash of each code this worker has hashed, by the code (slow to make)."""
    bell: Bell = field(default_factory=Bell)
    """Rung at each entry stored: the streams of the pages that follow it wait on it."""
    listeners: int = 0
    """Streams of this tournament open at this worker."""
    watch: asyncio.Task[None] | None = None
    """The look at the store, a second, for other workers' entries while streams are open."""

    def __post_init__(self) -> None:
        self.bell.ring(self.tournament.last)

    @property
    def kind(self) -> Kind:
        """The tournament's kind."""
        return self.tournament.kind

    def catch_up(self, entries: list[Entry]) -> None:
        """Add entries stored by another worker, and forget the links they ended."""
        self.tournament.catch_up(entries)
        self.forget_ended_links(entries)
        self.bell.ring(self.tournament.last)

    def forget_ended_links(self, entries: Iterable[Entry]) -> None:
        """Forget the links that new-link entries ended."""
        for entry in entries:
            if entry.type == NEW_LINK:
                ended = Actor(str(entry.data.get("role")), str(entry.data.get("name")))
                self.links = {d: a for d, a in self.links.items() if a != ended}


@dataclass(frozen=True, slots=True)
class NewLink:
    """A link an entry made: its role, its name, its token (shown once) and what the
    store keeps of it."""

    role: str
    name: str
    token: str
    digest: str


@dataclass(frozen=True, slots=True)
class Slip:
    """A live link's slip: whose it is, where they sit now (`Kind.seat_of`), and its
    code (None for a link made before codes: a new link gives one)."""

    role: str
    name: str
    where: str | None
    code: str | None


@dataclass(frozen=True, slots=True)
class Made:
    """An entry as stored, who made it, and the link it made, if any; `replayed`: it
    was made before, and sent again with its idempotency key (nothing new was made,
    and the link it made, shown once, is not shown again)."""

    entry: Entry
    actor: Actor
    link: NewLink | None = None
    replayed: bool = False


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
        (no token: the public), in one job. NotALinkError for a token that is not a
        live link of this tournament."""
        digest = await self._digest(running, token)
        async with running.lock:
            return await self._catch_up(running, digest)

    def holds(self, running: Running, token: str) -> bool:
        """Whether this worker knows `token` as a live link of the tournament, from what
        it remembers alone (nothing is hashed slowly, nothing asked of the store)."""
        code = codes.canonical(token)
        digest = hash_token(token) if code is None else running.codes.get(code)
        return digest is not None and digest in running.links

    async def enter(
        self,
        running: Running,
        token: str | None,
        type: str,
        data: Mapping[str, Any],
        corrects: int | None = None,
        decided: Mapping[str, Any] | None = None,
        key: str | None = None,
    ) -> Made:
        """Make an entry through the link `token`; returns it, who made it, and the
        link it made (adding a player or a judge), if any. `decided`: what the server
        decided (a table's id), added to the data once it is checked. `key`: its
        idempotency key: an entry made already under it is answered as it was made
        (`Made.replayed`). RefusedError or ForbiddenError: nothing changed."""
        digest = await self._digest(running, token)
        async with running.lock:
            actor = running.links.get(digest) if digest is not None else PUBLIC_ACTOR
            fresh = actor is None
            if actor is None:
                actor = await self._catch_up(running, digest)
            if token is not None and (type == NEW_LINK or type in running.kind.links):
                # The link's secret is a code made from the manager's (`_new_link`).
                decided = {**(decided or {}), codes.SLIP: True}
            via = _Via(token, digest, key)
            return await self._append(running, actor, via, fresh, type, data, corrects, decided)

    async def enter_as(
        self, running: Running, actor: Actor, type: str, data: Mapping[str, Any]
    ) -> Entry:
        """Make an entry as the server's own `actor` (an online table), through no
        link. RefusedError or ForbiddenError: nothing changed."""
        async with running.lock:
            made = await self._append(
                running, actor, _Via(None, None, None), False, type, data, None, None
            )
            return made.entry

    @contextlib.asynccontextmanager
    async def listening(self, running: Running) -> AsyncIterator[Bell]:
        """The tournament's bell, for a stream that follows it while the context lasts.
        While any stream of it is open here, the store is looked at once a second for
        the entries other workers store (they ring the bell too)."""
        running.listeners += 1
        if running.watch is None or running.watch.done():
            running.watch = asyncio.create_task(self._watch(running))
        try:
            yield running.bell
        finally:
            running.listeners -= 1

    async def _watch(self, running: Running) -> None:
        """Catch up with the store once a second while streams of `running` are open."""
        while running.listeners > 0:
            await asyncio.sleep(NEWS_CHECK_SECONDS)
            if running.listeners <= 0:
                return
            try:
                await self.read(running, None)
            except Exception as exc:  # the store is down: the streams wait for it
                log.warning("event %s: could not look for new entries: %s", running.id, exc)

    async def slips(self, running: Running, token: str | None) -> list[Slip]:
        """Every live player's and judge's link, for the manager (whose link `token`
        is) to print: the codes are made again from it. ForbiddenError for anyone else."""
        actor = await self.read(running, token)
        if actor.role != "manager" or token is None:
            raise ForbiddenError("only the manager prints the slips")
        async with running.lock:
            tournament = running.tournament
            live: dict[tuple[str, str], Entry] = {}
            for entry in tournament.entries:
                made = tournament.link_made(entry)
                if made is not None:
                    live[made] = entry  # a new link replaces the one before
            return [
                Slip(
                    role,
                    name,
                    running.kind.seat_of(tournament.state, role, name),
                    codes.make_code(token, running.id, entry.seq)
                    if entry.data.get(codes.SLIP) is True and entry.role == "manager"
                    else None,
                )
                for (role, name), entry in live.items()
            ]

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
                "hall": tournament.hall_view(actor),
            }
            own = running.kind.own(tournament.state, actor)
            return await running.shown.page(tournament, head, own)

    async def csv(self, running: Running) -> dict[str, Page]:
        """Every sheet and the standings, as CSV by file name (kept until the next entry)."""
        async with running.lock:
            return await running.shown.csv(running.tournament)

    async def _digest(self, running: Running, token: str | None) -> str | None:
        """What the store keeps of `token`: a code's slow hash (made off the event
        loop, and remembered), any other token's plain one."""
        if token is None:
            return None
        code = codes.canonical(token)
        if code is None:
            return hash_token(token)
        digest = running.codes.get(code)
        if digest is None:
            digest = await asyncio.to_thread(codes.code_digest, running.id, code)
            if len(running.codes) >= CODES_KEPT:
                running.codes.clear()  # a crude bound on memory: they are made again
            running.codes[code] = digest
        return digest

    async def _catch_up(self, running: Running, digest: str | None) -> Actor:
        """Read the entries stored since the last one held, and who holds the link
        whose token's digest is `digest` (one job); the caller holds the lock."""
        caught = await self.store.run(rows.catch_up(running.id, running.tournament.last, digest))
        running.catch_up(caught.entries)
        if digest is None:
            return PUBLIC_ACTOR
        if caught.holder is None:
            running.links.pop(digest, None)
            raise NotALinkError
        actor = running.links[digest] = Actor(*caught.holder)
        return actor

    async def _append(
        self,
        running: Running,
        actor: Actor,
        via: _Via,
        fresh: bool,
        type: str,
        data: Mapping[str, Any],
        corrects: int | None,
        decided: Mapping[str, Any] | None,
    ) -> Made:
        """Make the entry in memory and store it (with the link it makes), trying again
        on the entries other workers stored first; the caller holds the lock. `fresh`:
        the tournament was just caught up with the store (a refusal then stands
        without asking the store again). An entry its key shows made already is
        answered as made, at any try."""
        tournament = running.tournament
        for _attempt in range(ATTEMPTS):
            if via.key is not None and actor.role != "public":
                made = tournament.landed(actor, via.key, type, data, corrects)
                if made is not None:
                    return Made(made, actor, replayed=True)
            if tournament.last >= self.entries:
                raise RefusedError(
                    f"this event has {tournament.last:,} entries, the most an event may "
                    "have on this server"
                )
            try:
                entry = tournament.enter(
                    actor,
                    type,
                    data,
                    at=time.time(),
                    corrects=corrects,
                    decided=decided,
                    key=via.key,
                )
            except (RefusedError, ForbiddenError):
                if fresh:
                    raise
                # Refused on what this worker holds: another may have stored what allows it.
                await self._catch_up(running, None)
                fresh = True
                continue
            link = await _new_link(running, entry, via.token)
            appended = await self._store(running, entry, via.digest, link)
            if appended.stored:
                running.forget_ended_links([entry])
                running.bell.ring(entry.seq)
                if link is not None:
                    running.links[link.digest] = Actor(link.role, link.name)
                return Made(entry, actor, link)
            if not appended.link_live:
                running.links.pop(via.digest or "", None)
                raise NotALinkError
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
            made = rows.NewLink(link.digest, link.role, link.name, replaces=entry.type == NEW_LINK)
        try:
            appended = await self.store.run(rows.append(running.id, entry, digest, made))
        except BaseException:
            running.tournament.take_back(entry)
            raise
        if not appended.stored:
            running.tournament.take_back(entry)
        return appended


@dataclass(frozen=True, slots=True)
class _Via:
    """How an entry comes: the link's token and what the store keeps of it (both
    None for the server's own entries), and the entry's idempotency key, if sent."""

    token: str | None
    digest: str | None
    key: str | None


async def _new_link(running: Running, entry: Entry, by: str | None) -> NewLink | None:
    """The link an entry makes, if it makes one: a code made from the manager's token
    `by` (`codes.make_code`) where the manager's entry says so, else a random token."""
    made = running.tournament.link_made(entry)
    if made is None:
        return None
    role, name = made
    if by is None or entry.role != "manager" or entry.data.get(codes.SLIP) is not True:
        token = new_token()
        return NewLink(role, name, token, hash_token(token))
    code = codes.make_code(by, running.id, entry.seq)
    digest = await asyncio.to_thread(codes.code_digest, running.id, code)
    running.codes[code] = digest
    return NewLink(role, name, code, digest)
