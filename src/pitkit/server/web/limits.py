"""What one client may ask of the app: HTTP requests a second (`RequestRate`), tables
created a minute (`Buckets`, tables.py), a request body's size (`BodyLimit`), who
backs off after a socket of theirs was closed for abuse (`Strikes`, play.py), and how
many wrong secrets (an event link's token, a slip's code) an address may try
(`FailedTries`, tournaments.py).

A client is known by its secret where it has one: an HTTP request carrying a token
the server has accepted before is counted against that token, not its address, so a
hall of players behind one router do not share one budget. Anonymous work (pages,
opening tables, spectating, and tokens the server refused) is counted by address.
Play over the WebSocket has its own limits (play.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pitkit.server.ops.settings import Bucket, Limits
from pitkit.server.web.guards import Site

__all__ = [
    "BodyLimit",
    "Buckets",
    "FailedTries",
    "RequestRate",
    "Strikes",
    "TokenRoutes",
    "bearer_token",
]

_KEPT = 10_000
"""Clients a registry here keeps at most (a crude bound on memory)."""

TOKEN_SHAPE = re.compile(rb"bearer +([A-Za-z0-9_-]{24}|[0-9A-Z]{10}) *", re.IGNORECASE)
"""An Authorization header carrying a token shaped as `ops.tokens.new_token` makes them
(24 characters of URL-safe base64), or as an event link's code (ten characters of
Crockford's base 32, `server.tournaments.codes`)."""


class Buckets:
    """A rate bucket for each client (an address, a token), made at its first request:
    `rate` a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, Bucket] = {}

    def take(self, client: str) -> bool:
        """Whether `client` may make one more request now (if so, it is counted)."""
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.admit(client)
        return bucket.take()

    def admit(self, client: str) -> Bucket:
        """A full bucket for `client`."""
        if len(self.buckets) >= _KEPT:
            self.buckets.clear()  # a crude bound on memory; limits restart for all
        bucket = self.buckets[client] = Bucket(self.rate, self.burst)
        return bucket

    def __contains__(self, client: str) -> bool:
        return client in self.buckets

    def forget(self, client: str) -> None:
        """Drop `client`'s bucket: it starts afresh if it comes again."""
        self.buckets.pop(client, None)


