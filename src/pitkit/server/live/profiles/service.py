"""Players' profiles, without passwords (docs/profiles.md).

A first visit makes a profile: a name, a colour, and a secret for the device,
returned once and kept by the browser (as a seat's secret is). Every device has its
own secret, so one can be signed out alone. A new device signs in by one of the
`ways` (`SignIn`): a one-time code shown on a device signed in already, or a
passkey. No e-mail is asked for: a server that wants sign-in by e-mail registers a
way of its own (`add_way`).

A profile's public id is random and names it only: it opens nothing, and nothing
is answered for it alone (every route about a profile takes its device's secret).
Two profiles never have names that look the same (`names.skeleton`): the second
is refused, with the reason.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pitkit.server.live.names import check_name, skeleton
from pitkit.server.live.profiles.codes import Codes
from pitkit.server.live.profiles.passkeys import Passkeys
from pitkit.server.live.profiles.signin import SignIn, SignInError, Where
from pitkit.server.ops.settings import Limits
from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store import profiles as rows
from pitkit.server.store.profiles import DeviceRecord, NewDevice, ProfileRecord, SeatHeld
from pitkit.server.store.storage import Store

__all__ = ["COLOUR", "Issued", "NameTakenError", "ProfileError", "Profiles", "Signed"]

COLOUR = "#7cc8ff"
"""A new profile's colour when none is chosen."""

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


class ProfileError(ValueError):
    """A profile's field refused (a name, a colour), with the reason in words."""


class NameTakenError(ProfileError):
    """Another profile's name is the same, or looks just like it."""


@dataclass(frozen=True)
class Issued:
    """A device signed in: its profile, its id, and its secret (shown once)."""

    profile: ProfileRecord
    device: str
    secret: str


@dataclass(frozen=True)
class Signed:
    """Who a request with a device's secret comes from: the profile, and the device."""

    profile: ProfileRecord
    device: str


def _public_id() -> str:
    """A fresh public id (72 random bits): it tells nothing of its profile or device."""
    return secrets.token_urlsafe(9)


class Profiles:
    """The profiles, their devices, and the ways a new device signs in."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.codes = Codes(store, limits)
        self.passkeys = Passkeys(store, limits)
        self.ways: dict[str, SignIn] = {}
        """The ways to sign in, by name."""
        self.add_way(self.codes)
        self.add_way(self.passkeys)

    def add_way(self, way: SignIn) -> None:
        """Offer another way to sign in (the seam for an operator's e-mail sign-in)."""
        self.ways[way.name] = way

    # -- the profile ------------------------------------------------------------------

    def _name(self, name: str) -> tuple[str, str]:
        """A profile's name, checked, and its skeleton (ProfileError: refused)."""
        try:
            clean = check_name(name, self.limits.name_chars, "a profile's name")
        except ValueError as exc:
            raise ProfileError(str(exc)) from None
        return clean, skeleton(clean)

    @staticmethod
    def _colour(colour: str) -> str:
        if not _COLOUR.fullmatch(colour):
            raise ProfileError("a colour is # and six hexadecimal digits, such as #7cc8ff")
        return colour.lower()

    async def create(self, name: str, colour: str | None) -> Issued:
        """A new profile, and its first device (its secret is returned once, never
        stored). ProfileError: a field refused; NameTakenError: the name is another's."""
        clean, folded = self._name(name)
        profile = ProfileRecord(_public_id(), clean, self._colour(colour or COLOUR), time.time())
        secret = new_token()
        device = NewDevice(hash_token(secret), _public_id(), "new")
        if not await self.store.run(rows.create(profile, folded, device)):
            raise _taken(clean)
        return Issued(profile, device.id, secret)

    async def signed_in(self, secret: str | None) -> Signed | None:
        """Who holds the device's `secret` (None: no signed-in device does)."""
        if not secret:
            return None
        found = await self.store.run(rows.device_of(hash_token(secret)))
        return None if found is None else Signed(*found)

    async def change(self, signed: Signed, name: str | None, colour: str | None) -> ProfileRecord:
        """Rename the profile or change its colour; it as it now is."""
        clean, folded = self._name(name) if name is not None else (None, None)
        hue = self._colour(colour) if colour is not None else None
        changed = await self.store.run(rows.rename(signed.profile.id, clean, folded, hue))
        if changed is None:
            raise _taken(clean or "")
        return changed

    # -- devices ----------------------------------------------------------------------

    async def devices(self, signed: Signed) -> list[DeviceRecord]:
        """The profile's signed-in devices, oldest first."""
        return await self.store.run(rows.devices(signed.profile.id))

    async def sign_out(self, signed: Signed, device: str) -> bool:
        """Sign one of the profile's devices out (its secret opens nothing from now);
        False: the profile has no such device."""
        return await self.store.run(rows.drop_device(signed.profile.id, device))

    async def begin(
        self, way: str, asked: Mapping[str, Any], where: Where | None
    ) -> dict[str, Any]:
        """The first step of signing in by `way` (SignInError: no such way, or refused)."""
        return await self._way(way).begin(asked, where)

    async def sign_in(self, way: str, answer: Mapping[str, Any], where: Where | None) -> Issued:
        """Sign this device in by `way` with `answer` (its secret is returned once).
        SignInError (WrongAnswerError): refused, nothing signed in."""
        profile_id = await self._way(way).finish(answer, where)
        secret = new_token()
        device = NewDevice(hash_token(secret), _public_id(), way)
        job = rows.add_device(profile_id, device, self.limits.devices_per_profile)
        return Issued(await self.store.run(job), device.id, secret)

    def _way(self, way: str) -> SignIn:
        found = self.ways.get(way)
        if found is None:
            raise SignInError(
                f"there is no way to sign in called that; ways: {', '.join(self.ways)}"
            )
        return found

    # -- tables -----------------------------------------------------------------------

    async def tables(self, signed: Signed) -> list[SeatHeld]:
        """The seats the profile holds, at the tables changed last first."""
        return await self.store.run(rows.tables_of(signed.profile.id))


def _taken(name: str) -> NameTakenError:
    return NameTakenError(
        f"the name {name} is another player's, or looks just like it: choose another"
    )
