"""Notices to a player away from the table: "your turn" and "the match is over".

The live tables say *what* to tell a profile (`Notice`) through a `Notify` callable;
how it reaches them (the page, Web Push to each device that allowed it) is the
sender's business, wired by `pitkit.server.app`.

`PushNotices` is the Web Push sender (docs/notices.md): each of the profile's
subscriptions gets the notice as JSON, encrypted for that browser (RFC 8291,
aes128gcm) and signed with the server's VAPID key (RFC 8292), which the server makes
once and keeps in the database so that every worker signs alike. pywebpush is
synchronous: its posts run on a few threads of their own, never on the event loop.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import ipaddress
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

from pitkit.server.ops.settings import Limits, PushSettings
from pitkit.server.store import push as rows
from pitkit.server.store.storage import DatabaseError, Store

__all__ = [
    "Notice",
    "NoticeKind",
    "Notify",
    "PushNotices",
    "SubscriptionError",
    "checked_subscription",
]

log = logging.getLogger("pitkit.server")

NoticeKind = Literal["your-turn", "match-over"]


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to tell one player, in words for players."""

    kind: NoticeKind
    table_id: str
    game: str
    """The game's registry name (``pitch``)."""
    title: str
    """A short headline: "Your turn in Pitch"."""
    body: str
    """One sentence more: "Bea bid 3 at Ann's table."."""
    url: str
    """The page it opens, relative to the site: ``/t/<table id>``."""


Notify = Callable[[str, Notice], Awaitable[None]]
"""Tell the profile with this id about this notice; never raises for a lost device."""


# -- a browser's subscription, checked ------------------------------------------------

ENDPOINT_CHARS = 1000
"""The longest endpoint kept (push services' are under 300 characters)."""
_B64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
_TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")


class SubscriptionError(ValueError):
    """A subscription the server will not keep; the message says why, for people."""


def _b64url(text: str, what: str, size: int) -> bytes:
    """`text` decoded from base64url (padding optional), exactly `size` bytes long."""
    if len(text) > 2 * size or not _B64URL.fullmatch(text):
        raise SubscriptionError(f"{what} is {size} bytes in base64url")
    try:
        data = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise SubscriptionError(f"{what} is {size} bytes in base64url") from None
    if len(data) != size:
        raise SubscriptionError(f"{what} is {size} bytes in base64url, not {len(data)}")
    return data


def _check_endpoint(endpoint: str, test_receivers: bool) -> None:
    """SubscriptionError unless `endpoint` is an https URL of a push service on the
    internet (or, with `test_receivers`, an http://127.0.0.1 receiver)."""
    if len(endpoint) > ENDPOINT_CHARS or not endpoint.isascii() or not endpoint.isprintable():
        raise SubscriptionError(f"the endpoint is a URL of at most {ENDPOINT_CHARS} characters")
    try:
        url = urlsplit(endpoint)
        host, _port = url.hostname or "", url.port
    except ValueError:
        raise SubscriptionError("the endpoint is no URL") from None
    if test_receivers and url.scheme == "http" and host == "127.0.0.1":
        return
    if url.scheme != "https" or not host or url.username is not None or url.fragment:
        raise SubscriptionError("the endpoint is an https URL of the browser's push service")
    # The server will post to it: never to itself or its own network.
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        raise SubscriptionError("the endpoint is a push service on the internet")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return
    if not address.is_global:
        raise SubscriptionError("the endpoint is a push service on the internet")


def checked_subscription(
    endpoint: str, p256dh: str, auth: str, test_receivers: bool = False
) -> rows.SubscriptionRecord:
    """A browser's subscription (`PushSubscription.toJSON()`), checked: an https
    endpoint, a P-256 public key (65 bytes) and a 16-byte auth secret; else
    SubscriptionError."""
    _check_endpoint(endpoint, test_receivers)
    point = _b64url(p256dh, "keys.p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise SubscriptionError("keys.p256dh is no P-256 public key") from None
    _b64url(auth, "keys.auth", 16)
    return rows.SubscriptionRecord(endpoint, p256dh, auth, time.time())


# -- sending ------------------------------------------------------------------------------

VAPID_KEY = "vapid"
"""The name of the server's VAPID key in `server_keys`."""
PUSH_SECONDS = 10.0
"""How long a push service has to answer one message."""
TTL_SECONDS = 86_400
"""How long a push service keeps a notice for a device that is off (a day)."""
GONE = frozenset({404, 410})
"""A push service's answers that say the subscription is no more."""
PAYLOAD_BYTES = 3000
"""The most a notice's JSON may take (Web Push carries about 4 kB, encryption included)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _payload(notice: Notice) -> str:
    """The notice as the service worker reads it (sw.js), cut to fit a push message."""
    message = {
        "kind": notice.kind,
        "table": notice.table_id,
        "game": notice.game,
        "title": notice.title[:200],
        "body": notice.body,
        "url": notice.url if notice.url.startswith("/") else "/",
    }
    text = json.dumps(message, ensure_ascii=False)
    while len(text.encode()) > PAYLOAD_BYTES:
        message["body"] = str(message["body"])[: len(str(message["body"])) // 2] + "…"
        text = json.dumps(message, ensure_ascii=False)
    return text


def _post(
    subscription: rows.SubscriptionRecord, payload: str, key: Any, contact: str, topic: str | None
) -> int:
    """Send one message (on a sending thread); the push service's HTTP status (0: it
    could not be reached). Redirects are not followed: the service's own URL or none."""
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    headers = {"Urgency": "normal"} | ({"Topic": topic} if topic else {})
    with requests.Session() as session:
        session.max_redirects = 0
        try:
            response = webpush(
                info,
                data=payload,
                vapid_private_key=key,
                vapid_claims={"sub": contact},  # a new dict each time: webpush adds aud, exp
                timeout=PUSH_SECONDS,
                ttl=TTL_SECONDS,
                headers=headers,
                requests_session=session,
            )
        except WebPushException as exc:
            return int(exc.response.status_code) if exc.response is not None else 0
        except requests.RequestException:
            return 0
    return int(response.status_code)


