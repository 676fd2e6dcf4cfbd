"""The one game interface shared by every game (see docs/api.md)."""

from pitkit.core.actions import Action, ActionCodec
from pitkit.core.chance import Chance, ReplayMismatchError
from pitkit.core.errors import BadAction as BadAction
from pitkit.core.errors import BadActionError, BadOptionError, IllegalActionError, UnknownNameError
from pitkit.core.errors import BadOption as BadOption
from pitkit.core.errors import IllegalAction as IllegalAction
from pitkit.core.errors import UnknownName as UnknownName
from pitkit.core.events import Event, read_log, write_log
from pitkit.core.game import Bot, BotFactory, BotInfo, Game
from pitkit.core.match import Match
from pitkit.core.rules import OptionInfo, RuleSet, option
from pitkit.core.state import Outcome, State

__all__ = [
    "Action",
    "ActionCodec",
    "BadActionError",
    "BadOptionError",
    "Bot",
    "BotFactory",
    "BotInfo",
    "Chance",
    "Event",
    "Game",
    "IllegalActionError",
    "Match",
    "OptionInfo",
    "Outcome",
    "ReplayMismatchError",
    "RuleSet",
    "State",
    "UnknownNameError",
    "option",
    "read_log",
    "write_log",
]
