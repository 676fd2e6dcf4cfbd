"""Environment steps per CPU second: pitkit's environments, single and
batched, beside PettingZoo's own classic card games, Leduc Hold'em and
Texas Hold'em.

Every environment is stepped the same way: random actions among the legal
ids its masks allow, from a seeded generator, the harness's picking inside
the timing. A single environment's step is one ``env.step`` of PettingZoo's:
a seat's move (AEC), or for Pit's Parallel environment a tick of every seat.
A batched step is one ``step`` of a batch of ``--batch`` matches, counted as
that many steps: a seat's move in each match (`PitkitVectorAEC`), or a tick
of each (`PitkitVectorParallel`, Pit). The last column is the Gymnasium
batch (`PitkitVectorEnv`): one learner's step in each match, the random
bots' moves until its next turn included. Matches are one hand
(``short=True``) and restart as they end, the resets inside the timing.
PettingZoo's classic games run unwrapped (``raw_env()``, as pitkit's
environments are): their fastest form. Timed in CPU seconds of this
process; ratios are to Leduc Hold'em. Pit is shown twice: a tick (every
seat moves) and a seat's move (a tick's steps times the seats). The first
line printed says which build was timed.

Run (with the ``adapters`` and ``bench`` extras, the latter for RLCard, which
the classic card games run on), on an installed wheel to time the compiled
build::

    python benchmarks/env_speed.py [--seconds 2] [--rounds 3] [--batch 64]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import random
import time
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Any

import numpy as np
import numpy.typing as npt

import pitkit
from pitkit import adapters
from pitkit.adapters import PitkitParallel
from pitkit.adapters.vector import PitkitVectorAEC, PitkitVectorEnv, PitkitVectorParallel

#: PettingZoo's classic card games on RLCard, by module name in ``pettingzoo.classic``.
CLASSIC = ("leduc_holdem_v4", "texas_holdem_v4")
LEDUC = f"pettingzoo.classic.{CLASSIC[0]}"
PIT = "pitkit/pit-v0"
Rate = Callable[[float, int], float]
"""Steps per CPU second over about so many seconds, from a seed."""


def pick(mask: npt.NDArray[Any], rng: random.Random) -> int:
    """A uniformly random id among those an int8 `mask` allows. Read as
    bools (its 0s and 1s are), NumPy finds them ten times as fast: over
    Pits' 12,397 ids, 3 us rather than 30."""
    legal = np.flatnonzero(mask.view(np.bool_))
    return int(legal[rng.randrange(len(legal))])


