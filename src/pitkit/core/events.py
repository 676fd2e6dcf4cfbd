"""Events: what happened in a game, with who may see which part of it.

Every applied action and every random outcome becomes an `Event`. One event
holds the full truth, split by audience: ``public`` for everyone, ``private``
for named seats (a player's own dealt hand), and ``secret`` for nobody at the
table (the order of a shuffled deck). `Event.seen_by` gives one seat's part,
and is all a client is ever sent; `Event.to_json` gives the whole record for
the log on disk, from which a game can be replayed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["Event", "read_log", "write_log"]


# The default part: one empty dict shared by all events, which are values and never changed.
_NOTHING: Mapping[Any, Any] = {}


class Event(NamedTuple):
    """One thing that happened: its type and its parts by audience.

    An immutable value (a named tuple: games make one or two a move, and a
    named tuple is made in half the time of a frozen dataclass).
    """

    type: str
    public: Mapping[str, Any] = _NOTHING
    private: Mapping[int, Mapping[str, Any]] = _NOTHING
    secret: Mapping[str, Any] = _NOTHING

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """What `seat` sees of this event (``None``: a spectator)."""
        out = {"type": self.type, **self.public}
        if seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out

    def to_json(self) -> dict[str, Any]:
        """The whole event, for the log on disk."""
        out: dict[str, Any] = {"type": self.type, **self.public}
        if self.private:
            out["private"] = {str(seat): part for seat, part in self.private.items()}
        if self.secret:
            out["secret"] = dict(self.secret)
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Event:
        """Read back an event written by `to_json`."""
        public = {k: v for k, v in data.items() if k not in ("type", "private", "secret")}
        private = {int(seat): part for seat, part in data.get("private", {}).items()}
        return Event(str(data["type"]), public, private, data.get("secret", {}))


def write_log(path: str | Path, header: Mapping[str, Any], events: Iterable[Event]) -> None:
    """Write a game log as JSON lines: the header, then one event a line."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        for event in events:
            out.write(json.dumps(event.to_json()) + "\n")


def read_log(path: str | Path) -> tuple[dict[str, Any], list[Event]]:
    """Read a log written by `write_log`: its header and its events."""
    lines: Iterator[str] = (
        line for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()
    )
    try:
        header = json.loads(next(lines))
        events = [Event.from_json(json.loads(line)) for line in lines]
    except (StopIteration, json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path} is not a pitkit game log: {exc}") from None
    if not isinstance(header, dict) or "game" not in header:
        raise ValueError(f"{path} is not a pitkit game log: no header")
    return header, events
