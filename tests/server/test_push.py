"""Notices by Web Push (docs/notices.md), on SQLite and PostgreSQL: a local receiver
plays the browser's push service. It makes its own P-256 key pair and auth secret as
a browser does, serves HTTP on 127.0.0.1 (allowed by the test setting alone), checks
the VAPID header (a JWT signed by the server's key, for the receiver's origin, with a
contact) and decrypts the body (RFC 8291, aes128gcm) to the notice.

Also: a subscription its push service calls gone is dropped, a failing push never
raises, subscribing checks what it is given, one profile cannot touch another's
subscriptions, and the server's key outlives a restart.
"""

from __future__ import annotations

import asyncio
import base64
import http.server
import json
import secrets
import socket
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import http_ece  # type: ignore[import-untyped]
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from hypothesis import given
from hypothesis import strategies as st

from pitkit.server.live.notices import (
    Notice,
    PushNotices,
    SubscriptionError,
    checked_subscription,
)
from pitkit.server.ops.settings import PUSH_TEST_RECEIVERS_ENV, PushSettings, database_url
from pitkit.server.store.storage import Store
from tests.server.conftest import FAST, ServerThread
from tests.server.test_logs import LoggedServer
from tests.serving import ServingThread
from tests.waiting import patience

T = TypeVar("T")

# -- the receiver: a push service on 127.0.0.1 --------------------------------------------


def b64(data: bytes) -> str:
    """Base64url without padding, as Web Push writes it."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Pushed:
    """One message the receiver was sent."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A push service and a browser in one: it answers each path with `answers`
    (default 201), records what it is sent, and holds a browser's keys to read it."""

    answers: dict[str, int] = field(default_factory=dict)
    got: list[Pushed] = field(default_factory=list)
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    port: int = 0

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def subscription(self, path: str = "/push/device") -> dict[str, Any]:
        """What the browser's `PushSubscription.toJSON()` would give for `path`."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64(point), "auth": b64(self.auth)}
        return {"endpoint": self.origin + path, "expirationTime": None, "keys": keys}

    def read(self, pushed: Pushed) -> dict[str, Any]:
        """The notice in `pushed`, decrypted as the browser would (RFC 8291)."""
        assert pushed.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            pushed.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        notice: dict[str, Any] = json.loads(plain)
        return notice

    def serve(self) -> http.server.ThreadingHTTPServer:
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length") or 0)
                headers = {k.lower(): v for k, v in self.headers.items()}
                receiver.got.append(Pushed(self.path, headers, self.rfile.read(size)))
                self.send_response(receiver.answers.get(self.path, 201))
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = httpd.server_address[1]
        # Polled every 20 ms, not 0.5 s: shutdown() waits for the poll (at each test's end).
        threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
        return httpd


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    httpd = r.serve()
    yield r
    httpd.shutdown()
    httpd.server_close()


def vapid_claims(authorization: str, server_key: str) -> dict[str, Any]:
    """The claims of a ``vapid t=<JWT>,k=<key>`` header, after checking that `k` is the
    server's key and that it signed the JWT (ES256)."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme.lower() == "vapid"
    parts = dict(p.split("=", 1) for p in rest.split(","))
    assert parts["k"] == server_key
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        pytest.fail("the VAPID JWT is not signed by the server's key")
    decoded: dict[str, Any] = json.loads(unb64(claims))
    return decoded


# -- the server, and profiles ------------------------------------------------------------


@pytest.fixture
def server(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerThread]:
    """The server, allowing receivers on 127.0.0.1 (the test setting), at most four
    subscriptions a profile."""
    monkeypatch.setenv(PUSH_TEST_RECEIVERS_ENV, "1")
    s = ServerThread(tmp_path, replace(FAST, push_subscriptions_per_profile=4), database=database)
    yield s
    s.stop()


