"""What a table's host may do to its seats: put a bot in one, reopen it, give it to a
named player, rename a player, move two seats' occupants.

Each change is checked, stored, then made (the seats, their sockets, their
bots), and returned as a `Change`: what the table then says to everyone. The
host's operations run under the table's lock, which the `Table` holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from pitkit.server.live.bots import BotSeats
from pitkit.server.live.conn import Conn
from pitkit.server.live.room import Room, Words
from pitkit.server.live.seats import KINDS, Seat, clean_name
from pitkit.server.live.state import Setup, TableState
from pitkit.server.live.thinking import Thinker
from pitkit.server.ops.settings import Limits
from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store import storage
from pitkit.server.store.storage import SeatRecord, Store

__all__ = ["Change", "Host"]


@dataclass(frozen=True)
class Change:
    """What a host's change did, for the table to tell: the `notice` (None: no words),
    and the sockets now holding another seat (each needs a new welcome and view)."""

    notice: Words | None = None
    moved: tuple[Conn, ...] = ()


class Host:
    """The host's changes to one table's seats."""

    def __init__(
        self,
        setup: Setup,
        limits: Limits,
        store: Store,
        thinker: Thinker,
        state: TableState,
        room: Room,
        bots: BotSeats,
    ) -> None:
        self.table_id = setup.id
        self.game = setup.game
        self.settings = setup.settings
        self.limits = limits
        self.store = store
        self.thinker = thinker
        self.state = state
        self.room = room
        self.bots = bots

    def _changeable(self, index: int) -> Seat:
        """Seat `index`, if the host may still change it (ValueError says why not)."""
        seats = self.room.seats
        if not 0 <= index < len(seats):
            raise ValueError(f"there is no seat {index}: the seats are 0 to {len(seats) - 1}")
        if self.state.status in ("closed", "expired"):
            raise ValueError(f"the table is {self.state.status}: its seats stay as they are")
        return seats[index]

    def _by_name(self) -> None:
        """An event's table seats its players by their names, as the event says."""
        if self.settings.event is not None:
            raise ValueError("an event's table seats its players as the event says")

    async def _save(self, record: SeatRecord) -> None:
        await self.store.run(storage.save_seat(self.table_id, record))

    async def set_seat(self, index: int, bot: str | None) -> tuple[str | None, Change]:
        """Put a bot in a seat, or (bot None) reopen it with a new invitation token,
        returned. The seat's old token stops working and its sockets are closed."""
        seat = self._changeable(index)
        if bot is not None:
            self.thinker.check(self.game, bot)
        token = new_token() if bot is None else None
        held, label = seat.kind == "player", seat.label
        kind = "bot" if bot is not None else "open"
        new = SeatRecord(index, kind, bot, None, hash_token(token or new_token()))
        await self._save(new)
        seat.take(new)
        seat.away, seat.rematch = False, False
        seat.stop_timer()
        change = "gave {}seat to a bot" if bot is not None else "opened {}seat for someone else"
        self.room.let_go(seat, "The host " + change.format("your ") + ".")
        self.bots.reseat(seat)
        if held:
            return token, Change(lambda _: "The host " + change.format(f"{label}'s "))
        if bot is not None:
            return token, Change(lambda _: f"The host put a bot in seat {index + 1}")
        return token, Change(lambda _: f"The host opened seat {index + 1} for someone else")

    async def give_seat(self, index: int, name: str) -> str:
        """Seat a named player (an event's) in seat `index` with a new token, returned:
        the seat's old token stops working and its sockets are closed, as when a
        player opens their seat on another device."""
        seat = self._changeable(index)
        token = new_token()
        new = SeatRecord(index, "player", None, name, hash_token(token))
        await self._save(new)
        seat.take(new)
        self.room.let_go(seat, "this seat was opened on another device")
        self.bots.reseat(seat)
        return token

    async def rename_seat(self, index: int, name: str) -> tuple[str, Change]:
        """Give the player in seat `index` a new name (cleaned as a player's own is),
        returned; the player is told, and so is everyone else."""
        seat = self._changeable(index)
        self._by_name()
        if seat.kind != "player":
            what = KINDS[seat.kind]
            raise ValueError(f"{seat.label} is {what}: only a player has a name to change")
        clean = clean_name(name, self.limits.name_chars)
        if clean is None:
            raise ValueError("a name needs at least one printable character")
        old = seat.label
        await self._save(SeatRecord(index, "player", None, clean, seat.token_hash))
        seat.name = clean
        self.state.touch()
        if clean == old:
            return clean, Change()
        return clean, Change(
            lambda reader: (
                f"The host renamed you {clean}"
                if reader == index
                else f"The host renamed {old} to {clean}"
            )
        )

    async def move_seat(self, index: int, to: int) -> Change:
        """Swap the occupants of seats `index` and `to` (who or what sits there, its
        token, its sockets), before or during a match: during one, the two swap
        hands; each moved socket needs its new seat's welcome and full view."""
        a, b = self._changeable(index), self._changeable(to)
        self._by_name()
        if index == to:
            raise ValueError(f"{a.label} is in that seat already")
        if a.kind == b.kind == "open":
            raise ValueError("both seats are open: there is nobody to move")
        before = {a.index: a.label, b.index: b.label}
        kinds = {a.index: a.kind, b.index: b.kind}
        swap = {a.index: b.index, b.index: a.index}
        swapped = [
            SeatRecord(a.index, b.kind, b.bot, b.name, b.token_hash),
            SeatRecord(b.index, a.kind, a.bot, a.name, a.token_hash),
        ]
        await self.store.run(storage.save_seats(self.table_id, swapped))
        a.swap(b)
        self.room.claimed = {k: swap.get(v, v) for k, v in self.room.claimed.items()}
        for seat in (a, b):
            seat.stop_timer()  # it was the other occupant's
            self.room.watch_absence(seat)
            # A bot's memory is of the hand it played: the seat's new bot starts afresh.
            self.bots.reseat(seat)
            for conn in seat.conns:
                conn.seat = seat.index
        self.state.touch()
        # Who went where, in words for each reader: only occupants, not open seats.
        went = [(old, swap[old]) for old in (a.index, b.index) if kinds[old] != "open"]

        def words(reader: int | None) -> str:
            parts = []
            for old, new in went:
                who = "you" if reader == new and kinds[old] == "player" else before[old]
                if kinds[old] == "bot":
                    who = "the bot"  # bots go by their seat's name: it takes the new one
                parts.append(f"{who} to seat {new + 1}")
            return "The host moved " + " and ".join(parts)

        return Change(words, (*a.conns, *b.conns))
