"""The play protocol's messages: reading what clients send, and the error codes.

Every client message is a JSON object with a ``type``; docs/protocol.md
describes each one. `parse` checks a message's shape completely before the
server acts on it, so a malformed message is refused with a reason and
changes nothing.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from pitkit.core.narrate import plain

__all__ = [
    "ERRORS",
    "Act",
    "Chat",
    "ClientMessage",
    "Hello",
    "ProtocolError",
    "Simple",
    "json_problem",
    "parse",
]

ERRORS: dict[str, str] = {
    "no_table": "there is no table with this id",
    "too_large": "the message is longer than the limit",
    "malformed": "the message is not a JSON object of a known shape",
    "unknown_type": "no such message type",
    "rate_limited": "too many messages; this one was dropped",
    "hello_first": "say hello (with a seat token, or none to watch) before anything else",
    "already_joined": "this connection has said hello already",
    "bad_token": "the token is not a seat token of this table",
    "table_full": "the table has as many connections as it takes",
    "spectator": "spectators cannot act",
    "no_match": "no match is being played at this table",
    "game_over": "the match is over",
    "bad_version": "the version is not one the table has had",
    "stale": "the table has moved on since the version acted on",
    "bad_action": "the text or JSON does not spell an action of this game",
    "not_your_turn": "this seat may not act now",
    "illegal": "the action is not legal now",
    "lost_race": "another action arrived first and the action is no longer legal",
    "not_over": "a rematch can be asked for only once the match is over",
    "server_error": "the server could not store the action; nothing changed",
    "unconfirmed": "the database is slow to answer: the move may still be stored, and the"
    " table will show it if it is",
    "closed": "the table is closed: it takes no more moves",
    "bad_chat": "a chat message is 1 to 200 printable characters",
    "no_chat": "spectators do not chat at this table",
    "chat_too_fast": "too many chat messages: wait a moment",
    "between_hands": "the next hand starts when everyone is ready",
    "no_pause": "the hand is under way: there is nothing to be ready for",
    "seat_changed": "the action was meant for another seat than this connection holds now",
    "bad_name": "a name is 1 to 40 printable characters, with a few marks on a letter at most",
    "profile_seated": "this profile sits at this table already, in another seat",
    "idle": "you stopped watching: this page sent nothing for a long while",
}


class ProtocolError(Exception):
    """A refused message: its code (a key of `ERRORS`) and a reason for people (an
    engine's refusal loses its ruling references on the way: `plain`)."""

    def __init__(self, code: str, reason: str | None = None) -> None:
        assert code in ERRORS, code
        said = plain(reason or ERRORS[code])
        super().__init__(said)
        self.code = code
        self.reason = said


@dataclass(frozen=True)
class Hello:
    """Join the table: as a seat (token) or a spectator; resume from (match, version)."""

    token: str | None
    name: str | None
    match: int | None
    version: int | None
    views: bool = False
    """Whether each `update` should also carry the seat's new view."""


@dataclass(frozen=True)
class Act:
    """Play an action, spelled as text or JSON, acting on `version`."""

    action: str | dict[str, Any]
    version: int
    id: str | int | None
    seat: int | None = None
    """The seat the action was meant for, if the client says (refused, `seat_changed`,
    once its socket holds another seat)."""


@dataclass(frozen=True)
class Simple:
    """A message without fields: ``sync``, ``rematch``, ``ready`` or ``ping``."""

    type: str
    id: str | int | None


@dataclass(frozen=True)
class Chat:
    """Say something to the table (its bounds are checked by the table)."""

    text: str
    id: str | int | None


ClientMessage = Hello | Act | Chat | Simple

_DEPTH = 16
"""Deepest nesting of lists and objects a message may have (an action needs three)."""

_FIELDS = {
    "hello": {"type", "token", "name", "match", "version", "views"},
    "act": {"type", "action", "version", "id", "seat"},
    "chat": {"type", "text", "id"},
    "sync": {"type", "id"},
    "rematch": {"type", "id"},
    "ready": {"type", "id"},
    "ping": {"type", "id"},
}


def parse(text: str | bytes | None, limit: int) -> ClientMessage:
    """Read one client message; `ProtocolError` says what is wrong with it."""
    if not isinstance(text, str):
        raise ProtocolError("malformed", "messages are JSON text frames, not binary")
    if len(text) > limit:
        raise ProtocolError("too_large", f"messages are at most {limit} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        # RecursionError: deeply nested arrays within the size limit.
        raise ProtocolError("malformed", "the message is not valid JSON") from None
    problem = json_problem(data)
    if problem is not None:
        raise ProtocolError("malformed", problem)
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object with a type")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError(
            "unknown_type", f"unknown message type; types are: {', '.join(_FIELDS)}"
        )
    extra = set(data) - _FIELDS[kind]
    if extra:
        raise ProtocolError("malformed", f"unknown fields for {kind}: {', '.join(sorted(extra))}")
    ident = data.get("id")
    if ident is not None and not _is_id(ident):
        raise ProtocolError("malformed", "id is a string of at most 64 characters or an integer")
    if kind == "hello":
        token = _optional(data, "token", str)
        name = _optional(data, "name", str)
        match = _optional_count(data, "match")
        version = _optional_count(data, "version")
        views = data.get("views", False)
        if not isinstance(views, bool):
            raise ProtocolError("malformed", "views is true or false")
        return Hello(token, name, match, version, views)
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str | dict):
            raise ProtocolError("malformed", "action is the action's text or its JSON object")
        acted_on = data.get("version")
        if not isinstance(acted_on, int) or not _is_count(acted_on):
            raise ProtocolError(
                "malformed", "act needs the version it acted on (a whole number below 2^31)"
            )
        return Act(action, acted_on, ident, _optional_count(data, "seat"))
    if kind == "chat":
        said = data.get("text")
        if not isinstance(said, str):
            raise ProtocolError("malformed", "chat needs its text (a string)")
        return Chat(said, ident)
    return Simple(kind, ident)


def json_problem(data: Any, depth: int = _DEPTH) -> str | None:
    """What is wrong with parsed JSON that no message or request may hold, or None.

    Python's JSON reader accepts NaN and Infinity, turns 1e400 into infinity
    and "\\ud800" into a lone surrogate that cannot be written back as UTF-8:
    left in, they would reach a game, a database or an error that quotes them.
    """
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, level = stack.pop()
        if level > depth:
            return f"lists and objects nest at most {depth} deep"
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "text must be valid Unicode (a lone surrogate such as \\ud800 is not)"
        elif isinstance(value, float):
            if not math.isfinite(value):
                return "numbers must be finite (not NaN or Infinity)"
        elif isinstance(value, int):
            if not -(2**63) <= value < 2**63:
                return "numbers must be below 2^63"
        elif isinstance(value, dict):
            stack.extend((k, level + 1) for k in value)
            stack.extend((v, level + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, level + 1) for v in value)
    return None


def _is_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -(2**53) <= value <= 2**53
    return isinstance(value, str) and len(value) <= 64


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31


def _optional(data: dict[str, Any], key: str, kind: type[str]) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, kind):
        raise ProtocolError("malformed", f"{key} is a string")
    return value


def _optional_count(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not _is_count(value):
        raise ProtocolError("malformed", f"{key} is a whole number below 2^31")
    return int(value)


def error(code: str, reason: str, ident: str | int | None = None, **extra: Any) -> dict[str, Any]:
    """An error message for a client."""
    out: dict[str, Any] = {"type": "error", "code": code, "reason": reason}
    if ident is not None:
        out["id"] = ident
    out.update(extra)
    return out
