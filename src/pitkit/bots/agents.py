"""Bots from outside pitkit, by name: installed packages' entry points, and
``module:attribute`` names imported on demand (`pitkit.bots.make` resolves both).

What such a name points to is one of:

- a **bot class**, a class with a ``choose(state, seat)`` method: built as
  ``cls(seed)``, as pitkit's own bots are;
- a **factory**, any other callable: called as ``factory(game, seed)``, it
  returns a bot (the `pitkit.core.Game` lets one factory serve several games).

The seed is the one the arena gives the seat, as for pitkit's own bots, so
a bot that draws only from it plays the same on any number of workers. An
optional ``games`` attribute (game names, as ``pitkit games`` lists them)
says which games it plays; without one it is offered for every game. The
first line of its docstring describes it in ``pitkit bots``.

**Installed bots** are the entry points of the ``pitkit.bots`` group, which
an installed package declares in its pyproject.toml::

    [project.entry-points."pitkit.bots"]
    my-agent = "my_pkg.agents:MyAgent"

Once the package is installed, ``my-agent`` is a bot name like any other:
``pitkit bots`` lists it, marked with its package, and every bot name
argument takes it. pitkit's own names come first when names clash.

**A module:attribute name** (``my_pkg.agents:MyAgent``) names an object of
any importable module, without installing anything. It imports code, so
`pitkit.bots.make` takes it only when its caller asks (``imports=True``:
the arena, ``pitkit simulate``, ``pitkit play`` of a turn-based game),
never from a server's players. Every process that plays a match imports
the module itself, the arena's worker processes and Ray's workers too, so
the module must be importable there: installed, or in a folder on
``PYTHONPATH``. The process pool's workers get their parent's ``sys.path``;
Ray's get the folder the run was started from; the ``pitkit`` command looks
in that folder too.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
import re
import sys
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from pitkit.core.errors import UnknownNameError
from pitkit.core.game import Bot, Game

__all__ = ["GROUP", "Agent", "imported", "installed", "is_spec"]

GROUP = "pitkit.bots"
"""The entry-point group of installed packages' bots."""

_DOTTED = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_SPEC = re.compile(rf"{_DOTTED}:{_DOTTED}\Z")

WHERE = "the module must be importable wherever matches are played: installed, or on PYTHONPATH"


def is_spec(name: str) -> bool:
    """Whether `name` has the form ``module:attribute`` (dotted names both)."""
    return _SPEC.match(name) is not None


@dataclass(frozen=True)
class Agent:
    """A bot found outside pitkit's registry, as its name found it."""

    name: str
    """The name it goes by: the entry point's, or the ``module:attribute`` spec."""
    origin: str
    """Where it comes from, in words: ``package my-agents``, ``module my_pkg.agents``."""
    target: object | None
    """The bot class or factory; None if it could not be loaded."""
    error: str | None = None
    """Why it could not be loaded."""

    def games(self) -> Collection[str] | None:
        """The games it declares it plays (None: any)."""
        declared = getattr(self.target, "games", None)
        return None if declared is None else tuple(declared)

    def plays(self, game: Game) -> bool:
        """Whether it is offered for `game` (one that failed to load is, to say why)."""
        declared = self.games()
        return declared is None or game.name in declared

    def description(self) -> str:
        """One line for ``pitkit bots``: its docstring's first line and its origin."""
        if self.target is None:
            return f"could not be loaded ({self.error}); from {self.origin}"
        doc = (getattr(self.target, "__doc__", None) or "").strip()
        first = doc.splitlines()[0] if doc else "a bot"
        return f"{first} (from {self.origin})"

    def make(self, game: Game, seed: int | None) -> Bot:
        """A new bot for `game`, seeded with `seed`."""
        label = f"the bot {self.name!r} ({self.origin})"
        if self.target is None:
            raise UnknownNameError(f"{label} could not be loaded: {self.error}")
        if not self.plays(game):
            raise UnknownNameError(
                f"{label} plays {', '.join(self.games() or ())}, not {game.name}"
            )
        target: Any = self.target
        bot: Any
        if isinstance(target, type):
            if not callable(getattr(target, "choose", None)):
                raise UnknownNameError(f"{label} is a class with no choose method: not a bot")
            bot = _call(label, target, seed)
        elif callable(target):
            bot = _call(label, target, game, seed)
        else:
            raise UnknownNameError(
                f"{label} is a {type(target).__name__}: neither a bot class "
                "nor a factory (game, seed) -> bot"
            )
        if not callable(getattr(bot, "choose", None)):
            raise UnknownNameError(
                f"{label} made a {type(bot).__name__}, which has no choose method: not a bot"
            )
        made: Bot = bot
        return made


def _call(label: str, target: Any, *args: object) -> Any:
    """`target(*args)`, after checking that its signature takes them, so that
    a wrong kind of object is named as such and not as a TypeError inside it."""
    try:
        inspect.signature(target).bind(*args)
    except TypeError:
        how = "a bot class as cls(seed)" if len(args) == 1 else "a factory as f(game, seed)"
        raise UnknownNameError(f"{label} cannot be called as {how}") from None
    except ValueError:  # no signature to read (a builtin): let the call say
        pass
    return target(*args)


def installed() -> dict[str, Agent]:
    """The bots of the ``pitkit.bots`` entry points, by name (the first of a
    name on ``sys.path`` wins, as imports do). Each is loaded once; one that
    fails to load is listed with the reason."""
    return _installed(tuple(sys.path))


# Keyed by sys.path, so that a folder added to it later (a plugin's, a test's) is searched.
@functools.lru_cache(maxsize=8)
def _installed(path: tuple[str, ...]) -> dict[str, Agent]:
    found: dict[str, Agent] = {}
    for entry in importlib.metadata.entry_points(group=GROUP):
        if entry.name in found:
            continue
        dist = getattr(entry, "dist", None)
        origin = f"package {dist.name}" if dist is not None else f"entry point {entry.value}"
        try:
            target = entry.load()
        except Exception as exc:  # someone else's package: report it, do not fail the listing
            found[entry.name] = Agent(entry.name, origin, None, f"{type(exc).__name__}: {exc}")
        else:
            found[entry.name] = Agent(entry.name, origin, target)
    return found


_imported: dict[str, Agent] = {}


def imported(spec: str) -> Agent:
    """The object a ``module:attribute`` spec names, its module imported now
    (once a process); `UnknownNameError` if there is none."""
    agent = _imported.get(spec)
    if agent is not None:
        return agent
    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module_name + ".").startswith(exc.name + "."):
            raise UnknownNameError(f"no bot {spec!r}: {exc} ({WHERE})") from None
        raise UnknownNameError(f"no bot {spec!r}: importing {module_name} failed: {exc}") from None
    except Exception as exc:  # the user's module failed as it was imported
        raise UnknownNameError(
            f"no bot {spec!r}: importing {module_name} failed: {type(exc).__name__}: {exc}"
        ) from None
    target: object = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise UnknownNameError(f"no bot {spec!r}: {module_name} has no {attribute}")
        target = getattr(target, part)
    agent = _imported[spec] = Agent(spec, f"module {module_name}", target)
    return agent
