"""How people come to a table and leave: a socket's hello (as a seat, by its token,
or as a spectator), an invitation claimed (over a socket or HTTP), a socket closed;
and a player's profile taking its seat, or continuing in it on another device.

Claiming an open seat gives it a new secret, returned to the claimer alone:
from then on the seat answers to it, and the invitation (which the host holds
too) opens nothing. A seat taken with a profile is stored as the profile's (tied
to the seat's secret: store/profiles.py), and one profile holds one seat at a
table at most. The door runs under the table's lock, which the `Table` holds; a
table whose every seat is taken then starts (the table's own step).
"""

from __future__ import annotations

from pitkit.server.live.conn import Conn
from pitkit.server.live.feed import Feed
from pitkit.server.live.pacing import Pacing
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.room import Room
from pitkit.server.live.seats import Seat, clean_name, name_clash, unclashed
from pitkit.server.live.state import Setup, TableState
from pitkit.server.ops.settings import Limits
from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store import profiles, storage
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
        self._checked(name)  # a spectator's name is shown in the chat
        seat, secret = await self._admit(token, name)
        self.state.touch()
        conn.joined = True
        if seat is None:
            conn.seat = None
            self.room.watch(conn)
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
        if seat is not None and len(seat.conns) > 1:
            self._tell_devices(seat, conn)
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
        seat = self._seat_of(token)
        secret, old = None, self._named(seat)
        if seat.kind == "open" or self._checked(name):
            secret = await self._claim(seat, name)
        self.feed.table()
        self._tell_rename(seat, old)
        return seat.index, secret

    def _seat_of(self, token: str) -> Seat:
        """The seat `token` opens, if a person may take it (`ProtocolError`: why not)."""
        seat = self.room.seat_for_token(token)
        if seat is None:
            raise self.room.refusal(token)
        if seat.kind == "bot":
            raise ProtocolError("bad_token", "a bot plays this seat now")
        return seat

    def _checked(self, name: str | None) -> str | None:
        """A player's name as `clean_name` takes it (`bad_name`: refused)."""
        try:
            return clean_name(name, self.limits.name_chars)
        except ValueError as exc:
            raise ProtocolError("bad_name", str(exc)) from None

    async def _claim(self, seat: Seat, name: str | None, profile: str | None = None) -> str | None:
        """Give an open seat to the player holding its invitation (stored first), or
        rename a claimed seat's player; with `profile`, as that profile's seat. Returns
        the seat's new secret, if it was open."""
        if seat.kind == "open" and self.state.status in ("closed", "expired"):
            raise ProtocolError("closed", self.state.problem)
        clean = self._checked(name) or (
            seat.name if seat.kind == "player" and seat.name else f"Player {seat.index + 1}"
        )
        if seat.kind == "open":
            clean = unclashed(self.room.seats, seat.index, clean, self.limits.name_chars)
        elif (clash := name_clash(self.room.seats, seat.index, clean)) is not None:
            raise ProtocolError("bad_name", clash)  # a rename: the player picks again
        secret = new_token() if seat.kind == "open" else None
        digest = hash_token(secret) if secret is not None else seat.token_hash
        claimed = SeatRecord(seat.index, "player", None, clean, digest)
        if profile is None:
            await self.store.run(storage.save_seat(self.table_id, claimed))
        else:
            await self.store.run(profiles.sit(self.table_id, claimed, profile))
        if secret is not None:
            self.room.claimed[seat.token_hash] = seat.index
        seat.take(claimed)
        seat.away = False
        self.state.touch()
        return secret

    async def sit(
        self, token: str, name: str | None, profile: str, profile_name: str
    ) -> tuple[int, str | None]:
        """Take the seat `token` opens as `profile`'s: an invitation's open seat is
        claimed (its new secret returned) under `name`, or else the profile's name;
        a seat the token already holds becomes the profile's, its name kept unless
        `name` is given. Refused (`profile_seated`) if the profile holds another
        seat here."""
        seat = self._seat_of(token)
        self._checked(name)
        if name is None and seat.kind == "open":
            name = profile_name
        held = await self.store.run(profiles.seats_held(self.table_id, profile))
        elsewhere = [index for index in held if index != seat.index]
        if elsewhere:
            raise ProtocolError(
                "profile_seated",
                f"you sit at this table already, in seat {elsewhere[0] + 1}: continue "
                "there (one player, one seat)",
            )
        old = self._named(seat)
        secret = await self._claim(seat, name, profile)
        self.feed.table()
        self._tell_rename(seat, old)
        return seat.index, secret

    def _tell_devices(self, seat: Seat, conn: Conn) -> None:
        """A seat opened on one more device (its link to continue elsewhere, a second
        tab): every one of them plays it, and each is told so, the older ones first."""
        others = [c for c in seat.conns if c is not conn]
        self.room.tell_some(
            others,
            "Your seat was just opened on another device too: both play it. "
            "Close this page if you play on there",
        )
        self.room.tell_some(
            [conn],
            "Your seat is open on another device too: both play it. "
            "Close the page you no longer use",
        )

    @staticmethod
    def _named(seat: Seat) -> str | None:
        """The name a player's seat goes by (None: no player sits there)."""
        return seat.label if seat.kind == "player" else None

    def _tell_rename(self, seat: Seat, old: str | None) -> None:
        """Tell everyone that the player in `seat`, called `old` before, renamed
        themselves (nothing if they were not seated before, or kept their name)."""
        new = seat.label
        if old is None or old == new:
            return
        self.room.tell(
            lambda reader: (
                f"You are now called {new}"
                if reader == seat.index
                else f"{old} is now called {new}"
            )
        )

    async def hand_over(self, profile: str) -> tuple[int, str]:
        """Give the seat `profile` holds here a new secret, returned, for the device
        that asks: the seat's other devices are let go, as when a player opens their
        seat on another device. `bad_token`: the profile holds no seat here."""
        held = await self.store.run(profiles.seats_held(self.table_id, profile))
        if not held:
            raise ProtocolError("bad_token", "your profile holds no seat at this table")
        seat = self.room.seats[held[0]]
        secret = new_token()
        moved = SeatRecord(seat.index, "player", None, seat.name, hash_token(secret))
        await self.store.run(profiles.sit(self.table_id, moved, profile))
        seat.take(moved)
        self.room.let_go(seat, "this seat was opened on another device")
        self.state.touch()
        self.feed.table()
        return seat.index, secret

    def detach(self, conn: Conn) -> None:
        """Forget a closed connection; a player's seat starts its absence timer."""
        self.room.spectators.discard(conn)
        self.room.forget_idle(conn)
        if conn.seat is not None:
            seat = self.room.seats[conn.seat]
            seat.conns.discard(conn)
            self.room.watch_absence(seat)
        if not self.state.closing:
            self.feed.table()
            self.pacing.review()
