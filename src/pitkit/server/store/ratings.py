"""The ratings' rows: each profile's rating per game, and its rated matches, as jobs
for the writer (docs/ratings.md).

A match is rated from what the server stored when it finished: the match's outcome
and the seats of its table, each with the profile that holds it. `rate_match` rates
a match once however often it is asked and by however many workers: the match's row
is locked first, a match with rows in `rated_matches` is left alone, and those rows
are written in the same transaction as the ratings they change (were two attempts
ever to race past the lock, the rows' primary key fails the second, which then
changes nothing).

Which seats count and how a rating moves is the caller's (`Rate`, from
`pitkit.server.live.ratings`); these jobs only read and write.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, and_, func, insert, select, update

from pitkit.server.store.profiles import HELD, ProfileRecord
from pitkit.server.store.storage import (
    matches_t,
    profile_seats_t,
    profiles_t,
    rated_matches_t,
    ratings_t,
    seats_t,
    tables_t,
)

__all__ = [
    "Again",
    "Change",
    "Leader",
    "MatchPlayed",
    "Opponent",
    "Player",
    "Rate",
    "RatingRecord",
    "SeatResult",
    "Seated",
    "history",
    "leaders",
    "opponents",
    "player",
    "rate_match",
    "unrated",
]

log = logging.getLogger("pitkit.server")


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished match, as the rating reads it: what sat there ("player":
    a person, "bot", "open"), its place in the outcome (1 is best), and, for a
    profile's seat, the profile and its rating in the game before the match (None:
    not rated yet)."""

    seat: int
    kind: str
    place: int
    profile_id: str | None
    mu: float | None
    sigma: float | None


@dataclass(frozen=True, slots=True)
class Change:
    """A profile's rating in a game before a match and after it."""

    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


Rate = Callable[[Sequence[SeatResult]], Mapping[int, Change]]
"""How a match changes the rating of each profile's seat it rates, by seat (empty:
the match is not rated)."""


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A profile's rating in one game, and how many matches made it."""

    game: str
    mu: float
    sigma: float
    matches: int
    updated: float


@dataclass(frozen=True, slots=True)
class Player:
    """A profile as anyone may see it, with its ratings, most matches first."""

    profile: ProfileRecord
    ratings: list[RatingRecord]


@dataclass(frozen=True, slots=True)
class Seated:
    """Someone else at a match: a profile (its id, name and colour), a guest (a name at
    the table), or a bot (its name)."""

    seat: int
    kind: str  # profile | guest | bot | open
    name: str | None
    profile_id: str | None = None
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class MatchPlayed:
    """One of a profile's rated matches: where, its place, its rating before and after,
    and who else sat there (the seats that are not a profile's as they are now: the
    store keeps no history of who sat where)."""

    table_id: str
    number: int
    game: str
    players: int
    listed: bool
    seat: int
    place: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: float
    others: list[Seated]


@dataclass(frozen=True, slots=True)
class Again:
    """A table to play again as it was: its game, seats (a bot's name, or None for a
    person) and every rule option as stored."""

    game: str
    seats: list[str | None]
    rules: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Opponent:
    """A profile met lately in a rated match: the last match together, and its table
    laid out again with the profile asking in the first seat."""

    profile_id: str
    name: str
    colour: str
    game: str
    table_id: str
    number: int
    at: float
    again: Again


@dataclass(frozen=True, slots=True)
class Leader:
    """A row of a game's leaderboard."""

    profile_id: str
    name: str
    colour: str
    mu: float
    sigma: float
    matches: int


# -- rating a match ---------------------------------------------------------------------


def rate_match(table_id: str, number: int, rate: Rate) -> Callable[[Connection], int]:
    """A job that rates a finished match once: how many profiles it rated (0: not
    finished, not rated by `rate`, or rated already, when nothing changes)."""

    def job(conn: Connection) -> int:
        # The match's row is written first, which locks it: on PostgreSQL a second
        # attempt waits here until the first commits, then finds its rows; on SQLite
        # the transaction holds the database's write lock from its first statement,
        # before it has read anything another writer could change under it.
        claimed = conn.execute(
            update(matches_t)
            .where(
                matches_t.c.table_id == table_id,
                matches_t.c.number == number,
                matches_t.c.outcome.is_not(None),
            )
            .values(ended=matches_t.c.ended)
        )
        if not claimed.rowcount or _rated_already(conn, table_id, number):
            return 0
        return _rate(conn, table_id, number, rate)

    return job


