"""Pitch, as played at the Darrtown Bicentennial Pitch Card Tournament
(seed ``pitch.txt``, rulings C1-C11): bid, pitch trump, take high, low, Jack
and game. Both columns of the rules: informal and tournament.

>>> from pitkit.games import pitch
>>> match = pitch.GAME.new_match(players=4, rules=["target=15"], seed=7)
>>> pitch.score_hand(["1:KS 0:2S"], pitcher=1, bid=2).deltas
(1, 2)
"""

from __future__ import annotations

from pitkit.core.game import BotInfo, Game
from pitkit.games.pitch import belief
from pitkit.games.pitch.actions import Bid, Pass, PitchAction, Play, Run, Sell, Steal, Take
from pitkit.games.pitch.bots import HeuristicBot, LookaheadBot, current_hand, hand_strength
from pitkit.games.pitch.judge import judge
from pitkit.games.pitch.match import PitchMatch
from pitkit.games.pitch.render import describe, render
from pitkit.games.pitch.rules import Rules, team_seats
from pitkit.games.pitch.scoring import (
    GAME_POINTS,
    Award,
    HandResult,
    Trick,
    card_points,
    parse_trick,
    score_hand,
    trick_winner,
)
from pitkit.games.pitch.sheet import (
    Confirm,
    Entry,
    GoRound,
    Misdeal,
    Misplay,
    Ruling,
    ScoreSheet,
    cut_for_deal,
)
from pitkit.games.pitch.state import Phase, PitchHand
from pitkit.games.pitch.views import PitchView

__all__ = [
    "GAME",
    "GAME_POINTS",
    "Award",
    "Bid",
    "Confirm",
    "Entry",
    "GoRound",
    "HandResult",
    "HeuristicBot",
    "LookaheadBot",
    "Misdeal",
    "Misplay",
    "Pass",
    "Phase",
    "PitchAction",
    "PitchHand",
    "PitchMatch",
    "PitchView",
    "Play",
    "Rules",
    "Ruling",
    "Run",
    "ScoreSheet",
    "Sell",
    "Steal",
    "Take",
    "Trick",
    "card_points",
    "current_hand",
    "cut_for_deal",
    "describe",
    "hand_strength",
    "judge",
    "parse_trick",
    "render",
    "score_hand",
    "team_seats",
    "trick_winner",
]


GAME = Game(
    name="pitch",
    title="Pitch",
    summary="Bid, pitch trump, and take high, low, Jack and game (Darrtown tournament rules).",
    min_players=2,
    max_players=6,
    default_players=4,
    rules=Rules,
    match=PitchMatch,
    render=render,
    describe=describe,
    heuristic="heuristic",
    opponent="lookahead",
    belief=belief.sample_unseen,
    bots={
        "heuristic": BotInfo(
            "bids from its hand's strength; plays to capture the Jack and game points",
            HeuristicBot,
        ),
        "lookahead": BotInfo(
            "samples the unseen cards and plays each choice out with the heuristic bot",
            LookaheadBot,
        ),
    },
    judge=judge,
    view_type=PitchView,
)
