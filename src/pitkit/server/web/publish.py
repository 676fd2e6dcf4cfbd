"""The routes that publish an event's results: ``GET /e/<id>/publish`` (one HTML file that
stands alone, for a club's website) and ``GET /e/<id>/publish.csv`` (the same tables).

Both are public, as the event's page is, and made from its public view alone
(`pitkit.server.tournaments.publish`). Each is made once for each last entry of the event
and kept (a few events' worth), so a link shared widely costs one build an entry.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from pitkit.server.tournaments.publish import Published, publish_csv, publish_html
from pitkit.server.tournaments.service import Running, Tournaments
from pitkit.server.web.bodies import TournamentId
from pitkit.server.web.guards import Site
from pitkit.tournaments import roster

__all__ = ["KEPT", "publish_routes"]

KEPT = 32
"""Published files kept, ready to send again (the most recently made)."""


def publish_routes(tournaments: Tournaments, site: Site) -> APIRouter:
    """The routes of the published results."""
    router = APIRouter()
    kept: dict[tuple[str, int, str, str], str] = {}

    async def made(event_id: str, request: Request, form: str) -> tuple[Running, str]:
        running = await tournaments.get(event_id)
        if running is None:
            raise HTTPException(404, f"there is no event {event_id[:40]!r}")
        await tournaments.read(running, None)  # every entry stored, by any worker
        url = f"{site.base_url(request.scope)}/e/{running.id}"
        async with running.lock:
            t = running.tournament
            key = (running.id, t.last, url, form)
            if key not in kept:
                view = await asyncio.to_thread(t.kind.view, t.state)
                out = Published(
                    running.name,
                    t.kind.name,
                    t.kind.title,
                    running.created,
                    view,
                    roster.clubs(t.entries),
                    url,
                )
                write = publish_html if form == "html" else publish_csv
                if len(kept) >= KEPT:
                    kept.pop(next(iter(kept)))
                kept[key] = await asyncio.to_thread(write, out)
            return running, kept[key]

    @router.get("/e/{event_id}/publish", tags=["events"], response_class=Response)
    async def publish(event_id: TournamentId, request: Request) -> Response:
        """The event's results as one HTML file: the standings and every score sheet or
        pad, styled within, with no script and no link but the event's page. Save it and
        put it on a website as it is."""
        running, text = await made(event_id, request, "html")
        name = f'inline; filename="{running.id}-results.html"'
        return Response(
            text, media_type="text/html; charset=utf-8", headers={"Content-Disposition": name}
        )

    @router.get("/e/{event_id}/publish.csv", tags=["events"], response_class=Response)
    async def publish_csv_file(event_id: TournamentId, request: Request) -> Response:
        """The same results as one CSV file: each table under its heading; every cell
        safe to open in a spreadsheet."""
        running, text = await made(event_id, request, "csv")
        name = f'attachment; filename="{running.id}-results.csv"'
        return Response(
            text, media_type="text/csv; charset=utf-8", headers={"Content-Disposition": name}
        )

    return router
