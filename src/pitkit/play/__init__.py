"""The one driver of matches: turn-based and real-time play, on a virtual
clock or the wall clock, with bots' think times and Pit's sorting period.

- `play_match` plays a match of bots to its end, the way its game is played:
  in turns (`turns`), or in real time on a virtual clock (`realtime`).
- `bots` says what a bot sends now and how long it takes to react.
- `realtime` holds the arrival-order `TradingPit` (with the sorting period, T3)
  and `VirtualRun` (deterministic, for simulation and search); `wallclock`
  holds `RealtimeRunner` (the asyncio clock, for people and bots together).

The arena, the search bots' playouts, the CLI and the server all play
through these.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pitkit import games
from pitkit.core.game import Bot
from pitkit.core.match import Match
from pitkit.play.bots import DEFAULT_THINK, RealtimeBot, decide, decider, think_range
from pitkit.play.realtime import (
    Arrival,
    HandTiming,
    StalledError,
    TradingPit,
    VirtualRun,
    play_virtual,
)
from pitkit.play.turns import actor, play_turns
from pitkit.play.wallclock import RealtimeRunner

__all__ = [
    "DEFAULT_THINK",
    "Arrival",
    "HandTiming",
    "RealtimeBot",
    "RealtimeRunner",
    "StalledError",
    "TradingPit",
    "VirtualRun",
    "actor",
    "decide",
    "decider",
    "play_match",
    "play_turns",
    "play_virtual",
    "think_range",
]


def play_match(match: Match[Any, Any], bots: Sequence[Bot], seed: int | None = None) -> int:
    """Play `match` to its end with one bot a seat; return the decisions made
    (actions taken). A real-time game (`Game.realtime`) is played on a
    virtual clock with the bots' think times, any other in turns; either way
    the order of simultaneous actions comes from `seed`."""
    if games.get(match.game).realtime:
        return play_virtual(match, bots, seed)
    return play_turns(match, bots, random.Random(seed))
