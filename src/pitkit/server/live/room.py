"""Who is at one table: its seats and spectators, their sockets, and who is away.

The room sends messages to the people at the table and keeps their absence
timers; it knows nothing of the match. Whatever follows a player going away
(a stand-in bot, the pause no longer waiting) is the table's, told through the
`on_away` hook.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from pitkit.server.live.conn import Conn, dumps
from pitkit.server.live.protocol import ProtocolError, error
from pitkit.server.live.seats import Seat
from pitkit.server.ops.tokens import hash_token

__all__ = ["Room", "Words"]

K = TypeVar("K", bound=Hashable)

Words = Callable[[int | None], str]
"""A sentence for each reader, by the reader's seat (None: a spectator)."""


class Room:
    """The seats and spectators of one table, and the sockets that hold them."""

    def __init__(
        self,
        seats: list[Seat],
        away_timeout: float,
        on_away: Callable[[], None],
        spectator_idle: float = 0.0,
    ) -> None:
        """`away_timeout`: seconds after a player's last socket closes before the player
        is away (0: never); `on_away` is called when one is. `spectator_idle`: seconds
        a spectator's socket may send nothing before it is closed (0: never)."""
        self.seats = seats
        self.spectators: set[Conn] = set()
        self.claimed: dict[str, int] = {}
        """Invitations (by hash) whose seat was claimed since the server started: the
        seat they opened, to say it is taken."""
        self._away_timeout = away_timeout
        self._spectator_idle = spectator_idle
        self._on_away = on_away
        self._stopped = False

    # -- who is here ----------------------------------------------------------

    def conns(self) -> list[Conn]:
        """Every socket that said hello: each seat's, then spectators'. The players come
        first, so that at a table with a crowd watching they are not kept waiting for
        a move behind every spectator's copy of it."""
        out = [conn for seat in self.seats for conn in seat.conns]
        out.extend(self.spectators)
        return out

    @property
    def watched(self) -> bool:
        """Whether anyone has a socket open here."""
        return bool(self.spectators) or any(seat.conns for seat in self.seats)

    def present(self) -> set[int]:
        """The seats of the people here now: connected, and not away."""
        return {s.index for s in self.seats if s.kind == "player" and s.conns and not s.away}

    def labels(self) -> list[str]:
        """What the table calls each seat."""
        return [seat.label for seat in self.seats]

    def seat_for_token(self, token: str) -> Seat | None:
        """The seat whose secret token this is, if any."""
        digest = hash_token(token)
        for seat in self.seats:
            if hmac.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def refusal(self, token: str) -> ProtocolError:
        """Why `token` opens no seat: an invitation whose seat was claimed says so."""
        index = self.claimed.get(hash_token(token))
        if index is None:
            return ProtocolError("bad_token")
        seat = self.seats[index]
        holder = seat.label if seat.kind == "player" else "someone else"
        return ProtocolError(
            "bad_token",
            f"this invitation's seat is taken: {holder} has it. You can watch; "
            "ask the host to give you a seat",
        )

    # -- sending --------------------------------------------------------------

    def send_all(
        self, message: Mapping[str, Any], to: Callable[[Conn], bool] | None = None
    ) -> None:
        """Send every socket (or those `to` picks) the same message, encoded once."""
        text = dumps(message)
        for conn in self.conns():
            if to is None or to(conn):
                conn.send(text)

    def send_each(self, key: Callable[[Conn], K], build: Callable[[K], Mapping[str, Any]]) -> None:
        """Send every socket the message `build` makes for its `key` (its seat, say):
        each distinct message is built and encoded once, however many sockets get it."""
        cache: dict[K, str] = {}
        for conn in self.conns():
            which = key(conn)
            text = cache.get(which)
            if text is None:
                text = cache[which] = dumps(build(which))
            conn.send(text)

    def tell(self, words: Words) -> None:
        """Send every socket a `notice`: what the host did, a sentence in words for its
        seat (`words(seat)`: "you" for the seat concerned, its name for the others)."""

        self.send_each(lambda conn: conn.seat, lambda seat: _notice(words(seat)))

    def tell_some(self, conns: list[Conn], said: str) -> None:
        """Send the sockets `conns` a `notice` (`said`, a sentence)."""
        text = dumps(_notice(said))
        for conn in conns:
            conn.send(text)

    def let_go(self, seat: Seat, why: str, conns: list[Conn] | None = None) -> None:
        """Close sockets holding `seat` (by default all of them), each told `why` first
        (a `bad_token` error, then close code 4003: the seat is no longer theirs)."""
        for conn in list(seat.conns) if conns is None else conns:
            conn.send(error("bad_token", why))
            conn.close(4003)
            seat.conns.discard(conn)

    # -- absence ----------------------------------------------------------------

    def watch_absence(self, seat: Seat) -> None:
        """A player with no socket left is away once `away_timeout` passes."""
        if (
            seat.kind != "player"
            or seat.conns
            or seat.away
            or seat.timer is not None
            or self._away_timeout <= 0
            or self._stopped
        ):
            return
        loop = asyncio.get_running_loop()
        seat.timer = loop.call_later(self._away_timeout, self._go_away, seat)

    def _go_away(self, seat: Seat) -> None:
        seat.timer = None
        if seat.conns or seat.kind != "player":
            return
        seat.away = True
        self._on_away()

    def stop_timers(self) -> None:
        """Stop every seat's absence timer (the table is closed: nobody is away)."""
        for seat in self.seats:
            seat.stop_timer()

    def stop(self) -> None:
        """Stop the absence timers, for good (the server shuts down)."""
        self._stopped = True
        self.stop_timers()
        for conn in self.spectators:
            self.forget_idle(conn)

    # -- idle spectators ------------------------------------------------------------

    def watch(self, conn: Conn) -> None:
        """Take `conn` in as a spectator: it is closed once it sends nothing for
        `spectator_idle` seconds (a seat's socket never is: its player may think)."""
        self.spectators.add(conn)
        if self._spectator_idle > 0 and not self._stopped:
            self._check_idle(conn)

    def forget_idle(self, conn: Conn) -> None:
        """Stop watching `conn`'s idleness (it left, or the server stops)."""
        if conn.idle_timer is not None:
            conn.idle_timer.cancel()
            conn.idle_timer = None

    def _check_idle(self, conn: Conn) -> None:
        """Close a spectator's socket silent for `spectator_idle` seconds (told first:
        `idle`, then close code 4010), else look again when it would be."""
        conn.idle_timer = None
        if conn not in self.spectators or conn.closed or self._stopped:
            return
        left = conn.heard + self._spectator_idle - time.monotonic()
        if left > 0:
            loop = asyncio.get_running_loop()
            conn.idle_timer = loop.call_later(left, self._check_idle, conn)
            return
        minutes = max(1, round(self._spectator_idle / 60))
        conn.send(error("idle", f"you stopped watching: this page sent nothing for {minutes} min"))
        conn.close(4010)


def _notice(said: str) -> dict[str, Any]:
    """A `notice` of `said`, ended by a full stop unless it ends already ("renamed you
    Ann B.", not "Ann B..")."""
    said += "" if said.endswith((".", "!", "?")) else "."
    return {"type": "notice", "text": said}
