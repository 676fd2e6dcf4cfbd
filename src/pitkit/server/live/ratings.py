"""People's ratings (docs/ratings.md): who a finished match rates, how its places move
their openskill ratings, and how a rating is shown.

A match is rated when at least two people sat at it at the end: profiles or guests.
Each profile's rating in that game moves by its place among the people, with
openskill's Plackett-Luce model, as the arena rates bots (`pitkit.arena.ratings`).
A guest plays as a newcomer would, at the starting rating, and keeps nothing. Bots
do not count at all: the places are the people's among themselves. A bot's
strength depends on the bot and the table's settings, and is not measured on the
people's scale (the arena rates bots against bots); counting it as a guessed fixed
strength would let anyone gain points by beating an easy bot.

The rating shown is openskill's mean on a scale where a newcomer has 1,500, with the
range ± two standard deviations, which holds the player's true strength about 19
times in 20. A leaderboard ranks by the low end of that range.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from pitkit.arena.ratings import Rating
from pitkit.server.store.ratings import Change, SeatResult, rate_match, unrated
from pitkit.server.store.storage import Store

__all__ = [
    "LEAST_MATCHES",
    "PRIOR",
    "SCALE",
    "SPREAD",
    "Shown",
    "enough_people",
    "rate_finished",
    "rate_missed",
    "rated",
    "shown",
]

log = logging.getLogger("pitkit.server")

MODEL = PlackettLuce()
"""openskill's model, with its defaults: the arena's."""

PRIOR = Rating(MODEL.mu, MODEL.sigma)
"""A newcomer's rating (and every guest's, at every match)."""

SCALE = 60.0
"""Points shown per openskill point: a newcomer's 25 is shown as 1,500."""

SPREAD = 2.0
"""The range shown is the mean ± this many standard deviations (about 19 times in 20)."""

LEAST_MATCHES = 5
"""A game's leaderboard lists the profiles rated in at least this many of its matches."""


def enough_people(kinds: Iterable[str]) -> bool:
    """Whether a match whose seats are of these kinds may be rated: two people or more
    (seats of kind "player"); bots alone, or one person and bots, never are."""
    return sum(kind == "player" for kind in kinds) >= 2


def rated(seats: Sequence[SeatResult]) -> dict[int, Change]:
    """How a finished match changes each profile's rating, by seat: empty when fewer
    than two people sat at it, none of them a profile, or one profile in two seats."""
    people = [s for s in seats if s.kind == "player"]
    profiles = [s.profile_id for s in people if s.profile_id is not None]
    if (
        not enough_people(s.kind for s in seats)
        or not profiles
        or len(set(profiles)) != len(profiles)
    ):
        return {}
    before = [PRIOR if s.mu is None or s.sigma is None else Rating(s.mu, s.sigma) for s in people]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(s.place) for s in people])
    return {
        s.seat: Change(b.mu, b.sigma, a[0].mu, a[0].sigma)
        for s, b, a in zip(people, before, after, strict=True)
        if s.profile_id is not None
    }


async def rate_finished(store: Store, table_id: str, number: int) -> int:
    """Rate a match the server just finished (stored), once: how many profiles it
    rated. Never raises: a rating that fails is logged, and the match stays as played."""
    try:
        return await store.run(rate_match(table_id, number, rated))
    except Exception:
        log.exception("table %s: match %d could not be rated", table_id, number)
        return 0


MISSED_SECONDS = 7 * 24 * 3600.0
"""How far back `rate_missed` looks for matches whose rating was missed."""


async def rate_missed(store: Store, since: float) -> int:
    """Rate the matches finished after `since` whose rating was missed (a worker
    starting after a crash): how many profiles' ratings that moved. Never raises."""
    try:
        missed = await store.run(unrated(since))
    except Exception:
        log.exception("could not look for matches whose rating was missed")
        return 0
    return sum([await rate_finished(store, table_id, number) for table_id, number in missed])


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as players read it: the rating, the ± of its range, and the range's
    low end (what a leaderboard ranks by)."""

    rating: int
    plus_minus: int
    low: int


def shown(mu: float, sigma: float) -> Shown:
    """The rating `mu`, `sigma` as shown (whole points on the 1,500 scale)."""
    return Shown(
        rating=round(mu * SCALE),
        plus_minus=round(SPREAD * sigma * SCALE),
        low=round((mu - SPREAD * sigma) * SCALE),
    )