def profile(server: ServerThread, name: str) -> tuple[str, dict[str, str]]:
    """A new profile: its id, and the headers its device signs requests with."""
    made = server.http.post("/api/profiles", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()["profile"]["id"], {"authorization": f"Bearer {made.json()['secret']}"}


def subscribe(server: ServerThread, who: dict[str, str], body: dict[str, Any]) -> Any:
    return server.http.post("/api/profiles/me/push/subscribe", json=body, headers=who)


def sender(server: ServingThread) -> PushNotices:
    """A second sender on the server's database, as another worker would have: it
    signs with the same key."""
    store: Store = server.app.state.services.store
    return PushNotices(store, server.limits, PushSettings(test_receivers=True))


def run(job: Coroutine[Any, Any, T]) -> T:
    """Run `job` to its end on an event loop of its own (on a thread: the browser tests'
    Playwright keeps a loop running on theirs)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, job).result()


def held(server: ServingThread, profile_id: str) -> list[str]:
    """The endpoints the profile's notices go to."""
    return [s.endpoint for s in run(sender(server).subscriptions(profile_id))]


NOTICE = Notice(
    kind="your-turn",
    table_id="Tb7x_Q2k",
    game="pitch",
    title="Your turn in Pitch",
    body="Bea bid 3 at Ann's table. Ü ♥",
    url="/t/Tb7x_Q2k",
)


def deliver(server: ServingThread, profile_id: str, notice: Notice = NOTICE) -> dict[str, int]:
    return run(sender(server).deliver(profile_id, notice))


# -- tests --------------------------------------------------------------------------------


def test_a_notice_reaches_the_device_encrypted_and_signed(
    server: ServerThread, receiver: Receiver
) -> None:
    ann, as_ann = profile(server, "Ann")
    answer = subscribe(server, as_ann, receiver.subscription())
    assert answer.status_code == 201, answer.text
    assert answer.json() == {"new": True}
    assert subscribe(server, as_ann, receiver.subscription()).json() == {"new": False}

    before = int(time.time())
    assert deliver(server, ann) == {receiver.origin + "/push/device": 201}
    (pushed,) = receiver.got
    assert pushed.path == "/push/device"
    assert receiver.read(pushed) == {
        "kind": "your-turn",
        "table": NOTICE.table_id,
        "game": "pitch",
        "title": NOTICE.title,
        "body": NOTICE.body,
        "url": NOTICE.url,
    }
    key = server.http.get("/api/push/key").json()["key"]
    claims = vapid_claims(pushed.headers["authorization"], key)
    assert claims["aud"] == receiver.origin
    assert claims["sub"] == "mailto:pitkit@localhost"
    assert before < claims["exp"] <= time.time() + 24 * 3600  # RFC 8292: a day at most
    # Kept a day for a phone that is off; a newer notice of the table replaces it.
    assert int(pushed.headers["ttl"]) == 86_400
    assert pushed.headers["topic"] == NOTICE.table_id
    # The server's key is the page's applicationServerKey: an uncompressed P-256 point.
    assert len(unb64(key)) == 65 and unb64(key)[0] == 4


def test_a_device_its_push_service_calls_gone_is_dropped(
    server: ServerThread, receiver: Receiver
) -> None:
    ann, as_ann = profile(server, "Ann")
    receiver.answers = {"/gone": 410, "/lost": 404, "/down": 500}
    for path in ("/gone", "/lost", "/down", "/fine"):
        assert subscribe(server, as_ann, receiver.subscription(path)).status_code == 201
    statuses = deliver(server, ann)
    assert {k.removeprefix(receiver.origin): v for k, v in statuses.items()} == {
        "/gone": 410,
        "/lost": 404,
        "/down": 500,
        "/fine": 201,
    }
    # A service that fails today may work tomorrow: only "gone" drops a device.
    assert sorted(held(server, ann)) == [receiver.origin + "/down", receiver.origin + "/fine"]


def test_a_failing_push_never_reaches_the_table(server: ServerThread, receiver: Receiver) -> None:
    ann, as_ann = profile(server, "Ann")
    assert subscribe(server, as_ann, receiver.subscription()).status_code == 201
    # A device whose push service cannot be reached at all (nothing listens there).
    unreachable = Receiver(port=closed_port())
    assert subscribe(server, as_ann, unreachable.subscription()).status_code == 201

    async def send_twice() -> None:
        push = sender(server)
        await push.send(ann, NOTICE)  # returns at once: the table never waits
        await push.send("no-such-profile", NOTICE)
        await asyncio.wait_for(push.idle(), patience(20))
        await push.close()

    asyncio.run(send_twice())
    assert len(receiver.got) == 1
    assert len(held(server, ann)) == 2  # unreachable is not gone


def closed_port() -> int:
    """A loopback port where nothing listens (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_one_profile_cannot_touch_anothers_subscriptions(
    server: ServerThread, receiver: Receiver
) -> None:
    ann, as_ann = profile(server, "Ann")
    bea, as_bea = profile(server, "Bea")
    mine = receiver.subscription()
    assert subscribe(server, as_ann, mine).status_code == 201
    taken = subscribe(server, as_bea, mine)
    assert taken.status_code == 409, taken.text
    gone = server.http.post(
        "/api/profiles/me/push/unsubscribe", json={"endpoint": mine["endpoint"]}, headers=as_bea
    )
    assert gone.status_code == 404
    assert held(server, ann) == [mine["endpoint"]] and held(server, bea) == []
    assert deliver(server, bea) == {}
    assert receiver.got == []
    # Without a device's secret, nothing at all.
    assert subscribe(server, {}, mine).status_code == 401
    assert subscribe(server, {"authorization": "Bearer nope"}, mine).status_code == 401
    # Ann herself may.
    done = server.http.post(
        "/api/profiles/me/push/unsubscribe", json={"endpoint": mine["endpoint"]}, headers=as_ann
    )
    assert done.status_code == 204
    assert held(server, ann) == []


def test_a_profile_has_a_few_devices_at_most(server: ServerThread, receiver: Receiver) -> None:
    ann, as_ann = profile(server, "Ann")
    for n in range(6):
        assert subscribe(server, as_ann, receiver.subscription(f"/push/{n}")).status_code == 201
    # Four at most (this server's limit): the newest kept.
    assert held(server, ann) == [receiver.origin + f"/push/{n}" for n in (2, 3, 4, 5)]


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({"endpoint": "https://127.0.0.1/push"}, 400),
        ({"endpoint": "http://push.example.org/x"}, 400),
        ({"keys": {"p256dh": b64(b"\x04" + bytes(64)), "auth": b64(bytes(16))}}, 400),
        ({"keys": {"p256dh": "short", "auth": b64(bytes(16))}}, 400),
        ({"endpoint": "https://push.example.org/" + "x" * 1000}, 422),
        ({"keys": {"p256dh": "x"}}, 422),
        ({"extra": 1}, 422),
        ({"endpoint": 7}, 422),
    ],
)
def test_a_bad_subscription_is_refused(
    server: ServerThread, receiver: Receiver, change: dict[str, Any], status: int
) -> None:
    ann, as_ann = profile(server, "Ann")
    answer = subscribe(server, as_ann, receiver.subscription() | change)
    assert answer.status_code == status, answer.text
    assert held(server, ann) == []


def test_the_servers_key_outlives_a_restart(tmp_path: Path, database: str) -> None:
    first = ServerThread(tmp_path, FAST, database=database)
    try:
        key = first.http.get("/api/push/key").json()["key"]
        port = first.port
    finally:
        first.stop()
    again = ServerThread(tmp_path, FAST, port=port, database=database)
    try:
        assert again.http.get("/api/push/key").json()["key"] == key
    finally:
        again.stop()


def test_secrets_and_endpoints_stay_out_of_the_log(
    tmp_path: Path, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PUSH_TEST_RECEIVERS_ENV, "1")
    logged = LoggedServer(tmp_path, "text")
    store = Store(database_url(str(tmp_path), None))
    try:
        made = logged.http.post("/api/profiles", json={"name": "Ann"}).json()
        who = {"authorization": f"Bearer {made['secret']}"}
        receiver.answers = {"/push/secret-path": 410}
        body = receiver.subscription("/push/secret-path")
        answer = logged.http.post("/api/profiles/me/push/subscribe", json=body, headers=who)
        assert answer.status_code == 201
        # Another worker on the same database pushes; its log goes where the server's does.
        store.start()
        push = PushNotices(store, FAST, PushSettings(test_receivers=True))
        assert asyncio.run(push.deliver(made["profile"]["id"], NOTICE)) == {body["endpoint"]: 410}
    finally:
        store.close()
        lines = logged.stop()
    assert "a subscription at 127.0.0.1 is gone (410)" in lines
    assert made["secret"] not in lines and "secret-path" not in lines


# -- the subscription's checks, for any input -----------------------------------------------

_POINT = b64(
    ec.generate_private_key(ec.SECP256R1())
    .public_key()
    .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
)


@given(st.text(max_size=300))
def test_only_https_push_services_on_the_internet_are_kept(endpoint: str) -> None:
    try:
        record = checked_subscription(endpoint, _POINT, b64(bytes(16)))
    except SubscriptionError:
        return
    assert record.endpoint.startswith("https://")


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://localhost/x",
        "https://a.localhost/x",
        "https://10.1.2.3/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest",
        "https://user@push.example.org/x",
        "http://127.0.0.1:9/x",
        "https://push.example.org:99999/x",
        "https://push.example.org/\n",
    ],
)
def test_the_server_posts_to_no_private_address(endpoint: str) -> None:
    with pytest.raises(SubscriptionError):
        checked_subscription(endpoint, _POINT, b64(bytes(16)))


def test_receivers_on_loopback_only_in_the_test_setting() -> None:
    endpoint = "http://127.0.0.1:9/push"
    assert checked_subscription(endpoint, _POINT, b64(bytes(16)), test_receivers=True)
    with pytest.raises(SubscriptionError):
        checked_subscription("http://10.0.0.1:9/push", _POINT, b64(bytes(16)), test_receivers=True)
    assert PushSettings.from_environ({}).test_receivers is False
    assert PushSettings.from_environ({PUSH_TEST_RECEIVERS_ENV: "1"}).test_receivers
    with pytest.raises(ValueError, match="PITKIT_PUSH_CONTACT"):
        PushSettings.from_environ({"PITKIT_PUSH_CONTACT": "ops@example.org"})
