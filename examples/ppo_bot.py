"""A trained MaskablePPO policy as a pitkit bot, measured in the duplicate arena.

    python -m examples.ppo_bot docs/maskable-ppo-ace-pit.zip --deals 500 --seed 7
    python -m examples.ppo_bot docs/baselines/pitch/policy-pitch.npz --opponents heuristic,random

The policy is a plain function, ``(observation, mask) -> action id`` on the
encoding it learned on, and `pitkit.bots.policy.PolicyBot` makes it a bot:
it plays the legal move the policy rates highest (the masked argmax). The
arena seats it by name, ``examples.ppo_bot:PPOBot`` (a ``module:attribute``
name; in real-time Pit ``examples.ppo_bot:PPOTrader``, which draws its
moves from the policy, seeded, and waits when it draws id 0): each
process that plays matches, this one or a worker, imports this module
and loads the model that ``$PITKIT_PPO_MODEL`` names, once. Nothing is
registered, so the same name serves the process pool (``--workers``), Ray
and the command line::

    PITKIT_PPO_MODEL=docs/maskable-ppo-ace-pit.zip pitkit arena ace-pit -o hands=1 \
        --bots examples.ppo_bot:PPOBot,greedy --duplicate -n 500 --seed 7

A model is a policy's snapshot (``.npz``, `examples.policies.Snapshot`:
NumPy alone plays it) or MaskablePPO's whole model (``.zip``, which needs
the ``train`` extra); either says which game it plays. `evaluate` seats it
against each opponent in duplicate play, one seat of the policy and the
opponent in every other: every deal is played in every seating, so the
cards cancel out; the arena's standings give the win share with a 95%
interval over deals, and the mean place with its own. Run from the
project's folder, so that ``examples`` imports.
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gymnasium import spaces

from examples.policies import PolicyTrader, Snapshot, env_of
from pitkit import adapters, games
from pitkit.arena.pool import make_backend
from pitkit.arena.tournament import MatchResult, Standing, interval, run, schedule, standings
from pitkit.bots.policy import PolicyBot

ENV = env_of("ace-pit")
NAME = "examples.ppo_bot:PPOBot"
"""The bot's name in the arena: this module, and the class in it."""
TRADER = "examples.ppo_bot:PPOTrader"
"""The bot's name in real-time Pit."""
MODEL = "PITKIT_PPO_MODEL"
"""The environment variable naming the model to play (saved by train_maskable_ppo.py)."""
ONE_HAND = {"hands": 1}  # the matches the Ace Pit policy was trained on
TURN_BASED = ("pits", "ace-pit", "pitty-pat", "pitch")


@functools.cache
def load(path: str) -> Snapshot:
    """The policy saved at `path`, as a `Snapshot` (loaded once a process):
    a ``.npz`` as it is, a MaskablePPO ``.zip`` by its actor (needs torch)."""
    if Path(path).suffix == ".npz":
        return Snapshot.load(Path(path))
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # a process plays one match at a time: more threads only contend
    model = MaskablePPO.load(path, device="cpu")
    size, actions = model.observation_space.shape, model.action_space
    assert size is not None and isinstance(actions, spaces.Discrete)
    return Snapshot.of(model.policy, env_for(size[0], int(actions.n)))


def env_for(size: int, actions: int) -> str:
    """The environment whose observations have `size` values and `actions` ids."""
    for name, encoding in adapters.ENCODINGS.items():
        sample = encoding(games.get(encoding.game).default_players)
        if (sample.size, sample.actions) == (size, actions):
            return name
    raise ValueError(f"no environment observes {size} values and has {actions} action ids")


def named_model() -> Snapshot:
    """The policy of the model ``$PITKIT_PPO_MODEL`` names."""
    path = os.environ.get(MODEL)
    if not path:
        raise ValueError(f"set {MODEL} to the model the ppo bot plays (a .npz or .zip)")
    return load(path)


class PPOBot(PolicyBot):
    """a trained MaskablePPO policy (the model $PITKIT_PPO_MODEL names)"""

    games = TURN_BASED

    def __init__(self, seed: int | None = None) -> None:
        # The masked argmax draws nothing at random: the seat's seed is not needed.
        snapshot = named_model()
        super().__init__(snapshot.encoding, snapshot.best)


