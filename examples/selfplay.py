"""Self-play's opponents: frozen copies of the policy being trained.

`PitkitGym` seats its other players by bot name, and the name
``examples.selfplay:frozen`` is this module's factory: each seat it makes
plays the latest `Snapshot` handed to `freeze` for its game, drawing its
moves from the policy's masked softmax with the seat's own seed (so the
opponents vary, and the same seed plays the same). Training refreshes the
snapshot every so many steps (`train_maskable_ppo.py --opponent self`);
until the first, a seat plays a uniformly random legal move.

The snapshots live in this process: the environment that trains is in the
same process as its learner (one environment, stable-baselines3's
`DummyVecEnv`), so the factory finds the one `freeze` stored.
"""

from __future__ import annotations

from examples.policies import Snapshot, env_of, seat, uniform
from pitkit.bots.policy import PolicyBot
from pitkit.core.game import Game

__all__ = ["NAME", "freeze", "frozen", "thaw"]

NAME = "examples.selfplay:frozen"
"""The opponent's bot name, for `PitkitGym(..., opponent=NAME)`."""

_FROZEN: dict[str, Snapshot] = {}


def freeze(snapshot: Snapshot) -> None:
    """From now on, every new seat of `snapshot`'s game plays `snapshot`."""
    _FROZEN[snapshot.game] = snapshot


def thaw(game: str) -> None:
    """Forget `game`'s snapshot: its seats play at random again."""
    _FROZEN.pop(game, None)


def frozen(game: Game, seed: int | None) -> PolicyBot:
    """A seat of `game` playing its frozen snapshot (uniformly random legal
    moves before the first `freeze`), drawing from `seed`."""
    snapshot = _FROZEN.get(game.name)
    if snapshot is None:
        return seat(env_of(game.name), uniform(seed))
    return seat(snapshot.env, snapshot.sampler(seed))
