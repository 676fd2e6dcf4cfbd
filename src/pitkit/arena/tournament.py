"""Round-robin arenas of bots: the schedule, the matches, and the standings.

The schedule is a list of `MatchSpec`, plain data made from the arena's seed
before anything runs, so a worker anywhere can play any match on its own and
the results do not depend on which worker finishes first: ratings are updated
in schedule order.

Tables: with at least as many bots as seats, every group of bots that fills
a table plays (round robin); with fewer, one table seats the bots in turn,
each in several seats. Seats: in ordinary play each match shifts a table's
seating by one seat. In duplicate play each deal is played once in every
distinct seating of its table's bots (see `pitkit.arena.duplicate`), so that
every bot meets the same cards from every seat and luck cancels out. The
seeds go with the seats too: whoever sits in seat 2 of a deal gets that
seat's seed in every seating. Two bots that would play alike (a search bot
keeping to the heuristic it improves, say) then play the very same game, so
only the moves where they differ move the result.

Bots go by name, so a schedule is plain data: pitkit's bots, installed
packages' (``pitkit.bots`` entry points) and ``module:attribute`` names of
the caller's own bots, which each worker imports for itself
(`pitkit.bots.agents`: the module must be importable there).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pitkit import bots as bot_registry
from pitkit import games
from pitkit.arena.backend import Backend
from pitkit.arena.duplicate import DuplicateChance, arrangements
from pitkit.arena.ratings import Ratings
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.rules import RuleSet
from pitkit.play import play_match

__all__ = [
    "ArenaReport",
    "MatchResult",
    "MatchSpec",
    "Standing",
    "batches",
    "interval",
    "play_spec",
    "run",
    "run_match",
    "run_matches",
    "schedule",
    "standings",
    "tables",
]

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class MatchSpec:
    """One match to play: everything a worker needs, as plain data."""

    index: int
    game: str
    players: int
    rules: Mapping[str, Any]
    seed: int
    seating: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    deal: int
    """Matches sharing a deal number share their cards (duplicate play)."""
    duplicate: bool = False


@dataclass(frozen=True)
class MatchResult:
    """How one match went, as plain data."""

    index: int
    deal: int
    seed: int
    seating: tuple[str, ...]
    ranks: tuple[int, ...]
    points: tuple[float, ...]
    decisions: int
    hands: int
    seconds: float
    summary: str

    def to_json(self) -> dict[str, Any]:
        """This result as JSON."""
        return {**asdict(self), "seating": list(self.seating)}


def tables(bot_names: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The lineups that play: every group of `seats` different bots; or, with
    fewer bots than seats or a bot named twice, one table seating the names
    in the order given, repeated as needed (``search,heuristic,heuristic,heuristic``
    puts one search bot against three heuristic ones)."""
    if len(set(bot_names)) == len(bot_names) >= seats:
        return list(itertools.combinations(bot_names, seats))
    return [tuple(bot_names[s % len(bot_names)] for s in range(seats))]


