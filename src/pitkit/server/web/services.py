"""What the routes serve from: the layers below, wired once by `pitkit.server.app`.

`create_app` builds one `Services` and keeps it on ``app.state.services``; a route
names it as a parameter of type `Wired`, and FastAPI hands it over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from pitkit.server.live.manager import Manager
from pitkit.server.live.notices import PushNotices
from pitkit.server.live.profiles import Profiles
from pitkit.server.live.replays import Replays
from pitkit.server.ops.metrics import Metrics
from pitkit.server.ops.settings import Limits
from pitkit.server.store.storage import Store
from pitkit.server.tournaments.online import OnlineTables
from pitkit.server.tournaments.service import Tournaments
from pitkit.server.web.guards import Site
from pitkit.server.web.limits import Buckets, Strikes

__all__ = ["Services", "Wired", "wired"]


@dataclass(frozen=True)
class Services:
    """One server's parts, and the memory its routes keep between requests."""

    limits: Limits
    site: Site
    metrics: Metrics
    store: Store
    manager: Manager
    """The tables in memory."""
    tournaments: Tournaments
    online: OnlineTables
    """The tournaments' games at pitkit tables."""
    profiles: Profiles
    """Players' profiles, their devices and the ways to sign in."""
    push: PushNotices
    """Web Push: the server's key, each profile's subscriptions, sending notices."""

    replays: Replays = field(init=False)
    """Finished matches' replays and logs, kept gzipped (they never change once over)."""
    creates: Buckets = field(init=False)
    """Tables created per client address and minute."""
    strikes: Strikes = field(init=False)
    """Who backs off after a socket of theirs was closed for abuse (play.py)."""

    def __post_init__(self) -> None:
        per_minute = self.limits.creates_per_minute
        # Frozen: set once, here.
        object.__setattr__(self, "creates", Buckets(per_minute / 60, per_minute))
        object.__setattr__(self, "strikes", Strikes(self.limits))
        replays = Replays(self.limits.replay_bytes, self.limits.replay_builds)
        object.__setattr__(self, "replays", replays)


async def wired(connection: HTTPConnection) -> Services:
    """The app's `Services`, for a request or a WebSocket (async: no thread hop)."""
    services: Services = connection.app.state.services
    return services


Wired = Annotated[Services, Depends(wired)]
"""A route's parameter that receives the app's `Services`."""
