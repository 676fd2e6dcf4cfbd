"""Players' ratings and histories over HTTP (docs/ratings.md): a player's page and each
game's leaderboard, as JSON and as pages.

A player's page shows what the other players may see anyway: the profile's name and
colour, its ratings, and its rated matches with their replays. A match at an unlisted
table (one that seats only those it invites) is shown to others without its table,
its replay or who else sat there; the profile itself, asking with its device's
secret (``Authorization: Bearer``), sees everything, and the profiles it met lately,
each with its last table laid out again ("invite again"). Nothing else of a profile
is here: no device, no secret, no seat's token.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi import Path as InPath
from fastapi.responses import FileResponse
from pydantic import BaseModel

from pitkit import games
from pitkit.core.errors import BadOptionError
from pitkit.server.live import ratings
from pitkit.server.store import ratings as rows
from pitkit.server.store.storage import DatabaseError, StoreTimeoutError
from pitkit.server.web.bodies import Authorization, bearer
from pitkit.server.web.pages import STATIC
from pitkit.server.web.services import Services, Wired

__all__ = ["MATCHES_PER_PAGE", "OPPONENTS", "PER_PAGE", "router"]

router = APIRouter(tags=["players"])

MATCHES_PER_PAGE = 20
"""A player's page lists this many matches at a time, the latest first."""

OPPONENTS = 8
"""A player's own page lists this many profiles met lately."""

PER_PAGE = 50
"""A leaderboard shows this many players at a time."""

ProfileId = Annotated[str, InPath(max_length=32)]
"""A profile's public id in a URL (ids are 12 characters)."""

Game = Annotated[str, InPath(max_length=32)]
"""A game's registry name in a URL."""

Page = Annotated[int, Query(ge=0, le=10_000)]
"""Which page of a list (0 is the first)."""


# -- answers ------------------------------------------------------------------------------


class RatingOut(BaseModel):
    """A rating as shown: `rating` ± `plus_minus` (the range holding the player's
    strength about 19 times in 20); `low`: the range's low end, which leaderboards
    rank by; `matches`: the rated matches that made it."""

    game: str
    title: str
    rating: int
    plus_minus: int
    low: int
    matches: int
    listed: bool
    """Whether the game's leaderboard lists the player (enough matches)."""


class SeatedOut(BaseModel):
    """Someone else at a match: a profile (with its id: its page), a guest or a bot."""

    kind: str
    name: str | None
    profile: str | None
    colour: str | None


class MatchOut(BaseModel):
    """A rated match. At an unlisted table, to anyone but the player, `table`,
    `number`, `replay` and `others` are left out (null, empty)."""

    game: str
    title: str
    at: float
    place: int
    players: int
    rating: int
    """The rating after the match, as shown."""
    change: int
    """What the match changed the shown rating by."""
    table: str | None
    number: int | None
    replay: str | None
    """The match's replay page."""
    others: list[SeatedOut]


class AgainOut(BaseModel):
    """A new table laid out as the last one together, the asker in the first seat:
    the body of ``POST /api/tables`` (unlisted: it seats whom its links invite)."""

    game: str
    players: int
    seats: list[str | None]
    rules: dict[str, Any]
    settings: dict[str, Any]


class OpponentOut(BaseModel):
    """A profile met lately, the last match together, and a table to play again."""

    id: str
    name: str
    colour: str
    game: str
    title: str
    at: float
    again: AgainOut


class ProfilePublic(BaseModel):
    """A profile as anyone may see it."""

    id: str
    name: str
    colour: str


class PlayerOut(BaseModel):
    """A player's page. `mine`: the asker is this profile (then `opponents` is filled,
    and every match is shown in full); `more`: there are older matches (`?page=`)."""

    profile: ProfilePublic
    mine: bool
    ratings: list[RatingOut]
    matches: list[MatchOut]
    page: int
    more: bool
    opponents: list[OpponentOut]


class LeaderOut(BaseModel):
    """A row of a leaderboard: the player's place, profile and rating as shown."""

    place: int
    id: str
    name: str
    colour: str
    rating: int
    plus_minus: int
    low: int
    matches: int


class LeaderboardOut(BaseModel):
    """A game's leaderboard: the profiles rated in at least `least` of its matches, by
    the low end of their range; `total` of them in all, `per_page` a page."""

    game: str
    title: str
    least: int
    total: int
    page: int
    per_page: int
    leaders: list[LeaderOut]


# -- helpers ------------------------------------------------------------------------------


@contextlib.contextmanager
def _database() -> Iterator[None]:
    """The database not answering, as a 503 to try again."""
    try:
        yield
    except (DatabaseError, StoreTimeoutError):
        raise HTTPException(
            503, "the database is not answering; try again in a moment", {"Retry-After": "5"}
        ) from None


def _title(game: str) -> str:
    """A game's title (its registry name, if the server no longer has it)."""
    return games.get(game).title if game in games.names() else game


def _known_game(game: str) -> str:
    """`game`, if the server has it (404 otherwise)."""
    if game not in games.names():
        raise HTTPException(404, "there is no such game")
    return game


