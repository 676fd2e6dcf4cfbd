"""A tournament in memory: its kind, its options, its log and the state the log makes.

`Tournament` is what a server holds of a tournament between entries, and what a
test makes entries into without a server. A new entry is checked and applied to
the state held in memory: the log is not replayed for it. The whole log is
replayed only when the past changes (a correction, a void), to restore the
state after an entry that failed half-way (`Kind.apply` may have half-changed
it) or that the store did not take, and once when a tournament is loaded.

An entry sent with an idempotency key is made once: sent again (the reply was
lost), it is answered as the entry it made (`landed`); other content under a key
already used is refused, naming the entry that has it.

Nothing here does I/O or reads the clock: the caller gives each entry its time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pitkit.tournaments.hall import Hall
from pitkit.tournaments.log import (
    HALL,
    NEW_LINK,
    SENT_FIELD,
    Actor,
    Entry,
    ForbiddenError,
    Kind,
    RefusedError,
    Sent,
    check_printable,
    log_line,
    replay,
)

__all__ = ["Tournament"]


class Tournament:
    """A tournament's log and state: entries are made into it one by one (`enter`),
    and a refused entry changes nothing."""

    def __init__(
        self, kind: Kind, options: Mapping[str, Any], entries: Iterable[Entry] = ()
    ) -> None:
        self.kind = kind
        self.options = dict(options)
        self.entries = list(entries)
        self.state: Any = replay(kind, self.options, self.entries)
        self.keys: dict[str, Entry] = {e.sent.key: e for e in self.entries if e.sent}
        """Each entry sent with an idempotency key, by its key."""
        self.hall = Hall(self.entries)
        """The round clock and the calls to the judge (`log.HALL` entries)."""

    @property
    def last(self) -> int:
        """The sequence number of the last entry (0: none yet)."""
        return self.entries[-1].seq if self.entries else 0

    # -- making entries ------------------------------------------------------------------

    def enter(
        self,
        actor: Actor,
        type: str,
        data: Mapping[str, Any],
        *,
        at: float,
        corrects: int | None = None,
        decided: Mapping[str, Any] | None = None,
        key: str | None = None,
    ) -> Entry:
        """Make an entry by `actor` at time `at`: check it, apply it to the state,
        add it to the log, and return it as it is to be stored. `corrects` names an
        earlier entry it replaces (type "void": strikes it). `decided`: what the
        server decided (a table's id), added to the data beside what the kind
        decides (`Kind.decide`). `key`: its idempotency key (the caller asked
        `landed` first). RefusedError or ForbiddenError: nothing changed.
        What a person gives must be printable (`check_printable`); an online table
        enters names from the roster, as they were taken."""
        if actor.role == "public":
            raise ForbiddenError("the public view cannot make entries")
        if actor.role != "table":
            check_printable(data)
        if SENT_FIELD in data:
            raise RefusedError(
                f"{SENT_FIELD!r} is the server's own field: send an entry's key as the "
                "Idempotency-Key header"
            )
        sent = None if key is None else Sent.of(key, actor, type, data, corrects)
        seq = self.last + 1
        if type == NEW_LINK:
            self._check_new_link(actor, data, corrects)
            made = {**data, **(decided or {})}
            entry = Entry(seq, at, actor.role, actor.name, type, made, sent=sent)
            self._add(entry)
            return entry
        if type in HALL:
            made = {**data, **self.hall.decide(self.state, actor, type, data, corrects)}
            entry = Entry(seq, at, actor.role, actor.name, type, made, sent=sent)
            self.hall.apply(entry)
            self._add(entry)
            return entry
        if corrects is None:
            self.kind.check(self.state, actor, type, data, False)
            decided = {**self.kind.decide(self.state, type, data), **(decided or {})}
        else:
            self._check_correction(actor, type, data, corrects)
        made = {**data, **(decided or {})}
        entry = Entry(seq, at, actor.role, actor.name, type, made, corrects, sent)
        try:
            if corrects is None:
                self._apply(entry)
            else:  # the past changes: the log is replayed with the correction in it
                self.state = replay(self.kind, self.options, [*self.entries, entry])
        except (KeyError, TypeError) as exc:
            raise RefusedError(
                f"this {type.replace('_', ' ')} entry is incomplete: {exc}"
            ) from None
        self._add(entry)
        return entry

    def landed(
        self,
        actor: Actor,
        key: str,
        type: str,
        data: Mapping[str, Any],
        corrects: int | None = None,
    ) -> Entry | None:
        """The entry made already under the idempotency key `key`, if this is that
        entry sent again (the same author, type, data and correction); None if no
        entry has the key. RefusedError if one has it with other content: a key
        names one entry, once."""
        made = self.keys.get(key)
        if made is None or made.sent is None:
            return None
        if made.sent != Sent.of(key, actor, type, data, corrects):
            raise RefusedError(
                f"the key {key!r} was sent with entry #{made.seq} ({made.type.replace('_', ' ')}"
                f" by {made.actor.label}), with other content: a key names one entry only; "
                "send this one with a new key"
            )
        return made

    def take_back(self, entry: Entry) -> None:
        """Take back the last entry made (the store did not take it): the state is
        replayed from the log without it."""
        if not self.entries or self.entries[-1] != entry:
            raise ValueError(f"entry #{entry.seq} is not the last one made")
        self.entries.pop()
        if entry.sent is not None:
            self.keys.pop(entry.sent.key, None)
        self.state = replay(self.kind, self.options, self.entries)
        self.hall = Hall(self.entries)

    def catch_up(self, entries: Iterable[Entry]) -> None:
        """Add entries stored since the last one held (by another worker), in order:
        each applied to the state, or the log replayed if one changes the past."""
        past_changed = False
        for entry in entries:
            if entry.seq != self.last + 1:
                raise ValueError(f"entry #{entry.seq} does not follow #{self.last}")
            self._add(entry)
            if entry.type in HALL:
                self.hall.apply(entry)
            elif entry.corrects is not None:
                past_changed = True
            elif entry.type != NEW_LINK and not past_changed:
                self._apply(entry)
        if past_changed:
            self.state = replay(self.kind, self.options, self.entries)

    def _add(self, entry: Entry) -> None:
        """Add an entry to the log (its key to the keys), the state apart."""
        self.entries.append(entry)
        if entry.sent is not None:
            self.keys[entry.sent.key] = entry

    def _apply(self, entry: Entry) -> None:
        """Apply one new entry to the state; if it fails, the state is restored by
        replaying the log (`Kind.apply` may have half-changed it) and the error raised."""
        try:
            self.kind.apply(self.state, entry)
        except BaseException:
            self.state = replay(self.kind, self.options, self.entries)
            raise

    def _check_correction(
        self, actor: Actor, type: str, data: Mapping[str, Any], corrects: int
    ) -> None:
        target = next((e for e in self.entries if e.seq == corrects), None)
        if target is None or target.corrects is not None:
            raise RefusedError(f"there is no entry #{corrects} to correct")
        if target.type not in self.kind.correctable:
            what = target.type.replace("_", " ")
            article = "an" if what[0] in "aeiou" else "a"
            raise RefusedError(f"{article} {what} entry cannot be corrected")
        if type not in (target.type, "void"):
            raise RefusedError(f"entry #{corrects} is corrected by another {target.type}")
        if target.role == "table" and actor.role != "manager":
            # What an online table entered is what was played there: a player's or a
            # judge's word does not stand against it, the manager's ruling does.
            raise ForbiddenError(
                f"entry #{corrects} was entered by the online table, as played there: "
                "only the manager may correct it or strike it out"
            )
        self.kind.check(self.state, actor, target.type, target.data, True)
        if type != "void":
            self.kind.check(self.state, actor, type, data, True)

    def _check_new_link(self, actor: Actor, data: Mapping[str, Any], corrects: int | None) -> None:
        if actor.role != "manager":
            raise ForbiddenError("only the manager may give someone a new link")
        if corrects is not None:
            raise RefusedError("a new link cannot be corrected: give another")
        role, name = data.get("role"), data.get("name")
        if not isinstance(role, str) or not isinstance(name, str):
            raise RefusedError('a new link names whose it is: {"role": "player", "name": "Ann"}')
        made = {self.link_made(e) for e in self.entries if e.type != NEW_LINK}
        if (role, name) not in made:
            raise RefusedError(f"there is no {role} named {name!r} at this event")

    # -- reading -------------------------------------------------------------------------

    def link_made(self, entry: Entry) -> tuple[str, str] | None:
        """The role and name of the link an entry makes (adding a player or a judge;
        a new link in place of a lost one), if it makes one."""
        if entry.corrects is not None:
            return None
        if entry.type == NEW_LINK:
            return str(entry.data["role"]), str(entry.data["name"])
        role = self.kind.links.get(entry.type)
        return None if role is None else (role, str(entry.data["name"]))

    def corrections(self) -> dict[int, list[Entry]]:
        """For each corrected entry, the entries that correct it, in order."""
        out: dict[int, list[Entry]] = {}
        for entry in self.entries:
            if entry.corrects is not None:
                out.setdefault(entry.corrects, []).append(entry)
        return out

    def log(self) -> list[dict[str, Any]]:
        """Every entry as JSON, with the entries that corrected it."""
        fixes = self.corrections()
        return [log_line(entry, fixes.get(entry.seq, ())) for entry in self.entries]

    def view(self, actor: Actor) -> dict[str, Any]:
        """Everything `actor` sees of the tournament, as JSON: its kind's public view
        and the actor's own part."""
        return {**self.kind.view(self.state), **self.kind.own(self.state, actor)}

    def csv(self) -> dict[str, str]:
        """Every sheet and the standings, as CSV texts by file name."""
        return self.kind.csv(self.state)

    def hall_view(self, actor: Actor) -> dict[str, Any]:
        """The round clock and the calls to the judge as `actor` sees them (`Hall.view`)."""
        return self.hall.view(actor, self.state)
