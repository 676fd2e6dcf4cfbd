"""A trained policy's actor as NumPy arrays: saved small, played without torch.

MaskablePPO's policy is two networks, the actor (observation -> one logit an
action id) and the critic (observation -> the value of the position). Only
the actor plays: `Snapshot` keeps its layers as NumPy arrays, in a ``.npz``
file of a few hundred kilobytes (the ``.zip`` MaskablePPO saves holds the
critic and Adam's moments too: three to four times as much), and computes
its logits in NumPy, so a saved policy plays wherever pitkit's adapters
install, torch or not. `Snapshot.of` reads a live policy (that needs torch).

A snapshot plays as `pitkit.bots.policy.PolicyBot` does: the masked argmax
(`Snapshot.best`, what ``predict(..., deterministic=True)`` plays), or a
draw from the masked softmax (`Snapshot.sampler`, a frozen opponent in
self-play). `seat` makes either a bot for its game; in real-time Pit that
is a `PolicyTrader`, which waits when the policy picks id 0.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from pitkit import adapters, games
from pitkit.adapters.encoding import Mask, Observation
from pitkit.adapters.envs import WAIT
from pitkit.bots.policy import Encoder, Policy, PolicyBot
from pitkit.core.actions import Action
from pitkit.core.errors import IllegalActionError
from pitkit.core.match import Match
from pitkit.core.state import State
from pitkit.games.pit.bots import THINK_TIME

__all__ = ["ACTIVATIONS", "PolicyTrader", "Snapshot", "env_of", "seat", "uniform"]

Array = npt.NDArray[np.float32]

ACTIVATIONS: dict[str, Callable[[Array], Array]] = {
    "Tanh": np.tanh,  # stable-baselines3's default for MlpPolicy
    "ReLU": lambda x: np.maximum(x, 0),
}
"""The hidden layers' activations a snapshot can play, by torch's class name."""


def env_of(game: str) -> str:
    """The environment of game `game` (``ace-pit`` -> ``pitkit/ace_pit-v0``)."""
    for name, encoding in adapters.ENCODINGS.items():
        if encoding.game == game:
            return name
    games.get(game)  # an unknown game: its own clear error
    raise ValueError(f"{game} has no environment")


class Snapshot:
    """The actor of a policy for environment `env`: `layers` of (weights,
    bias), hidden ones with `activation` after them, the action logits last;
    `info` says how it was trained (JSON-able)."""

    def __init__(
        self,
        env: str,
        layers: Sequence[tuple[Array, Array]],
        activation: str = "Tanh",
        info: Mapping[str, Any] | None = None,
    ) -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r} is not one of {', '.join(ACTIVATIONS)}")
        if not layers:
            raise ValueError("a snapshot needs at least its action layer")
        self.env = env
        self.encoding = adapters.encoding(env)
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.activation = activation
        self.info = dict(info or {})
        self._check()

    @property
    def game(self) -> str:
        """The game it plays (a registry name)."""
        return self.encoding.game

    def _check(self) -> None:
        """The layers chain, from the encoding's observation to its action ids."""
        sample = self.encoding(games.get(self.game).default_players)
        width = sample.size
        for w, b in self.layers:
            if w.shape[0] != width or b.shape != (w.shape[1],):
                raise ValueError(
                    f"a layer of shape {w.shape} (bias {b.shape}) does not follow one of "
                    f"{width} values: {self.env} observes {sample.size} values now (retrain?)"
                )
            width = w.shape[1]
        if width != sample.actions:
            raise ValueError(
                f"the policy rates {width} action ids; {self.env} has {sample.actions} now"
            )

    @classmethod
    def of(cls, policy: Any, env: str, **info: Any) -> Snapshot:
        """The actor of sb3-contrib's `MaskableActorCriticPolicy` `policy`
        (an ``MlpPolicy``; needs torch), copied."""
        layers = []
        activation = None
        for module in policy.mlp_extractor.policy_net:
            if hasattr(module, "weight"):
                layers.append(_arrays(module))
            else:
                activation = type(module).__name__
        layers.append(_arrays(policy.action_net))
        return cls(env, layers, activation or "Tanh", info)

    def save(self, path: Path) -> None:
        """Write it to `path` (a ``.npz`` file, compressed)."""
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        header = {"env": self.env, "activation": self.activation, "info": self.info}
        np.savez_compressed(path, header=np.array(json.dumps(header)), **arrays)

    @classmethod
    def load(cls, path: Path) -> Snapshot:
        """The snapshot saved at `path`; a ValueError if it no longer fits its
        environment's encoding."""
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"][()]))
            count = sum(1 for key in data.files if key.startswith("w"))
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
        return cls(header["env"], layers, header["activation"], header["info"])

    def logits(self, observation: Observation) -> Array:
        """The actor's logit for every action id (legal or not)."""
        x: Array = np.asarray(observation, np.float32)
        act = ACTIVATIONS[self.activation]
        *hidden, (w, b) = self.layers
        for hw, hb in hidden:
            x = act(x @ hw + hb)
        return x @ w + b

    def best(self, observation: Observation, mask: Mask) -> int:
        """The legal id it rates highest: the masked argmax."""
        logits = self.logits(observation)
        return int(np.argmax(np.where(mask.astype(bool), logits, -np.inf)))

    def sampler(self, seed: int | None) -> Policy:
        """A policy that draws its id from the masked softmax, seeded."""
        rng = np.random.default_rng(seed)

        def draw(observation: Observation, mask: Mask) -> int:
            legal = np.flatnonzero(mask)
            logits = self.logits(observation)[legal].astype(np.float64)
            weights = np.exp(logits - logits.max())
            return int(rng.choice(legal, p=weights / weights.sum()))

        return draw