def unrated(since: float) -> Callable[[Connection], list[tuple[str, int]]]:
    """A job that reads the matches finished after `since` at tables where a profile
    and someone else hold seats, with no rated row: those whose rating was missed (the
    server stopped, or the database failed, between a match's end and its rating),
    the earliest first. Some are rightly unrated; `rate_match` says which."""

    def job(conn: Connection) -> list[tuple[str, int]]:
        people = (
            select(seats_t.c.table_id)
            .where(seats_t.c.kind == "player")
            .group_by(seats_t.c.table_id)
            .having(func.count() >= 2)
        )
        profiled = select(profile_seats_t.c.table_id).join(seats_t, HELD)
        rated = select(rated_matches_t.c.table_id).where(
            rated_matches_t.c.table_id == matches_t.c.table_id,
            rated_matches_t.c.number == matches_t.c.number,
        )
        rows = conn.execute(
            select(matches_t.c.table_id, matches_t.c.number)
            .where(
                matches_t.c.ended >= since,
                matches_t.c.outcome.is_not(None),
                matches_t.c.table_id.in_(people),
                matches_t.c.table_id.in_(profiled),
                ~rated.exists(),
            )
            .order_by(matches_t.c.ended)
        )
        return [(r.table_id, int(r.number)) for r in rows]

    return job


def _rated_already(conn: Connection, table_id: str, number: int) -> bool:
    found = conn.execute(
        select(rated_matches_t.c.profile_id)
        .where(rated_matches_t.c.table_id == table_id, rated_matches_t.c.number == number)
        .limit(1)
    ).first()
    return found is not None


def _rate(conn: Connection, table_id: str, number: int, rate: Rate) -> int:
    """Rate the finished match, claimed (see `rate_match`)."""
    outcome = conn.execute(
        select(matches_t.c.outcome).where(
            matches_t.c.table_id == table_id, matches_t.c.number == number
        )
    ).scalar_one()
    game = conn.execute(select(tables_t.c.game).where(tables_t.c.id == table_id)).scalar_one()
    ranks = orjson.loads(outcome).get("ranks", [])
    seats = _seat_results(conn, table_id, game, ranks)
    if seats is None:
        log.warning("table %s: match %d's outcome does not fit its seats", table_id, number)
        return 0
    new = rate(seats)
    now = time.time()
    for seat in seats:
        if seat.seat in new and seat.profile_id is not None:
            _write(conn, table_id, number, game, seat, new[seat.seat], now)
    return len(new)


def _seat_results(
    conn: Connection, table_id: str, game: str, ranks: Sequence[int]
) -> list[SeatResult] | None:
    """Every seat of the table with its place, profile and rating (None: the outcome
    has a place for a different number of seats)."""
    rows = conn.execute(
        select(seats_t.c.seat, seats_t.c.kind, profile_seats_t.c.profile_id)
        .select_from(seats_t.outerjoin(profile_seats_t, HELD))
        .where(seats_t.c.table_id == table_id)
        .order_by(seats_t.c.seat)
    ).all()
    if len(rows) != len(ranks):
        return None
    ids = sorted({r.profile_id for r in rows if r.profile_id is not None})
    # Each profile's row locked in one order: two matches of one player that end at once
    # on two workers update its rating one after the other, never from the same start.
    conn.execute(
        select(profiles_t.c.id)
        .where(profiles_t.c.id.in_(ids))
        .order_by(profiles_t.c.id)
        .with_for_update()
    ).all()
    held = {
        r.profile_id: (r.mu, r.sigma)
        for r in conn.execute(
            select(ratings_t.c.profile_id, ratings_t.c.mu, ratings_t.c.sigma).where(
                ratings_t.c.profile_id.in_(ids), ratings_t.c.game == game
            )
        )
    }
    results = []
    for row, place in zip(rows, ranks, strict=True):
        mu, sigma = held.get(row.profile_id, (None, None))
        results.append(SeatResult(row.seat, row.kind, int(place), row.profile_id, mu, sigma))
    return results


