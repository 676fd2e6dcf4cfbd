"""Steps a second of every adapters environment, with random masked actions.

A step is one `env.step`: one seat's action in an AEC environment (Pits,
Ace Pit, Pitty Pat, Pitch), one tick of every seat in Pit's Parallel
environment (each seat picks uniformly among its legal ids, waiting
included), one learner's step in the Gymnasium environment (the bots' moves
in between included). Short matches (one hand), restarted as they end.
Timed in CPU seconds of this process.

Run (with the ``adapters`` extra): ``python benchmarks/adapters_speed.py [--seconds 2]``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from pitkit import adapters, games
from pitkit.adapters import PitkitParallel
from pitkit.adapters.gym import PitkitGym


def pick(mask: npt.NDArray[Any], rng: random.Random) -> int:
    """A uniformly random id among those `mask` allows. Cheap on purpose:
    NumPy's ``Generator.choice`` took 20 us, as long as a whole pitkit
    observation, and would time the harness rather than the environment."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def aec_rate(env: AECEnv, seconds: float, rng: random.Random) -> float:
    """Steps per CPU second of an AEC environment (pitkit's or any PettingZoo one)."""
    steps, start, seed = 0, time.process_time(), 0
    env.reset(seed=seed)
    while time.process_time() - start < seconds:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                seed += 1
                env.reset(seed=seed)
            continue
        env.step(pick(observation["action_mask"], rng))
        steps += 1
    return steps / (time.process_time() - start)


def parallel_rate(env: PitkitParallel, seconds: float, rng: random.Random) -> float:
    """Ticks per CPU second of Pit's Parallel environment."""
    steps, start, seed = 0, time.process_time(), 0
    observations, _ = env.reset(seed=seed)
    while time.process_time() - start < seconds:
        if not env.agents:
            seed += 1
            observations, _ = env.reset(seed=seed)
        actions = {a: pick(observations[a]["action_mask"], rng) for a in env.agents}
        observations, *_ = env.step(actions)
        steps += 1
    return steps / (time.process_time() - start)


def gym_rate(env: PitkitGym, seconds: float, rng: random.Random) -> float:
    """Learner's steps per CPU second of the Gymnasium environment."""
    steps, start, seed = 0, time.process_time(), 0
    env.reset(seed=seed)
    while time.process_time() - start < seconds:
        _, _, terminated, truncated, _ = env.step(pick(env.action_masks(), rng))
        steps += 1
        if terminated or truncated:
            seed += 1
            env.reset(seed=seed)
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    rng = random.Random(0)
    print("| environment | PettingZoo steps/s | Gymnasium steps/s (vs heuristic bots) |")
    print("|---|---|---|")
    for name in adapters.names():
        env = adapters.make(name, short=True)
        if isinstance(env, PitkitParallel):
            zoo = parallel_rate(env, args.seconds, rng)
        else:
            zoo = aec_rate(env, args.seconds, rng)
        bot = games.get(adapters.encoding(name).game).heuristic or "random"
        gym = gym_rate(PitkitGym(name, short=True, opponent=bot), args.seconds, rng)
        print(f"| {name} | {zoo:,.0f} | {gym:,.0f} |")


if __name__ == "__main__":
    main()
