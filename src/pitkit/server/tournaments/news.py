"""News of a tournament's entries, for the pages that follow it live (the big screen,
the phones in the hall): each keeps a stream open (``GET /api/events/{id}/stream``)
and fetches the event when the stream names a new last entry.

A tournament's `Bell` is rung with the number of its last entry whenever that grows
on this worker: an entry stored here, or entries another worker stored, found by
catching up with the store. Every stream of the tournament waits on its bell, so an
entry wakes each stream once, however many there are, and a stream asks nothing of
the store. Entries stored by another worker are found by one look at the store a
second, made while this worker has streams of the tournament open, however many
(`Tournaments.listening`): a job a second an event, never one a stream.
"""

from __future__ import annotations

import asyncio

__all__ = ["NEWS_CHECK_SECONDS", "Bell"]

NEWS_CHECK_SECONDS = 1.0
"""How often a worker with streams of a tournament open looks in the store for entries
other workers made: with the fetch that follows, a page shows an entry made anywhere
within about a second and a half."""


class Bell:
    """A tournament's bell: who waits on it wakes when an entry is stored (`ring`).
    `last` is the number of the last entry stored, as this worker knows it."""

    def __init__(self, last: int = 0) -> None:
        self.last = last
        self._next = asyncio.Event()

    def ring(self, last: int) -> None:
        """The last entry stored is now `last`: wake every waiter, if it is new."""
        if last <= self.last:
            return
        self.last = last
        rung, self._next = self._next, asyncio.Event()
        rung.set()

    def next_ring(self) -> asyncio.Event:
        """What the next ring sets. Taken before reading `last`, it misses no ring
        that comes meanwhile."""
        return self._next
