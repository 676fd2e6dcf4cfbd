"""Bots for every game: generic ones, and those each game registers.

``make(game, "random", seed)`` builds a bot; ``names(game)`` lists them.
"""

from __future__ import annotations

import random
from typing import Any

from pitkit.core.actions import Action
from pitkit.core.errors import UnknownName
from pitkit.core.game import Bot, BotInfo, Game
from pitkit.core.state import State

__all__ = ["GENERIC", "RandomBot", "available", "make", "names"]


class RandomBot:
    """Plays a uniformly random legal action; works for any game."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[Any], player: int) -> Action:
        actions: list[Action] = state.legal_actions(player)
        return self.rng.choice(actions)


GENERIC: dict[str, BotInfo] = {
    "random": BotInfo("plays a uniformly random legal action", RandomBot),
}


def available(game: Game) -> dict[str, BotInfo]:
    """Every bot that can play `game`: the generic ones, then the game's own."""
    return {**GENERIC, **game.bots}


def names(game: Game) -> list[str]:
    """The names of the bots that can play `game`."""
    return list(available(game))


def make(game: Game, name: str, seed: int | None = None) -> Bot:
    """A new bot called `name` for `game`."""
    info = available(game).get(name)
    if info is None:
        raise UnknownName(
            f"no bot named {name!r} for {game.name}; bots are: {', '.join(names(game))}"
        )
    return info.make(seed)