def schedule(
    game: Game,
    bot_names: Sequence[str],
    n: int,
    *,
    players: int | None = None,
    rules: RuleSet | Mapping[str, Any] | Iterable[str] | None = None,
    seed: int = 0,
    duplicate: bool = False,
) -> list[MatchSpec]:
    """The matches of an arena: `n` matches, or with `duplicate` `n` deals,
    each played in every distinct seating of its table.

    Tables take turns; in ordinary play a table's seating shifts by one seat
    each time it plays. `players` defaults to the game's usual table.
    """
    if not bot_names:
        raise ValueError("name at least one bot")
    seats = players or game.default_players
    rule_json = game.make_rules(rules).to_json()
    # Refuse a bad table size, bad rules or an unknown bot before anything runs.
    game.new_match(seats, rule_json, 0)
    for name in bot_names:
        bot_registry.make(game, name, 0, imports=True)
    lineups = tables(bot_names, seats)
    rng = random.Random(seed)
    specs: list[MatchSpec] = []
    for i in range(n):
        lineup = lineups[i % len(lineups)]
        match_seed = rng.getrandbits(63)
        seat_seeds: tuple[int, ...] | None = None
        if duplicate:
            seatings = arrangements(lineup)
            seat_seeds = tuple(rng.getrandbits(32) for _ in range(seats))
        else:
            shift = (i // len(lineups)) % seats
            seatings = [tuple(lineup[(s - shift) % seats] for s in range(seats))]
        for seating in seatings:
            specs.append(
                MatchSpec(
                    index=len(specs),
                    game=game.name,
                    players=seats,
                    rules=rule_json,
                    seed=match_seed,
                    seating=seating,
                    bot_seeds=seat_seeds or tuple(rng.getrandbits(32) for _ in seating),
                    deal=i,
                    duplicate=duplicate,
                )
            )
    return specs


def play_spec(spec: MatchSpec) -> tuple[Match[Any, Any], int]:
    """Play one scheduled match here: the finished match and its decisions."""
    game = games.get(spec.game)
    chance = DuplicateChance(spec.seed) if spec.duplicate else None
    match = game.new_match(spec.players, spec.rules, spec.seed, chance=chance)
    players = [
        bot_registry.make(game, name, seed, imports=True)
        for name, seed in zip(spec.seating, spec.bot_seeds, strict=True)
    ]
    return match, play_match(match, players, spec.seed)


def run_match(spec: MatchSpec) -> MatchResult:
    """Play one scheduled match (in whichever process runs it)."""
    start = time.perf_counter()
    match, decisions = play_spec(spec)
    seconds = time.perf_counter() - start
    outcome = match.outcome
    assert outcome is not None
    return MatchResult(
        index=spec.index,
        deal=spec.deal,
        seed=spec.seed,
        seating=spec.seating,
        ranks=tuple(outcome.ranks),
        points=tuple(outcome.points),
        decisions=decisions,
        hands=len(match.results),
        seconds=seconds,
        summary=outcome.summary,
    )


def run_matches(specs: Sequence[MatchSpec]) -> list[MatchResult]:
    """Play a batch of scheduled matches: the unit of work a backend runs."""
    return [run_match(spec) for spec in specs]


def batches(specs: Sequence[MatchSpec], workers: int) -> list[list[MatchSpec]]:
    """Cut the schedule into batches: about eight a worker, so that the load
    evens out, but no more than needed to keep each task's overhead small."""
    size = max(1, min(64, len(specs) // (8 * max(1, workers))))
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def run(
    specs: Sequence[MatchSpec],
    backend: Backend,
    on_result: Callable[[MatchResult], None] | None = None,
) -> list[MatchResult]:
    """Play every match on `backend`; return the results in schedule order."""
    results: list[MatchResult] = []
    for batch in backend.map_unordered(run_matches, batches(specs, backend.workers)):
        for result in batch:
            results.append(result)
            if on_result is not None:
                on_result(result)
    results.sort(key=lambda r: r.index)
    return results


@dataclass(frozen=True)
class Standing:
    """One bot's record in an arena."""

    bot: str
    mu: float
    sigma: float
    ordinal: float
    seats: int
    win_share: float
    ci: tuple[float, float]
    """A 95% interval for the win share, over matches (duplicate: over deals)."""
    mean_place: float

    def to_json(self) -> dict[str, Any]:
        """This standing as JSON."""
        return {**asdict(self), "ci": list(self.ci)}


def interval(samples: Sequence[float]) -> tuple[float, float]:
    """The normal 95% interval of the mean of `samples`, cut to [0, 1]."""
    n = len(samples)
    mean = sum(samples) / n
    if n < 2:
        return (mean, mean)
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    # A win share lies in [0, 1]; so does its interval.
    return (max(0.0, mean - half), min(1.0, mean + half))


def standings(bot_names: Sequence[str], results: Iterable[MatchResult]) -> list[Standing]:
    """Each bot's rating, win share and mean place, best rating first.

    A win shared by k seats counts 1/k to each. The interval treats each
    match (in duplicate play, each deal: its seatings share their luck) as
    one observation of the bot's mean win share over its seats.
    """
    bot_names = list(dict.fromkeys(bot_names))  # each bot once, in order
    ratings = Ratings(bot_names)
    seats = dict.fromkeys(bot_names, 0)
    wins = dict.fromkeys(bot_names, 0.0)
    places = dict.fromkeys(bot_names, 0)
    units: dict[str, dict[int, list[float]]] = {name: {} for name in bot_names}
    for result in sorted(results, key=lambda r: r.index):
        ratings.update(result.seating, result.ranks)
        winners = [s for s, rank in enumerate(result.ranks) if rank == 1]
        for seat, name in enumerate(result.seating):
            share = 1 / len(winners) if seat in winners else 0.0
            seats[name] += 1
            wins[name] += share
            places[name] += result.ranks[seat]
            units[name].setdefault(result.deal, []).append(share)
    out = []
    for name, rating in ratings.ranked():
        if not seats[name]:
            continue
        per_unit = [sum(shares) / len(shares) for shares in units[name].values()]
        out.append(
            Standing(
                bot=name,
                mu=rating.mu,
                sigma=rating.sigma,
                ordinal=rating.ordinal,
                seats=seats[name],
                win_share=wins[name] / seats[name],
                ci=interval(per_unit),
                mean_place=places[name] / seats[name],
            )
        )
    return out


@dataclass
class ArenaReport:
    """An arena's settings, results and standings, as saved to JSON."""

    game: str
    players: int
    rules: Mapping[str, Any]
    bots: list[str]
    n: int
    duplicate: bool
    seed: int
    backend: str
    workers: int
    seconds: float
    results: list[MatchResult]
    table: list[Standing] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The whole report as JSON."""
        decisions = sum(r.decisions for r in self.results)
        return {
            "game": self.game,
            "players": self.players,
            "rules": dict(self.rules),
            "bots": self.bots,
            "n": self.n,
            "duplicate": self.duplicate,
            "matches": len(self.results),
            "seed": self.seed,
            "backend": self.backend,
            "workers": self.workers,
            "seconds": self.seconds,
            "decisions": decisions,
            "standings": [s.to_json() for s in self.table],
            "results": [r.to_json() for r in self.results],
        }

    def save(self, path: Path) -> None:
        """Write the report to `path` as JSON."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