def _write(
    conn: Connection,
    table_id: str,
    number: int,
    game: str,
    seat: SeatResult,
    change: Change,
    now: float,
) -> None:
    """Store one profile's new rating and its row of the match."""
    mu, sigma = change.mu_after, change.sigma_after
    assert seat.profile_id is not None
    if seat.mu is None:
        conn.execute(
            insert(ratings_t).values(
                profile_id=seat.profile_id, game=game, mu=mu, sigma=sigma, matches=1, updated=now
            )
        )
    else:
        conn.execute(
            update(ratings_t)
            .where(ratings_t.c.profile_id == seat.profile_id, ratings_t.c.game == game)
            .values(mu=mu, sigma=sigma, matches=ratings_t.c.matches + 1, updated=now)
        )
    conn.execute(
        insert(rated_matches_t).values(
            table_id=table_id,
            number=number,
            profile_id=seat.profile_id,
            game=game,
            seat=seat.seat,
            place=seat.place,
            mu_before=change.mu_before,
            sigma_before=change.sigma_before,
            mu_after=mu,
            sigma_after=sigma,
            at=now,
        )
    )


# -- reading them -----------------------------------------------------------------------


def player(profile_id: str) -> Callable[[Connection], Player | None]:
    """A job that reads a profile (None: there is none) with its ratings, the game it
    played most first."""

    def job(conn: Connection) -> Player | None:
        row = conn.execute(select(profiles_t).where(profiles_t.c.id == profile_id)).first()
        if row is None:
            return None
        ratings = conn.execute(
            select(ratings_t)
            .where(ratings_t.c.profile_id == profile_id)
            .order_by(ratings_t.c.matches.desc(), ratings_t.c.game)
        )
        return Player(
            ProfileRecord(row.id, row.name, row.colour, row.created),
            [RatingRecord(r.game, r.mu, r.sigma, r.matches, r.updated) for r in ratings],
        )

    return job


def history(
    profile_id: str, limit: int, offset: int = 0
) -> Callable[[Connection], list[MatchPlayed]]:
    """A job that reads a profile's rated matches, the latest first (`limit` of them,
    after the first `offset`), each with who else sat at it."""

    def job(conn: Connection) -> list[MatchPlayed]:
        rows = conn.execute(
            select(rated_matches_t, tables_t.c.players, tables_t.c.settings)
            .join(tables_t, tables_t.c.id == rated_matches_t.c.table_id)
            .where(rated_matches_t.c.profile_id == profile_id)
            .order_by(rated_matches_t.c.at.desc(), rated_matches_t.c.table_id.desc())
            .limit(limit)
            .offset(offset)
        ).all()
        ids = sorted({r.table_id for r in rows})
        rated = _rated_at(conn, ids, but=profile_id)
        seats = _seats_of(conn, ids)
        return [
            MatchPlayed(
                table_id=r.table_id,
                number=r.number,
                game=r.game,
                players=r.players,
                listed=bool(json.loads(r.settings).get("listed", True)),
                seat=r.seat,
                place=r.place,
                mu_before=r.mu_before,
                sigma_before=r.sigma_before,
                mu_after=r.mu_after,
                sigma_after=r.sigma_after,
                at=r.at,
                others=[
                    rated.get((r.table_id, r.number, seat.seat), seat)
                    for seat in seats.get(r.table_id, [])
                    if seat.seat != r.seat
                ],
            )
            for r in rows
        ]

    return job


def _rated_at(
    conn: Connection, table_ids: Sequence[str], but: str
) -> dict[tuple[str, int, int], Seated]:
    """The profiles rated at these tables' matches (but `but`), by table, match and seat."""
    rows = conn.execute(
        select(
            rated_matches_t.c.table_id,
            rated_matches_t.c.number,
            rated_matches_t.c.seat,
            profiles_t.c.id,
            profiles_t.c.name,
            profiles_t.c.colour,
        )
        .join(profiles_t, profiles_t.c.id == rated_matches_t.c.profile_id)
        .where(rated_matches_t.c.table_id.in_(table_ids), rated_matches_t.c.profile_id != but)
    )
    return {
        (r.table_id, r.number, r.seat): Seated(r.seat, "profile", r.name, r.id, r.colour)
        for r in rows
    }


