"""Finished matches, for anyone: a match's full log, and its replay version by
version. Both hold every hidden card, so both wait until the match is over; both are
built off the event loop, once, and kept (`Services.logs`, `Services.replays`)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import MutableMapping
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, HTTPException, Query
from fastapi import Path as InPath
from fastapi.responses import PlainTextResponse, Response

from pitkit.core.events import Event
from pitkit.server.live.replays import replay
from pitkit.server.live.tables import Table
from pitkit.server.store import storage
from pitkit.server.web.bodies import TableId
from pitkit.server.web.services import Services, Wired
from pitkit.server.web.tables import table_or_404

__all__ = ["router"]

log = logging.getLogger("pitkit.server")

router = APIRouter()

MatchNumber = Annotated[int, InPath(ge=1, le=2**31 - 1)]
"""A match's number at its table, in a URL (the first is 1)."""


@router.get(
    "/api/tables/{table_id}/matches/{number}/log",
    tags=["lobby"],
    response_class=PlainTextResponse,
)
async def match_log(table_id: TableId, number: MatchNumber, services: Wired) -> PlainTextResponse:
    """A finished match's full log (JSON lines, as `pitkit replay` reads)."""
    table = await table_or_404(services, table_id)
    text = services.logs.get((table.id, number))
    if text is not None:
        return PlainTextResponse(text, media_type="application/x-ndjson")
    found = await services.store.run(lambda conn: storage.read_match_log(conn, table.id, number))
    if found is None:
        raise HTTPException(404, f"table {table_id} has no match {number}")
    seed, over, events = found
    if not over:
        # The full log holds every hidden card and the seed: only once it is over.
        raise HTTPException(409, "the log is published once the match is over")
    text = services.logs.get((table.id, number))
    if text is None:
        # Off the event loop, and kept: a long match's log is megabytes of JSON.
        text = await asyncio.to_thread(_log_text, _header(table, seed), events)
        _keep(services.logs, (table.id, number), text, services.limits.logs_cached)
    return PlainTextResponse(text, media_type="application/x-ndjson")


@router.get("/api/tables/{table_id}/matches/{number}/replay", tags=["lobby"])
async def match_replay(
    table_id: TableId,
    number: MatchNumber,
    services: Wired,
    seat: Annotated[str, Query(max_length=8)] = "all",
) -> Response:
    """A finished match, version by version, for the page to replay: each version's
    events in words and the view after them, as `seat` saw it (a seat number), or
    all-seeing (`all`: the spectator's view with every hand)."""
    table = await table_or_404(services, table_id)
    if seat == "all":
        who = None
    elif seat.isdigit() and int(seat) < table.players:
        who = int(seat)
    else:
        raise HTTPException(
            400, f"seat is a seat from 0 to {table.players - 1}, or all, not {seat!r}"
        )
    key = (table.id, number, who)
    text = services.replays.get(key)
    if text is None:
        text = await _replay_text(services, table, number, who)
        _keep(services.replays, key, text, services.limits.logs_cached)
    return Response(text, media_type="application/json")


async def _replay_text(services: Services, table: Table, number: int, who: int | None) -> str:
    """Match `number` of `table` replayed for the seat `who`, as JSON (HTTPException:
    no such match, not over yet, too long, or it does not replay)."""
    found = await services.store.run(lambda conn: storage.read_match_steps(conn, table.id, number))
    if found is None:
        raise HTTPException(404, f"table {table.id} has no match {number}")
    seed, over, steps = found
    if not over:
        # Every seat's cards: only once the match is over, as for the log.
        raise HTTPException(409, "the replay is shown once the match is over")
    most = services.limits.replay_steps
    if len(steps) > most:
        raise HTTPException(
            409,
            f"this match is too long to replay here ({len(steps) - 1:,} moves; at most "
            f"{most - 1:,}): its log can be replayed with pitkit replay",
        )
    header = _header(table, seed)
    labels = [s.label for s in table.seats]
    try:
        # Off the event loop (every version's view is CPU work), and kept by the caller.
        return await asyncio.to_thread(
            lambda: json.dumps(
                {
                    "match": number,
                    "seat": who,
                    "labels": labels,
                    "steps": replay(table.game, header, steps, who, labels),
                },
                separators=(",", ":"),
            )
        )
    except Exception:
        log.exception("table %s: match %d does not replay", table.id, number)
        raise HTTPException(500, "this match does not replay") from None


K = TypeVar("K")


def _header(table: Table, seed: int) -> dict[str, Any]:
    """The first line of a table's match log: what replays it."""
    return {
        "game": table.game.name,
        "players": table.players,
        "rules": table.rules.to_json(),
        "seed": seed,
    }


def _keep(cache: MutableMapping[K, str], key: K, text: str, most: int) -> None:
    """Keep `text` in `cache`, dropping the oldest entries beyond `most`."""
    cache[key] = text
    while len(cache) > most:
        del cache[next(iter(cache))]


def _log_text(header: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """A match's log as JSON lines: the header, then each event in full."""
    lines = [json.dumps(header)] + [json.dumps(Event.from_json(e).to_json()) for e in events]
    return "\n".join(lines) + "\n"
