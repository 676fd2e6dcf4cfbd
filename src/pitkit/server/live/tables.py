"""The table runtime: one match at a time per table, its seats, sockets and bots.

A `Table` owns its `Match` and is the only thing that changes it. Every
change goes the same way, under the table's lock (FIFO, so simultaneous
actions are taken in order of arrival): apply the action to the match (which
refuses illegal ones and changes nothing), store the step and wait for the
commit, then acknowledge it and send each connection the events its seat may
see (`Event.seen_by`). Nothing else about the match ever leaves the server:
views come from `Match.view(seat)`, and the seed stays in the database.

Versions count accepted actions in the current match: version 0 is the deal,
version v the state after the v-th action. A rematch starts match n + 1 at
version 0.

The table holds the lock, and runs each change as store-then-send through its
parts, which call nothing above them (each module imports only those before it):

    conn < seats < room < state < messages < pacing < bots < host, chat, reminders
         < feed < door < steps < tables

`Room` the seats, spectators and their sockets; `TableState` where the table
stands; `messages` what is sent, as pure functions; `Pacing` the pause between
hands, the turn timer and the sorting clock; `BotSeats`; the `Host`'s changes;
the `Chat`; the `Reminders` (notices to players away, a move's time running
out); the `Feed` (who is sent what); the `Door` (who comes and goes); the
match's `Steps` (dealt, applied, stored, undone).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from pitkit import games
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.core.rules import RuleSet
from pitkit.server.live import messages
from pitkit.server.live.bots import BotSeats
from pitkit.server.live.chat import Chat
from pitkit.server.live.conn import Conn
from pitkit.server.live.door import Door
from pitkit.server.live.feed import Feed
from pitkit.server.live.host import Change, Host
from pitkit.server.live.notices import Notify
from pitkit.server.live.pacing import Clock, Deadline, Pace, Pacing
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.rebuild import Rebuilt, rebuild
from pitkit.server.live.reminders import Reminders
from pitkit.server.live.room import Room
from pitkit.server.live.seats import Seat
from pitkit.server.live.state import Setup, TableElsewhereError, TableState
from pitkit.server.live.steps import Spelling, Steps
from pitkit.server.live.thinking import Thinker
from pitkit.server.live.wire import TableInfo
from pitkit.server.ops.metrics import Metrics
from pitkit.server.ops.settings import Limits, TableSettings
from pitkit.server.ops.tokens import hash_token
from pitkit.server.store import storage
from pitkit.server.store.storage import Store, TableRecord

__all__ = ["Conn", "Rebuilt", "Seat", "Standing", "Table", "TableElsewhereError", "rebuild"]

log = logging.getLogger("pitkit.server")


class Standing:
    """Where a table stands, read from its state and room (the `Table`'s own view)."""

    state: TableState
    room: Room

    @property
    def match(self) -> Match[Any, Any] | None:
        """The current match (None before the first)."""
        return self.state.match

    @property
    def match_no(self) -> int:
        """The current match's number (0 before the first)."""
        return self.state.number

    @property
    def version(self) -> int:
        """The current version of the current match (-1 before the first)."""
        return self.state.version

    @property
    def status(self) -> str:
        """waiting, playing, over, closed, expired or broken."""
        return self.state.status

    @property
    def touched(self) -> float:
        """When anything last happened here (wall-clock seconds), for expiry."""
        return self.state.touched

    @property
    def seats(self) -> list[Seat]:
        """The seats, by index."""
        return self.room.seats

    @property
    def spectators(self) -> set[Conn]:
        """The spectators' sockets."""
        return self.room.spectators

    @property
    def watched(self) -> bool:
        """Whether anyone has a socket open here."""
        return self.room.watched


class Table(Standing):
    """One table: its lock, and the parts that run its seats and its match."""

    def __init__(
        self,
        record: TableRecord,
        store: Store,
        limits: Limits,
        thinker: Thinker,
        metrics: Metrics,
        rebuilt: Rebuilt | None = None,
        creator: str | None = None,
        notify: Notify | None = None,
        clock: Clock | None = None,
    ) -> None:
        """`rebuilt` is the stored match replayed (`rebuild`), when the caller did that
        off the event loop; `creator` the address that created the table; `notify`
        tells players away from it (`Reminders`); `clock` times its moves."""
        self.id = record.id
        self.game: Game = games.get(record.game)
        self.players = record.players
        self.rules: RuleSet = self.game.make_rules(record.rules)
        self.settings = TableSettings.from_json(record.settings)
        self.host_hash = record.host_hash
        self.created = record.created
        self.store = store
        self.limits = limits
        self.metrics = metrics
        self.creator = creator
        self.lock = asyncio.Lock()
        self.on_step: Callable[[Table], None] | None = None
        """Told of every stored step and new match (an event's table feeds its event)."""
        setup = Setup(self.id, self.game, self.players, self.rules, self.settings, self.created)
        self.state = state = TableState(
            record.status, record.match_no, max(record.created, record.updated)
        )
        seats = [
            Seat(s.seat, s.kind, s.bot, s.name, s.token_hash)
            for s in sorted(record.seats, key=lambda s: s.seat)
        ]
        # At your own pace nobody is away: a move waits for its player until its deadline.
        away = 0.0 if self.settings.own_pace else self.settings.away_timeout
        self.room = room = Room(seats, away, self._went_away, limits.spectator_idle_seconds)
        pace = Pace(self._bot_plays, self._hand_started, self._turn_ran_out, self._timed)
        self.pacing = pacing = Pacing(setup, limits, state, room, pace, clock)
        self.bots = BotSeats(setup, thinker, state, room, pacing, self.act)
        self.reminders = Reminders(
            setup, store, state, room, self.bots, self.turn, self._shut, notify
        )
        self.host = Host(setup, limits, store, thinker, state, room, self.bots)
        self.chat = Chat(setup, list(record.chat), limits, store, room)
        self.feed = Feed(setup, limits, state, room, pacing, self.chat)
        self.door = Door(setup, limits, store, state, room, pacing, self.feed)
        self.steps = Steps(
            setup, limits, store, self.turn, state, room, pacing, self.bots, self.feed
        )
        if record.match is not None:
            self.steps.adopt(rebuilt or rebuild(self.game, record))
            self._resume_pause()
            if self.status == "playing":
                pacing.restore_turn(Deadline.from_json(record.settings.get("deadline")))

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """The table's lock, to change it. Once the table is closed, `TableElsewhereError`:
        a request that found the table before its worker handed it over must not change
        it here, where its steps would be stored beside the new worker's."""
        async with self.lock:
            if self.state.closing:
                raise TableElsewhereError(self.id)
            yield

    def info(self) -> TableInfo:
        """The table as anyone may see it (never the seed, never a card)."""
        return self.feed.info()

    def narrator(self, seat: int | None) -> Narrator:
        """Who is who at this table, for `seat` (None: a spectator)."""
        return self.feed.narrator(seat)

    def seat_for_token(self, token: str) -> Seat | None:
        """The seat whose secret token this is, if any."""
        return self.room.seat_for_token(token)

    def is_host(self, token: str | None) -> bool:
        """Whether `token` is this table's host token."""
        return token is not None and hmac.compare_digest(hash_token(token), self.host_hash)

    # -- people -------------------------------------------------------------------

    async def attach(
        self,
        conn: Conn,
        token: str | None,
        name: str | None,
        match_no: int | None,
        version: int | None,
    ) -> None:
        """Join `conn` as a seat (by token) or a spectator, and bring it up to date."""
        async with self.turn():
            await self.door.attach(conn, token, name, match_no, version)
            await self._start_when_seated()
        self.bots.schedule()

    async def join(self, token: str, name: str | None) -> tuple[int, str | None]:
        """Claim the open seat of an invitation over HTTP (or rename one's own);
        returns the seat, and its new secret when it was claimed."""
        async with self.turn():
            joined = await self.door.join(token, name)
            await self._start_when_seated()
        self.bots.schedule()
        return joined

    def detach(self, conn: Conn) -> None:
        """Forget a closed connection; a player's seat starts its absence timer."""
        self.door.detach(conn)

    async def sit(
        self, token: str, name: str | None, profile: str, profile_name: str
    ) -> tuple[int, str | None]:
        """Take the seat `token` opens (an invitation, or the seat's own secret) as the
        profile `profile`'s (`Door.sit`); returns the seat, and its new secret when it
        was claimed. `ProtocolError` (`profile_seated`: it holds another seat here)."""
        async with self.turn():
            untold = await self.reminders.untold_turns()
            index, secret = await self.door.sit(token, name, profile, profile_name)
            if index in untold:
                self.reminders.seat_now_profiles(index)
            await self._start_when_seated()
        self.bots.schedule()
        return index, secret

    async def hand_over(self, profile: str) -> tuple[int, str]:
        """The seat the profile `profile` holds here, with a new secret for the device
        that asks (returned); the seat's other devices are let go."""
        async with self.turn():
            return await self.door.hand_over(profile)

    def _resume_pause(self) -> None:
        """A match read again whose last step ended a hand: the pause before the next
        goes on (`Pacing.resume`), so a restart does not start the hand at once."""
        match, starts = self.state.match, self.state.starts
        if match is not None and self.status == "playing":
            # When the step was stored is not read back yet: the whole pause again.
            self.pacing.resume(match.log[starts[-1] :], None)

    def start_timers(self) -> None:
        """After a restart nobody is connected: start every player seat's absence timer."""
        for seat in self.seats:
            self.room.watch_absence(seat)

    async def sync(self, conn: Conn) -> None:
        """Send `conn` the full view of the current match."""
        async with self.turn():
            if self.match is None:
                raise ProtocolError("no_match")
            conn.send(self.feed.sync(conn.seat))

    async def say(self, conn: Conn, text: str) -> None:
        """Say `text` to the table (stored first): from a seat, or from a spectator
        if the table allows. Only words go by: never anything of the match."""
        clean = self.chat.check(conn, text)
        async with self.turn():
            await self.chat.say(conn, clean)
            self.state.touch()

    async def ready(self, conn: Conn) -> None:
        """A seat's player is ready for the next hand; the last one starts it."""
        async with self.turn():
            if conn.seat is None:
                raise ProtocolError("spectator")
            self.pacing.ready(conn.seat)

    # -- the host -----------------------------------------------------------------------

    async def set_seat(self, index: int, bot: str | None) -> str | None:
        """Host: put a bot in a seat, or (bot None) reopen it with a new invitation token.

        The seat's old token stops working and its sockets are closed. Returns
        the new token of a reopened seat. Open seats are played by the
        stand-in bot while a match is on.
        """
        async with self.turn():
            token, change = await self.host.set_seat(index, bot)
            self._announce(change)
            await self._start_when_seated()
        self.bots.schedule()
        return token

    async def give_seat(self, index: int, name: str) -> str:
        """Seat a named player (an event's) in seat `index`, with a new token, which
        is returned: the seat's old token stops working and its sockets are closed,
        as when a player opens their seat on another device."""
        async with self.turn():
            token = await self.host.give_seat(index, name)
            self._announce(Change())
        self.bots.schedule()
        return token

    async def rename_seat(self, index: int, name: str) -> str:
        """Host: give the player in seat `index` a new name (cleaned as a player's
        own is); returns it. The player is told, and so is everyone else."""
        async with self.turn():
            clean, change = await self.host.rename_seat(index, name)
            self._announce(change)
            return clean

    async def move_seat(self, index: int, to: int) -> None:
        """Host: swap the occupants of seats `index` and `to` (who or what sits there,
        its token, its sockets): before the first match at once, else when the next
        match starts (`Host.move_seat`), so that nobody sees another seat's hand or
        takes its result. Everyone is told; each moved socket gets a `welcome` for its
        new seat (and the new match's view)."""
        async with self.turn():
            self._announce(await self.host.move_seat(index, to))
        self.bots.schedule()

    def _announce(self, change: Change) -> None:
        """Tell everyone of a host's change: the table, each moved socket its new seat,
        then the notice."""
        self.feed.table()
        for conn in change.moved:
            self.feed.moved(conn)
        if change.notice is not None:
            self.room.tell(change.notice)

    async def start(self) -> None:
        """Host: start now; the stand-in bot plays open seats until someone claims them."""
        async with self.turn():
            if self.status != "waiting":
                raise ValueError(f"the table is {self.status}, not waiting to start")
            await self._start_match()
        self.bots.schedule()

    async def rematch(self, seat: int | None) -> None:
        """A seat asks for a rematch (None: the host forces one). Once every
        player present has asked, the next match starts with the same seats."""
        async with self.turn():
            if self.status != "over":
                raise ProtocolError("not_over")
            if seat is not None:
                self.seats[seat].rematch = True
            waiting = [
                s
                for s in self.seats
                if s.kind == "player" and not s.away and s.conns and not s.rematch
            ]
            if seat is None or not waiting:
                await self._start_match()
            else:
                self.feed.table()
        self.bots.schedule()

    # -- the match ------------------------------------------------------------------------

    async def _start_when_seated(self) -> None:
        """A waiting table whose every seat is taken starts. Under the lock."""
        if self.status == "waiting" and not any(s.kind == "open" for s in self.seats):
            await self._start_match()

    async def _start_match(self) -> None:
        """Make the moves that waited for it, deal a new match (stored first) and send
        everyone its view (a moved socket its new seat first). Under the lock."""
        moves = await self.host.make_moves()
        await self.steps.deal()
        self.reminders.turns((), None)
        self._stepped()
        self.state.signal()
        self.feed.table()
        for conn in moves.moved:
            conn.send(self.feed.welcome(conn))
        self.feed.syncs()
        if moves.notice is not None:
            self.room.tell(moves.notice)

    async def act(
        self,
        seat: int,
        spelling: Spelling,
        version: int,
        conn: Conn | None = None,
        ident: str | int | None = None,
        by_bot: bool = False,
        meant: int | None = None,
    ) -> int:
        """Apply one action for `seat`, acting on `version`; store it; tell everyone.

        `meant` is the seat a client's action was meant for (its `act`'s `seat`), if
        it said. Returns the new version. Raises `ProtocolError` (and changes nothing)
        when the action is refused.
        """
        async with self.turn():
            if conn is not None:
                _check_seat(conn, seat, meant)
            before = self.match.to_act if self.match is not None else frozenset()
            step = await self.steps.take(seat, spelling, version, conn, by_bot)
            self._remind(seat, before, by_bot, step.over)
            self._stepped()
            self.metrics.actions.labels(self.game.name).inc()
            if conn is not None:
                conn.send(messages.ack(ident, self.match_no, self.version))
            self.feed.updates(step.since)
            if step.over:
                self.feed.table()
            self.state.signal()
            if not step.over:
                await self._stop_at_the_limit()
            new_version = self.version
        self.bots.schedule()
        return new_version

    async def _stop_at_the_limit(self) -> None:
        """Close the table once its match has as many moves as this server plays in one
        (fewer in a match of bots alone: nobody plays it). Under the lock."""
        alone = self.bots.alone
        most = self.bots.thinker.pace.alone_moves if alone else self.limits.match_actions
        if self.version < most:
            return
        whose = " of bots alone" if alone else ""
        try:
            await self._shut(
                f"the match was stopped after {self.version:,} moves, "
                f"the most this server plays in one match{whose}"
            )
        except Exception:  # the move stands; the next one tries again
            log.exception("table %s: could not close it at the move limit", self.id)

    def _stepped(self) -> None:
        if self.on_step is not None:
            self.on_step(self)

    def _remind(self, seat: int, before: frozenset[int], by_bot: bool, over: bool) -> None:
        """After `seat`'s move: tell those away whose turn it is, or that the match is over
        (not its player, if they made it themselves)."""
        if over:
            self.reminders.over(None if by_bot else seat, self.info()["outcome"])
        else:
            self.reminders.turns(before, seat)

    # Hooks: what the table's parts tell it.

    def _went_away(self) -> None:
        """A player is away: the stand-in plays, and the pause no longer waits for them."""
        self.feed.table()
        self.pacing.review()
        self.bots.schedule()

    def _bot_plays(self, index: int) -> bool:
        return self.bots.plays(index)

    def _hand_started(self) -> None:
        self.bots.schedule()

    def _turn_ran_out(self, version: int) -> None:
        self.reminders.ran_out(version)

    def _timed(self, deadline: Deadline) -> None:
        self.reminders.timed(deadline)

    # -- the end ---------------------------------------------------------------------------

    async def expire(self) -> None:
        """A table that waited too long for its players: stored as expired."""
        async with self.turn():
            if self.status == "waiting":
                await self.store.run(storage.set_status(self.id, "expired"))
                self.state.end("expired")

    async def shut(self, reason: str) -> None:
        """Close the table for good (the host's choice, or a server limit): no more moves."""
        async with self.turn():
            if self.status != "closed":
                await self._shut(reason)

    async def _shut(self, reason: str) -> None:
        """Close the table, stored first. Under the lock."""
        await self.store.run(storage.set_status(self.id, "closed"))
        self.state.end("closed", reason)
        self.pacing.stop()
        self.room.stop_timers()
        self.bots.cancel()
        self.state.signal()
        self.feed.table()

    async def close(self) -> None:
        """Let the table go (its worker hands it over, or stops): stop its bots and
        timers, wait for the change under way, then close every socket."""
        self.state.closing = True
        self.pacing.stop()
        self.steps.cancel()
        self.room.stop()
        await self.bots.stop()
        await self.reminders.stop(self.limits.store_seconds)
        # A change under way finishes first, and none comes after (`turn`): a hello
        # that was storing its seat's claim joins the room before the sockets close,
        # not after, where nobody would ever tell it anything again.
        async with self.lock:
            for conn in self.room.conns():
                conn.close(1012)


def _check_seat(conn: Conn, seat: int, meant: int | None) -> None:
    """Refuse a client's action for `seat` (`meant`: the seat it said it was meant for)
    once its socket holds another seat: the host moved its player since it was sent,
    and it is never played in the new seat."""
    if conn.seat == seat and meant in (None, seat):
        return
    raise ProtocolError(
        "seat_changed",
        "this action was meant for the seat this connection held before the host moved it",
    )
