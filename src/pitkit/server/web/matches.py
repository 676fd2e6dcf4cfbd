"""Finished matches, for anyone: a match's full log, and its replay version by
version. Both hold every hidden card, so both wait until the match is over; both are
built once, in a worker process, and kept gzipped (`pitkit.server.live.replays`):
sent as they are kept to a client that takes gzip (every browser does)."""

from __future__ import annotations

import asyncio
import gzip
import logging
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi import Path as InPath
from fastapi.responses import PlainTextResponse, Response

from pitkit.server.live.replays import BusyError, Played
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
async def match_log(
    table_id: TableId, number: MatchNumber, request: Request, services: Wired
) -> Response:
    """A finished match's full log (JSON lines, as `pitkit replay` reads)."""
    table = await table_or_404(services, table_id)
    data = await _kept(services, table, number, "log")
    return await _sent(data, request, "application/x-ndjson")


@router.get("/api/tables/{table_id}/matches/{number}/replay", tags=["lobby"])
async def match_replay(
    table_id: TableId,
    number: MatchNumber,
    request: Request,
    services: Wired,
    seat: Annotated[str, Query(max_length=8)] = "all",
) -> Response:
    """A finished match, version by version, for the page to replay: each version's
    events in words and the view after them, as `seat` saw it (a seat number), or
    all-seeing (`all`: the spectator's view with every hand)."""
    table = await table_or_404(services, table_id)
    if seat != "all" and not (seat.isascii() and seat.isdigit() and int(seat) < table.players):
        raise HTTPException(
            400, f"seat is a seat from 0 to {table.players - 1}, or all, not {seat!r}"
        )
    data = await _kept(services, table, number, seat if seat == "all" else str(int(seat)))
    return await _sent(data, request, "application/json")


async def _kept(services: Services, table: Table, number: int, what: str) -> bytes:
    """Match `number`'s log or replay (`Played.what`), gzipped: kept, or built now
    (HTTPException: no such match, not over yet, too long, or it does not replay)."""

    async def read() -> Played:
        return await _played(services, table, number, what)

    try:
        return await services.replays.get((table.id, number, what), read)
    except BusyError as exc:
        raise HTTPException(503, str(exc), {"Retry-After": "2"}) from None
    except HTTPException:
        raise
    except Exception:
        log.exception("table %s: match %d does not replay", table.id, number)
        raise HTTPException(500, "this match does not replay") from None


async def _played(services: Services, table: Table, number: int, what: str) -> Played:
    """Match `number` of `table` as stored, once it is over (HTTPException: no such
    match, not over yet, or too long to replay in the page)."""
    most = services.limits.replay_steps
    if what != "log" and number == table.match_no:
        # Before reading it: a marathon's thousands of steps are long to read.
        _short_enough(table.version + 1, most)
    found = await services.store.run(lambda conn: storage.read_match_steps(conn, table.id, number))
    if found is None:
        raise HTTPException(404, f"table {table.id} has no match {number}")
    seed, over, steps = found
    if not over:
        # Every seat's cards and the seed: only once the match is over.
        shown = "log is published" if what == "log" else "replay is shown"
        raise HTTPException(409, f"the {shown} once the match is over")
    if what != "log":
        _short_enough(len(steps), most)
    header = {
        "game": table.game.name,
        "players": table.players,
        "rules": table.rules.to_json(),
        "seed": seed,
    }
    labels = [s.label for s in table.seats]
    return Played(table.game.name, header, steps, labels, number, what)


def _short_enough(versions: int, most: int) -> None:
    """Refuse (409) to replay a match of more than `most` versions in the page."""
    if versions > most:
        raise HTTPException(
            409,
            f"this match is too long to replay here ({versions - 1:,} moves; at most "
            f"{most - 1:,}): its log can be replayed with pitkit replay",
        )


async def _sent(data: bytes, request: Request, media_type: str) -> Response:
    """Kept gzipped `data` as sent: as it is to a client that takes gzip, unpacked
    (in a thread: zlib lets go of the interpreter's lock) for any other."""
    headers = {"Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(data, media_type=media_type, headers=headers)
    plain = await asyncio.to_thread(gzip.decompress, data)
    return Response(plain, media_type=media_type, headers=headers)