class PPOTrader(PolicyTrader):
    """a trained MaskablePPO policy trading in real time (the model $PITKIT_PPO_MODEL names)"""

    games = ("pit",)

    def __init__(self, seed: int | None = None) -> None:
        # It draws from the policy, as it trained: its argmax may wait for ever
        # (waiting a tick more cost nothing in training), and stall the pit.
        snapshot = named_model()
        super().__init__(snapshot.encoding, snapshot.sampler(seed))


def bot_name(game: str) -> str:
    """The policy's name in the arena for `game`."""
    return TRADER if games.get(game).realtime else NAME


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


@dataclass(frozen=True)
class Record:
    """The policy's record against one opponent: the arena's standing, and
    its mean place with a 95% interval over deals."""

    standing: Standing
    place_ci: tuple[float, float]
    players: int
    deals: int


def place_interval(name: str, results: Sequence[MatchResult], players: int) -> tuple[float, float]:
    """A 95% interval for `name`'s mean place, over deals (a deal's seatings share their luck)."""
    deals: dict[int, list[float]] = {}
    for result in results:
        for place, sitter in zip(result.ranks, result.seating, strict=True):
            if sitter == name:
                deals.setdefault(result.deal, []).append(place)
    # On the scale 0 (first) to 1 (last), the arena's interval of a share fits.
    spread = max(1, players - 1)
    low, high = interval([(sum(p) / len(p) - 1) / spread for p in deals.values()])
    return 1 + low * spread, 1 + high * spread


def game_of(model: Path) -> str:
    """The game the model at `model` plays."""
    return load(str(model.resolve())).game


def evaluate(
    model: Path,
    opponents: Sequence[str],
    deals: int,
    seed: int,
    rules: Mapping[str, Any] | None = None,
    workers: int = 1,
) -> dict[str, Record]:
    """The record of the model saved at `model` against each opponent, in
    duplicate play of `deals` deals on `workers` processes (1: this one):
    the policy in one seat of the game's usual table, the opponent in every
    other. `rules` defaults to one-hand matches, as the policies trained."""
    game = games.get(game_of(model))
    name = bot_name(game.name)
    players = game.default_players
    rules = match_rules(game.name) if rules is None else rules
    out = {}
    with playing(model):
        backend = make_backend("local", workers)
        try:
            for opponent in opponents:
                lineup = [name] + [opponent] * (players - 1)
                specs = schedule(game, lineup, deals, rules=rules, seed=seed, duplicate=True)
                results = run(specs, backend)
                standing = next(s for s in standings(lineup, results) if s.bot == name)
                ci = place_interval(name, results, players)
                out[opponent] = Record(standing, ci, players, deals)
        finally:
            backend.close()
    return out


def match_rules(game: str, hands: int = 1) -> dict[str, Any]:
    """The rule that makes a match of `game` `hands` hands (0: the game's
    own end); one, as ``short=True`` makes it in training, by default."""
    if hands == 0:
        return {}
    return {"hand_limit" if games.get(game).realtime else "hands": hands}


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the arena's workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", type=Path, help="a model saved by train_maskable_ppo.py")
    parser.add_argument("--opponents", help="comma-separated bots (default: the heuristic, random)")
    parser.add_argument("--deals", type=int, default=500, help="deals, each in every seating")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hands", type=int, default=1, help="hands a match (0: the full game)")
    parser.add_argument("--workers", type=int, default=1, help="processes (1: this one)")
    args = parser.parse_args()
    wall, cpu = time.perf_counter(), cpu_seconds()
    game = games.get(game_of(args.model))
    opponents = (args.opponents or f"{game.heuristic},random").split(",")
    rules = match_rules(game.name, args.hands)
    results = evaluate(args.model, opponents, args.deals, args.seed, rules, args.workers)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    hands = "the full game" if args.hands == 0 else f"{args.hands} hand(s)"
    print(f"{game.name}: {args.deals} deals a pairing, each in every seating; {hands} a match")
    for opponent, r in results.items():
        s = r.standing
        print(
            f"ppo vs {opponent:<10} win share {s.win_share:.3f} "
            f"[{s.ci[0]:.3f}, {s.ci[1]:.3f}]  mean place {s.mean_place:.2f} "
            f"[{r.place_ci[0]:.2f}, {r.place_ci[1]:.2f}] of {r.players}  ({s.seats} matches)"
        )
    print(f"{wall:.0f} s of wall time, {cpu:.0f} s of CPU (workers included)")


if __name__ == "__main__":
    main()
