"""Bots for every game: generic ones, and those each game registers.

``make(game, "random", seed)`` builds a bot; ``names(game)`` lists them.
The generic search bots take a budget in their names: ``search:1s``,
``search:2000``, ``search:1s:heuristic`` (tree search, with a rollout
policy; see `pitkit.bots.search`) and ``rollouts:1s``, ``rollouts:200``
(the game's heuristic improved by rollouts; see `pitkit.bots.rollouts`).

Bots from outside pitkit go by name too (`pitkit.bots.agents`): installed
packages offer theirs through the ``pitkit.bots`` entry-point group, and
``make(game, "my_pkg.agents:MyBot", seed, imports=True)`` imports a bot
class or factory from any importable module. `pitkit.bots.policy.PolicyBot`
makes a bot of a policy, a function from an encoded observation and its
action mask to an action id.
"""

from __future__ import annotations

import functools

from pitkit.bots import agents, rollouts
from pitkit.bots.playout import RandomBot
from pitkit.bots.rollouts import RolloutBot
from pitkit.bots.search import DEFAULT_ITERATIONS, SearchBot
from pitkit.core.errors import UnknownNameError
from pitkit.core.game import Bot, BotInfo, Game

__all__ = ["GENERIC", "RandomBot", "RolloutBot", "SearchBot", "available", "make", "names"]


def _search(seed: int | None = None) -> Bot:
    return SearchBot(seed)


def _rollouts(seed: int | None = None) -> Bot:
    return RolloutBot(seed)


GENERIC: dict[str, BotInfo] = {
    "random": BotInfo("plays a uniformly random legal action", RandomBot),
    "search": BotInfo(
        f"tree search over sampled deals, checked against the game's heuristic bot "
        f"({DEFAULT_ITERATIONS} iterations a move; search:1s, search:2000:ROLLOUT-BOT)",
        _search,
    ),
    "rollouts": BotInfo(
        f"the game's heuristic, improved by playing its candidate moves out over sampled "
        f"deals ({rollouts.DEFAULT_ITERATIONS} deals a move; rollouts:1s, rollouts:200)",
        _rollouts,
    ),
}


def available(game: Game) -> dict[str, BotInfo]:
    """Every bot that can play `game`: the generic ones, the game's own, then
    those of installed packages (`pitkit.bots.agents.installed`) that play it."""
    found = {**GENERIC, **game.bots}
    for name, agent in agents.installed().items():
        if name not in found and agent.plays(game):
            found[name] = BotInfo(agent.description(), functools.partial(agent.make, game))
    return found


def names(game: Game) -> list[str]:
    """The names of the bots that can play `game`."""
    return list(available(game))


def make(game: Game, name: str, seed: int | None = None, *, imports: bool = False) -> Bot:
    """A new bot called `name` for `game`; ``search:...`` and ``rollouts:...``
    names set the search's budget.

    With `imports`, a ``module:attribute`` name (``my_pkg.agents:MyBot``)
    imports that module and makes the bot class or factory it names
    (`pitkit.bots.agents`). It runs code, so only the caller's own names
    may ask for it (the arena, the command line), never a server's players.
    """
    if name.startswith("rollouts:"):
        return RolloutBot.from_name(name, seed)
    if name.startswith("search:"):
        bot = SearchBot.from_name(name, seed)
        if bot.rollout_name not in (None, "random") and bot.rollout_name not in game.bots:
            raise UnknownNameError(
                f"no bot named {bot.rollout_name!r} for {game.name} to play the rollouts; "
                f"bots are: {', '.join(names(game))}"
            )
        return bot
    info = game.bots.get(name) or GENERIC.get(name)
    if info is not None:
        return info.make(seed)
    agent = agents.installed().get(name)
    if agent is not None:
        return agent.make(game, seed)
    if imports and agents.is_spec(name):
        return agents.imported(name).make(game, seed)
    refused = " (a module:attribute name is not taken here)" if agents.is_spec(name) else ""
    raise UnknownNameError(
        f"no bot named {name!r} for {game.name}{refused}; bots are: {', '.join(names(game))}"
    )
