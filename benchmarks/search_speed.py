"""Iterations per CPU second of the tree search bot (`search`), every game.

Positions come from seeded random play (2 to 11 random moves into a match,
where the seat to act has a choice); in each, `SearchBot` runs a fixed
number of iterations, and the median rate over the positions is printed.
A search bot with a time budget (``search:1s``) plays as well as the
iterations it gets, so this is how fast the engines are where it matters
most. Pit, played in real time, is left out: its bots search through the
real-time runner instead.

Run: ``python benchmarks/search_speed.py [--positions 8]``; for the
compiled engines, run it with the Python of an environment where pitkit is
installed from its wheel (``pip install .``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pitkit import games
from pitkit.bots import RandomBot, SearchBot
from pitkit.bots.search import Budget

GAMES = {"pitty-pat": 200, "ace-pit": 200, "pitch": 200, "pits": 40}
"""Each game measured, with the iterations a position (Pits' are slow)."""


def rates(name: str, iterations: int, positions: int) -> list[float]:
    """Iterations per CPU second of `SearchBot` in `positions` positions of `name`."""
    game = games.get(name)
    found: list[float] = []
    seed = 0
    while len(found) < positions:
        seed += 1
        match = game.new_match(seed=seed)
        mover = RandomBot(seed)
        for _ in range(random.Random(seed).randrange(2, 12)):
            if match.is_over:
                break
            seat = next(iter(match.to_act))
            match.apply(seat, mover.choose(match, seat))
        if match.is_over:
            continue
        seat = next(iter(match.to_act))
        if len(match.legal_actions(seat)) < 2:
            continue  # nothing to search
        bot = SearchBot(seed, Budget(iterations=iterations))
        start = time.process_time()
        bot.choose(match, seat)
        found.append(iterations / (time.process_time() - start))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=8, help="positions a game")
    args = parser.parse_args()
    print(f"{'game':10} {'iterations/s (median)':>22} {'min':>8} {'max':>8}")
    for name, iterations in GAMES.items():
        found = rates(name, iterations, args.positions)
        print(f"{name:10} {statistics.median(found):22,.0f} {min(found):8,.0f} {max(found):8,.0f}")


if __name__ == "__main__":
    main()
