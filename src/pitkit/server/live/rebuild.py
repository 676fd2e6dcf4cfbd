"""A stored match read again: its events replayed, each checked against the stored one.

Plain CPU work: callers on the event loop run `rebuild` in a thread.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from pitkit.core.events import Event
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.server.store.storage import TableRecord

__all__ = ["Rebuilt", "rebuild"]

log = logging.getLogger("pitkit.server")


@dataclass(frozen=True)
class Rebuilt:
    """A stored match replayed: the match and where each version's events
    start in its log, or (match None) why it does not replay."""

    match: Match[Any, Any] | None
    starts: list[int]
    problem: str | None = None


def rebuild(game: Game, record: TableRecord) -> Rebuilt:
    """Replay a table's stored match (plain CPU work: callers on the event loop
    run it in a thread). Every replayed event must equal the stored one."""
    assert record.match is not None
    steps = record.match.steps
    header = {
        "game": game.name,
        "players": record.players,
        "rules": record.rules,
        "seed": record.match.seed,
    }
    stored = [e for step in steps for e in step]
    try:
        match = game.replay(header, [Event.from_json(e) for e in stored])
        replayed = json.loads(json.dumps([e.to_json() for e in match.log]))
        if replayed != stored:
            raise ValueError("the replayed events differ from the stored ones")
    except Exception as exc:  # a game's bug must not stop the server
        log.exception("table %s does not replay", record.id)
        return Rebuilt(None, [], f"the stored match does not replay: {exc}")
    starts = []
    at = 0
    for step in steps:
        starts.append(at)
        at += len(step)
    return Rebuilt(match, starts)
