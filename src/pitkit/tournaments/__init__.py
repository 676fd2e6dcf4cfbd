"""Tournaments: the seed events' rules as a pure log of entries.

A tournament is its kind, its options and an append-only log of entries, each
made by someone through a link (`log.py`); `Tournament` holds one in memory
and makes its entries (`tournament.py`). Its kinds are the two tournaments
the seeds describe: the BGA's continuous Pits tournament (`pits.py`) and the
Darrtown Pitch tournament (`pitch/`), each with its check-in desk for the hall
(`checkin.py`). Nothing here does I/O: the server
stores the log and serves the views (`pitkit.server.tournaments`).
"""

from __future__ import annotations

from pitkit.tournaments import pitch, pits
from pitkit.tournaments.log import Kind
from pitkit.tournaments.tournament import Tournament

__all__ = ["KINDS", "Tournament"]

KINDS: dict[str, Kind] = {kind.name: kind for kind in (pits.KIND, pitch.KIND)}
"""Every kind of tournament, by the name its URLs and records use."""
