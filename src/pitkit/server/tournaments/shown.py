"""A tournament as its readers are shown it: JSON bytes, built once an entry and kept.

Every reader of a tournament is shown its log and its public view, and a few keys
of their own: who they are, and for some kinds their own part of the view (a
Pitch judge's or player's tables, `Kind.own`). A hall's pages poll the same event
every few seconds, and a big event's view and log are megabytes: so the shared
part is built once for each last entry, off the event loop, and gzipped once
(`Packed`); each reading adds its own keys to it, in bytes, and gzips only those
(`Page`). The CSV files are kept the same way (pages with no end of their own).

Each entry is answered with such a page, and the log grows by one line an entry:
so the log is written and deflated a line at a time, as it grows (`_Log`), and only
the view after it is written again for each entry. The past changes rarely (a
correction, an entry the store did not take): then the log is written again whole.
"""

from __future__ import annotations

import asyncio
import struct
import threading
import zlib
from dataclasses import dataclass
from typing import Any

from pitkit.server.store.storage import json_text
from pitkit.tournaments.log import Entry, log_line
from pitkit.tournaments.tournament import Tournament

__all__ = ["Packed", "Page", "Shown"]

_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
"""A gzip member's header: deflate, no name, no time, unknown system (RFC 1952)."""


def _json(value: Any) -> bytes:
    return json_text(value).encode()


@dataclass(frozen=True, slots=True)
class Packed:
    """The start of a text, plain and deflated: a deflate stream flushed to a byte
    boundary and left open, so that a `Page` can go on with its own end (RFC 1951
    lets independent streams follow one another so). `crc` is the CRC-32 of `plain`."""

    plain: bytes
    deflated: bytes
    crc: int

    @staticmethod
    def of(plain: bytes) -> Packed:
        """`plain`, packed."""
        packer = _packer()
        deflated = packer.compress(plain) + packer.flush(zlib.Z_SYNC_FLUSH)
        return Packed(plain, deflated, zlib.crc32(plain))


def _packer() -> Any:  # zlib's compressor has no public type
    """A raw deflate stream (no zlib header: the page's own gzip header goes first)."""
    return zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)


@dataclass(frozen=True, slots=True)
class Page:
    """One reader's page: the shared start, and the reader's own end."""

    start: Packed
    end: bytes

    def plain(self) -> bytes:
        """The page as JSON."""
        return self.start.plain + self.end

    def tag(self) -> str:
        """The page's validator (HTTP's ETag, weak: the same for its gzipped and plain
        forms): its length and CRC-32, the start's carried on over its end. A page that
        polls sends it back, and is answered 304 and nothing more while it is the same."""
        crc = zlib.crc32(self.end, self.start.crc)
        return f'W/"{len(self.start.plain) + len(self.end):x}-{crc:08x}"'

    def gzipped(self, before: bytes = b"", after: bytes = b"") -> bytes:
        """The page as gzipped JSON, between `before` and `after` (an answer that holds
        the page among other keys): only those and the page's own end are deflated now."""
        head, crc = b"", self.start.crc
        if before:  # a stream of its own, flushed to a byte: the start's follows it
            packed = Packed.of(before)
            head, crc = packed.deflated, zlib.crc32(self.start.plain, packed.crc)
        rest = self.end + after
        packer = _packer()
        deflated = packer.compress(rest) + packer.flush(zlib.Z_FINISH)
        crc = zlib.crc32(rest, crc)
        size = len(before) + len(self.start.plain) + len(rest)
        trailer = struct.pack("<II", crc, size & 0xFFFFFFFF)
        return b"".join((_GZIP_HEADER, head, self.start.deflated, deflated, trailer))


_NOTHING_YET = object()


