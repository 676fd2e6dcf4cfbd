"""Random-play speed of every registered game, single process.

Prints hands/s, matches/s and decisions/s (one decision = one applied action),
with bots choosing uniformly among the legal actions. A real-time game (Pit)
is played on its virtual clock, as `benchmarks/anchors.py` plays it: its
decisions are the actions taken, not those refused in races. Run it as
``python benchmarks/bench.py [--seconds S] [GAME ...]``.
"""

from __future__ import annotations

import argparse
import time

from pitkit import games
from pitkit.bots import RandomBot
from pitkit.play import play_match


def measure(name: str, seconds: float) -> tuple[float, float, float]:
    """(matches/s, hands/s, decisions/s) of random play of `name` for about `seconds`."""
    game = games.get(name)
    matches = hands = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        match = game.new_match(rules=dict(game.short_match), seed=matches)
        bots = [RandomBot(matches * 10 + seat) for seat in range(match.players)]
        decisions += play_match(match, bots, matches)
        hands += len(match.results)
        matches += 1
    elapsed = time.perf_counter() - start
    return matches / elapsed, hands / elapsed, decisions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=games.names())
    parser.add_argument("--seconds", type=float, default=5.0, help="time per game")
    args = parser.parse_args()
    print(f"{'game':<12} {'players':>7} {'matches/s':>10} {'hands/s':>10} {'decisions/s':>12}")
    for name in args.games:
        per_match, per_hand, per_decision = measure(name, args.seconds)
        players = games.get(name).default_players
        print(
            f"{name:<12} {players:>7} {per_match:>10,.1f} {per_hand:>10,.1f} {per_decision:>12,.0f}"
        )


if __name__ == "__main__":
    main()
