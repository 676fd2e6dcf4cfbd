"""What a table is (`Setup`, fixed) and where it stands (`TableState`): its status,
its current match and that match's versions.

The one state object a table's parts read; they change it only under the
table's lock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.rules import RuleSet
from pitkit.server.ops.settings import TableSettings

__all__ = ["ENDED", "Setup", "TableElsewhereError", "TableState", "Turn"]


class TableElsewhereError(RuntimeError):
    """This worker does not run the table now: another holds it and did not hand it
    over in time, or this one has just handed it over (or is stopping). Try again:
    the proxy sends the retry to the worker that runs it."""


Turn: TypeAlias = Callable[[], AbstractAsyncContextManager[None]]
"""`Table.turn`: the table's lock, to change it; `TableElsewhereError` once it is let go.
The table's parts that change it from a task of their own take it."""


#: Why a table takes no more moves, by status (a closed table's own reason,
#: when it was given since the server started, is more precise).
ENDED = {"expired": "nobody came to play in time", "closed": "the table is closed"}


@dataclass(frozen=True)
class Setup:
    """What a table is, fixed when it is made: its id, game, seats, rules and settings."""

    id: str
    game: Game
    players: int
    rules: RuleSet
    settings: TableSettings
    created: float


@dataclass(eq=False)
class TableState:
    """A table's status (waiting, playing, over, closed, expired or broken), why it
    takes no moves, and its current match: the match's number (0 before the first),
    and where each version's events start in its log (version 0 is the deal,
    version v the state after the v-th action)."""

    status: str
    number: int
    touched: float
    """When anything last happened here (wall-clock seconds), for expiry."""
    problem: str | None = None
    match: Match[Any, Any] | None = None
    starts: list[int] = field(default_factory=list)
    closing: bool = False
    """Set when the server shuts down: nothing new starts."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set at the next change (`signal`): what waits for one wakes."""

    def __post_init__(self) -> None:
        if self.problem is None:
            self.problem = ENDED.get(self.status)

    @property
    def version(self) -> int:
        """The current version of the current match (-1 before the first)."""
        return len(self.starts) - 1

    @property
    def in_play(self) -> bool:
        """Whether a match is under way: dealt, not over, at a table that plays."""
        match = self.match
        return match is not None and not match.is_over and self.status == "playing"

    def end(self, status: str, reason: str | None = None) -> None:
        """The table stops taking moves: `status`, and why (by default, the usual words)."""
        self.status, self.problem = status, reason or ENDED.get(status)

    def touch(self) -> None:
        """Something happened here now."""
        self.touched = time.time()

    def signal(self) -> None:
        """Wake whatever waits for the next change (real-time bots that chose to wait)."""
        self.changed.set()
        self.changed = asyncio.Event()
