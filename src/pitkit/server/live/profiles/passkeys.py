"""Passkeys (WebAuthn), with the `webauthn` library: a signed-in device adds one to
its profile, and any device that has it (the same phone, or one its passkeys sync
to) signs in with it, typing nothing.

A passkey belongs to the server's host name, so both ceremonies need the page's
origin (`Where`): the public URL, or the address the browser used (guards.py's
`Site.base_url`). Each ceremony's challenge is stored (so that any worker may
finish what another began), lives five minutes and works once. The store keeps a
passkey's public key and its count of uses; nothing it holds signs anything in.
Passkeys are discoverable (resident) keys: the browser offers the ones it has for
this site, and the answer names the credential, hence the profile.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from pitkit.server.live.profiles.signin import SignInError, Where
from pitkit.server.ops.settings import Limits
from pitkit.server.store import profiles as rows
from pitkit.server.store.profiles import PasskeyRecord
from pitkit.server.store.storage import Store

__all__ = ["CHALLENGE_SECONDS", "Passkeys"]

CHALLENGE_SECONDS = 300
"""How long a passkey ceremony may take, from its options to its answer."""

_NOT_AN_ANSWER = (WebAuthnException, ValueError, TypeError, KeyError, IndexError)
"""What the library raises on an answer it cannot read (bad base64, CBOR or JSON)."""

_CREDENTIAL_CHARS = 1400
"""Longest credential id kept (base64url of WebAuthn's 1,023 bytes at most)."""


def _origin(where: Where | None) -> Where:
    if where is None or not where.host:
        raise SignInError(
            "passkeys need the server's own address, which it does not know here: its "
            "operator starts it with --public-url"
        )
    return where


class Passkeys:
    """Profiles' passkeys: adding one (a signed-in device) and signing in with one."""

    name = "passkey"

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits

    async def _challenge(self, challenge: bytes, purpose: str, profile_id: str | None) -> None:
        expires = time.time() + CHALLENGE_SECONDS
        job = rows.challenge(bytes_to_base64url(challenge), purpose, profile_id, expires)
        await self.store.run(job)

    async def offer(self, profile_id: str, name: str, where: Where | None) -> dict[str, Any]:
        """The options of `navigator.credentials.create` for a new passkey of the
        profile (`name`: what the device's passkey list calls it)."""
        page = _origin(where)
        held = await self.store.run(rows.passkeys(profile_id))
        if len(held) >= self.limits.passkeys_per_profile:
            raise SignInError(
                f"this profile has {len(held)} passkeys, the most it may: remove one first"
            )
        options = generate_registration_options(
            rp_id=page.host,
            rp_name="pitkit",
            user_id=profile_id.encode(),
            user_name=name,
            user_display_name=name,
            timeout=CHALLENGE_SECONDS * 1000,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id)) for p in held
            ],
        )
        await self._challenge(options.challenge, "register", profile_id)
        return dict(json.loads(options_to_json(options)))

    async def register(
        self, profile_id: str, credential: Mapping[str, Any], where: Where | None
    ) -> PasskeyRecord:
        """Keep the passkey `credential` (the answer of `navigator.credentials.create` to
        `offer`'s options) for the profile. SignInError: refused, nothing kept."""
        page = _origin(where)
        try:
            parsed = parse_registration_credential_json(dict(credential))
            challenge = parse_client_data_json(parsed.response.client_data_json).challenge
        except _NOT_AN_ANSWER:
            raise SignInError("this is not a browser's answer for a new passkey") from None
        await self._spend(challenge, "register", profile_id)
        try:
            verified = verify_registration_response(
                credential=parsed,
                expected_challenge=challenge,
                expected_rp_id=page.host,
                expected_origin=page.origin,
            )
        except _NOT_AN_ANSWER as exc:
            raise SignInError(f"the passkey was refused: {exc}") from None
        record = PasskeyRecord(
            bytes_to_base64url(verified.credential_id),
            profile_id,
            bytes_to_base64url(verified.credential_public_key),
            verified.sign_count,
            time.time(),
        )
        if len(record.credential_id) > _CREDENTIAL_CHARS or not await self.store.run(
            rows.add_passkey(record, self.limits.passkeys_per_profile)
        ):
            raise SignInError("this passkey is kept already, or the profile has all it may")
        return record

    async def _spend(self, challenge: bytes, purpose: str, profile_id: str | None) -> None:
        """Spend the stored challenge an answer signed (SignInError: none lives)."""
        value = bytes_to_base64url(challenge)
        if len(value) > 128 or not await self.store.run(
            rows.take_challenge(value, purpose, profile_id)
        ):
            raise SignInError("this passkey request has run out or was answered already: try again")

    async def begin(self, asked: Mapping[str, Any], where: Where | None) -> dict[str, Any]:
        """The options of `navigator.credentials.get`: any passkey of this site's."""
        page = _origin(where)
        options = generate_authentication_options(
            rp_id=page.host,
            timeout=CHALLENGE_SECONDS * 1000,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        await self._challenge(options.challenge, "sign-in", None)
        return dict(json.loads(options_to_json(options)))

    async def finish(self, answer: Mapping[str, Any], where: Where | None) -> str:
        """The profile whose passkey signed `answer` (the answer of
        `navigator.credentials.get` to `begin`'s options)."""
        page = _origin(where)
        try:
            parsed = parse_authentication_credential_json(dict(answer))
            challenge = parse_client_data_json(parsed.response.client_data_json).challenge
        except _NOT_AN_ANSWER:
            raise SignInError("this is not a browser's answer for a passkey") from None
        await self._spend(challenge, "sign-in", None)
        key = None
        if len(parsed.id) <= _CREDENTIAL_CHARS:
            key = await self.store.run(rows.passkey(parsed.id))
        handle = parsed.response.user_handle
        if key is None or (handle is not None and handle != key.profile_id.encode()):
            raise SignInError("this passkey signs in to no profile here (it may be removed)")
        try:
            verified = verify_authentication_response(
                credential=parsed,
                expected_challenge=challenge,
                expected_rp_id=page.host,
                expected_origin=page.origin,
                credential_public_key=base64url_to_bytes(key.public_key),
                credential_current_sign_count=key.sign_count,
            )
        except _NOT_AN_ANSWER as exc:
            raise SignInError(f"the passkey was refused: {exc}") from None
        await self.store.run(rows.passkey_used(key.credential_id, verified.new_sign_count))
        return key.profile_id

    async def held(self, profile_id: str) -> list[PasskeyRecord]:
        """The profile's passkeys, oldest first."""
        return await self.store.run(rows.passkeys(profile_id))

    async def remove(self, profile_id: str, credential_id: str) -> bool:
        """Forget one of the profile's passkeys; False: it has no such passkey."""
        return await self.store.run(rows.drop_passkey(profile_id, credential_id))
