"""Which of Pit's samplers leads the rollout bot to better moves.

Win shares in the arena need hundreds of deals to tell a few points apart;
this asks the question one decision at a time. Positions are made as in
`pit_sampler.py`: four `sensible` traders trade in real time on the virtual
clock until the hand has had `--trades` trades. At each, every seat whose
`sensible` trader would act now is given a move by the rollout bot
(`--iterations` deals a move), once for each way of drawing the cards it
cannot see:

- **peek**: the true hands (the ceiling: what knowing them is worth);
- **particle filter**: the sampler, `pit.belief.sample_unseen`;
- **bounds and gathering**: its fallback, `sampler.sample_bounded`;
- **a random deal**: the unseen cards dealt afresh.

Each move is then judged in the true position: its mean utility over
`--judge` playouts with the heuristic in every seat (points above the
table's mean plus a quarter point a place), less that of the heuristic's
own move on the same seeds. Columns: how often the bot left the heuristic's
move, how often its move was the peeking bot's, and its mean gain over the
heuristic's move with a 95% interval.

Run: ``python benchmarks/pit_decisions.py [--positions N] [--trades K]
[--iterations I] [--judge J]``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from typing import Any

import pit_sampler
from pitkit.bots.playout import Sampler, game_of, heuristic, peek
from pitkit.bots.rollouts import RolloutBot, play_out
from pitkit.bots.search import Budget
from pitkit.games.pit import PitHand, particles
from pitkit.play import RealtimeBot

SAMPLERS: dict[str, Sampler] = {"peek": peek, **pit_sampler.SAMPLERS}


class Judge:
    """Each move's true worth in one position, on common seeds, less the heuristic's."""

    def __init__(self, hand: PitHand, seat: int, proposal: Any, playouts: int, seed: int) -> None:
        self.hand, self.seat = hand, seat
        self.policy = game_of(hand).heuristic
        rng = random.Random(f"{seed}/judge")
        self.seeds = [rng.getrandbits(64) for _ in range(playouts)]
        self.base = self._worth(proposal)
        self._known: dict[Any, float] = {proposal: 0.0}

    def _worth(self, move: Any) -> float:
        worth = sum(play_out(self.hand, self.seat, move, self.policy, s) for s in self.seeds)
        return worth / len(self.seeds)

    def gain(self, move: Any) -> float:
        """How much better `move` does than the heuristic's in the true position."""
        if move not in self._known:
            self._known[move] = self._worth(move) - self.base
        return self._known[move]


def interval(values: list[float]) -> str:
    """Mean and 95% normal interval."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return f"{mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=60, help="hands played (default 60)")
    parser.add_argument("--trades", type=int, default=8, help="trades before deciding")
    parser.add_argument("--iterations", type=int, default=50, help="deals a move")
    parser.add_argument("--judge", type=int, default=200, help="playouts judging a move")
    args = parser.parse_args()
    start = time.process_time()
    departs: dict[str, int] = dict.fromkeys(SAMPLERS, 0)
    agrees: dict[str, int] = dict.fromkeys(SAMPLERS, 0)
    gains: dict[str, list[float]] = {name: [] for name in SAMPLERS}
    by_kind: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    decisions = 0
    for seed in range(args.positions):
        hand = pit_sampler.position(seed, args.trades)
        if hand is None:
            continue
        particles.forget()
        for seat in range(hand.players):
            bot_seed = seed * 10 + seat
            _, guide = heuristic(game_of(hand), bot_seed)
            assert isinstance(guide, RealtimeBot)
            proposal = guide.act(hand, seat)
            if proposal is None:
                continue
            decisions += 1
            judge = Judge(hand, seat, proposal, args.judge, bot_seed)
            moves = {}
            for name, sample in SAMPLERS.items():
                bot = RolloutBot(bot_seed, Budget(iterations=args.iterations), sample=sample)
                moves[name] = bot.act(hand, seat)
            for name, move in moves.items():
                departs[name] += move != proposal
                agrees[name] += move == moves["peek"]
                gain = judge.gain(move)
                gains[name].append(gain)
                by_kind[name, proposal.kind, move.kind].append(gain)
    print(
        f"{decisions} decisions in {args.positions} hands after {args.trades} trades;"
        f" {args.iterations} deals a move, each move judged over {args.judge} playouts"
        f" ({time.process_time() - start:.0f} s)"
    )
    print(f"{'sampler':34} {'departs':>8} {'as peek':>8}  gain over the heuristic's move (95%)")
    for name in SAMPLERS:
        print(
            f"{name:34} {departs[name] / decisions:8.1%} {agrees[name] / decisions:8.1%}"
            f"  {interval(gains[name])}"
        )
    print(f"\n{'sampler':34} {'heuristic -> bot':20} {'moves':>6} {'mean gain':>10} {'of all':>8}")
    order = list(SAMPLERS)
    for (name, proposed, made), values in sorted(
        by_kind.items(), key=lambda item: (order.index(item[0][0]), item[0][1:])
    ):
        total = sum(gains[name]) or 1.0
        print(
            f"{name:34} {proposed + ' -> ' + made:20} {len(values):6}"
            f" {sum(values) / len(values):+10.2f} {sum(values) / total:8.0%}"
        )


if __name__ == "__main__":
    main()
