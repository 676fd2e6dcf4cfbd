"""The one game interface shared by every game (see docs/api.md)."""

from pitkit.core.actions import Action, ActionCodec
from pitkit.core.chance import Chance, ReplayMismatch
from pitkit.core.errors import BadAction, BadOption, IllegalAction, UnknownName
from pitkit.core.events import Event, read_log, write_log
from pitkit.core.game import Bot, BotFactory, BotInfo, Game
from pitkit.core.match import Match
from pitkit.core.rules import OptionInfo, RuleSet, option
from pitkit.core.state import Outcome, State

__all__ = [
    "Action",
    "ActionCodec",
    "BadAction",
    "BadOption",
    "Bot",
    "BotFactory",
    "BotInfo",
    "Chance",
    "Event",
    "Game",
    "IllegalAction",
    "Match",
    "OptionInfo",
    "Outcome",
    "ReplayMismatch",
    "RuleSet",
    "State",
    "UnknownName",
    "option",
    "read_log",
    "write_log",
]
