"""Replays and logs of finished matches: the stored log played again for the page,
built once each, away from the tables, and kept gzipped.

A seat's replay is what that seat saw at the table, step by step: its own
`Match.view(seat)` and each event as `Event.seen_by(seat)`. The all-seeing
replay is the spectator's view with every seat's hand added (``hands``); it
is served only once the match is over, as the full log is.

Building one is seconds of CPU for a long match, so it never runs on the event
loop nor in a thread of the server (which would hold the interpreter's lock
while the tables wait): `Replays` builds each in a worker process at a lower
priority, once, and keeps what it built gzipped, the least recently asked for
dropped beyond a total size. A stranger cycling through more replays than are
kept costs the server one store read a build, and the builds wait their turn.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gzip
import json
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pitkit import games
from pitkit.core.events import Event
from pitkit.core.game import Game
from pitkit.core.match import RECORD_CHANGES
from pitkit.core.narrate import Narrator
from pitkit.server.live.messages import named
from pitkit.server.live.workers import worker_context
from pitkit.server.store.storage import json_text

__all__ = [
    "BusyError",
    "Kept",
    "Played",
    "Replays",
    "match_log",
    "replay",
]


def replay(
    game: Game,
    header: Mapping[str, Any],
    steps: Sequence[Sequence[Mapping[str, Any]]],
    seat: int | None,
    labels: Sequence[str],
) -> list[dict[str, Any]]:
    """Each version of a stored match (`steps`: its events by version) as `seat`
    saw it (None: all-seeing): ``version``, ``events`` (as the table's history
    words them, seats called by `labels`) and ``view`` (without the history and
    the legal actions: a replay is watched, not played). A view leaves out the
    match's record (``match``: scores, sheet, results) unless it changed since
    the step before: a long Pitch sheet would otherwise be sent at every move.

    Raises ValueError when the log does not replay to as many versions as stored."""
    say = Narrator.named(list(labels), seat)
    events = [Event.from_json(e) for e in (e for step in steps for e in step)]
    states = game.replay_steps(header, events)
    out: list[dict[str, Any]] = []
    at = 0
    # `replay_steps` yields the match before each action (or replayed ruling) and at
    # the end, so its k-th yield is the match as of version k. It yields one match,
    # changed in place: each view is taken before asking for the next.
    for version, (step, match) in enumerate(zip(steps, states, strict=False)):
        hand = match.hand  # `Match.view` is its hand's view and the match's record
        view = hand.view(seat)
        if seat is None:
            view["hands"] = [hand.view(s).get("hand", []) for s in range(match.players)]
        view.pop("history", None)
        view.pop("legal", None)
        if version == 0 or any(e["type"] in RECORD_CHANGES for e in step):
            view["match"] = match.record()
        view = named(view, say)
        worded = [
            {**seen, "text": game.narrate(seen, say)}
            for seen in (e.seen_by(seat) for e in events[at : at + len(step)])
        ]
        at += len(step)
        out.append({"version": version, "events": worded, "view": view})
    if len(out) != len(steps) or next(states, None) is not None:
        raise ValueError("the stored match does not replay version by version")
    return out


def match_log(header: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
    """A match's log as JSON lines (as `pitkit replay` reads it): the header, then
    each event in full."""
    lines = [json.dumps(header)] + [json.dumps(Event.from_json(e).to_json()) for e in events]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class Played:
    """A finished match as stored, and what to build of it (`what`): "log", its
    log; "all", its all-seeing replay; a seat's number, its replay as that seat saw it."""

    game: str
    header: Mapping[str, Any]
    steps: Sequence[Sequence[Mapping[str, Any]]]
    labels: Sequence[str]
    number: int
    what: str


def build(played: Played) -> bytes:
    """What `played` asks for, gzipped: the log's JSON lines, or the replay as JSON
    (``match``, ``seat``, ``labels``, ``steps``). Runs in a worker process."""
    if played.what == "log":
        text = match_log(played.header, [e for step in played.steps for e in step])
    else:
        seat = None if played.what == "all" else int(played.what)
        steps = replay(games.get(played.game), played.header, played.steps, seat, played.labels)
        shown = {"match": played.number, "seat": seat, "labels": list(played.labels)}
        text = json_text({**shown, "steps": steps})
    # mtime 0: the same match gzips to the same bytes, whichever worker built it.
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)


