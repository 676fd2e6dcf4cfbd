"""A tournament's log: an append-only list of entries made through links.

A tournament (a BGA continuous Pits tournament, a Darrtown Pitch tournament) is
its kind, its options and an append-only list of entries: a player added, a
hand entered, a sheet signed, a misplay ruled. Everything shown about the
tournament is the entries replayed by its kind (`pits.py`, `pitch/`), so
nothing is ever overwritten: a correction is a new entry naming the entry it
corrects (or voids), and the replay uses it in that entry's place.

Every entry records who made it: the role and name of the link it came
through, and the time. What a role may do is the kind's to decide (`Kind.check`).
An entry sent from a page carries its **idempotency key** (`Sent`), a random id the
page made for it: sent again with the same key (a reply lost on bad Wi-Fi, a queue
sent again after the network came back), it is answered as the entry it made
(`Tournament.landed`), never made twice.
This module does no I/O: the server stores the entries (`pitkit.server`);
`Tournament` holds a log in memory and makes its entries (`tournament.py`).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

__all__ = [
    "ANSWER_CALL",
    "CALL_JUDGE",
    "CLOCK",
    "DIFFERS",
    "HALL",
    "KEY_SHAPE",
    "NAME_CHARS",
    "NEW_LINK",
    "OPEN_TABLE",
    "PUBLIC_ACTOR",
    "ROLES",
    "SENT_FIELD",
    "Actor",
    "Entry",
    "ForbiddenError",
    "Kind",
    "Online",
    "RefusedError",
    "Sent",
    "by_its_table",
    "check_printable",
    "control_character",
    "entry_name",
    "log_line",
    "replay",
    "said_by_its_table",
]

ROLES = ("manager", "judge", "player", "public", "table")
"""Who makes entries: people through their links, and the tournament's online tables
(`pitkit.server.tournaments.online`), which enter the hands played at them."""

NAME_CHARS = 40
"""The longest name of a player, a judge or a table at a tournament."""

NEW_LINK = "new_link"
"""The entry by which the manager replaces a player's or a judge's link (one lost,
or passed on): {role, name}. The old link stops working; the tournament is unchanged."""


CLOCK = "clock"
"""The entry by which the manager sets the round clock (`pitkit.tournaments.clock`)."""
CALL_JUDGE = "call_judge"
"""The entry by which a player calls their table's judge (`pitkit.tournaments.calls`)."""
ANSWER_CALL = "answer_call"
"""The entry by which a judge (or the manager) says they are on their way to a call, or
that it is done."""
HALL = frozenset({CLOCK, CALL_JUDGE, ANSWER_CALL})
"""Entries about the hall rather than the event's rules (the round clock, calls to the
judge): the tournament keeps them itself (`pitkit.tournaments.hall`), never its kind."""


class RefusedError(ValueError):
    """An entry the tournament refuses (an impossible finishing order, a hand entered
    twice...): nothing changed. The message says why, in words for people."""


class ForbiddenError(PermissionError):
    """The link's role may not do this (or the link is not one of this tournament's)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: a role, and for a player or a judge their name."""

    role: str
    name: str | None = None

    @property
    def label(self) -> str:
        """How entries name the author: "the manager", "judge Ann", "Bob"."""
        if self.role == "manager":
            return "the manager"
        if self.role == "judge":
            return f"judge {self.name}"
        if self.role == "table":
            return "the online table"
        return self.name or self.role


PUBLIC_ACTOR = Actor("public")

KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""An idempotency key: 8 to 64 letters, digits, `-` and `_` (a page makes 22 from 128
random bits)."""

SENT_FIELD = "idempotency"
"""The field of an entry's data, as stored, that keeps its `Sent`: a name no entry
may give itself (`Tournament.enter` refuses it)."""


@dataclass(frozen=True, slots=True)
class Sent:
    """How an entry was sent: its idempotency key, and a digest of what was sent under
    it (who, the type, the data as given, what it corrects), to tell a retry of the
    same entry (answered as that entry) from other content under the same key (refused)."""

    key: str
    digest: str

    @staticmethod
    def of(
        key: str, actor: Actor, type: str, data: Mapping[str, Any], corrects: int | None
    ) -> Sent:
        """What is kept of an entry sent under `key`."""
        content = [actor.role, actor.name, type, data, corrects]
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
        return Sent(key, hashlib.sha256(text.encode()).hexdigest()[:32])

    def to_json(self) -> dict[str, str]:
        """As stored (under `SENT_FIELD`)."""
        return {"key": self.key, "digest": self.digest}

    @staticmethod
    def from_json(value: Any) -> Sent | None:
        """What `to_json` made, or None for anything else."""
        if (
            isinstance(value, Mapping)
            and set(value) == {"key", "digest"}
            and all(isinstance(v, str) for v in value.values())
        ):
            return Sent(value["key"], value["digest"])
        return None


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a tournament's log: what was entered, by whom, when; `corrects`
    names an earlier entry this one replaces (type "void": strikes it); `sent`: its
    idempotency key, when its page gave one (the server's own entries have none)."""

    seq: int
    at: float
    role: str
    author: str | None
    type: str
    data: Mapping[str, Any]
    corrects: int | None = None
    sent: Sent | None = None

    @property
    def actor(self) -> Actor:
        """Who made the entry."""
        return Actor(self.role, self.author)

    def to_json(self) -> dict[str, Any]:
        """This entry as JSON."""
        return {
            "seq": self.seq,
            "at": self.at,
            "role": self.role,
            "author": self.author,
            "by": self.actor.label,
            "type": self.type,
            "data": dict(self.data),
            "corrects": self.corrects,
        }


def log_line(entry: Entry, corrected_by: Iterable[Entry]) -> dict[str, Any]:
    """An entry as the log shows it: its JSON, and the entries that corrected it."""
    return {**entry.to_json(), "corrected_by": [e.seq for e in corrected_by]}


@dataclass(frozen=True, slots=True)
class Online:
    """A game of a tournament to be played at a pitkit table: the game, its rules,
    and the tournament's players in seat order."""

    game: str
    rules: Mapping[str, Any]
    players: tuple[str, ...]


OPEN_TABLE = "open_table"
"""The entry by which the manager puts one of the tournament's games at a pitkit table;
the server opens the table and writes its id into the entry (``table_id``)."""


DIFFERS = "differs"
"""The entry by which an online table says that a hand on the tournament's sheet is not
the hand it played (its game's or table's place, the hand's number or pad line,
``played``, ``sheet`` and a ``note`` in words). It says so once for each version of the
sheet's hand, and enters no more hands there unless that version is the manager's."""


