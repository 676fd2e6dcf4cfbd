"""What a table's host may do to its seats: put a bot in one, reopen it, give it to a
named player, rename a player, move two seats' occupants.

Each change is checked, stored, then made (the seats, their sockets, their
bots), and returned as a `Change`: what the table then says to everyone. A move
asked for once a match is dealt waits for the next match (`make_moves`), so that
the host never sees another seat's hand, nor takes a finished match's result.
The host's operations run under the table's lock, which the `Table` holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from pitkit.server.live.bots import BotSeats
from pitkit.server.live.conn import Conn
from pitkit.server.live.room import Room, Words
from pitkit.server.live.seats import KINDS, Seat, clean_name, name_clash, unclashed
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
        self.planned: list[tuple[int, int]] = []
        """The moves asked for once a match was dealt, which wait for the next match
        (kept in memory: a restart forgets them)."""

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
        if self.settings.event is None:  # an event's names are its own, told apart there
            name = unclashed(self.room.seats, index, name, self.limits.name_chars)
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
        clash = name_clash(self.room.seats, index, clean)
        if clash is not None:
            raise ValueError(clash)
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
        token, its sockets). Before the first match, at once; once a match is dealt,
        when the next match starts (`make_moves`): a seat's view holds its hand (and,
        between hands, the next one, dealt at once) and its earlier hands as it saw
        them, and a finished match's result is its players', so nobody changes seats
        inside a match, nor before the result of one has given way to the next."""
        a, b = self._changeable(index), self._changeable(to)
        self._by_name()
        if index == to:
            raise ValueError(f"{a.label} is in that seat already")
        if a.kind == b.kind == "open":
            raise ValueError("both seats are open: there is nobody to move")
        if self.state.number == 0:
            return await self._swap(a, b)
        if len(self.planned) >= len(self.room.seats):
            raise ValueError("as many moves wait for the next match as the table has seats")
        self.planned.append((index, to))
        went = _went(a, b)
        return Change(lambda reader: _moved(went, reader, "will move") + _NEXT_MATCH)

    async def make_moves(self) -> Change:
        """Make the moves that waited for the next match (which is about to be dealt),
        in the order asked; one of two seats open by now is dropped."""
        said: list[Words] = []
        moved: list[Conn] = []
        while self.planned:
            index, to = self.planned[0]
            a, b = self.room.seats[index], self.room.seats[to]
            if not a.kind == b.kind == "open":
                change = await self._swap(a, b)
                moved += change.moved
                said += [change.notice] if change.notice is not None else []
            self.planned.pop(0)  # once stored: a store that fails keeps the rest waiting

        def words(reader: int | None) -> str:
            return " ".join(say(reader) for say in said)

        return Change(words if said else None, tuple(dict.fromkeys(moved)))

    async def _swap(self, a: Seat, b: Seat) -> Change:
        """Swap the occupants of seats `a` and `b` now, stored first."""
        swap = {a.index: b.index, b.index: a.index}
        went = _went(a, b)
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
        return Change(lambda reader: _moved(went, reader, "moved") + ".", (*a.conns, *b.conns))


_NEXT_MATCH = " when the next match starts."


@dataclass(frozen=True)
class _Went:
    """One occupant moved: what it is, its name, and its seat before and after."""

    kind: str
    label: str
    old: int
    new: int


def _went(a: Seat, b: Seat) -> list[_Went]:
    """Who goes where when seats `a` and `b` swap: their occupants, not open seats."""
    return [
        _Went(seat.kind, seat.label, seat.index, other.index)
        for seat, other in ((a, b), (b, a))
        if seat.kind != "open"
    ]


def _moved(went: list[_Went], reader: int | None, verb: str) -> str:
    """Who went where in words for `reader` ("The host moved you to seat 3 and Bo to
    seat 1"), by the seat it reads from when the words are sent: the new one once
    the move is made."""
    parts = []
    for one in went:
        # A person reads of themselves as "you", from their seat before or after it.
        own = one.kind == "player" and reader == (one.new if verb == "moved" else one.old)
        # Bots go by their seat's name: the bot takes the new seat's.
        who = "you" if own else "the bot" if one.kind == "bot" else one.label
        parts.append(f"{who} to seat {one.new + 1}")
    return f"The host {verb} " + " and ".join(parts)
