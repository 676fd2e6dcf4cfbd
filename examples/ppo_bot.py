"""A trained MaskablePPO policy as a pitkit bot, measured in the duplicate arena.

    python -m examples.ppo_bot docs/maskable-ppo-ace-pit.zip --deals 500 --seed 7

The policy is a plain function, ``(observation, mask) -> action id`` on the
encoding it learned on, and `pitkit.bots.policy.PolicyBot` makes it a bot:
it plays the legal move the policy rates highest (the masked argmax). The
arena seats it by name, ``examples.ppo_bot:PPOBot`` (a ``module:attribute``
name): each process that plays matches, this one or a worker, imports this
module and loads the model that ``$PITKIT_PPO_MODEL`` names, once. Nothing
is registered, so the same name serves the process pool (``--workers``),
Ray and the command line::

    PITKIT_PPO_MODEL=docs/maskable-ppo-ace-pit.zip pitkit arena ace-pit -o hands=1 \
        --bots examples.ppo_bot:PPOBot,greedy --duplicate -n 500 --seed 7

`evaluate` plays it against each opponent in duplicate play: every deal is
played twice, the two bots swapping seats, so the cards cancel out; the
arena's standings give the win share with a 95% interval over deals.
Run from the project's folder, so that ``examples`` imports. Needs the
``train`` extra.
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO

from pitkit import games
from pitkit.adapters import encoding as encoding_of
from pitkit.adapters.encoding import Mask, Observation
from pitkit.arena.pool import make_backend
from pitkit.arena.tournament import Standing, run, schedule, standings
from pitkit.bots.policy import Policy, PolicyBot

ENV = "pitkit/ace_pit-v0"
NAME = "examples.ppo_bot:PPOBot"
"""The bot's name in the arena: this module, and the class in it."""
MODEL = "PITKIT_PPO_MODEL"
"""The environment variable naming the model to play (a .zip saved by train_maskable_ppo.py)."""
ONE_HAND = {"hands": 1}  # the matches the policy was trained on


@functools.cache
def masked_argmax(path: str) -> Policy:
    """The policy of the model saved at `path`: the legal id it rates highest
    (loaded once a process)."""
    torch.set_num_threads(1)  # a process plays one match at a time: more threads only contend
    model = MaskablePPO.load(path, device="cpu")

    def policy(observation: Observation, mask: Mask) -> int:
        action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return policy


class PPOBot(PolicyBot):
    """a trained MaskablePPO policy (the model $PITKIT_PPO_MODEL names)"""

    games = ("ace-pit",)

    def __init__(self, seed: int | None = None) -> None:
        # The masked argmax draws nothing at random: the seat's seed is not needed.
        path = os.environ.get(MODEL)
        if not path:
            raise ValueError(f"set {MODEL} to the model the ppo bot plays (a .zip)")
        super().__init__(encoding_of(ENV), masked_argmax(path))


@contextmanager
def playing(model: Path) -> Iterator[None]:
    """Inside the block, `PPOBot` plays `model`, here and in the worker
    processes started in it (they inherit the environment)."""
    before = os.environ.get(MODEL)
    os.environ[MODEL] = str(model.resolve())
    try:
        yield
    finally:
        if before is None:
            del os.environ[MODEL]
        else:
            os.environ[MODEL] = before


def evaluate(
    model: Path,
    opponents: Sequence[str],
    deals: int,
    seed: int,
    rules: Mapping[str, Any] = ONE_HAND,
    workers: int = 1,
) -> dict[str, Standing]:
    """The standing of the model saved at `model` against each opponent, in
    duplicate play of `deals` deals on `workers` processes (1: this one)."""
    game = games.get("ace-pit")
    out = {}
    with playing(model):
        backend = make_backend("local", workers)
        try:
            for opponent in opponents:
                lineup = [NAME, opponent]
                specs = schedule(game, lineup, deals, rules=rules, seed=seed, duplicate=True)
                table = standings(lineup, run(specs, backend))
                out[opponent] = next(s for s in table if s.bot == NAME)
        finally:
            backend.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", type=Path, help="a model saved by train_maskable_ppo.py")
    parser.add_argument("--opponents", default="random,greedy", help="comma-separated bots")
    parser.add_argument("--deals", type=int, default=500, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hands", type=int, default=1, help="hands a match (11: a full game)")
    parser.add_argument("--workers", type=int, default=1, help="processes (1: this one)")
    args = parser.parse_args()
    start = time.perf_counter()
    opponents = args.opponents.split(",")
    rules = {"hands": args.hands}
    results = evaluate(args.model, opponents, args.deals, args.seed, rules, args.workers)
    seconds = time.perf_counter() - start
    print(f"{args.deals} deals a pairing, each in both seats; {args.hands} hand(s) a match")
    for opponent, s in results.items():
        low, high = s.ci
        print(
            f"ppo vs {opponent:<8} win share {s.win_share:.3f}  95% [{low:.3f}, {high:.3f}]"
            f"  ({s.seats} matches)"
        )
    print(f"{seconds:.0f} s")


if __name__ == "__main__":
    main()