Key = tuple[str, int, str]
"""What is kept: a table's id, a match's number, and what of it (`Played.what`)."""


class Kept:
    """Gzipped bytes by key, at most `most` bytes in all: the least recently asked
    for go first."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.size = 0
        self._kept: OrderedDict[Key, bytes] = OrderedDict()

    def get(self, key: Key) -> bytes | None:
        """The bytes kept for `key` (now the most recently asked for), or None."""
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: Key, data: bytes) -> None:
        """Keep `data` for `key`, dropping the least recently asked for beyond the
        bound (`data` alone larger than it is not kept)."""
        self.size -= len(self._kept.pop(key, b""))
        if len(data) > self.most:
            return
        self._kept[key] = data
        self.size += len(data)
        while self.size > self.most:
            _key, dropped = self._kept.popitem(last=False)
            self.size -= len(dropped)

    def __len__(self) -> int:
        """How many are kept."""
        return len(self._kept)


class BusyError(RuntimeError):
    """Too many replays are being built at once: try again in a moment."""


class Replays:
    """Finished matches' replays and logs, each built once in a worker process
    (`build`) and kept gzipped (`Kept`); asked for again while it is being built,
    it is waited for, not built twice."""

    def __init__(self, most_bytes: int, waiting: int) -> None:
        self.kept = Kept(most_bytes)
        self.waiting = waiting
        self.built = 0
        """Replays and logs built so far (a count for tests and metrics)."""
        self._building: dict[Key, asyncio.Future[bytes]] = {}
        self._workers: concurrent.futures.ProcessPoolExecutor | None = None

    async def get(self, key: Key, read: Callable[[], Awaitable[Played]]) -> bytes:
        """The gzipped bytes for `key`: kept, or built from what `read` returns (its
        errors are raised, nothing kept). BusyError: too many builds under way."""
        found = self.kept.get(key)
        if found is not None:
            return found
        building = self._building.get(key)
        if building is None:
            if len(self._building) >= self.waiting:
                raise BusyError("many replays are being prepared; try again in a moment")
            building = asyncio.ensure_future(self._build(key, read))
            self._building[key] = building
            building.add_done_callback(lambda done: self._done(key, done))
        # Shielded: one asker leaving does not cancel the build the others wait for.
        return await asyncio.shield(building)

    def _done(self, key: Key, building: asyncio.Future[bytes]) -> None:
        self._building.pop(key, None)
        if not building.cancelled():
            building.exception()  # each asker was given it (if none is left: dropped)

    async def _build(self, key: Key, read: Callable[[], Awaitable[Played]]) -> bytes:
        played = await read()
        data = await self._in_worker(played)
        self.built += 1
        self.kept.put(key, data)
        return data

    async def _in_worker(self, played: Played) -> bytes:
        """`build(played)` in the worker process (started at the first build, and again
        if it dies)."""
        workers = self._workers
        if workers is None:
            workers = self._workers = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=worker_context(), initializer=_lower_priority
            )
        try:
            return await asyncio.wrap_future(workers.submit(build, played))
        except concurrent.futures.process.BrokenProcessPool:
            if self._workers is workers:
                self._workers = None
            raise BusyError("the replay could not be prepared; try again") from None

    def close(self) -> None:
        """Let the worker go (server shutdown), without waiting: a build under way has
        nobody left to serve. Waiting would hold up the shutdown while a worker at low
        priority on a busy machine finishes its start-up only to exit."""
        workers, self._workers = self._workers, None
        if workers is not None:
            workers.shutdown(wait=False, cancel_futures=True)


def _lower_priority() -> None:
    """In the worker: yield the CPU to the server, whose players are waiting."""
    with contextlib.suppress(OSError):
        os.nice(10)
