"""The errors of the game interface. All are ValueErrors: bad input, never a crash."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that may not be played now; the state is left unchanged."""


class BadAction(IllegalAction):
    """Text or JSON that does not spell an action of this game."""


class BadOption(ValueError):
    """A rule option that does not exist or has a bad value."""


class UnknownName(ValueError):
    """A game or bot name that is not registered."""
