"""Pits move generation: time to list every lead of an 11-card hand holding
both Jokers and two 2s (the issue's worst case), and of random 11-card hands.

Each figure is the mean CPU time a hand over a round of `--hands` hands;
the rounds are repeated, and the median and best rounds are printed, as a
shared host's noise only ever adds time.

Run: ``python benchmarks/pits_movegen.py [--hands N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
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


def timed(
    hands: list[list[Card]], generate: Callable[[list[Card]], int], rounds: int
) -> tuple[float, float, float]:
    """(median ms a hand, best ms a hand, plays a hand) over `rounds` rounds."""
    times = []
    for _ in range(rounds):
        # CPU time of this process: steadier than wall time on a shared machine.
        start = time.process_time()
        plays = sum(generate(h) for h in hands)
        times.append(1000 * (time.process_time() - start) / len(hands))
    return statistics.median(times), min(times), plays / len(hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    for label, hands in (
        ("both Jokers + two 2s", wild_hands(args.hands, 1)),
        ("random 11 cards", random_hands(args.hands, 2)),
    ):
        median, best, plays = timed(hands, lambda h: len(legal_plays(h)), args.rounds)
        print(
            f"{label:<22} {median:.3f} ms a hand (median round), {best:.3f} ms (best round), "
            f"{plays:.0f} leads a hand"
        )


if __name__ == "__main__":
    main()
