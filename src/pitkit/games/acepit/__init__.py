"""Ace Pit, a two-player scoring trick game (seed ``ace-pit.txt``, rulings A1-A6).

>>> from pitkit.games import acepit
>>> str(acepit.score_response("8H", "7H 10H"))
'The Pin, Double Flush, Spoon — 80'
>>> match = acepit.GAME.new_match(seed=7)
"""

from pitkit.core.game import BotInfo, Game
from pitkit.games.acepit import belief
from pitkit.games.acepit.actions import AcePitAction, Lead, Respond
from pitkit.games.acepit.bots import GreedyBot, LookaheadBot, current_hand
from pitkit.games.acepit.judge import judge
from pitkit.games.acepit.match import AcePitMatch
from pitkit.games.acepit.render import describe, render
from pitkit.games.acepit.rules import Rules
from pitkit.games.acepit.scoring import Part, Parts, Score, score_response
from pitkit.games.acepit.state import AcePitHand, Phase, Trick
from pitkit.games.acepit.views import AcePitView

__all__ = [
    "GAME",
    "AcePitAction",
    "AcePitHand",
    "AcePitMatch",
    "AcePitView",
    "GreedyBot",
    "Lead",
    "LookaheadBot",
    "Part",
    "Parts",
    "Phase",
    "Respond",
    "Rules",
    "Score",
    "Trick",
    "current_hand",
    "describe",
    "judge",
    "render",
    "score_response",
]

GAME = Game(
    name="ace-pit",
    title="Ace Pit",
    summary="Two players answer each led card with Spoons, Pins, Forks and Aces for points.",
    min_players=2,
    max_players=2,
    default_players=2,
    rules=Rules,
    match=AcePitMatch,
    render=render,
    describe=describe,
    heuristic="greedy",
    opponent="greedy",
    belief=belief.sample_unseen,
    bots={
        "greedy": BotInfo(
            "plays the response that scores most now; leads what the opponent can use least",
            GreedyBot,
        ),
        "lookahead": BotInfo(
            "plays each move out over sampled deals of the unseen cards; picks the best margin",
            LookaheadBot,
        ),
    },
    judge=judge,
    view_type=AcePitView,
)
