"""What the search bots share: playing a hand out fast, and what its end is worth."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from pitkit.core.actions import Action
from pitkit.core.game import Bot, Game
from pitkit.core.match import Match
from pitkit.core.state import Outcome, State

__all__ = [
    "RANK_WEIGHT",
    "Sampler",
    "actor",
    "current_hand",
    "finish",
    "game_of",
    "heuristic",
    "heuristic_name",
    "peek",
    "rebased",
    "sample_unseen",
    "step",
    "utilities",
]

#: How much a place is worth, in points, next to the game's own points.
RANK_WEIGHT = 0.25


def current_hand(state: State[Any]) -> State[Any]:
    """The hand being played in `state` (itself, unless it is a match)."""
    return state.hand if isinstance(state, Match) else state


def utilities(outcome: Outcome) -> list[float]:
    """What a finished hand is worth to each seat: its points above the
    table's mean, plus `RANK_WEIGHT` a place above the mean place."""
    points, ranks = outcome.points, outcome.ranks
    n = len(points)
    mean_points = sum(points) / n
    mean_rank = sum(ranks) / n
    return [points[s] - mean_points + RANK_WEIGHT * (mean_rank - ranks[s]) for s in range(n)]


def actor(state: State[Any], rng: random.Random) -> int:
    """Who acts next: the one seat to act, or one drawn when several may act at once."""
    actors = state.to_act
    if len(actors) == 1:
        for seat in actors:
            return seat
    return rng.choice(sorted(actors))


def step(state: State[Any], seat: int, action: Action) -> None:
    """`State.apply` for an action known to be legal: the same log entry and
    effect, without parsing it or checking it again."""
    state.log.append(state._action_event(seat, action))
    state._apply(seat, action)


def rebased(hand: State[Any]) -> State[Any]:
    """A copy of `hand` whose log holds only the hand's own events, so that
    the copies search makes do not copy the whole match's log each time."""
    root = hand.clone()
    root.log = root.log[root.log_start :]
    root.log_start = 0
    root._set_chance(root.chance)
    return root


#: How a search draws a world: `(position, seat, rng)` to a copy of the
#: position with the cards that seat cannot see dealt somehow.
Sampler = Callable[[State[Any], int, random.Random], State[Any]]


def sample_unseen(state: State[Any], seat: int, rng: random.Random) -> State[Any]:
    """The default `Sampler`: the game's own (`State.sample_unseen`), which
    keeps to everything `seat` knows."""
    return state.sample_unseen(seat, rng)


def peek(state: State[Any], seat: int, rng: random.Random) -> State[Any]:
    """A `Sampler` that cheats: the true position, every hand seen. For
    experiments that measure what the hidden cards are worth to a search."""
    return state.clone()


def game_of(state: State[Any]) -> Game:
    """The game `state` is a position of."""
    from pitkit import games

    return games.get(state.game)


def heuristic(game: Game, seed: int | None) -> tuple[str | None, Bot | None]:
    """The game's own first bot, its heuristic: its name, and one made with
    `seed` ((None, None) if the game has none). A search bot gives it its own
    seed, so that it proposes what the heuristic bot of that seed would play:
    a duplicate arena then replays the heuristic's very game wherever the
    search keeps to its proposal."""
    from pitkit.bots import make

    name = heuristic_name(game)
    return name, (make(game, name, seed) if name else None)


def heuristic_name(game: Game) -> str | None:
    """The registry name of `game`'s heuristic: its first bot (None if it has none)."""
    return next(iter(game.bots), None)


def finish(state: State[Any], bots: Sequence[Any], rng: random.Random) -> None:
    """Play `state` to its end, each seat by its own bot (bots may keep notes
    on their seat's play, so no bot plays two seats); `rng` picks who acts
    when several seats may."""
    while not state.is_over:
        seat = actor(state, rng)
        step(state, seat, bots[seat].choose(state, seat))
