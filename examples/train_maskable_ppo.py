"""Train sb3-contrib's MaskablePPO on a pitkit game, one seat against bots or itself.

    python examples/train_maskable_ppo.py --steps 200000 --seed 1 --opponent greedy --out docs
    python examples/train_maskable_ppo.py --game pitch --opponent self --net 64,64 \\
        --steps 300000 --out docs/baselines/pitch --no-zip

The agent plays one-hand matches (``short=True``) of `--game` in seat 0 of
`PitkitGym`, at the game's usual table; the encoding is relative, so the
policy plays any seat. The reward comes at the end of the hand, from the
seat's place: +1 first, -1 last, evenly between. The other seats are
played by `--opponent`: a bot name (`pitkit bots GAME` lists them, installed
packages' and ``module:attribute`` names among them), or ``self``, frozen
copies of the policy itself, refreshed every `--refresh` steps
(`examples.selfplay`). Every game but real-time Pit takes turns; in Pit a
step is a tick of the clock, and id 0 waits.

Every `--log-every` steps the mean reward of the episodes since the last
log, and (mean + 1) / 2 (the win share at a two-seat table, a draw counting
half; with more seats, 1 for always first, 0 for always last), go to
``OUT/learning-curve.csv``. At the end ``OUT/learning-curve.png`` plots the
curve, ``OUT/policy-GAME.npz`` holds the policy's actor as NumPy arrays
(`examples.policies.Snapshot`, a few hundred kilobytes, played without
torch), and, unless ``--no-zip``, ``OUT/maskable-ppo-GAME.zip`` the whole
model (critic and optimizer too). Needs the ``train`` extra.

`examples/ppo_bot.py` measures a saved policy in the duplicate arena, where
it sits by name as any bot does (docs/learning.md, docs/baselines.md).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.monitor import Monitor

from pitkit import bots, games
from pitkit.adapters.encoding import Observation
from pitkit.adapters.gym import PitkitGym

if not __package__:  # run as a script: `examples` lies in the folder above this file's
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from examples import selfplay
from examples.policies import Snapshot, env_of

GAME = "ace-pit"
SELF = "self"
"""`--opponent self`: the other seats play frozen copies of the policy."""
ENV = env_of(GAME)
MODEL = "maskable-ppo-ace-pit.zip"


def model_file(game: str) -> str:
    """The name of the whole model's file: ``maskable-ppo-GAME.zip``."""
    return f"maskable-ppo-{game}.zip"


def policy_file(game: str) -> str:
    """The name of the policy's snapshot file: ``policy-GAME.npz``."""
    return f"policy-{game}.npz"


class Curve(BaseCallback):
    """Collects finished episodes' rewards; every `every` steps, one point of the curve."""

    def __init__(self, every: int) -> None:
        super().__init__()
        self.every = every
        self.rewards: list[float] = []
        self.points: list[tuple[int, float, float, int]] = []  # steps, mean, share, episodes

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:  # Monitor's summary of an episode that just ended
                self.rewards.append(float(info["episode"]["r"]))
        if self.num_timesteps % self.every == 0:
            self._point()
        return True

    def _point(self) -> None:
        if not self.rewards:
            return
        n = len(self.rewards)
        mean = sum(self.rewards) / n
        # Rewards run from +1 (first) to -1 (last), 0 for a draw of two:
        # (mean + 1) / 2 is the win share at a two-seat table.
        self.points.append((self.num_timesteps, mean, (mean + 1) / 2, n))
        print(f"{self.num_timesteps:>8} steps  reward {mean:+.3f}  share {(mean + 1) / 2:.3f}")
        self.rewards = []


class Refresh(BaseCallback):
    """Self-play: every `every` steps, the opponents' frozen copy becomes
    the policy as it is now (`examples.selfplay.freeze`)."""

    def __init__(self, env: str, every: int) -> None:
        super().__init__()
        self.env = env
        self.every = every

    def freeze(self) -> None:
        """Hand the policy as it is now to the opponents' seats."""
        selfplay.freeze(Snapshot.of(self.model.policy, self.env))

    def _on_step(self) -> bool:
        if self.num_timesteps % self.every == 0:
            self.freeze()
        return True


def make_env(opponent: str, game: str = GAME) -> Monitor[Observation, int]:
    """One-hand matches of `game` in seat 0, against `opponent` (a bot name,
    or `SELF`)."""
    seats = selfplay.NAME if opponent == SELF else opponent
    return Monitor(PitkitGym(env_of(game), seat=0, short=True, opponent=seats))


