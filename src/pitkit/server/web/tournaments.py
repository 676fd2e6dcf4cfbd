"""The events' HTTP API and pages (docs/tournaments.md).

Every call names its link's token as ``Authorization: Bearer``; without one, a
call reads the public view. Links are pages, ``/e/<id>#token=<token>``: the
token stays in the page (a fragment is never sent to the server).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi import Path as InPath
from fastapi.responses import FileResponse, PlainTextResponse
from pydantic import BaseModel, Field

from pitkit.server.live.protocol import Body, bearer
from pitkit.server.tournaments.online import EventTables
from pitkit.server.tournaments.service import Events, Loaded
from pitkit.server.web.guards import Site
from pitkit.tournaments.log import NEW_LINK, OPEN_TABLE, ForbiddenError, RefusedError

__all__ = ["event_routes"]

STATIC = Path(__file__).parent.parent / "static"

EventId = Annotated[str, InPath(max_length=64)]
Authorization = Annotated[str | None, Header(max_length=200)]


class CreateEvent(Body):
    """A new event: its kind, its name, its options."""

    kind: str = Field(max_length=32, examples=["pits-continuous"])
    name: str = Field(max_length=120, examples=["British Go Congress 2027: Pits"])
    options: dict[Annotated[str, Field(max_length=40)], int | str | bool] = Field(
        default_factory=dict, max_length=16
    )


class NewEntry(Body):
    """An entry: its type and data; `corrects` names an earlier entry it replaces
    (type "void" strikes it)."""

    type: str = Field(max_length=32, examples=["hand"])
    data: dict[Annotated[str, Field(max_length=40)], Any] = Field(
        default_factory=dict, max_length=16, examples=[{"game": 1, "hand": 1, "order": []}]
    )
    corrects: int | None = Field(default=None, ge=1, le=2**31)


class Link(BaseModel):
    """A secret link to an event, for one role (and name)."""

    role: str
    name: str | None
    token: str
    url: str


class CreatedEvent(BaseModel):
    """The new event, and the manager's link (keep it: it is shown once)."""

    event: dict[str, Any]
    manager: Link


class OnlineTable(BaseModel):
    """A pitkit table opened for one of the event's games: its page, and the
    host's token (shown once: the host may start it, bot a seat or close it)."""

    id: str
    url: str
    host_token: str


class Entered(BaseModel):
    """The entry as stored, the event as it now is, and the link or the table
    it made, if any."""

    entry: dict[str, Any]
    event: dict[str, Any]
    link: Link | None = None
    table: OnlineTable | None = None


def event_routes(events: Events, tables: EventTables, site: Site) -> APIRouter:
    """The routes of the events API and pages."""
    router = APIRouter()

    def link(request: Request, loaded: Loaded, role: str, name: str | None, token: str) -> Link:
        url = f"{site.base_url(request.scope)}/e/{loaded.id}#token={token}"
        return Link(role=role, name=name, token=token, url=url)

    async def loaded_or_404(event_id: str) -> Loaded:
        loaded = await events.get(event_id)
        if loaded is None:
            raise HTTPException(404, f"there is no event {event_id[:40]!r}")
        return loaded

    async def shown(loaded: Loaded, token: str | None) -> dict[str, Any]:
        try:
            actor = await events.actor(loaded, token)
        except ForbiddenError as exc:
            raise HTTPException(403, str(exc)) from None
        return {
            "id": loaded.id,
            "kind": loaded.kind.name,
            "title": loaded.kind.title,
            "name": loaded.name,
            "created": loaded.created,
            "options": loaded.options,
            "me": {"role": actor.role, "name": actor.name},
            "view": loaded.kind.view(loaded.state, actor),
            "log": loaded.log(),
        }

    @router.get("/api/events/kinds", tags=["events"])
    async def kinds() -> list[dict[str, str]]:
        """The kinds of event the server runs."""
        return [{"kind": k.name, "title": k.title} for k in events.kinds.values()]

    @router.post("/api/events", status_code=201, tags=["events"])
    async def create(body: CreateEvent, request: Request) -> CreatedEvent:
        """Open an event; the answer holds the manager's secret link, once."""
        try:
            loaded, token = await events.create(body.kind, body.name, body.options)
        except RefusedError as exc:
            raise HTTPException(422, str(exc)) from None
        return CreatedEvent(
            event=await shown(loaded, token), manager=link(request, loaded, "manager", None, token)
        )

    @router.get("/api/events/{event_id}", tags=["events"])
    async def read(event_id: EventId, authorization: Authorization = None) -> dict[str, Any]:
        """The event as the link's role sees it (no link: the public view), with its log."""
        return await shown(await loaded_or_404(event_id), bearer(authorization))

    @router.post("/api/events/{event_id}/entries", status_code=201, tags=["events"])
    async def enter(
        event_id: EventId, body: NewEntry, request: Request, authorization: Authorization = None
    ) -> Entered:
        """Make an entry through a link. 403: the link's role may not; 409: the event
        refuses it (the reason says why); either way nothing changed. An
        ``open_table`` entry opens a pitkit table for a game (`table` in the answer)."""
        loaded = await loaded_or_404(event_id)
        token = bearer(authorization)
        made, online = None, None
        try:
            actor = await events.actor(loaded, token)
            if body.type == OPEN_TABLE and body.corrects is None:
                entry, table, host = await tables.open(loaded, actor, body.data)
                url = f"{site.base_url(request.scope)}/t/{table.id}#watch"
                online = OnlineTable(id=table.id, url=url, host_token=host)
            else:
                entry, made = await events.enter(loaded, actor, body.type, body.data, body.corrects)
        except ForbiddenError as exc:
            raise HTTPException(403, str(exc)) from None
        except RefusedError as exc:
            raise HTTPException(409, str(exc)) from None
        new_link = None
        if made is not None:
            role = str(body.data["role"]) if body.type == NEW_LINK else loaded.kind.links[body.type]
            new_link = link(request, loaded, role, str(body.data.get("name")), made)
        return Entered(
            entry=entry.to_json(), event=await shown(loaded, token), link=new_link, table=online
        )

    @router.get("/api/events/{event_id}/{file}.csv", tags=["events"])
    async def csv_file(
        event_id: EventId, file: Annotated[str, InPath(max_length=40)]
    ) -> PlainTextResponse:
        """A sheet or the standings as CSV (`sheets`, `standings`; public)."""
        loaded = await loaded_or_404(event_id)
        files = loaded.kind.csv(loaded.state)
        text = files.get(f"{file}.csv")
        if text is None:
            raise HTTPException(404, f"this event has {', '.join(sorted(files))}")
        return PlainTextResponse(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{loaded.id}-{file}.csv"'},
        )

    for path in ("/e/{event_id}", "/e/{event_id}/screen", "/e/{event_id}/print"):
        router.add_api_route(path, _page, include_in_schema=False, methods=["GET"])
    return router


async def _page() -> FileResponse:
    """Every event page is one HTML file; its script reads the path and the link."""
    return FileResponse(STATIC / "event.html")