class PushNotices:
    """The Web Push sender: `send` is a `Notify`. Notices go out in the background, at
    most `Limits.push_sends` at once; a subscription its push service says is gone
    (404, 410) is dropped; nothing that goes wrong reaches the caller."""

    def __init__(
        self, store: Store, limits: Limits, settings: PushSettings, public_url: str | None = None
    ) -> None:
        self.store = store
        self.limits = limits
        self.settings = settings
        self.contact = settings.contact or (
            public_url
            if public_url and public_url.startswith("https://")
            else "mailto:pitkit@localhost"
        )
        self._key: Any = None
        self._key_lock = asyncio.Lock()
        self._threads = ThreadPoolExecutor(limits.push_sends, thread_name_prefix="pitkit-push")
        self._waiting: set[asyncio.Task[None]] = set()

    # -- the server's key ----------------------------------------------------------------

    async def _vapid(self) -> Any:
        """The server's VAPID key (py_vapid's), made and stored on first use."""
        async with self._key_lock:
            if self._key is None:
                made = _b64(
                    ec.generate_private_key(ec.SECP256R1())
                    .private_numbers()
                    .private_value.to_bytes(32, "big")
                )
                try:
                    raw = await self.store.run(rows.server_key(VAPID_KEY, made, time.time()))
                except DatabaseError:  # another worker stored its key first: read that one
                    raw = await self.store.run(rows.server_key(VAPID_KEY, made, time.time()))
                self._key = Vapid02.from_raw(raw.encode())
            return self._key

    async def public_key(self) -> str:
        """The server's public key, as a page subscribes with it
        (`applicationServerKey`: the uncompressed P-256 point, base64url)."""
        key = await self._vapid()
        point = key.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return _b64(point)

    # -- subscriptions -----------------------------------------------------------------

    async def subscribe(
        self, profile_id: str, endpoint: str, p256dh: str, auth: str
    ) -> rows.Subscribed:
        """Keep a browser's subscription as the profile's (SubscriptionError if it is
        not one the server will use)."""
        record = checked_subscription(endpoint, p256dh, auth, self.settings.test_receivers)
        most = self.limits.push_subscriptions_per_profile
        return await self.store.run(rows.subscribe(profile_id, record, most))

    async def unsubscribe(self, profile_id: str, endpoint: str) -> bool:
        """Forget the profile's subscription at `endpoint` (False: it has none there)."""
        return await self.store.run(rows.unsubscribe(profile_id, endpoint))

    async def subscriptions(self, profile_id: str) -> list[rows.SubscriptionRecord]:
        """The profile's subscriptions."""
        return await self.store.run(rows.subscriptions(profile_id))

    # -- sending -------------------------------------------------------------------------

    async def send(self, profile_id: str, notice: Notice) -> None:
        """Push `notice` to each of the profile's devices, in the background (a
        `Notify`: returns at once, never raises)."""
        if len(self._waiting) >= self.limits.push_waiting:
            log.warning(
                "push: %d notices wait already; one for %s dropped",
                len(self._waiting),
                notice.table_id,
            )
            return
        task = asyncio.create_task(self._quietly(profile_id, notice))
        self._waiting.add(task)
        task.add_done_callback(self._waiting.discard)

    async def _quietly(self, profile_id: str, notice: Notice) -> None:
        try:
            await self.deliver(profile_id, notice)
        except Exception:
            log.exception("push: a notice for table %s was not sent", notice.table_id)

    async def deliver(self, profile_id: str, notice: Notice) -> dict[str, int]:
        """Push `notice` to each of the profile's devices and wait: each endpoint's
        answer (its HTTP status; 0: unreachable). Gone ones are dropped."""
        subscriptions = await self.subscriptions(profile_id)
        if not subscriptions:
            return {}
        key = await self._vapid()
        payload = _payload(notice)
        topic = notice.table_id if _TOPIC.fullmatch(notice.table_id) else None
        loop = asyncio.get_running_loop()
        statuses = await asyncio.gather(
            *(
                loop.run_in_executor(self._threads, _post, s, payload, key, self.contact, topic)
                for s in subscriptions
            )
        )
        for subscription, status in zip(subscriptions, statuses, strict=True):
            host = urlsplit(subscription.endpoint).hostname
            if status in GONE:
                await self.store.run(rows.drop(subscription.endpoint))
                log.info("push: a subscription at %s is gone (%d): dropped", host, status)
            elif not 200 <= status < 300:
                log.warning(
                    "push: %s answered %d to a notice for table %s", host, status, notice.table_id
                )
        return {s.endpoint: status for s, status in zip(subscriptions, statuses, strict=True)}

    async def idle(self) -> None:
        """Wait until every notice sent so far has been pushed (or failed)."""
        while self._waiting:
            await asyncio.gather(*self._waiting, return_exceptions=True)

    async def close(self) -> None:
        """Stop sending: notices still waiting are dropped."""
        for task in list(self._waiting):
            task.cancel()
        await asyncio.gather(*self._waiting, return_exceptions=True)
        self._threads.shutdown(wait=False, cancel_futures=True)
