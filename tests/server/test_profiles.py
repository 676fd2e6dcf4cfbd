"""Players' profiles over HTTP, on SQLite and PostgreSQL (docs/profiles.md): making
and renaming one, names refused or taken (look-alikes too), signing in on another
device with a one-time code (once, in time, not by guessing) or a passkey, a seat
remembered, "my tables", continuing on another device, one profile one seat, and a
secret that never reaches a log.

Passkeys are answered by a small software authenticator here (P-256, no
attestation), as a phone's would be; tests/browser/test_profiles.py uses
Chromium's virtual authenticator.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging.config
import os
import struct
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from hypothesis import given
from hypothesis import strategies as st
from webauthn.helpers import encode_cbor

from pitkit.server.client import TableClient
from pitkit.server.live.names import MARKS, BadNameError, check_name, skeleton
from pitkit.server.ops import logs
from pitkit.server.store import profiles as profile_rows
from tests.server.conftest import ServerThread, run
from tests.server.test_logs import LoggedServer

# -- helpers ------------------------------------------------------------------------------


def _make(server: ServerThread, name: str, colour: str | None = None) -> dict[str, Any]:
    """POST /api/profiles, expecting success: the profile, device and secret."""
    body: dict[str, Any] = {"name": name} | ({"colour": colour} if colour else {})
    made = server.http.post("/api/profiles", json=body)
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def _as(secret: str) -> dict[str, str]:
    return {"authorization": f"Bearer {secret}"}


def _me(server: ServerThread, secret: str) -> dict[str, Any]:
    answer = server.http.get("/api/profiles/me", headers=_as(secret))
    assert answer.status_code == 200, answer.text
    me: dict[str, Any] = answer.json()
    return me


def _code(server: ServerThread, secret: str) -> str:
    made = server.http.post("/api/profiles/me/codes", headers=_as(secret))
    assert made.status_code == 201, made.text
    return str(made.json()["code"])


def _redeem(server: ServerThread, code: str) -> Any:
    return server.http.post("/api/profiles/sign-in/code", json={"answer": {"code": code}})


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftKey:
    """A passkey on a software authenticator: a P-256 key, "none" attestation."""

    origin: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential: bytes = field(default_factory=lambda: os.urandom(16))
    user: bytes = b""
    uses: int = 0

    def _client(self, kind: str, challenge: str) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer of `navigator.credentials.create` to `options`."""
        self.user = _unb64(options["user"]["id"])
        numbers = self.key.public_key().public_numbers()
        cose = {
            1: 2,
            3: -7,
            -1: 1,
            -2: numbers.x.to_bytes(32, "big"),
            -3: numbers.y.to_bytes(32, "big"),
        }
        rp = hashlib.sha256(options["rp"]["id"].encode()).digest()
        attested = bytes(16) + struct.pack(">H", len(self.credential)) + self.credential
        data = rp + bytes([0x45]) + struct.pack(">I", 0) + attested + encode_cbor(cose)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": data})
        return {
            "id": _b64(self.credential),
            "rawId": _b64(self.credential),
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(self._client("webauthn.create", options["challenge"])),
                "attestationObject": _b64(attestation),
                "transports": ["internal"],
            },
        }

    def get(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer of `navigator.credentials.get` to `options`."""
        self.uses += 1
        rp = hashlib.sha256(options["rpId"].encode()).digest()
        data = rp + bytes([0x05]) + struct.pack(">I", self.uses)
        client = self._client("webauthn.get", options["challenge"])
        signed = self.key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": _b64(self.credential),
            "rawId": _b64(self.credential),
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(client),
                "authenticatorData": _b64(data),
                "signature": _b64(signed),
                "userHandle": _b64(self.user),
            },
        }


def _passkey_sign_in(server: ServerThread, key: SoftKey) -> Any:
    options = server.http.post("/api/profiles/sign-in/passkey/begin", json={})
    assert options.status_code == 200, options.text
    return server.http.post(
        "/api/profiles/sign-in/passkey", json={"answer": key.get(options.json())}
    )


# -- names, without a server ------------------------------------------------------------------

LOOK_ALIKES = {"H": "Η", "o": "ο", "A": "А", "e": "е", "p": "р", "c": "с", "x": "х", "K": "Κ"}
"""Latin letters and a Greek or Cyrillic letter that looks the same."""


@pytest.mark.parametrize(
    "name",
    [
        "Ann\u200bB",  # a zero-width space
        "Ann\u200d",  # a joiner that joins nothing
        "Ann\nB",
        "Ann\tB",
        "\u202eAnn",  # a right-to-left override
        "Ann\x00",
        "x" * 41,
        "Z" + "\u0336" * (MARKS + 1),  # a pile of strokes on one letter
        "   ",
        "",
    ],
)
def test_a_bad_name_is_refused_with_the_reason(name: str) -> None:
    with pytest.raises(BadNameError, match=r"printable|at most|at least"):
        check_name(name, 40)


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Ann   B. ", "Ann B."),
        ("Ann 👩\u200d💻", "Ann 👩\u200d💻"),  # an emoji sequence, joined
        ("Nasrin Ja\u0301\u0301", "Nasrin Já\u0301"),  # composed where it can be
        ("می\u200cخواهم", "می\u200cخواهم"),  # a Persian word with its non-joiner
    ],
)
def test_a_good_name_is_kept_as_typed_but_for_spaces(typed: str, kept: str) -> None:
    assert check_name(typed, 40) == kept


@given(st.text(max_size=60))
def test_an_accepted_name_is_printable_short_and_settled(text: str) -> None:
    try:
        name = check_name(text, 40)
    except BadNameError:
        return
    assert name and len(name) <= 40 and name == name.strip()
    # Nothing invisible but a joiner inside a word (Persian, an emoji sequence).
    for i, ch in enumerate(name):
        if unicodedata.category(ch)[0] == "C":
            assert ch in "\u200c\u200d" and 0 < i < len(name) - 1, name
            assert not name[i - 1].isspace() and not name[i + 1].isspace(), name
    assert check_name(name, 40) == name  # checking again changes nothing


@given(st.text(alphabet="HoAepcxK b", min_size=1, max_size=12), st.data())
def test_a_look_alike_letter_makes_the_same_name(name: str, data: st.DataObject) -> None:
    swapped = "".join(
        LOOK_ALIKES[ch] if ch in LOOK_ALIKES and data.draw(st.booleans()) else ch for ch in name
    )
    assert skeleton(swapped) == skeleton(name) == skeleton(name.upper().lower())


# -- a profile ----------------------------------------------------------------------------


def test_a_profile_is_made_read_and_renamed(server: ServerThread) -> None:
    made = _make(server, "  Ann   B. ", "#AA3366")
    assert made["profile"]["name"] == "Ann B."
    assert made["profile"]["colour"] == "#aa3366"
    secret = made["secret"]
    me = _me(server, secret)
    assert me["profile"] == made["profile"]
    assert [d["this"] for d in me["devices"]] == [True] and me["device"] == made["device"]
    assert set(me["ways"]) == {"code", "passkey"}
    changed = server.http.patch("/api/profiles/me", json={"name": "Ann C."}, headers=_as(secret))
    assert changed.status_code == 200 and changed.json()["name"] == "Ann C."
    assert _me(server, secret)["profile"]["colour"] == "#aa3366"
    # Nothing answers without the secret: not the profile's public id, nor a guess.
    public = made["profile"]["id"]
    # The secret with its last character changed (to "B" if it already ends in "A").
    near = secret[:-1] + ("B" if secret.endswith("A") else "A")
    for headers in ({}, _as(public), _as("x" * 24), _as(near)):
        assert server.http.get("/api/profiles/me", headers=headers).status_code == 401
    assert server.http.get(f"/api/profiles/{public}").status_code in (404, 405)


def test_bad_names_and_colours_change_nothing(server: ServerThread) -> None:
    for body in (
        {"name": "Ann\u200bB"},
        {"name": "x" * 41},
        {"name": "Z" + "\u0336" * 9},
        {"name": " "},
        {"name": "Ann", "colour": "red"},
    ):
        refused = server.http.post("/api/profiles", json=body)
        assert refused.status_code == 400, (body, refused.text)
        assert "name" in refused.json()["detail"] or "colour" in refused.json()["detail"]
    secret = _make(server, "Ann")["secret"]
    for body in ({"name": "Bo\nB"}, {"colour": "#12345"}, {"name": "x" * 300}):
        refused = server.http.patch("/api/profiles/me", json=body, headers=_as(secret))
        assert refused.status_code in (400, 422), refused.text
    assert _me(server, secret)["profile"]["name"] == "Ann"


def test_a_name_is_one_profile_s_look_alikes_included(server: ServerThread) -> None:
    _make(server, "Host")
    for taken in ("host", "HOST", "Ηost", "Нost", "ＨＯＳＴ", "H0st", "Hóst"):
        refused = server.http.post("/api/profiles", json={"name": taken})
        assert refused.status_code == 409, (taken, refused.text)
        assert "looks just like it" in refused.json()["detail"]
    other = _make(server, "Guest")["secret"]
    renamed = server.http.patch("/api/profiles/me", json={"name": "Ηοst"}, headers=_as(other))
    assert renamed.status_code == 409
    # One's own name in another case is still one's own.
    renamed = server.http.patch("/api/profiles/me", json={"name": "GUEST"}, headers=_as(other))
    assert renamed.status_code == 200 and renamed.json()["name"] == "GUEST"


# -- signing in on another device -------------------------------------------------------------


def test_a_code_signs_in_one_more_device_once(server: ServerThread) -> None:
    first = _make(server, "Cy")
    code = _code(server, first["secret"])
    assert len(code) == 9 and code[4] == "-"
    # Typed loosely: lower case, without the dash, spaces around.
    signed = _redeem(server, f" {code.replace('-', '').lower()} ")
    assert signed.status_code == 200, signed.text
    second = signed.json()
    assert second["profile"] == first["profile"] and second["secret"] != first["secret"]
    devices = _me(server, second["secret"])["devices"]
    assert {d["id"] for d in devices} == {first["device"], second["device"]}
    assert {d["how"] for d in devices} == {"new", "code"}
    # Once only.
    again = _redeem(server, code)
    assert again.status_code == 403 and "used already" in again.json()["detail"]
    # A new code voids the one before.
    old, new = _code(server, first["secret"]), _code(server, first["secret"])
    assert _redeem(server, old).status_code == 403
    assert _redeem(server, new).status_code == 200
    # Signing a device out ends its secret, and only its.
    out = server.http.delete(
        f"/api/profiles/me/devices/{second['device']}", headers=_as(first["secret"])
    )
    assert out.status_code == 204
    assert server.http.get("/api/profiles/me", headers=_as(second["secret"])).status_code == 401
    assert _me(server, first["secret"])["profile"]["name"] == "Cy"


def test_a_code_lives_ten_minutes(server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = _make(server, "Di")["secret"]
    code = _code(server, secret)
    later = time.time() + server.limits.sign_in_code_seconds + 1

    class Later:
        """The store's clock, ten minutes and a second on."""

        @staticmethod
        def time() -> float:
            return later

    monkeypatch.setattr(profile_rows, "time", Later)
    refused = _redeem(server, code)
    assert refused.status_code == 403 and "minutes old" in refused.json()["detail"]


def test_guessing_codes_is_slowed_to_a_crawl(server: ServerThread) -> None:
    _code(server, _make(server, "Ed")["secret"])
    # A code that is no code at all is refused without counting; wrong codes count.
    assert _redeem(server, "ABC").status_code == 403
    answers = [_redeem(server, f"{n:08d}").status_code for n in range(31)]
    assert answers[:30] == [403] * 30
    assert answers[30] == 429
    waited = _redeem(server, "00000000")
    assert waited.status_code == 429 and int(waited.headers["retry-after"]) >= 1


def test_a_passkey_signs_in_a_new_device(server: ServerThread) -> None:
    first = _make(server, "Flo")
    key = SoftKey(server.base)
    offered = server.http.post("/api/profiles/me/passkeys/begin", headers=_as(first["secret"]))
    assert offered.status_code == 200, offered.text
    options = offered.json()
    assert options["rp"]["id"] == "127.0.0.1"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    added = server.http.post(
        "/api/profiles/me/passkeys",
        json={"credential": key.create(options)},
        headers=_as(first["secret"]),
    )
    assert added.status_code == 201, added.text
    assert [k["id"] for k in _me(server, first["secret"])["passkeys"]] == [_b64(key.credential)]
    signed = _passkey_sign_in(server, key)
    assert signed.status_code == 200, signed.text
    assert signed.json()["profile"] == first["profile"]
    assert _me(server, signed.json()["secret"])["profile"]["name"] == "Flo"
    # An answer is good once: its challenge is spent.
    options = server.http.post("/api/profiles/sign-in/passkey/begin", json={}).json()
    answer = key.get(options)
    assert (
        server.http.post("/api/profiles/sign-in/passkey", json={"answer": answer}).status_code
        == 200
    )
    replayed = server.http.post("/api/profiles/sign-in/passkey", json={"answer": answer})
    assert replayed.status_code == 403 and "answered already" in replayed.json()["detail"]
    # A key made for another site, or one the profile does not hold, signs nothing in.
    assert _passkey_sign_in(server, SoftKey("http://evil.example")).status_code == 403
    stranger = SoftKey(server.base, user=key.user)
    assert _passkey_sign_in(server, stranger).status_code == 403
    junk = {"answer": {"id": "x", "rawId": "x", "type": "public-key", "response": {}}}
    assert server.http.post("/api/profiles/sign-in/passkey", json=junk).status_code == 403
    # A passkey removed signs nobody in.
    removed = server.http.delete(
        f"/api/profiles/me/passkeys/{_b64(key.credential)}", headers=_as(first["secret"])
    )
    assert removed.status_code == 204
    assert _passkey_sign_in(server, key).status_code == 403


# -- tables -------------------------------------------------------------------------------


def _sit(server: ServerThread, table: str, token: str, secret: str, **body: Any) -> Any:
    return server.http.post(
        f"/api/tables/{table}/profile-seat", json={"token": token, **body}, headers=_as(secret)
    )


def test_a_seat_is_remembered_and_continued_on_another_device(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", players=2, seats=[None, "random"])
    table, invite = created["table"]["id"], created["seats"][0]["token"]
    first = _make(server, "Gus")
    sat = _sit(server, table, invite, first["secret"])
    assert sat.status_code == 200, sat.text
    seat_token = sat.json()["token"]
    assert sat.json()["seat"] == 0 and seat_token not in (None, invite)
    assert server.table(table)["seats"][0]["name"] == "Gus"
    second = _redeem(server, _code(server, first["secret"])).json()
    mine = server.http.get("/api/profiles/me/tables", headers=_as(second["secret"])).json()
    assert [(t["id"], t["seat"], t["game"], t["name"]) for t in mine] == [
        (table, 0, "pitty-pat", "Gus")
    ]
    assert mine[0]["status"] in ("waiting", "playing") and mine[0]["your_turn"] is not None

    async def main() -> None:
        old = TableClient(server.base, table, seat_token)
        await old.connect()
        await old.recv_type("welcome")
        went = server.http.post(f"/api/tables/{table}/continue", headers=_as(second["secret"]))
        assert went.status_code == 200, went.text
        new_token = went.json()["token"]
        assert went.json()["url"].endswith(f"/t/{table}#token={new_token}&continue")
        told = await old.recv_type("error")
        assert told["code"] == "bad_token" and "another device" in told["reason"]
        await old.close()
        new = TableClient(server.base, table, new_token)
        await new.connect()
        assert (await new.recv_type("welcome"))["seat"] == 0
        await new.close()
        stale = TableClient(server.base, table, seat_token)
        await stale.connect()
        assert (await stale.recv_type("error"))["code"] == "bad_token"
        await stale.close()

    run(main())
    # The profile still holds the seat, under its new secret.
    mine = server.http.get("/api/profiles/me/tables", headers=_as(first["secret"])).json()
    assert [t["seat"] for t in mine] == [0]


def test_one_profile_holds_one_seat_at_a_table(server: ServerThread) -> None:
    created = server.create(game="pitch", players=3, seats=[None, None, "random"])
    table = created["table"]["id"]
    invites = [s["token"] for s in created["seats"]]
    secret = _make(server, "Hal")["secret"]
    assert _sit(server, table, invites[0], secret).status_code == 200
    twice = _sit(server, table, invites[1], secret)
    assert twice.status_code == 409 and "seat 1" in twice.json()["detail"]
    assert server.table(table)["seats"][1]["kind"] == "open"
    # Another profile takes it; a seat taken anonymously becomes a profile's by its secret.
    other = _make(server, "Ivy")["secret"]
    joined = server.http.post(f"/api/tables/{table}/join", json={"token": invites[1], "name": "I"})
    seat_token = joined.json()["token"]
    assert _sit(server, table, seat_token, other).json() == {"seat": 1, "token": None}
    assert server.table(table)["seats"][1]["name"] == "I"  # a name at this table is kept
    assert _sit(server, table, seat_token, secret).status_code == 409
    # Without a live device secret nothing is taken, nor with a token of no seat.
    assert _sit(server, table, invites[0], "nope").status_code == 401
    assert _sit(server, table, "x" * 24, other).status_code == 403
    # A seat the host reopens is nobody's profile's any more.
    host = {"authorization": f"Bearer {created['host_token']}"}
    assert (
        server.http.put(
            f"/api/tables/{table}/seats/1", json={"bot": None}, headers=host
        ).status_code
        == 200
    )
    assert server.http.get("/api/profiles/me/tables", headers=_as(other)).json() == []
    refused = server.http.post(f"/api/tables/{table}/continue", headers=_as(other))
    assert refused.status_code == 403


def test_a_bad_name_at_a_table_is_refused(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", players=2, seats=[None, "random"])
    table, invite = created["table"]["id"], created["seats"][0]["token"]
    refused = server.http.post(
        f"/api/tables/{table}/join", json={"token": invite, "name": "A\u202eB"}
    )
    assert refused.status_code == 400 and "control character" in refused.json()["detail"]
    assert server.table(table)["seats"][0]["kind"] == "open"

    async def main() -> None:
        client = TableClient(server.base, table, invite)
        await client.connect(name="Z" + "\u0336" * 9)
        assert (await client.recv_type("error"))["code"] == "bad_name"
        await client.close()

    run(main())
    assert server.table(table)["seats"][0]["kind"] == "open"


# -- logs ---------------------------------------------------------------------------------


def test_no_secret_or_code_reaches_a_log(tmp_path: Path) -> None:
    logged = LoggedServer(tmp_path, "text")
    try:
        http = logged.http
        made = http.post("/api/profiles", json={"name": "Jo"}).json()
        secret = made["secret"]
        code = http.post("/api/profiles/me/codes", headers=_as(secret)).json()["code"]
        second = http.post("/api/profiles/sign-in/code", json={"answer": {"code": code}}).json()
        assert http.get("/api/profiles/me", headers=_as(second["secret"])).status_code == 200
        # A careless client puts a secret in a query string: the access log hides it.
        http.get(f"/api/profiles/me?secret={secret}", headers=_as(secret))
    finally:
        lines = logged.stop()
        # Back to what the other tests' servers log: warnings, to stderr.
        logging.config.dictConfig(logs.config("text", "warning"))
    assert "/api/profiles/me" in lines  # the access log was written
    for shown in (secret, second["secret"], code, code.replace("-", "")):
        assert shown not in lines
