"""What every game's words must do, checked alike for each game (`worded`)."""

from __future__ import annotations

import re
from typing import Any

from pitkit import games
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator

NAMES = ("Ada", "Bix", "Cyd", "Dee", "Eko", "Fen", "Gil")
SEAT_NUMBER = re.compile(r"seat \d")


def worded(match: Match[Any, Any], *, actors: tuple[str, ...] = ("action",)) -> set[str]:
    """Check the words of every event of `match` for every reader and a
    spectator: None or a sentence, never a seat by number, and the events in
    `actors` opening with the actor ("You" for the reader, else a name).
    The match's own events (scores, its end) are left to core's words.
    Returns the kinds of event that had words."""
    game = games.get(match.game)
    names = NAMES[: match.players]
    kinds = set()
    for reader in [*range(match.players), None]:
        say = Narrator.named(names, reader=reader)
        for event in match.log:
            seen = event.seen_by(reader)
            text = game.describe(seen, say)
            if event.type in ("scores", "match_over"):
                assert text is None and game.narrate(seen, say), event
                continue
            assert text is None or (isinstance(text, str) and text), event
            if text is None:
                continue
            kinds.add(event.type)
            assert not SEAT_NUMBER.search(text.lower()), text
            if event.type in actors and "seat" in seen:
                seat = seen["seat"]
                assert text.startswith("You" if seat == reader else names[seat]), text
    return kinds
