"""Replays of finished matches, for the page to step through: the stored log
played again, each version's events in words and the view after them, as one
seat saw the match or all-seeing.

A seat's replay is what that seat saw at the table, step by step: its own
`Match.view(seat)` and each event as `Event.seen_by(seat)`. The all-seeing
replay is the spectator's view with every seat's hand added (``hands``); it
is served only once the match is over, as the full log is. Plain CPU work:
callers on the event loop run `replay` in a thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pitkit.core.events import Event
from pitkit.core.game import Game
from pitkit.core.narrate import Narrator
from pitkit.server.live.messages import named

__all__ = ["replay"]


#: The events after which a match's record (`Match.record`) may differ: a hand
#: scored (with the next deal) or a judge's ruling. Between them it stays as it was.
_RECORD_CHANGES = frozenset({"scores", "ruling"})


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
        if version == 0 or any(e["type"] in _RECORD_CHANGES for e in step):
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
