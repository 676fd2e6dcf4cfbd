"""What a real-time bot is, and how a runner asks any bot what to send.

Kept apart from `pitkit.play.realtime`: a runtime-checkable protocol must
stay a Python class, and the runner may be compiled (see docs/performance-log.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from pitkit.core.actions import Action
from pitkit.core.state import State

__all__ = ["DEFAULT_THINK", "Decide", "RealtimeBot", "decide", "decider", "think_range"]

DEFAULT_THINK = (0.5, 1.5)
"""Seconds to react, for bots that do not say (a quick human)."""


@runtime_checkable
class RealtimeBot(Protocol):
    """A bot for real-time play: it may wait, and it takes time to react."""

    think_time: tuple[float, float]
    """The range of seconds between seeing the table and its action arriving."""

    def act(self, state: State[Any], player: int) -> Action | None:
        """The action to send now, or None to wait and look again later."""
        ...


def think_range(bot: object) -> tuple[float, float]:
    """A bot's range of think times (`DEFAULT_THINK` if it has none)."""
    return bot.think_time if isinstance(bot, RealtimeBot) else DEFAULT_THINK


Decide = Callable[[State[Any], int], Action | None]


def decider(bot: object) -> Decide:
    """How to ask `bot` what it sends now: `act` for a real-time bot, else `choose`."""
    if isinstance(bot, RealtimeBot):
        return bot.act
    choose: Decide = bot.choose  # type: ignore[attr-defined]
    return choose


def decide(bot: object, state: State[Any], player: int) -> Action | None:
    """What `bot` sends now: `act` for a real-time bot, else `choose`."""
    return decider(bot)(state, player)
