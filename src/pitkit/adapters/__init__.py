"""pitkit's games as PettingZoo, Gymnasium and OpenSpiel environments
(the optional extra ``pitkit[adapters]``; docs/adapters.md).

>>> from pitkit import adapters
>>> env = adapters.make("pitkit/ace_pit-v0", short=True)
>>> env.reset(seed=7)

`names()` lists the environments; `encoding(name)` gives the observation
and action-id layout an environment uses.
"""

from __future__ import annotations

from typing import Any

from pitkit.adapters.acepit import AcePitEncoding
from pitkit.adapters.encoding import Encoding
from pitkit.adapters.envs import PitkitAEC, PitkitParallel
from pitkit.adapters.pit import PitEncoding
from pitkit.adapters.pitch import PitchEncoding
from pitkit.adapters.pits import PitsEncoding
from pitkit.adapters.pittypat import PittyPatEncoding
from pitkit.core.errors import UnknownNameError

__all__ = ["ENCODINGS", "Encoding", "PitkitAEC", "PitkitParallel", "encoding", "make", "names"]

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


def make(name: str, **kwargs: Any) -> PitkitAEC | PitkitParallel:
    """A new PettingZoo environment: AEC for a turn-based game, Parallel for
    real-time Pit. Keywords: ``players``, ``rules`` (a dict of rule options),
    ``short=True`` (one hand), ``render_mode="ansi"``, and ``max_steps`` (AEC)
    or ``max_ticks`` (Parallel) to truncate."""
    chosen = encoding(name)
    from pitkit import games

    if games.get(chosen.game).realtime:
        return PitkitParallel(chosen, **kwargs)
    return PitkitAEC(chosen, **kwargs)
