"""Running bots against each other: one match, or many with statistics.

`simulate` plays here, one match after another; `simulation` is the same
matches as a schedule of `MatchSpec`, which `tournament.run` plays on any
backend (processes, Ray) with the same results.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pitkit.arena.tournament import MatchSpec, play_spec
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.rules import RuleSet
from pitkit.core.state import Outcome

__all__ = ["Played", "Seated", "Tally", "simulate", "simulation"]


@dataclass
class Played:
    """One finished match: the match itself, who sat where, and how many decisions it took."""

    match: Match[Any, Any]
    seating: tuple[str, ...]
    decisions: int

    @property
    def outcome(self) -> Outcome:
        """The match's outcome."""
        assert self.match.outcome is not None
        return self.match.outcome

    @property
    def ranks(self) -> tuple[int, ...]:
        """Each seat's place, 1 first."""
        return tuple(self.outcome.ranks)


def simulation(
    game: Game,
    bot_names: Sequence[str],
    n: int,
    *,
    players: int | None = None,
    rules: RuleSet | None = None,
    seed: int = 0,
    rotate: bool = True,
) -> list[MatchSpec]:
    """The `n` matches `simulate` plays, as plain data for any backend.

    Bots are assigned to seats in the order given, repeating the list as
    needed; with `rotate`, the seating shifts by one seat each match. The
    table has `players` seats, by default one a bot, or the game's usual
    number when one bot is named. Each match has its own seed drawn from
    `seed`; seat s's bot is seeded with the match's seed + s + 1.
    """
    named = game.default_players if len(bot_names) == 1 else len(bot_names)
    seats = players or max(game.min_players, min(named, game.max_players))
    rule_json = game.make_rules(rules).to_json()
    seeds = random.Random(seed)
    specs = []
    for i in range(n):
        shift = i % seats if rotate else 0
        seating = tuple(bot_names[(s - shift) % len(bot_names)] for s in range(seats))
        match_seed = seeds.getrandbits(63)
        specs.append(
            MatchSpec(
                index=i,
                game=game.name,
                players=seats,
                rules=rule_json,
                seed=match_seed,
                seating=seating,
                bot_seeds=tuple(match_seed + s + 1 for s in range(seats)),
                deal=i,
            )
        )
    return specs


def simulate(
    game: Game,
    bot_names: Sequence[str],
    n: int,
    *,
    players: int | None = None,
    rules: RuleSet | None = None,
    seed: int = 0,
    rotate: bool = True,
) -> Iterator[Played]:
    """Play the `simulation` of these arguments here, one match at a time."""
    specs = simulation(game, bot_names, n, players=players, rules=rules, seed=seed, rotate=rotate)
    for spec in specs:
        match, decisions = play_spec(spec)
        yield Played(match, spec.seating, decisions)


class Seated(Protocol):
    """A finished match as `Tally` counts it: a `Played`, or a
    `tournament.MatchResult` from a backend."""

    @property
    def seating(self) -> tuple[str, ...]:
        """The bot in each seat."""
        ...

    @property
    def ranks(self) -> tuple[int, ...]:
        """Each seat's place, 1 first."""
        ...


@dataclass
class Tally:
    """Win shares and places per bot over many matches. A win shared by k
    seats counts 1/k to each."""

    matches: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    rank_sum: dict[str, int] = field(default_factory=dict)

    def add(self, played: Seated) -> None:
        """Count one match."""
        ranks = played.ranks
        winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
        for seat, name in enumerate(played.seating):
            self.matches[name] = self.matches.get(name, 0) + 1
            self.rank_sum[name] = self.rank_sum.get(name, 0) + ranks[seat]
            share = 1 / len(winners) if seat in winners else 0.0
            self.wins[name] = self.wins.get(name, 0.0) + share

    def rows(self) -> list[tuple[str, int, float, float]]:
        """(bot, seats played, win share, mean place) for each bot."""
        return [
            (name, count, self.wins[name] / count, self.rank_sum[name] / count)
            for name, count in self.matches.items()
        ]