def _seats_of(conn: Connection, table_ids: Sequence[str]) -> dict[str, list[Seated]]:
    """These tables' seats as they are now: a person's is a guest's, a bot's its name."""
    found: dict[str, list[Seated]] = {}
    rows = conn.execute(
        select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.bot, seats_t.c.name)
        .where(seats_t.c.table_id.in_(table_ids))
        .order_by(seats_t.c.table_id, seats_t.c.seat)
    )
    for r in rows:
        kind = {"player": "guest", "bot": "bot"}.get(r.kind, "open")
        name = r.bot if r.kind == "bot" else r.name if r.kind == "player" else None
        found.setdefault(r.table_id, []).append(Seated(r.seat, kind, name))
    return found


def opponents(
    profile_id: str, limit: int, scan: int = 200
) -> Callable[[Connection], list[Opponent]]:
    """A job that reads the profiles met lately in rated matches (at most `limit`,
    among the last `scan` such meetings), the latest first, each with the table of
    the last match together laid out again."""

    def job(conn: Connection) -> list[Opponent]:
        me, other = rated_matches_t.alias("me"), rated_matches_t.alias("other")
        together = and_(
            other.c.table_id == me.c.table_id,
            other.c.number == me.c.number,
            other.c.profile_id != me.c.profile_id,
        )
        rows = conn.execute(
            select(
                other.c.profile_id,
                other.c.table_id,
                other.c.number,
                other.c.game,
                me.c.at,
                me.c.seat,
                profiles_t.c.name,
                profiles_t.c.colour,
            )
            .select_from(me.join(other, together))
            .join(profiles_t, profiles_t.c.id == other.c.profile_id)
            .where(me.c.profile_id == profile_id)
            .order_by(me.c.at.desc(), me.c.table_id.desc(), other.c.profile_id)
            .limit(scan)
        ).all()
        latest: dict[str, Any] = {}
        for r in rows:
            if len(latest) < limit:
                latest.setdefault(r.profile_id, r)
        laid = _laid_again(conn, {r.table_id: r.seat for r in latest.values()})
        return [
            Opponent(
                r.profile_id,
                r.name,
                r.colour,
                r.game,
                r.table_id,
                r.number,
                r.at,
                laid[r.table_id],
            )
            for r in latest.values()
        ]

    return job


def _laid_again(conn: Connection, mine: Mapping[str, int]) -> dict[str, Again]:
    """Each table laid out again with the seat `mine[table]` first, the others in order:
    a bot keeps its seat's bot, a person's seat is open."""
    tables = conn.execute(
        select(tables_t.c.id, tables_t.c.game, tables_t.c.rules).where(tables_t.c.id.in_(mine))
    ).all()
    seats = _seats_of(conn, list(mine))
    agains = {}
    for t in tables:
        laid = sorted(seats.get(t.id, []), key=lambda s: (s.seat != mine[t.id], s.seat))
        agains[t.id] = Again(
            t.game, [s.name if s.kind == "bot" else None for s in laid], json.loads(t.rules)
        )
    return agains


def leaders(
    game: str, least: int, spread: float, limit: int, offset: int = 0
) -> Callable[[Connection], tuple[list[Leader], int]]:
    """A job that reads a game's leaderboard: the profiles rated in at least `least`
    of its matches, by the low end of their range (mu - `spread` sigma), best first,
    `limit` of them after the first `offset`; and how many there are in all."""

    def job(conn: Connection) -> tuple[list[Leader], int]:
        rated = and_(ratings_t.c.game == game, ratings_t.c.matches >= least)
        low = ratings_t.c.mu - spread * ratings_t.c.sigma
        rows = conn.execute(
            select(ratings_t, profiles_t.c.name, profiles_t.c.colour)
            .join(profiles_t, profiles_t.c.id == ratings_t.c.profile_id)
            .where(rated)
            .order_by(low.desc(), ratings_t.c.matches.desc(), ratings_t.c.profile_id)
            .limit(limit)
            .offset(offset)
        )
        board = [Leader(r.profile_id, r.name, r.colour, r.mu, r.sigma, r.matches) for r in rows]
        total = conn.execute(select(func.count()).select_from(ratings_t).where(rated)).scalar_one()
        return board, int(total)

    return job
