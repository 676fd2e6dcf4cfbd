"""How fast this machine is right now: a fixed piece of pure Python work, timed.

The suite's time says little alone: the same tests took 53 s one day and 1 min 53 s
four days later, on a machine of the same kind (docs/testing.md, "The machine's
speed"). This work never changes with pitkit's code (it imports nothing of it), so
its time is an anchor for any run beside it: `make test` prints it before the first
stage and after the last. Each round is a seeded mix of what the tests spend their
Python on (small objects, dicts, lists, text, JSON); the best of the rounds is the
least disturbed by whatever else the machine ran.

    python benchmarks/gauge.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class _Card:
    rank: int
    suit: str


def _round() -> int:
    """One round of the work; returns a checksum, so that none of it is skipped."""
    rng = random.Random(2026)
    total = 0
    for deal in range(2000):
        deck = [_Card(rank, suit) for suit in "SHDC" for rank in range(2, 15)]
        rng.shuffle(deck)
        hands: dict[int, list[_Card]] = {seat: deck[seat::4] for seat in range(4)}
        for seat, hand in hands.items():
            hand.sort(key=lambda card: (card.suit, card.rank))
            text = " ".join(f"{card.rank}{card.suit}" for card in hand)
            total += len(text) + seat
        doc = json.loads(json.dumps({str(s): [c.rank for c in h] for s, h in hands.items()}))
        total += sum(sum(ranks) for ranks in doc.values()) + deal
    return total


def measure(rounds: int) -> list[float]:
    """The CPU seconds of each of `rounds` rounds."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        _round()
        times.append(time.process_time() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    times = measure(parser.parse_args().rounds)
    print(
        f"machine gauge: {min(times):.3f} s of CPU a round "
        f"(best of {len(times)}; median {statistics.median(times):.3f} s)"
    )


if __name__ == "__main__":
    main()
