"""How people come to a table and leave: a socket's hello (as a seat, by its token,
or as a spectator), an invitation claimed (over a socket or HTTP), a socket closed.

Claiming an open seat gives it a new secret, returned to the claimer alone:
from then on the seat answers to it, and the invitation (which the host holds
too) opens nothing. The door runs under the table's lock, which the `Table`
holds; a table whose every seat is taken then starts (the table's own step).
"""

from __future__ import annotations

from pitkit.server.live.conn import Conn
from pitkit.server.live.feed import Feed
from pitkit.server.live.pacing import Pacing
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.room import Room
from pitkit.server.live.seats import Seat, clean_name
from pitkit.server.live.state import Setup, TableState
from pitkit.server.ops.settings import Limits
from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store import storage
from pitkit.server.store.storage import SeatRecord, Store

__all__ = ["Door"]


class Door:
    """Who comes in at one table, and who leaves."""

    def __init__(
        self,
        setup: Setup,
        limits: Limits,
        store: Store,
        state: TableState,
        room: Room,
        pacing: Pacing,
        feed: Feed,
    ) -> None:
        self.table_id = setup.id
        self.limits = limits
        self.store = store
        self.state = state
        self.room = room
        self.pacing = pacing
        self.feed = feed

    async def attach(
        self,
        conn: Conn,
        token: str | None,
        name: str | None,
        match_no: int | None,
        version: int | None,
    ) -> None:
        """Join `conn` as a seat (by token) or a spectator, and bring it up to date
        from (match_no, version), what it held before."""
        seat, secret = await self._admit(token, name)
        self.state.touch()
        conn.joined = True
        if seat is None:
            conn.seat = None
            self.room.spectators.add(conn)
        else:
            conn.seat = seat.index
            seat.conns.add(conn)
            seat.stop_timer()
            seat.away = False
        welcome = self.feed.welcome(conn)
        if secret is not None:
            welcome["token"] = secret  # the seat's own secret from now on
        conn.send(welcome)
        if not self.pacing.turn_running and self.state.status == "playing":
            self.pacing.restart_turn()  # after a restart, or a player's return
        self.feed.catch_up(conn, match_no, version)
        self.feed.table()
        if self.pacing.pause is not None and seat is not None:
            self.pacing.broadcast()  # one more person to wait for, or back ready

    async def _admit(self, token: str | None, name: str | None) -> tuple[Seat | None, str | None]:
        """The seat `token` opens (None: a spectator's place), claimed if it was open,
        and the seat's new secret if it was claimed; `ProtocolError` says why not."""
        seat = self.room.seat_for_token(token) if token is not None else None
        if token is not None and seat is None:
            raise self.room.refusal(token)
        if seat is None:
            if len(self.room.spectators) >= self.limits.spectators_per_table:
                raise ProtocolError("table_full", "the table has as many spectators as it takes")
            return None, None
        if seat.kind == "bot":
            raise ProtocolError("bad_token", "a bot plays this seat now")
        secret = await self._claim(seat, name) if seat.kind == "open" else None
        if len(seat.conns) >= self.limits.sockets_per_seat:
            # The newest device wins: a player is never locked out of their seat.
            oldest = min(seat.conns, key=lambda c: c.opened)
            self.room.let_go(seat, "this seat was opened on another device", [oldest])
        return seat, secret

    async def join(self, token: str, name: str | None) -> tuple[int, str | None]:
        """Claim the open seat of an invitation over HTTP (or rename one's own);
        returns the seat, and its new secret when it was claimed."""
        seat = self.room.seat_for_token(token)
        if seat is None:
            raise self.room.refusal(token)
        if seat.kind == "bot":
            raise ProtocolError("bad_token", "a bot plays this seat now")
        secret = None
        if seat.kind == "open" or clean_name(name, self.limits.name_chars):
            secret = await self._claim(seat, name)
        self.feed.table()
        return seat.index, secret

    async def _claim(self, seat: Seat, name: str | None) -> str | None:
        """Give an open seat to the player holding its invitation (stored first), or
        rename a claimed seat's player; returns the seat's new secret, if it was open."""
        if seat.kind == "open" and self.state.status in ("closed", "expired"):
            raise ProtocolError("closed", self.state.problem)
        clean = clean_name(name, self.limits.name_chars) or (
            seat.name if seat.kind == "player" and seat.name else f"Player {seat.index + 1}"
        )
        secret = new_token() if seat.kind == "open" else None
        digest = hash_token(secret) if secret is not None else seat.token_hash
        claimed = SeatRecord(seat.index, "player", None, clean, digest)
        await self.store.run(storage.save_seat(self.table_id, claimed))
        if secret is not None:
            self.room.claimed[seat.token_hash] = seat.index
        seat.take(claimed)
        seat.away = False
        self.state.touch()
        return secret

    def detach(self, conn: Conn) -> None:
        """Forget a closed connection; a player's seat starts its absence timer."""
        self.room.spectators.discard(conn)
        if conn.seat is not None:
            seat = self.room.seats[conn.seat]
            seat.conns.discard(conn)
            self.room.watch_absence(seat)
        if not self.state.closing:
            self.feed.table()
            self.pacing.review()
