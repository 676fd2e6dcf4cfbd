"""A table's match, step by step: dealt and stored; each action checked, applied
and stored, or undone when the engine or the database fails on it; read again
from the database when a write that timed out may have landed after all.

Nothing may stay applied that is not on disk. The steps change the table's
state under its lock (held by the `Table`, which then sends what changed);
they send nothing themselves, but the match read again after a failed write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError, IllegalActionError
from pitkit.core.events import Event
from pitkit.core.match import Match
from pitkit.server.live import messages, ratings
from pitkit.server.live.bots import BotSeats
from pitkit.server.live.conn import Conn
from pitkit.server.live.feed import Feed
from pitkit.server.live.pacing import Pacing
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.rebuild import Rebuilt, rebuild
from pitkit.server.live.room import Room
from pitkit.server.live.state import Setup, TableElsewhereError, TableState, Turn
from pitkit.server.ops.settings import Limits
from pitkit.server.store import storage
from pitkit.server.store.storage import Store

__all__ = ["Step", "Steps"]

log = logging.getLogger("pitkit.server")

Spelling = str | Mapping[str, Any] | Action
"""An action as a client sends it (text or JSON), or one already read."""


@dataclass(frozen=True)
class Step:
    """An action taken and stored: the version it was taken after, and whether it
    ended the match."""

    since: int
    over: bool


class Steps:
    """The steps of one table's matches."""

    def __init__(
        self,
        setup: Setup,
        limits: Limits,
        store: Store,
        turn: Turn,
        state: TableState,
        room: Room,
        pacing: Pacing,
        bots: BotSeats,
        feed: Feed,
    ) -> None:
        self.setup = setup
        self.game = setup.game
        self.limits = limits
        self.store = store
        self.turn = turn
        self.state = state
        self.room = room
        self.pacing = pacing
        self.bots = bots
        self.feed = feed
        self._verify = False
        """Set when a store failed: memory may be behind what the database holds."""
        self._recheck: asyncio.Task[None] | None = None

    # -- a match begins -----------------------------------------------------------

    def adopt(self, rebuilt: Rebuilt) -> None:
        """Take the stored match as replayed; one that does not replay marks the table broken."""
        if rebuilt.match is None:
            self.state.end("broken", rebuilt.problem)
            return
        self.state.match, self.state.starts = rebuilt.match, rebuilt.starts
        self.pacing.new_match()  # a match read again goes straight on
        self.bots.new_match()

    async def deal(self) -> None:
        """Deal a new match (stored first): the table plays it from now on, at version 0."""
        setup, state = self.setup, self.state
        seed = secrets.randbits(63)
        match = self.game.new_match(setup.players, setup.rules, seed)
        number = state.number + 1
        events = [e.to_json() for e in match.log]
        await self.store.run(storage.start_match(setup.id, number, seed, events))
        state.match, state.number, state.starts, state.status = match, number, [0], "playing"
        state.touch()
        for seat in self.room.seats:
            seat.rematch = False
            self.room.watch_absence(seat)
        self.pacing.new_match()
        self.bots.new_match()
        self.pacing.restart_turn()

    # -- an action ------------------------------------------------------------------

    async def take(
        self, seat: int, spelling: Spelling, version: int, conn: Conn | None, by_bot: bool
    ) -> Step:
        """Apply one action for `seat`, acting on `version`, and store it. `ProtocolError`
        (and nothing changed) when it is refused."""
        match = await self._open_to(seat, conn, by_bot)
        move = self._accepted(match, seat, spelling, version)
        since, before = self.state.version, len(match.log)
        events = self._applied(match, seat, move, version)
        outcome = match.outcome.to_json() if match.outcome is not None else None
        await self._store(seat, move, events, outcome, before)
        self.state.starts.append(before)
        self.pacing.after_step(events)
        self.state.touch()
        if outcome is not None:
            self.state.status = "over"
            # Bots' tables, most of a server's matches, are never rated: no store job.
            if ratings.enough_people(seat.kind for seat in self.room.seats):
                await ratings.rate_finished(self.store, self.setup.id, self.state.number)
        return Step(since, outcome is not None)

    async def _open_to(self, seat: int, conn: Conn | None, by_bot: bool) -> Match[Any, Any]:
        """The match, if `seat` (through `conn`, or its bot) may act in it at all."""
        state = self.state
        if state.status == "closed":
            raise ProtocolError("closed", state.problem)
        if self._verify:
            await self._check_stored()
        match = state.match
        if match is None or state.status not in ("playing", "over"):
            raise ProtocolError("no_match")
        if by_bot and not self.bots.plays(seat):
            raise ProtocolError("not_your_turn", "the seat's player is back")
        if conn is not None and conn not in self.room.seats[seat].conns:
            raise ProtocolError("bad_token", "this connection no longer holds the seat")
        if match.is_over:
            raise ProtocolError("game_over")
        return match

    def _accepted(
        self, match: Match[Any, Any], seat: int, spelling: Spelling, version: int
    ) -> Action:
        """The action `spelling` spells, if `seat` may take it now, acting on `version`."""
        current, realtime = self.state.version, self.game.realtime
        if version > current:
            raise ProtocolError(
                "bad_version", f"version {version} is ahead of the table's {current}"
            )
        if version < current and not realtime:
            raise ProtocolError(
                "stale", f"you acted on version {version}; the table is at {current}"
            )
        try:
            move: Action = match.parse_action(spelling)
        except BadActionError as exc:
            raise ProtocolError("bad_action", str(exc)) from None
        if self.pacing.pause is not None:
            raise ProtocolError("between_hands")
        # Only the seats to act may act; in real time the game has the last word
        # (Pit takes, and penalizes, a trade attempt before the opening, T3).
        if seat not in match.to_act and not (realtime and match.allows(seat, move)):
            self._refuse(seat, version, f"seat {seat} may not act now", "not_your_turn")
        refused = self.pacing.refusal(move)
        if refused is not None:
            raise ProtocolError("illegal", refused)
        return move

    def _applied(
        self, match: Match[Any, Any], seat: int, move: Action, version: int
    ) -> list[Event]:
        """The events of `move` applied to the match (refused: it is unchanged)."""
        before = len(match.log)
        try:
            return match.apply(seat, move)
        except IllegalActionError as exc:
            self._refuse(seat, version, str(exc), "illegal")
        except Exception:
            # An engine bug: the state may be half-changed, so go back to before it.
            log.exception("table %s: the game failed on %s", self.setup.id, move)
            self._undo(before)
            raise ProtocolError("illegal", "the game could not apply this action") from None

    def _refuse(self, seat: int, version: int, reason: str, code: str) -> NoReturn:
        """Refuse `seat`'s action with `code`, or as a lost race if another action came
        first since `version` (what the others did, as `seat` saw it)."""
        if version < self.state.version:
            match, starts = self.state.match, self.state.starts
            assert match is not None
            since = messages.lost_race(match.log[starts[version + 1] :], seat)
            raise ProtocolError("lost_race", f"{since}; {reason}")
        raise ProtocolError(code, reason)

    async def _store(
        self,
        seat: int,
        move: Action,
        events: list[Event],
        outcome: dict[str, Any] | None,
        before: int,
    ) -> None:
        """Store the step just applied; if that fails, undo it (`server_error`)."""
        state, table_id = self.state, self.setup.id
        new = [e.to_json() for e in events]
        try:
            await self.store.run(
                storage.append_step(
                    table_id, state.number, state.version + 1, seat, str(move), new, outcome
                )
            )
        except Exception as exc:
            # A write the database was committing when we stopped waiting may still
            # land, so the next action first checks what the database holds, and so
            # does `_check_later` if nobody acts. The player is told which it is.
            log.exception("table %s: could not store version %d", table_id, state.version + 1)
            self._undo(before)
            self._verify = True
            if self._recheck is None or self._recheck.done():
                self._recheck = asyncio.create_task(self._check_later())
            unsure = isinstance(exc, storage.StoreUnsureError)
            raise ProtocolError("unconfirmed" if unsure else "server_error") from None

    # -- after a failure --------------------------------------------------------------

    def _undo(self, length: int) -> None:
        """Put the match back as it was when its log had `length` events (after an
        action the engine or the database failed on), by replaying that much."""
        match = self.state.match
        assert match is not None
        self.state.match = self.game.replay(match.header(), match.log[:length])
        self.pacing.follow(self.state.match)
        self.state.signal()

    async def _check_later(self) -> None:
        """Once the database has had time to finish a timed-out write, bring memory
        in line with it, even if nobody acts meanwhile (trying again while it fails)."""
        while self._verify and not self.state.closing:
            await asyncio.sleep(self.limits.store_seconds)
            try:
                async with self.turn():
                    if self._verify:
                        with contextlib.suppress(ProtocolError):
                            await self._check_stored()
            except TableElsewhereError:
                return  # let go meanwhile: the worker that runs it now reads the database
        self.bots.schedule()

    async def _check_stored(self) -> None:
        """After a failed store: if a write that timed out landed after all,
        reload the match from the database, so memory and disk agree again, and
        send everyone the match as it is. Under the lock; a database still
        failing refuses the action."""
        table_id, number = self.setup.id, self.state.number
        try:
            stored = await self.store.run(lambda db: storage.stored_version(db, table_id, number))
            if stored != self.state.version:
                record = await self.store.run(lambda db: storage.read_table(db, table_id))
                if record is None or record.match is None:
                    raise ValueError("the table is gone from the database")
                rebuilt = await asyncio.to_thread(rebuild, self.game, record)
                self.adopt(rebuilt)
                self.state.status = record.status if rebuilt.match is not None else "broken"
                self.feed.table()
                if self.state.match is not None:
                    self.feed.syncs()
        except Exception:
            log.exception("table %s: the database is still failing", table_id)
            raise ProtocolError("server_error") from None
        self._verify = False

    def cancel(self) -> None:
        """Stop checking the database in the background (the server shuts down)."""
        if self._recheck is not None:
            self._recheck.cancel()