def train(
    steps: int,
    seed: int,
    opponent: str,
    *,
    game: str = GAME,
    log_every: int = 5_000,
    refresh: int = 16_384,
    **ppo: Any,
) -> tuple[MaskablePPO, Curve]:
    """A MaskablePPO model of `game` trained for `steps` steps against
    `opponent` (`SELF`: its own frozen copies, refreshed every `refresh`
    steps), and its learning curve."""
    if opponent != SELF:
        bots.make(games.get(game), opponent, 0, imports=True)  # fails before any training
    settings: dict[str, Any] = {
        "n_steps": 1024,
        "batch_size": 256,
        "n_epochs": 4,
        "learning_rate": 3e-4,
        "gamma": 1.0,  # a few moves, one reward at the end: no need to discount
        "ent_coef": 0.01,
        "policy_kwargs": {"net_arch": [128, 128]},
        **ppo,
    }
    model = MaskablePPO("MlpPolicy", make_env(opponent, game), seed=seed, device="cpu", **settings)
    curve = Curve(log_every)
    callbacks: list[BaseCallback] = [curve]
    if opponent == SELF:
        refreshing = Refresh(env_of(game), refresh)
        refreshing.init_callback(model)
        refreshing.freeze()  # the opponents start as the untrained policy
        callbacks.append(refreshing)
    try:
        model.learn(total_timesteps=steps, callback=CallbackList(callbacks))
    finally:
        selfplay.thaw(game)
    return model, curve


def snapshot(model: MaskablePPO, game: str, info: Mapping[str, Any] | None = None) -> Snapshot:
    """The trained policy's actor, with how it was trained (`info`)."""
    return Snapshot.of(model.policy, env_of(game), **(info or {}))


def save_curve(curve: Curve, out: Path, title: str, players: int = 2) -> None:
    """The curve as CSV, and as a PNG plot (matplotlib, without a display)."""
    share = "win_share" if players == 2 else "place_share"
    with (out / "learning-curve.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["steps", "mean_reward", share, "episodes"])
        writer.writerows(curve.points)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    label = "win share (hands)" if players == 2 else "(reward + 1) / 2: 1 first, 0 last"
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([p[0] for p in curve.points], [p[2] for p in curve.points], marker=".")
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set(xlabel="training steps", ylabel=label, title=title, ylim=(0, 1))
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "learning-curve.png", dpi=100)
    plt.close(fig)


def arguments() -> argparse.Namespace:
    """The command line's arguments."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=GAME, help="a game name (pitkit games)")
    parser.add_argument("--steps", type=int, default=200_000, help="environment steps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="greedy", help="a bot of the game, or 'self'")
    parser.add_argument("--refresh", type=int, default=16_384, help="self-play: steps a copy")
    parser.add_argument("--net", default="128,128", help="hidden layers' widths")
    parser.add_argument("--out", type=Path, default=Path("docs"), help="folder for the results")
    parser.add_argument("--log-every", type=int, default=5_000, help="steps a curve point")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--no-zip", action="store_true", help="save the policy's .npz only")
    return parser.parse_args()


def main() -> None:
    args = arguments()
    torch.set_num_threads(args.threads)  # the machine is shared: stay on one core
    args.out.mkdir(parents=True, exist_ok=True)
    net = [int(width) for width in args.net.split(",")]
    wall, cpu = time.perf_counter(), time.process_time()
    model, curve = train(
        args.steps,
        args.seed,
        args.opponent,
        game=args.game,
        log_every=args.log_every,
        refresh=args.refresh,
        policy_kwargs={"net_arch": net},
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    trained = {
        "game": args.game,
        "steps": model.num_timesteps,  # whole rollouts: at least --steps
        "seed": args.seed,
        "opponent": args.opponent,
        "net": net,
        "wall_seconds": round(wall),
        "cpu_seconds": round(cpu),
    }
    snapshot(model, args.game, trained).save(args.out / policy_file(args.game))
    if not args.no_zip:
        model.save(args.out / model_file(args.game))
    players = games.get(args.game).default_players
    title = f"MaskablePPO, {args.game} vs {args.opponent} (seed {args.seed})"
    save_curve(curve, args.out, title, players)
    print(json.dumps(trained))
    print(f"trained {args.steps} steps in {wall:.0f} s ({cpu:.0f} s of CPU); saved to {args.out}")


if __name__ == "__main__":
    main()
