"""Steps a second of every adapters environment, with random masked actions.

A step is one `env.step`: one seat's action in an AEC environment (Pits,
Ace Pit, Pitty Pat, Pitch), one tick of every seat in Pit's Parallel
environment (each seat picks uniformly among its legal ids, waiting
included), one learner's step in the Gymnasium environment (the bots' moves
in between included). Short matches (one hand), restarted as they end.
Timed in CPU seconds of this process.

With OpenSpiel installed, then the four OpenSpiel games (one hand): a
state's ``clone()`` mid-hand, a chance node's ``chance_outcomes()`` (from
Python, as OpenSpiel's Python algorithms call it) and its
``legal_actions()`` (through OpenSpiel's C++), in microseconds of CPU; and
outcome-sampling MCCFR's iterations per CPU minute on Ace Pit (with
``--external``, also external-sampling MCCFR's CPU seconds an iteration,
over three: about half a minute).

Run (with the ``adapters`` extra): ``python benchmarks/adapters_speed.py
[--seconds 2] [--part envs|openspiel] [--external]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from collections.abc import Callable
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


def cpu_us(call: Callable[[], object], seconds: float) -> float:
    """CPU microseconds a call of `call`, over about `seconds`."""
    calls, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(100):
            call()
        calls += 100
    return (time.process_time() - start) / calls * 1e6


def openspiel_figures(seconds: float, external: bool) -> None:
    """The OpenSpiel games' costs, as a Markdown table, then MCCFR's rates."""
    import pyspiel
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

    from pitkit.adapters import openspiel

    print("| OpenSpiel game | clone() us | chance_outcomes() us | via C++ us |")
    print("|---|---|---|---|")
    for name in openspiel.register():
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        outcomes = cpu_us(state.chance_outcomes, seconds / 3)
        through = cpu_us(state.legal_actions, seconds / 3)
        for byte in openspiel.seed_bytes(12345):
            state.apply_action(byte)
        rng = random.Random(1)
        for _ in range(6):  # mid-hand
            state.apply_action(rng.choice(state.legal_actions()))
        clone = cpu_us(state.clone, seconds / 3)
        print(f"| {name} | {clone:.1f} | {outcomes:.2f} | {through:.1f} |")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(
        pyspiel.load_game("python_pitkit_ace_pit")
    )
    np.random.seed(0)
    iterations, start = 0, time.process_time()
    while time.process_time() - start < 5 * seconds:
        solver.iteration()
        iterations += 1
    rate = iterations / (time.process_time() - start) * 60
    print(f"\nOutcome-sampling MCCFR on Ace Pit: {rate:,.0f} iterations per CPU minute")
    if external:
        walker = external_sampling_mccfr.ExternalSamplingSolver(
            pyspiel.load_game("python_pitkit_ace_pit")
        )
        start = time.process_time()
        for _ in range(3):
            walker.iteration()
        each = (time.process_time() - start) / 3
        print(f"External-sampling MCCFR on Ace Pit: {each:.1f} CPU seconds an iteration")


def env_figures(seconds: float) -> None:
    """Every environment's steps per CPU second, as a Markdown table."""
    rng = random.Random(0)
    print("| environment | PettingZoo steps/s | Gymnasium steps/s (vs heuristic bots) |")
    print("|---|---|---|")
    for name in adapters.names():
        env = adapters.make(name, short=True)
        if isinstance(env, PitkitParallel):
            zoo = parallel_rate(env, seconds, rng)
        else:
            zoo = aec_rate(env, seconds, rng)
        bot = games.get(adapters.encoding(name).game).heuristic or "random"
        gym = gym_rate(PitkitGym(name, short=True, opponent=bot), seconds, rng)
        print(f"| {name} | {zoo:,.0f} | {gym:,.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--part", choices=["all", "envs", "openspiel"], default="all")
    parser.add_argument("--external", action="store_true", help="time external sampling too")
    args = parser.parse_args()
    if args.part != "openspiel":
        env_figures(args.seconds)
    if args.part != "envs" and importlib.util.find_spec("pyspiel") is not None:
        if args.part == "all":
            print()
        openspiel_figures(args.seconds, args.external)


if __name__ == "__main__":
    main()
