"""Pits, BGA rules: a climbing game for five with wild Jokers and twos
(seed ``pits-bga.txt``, rulings P1-P10).

>>> from pitkit.games import pits
>>> pits.read_meld("A A 2".replace("A A", "AS AH").replace("2", "2C")).describe()
'a set of 3 aces (1 wild: A)'
>>> pits.beats("AS AH 2C", "AD 2S 2H")
True
"""

from pitkit.core.game import BotInfo, Game
from pitkit.games.pits import belief
from pitkit.games.pits.actions import Give, Pass, PitsAction, Play, Take, reading_name
from pitkit.games.pits.bots import HeuristicBot, current_hand
from pitkit.games.pits.judge import judge
from pitkit.games.pits.match import PitsMatch
from pitkit.games.pits.melds import (
    KINDS,
    Kind,
    Meld,
    NotAMeldError,
    beats,
    legal_plays,
    pits_rank,
    read_as,
    read_meld,
    readings,
)
from pitkit.games.pits.render import describe, render
from pitkit.games.pits.rules import Rules
from pitkit.games.pits.sheet import ScoreSheet, SheetError
from pitkit.games.pits.state import Phase, PitsHand
from pitkit.games.pits.views import PitsView

__all__ = [
    "GAME",
    "KINDS",
    "Give",
    "HeuristicBot",
    "Kind",
    "Meld",
    "NotAMeldError",
    "Pass",
    "Phase",
    "PitsAction",
    "PitsHand",
    "PitsMatch",
    "PitsView",
    "Play",
    "Rules",
    "ScoreSheet",
    "SheetError",
    "Take",
    "beats",
    "current_hand",
    "describe",
    "judge",
    "legal_plays",
    "pits_rank",
    "read_as",
    "read_meld",
    "reading_name",
    "readings",
    "render",
]

GAME = Game(
    name="pits",
    title="Pits",
    summary="BGA rules: climb with singles, sets, runs and runs of sets; Jokers and twos are wild.",
    min_players=5,
    max_players=5,
    default_players=5,
    rules=Rules,
    match=PitsMatch,
    render=render,
    describe=describe,
    heuristic="heuristic",
    opponent="heuristic",
    belief=belief.sample_unseen,
    bots={
        "heuristic": BotInfo("keeps the lead, keeps pairs together, saves wild cards", HeuristicBot)
    },
    judge=judge,
    view_type=PitsView,
)
