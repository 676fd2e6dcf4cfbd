"""What the search bots share: drawing worlds, playing a hand out fast, and
what its end is worth."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from pitkit import games
from pitkit.core.actions import Action
from pitkit.core.game import Bot, Game
from pitkit.core.state import Outcome, State
from pitkit.play import actor, play_turns

__all__ = [
    "RANK_WEIGHT",
    "RandomBot",
    "Sampler",
    "actor",
    "finish",
    "game_of",
    "heuristic",
    "peek",
    "policy",
    "rebased",
    "sample_unseen",
    "utilities",
]

#: How much a place is worth, in points, next to the game's own points.
RANK_WEIGHT = 0.25


class RandomBot:
    """Plays a uniformly random legal action; works for any game."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[Any], player: int) -> Action:
        actions: list[Action] = state.legal_actions(player)
        return self.rng.choice(actions)


def policy(game: Game, name: str, seed: int | None) -> Bot:
    """The bot that plays a playout: ``random``, or one of the game's own bots."""
    if name == "random":
        return RandomBot(seed)
    return game.bots[name].make(seed)


def utilities(outcome: Outcome) -> list[float]:
    """What a finished hand is worth to each seat: its points above the
    table's mean, plus `RANK_WEIGHT` a place above the mean place."""
    points, ranks = outcome.points, outcome.ranks
    n = len(points)
    mean_points = sum(points) / n
    mean_rank = sum(ranks) / n
    return [points[s] - mean_points + RANK_WEIGHT * (mean_rank - ranks[s]) for s in range(n)]


def rebased(hand: State[Any]) -> State[Any]:
    """A copy of `hand` whose log holds only the hand's own events, so that
    the copies search makes do not copy the whole match's log each time."""
    root = hand.clone()
    root.log = root.log[root.log_start :]
    root.log_start = 0
    root.set_chance(root.chance)
    return root


#: How a search draws a world: `(position, seat, rng)` to a copy of the
#: position with the cards that seat cannot see dealt somehow.
Sampler = Callable[[State[Any], int, random.Random], State[Any]]


def sample_unseen(state: State[Any], seat: int, rng: random.Random) -> State[Any]:
    """The default `Sampler`: the game's own (`Game.sample_unseen`, from its
    `belief` module), which keeps to everything `seat` knows."""
    return games.get(state.game).sample_unseen(state, seat, rng)


def peek(state: State[Any], seat: int, rng: random.Random) -> State[Any]:
    """A `Sampler` that cheats: the true position, every hand seen. For
    experiments that measure what the hidden cards are worth to a search."""
    return state.clone()


def game_of(state: State[Any]) -> Game:
    """The game `state` is a position of."""
    return games.get(state.game)


def heuristic(game: Game, seed: int | None) -> tuple[str | None, Bot | None]:
    """The game's heuristic (`Game.heuristic`): its name, and one made with
    `seed` ((None, None) if the game has none). A search bot gives it its own
    seed, so that it proposes what the heuristic bot of that seed would play:
    a duplicate arena then replays the heuristic's very game wherever the
    search keeps to its proposal."""
    name = game.heuristic
    return name, (game.bots[name].make(seed) if name else None)


def finish(state: State[Any], bots: Sequence[Any], rng: random.Random) -> None:
    """Play `state` to its end fast (`play_turns` unchecked), each seat by its
    own bot; `rng` picks who acts when several seats may."""
    play_turns(state, bots, rng, checked=False)
