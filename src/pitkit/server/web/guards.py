"""What uvicorn leaves to the app: connection guards, and what a browser is told.

uvicorn waits forever for a request's head, lets one address hold any number of
sockets, and believes X-Forwarded-For from 127.0.0.1. `server_config` builds the
uvicorn Config that `pitkit serve` and the tests both run, with

- deadlines for a request's head and body (`Limits.header_seconds`, `body_seconds`),
  and a cap on the sockets one address holds open, HTTP and WebSocket alike
  (`Limits.connections_per_address`);
- forwarded addresses believed only from the proxies `Site.trusted_proxies` names;
- a WebSocket that takes a seat leaving its address's count (`seated`), and one closed
  for abuse dropped at once (`DROPPED`).

`Site` says where the server is reached. From it `SecurityHeaders` (CSP and
anti-framing headers), `SameOriginSockets` (no WebSocket from another site's page),
`Site.base_url` (invitation links) and `add_docs` (the API docs, no third-party
script) serve browsers safely.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import fastapi_offline
import h11
import uvicorn
from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.protocol import State

from pitkit.server.ops import logs
from pitkit.server.ops.settings import Limits

__all__ = [
    "DROPPED",
    "SEATED",
    "SameOriginSockets",
    "SecurityHeaders",
    "Site",
    "add_docs",
    "raise_open_files_limit",
    "seated",
    "server_config",
]

_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


@dataclass(frozen=True)
class Site:
    """Where the server is reached, and which proxies it believes."""

    host: str = "127.0.0.1"
    """The address it listens on (`pitkit serve --host`)."""
    public_url: str | None = None
    """The URL people reach it at, e.g. https://pit.example.org (`--public-url`):
    invitation links use it, and only its pages may open a WebSocket."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks of reverse proxies whose X-Forwarded-For and
    X-Forwarded-Proto are believed (`--trusted-proxy`); nobody else's are."""

    _networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        # Checked here, so that a mistyped option stops `pitkit serve` at once.
        if self.public_url is not None:
            object.__setattr__(self, "public_url", _origin_of(self.public_url))
        try:
            networks = tuple(ipaddress.ip_network(p, strict=False) for p in self.trusted_proxies)
        except ValueError as exc:
            raise ValueError(f"a trusted proxy is an IP address or network: {exc}") from None
        object.__setattr__(self, "_networks", networks)

    def trusts(self, address: str) -> bool:
        """Whether `address` is one of the trusted proxies."""
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self._networks)

    def base_url(self, scope: Scope) -> str:
        """The server's URL for links in an answer to `scope`: the public URL; without
        one, the URL the request was sent to if its Host names this server (the address
        the client connected to, `localhost` on loopback, or `host`, on the port the
        server listens on); otherwise "" (links are relative, never to a forged Host)."""
        if self.public_url is not None:
            return self.public_url
        scheme = str(scope.get("scheme", "http"))
        origin = _host_origin(scope, scheme)
        server = scope.get("server")
        if origin is None or not server:
            return ""
        url = urlsplit(origin)
        address, port = server
        if url.hostname is None or (url.port or _PORTS[scheme]) != port:
            return ""
        if url.hostname == self.host.lower() and self.host not in ("0.0.0.0", "::", ""):
            return origin
        try:
            here = ipaddress.ip_address(address)
            if url.hostname == "localhost":
                return origin if here.is_loopback else ""
            return origin if ipaddress.ip_address(url.hostname) == here else ""
        except ValueError:  # a name, or a server on a Unix socket
            return ""

    def allows_origin(self, scope: Scope) -> bool:
        """Whether a WebSocket may open: it has no Origin (not a browser), or the Origin
        is the public URL, or, without one, the Host the request was sent to."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        try:
            mine = self.public_url or _host_origin(scope, urlsplit(origin).scheme)
            return _origin_of(origin) == mine
        except ValueError:  # "null" (a sandboxed or file: page), or no URL at all
            return False


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _origin_of(url: str) -> str:
    """`url`'s origin, scheme://host[:port] in lower case without a default port;
    ValueError if it is not a bare http(s) URL."""
    parts = urlsplit(url)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise ValueError(f"a public URL is http(s)://host[:port] (no path), not {url!r}")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    port = parts.port  # ValueError if it is no port
    if port is None or port == _PORTS[parts.scheme]:
        return f"{parts.scheme}://{host}"
    return f"{parts.scheme}://{host}:{port}"


def _host_origin(scope: Scope, scheme: str) -> str | None:
    """`scheme`://the request's Host, as an origin; None if Host is no bare host[:port]."""
    host = _header(scope, b"host")
    try:
        return None if host is None else _origin_of(f"{scheme}://{host}")
    except ValueError:
        return None


# -- what a browser is told ------------------------------------------------------------


