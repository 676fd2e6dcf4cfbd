"""A table's seat: who or what sits in it (open, a bot, a player), its token and sockets."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from pitkit.server.live.conn import Conn
from pitkit.server.live.names import check_name, look_alike
from pitkit.server.live.wire import SeatInfo, SeatKind
from pitkit.server.store.storage import SeatRecord

__all__ = [
    "BOT_NAMES",
    "KINDS",
    "TAKEN_WORDS",
    "Seat",
    "clean_name",
    "name_clash",
    "unclashed",
]

#: The names bots go by at a table, by seat.
BOT_NAMES = ("Ada", "Bix", "Cyd", "Dee", "Eko", "Fen", "Gil", "Hal", "Ivy", "Jax")

#: What sits in a seat, in words, by kind.
KINDS = {"open": "an open seat", "bot": "a bot", "player": "a player"}


@dataclass(eq=False)
class Seat:
    """A seat: open, a named bot, or a player; its token, sockets and absence."""

    index: int
    kind: str  # open | bot | player
    bot: str | None
    name: str | None
    token_hash: str
    conns: set[Conn] = field(default_factory=set)
    away: bool = False
    timer: asyncio.TimerHandle | None = None
    rematch: bool = False

    def stop_timer(self) -> None:
        """Forget the absence timer, if one runs (the player is back, or gone for good)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def record(self) -> SeatRecord:
        """This seat as stored."""
        return SeatRecord(self.index, self.kind, self.bot, self.name, self.token_hash)

    def take(self, record: SeatRecord) -> None:
        """Seat the occupant `record` stores here (its kind, bot, name and token)."""
        self.kind, self.bot, self.name = record.kind, record.bot, record.name
        self.token_hash = record.token_hash

    def swap(self, other: Seat) -> None:
        """Swap occupants with `other`: who or what sits there, its token, its sockets,
        its absence and its rematch request (each socket's `seat` is the caller's)."""
        self.kind, other.kind = other.kind, self.kind
        self.bot, other.bot = other.bot, self.bot
        self.name, other.name = other.name, self.name
        self.token_hash, other.token_hash = other.token_hash, self.token_hash
        self.conns, other.conns = other.conns, self.conns
        self.away, other.away = other.away, self.away
        self.rematch, other.rematch = other.rematch, self.rematch

    @property
    def label(self) -> str:
        """The name the table shows: the player's, the bot's given name, or "Seat n"."""
        if self.kind == "player":
            return self.name or f"Player {self.index + 1}"
        if self.kind == "bot":
            return BOT_NAMES[self.index % len(BOT_NAMES)]
        return f"Seat {self.index + 1}"

    def info(self) -> SeatInfo:
        """This seat as anyone may see it."""
        return {
            "seat": self.index,
            "kind": cast(SeatKind, self.kind),
            "bot": self.bot,
            "name": self.name,
            "label": self.label,
            "connected": bool(self.conns),
            "away": self.away,
            "rematch": self.rematch,
        }


def clean_name(name: str | None, limit: int) -> str | None:
    """A player's name as `check_name` takes it (the one check of names, profiles'
    too), or None when none is given (empty, or only spaces). `BadNameError` (a
    ValueError) says what is wrong with one that is refused: a control character,
    more than `limit` characters, a pile of marks on one letter."""
    if name is None or not name.strip():
        return None
    return check_name(name, limit)


#: Words the table's own sentences use for people ("The host renamed you", "A
#: spectator"): a player going by one of them would pass for someone else.
TAKEN_WORDS = ("Host", "The host", "You", "A spectator", "Spectator")


def name_clash(seats: Sequence[Seat], index: int, name: str) -> str | None:
    """Why the player in seat `index` may not go by `name` at this table, if they may
    not: another seat shows that name, or one that looks the same (`names.skeleton`:
    "ΗOST" for "HOST", "Bob" for "bob"), or the table's sentences use it for someone."""
    others = {seat.label: seat for seat in seats if seat.index != index}
    same = look_alike(name, others)
    if same is not None and others[same].kind == "open":
        return "that is what the table calls an open seat: pick another name"
    if same is not None:
        # Said without a seat number: a socket's refusals name seats by their names.
        looks = "is" if same == name else f"looks the same as {same}, who is"
        return f"{name} {looks} at this table already: pick a name that looks different"
    word = look_alike(name, TAKEN_WORDS)
    if word is not None:
        return f"the table calls someone else {word!r}: pick another name"
    return None


def unclashed(seats: Sequence[Seat], index: int, name: str, limit: int) -> str:
    """`name` for the player taking seat `index`, told apart from the other seats'
    (`name_clash`): as it is if nobody goes by it here, else with the first number
    that makes it distinct ("Tess 2": two tabs of one browser, which knows one name,
    may take two seats), or "Player n" for the table's own words ("Host")."""
    if look_alike(name, TAKEN_WORDS) is not None:
        name = f"Player {index + 1}"
    number = 1
    tried = name
    while name_clash(seats, index, tried) is not None:
        number += 1
        suffix = f" {number}"
        tried = name[: limit - len(suffix)].rstrip() + suffix
    return tried
