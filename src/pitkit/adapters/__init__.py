"""pitkit's games as PettingZoo, Gymnasium and OpenSpiel environments
(the optional extra ``pitkit[adapters]``; docs/adapters.md).

>>> from pitkit import adapters
>>> env = adapters.make("pitkit/ace_pit-v0", short=True)
>>> env.reset(seed=7)

`names()` lists the environments; `encoding(name)` gives the observation
and action-id layout an environment uses. Importing this package registers
the five with PettingZoo's registry (`register`), so that
``pettingzoo.make("aec", "pitkit/ace_pit-v0", short=True)`` (and
``pettingzoo.make("parallel", "pitkit/pit-v0")``) make them too.
"""

from __future__ import annotations

from typing import Any

import pettingzoo

from pitkit.adapters.acepit import AcePitEncoding
from pitkit.adapters.encoding import Encoding
from pitkit.adapters.envs import PitkitAEC, PitkitParallel
from pitkit.adapters.pit import PitEncoding
from pitkit.adapters.pitch import PitchEncoding
from pitkit.adapters.pits import PitsEncoding
from pitkit.adapters.pittypat import PittyPatEncoding
from pitkit.core.errors import UnknownNameError

__all__ = [
    "ENCODINGS",
    "Encoding",
    "PitkitAEC",
    "PitkitParallel",
    "encoding",
    "kind",
    "make",
    "names",
    "register",
]

ENCODINGS: dict[str, type[Encoding]] = {
    e.env_name: e
    for e in (PitsEncoding, PitEncoding, AcePitEncoding, PittyPatEncoding, PitchEncoding)
}
"""Each environment's encoding, by the environment's name."""


def names() -> list[str]:
    """The names of every environment, e.g. ``pitkit/ace_pit-v0``."""
    return list(ENCODINGS)


def encoding(name: str) -> type[Encoding]:
    """The encoding of environment `name`."""
    try:
        return ENCODINGS[name]
    except KeyError:
        raise UnknownNameError(
            f"no environment named {name!r}; environments are: {', '.join(names())}"
        ) from None


def kind(name: str) -> str:
    """PettingZoo's kind of environment `name` is: ``"parallel"`` for
    real-time Pit, ``"aec"`` for a turn-based game."""
    from pitkit import games

    return "parallel" if games.get(encoding(name).game).realtime else "aec"


def make(name: str, **kwargs: Any) -> PitkitAEC | PitkitParallel:
    """A new PettingZoo environment: AEC for a turn-based game, Parallel for
    real-time Pit. Keywords: ``players``, ``rules`` (a dict of rule options),
    ``short=True`` (one hand), ``render_mode="ansi"``, and ``max_steps`` (AEC)
    or ``max_ticks`` (Parallel) to truncate."""
    chosen = encoding(name)
    if kind(name) == "parallel":
        return PitkitParallel(chosen, **kwargs)
    return PitkitAEC(chosen, **kwargs)


def register() -> list[str]:
    """Register every environment with PettingZoo (`pettingzoo.make`), each
    in the registry of its `kind`, once; their names."""
    for name in names():
        registry = (
            pettingzoo.parallel_registry if kind(name) == "parallel" else pettingzoo.aec_registry
        )
        if name not in registry:
            pettingzoo.register(kind(name), name, entry_point=make, kwargs={"name": name})
    return names()


register()