def content_security_policy(site: Site) -> str:
    """The Content-Security-Policy of every answer: pages load only the server's files."""
    sockets = "'self'"
    if site.public_url is not None:
        # 'self' covers ws: and wss: to the same host and port since Chrome 71 and
        # Safari 16; older Safari needs the WebSocket origin named.
        sockets += " " + site.public_url.replace("http", "ws", 1)
    return "; ".join(
        [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            # Style attributes only (js/cards.js sets one as text): they cannot read the page.
            "style-src-attr 'unsafe-inline'",
            # data: for the icons inside Swagger UI's stylesheet.
            "img-src 'self' data:",
            # The web app manifest (installing pitkit on a phone's home screen).
            "manifest-src 'self'",
            # The service worker (static/sw.js) is a script of the site's own.
            "worker-src 'self'",
            f"connect-src {sockets}",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


class SecurityHeaders:
    """Add the CSP and the other headers below to every HTTP answer."""

    def __init__(self, app: ASGIApp, site: Site) -> None:
        self.app = app
        self.headers = [
            (b"content-security-policy", content_security_policy(site).encode()),
            # frame-ancestors' older twin, for browsers without CSP 2.
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            # Invitation links carry the token in the #fragment, never sent; nothing else
            # leaks either.
            (b"referrer-policy", b"no-referrer"),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.headers]}
            await send(message)

        await self.app(scope, receive, with_headers)


class SameOriginSockets:
    """Refuse (403, before accepting) a WebSocket opened by another site's page:
    otherwise any page a visitor opens could use their browser to reach this server,
    even one only their machine or network can reach (cross-site WebSocket hijacking)."""

    def __init__(self, app: ASGIApp, site: Site) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not self.site.allows_origin(scope):
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)


# -- the API docs, without a CDN --------------------------------------------------------

# Swagger UI's files as the pinned fastapi-offline package ships them: kept up to date
# by that package, and served from here, so /docs runs no third party's script on the
# origin where the pages keep their tokens.
SWAGGER = Path(fastapi_offline.__file__).parent / "static"

_DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}: API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/static/img/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/swagger-ui.css">
<script src="/docs/swagger-ui-bundle.js" defer></script>
<script src="/docs/start.js" defer></script>
</head>
<body><div id="swagger-ui"></div></body>
</html>
"""

# A file of its own, not an inline script, so that the CSP needs no exception for /docs.
# validatorUrl null: Swagger UI would otherwise fetch a badge from validator.swagger.io.
_DOCS_START = """SwaggerUIBundle({
  url: '/openapi.json', dom_id: '#swagger-ui', layout: 'BaseLayout', deepLinking: true,
  validatorUrl: null, presets: [SwaggerUIBundle.presets.apis],
});
"""


def add_docs(app: FastAPI) -> None:
    """Serve Swagger UI at /docs from this server's own files (make the app with
    `docs_url=None, redoc_url=None`)."""
    page = _DOCS_PAGE.format(title=app.title)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(page)

    @app.get("/docs/start.js", include_in_schema=False)
    async def docs_start() -> Response:
        return Response(_DOCS_START, media_type="text/javascript")

    @app.get("/docs/swagger-ui.css", include_in_schema=False)
    async def docs_css() -> FileResponse:
        return FileResponse(SWAGGER / "swagger-ui.css", media_type="text/css")

    @app.get("/docs/swagger-ui-bundle.js", include_in_schema=False)
    async def docs_js() -> FileResponse:
        return FileResponse(SWAGGER / "swagger-ui-bundle.js", media_type="text/javascript")


# -- connections --------------------------------------------------------------------------


class _Gate:
    """Sockets open per client address, over one server's HTTP and WebSocket protocols."""

    def __init__(self, cap: int, site: Site) -> None:
        self.cap = cap
        self.site = site
        self.open: Counter[str] = Counter()

    def _counted(self, address: str | None) -> bool:
        # A trusted proxy speaks for many clients: it must cap them itself.
        return address is not None and not self.site.trusts(address)

    def enter(self, address: str | None) -> bool:
        """Count a new socket from `address`; False: it is one too many (close it)."""
        if not self._counted(address):
            return True
        assert address is not None
        self.open[address] += 1
        return self.open[address] <= self.cap

    def leave(self, address: str | None) -> None:
        """A socket `enter` counted has closed."""
        if self._counted(address):
            assert address is not None
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]


class GuardedConfig(uvicorn.Config):
    """uvicorn's Config, with the guards its (guarded) protocols read."""

    def __init__(self, app: FastAPI, limits: Limits, site: Site, **options: Any) -> None:
        self.limits = limits
        self.gate = _Gate(limits.connections_per_address, site)
        super().__init__(app, http=_GuardedHttp, ws=_GuardedWebSocket, **options)


