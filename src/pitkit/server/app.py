"""The server wired: each sub-layer built on those before it, and served by the web.

    ops < store < live < tournaments < web

`create_app(database_url)` builds it; `pitkit serve` runs it with uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable

from pitkit.server.live import ratings
from pitkit.server.live.manager import Manager
from pitkit.server.live.notices import PushNotices
from pitkit.server.live.profiles import Profiles
from pitkit.server.ops.metrics import Metrics
from pitkit.server.ops.settings import Limits, PushSettings
from pitkit.server.store.owners import owners_for
from pitkit.server.store.storage import Store
from pitkit.server.tournaments.online import OnlineTables
from pitkit.server.tournaments.service import Tournaments
from pitkit.server.web import players
from pitkit.server.web import push as push_routes
from pitkit.server.web.asgi import App, web_app
from pitkit.server.web.guards import Site
from pitkit.server.web.services import Services
from pitkit.tournaments import KINDS

__all__ = ["create_app"]


def create_app(
    database_url: str,
    limits: Limits | None = None,
    started: Callable[[], None] | None = None,
    site: Site | None = None,
    push: PushSettings | None = None,
) -> App:
    """The pitkit server as an ASGI app, storing its tables at `database_url`.

    `started` is called once the app has started (tables loaded), before it serves.
    `site` says where it is reached (guards.py); `app.state.site` keeps it for uvicorn.
    `push`: how Web Push notices are sent (default: from the environment, docs/notices.md).
    """
    limits = limits or Limits()
    metrics = Metrics()
    store = Store(
        database_url, timeout=limits.store_seconds, metrics=metrics, gap=limits.commit_gap
    )
    site = site or Site()
    notices = PushNotices(store, limits, push or PushSettings.from_environ(), site.public_url)
    manager = Manager(store, limits, metrics, owners_for(database_url), notify=notices.send)
    tournaments = Tournaments(store, KINDS, limits.entries_per_event)
    online = OnlineTables(tournaments, manager)
    metrics.watch(manager.census)

    @contextlib.asynccontextmanager
    async def lifespan(_app: App) -> AsyncIterator[None]:
        store.start()
        await manager.load()
        await ratings.rate_missed(store, time.time() - ratings.MISSED_SECONDS)
        if started is not None:
            started()
        try:
            yield
        finally:
            await online.close()
            await manager.close()
            await notices.close()
            services.replays.close()
            await asyncio.to_thread(store.close)

    profiles = Profiles(store, limits)
    services = Services(
        limits, site, metrics, store, manager, tournaments, online, profiles, push=notices
    )
    # Notices and the installable app; ratings, players' pages and leaderboards.
    return web_app(services, lifespan, more=(push_routes.router, players.router))