def bearer_token(scope: Scope) -> str | None:
    """The token of a request's `Authorization: Bearer` header, if it is shaped like one
    of the server's (anything else is no token: the request is anonymous)."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            found = TOKEN_SHAPE.fullmatch(bytes(value))
            return found.group(1).decode("ascii") if found else None
    return None


class TokenRoutes:
    """Whether a request goes to a route that reads a bearer token: one that takes an
    `authorization` header, itself or through a dependency (as its OpenAPI operation
    says). Such a route refuses a token that is not one of the server's (401 or 403);
    the others ignore any token, so only an answer of theirs proves one. Read from the
    routes themselves: the OpenAPI spec says the same, but writing it out costs a
    third of a second of CPU (docs/testing.md, "A server's first request")."""

    def __init__(self, routes: Iterable[BaseRoute]) -> None:
        self.routes = [
            (route.path_regex, frozenset(route.methods or ()))
            for route in routes
            if isinstance(route, APIRoute) and _reads_authorization(route.dependant)
        ]

    def __call__(self, scope: Scope) -> bool:
        path, method = scope["path"], scope["method"]
        return any(method in methods and p.match(path) for p, methods in self.routes)


def _reads_authorization(dependant: Dependant) -> bool:
    """Whether a route's parameters, or a dependency's, include the authorization header."""
    return any(f.alias.lower() == "authorization" for f in dependant.header_params) or any(
        _reads_authorization(d) for d in dependant.dependencies
    )


class RequestRate:
    """At most `Limits.requests_per_second` HTTP requests on average (bursts of
    `request_burst`) from one address, or with one token; beyond it a 429.

    A request whose bearer token the server has accepted before (a route that reads
    tokens answered it without 401 or 403) is counted against that token alone. Any
    other request, one with a token never accepted or just refused included, is counted
    against its address: guessing tokens is anonymous work. A page load takes a few
    dozen requests, play goes over the WebSocket: only a client hammering one URL (a
    log, say) meets the limit."""

    def __init__(
        self, app: ASGIApp, limits: Limits, site: Site, reads_token: Callable[[Scope], bool]
    ) -> None:
        self.app = app
        self.site = site
        self.reads_token = reads_token
        self.addresses = Buckets(limits.requests_per_second, limits.request_burst)
        self.tokens = Buckets(limits.requests_per_second, limits.request_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        address = client[0] if client else None
        # A trusted proxy's own requests speak for many clients (theirs carry X-Forwarded-For).
        if scope["type"] != "http" or address is None or self.site.trusts(address):
            await self.app(scope, receive, send)
            return
        token = bearer_token(scope)
        if token is not None and token in self.tokens:
            allowed, known = self.tokens.take(token), True
        else:
            allowed, known = self.addresses.take(address), False
        if not allowed:
            await _refuse(send, 429, b'{"detail":"too many requests; slow down"}', retry=True)
            return
        if token is None:
            await self.app(scope, receive, send)
            return
        status = 0

        async def noted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        await self.app(scope, receive, noted)
        if status in (401, 403):
            self.tokens.forget(token)  # revoked, or never one: back to its address
        elif not known and 0 < status < 400 and self.reads_token(scope):
            self.tokens.admit(token)


class FailedTries:
    """Wrong secrets one client address may try: `burst` at once, then one every
    1/`rate` seconds. Past that its tries wait (`wait`), before any is checked, so
    guessing a short secret (a slip's code) takes longer than anyone lives. A secret
    the server knows to be good is never held up: a hall of players behind one
    address keeps going while one of them mistypes."""

    def __init__(self, rate: float, burst: int) -> None:
        self.buckets = Buckets(rate, burst)

    def wait(self, client: str) -> float:
        """Seconds before `client` may try a secret the server does not know (0: now)."""
        bucket = self.buckets.buckets.get(client)
        return 0.0 if bucket is None else bucket.wait()

    def failed(self, client: str) -> None:
        """Count one wrong secret tried by `client`."""
        self.buckets.take(client)


class Strikes:
    """Who backs off after a socket of theirs was closed for abuse: an address, or a
    seat's token. The first back-off lasts `Limits.backoff_seconds`; each strike doubles
    it, up to `backoff_most`; one who keeps out of trouble that long after a back-off
    ends starts afresh."""

    def __init__(self, limits: Limits) -> None:
        self.first = limits.backoff_seconds
        self.most = limits.backoff_most
        self.kept: dict[str, tuple[int, float]] = {}
        """Who -> (strikes, the time.monotonic() at which their back-off ends)."""

    def strike(self, who: str) -> float:
        """Count one strike against `who`; the seconds they now back off."""
        now = time.monotonic()
        strikes, until = self.kept.get(who, (0, 0.0))
        if now > until + self.most:
            strikes = 0
        seconds = min(self.most, self.first * 2.0**strikes)
        if who not in self.kept and len(self.kept) >= _KEPT:
            self.kept = {k: v for k, v in self.kept.items() if now <= v[1] + self.most}
            if len(self.kept) >= _KEPT:
                self.kept.clear()  # a crude bound on memory, as for the buckets
        self.kept[who] = (strikes + 1, now + seconds)
        return seconds

    def backing_off(self, who: str) -> float:
        """Seconds left of `who`'s back-off (0: none)."""
        kept = self.kept.get(who)
        return 0.0 if kept is None else max(0.0, kept[1] - time.monotonic())


class BodyLimit:
    """Refuse HTTP bodies over `limit` bytes with 413, whether or not they say their size."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _refuse(send, 413, _TOO_LARGE)
                return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLargeError
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLargeError:
            await _refuse(send, 413, _TOO_LARGE)


class _TooLargeError(Exception):
    """A body has gone over the limit while the app was reading it."""


_TOO_LARGE = b'{"detail":"the request body is too large"}'


async def _refuse(send: Send, status: int, body: bytes, retry: bool = False) -> None:
    """Answer `status` with a JSON `body` (`retry`: try again in a second)."""
    headers = [(b"content-type", b"application/json")]
    if retry:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
