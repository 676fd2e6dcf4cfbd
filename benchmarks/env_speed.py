"""Environment steps per CPU second: pitkit's PettingZoo environments beside
PettingZoo's own classic card games, Leduc Hold'em and Texas Hold'em.

Every environment is stepped the same way: random actions among the legal
ids of the observation's ``action_mask``, from a seeded generator; a step is
one ``env.step`` with an action (an AEC seat's move; for Pit's Parallel
environment, one tick of every seat). Matches are one hand (``short=True``)
and restart from the next seed as they end, the resets inside the timing.
PettingZoo's classic games run unwrapped (``raw_env()``, as pitkit's
environments are): their fastest form. Timed in CPU seconds of this process;
ratios are to the fastest of the classic games.

Run (with the ``adapters`` and ``bench`` extras, the latter for RLCard, which
the classic card games run on)::

    python benchmarks/env_speed.py [--seconds 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import random
from collections.abc import Callable
from typing import Any

from adapters_speed import aec_rate, parallel_rate
from pitkit import adapters
from pitkit.adapters import PitkitParallel

#: PettingZoo's classic card games on RLCard, by module name in ``pettingzoo.classic``.
CLASSIC = ("leduc_holdem_v4", "texas_holdem_v4")


def classic_env(module: str) -> Any:
    """PettingZoo's classic game `module`, unwrapped."""
    return importlib.import_module(f"pettingzoo.classic.{module}").raw_env()


def rate(make: Callable[[], Any], seconds: float, seed: int) -> float:
    """Steps per CPU second of the environment `make` builds."""
    env = make()
    rng = random.Random(seed)
    if isinstance(env, PitkitParallel):
        return parallel_rate(env, seconds, rng)
    return aec_rate(env, seconds, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds an environment")
    parser.add_argument("--rounds", type=int, default=3, help="runs an environment; best kept")
    args = parser.parse_args()
    makers: dict[str, Callable[[], Any]] = {
        f"pettingzoo.classic.{m}": functools.partial(classic_env, m) for m in CLASSIC
    }
    for name in adapters.names():
        makers[name] = functools.partial(adapters.make, name, short=True)
    # Rounds interleave the environments, and the best round of each is kept,
    # so that a burst of load from elsewhere on the machine hits all alike.
    best = dict.fromkeys(makers, 0.0)
    for round_ in range(args.rounds):
        for name, make in makers.items():
            best[name] = max(best[name], rate(make, args.seconds, seed=round_))
    fastest = max(best[f"pettingzoo.classic.{m}"] for m in CLASSIC)
    print(
        "| environment | steps per CPU second | vs the fastest classic game | seats' moves a step |"
    )
    print("|---|---:|---:|---:|")
    for name, steps in best.items():
        # A Parallel step moves every seat (Pit's tick); an AEC step, one seat.
        env = makers[name]()
        seats = len(env.possible_agents) if isinstance(env, PitkitParallel) else 1
        print(f"| {name} | {steps:,.0f} | {steps / fastest:.2f}x | {seats} |")


if __name__ == "__main__":
    main()
