"""Server-wide limits and per-table settings.

Limits live in one place so that docs/protocol.md, the tests and the code
agree; each is a plain number a deployment may change through `Limits`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Limits", "TableSettings", "database_url"]


@dataclass(frozen=True)
class Limits:
    """What one client may send and hold, server-wide."""

    message_bytes: int = 4096
    """Largest WebSocket message the protocol reads (larger: a `too_large` error)."""
    frame_bytes: int = 64 * 1024
    """Largest frame uvicorn accepts at all; beyond it the socket is closed (1009)."""
    body_bytes: int = 16 * 1024
    """Largest HTTP request body (larger: 413)."""
    rate: float = 10.0
    """Messages a connection may send per second, on average."""
    burst: int = 30
    """Messages a connection may send at once before the rate applies."""
    abuse_close: int = 100
    """Rate-limited messages in a row after which the connection is closed (1008)."""
    hello_seconds: float = 15.0
    """Time a new connection has to say hello before it is closed."""
    outbox: int = 512
    """Messages queued for a client that does not read; beyond it the socket is closed."""
    resync_gap: int = 200
    """Largest number of missed versions sent as events on reconnect; more: a full view."""
    connections_per_table: int = 64
    """Players' and spectators' sockets at one table."""
    tables: int = 5000
    """Tables the server holds in memory (waiting, playing, or over with a rematch to offer)."""
    creates_per_minute: int = 60
    """Tables one client address may create per minute."""
    name_chars: int = 40
    """Longest player name."""


@dataclass(frozen=True)
class TableSettings:
    """How a table runs, chosen when it is created (`settings` in the API)."""

    bot_delay: float = 0.6
    """Seconds a bot waits before acting, so that people can follow the play."""
    away_timeout: float = 60.0
    """Seconds after a player's last connection closes before a bot stands in (0: never)."""
    standin: str | None = None
    """The bot that stands in for an absent player (None: the game's strongest bot)."""
    listed: bool = True
    """Whether the table appears in the public table list."""

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> TableSettings:
        """Settings from JSON, checking ranges; ValueError names the problem."""
        data = dict(data or {})
        known = {"bot_delay", "away_timeout", "standin", "listed"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(
                f"unknown settings {', '.join(sorted(unknown))}; settings are: "
                f"{', '.join(sorted(known))}"
            )
        out = TableSettings()
        delay = data.get("bot_delay", out.bot_delay)
        timeout = data.get("away_timeout", out.away_timeout)
        standin = data.get("standin", out.standin)
        listed = data.get("listed", out.listed)
        if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= 30:
            raise ValueError("bot_delay is a number of seconds from 0 to 30")
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, int | float)
            or not 0 <= timeout <= 86400
        ):
            raise ValueError("away_timeout is a number of seconds from 0 (never) to 86400")
        if standin is not None and (not isinstance(standin, str) or len(standin) > 40):
            raise ValueError("standin is a bot name")
        if not isinstance(listed, bool):
            raise ValueError("listed is true or false")
        return TableSettings(float(delay), float(timeout), standin, listed)

    def to_json(self) -> dict[str, Any]:
        """These settings as JSON."""
        return {
            "bot_delay": self.bot_delay,
            "away_timeout": self.away_timeout,
            "standin": self.standin,
            "listed": self.listed,
        }


def database_url(data: str, database: str | None) -> str:
    """The database URL: `database` if given, else SQLite in the folder `data`."""
    if database:
        return database
    from pathlib import Path

    folder = Path(data)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(folder / 'pitkit.sqlite3').resolve()}"
