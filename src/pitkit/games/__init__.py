"""The registry of games: ``pitkit.games.get("pitty-pat")``, ``pitkit.games.names()``."""

from __future__ import annotations

from pitkit.core.errors import UnknownNameError
from pitkit.core.game import Game

__all__ = ["all_games", "get", "names", "register"]

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry under its name."""
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _GAMES[game.name] = game
    return game


def get(name: str) -> Game:
    """The game registered as `name`; `UnknownName` lists the names if there is none."""
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownNameError(f"no game named {name!r}; games are: {', '.join(names())}") from None


def names() -> list[str]:
    """The names of every registered game."""
    return list(_GAMES)


def all_games() -> list[Game]:
    """Every registered game."""
    return list(_GAMES.values())


def _register_builtins() -> None:
    from pitkit.games import acepit, pit, pitch, pits, pittypat

    register(pittypat.GAME)
    register(pits.GAME)
    register(acepit.GAME)
    register(pitch.GAME)
    register(pit.GAME)


_register_builtins()
