"""What a table tells its players away from it, and what it does when a move's time
runs out: the turn timer's end (a stand-in moves, or the player forfeits), the move's
deadline kept in the store at a table at its own pace, and the notices "your turn"
and "the match is over" to each seat's profile (`Notify`, docs/turn-based.md).

Who is told:
- at a table at its own pace, every person whose turn it becomes (not the one who
  just moved, never a bot, once per turn), and every person when the match ends;
- at an ordinary turn-based table, only those who have left the page (no socket
  open) before their stand-in takes over: the same notices, so that they may come back.
Nobody is told of Pit's turns (it has none), only of its end.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from pitkit.server.live import ratings
from pitkit.server.live.bots import BotSeats
from pitkit.server.live.notices import Notice, NoticeKind, Notify
from pitkit.server.live.pacing import Deadline
from pitkit.server.live.room import Room
from pitkit.server.live.state import Setup, TableElsewhereError, TableState, Turn
from pitkit.server.store import deadlines, profiles
from pitkit.server.store.storage import Store

__all__ = ["Reminders", "forfeited"]

log = logging.getLogger("pitkit.server")


class Reminders:
    """One table's notices to players away from it, and its moves' time running out."""

    def __init__(
        self,
        setup: Setup,
        store: Store,
        state: TableState,
        room: Room,
        bots: BotSeats,
        turn: Turn,
        shut: Callable[[str], Awaitable[None]],
        notify: Notify | None,
    ) -> None:
        """`turn` takes the table's lock for a change (`Table.turn`: refused once the
        table is let go); `shut` closes the table, under it, for the reason given;
        `notify` tells a profile a notice (None: nobody is told)."""
        self.setup = setup
        self.store = store
        self.state = state
        self.room = room
        self.bots = bots
        self.turn = turn
        self.shut = shut
        self.notify = notify
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def own_pace(self) -> bool:
        """Whether the table plays at its own pace."""
        return self.setup.settings.own_pace is not None

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` beside the table (kept until done, so it is not collected)."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- time --------------------------------------------------------------------------

    def timed(self, deadline: Deadline) -> None:
        """A move's deadline is set: at a table at its own pace, stored with the table's
        settings, so that a restart keeps it (the writer keeps the order of jobs)."""
        if self.own_pace:
            stored = {**self.setup.settings.to_json(), "deadline": deadline.to_json()}
            self._later(self._store(deadlines.save_settings(self.setup.id, stored)))

    async def _store(self, job: Callable[[Any], None]) -> None:
        try:
            await self.store.run(job)
        except Exception:  # the move stands; a restart then gives it its whole time
            log.exception("table %s: could not store the move's deadline", self.setup.id)

    def ran_out(self, version: int) -> None:
        """The time for the move due at `version` ran out: the stand-in makes it, or
        (`on_timeout` "forfeit") its player forfeits the match."""
        if self.setup.settings.on_timeout == "forfeit":
            self._later(self._forfeit(version))
        else:
            self.bots.ring(version)

    async def _forfeit(self, version: int) -> None:
        """Close the table: the people to act at `version` let their time run out."""
        try:
            async with self.turn():
                match = self.state.match
                if match is None or self.state.version != version or not self.state.in_play:
                    return  # the move was made at the last moment
                late = [i for i in sorted(match.to_act) if not self.bots.plays(i)]
                if not late:
                    return
                names = _and([self.room.seats[i].label for i in late])
                forfeits = "forfeits" if len(late) == 1 else "forfeit"
                reason = f"{names} let the time for a move run out and {forfeits} the match"
                await self.shut(reason)
                number, seats = self.state.number, len(self.room.seats)
        except TableElsewhereError:
            return  # let go meanwhile: the worker that runs it now times the move out
        self.over(None, f"{reason}.")
        await self._forfeited(number, forfeited(seats, late))

    async def _forfeited(self, number: int, outcome: dict[str, Any]) -> None:
        """The match ends as a forfeit, stored, and is rated: letting the time run out
        never saves a player from a loss."""
        try:
            ended = await self.store.run(deadlines.forfeit_match(self.setup.id, number, outcome))
        except Exception:
            log.exception("table %s: could not store match %d's forfeit", self.setup.id, number)
            return
        if ended:
            await ratings.rate_finished(self.store, self.setup.id, number)

    # -- notices -----------------------------------------------------------------------

    def turns(self, before: Iterable[int], mover: int | None) -> None:
        """After a move by `mover` (None: a deal): tell each person whose turn it has
        become, and who was not to act before it, that it is theirs."""
        due = self._due()
        if due is None:
            return
        by = "The cards are dealt" if mover is None else f"{self.room.seats[mover].label} played"
        self._tell_turn(due - set(before) - {mover}, lambda i: f"{by}; it's your move")

    async def untold_turns(self) -> set[int]:
        """The seats to act whose turn's notice went to nobody: no profile held them."""
        due = self._due()
        if not due:
            return set()
        held = await self.store.run(profiles.seat_profiles(self.setup.id))
        return due - set(held)

    def seat_now_profiles(self, index: int) -> None:
        """Seat `index`, whose move it already was, has just become a profile's (a seat
        taken from the lobby, then made the signed-in player's): the notice of that
        turn found no profile to go to, so tell them now."""
        due = self._due()
        if due is not None and index in due:
            self._tell_turn({index}, lambda _i: "It's your move")

    def _due(self) -> set[int] | None:
        """The seats to act, when turns are told at all (a match on, of a turn-based
        game, with a way to tell)."""
        match = self.state.match
        if self.notify is None or match is None or match.is_over or self.setup.game.realtime:
            return None
        return set(match.to_act)

    def _tell_turn(self, seats: set[int], said: Callable[[int], str]) -> None:
        """Tell each of `seats` that may be told that it is their turn (`said`: how the
        line about it begins)."""
        told = [i for i in sorted(seats) if self._away(i)]
        title = f"Your turn in {self.setup.game.title}"
        self._tell(told, "your-turn", title, lambda i: f"{said(i)} at {self._at(i)}.")

    def over(self, mover: int | None, result: str | None) -> None:
        """The match ended, by `mover`'s own move (None: otherwise), with `result` (its
        outcome in words): tell each person but the one who made that move (they see it)."""
        if self.notify is None:
            return
        told = [s.index for s in self.room.seats if s.index != mover and self._away(s.index)]
        title = f"Match over in {self.setup.game.title}"
        ended = f": {result}" if result else "."
        self._tell(
            told, "match-over", title, lambda i: f"The match at {self._at(i)} is over{ended}"
        )

    def _away(self, index: int) -> bool:
        """Whether a notice may go to seat `index`: a person (not a bot, nor played by a
        stand-in), and at an ordinary table one who has left the page."""
        seat = self.room.seats[index]
        if seat.kind != "player" or seat.away:
            return False
        return self.own_pace or not seat.conns

    def _at(self, reader: int) -> str:
        """Whose table it is, for the reader of seat `reader`: "Ann's table", "your table"."""
        host = self.room.seats[0]
        if host.kind != "player":
            return f"the {self.setup.game.title} table"
        return "your table" if reader == 0 else f"{host.label}'s table"

    def _tell(
        self, seats: list[int], kind: NoticeKind, title: str, body: Callable[[int], str]
    ) -> None:
        """Send each of `seats`' profiles (if it has one) its notice, beside the table."""
        if not seats:
            return
        setup = self.setup
        url = f"/t/{setup.id}"
        notices = {i: Notice(kind, setup.id, setup.game.name, title, body(i), url) for i in seats}
        self._later(self._send(notices))

    async def _send(self, notices: dict[int, Notice]) -> None:
        assert self.notify is not None
        try:
            held = await self.store.run(profiles.seat_profiles(self.setup.id))
            for index, notice in notices.items():
                if index in held:
                    await self.notify(held[index], notice)
        except Exception:  # a notice lost is no reason to stop the table
            log.exception("table %s: could not send its notices", self.setup.id)

    async def stop(self, seconds: float) -> None:
        """Wait up to `seconds` for the notices and stores under way (the server shuts
        down), then stop those still going."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=seconds)
        for task in list(self._tasks):
            task.cancel()


def _and(words: list[str]) -> str:
    """ "Ann", "Ann and Bea", "Ann, Bea and Cyd"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def forfeited(seats: int, late: Iterable[int]) -> dict[str, Any]:
    """The outcome of a match the `late` seats forfeited: they share the last place,
    everyone else the first (as an outcome's ``ranks``, 1 first)."""
    losers = set(late)
    last = seats - len(losers) + 1
    return {"ranks": [last if i in losers else 1 for i in range(seats)], "forfeit": sorted(losers)}