class Kind(Protocol):
    """What a kind of tournament decides: its state, who may enter what, and its views."""

    name: str
    title: str
    links: Mapping[str, str]
    """Entry types that make a link, and the link's role (the entry's `name` names it)."""
    correctable: frozenset[str]
    """Entry types a later entry may correct or void."""

    def options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The tournament's options, checked and completed (RefusedError if wrong)."""

    def start(self, options: Mapping[str, Any]) -> Any:
        """A new tournament's state."""

    def check(
        self, state: Any, actor: Actor, type: str, data: Mapping[str, Any], correcting: bool
    ) -> None:
        """Raise ForbiddenError if `actor` may not make this entry now (`correcting`:
        in place of an earlier one), RefusedError if nobody may."""

    def decide(self, state: Any, type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """What the server decides for a checked entry before it is made (a draw's
        seating), added to its data so that the log holds it and a replay reads it
        back; RefusedError if it cannot be decided."""

    def apply(self, state: Any, entry: Entry) -> None:
        """Apply one entry (RefusedError if the state does not allow it; then the
        state may be half-changed: the caller replays onto a fresh one)."""

    def view(self, state: Any) -> dict[str, Any]:
        """Everything the public sees of the tournament, as JSON. Every reader sees
        it, and their own part (`own`): so one view serves every reader."""

    def own(self, state: Any, actor: Actor) -> dict[str, Any]:
        """What `actor` sees beyond the public view, as keys added to it (a Pitch
        judge's or player's own tables); empty for most readers."""

    def seat_of(self, state: Any, role: str, name: str) -> str | None:
        """Where the player or judge `name` sits now, in words for their slip
        ("Table A, seat 2, game 3"), if anywhere."""

    def csv(self, state: Any) -> dict[str, str]:
        """Every sheet and the standings, as CSV texts by file name."""

    def online(self, state: Any, data: Mapping[str, Any]) -> Online:
        """The table an `OPEN_TABLE` entry asks for (RefusedError if its game cannot
        be played online now)."""

    def seat_at(self, state: Any, table_id: str, name: str) -> int:
        """`name`'s seat at the tournament's online table `table_id` (ForbiddenError if
        they do not sit there now)."""

    def sync(self, state: Any, table_id: str, match: Any) -> list[tuple[str, dict[str, Any]]]:
        """The entries (type, data) that bring the tournament up to date with the match
        played at its online table `table_id`: the hands not entered yet, once every
        hand entered agrees with the match (`DIFFERS` entries say where one does not)."""

    def vacated(self, state: Any, entry: Entry) -> list[tuple[str, int]]:
        """The seats at online tables that `entry` (just made) takes from their
        holders, as (table id, seat): the server ends their secrets at once."""


def by_its_table(actor: Actor, online: str | None, where: str, what: str) -> bool:
    """Whether an entry of what an online table enters (a hand, a cut) is that table's
    own: True then, and the kind's other checks do not apply; False where nothing is
    played online. RefusedError for anyone else's at an online table, or a table's
    about a game it does not play."""
    if actor.role != "table" and online is None:
        return False
    if actor.role != "table" or online != actor.name:
        raise RefusedError(f"{where} is played online: {what} come from its table")
    return True


def said_by_its_table(actor: Actor, online: str | None, where: str) -> None:
    """ForbiddenError unless `actor` is the online table `online` (a `DIFFERS` entry)."""
    if actor.role != "table" or online is None or online != actor.name:
        raise ForbiddenError(f"only the online table of {where} says how its hands were played")


def control_character(text: str) -> str | None:
    """The first control character in `text`, if any: Unicode category C (a control
    code such as NUL, tab or a line break; an invisible format mark such as a
    zero-width joiner or a right-to-left override; a surrogate, a private-use or an
    unassigned code point)."""
    return next((ch for ch in text if unicodedata.category(ch)[0] == "C"), None)


def _texts(data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Every text in an entry's data, with the field it is in (a field's own name
    included), at any depth; walked without recursion, however deep."""
    stack: list[tuple[str, Any]] = [("the entry", data)]
    while stack:
        field, value = stack.pop()
        if isinstance(value, str):
            yield field, value
        elif isinstance(value, Mapping):
            for key, item in reversed(list(value.items())):
                stack.append((f"the {str(key).replace('_', ' ')}", item))
                stack.append(("a field's name", str(key)))
        elif isinstance(value, list | tuple):
            stack.extend((field, item) for item in reversed(value))


def check_printable(data: Mapping[str, Any]) -> None:
    """RefusedError if any text a person gives in an entry (a name, a note, a table's
    name, at any depth) holds a control character (`control_character`): such a
    character cannot be shown, printed or typed again to name the same person."""
    for field, text in _texts(data):
        found = control_character(text)
        if found is not None:
            raise RefusedError(
                f"there is an invisible control character (U+{ord(found):04X}) in {field}: "
                "names and notes take printable characters only; type it again without it"
            )


def entry_name(data: Mapping[str, Any], key: str = "name") -> str:
    """The name an entry's data gives under `key`, spaces tidied; RefusedError if
    there is none or it is longer than NAME_CHARS."""
    value = data.get(key)
    if not isinstance(value, str) or not " ".join(value.split()):
        raise RefusedError(f"give a {key}")
    name = " ".join(value.split())
    if len(name) > NAME_CHARS:
        raise RefusedError(f"a name has at most {NAME_CHARS} characters")
    return name


def replay(kind: Kind, options: Mapping[str, Any], entries: list[Entry]) -> Any:
    """The tournament's state after `entries`, each correction used in place of the
    entry it corrects (its latest one), voided entries skipped."""
    latest: dict[int, Entry] = {}
    for entry in entries:
        if entry.corrects is not None:
            latest[entry.corrects] = entry
    state = kind.start(options)
    for entry in entries:
        if entry.corrects is not None or entry.type == NEW_LINK or entry.type in HALL:
            continue
        used = latest.get(entry.seq)
        if used is not None:
            if used.type == "void":
                continue
            entry = replace(used, seq=entry.seq, corrects=None)
        kind.apply(state, entry)
    return state
