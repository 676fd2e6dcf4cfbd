"""Train sb3-contrib's MaskablePPO on Ace Pit, one seat against a pitkit bot.

    python examples/train_maskable_ppo.py --steps 200000 --seed 1 --opponent greedy --out docs

The agent plays one-hand matches (``short=True``: seven tricks, reward +1
for winning the hand, -1 for losing it) in seat 0 of `PitkitGym`; the
encoding is relative, so the policy plays either seat. Every `--log-every`
steps the mean episode reward and the win share (a draw counts half) of
the episodes since the last log go to ``OUT/learning-curve.csv``; at the end
the model is saved to ``OUT/maskable-ppo-ace-pit.zip`` and the curve is
plotted to ``OUT/learning-curve.png``. Needs the ``train`` extra.

`examples/ppo_bot.py` measures the saved model in the duplicate arena,
where it sits by name as any bot does (``examples.ppo_bot:PPOBot``, with
``PITKIT_PPO_MODEL`` naming the model): ``--opponent`` takes the names
`pitkit bots ace-pit` lists, installed packages' bots among them.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor

from pitkit import bots, games
from pitkit.adapters.encoding import Observation
from pitkit.adapters.gym import PitkitGym

ENV = "pitkit/ace_pit-v0"
GAME = "ace-pit"
MODEL = "maskable-ppo-ace-pit.zip"


class Curve(BaseCallback):
    """Collects finished episodes' rewards; every `every` steps, one point of the curve."""

    def __init__(self, every: int) -> None:
        super().__init__()
        self.every = every
        self.rewards: list[float] = []
        self.points: list[tuple[int, float, float, int]] = []  # steps, mean, win share, episodes

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
        # Rewards are +1, 0, -1 (win, draw, loss): (mean + 1) / 2 is the win share.
        self.points.append((self.num_timesteps, mean, (mean + 1) / 2, n))
        print(f"{self.num_timesteps:>8} steps  reward {mean:+.3f}  win share {(mean + 1) / 2:.3f}")
        self.rewards = []


def make_env(opponent: str) -> Monitor[Observation, int]:
    """One-hand Ace Pit matches in seat 0, against `opponent`."""
    return Monitor(PitkitGym(ENV, seat=0, short=True, opponent=opponent))


def train(
    steps: int, seed: int, opponent: str, *, log_every: int = 5_000, **ppo: Any
) -> tuple[MaskablePPO, Curve]:
    """A MaskablePPO model trained for `steps` steps, and its learning curve."""
    bots.make(games.get(GAME), opponent, 0)  # an unknown bot fails before any training
    settings: dict[str, Any] = {
        "n_steps": 1024,
        "batch_size": 256,
        "n_epochs": 4,
        "learning_rate": 3e-4,
        "gamma": 1.0,  # seven moves, one reward at the end: no need to discount
        "ent_coef": 0.01,
        "policy_kwargs": {"net_arch": [128, 128]},
        **ppo,
    }
    model = MaskablePPO("MlpPolicy", make_env(opponent), seed=seed, device="cpu", **settings)
    curve = Curve(log_every)
    model.learn(total_timesteps=steps, callback=curve)
    return model, curve


def save_curve(curve: Curve, out: Path, title: str) -> None:
    """The curve as CSV, and as a PNG plot (matplotlib, without a display)."""
    with (out / "learning-curve.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["steps", "mean_reward", "win_share", "episodes"])
        writer.writerows(curve.points)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([p[0] for p in curve.points], [p[2] for p in curve.points], marker=".")
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set(xlabel="training steps", ylabel="win share (hands)", title=title, ylim=(0, 1))
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "learning-curve.png", dpi=100)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200_000, help="environment steps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="greedy", help="a pitkit bot for Ace Pit")
    parser.add_argument("--out", type=Path, default=Path("docs"), help="folder for the results")
    parser.add_argument("--log-every", type=int, default=5_000, help="steps a curve point")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)  # the machine is shared: stay on one core
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    model, curve = train(args.steps, args.seed, args.opponent, log_every=args.log_every)
    seconds = time.perf_counter() - start
    model.save(args.out / MODEL)
    title = f"MaskablePPO, Ace Pit vs {args.opponent} (seed {args.seed})"
    save_curve(curve, args.out, title)
    print(f"trained {args.steps} steps in {seconds:.0f} s; saved {args.out / MODEL}")


if __name__ == "__main__":
    main()
