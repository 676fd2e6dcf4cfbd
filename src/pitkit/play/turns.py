"""Playing a game in turns: each decision made and applied before the next.

Where several seats may act at once (Pits' concealed exchange, a real-time
game played out in turns), who acts next is drawn from the caller's random
generator, as arrival order would be at a real table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pitkit.core.game import Bot
from pitkit.core.state import State

__all__ = ["actor", "play_turns"]


def actor(state: State[Any], rng: random.Random) -> int:
    """Who acts next: the one seat to act, or one drawn when several may act at once."""
    actors = state.to_act
    if len(actors) == 1:
        for seat in actors:
            return seat
    return rng.choice(sorted(actors))


def play_turns(
    state: State[Any], bots: Sequence[Bot], rng: random.Random, *, checked: bool = True
) -> int:
    """Play `state` to its end, each seat by its own bot (bots may keep notes
    on their seat's play, so no bot plays two seats); return the decisions
    made. `checked=False` takes the bots' moves as legal (`State.step`), the
    fast path of search's playouts; otherwise each is checked (`State.apply`)."""
    apply = state.apply if checked else state.step
    decisions = 0
    while not state.is_over:
        seat = actor(state, rng)
        apply(seat, bots[seat].choose(state, seat))
        decisions += 1
    return decisions
