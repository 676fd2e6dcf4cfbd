"""The errors of the game interface. All are ValueErrors: bad input, never a crash.

Every exception pitkit raises is named for what went wrong and ends in
``Error`` (ruff's N818 keeps it so), as the standard library's are.
"""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that may not be played now; the state is left unchanged."""


class BadActionError(IllegalActionError):
    """Text or JSON that does not spell an action of this game."""


class BadOptionError(ValueError):
    """A rule option that does not exist or has a bad value."""


class UnknownNameError(ValueError):
    """A game or bot name that is not registered."""


# The names these errors had before 0.2, kept so that code written against
# them still runs; new code uses the names above.
IllegalAction = IllegalActionError
BadAction = BadActionError
BadOption = BadOptionError
UnknownName = UnknownNameError
