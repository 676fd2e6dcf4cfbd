"""What one client may ask of the app over HTTP: requests a second from one address
(`RequestRate`), tables created a minute (`Buckets`, tables.py), and a request body's
size (`BodyLimit`). Play over the WebSocket has its own limits (play.py).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pitkit.server.ops.settings import Bucket, Limits
from pitkit.server.web.guards import Site

__all__ = ["BodyLimit", "Buckets", "RequestRate"]


class Buckets:
    """A rate bucket for each client address, made at its first request: `rate` a second
    on average, `burst` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, Bucket] = {}

    def take(self, address: str) -> bool:
        """Whether `address` may make one more request now (if so, it is counted)."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= 10_000:
                self.buckets.clear()  # a crude bound on memory; limits restart for all
            bucket = self.buckets[address] = Bucket(self.rate, self.burst)
        return bucket.take()


class RequestRate:
    """At most `Limits.requests_per_second` HTTP requests from one address on average
    (bursts of `request_burst`); beyond it a 429. A page load takes a few dozen, play
    goes over the WebSocket: only a client hammering one URL (a log, say) meets it."""

    def __init__(self, app: ASGIApp, limits: Limits, site: Site) -> None:
        self.app = app
        self.site = site
        self.buckets = Buckets(limits.requests_per_second, limits.request_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        address = client[0] if client else None
        # A trusted proxy's own requests speak for many clients (theirs carry X-Forwarded-For).
        if (
            scope["type"] == "http"
            and address is not None
            and not self.site.trusts(address)
            and not self.buckets.take(address)
        ):
            await _refuse(send, 429, b'{"detail":"too many requests; slow down"}', retry=True)
            return
        await self.app(scope, receive, send)


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
