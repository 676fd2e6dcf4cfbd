"""Pitty Pat, the matching game of Belize (seed ``pitty-pat.txt``, rulings Y1-Y5).

>>> from pitkit.games import pittypat
>>> match = pittypat.GAME.new_match(players=3, seed=7)
"""

from pitkit.core.game import BotInfo, Game
from pitkit.games.pittypat import belief
from pitkit.games.pittypat.actions import Draw, MatchCard, PittyPatAction
from pitkit.games.pittypat.bots import SensibleBot, current_hand
from pitkit.games.pittypat.match import PittyPatMatch
from pitkit.games.pittypat.render import describe, render
from pitkit.games.pittypat.rules import Rules
from pitkit.games.pittypat.state import Phase, PittyPatHand
from pitkit.games.pittypat.views import PittyPatView

__all__ = [
    "GAME",
    "Draw",
    "MatchCard",
    "Phase",
    "PittyPatAction",
    "PittyPatHand",
    "PittyPatMatch",
    "PittyPatView",
    "Rules",
    "SensibleBot",
    "current_hand",
    "describe",
    "render",
]

GAME = Game(
    name="pitty-pat",
    title="Pitty Pat",
    summary="Belize's matching game: pair the top of the pile until your hand is empty.",
    min_players=2,
    max_players=4,
    default_players=3,
    rules=Rules,
    match=PittyPatMatch,
    render=render,
    describe=describe,
    heuristic="sensible",
    opponent="sensible",
    belief=belief.sample_unseen,
    bots={
        "sensible": BotInfo(
            "matches when it can; discards the rank least likely to come again", SensibleBot
        )
    },
    view_type=PittyPatView,
)
