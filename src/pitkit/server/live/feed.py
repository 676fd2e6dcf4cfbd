"""What each socket at one table is sent, as its seat sees it: the table, the welcome,
the match's updates and full views.

The messages themselves are `messages`' pure functions; the feed picks their
values from the table's state, room, pace and chat, and sends each distinct
message built and encoded once, however many sockets get it.
"""

from __future__ import annotations

from typing import Any, cast

from pitkit.core.match import RECORD_CHANGES, Match
from pitkit.core.narrate import Narrator
from pitkit.server.live import messages
from pitkit.server.live.chat import Chat
from pitkit.server.live.conn import Conn
from pitkit.server.live.messages import Clocks
from pitkit.server.live.pacing import Pacing
from pitkit.server.live.room import Room
from pitkit.server.live.state import Setup, TableState
from pitkit.server.live.wire import GameView, SyncMessage, TableInfo, UpdateMessage, WelcomeMessage
from pitkit.server.ops.settings import Limits

__all__ = ["Feed"]


class Feed:
    """The messages of one table, for each socket."""

    def __init__(
        self,
        setup: Setup,
        limits: Limits,
        state: TableState,
        room: Room,
        pacing: Pacing,
        chat: Chat,
    ) -> None:
        self.setup = setup
        self.limits = limits
        self.state = state
        self.room = room
        self.pacing = pacing
        self.chat = chat
        self._records: dict[int | None, tuple[int, int, Any]] = {}
        """Per seat, the (match, version, match record) of the last update with a view."""
        self._last_record: tuple[Match[Any, Any], int, int, dict[str, Any]] | None = None
        """The match, its number and version, and its record then (`_record`)."""
        self._narrators: dict[int | None, Narrator] = {}
        self._labels: list[str] = []
        """The seats' names `_narrators` were made with (a rename or a move changes them)."""

    def narrator(self, seat: int | None) -> Narrator:
        """Who is who at this table, for `seat` (None: a spectator)."""
        labels = self.room.labels()
        if labels != self._labels:
            self._narrators, self._labels = {}, labels
        say = self._narrators.get(seat)
        if say is None:
            say = self._narrators[seat] = messages.narrator(labels, seat)
        return say

    def info(self) -> TableInfo:
        """The table as anyone may see it (never the seed, never a card)."""
        setup, state, match = self.setup, self.state, self.state.match
        outcome = match.outcome if match is not None else None
        return messages.table_info(
            id=setup.id,
            game=setup.game.name,
            title=setup.game.title,
            players=setup.players,
            rules=setup.rules.changed(),
            settings=setup.settings.to_json(),
            status=state.status,
            match=state.number,
            version=state.version,
            to_act=sorted(match.to_act) if match is not None else [],
            seats=self.room.seats,
            spectators=len(self.room.spectators),
            outcome=messages.in_names(outcome.summary, self.narrator(None)) if outcome else None,
            problem=state.problem,
            created=setup.created,
        )

    # -- one socket's messages ----------------------------------------------------

    def welcome(self, conn: Conn) -> WelcomeMessage:
        """The `welcome` for `conn`: the table, the seat it holds, the chat if it hears it."""
        seat = self.room.seats[conn.seat] if conn.seat is not None else None
        return messages.welcome(self.info(), seat, self.pacing.clocks(), self.chat.heard_by(conn))

    def sync(self, seat: int | None) -> SyncMessage:
        """The full view of the current match for `seat`, with the hands before it."""
        match, say, game = self.state.match, self.narrator(seat), self.setup.game
        assert match is not None
        full, most = self.limits.history_hands, self.limits.history_events
        earlier = messages.earlier_hands(game, match, seat, say, full, most)
        number, version, clocks = self.state.number, self.state.version, self.pacing.clocks()
        return messages.sync(game, match, number, version, seat, say, clocks, earlier)

    def update(
        self, seat: int | None, since: int, view: bool = False, clocks: Clocks | None = None
    ) -> UpdateMessage:
        """The events since `since` for `seat`; with `view`, also its view (`_new_view`).
        `clocks`: the pace's, if already read for the other seats."""
        match, say, state = self.state.match, self.narrator(seat), self.state
        assert match is not None
        clocks, game = clocks or self.pacing.clocks(), self.setup.game
        shown = self._new_view(match, seat, since, say) if view else None
        legal = shown.get("legal") if shown is not None else None  # the same list, as text
        message = messages.update(
            game, match, state.number, state.starts, since, seat, say, clocks, legal
        )
        if shown is not None:
            message["view"] = shown
        return message

    def _new_view(
        self, match: Match[Any, Any], seat: int | None, since: int, say: Narrator
    ) -> GameView:
        """The seat's view as of now for an update, less what the client holds already:
        the history (it has the events) and, unless it changed since `since`, the
        match's record (the score sheet, which grows with every hand).

        `Match.view` is the hand's view and the match's record; the record is the same
        for every seat, so it is built once a version (`_record`) and compared as the
        engine wrote it, before its sentences are put in words for the seat."""
        shown = match.hand.view(seat)
        shown.pop("history", None)
        record = self._record(match)
        number, version = self.state.number, self.state.version
        known = self._records.get(seat)
        self._records[seat] = (number, version, record)
        if known is None or known[:2] != (number, since) or known[2] is not record:
            shown["match"] = record
        return cast(GameView, messages.named(shown, say))

    def _record(self, match: Match[Any, Any]) -> dict[str, Any]:
        """The match's record (`Match.record`) as of this version, built once for all
        seats, and only after an event that may change it (`RECORD_CHANGES`: a Pitch
        sheet grows with every hand, and writing it out at every move was most of a
        Pitch table's work); else the same object as the version before's, so that
        each seat's last one compares by identity."""
        number, version = self.state.number, self.state.version
        last = self._last_record
        if last is not None and last[0] is match and last[1] == number:
            events = messages.events_since(match, self.state.starts, last[2])
            if not any(event.type in RECORD_CHANGES for event in events):
                self._last_record = (match, number, version, last[3])
                return last[3]
            record = match.record()
            if record == last[3]:
                record = last[3]
        else:
            record = match.record()
        self._last_record = (match, number, version, record)
        return record

    def catch_up(self, conn: Conn, match_no: int | None, version: int | None) -> None:
        """Send `conn`, which held (match_no, version), the events it missed if the gap
        is small, else the full view."""
        state = self.state
        if state.match is None:
            return
        if (
            match_no == state.number
            and version is not None
            and version <= state.version
            and state.version - version <= self.limits.resync_gap
        ):
            if version < state.version:
                conn.send(self.update(conn.seat, version, conn.views))
            return
        conn.send(self.sync(conn.seat))

    def moved(self, conn: Conn) -> None:
        """`conn` holds another seat now: its welcome, and that seat's full view."""
        conn.send(self.welcome(conn))
        if self.state.match is not None:
            conn.send(self.sync(conn.seat))

    # -- everyone's -----------------------------------------------------------------

    def table(self) -> None:
        """Send everyone the table, after any change to it."""
        self.room.send_all(messages.table(self.info()))

    def updates(self, since: int) -> None:
        """Send everyone the events since version `since`, as their seat sees them."""
        clocks = self.pacing.clocks()
        self.room.send_each(
            lambda conn: (conn.seat, conn.views),
            lambda key: self.update(key[0], since, key[1], clocks),
        )

    def syncs(self) -> None:
        """Send everyone the full view of the current match (a new match, or one read again)."""
        self.room.send_each(lambda conn: conn.seat, self.sync)
