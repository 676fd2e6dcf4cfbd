"""The ASGI app: the lobby over HTTP + JSON, play over WebSocket, static pages; and
running it with uvicorn.

`web_app` puts the routers (one module each: games, tables, matches, pages,
tournaments, profiles, play) and the guards around them; `pitkit.server.create_app` wires
the layers it serves from. The HTTP API is described by the OpenAPI spec at
``/openapi.json`` (browse it at ``/docs``); the WebSocket protocol by docs/protocol.md.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TypeAlias

import uvicorn
from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles

from pitkit.server.live.tables import TableElsewhereError
from pitkit.server.ops.settings import Limits
from pitkit.server.web import games, matches, pages, play, tables
from pitkit.server.web.guards import (
    SameOriginSockets,
    SecurityHeaders,
    add_docs,
    raise_open_files_limit,
    server_config,
)
from pitkit.server.web.limits import BodyLimit, RequestRate, TokenRoutes
from pitkit.server.web.profiles import profile_routes
from pitkit.server.web.publish import publish_routes
from pitkit.server.web.services import Services
from pitkit.server.web.tournaments import tournament_routes

__all__ = ["App", "Lifespan", "run", "web_app"]

App: TypeAlias = FastAPI
"""The server's ASGI app (FastAPI's: its routes make the OpenAPI spec)."""

Lifespan: TypeAlias = Callable[[App], AbstractAsyncContextManager[None]]
"""What runs around serving: start the layers below, then close them."""


def web_app(services: Services, lifespan: Lifespan, more: Sequence[APIRouter] = ()) -> App:
    """The app serving from `services`; `lifespan` starts and stops them; `more`: routers
    of the layers above (players' pages, notices) served beside the app's own."""
    app = FastAPI(
        title="pitkit server",
        summary="Tables for the Pit family of card games; play over WebSocket.",
        description="The play protocol over WebSocket is described in docs/protocol.md.",
        version="1",
        lifespan=lifespan,
        docs_url=None,  # add_docs: Swagger UI from this server, not a CDN
        redoc_url=None,
    )
    add_docs(app)
    app.state.services = services
    app.state.site = services.site  # server_config reads it
    app.state.manager = services.manager
    limits, site = services.limits, services.site
    routers = [
        games.router,
        tables.router,
        matches.router,
        pages.router,
        tournament_routes(services.tournaments, services.online, site, limits.events_per_address),
        publish_routes(services.tournaments, site),
        profile_routes(limits),
        play.router,
        *more,
    ]
    reads_token = TokenRoutes(route for router in routers for route in router.routes)
    app.add_middleware(BodyLimit, limit=limits.body_bytes)
    app.add_middleware(SameOriginSockets, site=site)
    app.add_middleware(RequestRate, limits=limits, site=site, reads_token=reads_token)
    app.add_middleware(SecurityHeaders, site=site)  # the outermost: on a 413 too
    app.add_exception_handler(TableElsewhereError, tables.table_moving)
    for router in routers:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    return app


def run(app: App, limits: Limits, *, port: int, log_level: str, log_format: str) -> None:
    """Serve `app` with uvicorn, behind the guards (guards.py), until interrupted."""
    server = uvicorn.Server(
        server_config(app, limits, port=port, log_level=log_level, log_format=log_format)
    )
    raise_open_files_limit()
    # Ctrl+C stops the server cleanly, then uvicorn raises the signal again to whoever
    # set a handler before it (uvicorn.run swallows it the same way).
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
