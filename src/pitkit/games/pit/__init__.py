"""Pit, the real-time commodity trading game (seed ``pit-trading.txt``,
rulings T1-T6).

Everybody trades at once: `to_act` is every seat while the pit is open, and
the state takes actions one at a time in arrival order. The real-time
runner in `pitkit.play` plays it with think times and a clock.

>>> from pitkit.games import pit
>>> match = pit.GAME.new_match(players=4, seed=7)
"""

from pitkit.core.game import BotInfo, Game
from pitkit.games.pit import belief
from pitkit.games.pit.actions import Accept, Corner, Offer, Open, PitAction, Withdraw
from pitkit.games.pit.bots import RandomTrader, SensibleTrader, StrongTrader, current_hand
from pitkit.games.pit.market import Lot, OpenOffer, Trade
from pitkit.games.pit.match import PitMatch
from pitkit.games.pit.render import describe, render
from pitkit.games.pit.rules import Rules
from pitkit.games.pit.state import PENALTY, SET_SIZE, Phase, PitHand
from pitkit.games.pit.views import PitView

__all__ = [
    "GAME",
    "PENALTY",
    "SET_SIZE",
    "Accept",
    "Corner",
    "Lot",
    "Offer",
    "Open",
    "OpenOffer",
    "Phase",
    "PitAction",
    "PitHand",
    "PitMatch",
    "PitView",
    "RandomTrader",
    "Rules",
    "SensibleTrader",
    "StrongTrader",
    "Trade",
    "Withdraw",
    "current_hand",
    "describe",
    "render",
]

GAME = Game(
    name="pit",
    title="Pit",
    summary="Corner the market: simultaneous blind trading in real time, to 500 points.",
    min_players=3,
    max_players=7,
    default_players=5,
    rules=Rules,
    match=PitMatch,
    render=render,
    describe=describe,
    heuristic="sensible",
    opponent="sensible",
    belief=belief.sample_unseen,
    short_match={"hand_limit": 1},
    # The first is the game's reference heuristic (a search bot's guide);
    # the last is the default opponent of `pitkit play`.
    bots={
        "sensible": BotInfo(
            "collects what it holds most of, offers its weakest cards, dumps the Bear",
            SensibleTrader,
        ),
        "random-trader": BotInfo(
            "trades at random among legal actions, but always calls a corner it holds",
            RandomTrader,
        ),
        "strong": BotInfo(
            "sensible, and reads the trade history to guess others' collections",
            StrongTrader,
        ),
    },
    realtime=True,
    view_type=PitView,
)