class _GuardedHttp(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with deadlines for a request's head and its body,
    and the cap on the sockets one address holds."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        assert isinstance(config, GuardedConfig)
        self.guards = config
        self.address: str | None = None
        self.awaiting: str | None = None
        """What the client is given until `deadline` to send: "head", "body" or None."""
        self.deadline: asyncio.TimerHandle | None = None
        self.finished = False
        """Upgraded to a WebSocket, or closed: nothing more to wait for."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.client[0] if self.client else None
        if not self.guards.gate.enter(self.address):
            transport.close()
            return
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # The socket, and its place under the cap, now belong to the WebSocket protocol.
        self.finished = True
        self._watch()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self.finished = True
        self._watch()
        self.guards.gate.leave(self.address)
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Give the client a deadline for the request's head while it is sending one
        (a new one after a keep-alive pause starts a new deadline), then one for the
        body; the deadline is for the whole, not reset by each byte (slowloris)."""
        state = self.conn.their_state
        awaiting = (
            None
            if self.finished
            else "head"
            if state is h11.IDLE
            else "body"
            if state is h11.SEND_BODY
            else None
        )
        if awaiting == self.awaiting:
            return
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.awaiting = awaiting
        if awaiting is not None:
            limits = self.guards.limits
            seconds = limits.header_seconds if awaiting == "head" else limits.body_seconds
            self.deadline = self.loop.call_later(seconds, self.transport.close)


DROPPED = frozenset({1008, 1013})
"""Close codes after which the server reads nothing more of a socket: abuse, and "try
again later" (a table moving, an address backing off). The socket is aborted as soon
as its close frame is written, rather than read until its client answers the close
(uvicorn waits up to 10 s, parsing all a flooding client sends meanwhile)."""

SEATED = "pitkit.seated"
"""The ASGI extension (in a WebSocket's scope) that `seated` calls."""


def seated(scope: Scope) -> None:
    """The WebSocket of `scope` has taken a seat by its token: it leaves its address's
    count of sockets (the seat's own cap, `Limits.sockets_per_seat`, bounds it now)."""
    leave = scope.get("extensions", {}).get(SEATED)
    if leave is not None:
        leave()


class _GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, giving back its socket's place under the cap (when
    it closes, or earlier when it takes a seat), and dropping a socket closed for abuse."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counted = True
        """Whether this socket still counts against its address (guards' `_Gate`)."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none if the handshake was refused
        if scope is not None:
            scope["extensions"][SEATED] = self._leave_address

    def _leave_address(self) -> None:
        if self.counted:
            self.counted = False
            assert isinstance(self.config, GuardedConfig)
            self.config.gate.leave(self.client[0] if self.client else None)

    async def send(self, message: Any) -> None:
        drop = (
            message["type"] == "websocket.close"
            and message.get("code") in DROPPED
            and self.handshake_complete  # an open socket (before it, a close is a 403)
            and not self.close_sent
        )
        await super().send(message)
        if drop:
            self.transport.abort()  # the close frame is on its way; read nothing more

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            self._leave_address()

    def shutdown(self) -> None:
        """Close the socket as the server stops. uvicorn's sends a close frame; but on a
        socket whose other end has begun closing it, websockets refuses a second one,
        and uvicorn's raised there, which cut the server's own stop short (a test
        server's stop, 2026-11-29). Such a socket only needs its transport closed."""
        if self.handshake_complete and not self.close_sent and self.conn.state is not State.OPEN:
            self.stop_keepalive()
            self.transport.close()
            return
        super().shutdown()


def raise_open_files_limit() -> None:
    """Raise this process's soft limit on open files to its hard limit. Every socket is a
    file: under a common default of 1,024, a thousand half-sent requests from a dozen
    addresses (each under the cap) would leave no room for anyone else until the head
    deadline frees them."""
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        # Some systems refuse more than a kernel setting below the hard limit: keep soft.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


SHUTDOWN_SECONDS = 3
"""How long a stopping server waits for requests under way (sockets are closed at once)."""


def server_config(
    app: FastAPI, limits: Limits, *, port: int, log_level: str, log_format: str = "text"
) -> GuardedConfig:
    """The uvicorn Config that serves `app` (from `create_app`, which holds its `Site`),
    logging as `log_format` says ("text" or "json": logs.py)."""
    site = app.state.site
    assert isinstance(site, Site)
    return GuardedConfig(
        app,
        limits,
        site,
        host=site.host,
        port=port,
        log_level=log_level,
        log_config=logs.config(log_format, log_level),
        lifespan="on",
        ws_max_size=limits.frame_bytes,
        # Messages are a few hundred bytes: compressing each costs more CPU (on both
        # ends) than it saves in bytes.
        ws_per_message_deflate=False,
        # uvicorn believes X-Forwarded-For from 127.0.0.1 by default: anyone on the
        # machine, or any local proxy not meant to be trusted, could pose as any address.
        proxy_headers=bool(site.trusted_proxies),
        forwarded_allow_ips=list(site.trusted_proxies),
        # An idle keep-alive socket is closed after this long (uvicorn's default, said here).
        timeout_keep_alive=5,
        # At a stop, requests under way get this long to finish: an event's news stream
        # (docs/tournaments.md) is open for 25 s and the page reopens it elsewhere.
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        # limit_concurrency is left off: it answers 503 to HTTP requests past it but
        # keeps every socket open, so it bounds work rather than sockets, and would
        # refuse the lobby while many players merely sit at tables. The deadlines and
        # the per-address cap above bound sockets; the listen backlog stays uvicorn's 2048.
    )
