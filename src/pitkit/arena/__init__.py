"""Running bots against each other: one match, or many with statistics."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pitkit import bots as bot_registry
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.rules import RuleSet
from pitkit.core.state import Outcome
from pitkit.play import play_match

__all__ = ["Played", "Tally", "simulate"]


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
    """Play `n` matches of bots, each from its own seed derived from `seed`.

    Bots are assigned to seats in the order given, repeating the list as
    needed; with `rotate`, the seating shifts by one seat each match. The
    table has `players` seats, by default one a bot, or the game's usual
    number when one bot is named.
    """
    named = game.default_players if len(bot_names) == 1 else len(bot_names)
    seats = players or max(game.min_players, min(named, game.max_players))
    seeds = random.Random(seed)
    for i in range(n):
        shift = i % seats if rotate else 0
        seating = tuple(bot_names[(s - shift) % len(bot_names)] for s in range(seats))
        match_seed = seeds.getrandbits(63)
        match = game.new_match(seats, rules, match_seed)
        bots = [bot_registry.make(game, name, match_seed + s + 1) for s, name in enumerate(seating)]
        decisions = play_match(match, bots, match_seed)
        yield Played(match, seating, decisions)


@dataclass
class Tally:
    """Win shares and places per bot over many matches. A win shared by k
    seats counts 1/k to each."""

    matches: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    rank_sum: dict[str, int] = field(default_factory=dict)

    def add(self, played: Played) -> None:
        """Count one match."""
        outcome = played.outcome
        winners = outcome.winners
        for seat, name in enumerate(played.seating):
            self.matches[name] = self.matches.get(name, 0) + 1
            self.rank_sum[name] = self.rank_sum.get(name, 0) + outcome.ranks[seat]
            share = 1 / len(winners) if seat in winners else 0.0
            self.wins[name] = self.wins.get(name, 0.0) + share

    def rows(self) -> list[tuple[str, int, float, float]]:
        """(bot, seats played, win share, mean place) for each bot."""
        return [
            (name, count, self.wins[name] / count, self.rank_sum[name] / count)
            for name, count in self.matches.items()
        ]
