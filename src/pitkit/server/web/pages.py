"""The pages people open (the lobby, a table, a game's rules, one's profile) and what watches the
server (its health and its metrics). The pages are plain HTML files; their scripts
read the rest from the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST

from pitkit import games
from pitkit.server.web.services import Wired

__all__ = ["STATIC", "router"]

STATIC = Path(__file__).parent.parent / "static"
"""The browser's files: pages, scripts, styles, images."""

router = APIRouter()


@router.get("/healthz", tags=["server"])
async def health(services: Wired) -> dict[str, Any]:
    """Liveness, and a few counters."""
    return {
        "ok": True,
        "tables": len(services.manager.tables),
        "commits": services.store.commits,
    }


@router.get("/metrics", tags=["server"], response_class=PlainTextResponse)
async def prometheus(services: Wired) -> Response:
    """Prometheus metrics, as text: tables, sockets, actions, refusals, database time.

    Async, so that it counts the tables on the event loop that changes them."""
    return Response(services.metrics.text(), media_type=CONTENT_TYPE_LATEST)


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    """The lobby."""
    return FileResponse(STATIC / "index.html")


@router.get("/me", include_in_schema=False)
async def me_page() -> FileResponse:
    """A player's profile: the tables they sit at, signing in on another device."""
    return FileResponse(STATIC / "me.html")


@router.get("/t/{table_id}", include_in_schema=False)
async def table_page(table_id: str) -> FileResponse:
    """A table's page; its script reads the table's id from the path."""
    return FileResponse(STATIC / "table.html")


@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(game: str) -> FileResponse:
    """A game's rules for players: the table page and the lobby's options link here."""
    if game not in {g.name for g in games.all_games()}:
        raise HTTPException(404, "there is no such game")
    return FileResponse(STATIC / "rules.html")
