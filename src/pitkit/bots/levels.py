"""Three strengths of bot for each game, easy, medium and hard: the one place that
says which bot plays at each, and why.

People choose a strength, not an algorithm: the lobby offers these three for an
empty seat, and Play now fills a table's empty seats with one of them. Each
choice rests on the arena's figures (docs/bots.md, "Easy, medium and hard"): the
medium bot beats the easy one by far, and the hard one beats the medium one where
any bot measured does. A game not named here gets the random bot, its heuristic
bot and the rollout bot that improves on it (without a heuristic: two searches).
"""

from __future__ import annotations

from dataclasses import dataclass

from pitkit.core.game import Game

__all__ = ["LEVELS", "Level", "bot_for", "levels"]

LEVELS = ("easy", "medium", "hard")
"""The strengths, weakest first."""


@dataclass(frozen=True)
class Level:
    """One strength of bot for a game: the bot that plays it, and the figure behind it."""

    level: str
    """easy, medium or hard."""
    bot: str
    """The bot's registry name (`pitkit.bots.make`)."""
    why: str
    """Why this bot, in a sentence for players: what the arena measured."""


_EASY = "plays any legal move at random"
"""Every easy bot: the medium one wins most of its matches against it."""

_CHOSEN: dict[str, tuple[tuple[str, str], tuple[str, str], tuple[str, str]]] = {
    "pitty-pat": (
        ("random", f"{_EASY}: sensible wins 70% of matches against two of it"),
        ("sensible", "matches when it can and discards what the others are least likely to want"),
        (
            "rollouts:1s",
            "plays sensible's hands out over sampled deals, a second a move: a hair better "
            "than sensible (33.6% of hands, where 33.3% is even); Pitty Pat is mostly luck",
        ),
    ),
    "pits": (
        ("random", f"{_EASY}: the heuristic wins 71% of hands against four of it"),
        ("heuristic", "plays its cheapest meld and keeps its wild cards for when they count"),
        (
            "rollouts:1s",
            "plays the heuristic's moves out over sampled deals, a second a move: it wins "
            "35% of hands against four heuristic bots (20% is even)",
        ),
    ),
    "ace-pit": (
        ("random", f"{_EASY}: greedy wins 97% of matches against it"),
        ("greedy", "responds with whatever scores most now"),
        (
            "search:1s",
            "searches a second a move over sampled deals: it wins 75% of matches against greedy",
        ),
    ),
    "pitch": (
        ("random", f"{_EASY}: the heuristic wins 92% of matches against three of it"),
        ("heuristic", "bids from its hand's strength and plays for the Jack and game"),
        (
            "search:1s",
            "searches a second a move over sampled deals: it wins 42% of matches against "
            "three heuristic bots (25% is even)",
        ),
    ),
    "pit": (
        (
            "random-trader",
            "trades at random, but calls a corner when it holds one: sensible "
            "traders won every match against it",
        ),
        ("sensible", "collects its strongest commodity and trades away the rest"),
        (
            "rollouts",
            "plays sensible's trades out over 30 sampled deals a move, reading the trade "
            "history: it wins 28% of hands against three sensible traders (25% is even)",
        ),
    ),
}


def levels(game: Game) -> dict[str, Level]:
    """The game's easy, medium and hard bots, in that order."""
    chosen = _CHOSEN.get(game.name)
    if chosen is None and game.heuristic is not None:
        chosen = (
            ("random", _EASY),
            (game.heuristic, "the game's own heuristic bot (not measured in the arena)"),
            ("rollouts", "the heuristic, improved by playing its moves out over sampled deals"),
        )
    elif chosen is None:
        chosen = (
            ("random", _EASY),
            ("search", "a short tree search over sampled deals (not measured in the arena)"),
            ("search:1s", "a tree search of a second a move over sampled deals"),
        )
    return {name: Level(name, bot, why) for name, (bot, why) in zip(LEVELS, chosen, strict=True)}


def bot_for(game: Game, level: str) -> str:
    """The bot that plays `game` at `level`; ValueError names the levels."""
    found = levels(game).get(level)
    if found is None:
        raise ValueError(f"no bot level {level[:20]!r}: the levels are {', '.join(LEVELS)}")
    return found.bot
