"""Notices to a player away from the table: "your turn" and "the match is over".

The live tables say *what* to tell a profile (`Notice`) through a `Notify` callable;
how it reaches them (the page, Web Push to each device that allowed it) is the
sender's business, wired by `pitkit.server.app`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

__all__ = ["Notice", "NoticeKind", "Notify"]

NoticeKind = Literal["your-turn", "match-over"]


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to tell one player, in words for players."""

    kind: NoticeKind
    table_id: str
    game: str
    """The game's registry name (``pitch``)."""
    title: str
    """A short headline: "Your turn in Pitch"."""
    body: str
    """One sentence more: "Bea bid 3 at Ann's table."."""
    url: str
    """The page it opens, relative to the site: ``/t/<table id>``."""


Notify = Callable[[str, Notice], Awaitable[None]]
"""Tell the profile with this id about this notice; never raises for a lost device."""