class _Log:
    """The start of every page, ``{"log":[`` and the log's lines, plain and deflated,
    kept as the log grows: the deflate stream is left open after the last line, and a
    copy of it goes on with the rest of a page (`with_rest`)."""

    def __init__(self) -> None:
        self._restart()

    def _restart(self) -> None:
        self.written = 0  # entries whose lines are written
        self.last: Entry | None = None  # the last of them
        self.plain = bytearray()
        self.deflated = bytearray()
        self.crc = 0
        self.packer = _packer()
        self._add(b'{"log":[')

    def _add(self, text: bytes) -> None:
        self.plain += text
        self.deflated += self.packer.compress(text)
        self.crc = zlib.crc32(text, self.crc)

    def catch_up(self, tournament: Tournament) -> None:
        """Add the lines of the entries made since (a line an entry); or, if the past
        changed (an entry taken back, an entry correcting another: its line says so),
        write the log again."""
        entries = tournament.entries
        done = self.written
        new = entries[done:]
        past = done > len(entries) or (done > 0 and entries[done - 1] is not self.last)
        if past or any(entry.corrects is not None for entry in new):
            self._restart()
            lines = tournament.log()
        else:
            lines = [log_line(entry, ()) for entry in new]
        if lines:
            text = _json(lines)[1:-1]
            self._add(b"," + text if self.written else text)
        self.written, self.last = len(entries), (entries[-1] if entries else None)

    def with_rest(self, rest: bytes) -> Packed:
        """The log, then `rest`, packed: only `rest` is deflated now."""
        packer = self.packer.copy()
        deflated = bytes(self.deflated) + packer.compress(rest) + packer.flush(zlib.Z_SYNC_FLUSH)
        return Packed(bytes(self.plain) + rest, deflated, zlib.crc32(rest, self.crc))


class Shown:
    """What is kept of one tournament's pages, as of its last entry: the shared
    start of every page (the log and the public view), and the CSV files. The
    caller holds the tournament's lock, so that no entry changes it meanwhile."""

    def __init__(self) -> None:
        self._as_of: object = _NOTHING_YET
        self._log = _Log()
        # One writer of the log at a time: a reading cancelled (its reader gone) lets
        # go of the tournament's lock, but its thread goes on writing to the end.
        self._writing = threading.Lock()
        self._start: Packed | None = None
        self._csv: dict[str, Page] | None = None

    async def page(self, tournament: Tournament, head: dict[str, Any], own: dict[str, Any]) -> Page:
        """A reader's page: ``log``, ``view`` (the public view and the reader's `own`
        keys) and the `head` keys (who the reader is, the event's name...)."""
        start = await self._shared(tournament)
        # The start leaves the view open: the reader's own keys go in it (after a
        # comma, unless the view has no keys: then its start ends with its brace),
        # then the view is closed, and the head's keys close the page.
        own_keys = _json(own)[1:-1]
        if own_keys and not start.plain.endswith(b"{"):
            own_keys = b"," + own_keys
        return Page(start, own_keys + b"}," + _json(head)[1:])

    async def csv(self, tournament: Tournament) -> dict[str, Page]:
        """Every sheet and the standings, as CSV by file name (pages with no own end)."""
        self._refresh(tournament)
        if self._csv is None:
            self._csv = await asyncio.to_thread(_csv_pages, tournament)
        return self._csv

    async def _shared(self, tournament: Tournament) -> Packed:
        self._refresh(tournament)
        if self._start is None:
            # Off the event loop: a big event's log and view take a while to write.
            self._start = await asyncio.to_thread(self._start_of_pages, tournament)
        return self._start

    def _refresh(self, tournament: Tournament) -> None:
        """Forget what was kept if the tournament has another last entry since. (The
        entry itself, not its number: one taken back may be followed by another.)"""
        last: Entry | None = tournament.entries[-1] if tournament.entries else None
        if last != self._as_of:
            self._as_of, self._start, self._csv = last, None, None

    def _start_of_pages(self, tournament: Tournament) -> Packed:
        """The start every page shares: the log, then the public view, left open."""
        with self._writing:
            self._log.catch_up(tournament)
            view = _json(tournament.kind.view(tournament.state))
            return self._log.with_rest(b'],"view":' + view[:-1])


def _csv_pages(tournament: Tournament) -> dict[str, Page]:
    """Every CSV file of the tournament, packed."""
    return {name: Page(Packed.of(text.encode()), b"") for name, text in tournament.csv().items()}
