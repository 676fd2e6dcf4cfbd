"""How real-time bots fare, hand by hand, on the virtual clock.

``python benchmarks/pit_survey.py pit sensible,strong,random-trader --hands 1000``
plays that many hands with the seating rotated one seat every
`hands_per_seating` hands, and prints for each bot its win rate (the share
of its hands it won, i.e. cornered in Pit), its points per hand, and the
average virtual time from the opening to a corner, and the simulation's
speed. Matches are played with the target and stall limit out of reach, so
every hand counts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pitkit import bots as bot_registry
from pitkit import games
from pitkit.core.game import Game
from pitkit.play.realtime import VirtualRun

__all__ = ["BotRecord", "Survey", "main", "survey"]


@dataclass
class BotRecord:
    """One bot's results over the hands it played."""

    hands: int = 0
    won: int = 0
    points: int = 0
    corner_times: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        """The share of its hands that it won."""
        return self.won / self.hands if self.hands else 0.0


@dataclass
class Survey:
    """The results of `survey`."""

    bots: dict[str, BotRecord]
    hands: int
    cornered: int
    corner_times: list[float]
    hand_trades: list[int]
    trades: int
    decisions: int
    seconds: float
    virtual_seconds: float

    @property
    def mean_corner_time(self) -> float:
        """Average virtual seconds from the opening to a corner."""
        return statistics.fmean(self.corner_times) if self.corner_times else float("nan")


def survey(
    game: Game,
    bot_names: Sequence[str],
    hands: int,
    *,
    players: int | None = None,
    hands_per_seating: int = 10,
    seed: int = 0,
    options: Sequence[str] = (),
) -> Survey:
    """Play `hands` hands of real-time bots, rotating the seating."""
    seats = players or len(bot_names)
    rng = random.Random(seed)
    records = {name: BotRecord() for name in bot_names}
    result = Survey(records, 0, 0, [], [], 0, 0, 0.0, 0.0)
    start = time.perf_counter()
    shift = 0
    while result.hands < hands:
        n = min(hands_per_seating, hands - result.hands)
        seating = [bot_names[(s - shift) % len(bot_names)] for s in range(seats)]
        shift += 1
        rules = [*options, f"hand_limit={n}", "target=1000000000"]
        match_seed = rng.getrandbits(63)
        match = game.new_match(seats, rules, match_seed)
        bots = [bot_registry.make(game, name, match_seed + s + 1) for s, name in enumerate(seating)]
        run = VirtualRun(match, bots, match_seed)
        result.decisions += run.run()
        result.trades += run.table.trades
        result.virtual_seconds += run.now
        for outcome, timing in zip(match.results, run.table.timings, strict=False):
            result.hands += 1
            result.hand_trades.append(timing.trades)
            winner = outcome.detail.get("cornerer")
            for seat, name in enumerate(seating):
                records[name].hands += 1
                records[name].points += int(outcome.points[seat])
            if winner is not None and timing.trading_time is not None:
                result.cornered += 1
                result.corner_times.append(timing.trading_time)
                records[seating[winner]].won += 1
                records[seating[winner]].corner_times.append(timing.trading_time)
    result.seconds = time.perf_counter() - start
    return result


def main(argv: Sequence[str] | None = None) -> None:
    """Print a survey (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("bots", help="bot names, comma-separated, one a seat")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--option", action="append", default=[])
    args = parser.parse_args(argv)
    game = games.get(args.game)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    s = survey(game, names, args.hands, players=args.players, seed=args.seed, options=args.option)
    print(
        f"{game.title}: {s.hands} hands, {len(names)} bots"
        f"{'' if args.players is None else f', {args.players} seats'}, seed {args.seed}"
    )
    print(f"{'bot':<16}{'hands':>7}{'win rate':>10}{'points/hand':>13}{'own corner s':>14}")
    for name, r in s.bots.items():
        mean = statistics.fmean(r.corner_times) if r.corner_times else float("nan")
        print(f"{name:<16}{r.hands:>7}{r.win_rate:>10.1%}{r.points / r.hands:>13.1f}{mean:>14.1f}")
    trades = sorted(s.hand_trades)
    print(
        f"trades a hand: median {trades[len(trades) // 2]}, "
        f"95th percentile {trades[int(len(trades) * 0.95)]}, most {trades[-1]}"
    )
    print(
        f"cornered {s.cornered}/{s.hands} hands; average time to a corner "
        f"{s.mean_corner_time:.1f} virtual s; {s.trades / s.seconds:,.0f} trades/s, "
        f"{s.decisions / s.seconds:,.0f} decisions/s, {s.virtual_seconds / s.seconds:,.0f}x "
        f"real time ({s.seconds:.1f} s)"
    )


if __name__ == "__main__":
    main()
