"""Real-time play for games where everybody acts at once (Pit).

`runner` holds the arrival-order `Table`, the asyncio runner for bots and
people acting concurrently, and `play_virtual`, a deterministic simulation
on a virtual clock. `terminal` plays a real-time game in the terminal.
"""

from pitkit.realtime.runner import (
    Arrival,
    HandTiming,
    RealtimeBot,
    RealtimeRunner,
    Table,
    VirtualRun,
    play_virtual,
)

__all__ = [
    "Arrival",
    "HandTiming",
    "RealtimeBot",
    "RealtimeRunner",
    "Table",
    "VirtualRun",
    "play_virtual",
]
