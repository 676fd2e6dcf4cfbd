"""The routes of the hall (docs/tournaments.md, "A tournament night"): a player calls
their table's judge, and the manager imports the roster from a CSV file (and anyone
exports it).

A call is an entry (``call_judge``) made only here, under a bound: a table has one open
call at a time (the kind refuses another, in words: "The judge has been called; they are
on their way"), and one player's link makes at most `Limits.judge_calls_per_hour` calls
an hour (429 beyond). The judge's page follows the event's news, so a call reaches it
within a second or two. The round clock is set through the ordinary entries (``clock``,
the manager's), and a judge answers a call there too (``answer_call``).

The routes are added by `pitkit.server.web.tournaments.tournament_routes`, which hands
over its guard against guessed links (`Guard`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import Field

from pitkit.server.tournaments.service import Running, Tournaments
from pitkit.server.web.bodies import Authorization, Body, TournamentId, bearer
from pitkit.server.web.limits import Buckets
from pitkit.server.web.services import Wired
from pitkit.tournaments import roster
from pitkit.tournaments.log import CALL_JUDGE, Actor, ForbiddenError, RefusedError

__all__ = ["Guard", "RosterFile", "hall_routes"]

Guard = Callable[[Running, str | None, Request], AbstractContextManager[None]]
"""A check of a link's token under the limit of wrong ones an address may try."""


class RosterFile(Body):
    """A roster as CSV text: a name a row, and a club beside it if you like; a first
    row "name,club" is a header."""

    csv: str = Field(max_length=15_000, examples=["name,club\nAnn Lee,Leeds\nBob Ray,York\n"])


def hall_routes(router: APIRouter, tournaments: Tournaments, guard: Guard) -> None:
    """Add the routes of the hall to `router`: calls to the judge, the roster's CSV file."""
    _calling(router, tournaments, guard)
    _rostering(router, tournaments, guard)


async def _running(tournaments: Tournaments, event_id: str) -> Running:
    running = await tournaments.get(event_id)
    if running is None:
        raise HTTPException(404, f"there is no event {event_id[:40]!r}")
    return running


def _calling(router: APIRouter, tournaments: Tournaments, guard: Guard) -> None:
    """The route by which a player calls the judge."""
    bounds: dict[int, Buckets] = {}

    @router.post("/api/events/{event_id}/calls", status_code=201, tags=["events"])
    async def call_judge(
        event_id: TournamentId,
        request: Request,
        services: Wired,
        authorization: Authorization = None,
    ) -> dict[str, Any]:
        """Call the judge to your table, from a player's link (``call_judge`` entry, made
        in the player's name). 409: the judge has been called there and has not finished
        (nothing made), or you are not seated; 429: this link has called often this
        hour (`judge_calls_per_hour`). The judge's page shows the call within seconds."""
        running = await _running(tournaments, event_id)
        token = bearer(authorization)
        per_hour = services.limits.judge_calls_per_hour
        calls = bounds.setdefault(per_hour, Buckets(per_hour / 3600, per_hour))
        try:
            with guard(running, token, request):
                actor = await tournaments.read(running, token)
                if actor.role != "player":
                    raise ForbiddenError("a player calls the judge, from their own page")
                who = f"{running.id} {actor.name}"
                bucket = calls.buckets.get(who) or calls.admit(who)
                wait = bucket.wait()
                if wait > 0:
                    raise HTTPException(
                        429,
                        f"you have called the judge {per_hour} times in the last hour: ask "
                        f"at the desk, or call again in {math.ceil(wait)} s",
                        headers={"Retry-After": str(math.ceil(wait))},
                    )
                made = await tournaments.enter(running, token, CALL_JUDGE, {})
                bucket.take()  # only calls made count: a call refused costs nothing
        except ForbiddenError as exc:
            raise HTTPException(403, str(exc)) from None
        except RefusedError as exc:
            raise HTTPException(409, str(exc)) from None
        async with running.lock:
            hall = running.tournament.hall_view(made.actor)
        return {"entry": made.entry.to_json(), "hall": hall}


def _rostering(router: APIRouter, tournaments: Tournaments, guard: Guard) -> None:
    """The routes that import and export the roster as CSV."""

    @router.get("/api/events/{event_id}/roster.csv", tags=["events"])
    async def roster_file(event_id: TournamentId) -> Response:
        """The roster as CSV (public, as the roster is): name and club, and whether each
        player is checked in at an event with a check-in desk. An import reads it back."""
        running = await _running(tournaments, event_id)
        await tournaments.read(running, None)
        async with running.lock:
            text = roster.roster_csv(running.tournament)
        saved = {"Content-Disposition": f'attachment; filename="{running.id}-roster.csv"'}
        return Response(text, media_type="text/csv; charset=utf-8", headers=saved)

    @router.post("/api/events/{event_id}/roster", status_code=201, tags=["events"])
    async def import_roster(
        event_id: TournamentId,
        body: RosterFile,
        request: Request,
        authorization: Authorization = None,
    ) -> dict[str, Any]:
        """Import players from a roster file (the manager's link): an ``add_player``
        entry a row, in the manager's name. All or nothing: 422 (a row that is no
        name) or 409 (one the event refuses) lists every problem by its row's number,
        and nothing is imported. The answer lists the players added."""
        running = await _running(tournaments, event_id)
        token = bearer(authorization)
        added: list[dict[str, Any]] = []
        try:
            with guard(running, token, request):
                actor = await tournaments.read(running, token)
            if actor.role != "manager":
                raise ForbiddenError("only the manager imports the roster")
            rows = _read(body.csv)
            async with running.lock:
                _tried(running, actor, rows)
            for row in rows:
                made = await tournaments.enter(running, token, "add_player", row.data())
                added.append(
                    {"row": row.row, "name": row.name, "club": row.club, "entry": made.entry.seq}
                )
        except ForbiddenError as exc:
            raise HTTPException(403, str(exc)) from None
        except RefusedError as exc:  # another entry came first, half-way (rare): say where
            done = ", ".join(a["name"] for a in added) or "nobody"
            raise HTTPException(409, f"{exc} (imported before it: {done})") from None
        return {"added": added}


def _problems(error: roster.RosterError) -> list[dict[str, str]]:
    """A roster's problems as FastAPI's list of details: what happened, then each row's."""
    first = str(error).split(":", 1)[0]
    return [{"msg": first}, *({"msg": p} for p in error.problems)]


def _read(text: str) -> list[roster.RosterRow]:
    """The rows of a roster file, or the HTTP refusal (422) listing every bad row."""
    try:
        return roster.read_roster(text)
    except roster.RosterError as exc:
        raise HTTPException(422, _problems(exc)) from None


def _tried(running: Running, actor: Actor, rows: list[roster.RosterRow]) -> None:
    """Try the rows on a copy of the event (the caller holds its lock): 409 listing
    each row the event refuses."""
    try:
        roster.try_roster(running.tournament, actor, rows, time.time())
    except roster.RosterError as exc:
        raise HTTPException(409, _problems(exc)) from None
