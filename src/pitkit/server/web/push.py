"""Notices by Web Push, and the installable app, over HTTP (docs/notices.md).

The page asks for the server's public key, subscribes through its service worker,
and hands the subscription to the server as the signed-in profile's (its device's
secret as ``Authorization: Bearer``, never in a URL; see web/profiles.py). The
service worker is served from the site's root, so that it may control every page;
it keeps a copy of the app's shell (the lobby and the player's page, their scripts,
styles and icons) for when the network is gone, and never the API's answers.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, HTTPException, Response
from pydantic import BaseModel, Field

from pitkit.server.live.notices import ENDPOINT_CHARS, SubscriptionError
from pitkit.server.store.push import Subscribed
from pitkit.server.web.bodies import Authorization, Body
from pitkit.server.web.pages import STATIC
from pitkit.server.web.profiles import answering, signed_profile
from pitkit.server.web.services import Wired

__all__ = ["SHELL_PAGES", "router", "shell"]

router = APIRouter(tags=["notices"])

SHELL_PAGES = {"/": "index.html", "/me": "me.html"}
"""The pages the service worker keeps for offline use, by path: the lobby, one's profile."""

_Endpoint = Annotated[str, Field(max_length=ENDPOINT_CHARS)]


# -- bodies -------------------------------------------------------------------------------


class PushKeys(Body):
    """The keys a browser encrypts with: its P-256 public key, its auth secret (base64url)."""

    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=64)


class PushSubscriptionBody(Body):
    """A browser's push subscription, as `PushSubscription.toJSON()` gives it."""

    endpoint: _Endpoint = Field(examples=["https://fcm.googleapis.com/fcm/send/…"])
    keys: PushKeys
    expirationTime: float | None = None  # noqa: N815 - the browser's own name


class PushEndpoint(Body):
    """Which of the profile's subscriptions to forget: its endpoint."""

    endpoint: _Endpoint


class PushKey(BaseModel):
    """The server's VAPID public key, the page's `applicationServerKey` (base64url)."""

    key: str


class PushSubscribed(BaseModel):
    """Notices are on for this device; `new`: the server did not have it yet."""

    new: bool


# -- routes -------------------------------------------------------------------------------


@router.get("/api/push/key")
async def push_key(services: Wired) -> PushKey:
    """The server's public key for Web Push (made on first use, kept in the database)."""
    with answering():
        return PushKey(key=await services.push.public_key())


@router.post("/api/profiles/me/push/subscribe", status_code=201)
async def subscribe(
    body: PushSubscriptionBody, services: Wired, authorization: Authorization = None
) -> PushSubscribed:
    """Send the profile's notices to this browser too. 409: another profile has this
    subscription (the page makes a new one); beyond `Limits.push_subscriptions_per_profile`
    the profile's oldest is dropped."""
    signed = await signed_profile(services, authorization)
    with answering():
        try:
            done = await services.push.subscribe(
                signed.profile.id, body.endpoint, body.keys.p256dh, body.keys.auth
            )
        except SubscriptionError as exc:
            raise HTTPException(400, str(exc)) from None
    if done is Subscribed.TAKEN:
        raise HTTPException(409, "another profile gets this device's notices: subscribe anew")
    return PushSubscribed(new=done is Subscribed.NEW)


@router.post("/api/profiles/me/push/unsubscribe", status_code=204)
async def unsubscribe(
    body: PushEndpoint, services: Wired, authorization: Authorization = None
) -> None:
    """Send the profile's notices to this browser no more (404: it had none there)."""
    signed = await signed_profile(services, authorization)
    with answering():
        if not await services.push.unsubscribe(signed.profile.id, body.endpoint):
            raise HTTPException(404, "your profile sends no notices there")


# -- the installable app ------------------------------------------------------------------

_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;'"]*?['"](\.{1,2}/[^'"]+\.js)['"]""", re.M)
_PAGE_FILE = re.compile(r"""(?:src|href)="(/static/[^"]+)\"""")


def _module_graph(start: Path, static: Path) -> set[Path]:
    """`start` and every module it imports by a static import, transitively."""
    seen: set[Path] = set()
    todo = [start]
    while todo:
        module = todo.pop()
        if module in seen or not module.is_file() or static not in module.parents:
            continue
        seen.add(module)
        todo += [(module.parent / m).resolve() for m in _IMPORT.findall(module.read_text())]
    return seen


@functools.cache
def shell(static: Path = STATIC) -> tuple[str, list[str]]:
    """The app's shell for the service worker: a version (a digest of every file in it
    and of the worker itself, so a new release replaces the copy) and the URLs to keep:
    `SHELL_PAGES`, and what they load (scripts with their imports, styles, icons)."""
    static = static.resolve()
    files: set[Path] = {static / "js" / "offline.js"}
    files |= set((static / "img").glob("icon*"))
    for page in SHELL_PAGES.values():
        for url in _PAGE_FILE.findall((static / page).read_text()):
            path = (static / url.removeprefix("/static/")).resolve()
            files |= _module_graph(path, static) if path.suffix == ".js" else {path}
    kept = sorted(f for f in files if f.is_file() and static in f.parents)
    digest = hashlib.sha256((static / "sw.js").read_bytes())
    pages = [static / page for page in SHELL_PAGES.values()]
    for path in [*kept, *pages, static / "manifest.webmanifest"]:
        digest.update(path.read_bytes())
    urls = ["/static/" + f.relative_to(static).as_posix() for f in kept]
    return digest.hexdigest()[:16], [*urls, "/manifest.webmanifest"]


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker, at the root so that its scope is the whole site, with the
    shell it keeps written in. Never cached by the browser's HTTP cache: the worker is
    how a new release reaches a phone."""
    version, files = shell()
    preamble = json.dumps({"version": version, "pages": list(SHELL_PAGES), "files": files})
    source = (STATIC / "sw.js").read_text()
    return Response(
        f"const SHELL = {preamble};\n{source}",
        media_type="text/javascript",
        headers={"cache-control": "no-cache"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    """The web app manifest (its own media type), so a phone can add pitkit to its
    home screen."""
    return Response(
        (STATIC / "manifest.webmanifest").read_bytes(), media_type="application/manifest+json"
    )