def _arrays(linear: Any) -> tuple[Array, Array]:
    """A torch ``Linear``'s weights (transposed: inputs first) and bias, as NumPy."""
    weight = linear.weight.detach().cpu().numpy().T.copy()
    return weight, linear.bias.detach().cpu().numpy().copy()


class PolicyTrader(PolicyBot):
    """A policy as a real-time Pit bot: id 0 (wait) sends nothing and looks
    again after its think time; any other id is the move it stands for.

    `PolicyBot` plays the turn-based games; Pit's runner asks a bot what to
    send now (`act`), and Pit's encoding has an id for waiting, which is
    the answer "nothing". It reacts as quickly as Pit's own bots
    (`THINK_TIME`), so the arena's clock favours neither.
    """

    think_time: tuple[float, float] = THINK_TIME

    def __init__(self, encoding: Callable[[int], Encoder], policy: Policy) -> None:
        super().__init__(encoding, policy)

        def moving(observation: Observation, mask: Mask) -> SupportsIndex:
            moves = mask.copy()
            moves[WAIT] = 0
            return policy(observation, moves)

        # What a driver that takes turns gets: never a wait.
        self._moving = PolicyBot(encoding, moving)

    def act(self, state: State[Any], player: int) -> Action | None:
        """The move the policy picks now, or None when it picks waiting."""
        if not isinstance(state, Match):
            raise TypeError("a policy bot plays matches: its encoding reads the whole match")
        encoder = self.encoder(state.players)
        mask = encoder.mask(state, player)
        action_id = operator.index(self.policy(encoder.observe(state, player), mask))
        if action_id == WAIT:
            return None
        if not 0 <= action_id < len(mask) or not mask[action_id]:
            raise IllegalActionError(f"the policy chose action id {action_id}, not legal now")
        return encoder.decode(state, player, action_id)

    def choose(self, state: State[Any], player: int) -> Action:
        """A move now, for a driver that takes turns: the policy's choice
        among the moves other than waiting."""
        return self._moving.choose(state, player)


def seat(env: str, policy: Policy) -> PolicyBot:
    """A bot playing `policy` on environment `env`'s encoding: a
    `PolicyTrader` in real-time Pit, a `PolicyBot` in any other game."""
    encoding = adapters.encoding(env)
    if games.get(encoding.game).realtime:
        return PolicyTrader(encoding, policy)
    return PolicyBot(encoding, policy)


def uniform(seed: int | None) -> Policy:
    """A policy that draws any legal id, all alike, seeded."""
    rng = np.random.default_rng(seed)

    def draw(observation: Observation, mask: Mask) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return draw
