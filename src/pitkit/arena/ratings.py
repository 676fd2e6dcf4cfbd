"""Ratings of bots from multiplayer results, with openskill's Plackett-Luce model.

Each seat of a match is a team of one, ranked by the match's outcome (ties
allowed). A bot that sits in several seats of one match (two bots at a table
of four) is rated once per seat from the same prior, and its new rating is
the mean of those: it learns from every seat, but a match counts once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = ["Rating", "Ratings"]


@dataclass(frozen=True)
class Rating:
    """A bot's skill estimate: mean `mu`, uncertainty `sigma`, and the
    conservative `ordinal` (mu - 3 sigma) that leaderboards sort by."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a skill the bot has with about 99.9% confidence."""
        return self.mu - 3 * self.sigma


class Ratings:
    """Running ratings of named bots; update them match by match, in a fixed order."""

    def __init__(self, names: Iterable[str]) -> None:
        self.model = PlackettLuce()
        self._ratings: dict[str, PlackettLuceRating] = {
            name: self.model.rating(name=name) for name in names
        }
        self.matches = 0

    def update(self, seating: Sequence[str], ranks: Sequence[int]) -> None:
        """Record one match: the bot in each seat, and each seat's place (1 is best)."""
        # A fresh copy a seat: openskill tells players apart by identity.
        teams = [
            [self.model.rating(mu=self._ratings[name].mu, sigma=self._ratings[name].sigma)]
            for name in seating
        ]
        rated = self.model.rate(teams, ranks=[float(r) for r in ranks])
        new: dict[str, list[PlackettLuceRating]] = {}
        for name, team in zip(seating, rated, strict=True):
            new.setdefault(name, []).append(team[0])
        for name, copies in new.items():
            rating = self._ratings[name]
            rating.mu = sum(r.mu for r in copies) / len(copies)
            rating.sigma = sum(r.sigma for r in copies) / len(copies)
        self.matches += 1

    def __getitem__(self, name: str) -> Rating:
        rating = self._ratings[name]
        return Rating(rating.mu, rating.sigma)

    def ranked(self) -> list[tuple[str, Rating]]:
        """Every bot with its rating, best ordinal first."""
        return sorted(
            ((name, self[name]) for name in self._ratings), key=lambda item: -item[1].ordinal
        )
