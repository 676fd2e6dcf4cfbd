"""Bots from outside pitkit, as a researcher's package would hold them
(tests/arena/test_agents.py seats them by name)."""

from __future__ import annotations

import random
from typing import Any

from pitkit.core.actions import Action
from pitkit.core.game import Bot, Game
from pitkit.core.state import State


class SeededBot:
    """plays a legal move drawn from its own seed"""

    # Drawn as pitkit's random bot draws, so an arena seating it plays the very
    # matches it plays with `random` there: the seed reaches it as it reaches
    # pitkit's own bots.
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[Any], player: int) -> Action:
        """A legal move, drawn from the bot's generator."""
        actions: list[Action] = state.legal_actions(player)
        return self.rng.choice(actions)


def seeded(game: Game, seed: int | None) -> Bot:
    """a factory: the seeded bot, for any game"""
    return SeededBot(seed)


class AcePitBot(SeededBot):
    """the seeded bot, for Ace Pit alone"""

    games = ("ace-pit",)


def first_legal(observation: Any, mask: Any) -> int:
    """A policy: the lowest legal action id."""
    return next(i for i, bit in enumerate(mask) if bit)


def first_illegal(observation: Any, mask: Any) -> int:
    """A policy that ignores its mask: the lowest id it rules out."""
    return next(i for i, bit in enumerate(mask) if not bit)


def first_legal_bot(game: Game, seed: int | None) -> Bot:
    """the first legal action id, through the game's encoding"""
    from pitkit import adapters  # the optional extra: imported when such a bot is made
    from pitkit.bots.policy import PolicyBot

    name = next(n for n in adapters.names() if adapters.encoding(n).game == game.name)
    return PolicyBot(adapters.encoding(name), first_legal)


NOT_A_BOT = 42


class NoChoose:
    """A class that is not a bot."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed


def takes_nothing() -> Bot:
    """Not a factory: it takes no (game, seed)."""
    return SeededBot(0)


def makes_a_number(game: Game, seed: int | None) -> object:
    """A factory of something that is not a bot."""
    return 7
