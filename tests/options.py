"""Rule options drawn at random, for tests that should hold under every variant."""

from __future__ import annotations

import random
from typing import Any

from pitkit.core.game import Game


def random_options(game: Game, rng: random.Random) -> dict[str, Any]:
    """Each on/off and choice option of `game` drawn from `rng` (numbers stay default)."""
    options: dict[str, Any] = {}
    for info in game.rules.options():
        if info.choices:
            options[info.name] = rng.choice(info.choices)
        elif info.type == "bool":
            options[info.name] = rng.random() < 0.5
    return options
