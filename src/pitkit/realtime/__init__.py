"""Real-time play for games where everybody acts at once (Pit).

`bot` says what a real-time bot is (`RealtimeBot`: it may wait, and it
takes time to react). `runner` holds the arrival-order `Table`, the asyncio
runner for bots and people acting concurrently, and `play_virtual`, a
deterministic simulation on a virtual clock. `terminal` plays a real-time game in the terminal.
"""

from pitkit.realtime.bot import RealtimeBot
from pitkit.realtime.runner import (
    Arrival,
    HandTiming,
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
