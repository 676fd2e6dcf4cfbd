"""A table's seat: who or what sits in it (open, a bot, a player), its token and sockets."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import cast

from pitkit.server.live.conn import Conn
from pitkit.server.live.names import check_name
from pitkit.server.live.wire import SeatInfo, SeatKind
from pitkit.server.store.storage import SeatRecord

__all__ = ["BOT_NAMES", "KINDS", "Seat", "clean_name"]

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