async def _asker(services: Services, authorization: str | None) -> str | None:
    """The profile asking (None: nobody signed in; 401: a secret no device has)."""
    secret = bearer(authorization)
    if secret is None:
        return None
    with _database():
        signed = await services.profiles.signed_in(secret)
    if signed is None:
        raise HTTPException(
            401,
            "this device's secret signs in no profile; sign in again, or ask without it",
            {"WWW-Authenticate": "Bearer"},
        )
    return signed.profile.id


def _rating(record: rows.RatingRecord) -> RatingOut:
    seen = ratings.shown(record.mu, record.sigma)
    return RatingOut(
        game=record.game,
        title=_title(record.game),
        rating=seen.rating,
        plus_minus=seen.plus_minus,
        low=seen.low,
        matches=record.matches,
        listed=record.matches >= ratings.LEAST_MATCHES,
    )


def _match(played: rows.MatchPlayed, mine: bool) -> MatchOut:
    before = ratings.shown(played.mu_before, played.sigma_before)
    after = ratings.shown(played.mu_after, played.sigma_after)
    shown = mine or played.listed
    return MatchOut(
        game=played.game,
        title=_title(played.game),
        at=played.at,
        place=played.place,
        players=played.players,
        rating=after.rating,
        change=after.rating - before.rating,
        table=played.table_id if shown else None,
        number=played.number if shown else None,
        replay=f"/t/{played.table_id}#replay={played.number}&as=all" if shown else None,
        others=[
            SeatedOut(kind=s.kind, name=s.name, profile=s.profile_id, colour=s.colour)
            for s in played.others
            if s.kind != "open"
        ]
        if shown
        else [],
    )


def _again(again: rows.Again) -> AgainOut:
    """The new table's body: the stored rules that differ from the defaults (none, if
    the game's options changed since and they no longer read)."""
    try:
        changed = games.get(again.game).rules.from_options(again.rules).changed()
    except (BadOptionError, KeyError, TypeError, ValueError):
        changed = {}
    return AgainOut(
        game=again.game,
        players=len(again.seats),
        seats=again.seats,
        rules=changed,
        settings={"listed": False},
    )


def _opponent(met: rows.Opponent) -> OpponentOut:
    return OpponentOut(
        id=met.profile_id,
        name=met.name,
        colour=met.colour,
        game=met.game,
        title=_title(met.game),
        at=met.at,
        again=_again(met.again),
    )


# -- the routes ---------------------------------------------------------------------------


@router.get("/api/players/{profile_id}")
async def player(
    profile_id: ProfileId, services: Wired, page: Page = 0, authorization: Authorization = None
) -> PlayerOut:
    """A player's ratings and rated matches (`MATCHES_PER_PAGE` a page, the latest
    first); with the profile's own device secret, also the profiles it met lately."""
    asker = await _asker(services, authorization)
    mine = asker == profile_id
    store = services.store
    with _database():
        found = await store.run(rows.player(profile_id))
        if found is None:
            raise HTTPException(404, "there is no such player")
        played = await store.run(
            rows.history(profile_id, MATCHES_PER_PAGE + 1, page * MATCHES_PER_PAGE)
        )
        met = await store.run(rows.opponents(profile_id, OPPONENTS)) if mine else []
    profile = found.profile
    return PlayerOut(
        profile=ProfilePublic(id=profile.id, name=profile.name, colour=profile.colour),
        mine=mine,
        ratings=[_rating(r) for r in found.ratings],
        matches=[_match(m, mine) for m in played[:MATCHES_PER_PAGE]],
        page=page,
        more=len(played) > MATCHES_PER_PAGE,
        opponents=[_opponent(m) for m in met if m.again.game in games.names()],
    )


@router.get("/api/leaderboard/{game}")
async def leaderboard(game: Game, services: Wired, page: Page = 0) -> LeaderboardOut:
    """A game's leaderboard, `PER_PAGE` a page: the profiles rated in at least
    `ratings.LEAST_MATCHES` of its matches, by the low end of their range."""
    _known_game(game)
    with _database():
        board, total = await services.store.run(
            rows.leaders(game, ratings.LEAST_MATCHES, ratings.SPREAD, PER_PAGE, page * PER_PAGE)
        )
    leaders = []
    for place, row in enumerate(board, start=page * PER_PAGE + 1):
        seen = ratings.shown(row.mu, row.sigma)
        leaders.append(
            LeaderOut(
                place=place,
                id=row.profile_id,
                name=row.name,
                colour=row.colour,
                rating=seen.rating,
                plus_minus=seen.plus_minus,
                low=seen.low,
                matches=row.matches,
            )
        )
    return LeaderboardOut(
        game=game,
        title=_title(game),
        least=ratings.LEAST_MATCHES,
        total=total,
        page=page,
        per_page=PER_PAGE,
        leaders=leaders,
    )


@router.get("/p/{profile_id}", include_in_schema=False)
async def player_page(profile_id: str) -> FileResponse:
    """A player's page; its script reads the profile's id from the path."""
    return FileResponse(STATIC / "player.html")


@router.get("/leaders", include_in_schema=False)
async def leaders_page() -> FileResponse:
    """The leaderboards; the script shows the first game's."""
    return FileResponse(STATIC / "leaders.html")


@router.get("/leaders/{game}", include_in_schema=False)
async def game_leaders_page(game: str) -> FileResponse:
    """A game's leaderboard."""
    _known_game(game)
    return FileResponse(STATIC / "leaders.html")
