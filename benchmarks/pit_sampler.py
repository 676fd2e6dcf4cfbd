"""How well Pit's sampler reads the other traders' cards.

Four `sensible` traders play a hand in real time on the virtual clock, as
in the arena, until it has had `--trades` trades; then seat 0 samples the
cards it cannot see `--samples` times, and each sample is checked against
the true hands, for each other trader:

- **leader**: the commodity it holds most of (the more valuable on ties);
- **offer**: the commodity of its open offer, if it has one.

For each, the share of samples that name it right (*right*), the mean log
loss of that share (*log loss*, floored at 1/50; lower is better: a sampler
sure and wrong pays most), and how often no sample names it (*never*).
The rows are the sampler (the particle filter), the fallback it replaces
(bounds and gathering), and a random deal of the unseen cards.

Run: ``python benchmarks/pit_sampler.py [--positions N] [--trades K] [--samples S]``.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import time
from typing import Any

from pitkit.bots.playout import Sampler, sample_unseen
from pitkit.cards import Commodity
from pitkit.core.state import State
from pitkit.games import get
from pitkit.games.pit import PitHand, SensibleTrader, belief, particles
from pitkit.games.pit.habits import collection
from pitkit.play.realtime import VirtualRun


def _bounded(state: State[Any], seat: int, rng: random.Random) -> State[Any]:
    assert isinstance(state, PitHand)
    return belief.sample_bounded(state, seat, rng)


#: The ways of drawing the cards a seat cannot see, compared here and in
#: `pit_decisions.py`.
SAMPLERS: dict[str, Sampler] = {
    "particle filter (the sampler)": sample_unseen,
    "bounds and gathering (fallback)": _bounded,
    "a random deal": lambda h, seat, rng: h.redeal_unseen(seat, rng),
}


class _EnoughTradesError(Exception):
    """The hand has had the trades asked for."""


class _Watched:
    """A sensible trader that stops the run once the hand has `trades` trades."""

    def __init__(self, seed: int, trades: int) -> None:
        self.bot = SensibleTrader(seed)
        self.trades = trades
        self.think_time = self.bot.think_time

    def act(self, state: Any, player: int) -> Any:
        hand = state.hand
        if len(hand.trades) >= self.trades:
            raise _EnoughTradesError
        return self.bot.act(state, player)

    def choose(self, state: Any, player: int) -> Any:
        return self.bot.choose(state, player)


def position(seed: int, trades: int) -> PitHand | None:
    """A hand of four sensible traders after `trades` trades (None if it ended first)."""
    match = get("pit").new_match(4, {"hand_limit": 1}, seed=seed)
    with contextlib.suppress(_EnoughTradesError):
        VirtualRun(match, [_Watched(seed * 10 + s, trades) for s in range(4)], seed).run()
    hand = match.hand
    assert isinstance(hand, PitHand)
    return None if hand.is_over else hand


def _commodity(cards: tuple[Any, ...]) -> Commodity | None:
    return next((c.commodity for c in cards if c.commodity is not None), None)


def measure(
    hands: list[PitHand], sample: Sampler, samples: int
) -> tuple[list[float], list[float], float]:
    """Per trader and per open offer, the share of samples right; and seconds a hand."""
    leaders: list[float] = []
    offers: list[float] = []
    start = time.process_time()
    for seed, hand in enumerate(hands):
        particles.forget()
        rng = random.Random(seed)
        drawn: list[PitHand] = []
        for _ in range(samples):
            world = sample(hand, 0, rng)
            assert isinstance(world, PitHand)
            drawn.append(world)
        for s in range(1, hand.players):
            truth = collection(hand.holding(s))
            leaders.append(sum(collection(d.holding(s)) == truth for d in drawn) / samples)
            offer = hand.offers.get(s)
            if offer is not None:
                kind = _commodity(offer.cards)
                offers.append(sum(_commodity(d.offers[s].cards) == kind for d in drawn) / samples)
    return leaders, offers, (time.process_time() - start) / len(hands)


def summary(shares: list[float]) -> str:
    right = sum(shares) / len(shares)
    loss = sum(-math.log(max(p, 0.02)) for p in shares) / len(shares)
    never = sum(p == 0 for p in shares) / len(shares)
    return f"{right:6.1%} {loss:8.2f} {never:6.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=150, help="hands played (default 150)")
    parser.add_argument("--trades", type=int, default=8, help="trades before sampling")
    parser.add_argument("--samples", type=int, default=40, help="samples a position")
    args = parser.parse_args()
    hands = [h for seed in range(args.positions) if (h := position(seed, args.trades))]
    print(
        f"{len(hands)} positions after {args.trades} trades, {args.samples} samples each;"
        f" {particles.PARTICLES} particles"
    )
    heads = "leader: right log loss  never", "offer: right log loss  never"
    print(f"{'sampler':34} {heads[0]:32} {heads[1]:32} ms/hand")
    for name, sample in SAMPLERS.items():
        leaders, offers, seconds = measure(hands, sample, args.samples)
        print(f"{name:34} {summary(leaders):32} {summary(offers):32} {seconds * 1000:7.0f}")
    print(f"({len(leaders)} traders, {len(offers)} open offers)")


if __name__ == "__main__":
    main()
