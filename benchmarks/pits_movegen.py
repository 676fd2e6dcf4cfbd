"""Pits move generation: time to list every lead of an 11-card hand holding
both Jokers and two 2s (the issue's worst case), and of random 11-card hands.

Run: ``python benchmarks/pits_movegen.py [--hands N]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from pitkit.cards import Card, standard_deck
from pitkit.games.pits.melds import legal_plays


def wild_hands(n: int, seed: int) -> list[list[Card]]:
    """11-card hands: RJ, BJ, two 2s and seven other cards."""
    rng = random.Random(seed)
    deck = standard_deck()
    plain = [c for c in deck if c.rank != 2]
    twos = [c for c in deck if c.rank == 2]
    return [[Card.RJ, Card.BJ, *rng.sample(twos, 2), *rng.sample(plain, 7)] for _ in range(n)]


def random_hands(n: int, seed: int) -> list[list[Card]]:
    """Random 11-card hands from the 54-card pack."""
    rng = random.Random(seed)
    deck = standard_deck(jokers=True)
    return [rng.sample(deck, 11) for _ in range(n)]


def timed(hands: list[list[Card]], generate: Callable[[list[Card]], int]) -> tuple[float, float]:
    """(mean ms a hand, mean plays a hand)."""
    # CPU time of this process: steadier than wall time on a shared machine.
    start = time.process_time()
    plays = sum(generate(h) for h in hands)
    elapsed = time.process_time() - start
    return 1000 * elapsed / len(hands), plays / len(hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    for label, hands in (
        ("both Jokers + two 2s", wild_hands(args.hands, 1)),
        ("random 11 cards", random_hands(args.hands, 2)),
    ):
        ms, plays = timed(hands, lambda h: len(legal_plays(h)))
        print(f"{label:<22} {ms:.3f} ms a hand, {plays:.0f} leads a hand")


if __name__ == "__main__":
    main()
