"""A table's chat: who hears it, the latest messages, each stored before it is said.

Only words go by: never anything of the match.
"""

from __future__ import annotations

import time
import unicodedata

from pitkit.server.live import messages
from pitkit.server.live.conn import Conn
from pitkit.server.live.names import MARKS, piled_marks
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.live.room import Room
from pitkit.server.live.seats import clean_name
from pitkit.server.live.state import Setup
from pitkit.server.ops.settings import Limits
from pitkit.server.store import storage
from pitkit.server.store.storage import ChatRecord, Store

__all__ = ["Chat"]


class Chat:
    """The chat of one table."""

    def __init__(
        self, setup: Setup, kept: list[ChatRecord], limits: Limits, store: Store, room: Room
    ) -> None:
        """`kept`: the messages stored so far, oldest first."""
        self.table_id = setup.id
        self.settings = setup.settings
        self.limits = limits
        self.store = store
        self.room = room
        since = self._since()
        self.lines: list[ChatRecord] = [line for line in kept if line.at >= since][
            -limits.chat_kept :
        ]
        """The latest messages, oldest first (none older than the retention)."""
        self._seq = kept[-1].seq if kept else 0

    def hears(self, conn: Conn) -> bool:
        """Whether `conn` sees the chat: players do; spectators if the host lets them."""
        return conn.seat is not None or self.settings.spectator_chat

    def heard_by(self, conn: Conn) -> list[ChatRecord] | None:
        """The latest messages, for a socket that hears the chat (None: it does not)."""
        return self.lines if self.hears(conn) else None

    def check(self, conn: Conn, text: str) -> str:
        """`text` as `conn` may say it (trimmed), or `ProtocolError` says why not."""
        if not self.hears(conn):
            raise ProtocolError("no_chat")
        clean = text.strip()
        most = self.limits.chat_chars
        if not clean or len(clean) > most or not clean.isprintable():
            raise ProtocolError(
                "bad_chat", f"a chat message is 1 to {most} characters, on one line"
            )
        if piled_marks(unicodedata.normalize("NFC", clean)):
            raise ProtocolError(
                "bad_chat", f"a chat message has at most {MARKS} accents or marks on one letter"
            )
        if not conn.said.take():
            raise ProtocolError("chat_too_fast")
        conn.heard = time.monotonic()  # a spectator who speaks is there
        return clean

    async def say(self, conn: Conn, text: str) -> None:
        """Store `text` (checked) as said by `conn`, then send it to everyone who hears."""
        if conn.seat is not None:
            name = self.room.seats[conn.seat].label
        else:
            name = clean_name(conn.name, self.limits.name_chars) or "A spectator"
        said = ChatRecord(self._seq + 1, time.time(), conn.seat, name, text)
        kept = self.limits.chat_stored
        await self.store.run(storage.add_chat(self.table_id, said, kept, self._since()))
        self._seq = said.seq
        since = self._since()
        recent = [line for line in self.lines[-(self.limits.chat_kept - 1) :] if line.at >= since]
        self.lines = [*recent, said]
        self.room.send_all(messages.said(said), to=self.hears)

    def _since(self) -> float:
        """When the oldest message still kept was said, at the earliest (`chat_days`)."""
        return time.time() - self.limits.chat_days * 86400