def pick_rows(masks: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal id for every row of a batch's `masks` at
    once (0 for a row that allows none: a match being dealt again)."""
    actions = masks.shape[-1]
    rows = masks.reshape(-1, actions)
    legal = np.flatnonzero(rows)
    if not len(legal):  # every match being dealt again (Ace Pit's seat: 7 steps a hand)
        return np.zeros(masks.shape[:-1], np.int64)
    counts = np.bincount(legal // actions, minlength=len(rows))
    starts = np.cumsum(counts) - counts
    chosen = starts + (rng.random(len(rows)) * counts).astype(np.int64)
    ids = np.where(counts > 0, legal[np.minimum(chosen, len(legal) - 1)] % actions, 0)
    shaped: npt.NDArray[np.int64] = ids.reshape(masks.shape[:-1])
    return shaped


def single_rate(make: Callable[[], Any], seconds: float, seed: int) -> float:
    """Steps per CPU second of a PettingZoo environment (pitkit's or a classic one)."""
    env, rng = make(), random.Random(seed)
    steps, start, match = 0, time.process_time(), 0
    if isinstance(env, PitkitParallel):
        observations, _ = env.reset(seed=match)
        while time.process_time() - start < seconds:
            if not env.agents:
                match += 1
                observations, _ = env.reset(seed=match)
            actions = {a: pick(observations[a]["action_mask"], rng) for a in env.agents}
            observations, *_ = env.step(actions)
            steps += 1
        return steps / (time.process_time() - start)
    env.reset(seed=match)
    while time.process_time() - start < seconds:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                match += 1
                env.reset(seed=match)
            continue
        env.step(pick(observation["action_mask"], rng))
        steps += 1
    return steps / (time.process_time() - start)


Batch = PitkitVectorAEC | PitkitVectorParallel | PitkitVectorEnv


def batch_rate(make: Callable[[], Batch], seconds: float, seed: int) -> float:
    """Matches' steps per CPU second of a batch (each match's step counted)."""
    envs = make()
    rng = np.random.default_rng(seed)
    steps, start = 0, time.process_time()
    envs.reset(seed=seed)
    while time.process_time() - start < seconds:
        envs.step(pick_rows(envs.action_masks(), rng))
        steps += 1
    return steps * envs.num_envs / (time.process_time() - start)


def rates(batch: int) -> dict[str, dict[str, Rate]]:
    """Each environment's ways of being timed: single, batched, Gymnasium batch."""
    table: dict[str, dict[str, Rate]] = {}
    for module in CLASSIC:
        make = functools.partial(
            lambda m: importlib.import_module(f"pettingzoo.classic.{m}").raw_env(), module
        )
        table[f"pettingzoo.classic.{module}"] = {"single": functools.partial(single_rate, make)}
    for name in adapters.names():
        many: Callable[[], Batch] = (
            functools.partial(PitkitVectorParallel, name, batch, short=True)
            if name == PIT
            else functools.partial(PitkitVectorAEC, name, batch, short=True)
        )
        gym = functools.partial(PitkitVectorEnv, name, batch, short=True, opponent="random")
        table[name] = {
            "single": functools.partial(
                single_rate, functools.partial(adapters.make, name, short=True)
            ),
            "batched": functools.partial(batch_rate, many),
            "gymnasium": functools.partial(batch_rate, gym),
        }
    return table


def build() -> str:
    """Which build of pitkit is timed: the engines' and the encodings'
    modules compiled (a wheel, `pip install .`) or Python (an editable install)."""

    def compiled(module: str) -> str:
        path = getattr(importlib.import_module(module), "__file__", "") or ""
        return "compiled" if path.endswith(tuple(EXTENSION_SUFFIXES)) else "Python"

    engines = compiled("pitkit.games.pits.state")
    encodings = compiled("pitkit.adapters.pits")
    return f"pitkit {pitkit.__file__}: engines {engines}, encodings {encodings}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each; best kept")
    parser.add_argument("--batch", type=int, default=64, help="matches in a batch")
    args = parser.parse_args()
    table = rates(args.batch)
    # Rounds interleave the environments, and the best round of each is kept,
    # so that a burst of load from elsewhere on the machine hits all alike.
    best = {name: dict.fromkeys(ways, 0.0) for name, ways in table.items()}
    for round_ in range(args.rounds):
        for name, ways in table.items():
            for way, rate in ways.items():
                best[name][way] = max(best[name][way], rate(args.seconds, round_))
    leduc = best[LEDUC]["single"]
    print(build(), end="\n\n")
    print(
        f"| environment | single: steps/s | x Leduc | batched ({args.batch}): steps/s | x Leduc "
        f"| Gymnasium batch ({args.batch}): learner's steps/s | x Leduc |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, figures in best.items():
        if name == PIT:
            seats = len(adapters.make(name).possible_agents)
            print(row(f"{name}, a tick", figures, leduc))
            moves = {way: figures[way] * seats for way in ("single", "batched")}
            print(row(f"{name}, a seat's move", moves, leduc))
        else:
            print(row(name, figures, leduc))


def row(label: str, figures: dict[str, float], leduc: float) -> str:
    """A line of the Markdown table: each way's steps/s and its ratio to Leduc."""
    cells = [f"| {label} "]
    for way in ("single", "batched", "gymnasium"):
        steps = figures.get(way)
        cells.append("| | " if steps is None else f"| {steps:,.0f} | {steps / leduc:.2f}x ")
    return "".join(cells) + "|"


if __name__ == "__main__":
    main()
