"""Players' profiles over HTTP (docs/profiles.md): making one, its devices, signing
in on another device (a one-time code, a passkey), the tables it sits at, and
continuing at one of them on this device.

A profile's device secret travels only as ``Authorization: Bearer``, never in a
URL; a route about the profile answers 401 without a live one. A profile's public
id opens nothing here (the player's page, web/players.py, shows only what is
public). Wrong one-time codes count against the
client's address (`FailedTries`, as an event's wrong codes do). The two routes
that change a table are under ``/api/tables/<id>/``, so that a proxy in front of
several workers sends them to the worker that runs the table (docs/deploy.md).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi import Path as InPath
from pydantic import BaseModel, Field

from pitkit import games
from pitkit.server.live.profiles import (
    Issued,
    NameTakenError,
    ProfileError,
    Signed,
    SignInError,
    Where,
    WrongAnswerError,
)
from pitkit.server.live.protocol import ProtocolError
from pitkit.server.ops.settings import Limits
from pitkit.server.store.profiles import ProfileRecord, SeatHeld
from pitkit.server.store.storage import DatabaseError, StoreTimeoutError
from pitkit.server.web.bodies import Authorization, Body, TableId, bearer
from pitkit.server.web.limits import Buckets, FailedTries
from pitkit.server.web.services import Services, Wired
from pitkit.server.web.tables import table_or_404
from pitkit.server.web.tournaments import FAILED_TRIES_BURST, FAILED_TRIES_RATE

__all__ = ["answering", "profile_routes", "signed_profile"]

_Key = Annotated[str, Field(max_length=40)]
_Name = Annotated[str, Field(max_length=200)]
_Colour = Annotated[str, Field(max_length=7, examples=["#7cc8ff"])]
PublicId = Annotated[str, InPath(max_length=1400)]
"""A device's id, or a passkey's credential id, in a URL."""


# -- bodies ---------------------------------------------------------------------------


class NewProfile(Body):
    """A new profile: its name (unique: no other profile's looks like it) and colour."""

    name: _Name = Field(examples=["Ann B."])
    colour: _Colour | None = None


class ProfileChange(Body):
    """A new name, or colour, or both."""

    name: _Name | None = None
    colour: _Colour | None = None


class Ask(Body):
    """What a way to sign in needs for its first step (a passkey: nothing)."""

    ask: dict[_Key, Annotated[str, Field(max_length=200)] | int | bool | None] = Field(
        default_factory=dict, max_length=8
    )


class Answer(Body):
    """A way's answer: ``{"code": "ABCD-EFGH"}``, or a passkey's `navigator.credentials.get`
    result as JSON."""

    answer: dict[_Key, Any] = Field(max_length=12, examples=[{"code": "ABCD-EFGH"}])


class NewPasskey(Body):
    """The answer of `navigator.credentials.create`, as JSON."""

    credential: dict[_Key, Any] = Field(max_length=12)


class ProfileSeat(Body):
    """A seat to take as the profile's: an invitation's token, or the seat's own."""

    token: str = Field(max_length=64)
    name: _Name | None = Field(
        default=None,
        description="The name at this table (default: the profile's for an open seat, "
        "the seat's own for one held already).",
    )


class ProfileOut(BaseModel):
    """A profile as its owner sees it."""

    id: str
    name: str
    colour: str


class SignedIn(BaseModel):
    """The profile, this device's id, and its secret: shown once, kept by the browser,
    sent as ``Authorization: Bearer``."""

    profile: ProfileOut
    device: str
    secret: str


class DeviceOut(BaseModel):
    """A signed-in device: how it came ("new", "code", "passkey"), when; `this`: the
    device asking."""

    id: str
    how: str
    created: float
    this: bool


class PasskeyOut(BaseModel):
    """A passkey of the profile's (its credential's id), and when it was added."""

    id: str
    created: float


class Me(BaseModel):
    """The profile, its devices and passkeys, and the ways a new device signs in."""

    profile: ProfileOut
    device: str
    devices: list[DeviceOut]
    passkeys: list[PasskeyOut]
    ways: list[str]


class Code(BaseModel):
    """A one-time code to type on the new device (it works once)."""

    code: str
    seconds: float


class MyTable(BaseModel):
    """A table where the profile holds a seat. `your_turn`: whether the seat may act
    now (null: the table is not running on this worker); `move_left`: while it may, the
    seconds left for the move, at a table with a time for each move (null: none);
    `own_pace`: the table's time for each move, at your own pace (null: an ordinary one)."""

    id: str
    game: str
    title: str
    players: int
    status: str
    match: int
    seat: int
    name: str | None
    event: str | None
    updated: float
    your_turn: bool | None
    move_left: float | None = None
    own_pace: float | None = None


class Seated(BaseModel):
    """The seat taken; `token`: its new secret when this claimed an invitation's seat."""

    seat: int
    token: str | None = None


class Continued(BaseModel):
    """The seat, its new secret for this device, and the table's page holding it."""

    seat: int
    token: str
    url: str


# -- helpers ----------------------------------------------------------------------------

_TABLE_STATUS = {"bad_token": 403, "closed": 409, "profile_seated": 409, "no_table": 404}


@contextlib.contextmanager
def answering() -> Iterator[None]:
    """Refusals as HTTP errors: a field (400), a name taken (409), a sign-in (403), a
    table's (its code's), the database not answering (503)."""
    try:
        yield
    except NameTakenError as exc:
        raise HTTPException(409, str(exc)) from None
    except ProfileError as exc:
        raise HTTPException(400, str(exc)) from None
    except SignInError as exc:
        raise HTTPException(403, str(exc)) from None
    except ProtocolError as exc:
        raise HTTPException(_TABLE_STATUS.get(exc.code, 400), exc.reason) from None
    except (DatabaseError, StoreTimeoutError):
        raise HTTPException(
            503, "the database is not answering; try again in a moment", {"Retry-After": "5"}
        ) from None


async def signed_profile(services: Services, authorization: str | None) -> Signed:
    """Who the device's secret signs in (401 without a live one)."""
    with answering():
        signed = await services.profiles.signed_in(bearer(authorization))
    if signed is None:
        raise HTTPException(
            401,
            "this needs your profile's device secret (Authorization: Bearer); sign in again",
            {"WWW-Authenticate": "Bearer"},
        )
    return signed


def _where(services: Services, request: Request) -> Where | None:
    """The page's origin, as passkeys need it (None: the server does not know it)."""
    base = services.site.base_url(request.scope)
    return Where(base) if base else None


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def _out(profile: ProfileRecord) -> ProfileOut:
    return ProfileOut(id=profile.id, name=profile.name, colour=profile.colour)


def profile_routes(limits: Limits) -> APIRouter:
    """The profiles' routes, with the memory they keep between requests (per address:
    profiles made, passkey ceremonies begun, wrong codes)."""
    router = APIRouter(tags=["profiles"])
    made = Buckets(limits.profiles_per_hour / 3600, limits.profiles_per_hour)
    ceremonies = Buckets(limits.sign_ins_per_minute / 60, limits.sign_ins_per_minute)
    tries = FailedTries(FAILED_TRIES_RATE, FAILED_TRIES_BURST)
    _the_profile(router, made)
    _signing_in(router, ceremonies, tries)
    _passkeys(router, ceremonies)
    _tables(router)
    return router


# -- the routes -------------------------------------------------------------------------


def _the_profile(router: APIRouter, made: Buckets) -> None:
    """Making a profile, reading and changing it, its devices."""

    @router.post("/api/profiles", status_code=201)
    async def create(body: NewProfile, request: Request, services: Wired) -> SignedIn:
        """Make a profile. The answer holds this device's secret, once: keep it."""
        if not made.take(_address(request)):
            raise HTTPException(429, "too many profiles made from here; try again later")
        with answering():
            return _issued(await services.profiles.create(body.name, body.colour))

    @router.get("/api/profiles/me")
    async def me(services: Wired, authorization: Authorization = None) -> Me:
        """The profile, its signed-in devices and passkeys."""
        signed = await signed_profile(services, authorization)
        with answering():
            devices = await services.profiles.devices(signed)
            keys = await services.profiles.passkeys.held(signed.profile.id)
        return Me(
            profile=_out(signed.profile),
            device=signed.device,
            devices=[
                DeviceOut(id=d.id, how=d.how, created=d.created, this=d.id == signed.device)
                for d in devices
            ],
            passkeys=[PasskeyOut(id=k.credential_id, created=k.created) for k in keys],
            ways=list(services.profiles.ways),
        )

    @router.patch("/api/profiles/me")
    async def change(
        body: ProfileChange, services: Wired, authorization: Authorization = None
    ) -> ProfileOut:
        """Rename the profile, or change its colour."""
        signed = await signed_profile(services, authorization)
        with answering():
            return _out(await services.profiles.change(signed, body.name, body.colour))

    @router.delete("/api/profiles/me/devices/{device_id}", status_code=204)
    async def sign_out(
        device_id: PublicId, services: Wired, authorization: Authorization = None
    ) -> None:
        """Sign a device out (this one too): its secret opens nothing from now on."""
        signed = await signed_profile(services, authorization)
        with answering():
            if not await services.profiles.sign_out(signed, device_id):
                raise HTTPException(404, "your profile has no such device signed in")


def _signing_in(router: APIRouter, ceremonies: Buckets, tries: FailedTries) -> None:
    """A one-time code for another device, and signing in by any way."""

    @router.post("/api/profiles/me/codes", status_code=201)
    async def new_code(services: Wired, authorization: Authorization = None) -> Code:
        """A one-time code for signing in on another device (a new one voids the last)."""
        signed = await signed_profile(services, authorization)
        with answering():
            code, seconds = await services.profiles.codes.make(signed.profile.id)
        return Code(code=code, seconds=seconds)

    @router.post("/api/profiles/sign-in/{way}/begin")
    async def begin(
        way: Annotated[str, InPath(max_length=32)], body: Ask, request: Request, services: Wired
    ) -> dict[str, Any]:
        """The first step of signing in by `way` (a passkey: the options of
        `navigator.credentials.get`)."""
        if not ceremonies.take(_address(request)):
            raise HTTPException(429, "too many sign-ins begun from here; wait a minute")
        with answering():
            return await services.profiles.begin(way, body.ask, _where(services, request))

    @router.post("/api/profiles/sign-in/{way}")
    async def sign_in(
        way: Annotated[str, InPath(max_length=32)], body: Answer, request: Request, services: Wired
    ) -> SignedIn:
        """Sign this device in by `way` ("code", "passkey"): the profile, and this
        device's own secret, once. Wrong codes from one address are limited."""
        address = _address(request)
        wait = tries.wait(address)
        if wait > 0:
            seconds = str(math.ceil(wait))
            raise HTTPException(
                429,
                f"too many wrong codes from here: try again in {seconds} s",
                {"Retry-After": seconds},
            )
        with answering():
            try:
                issued = await services.profiles.sign_in(
                    way, body.answer, _where(services, request)
                )
            except WrongAnswerError:
                tries.failed(address)
                raise
        return _issued(issued)


def _passkeys(router: APIRouter, ceremonies: Buckets) -> None:
    """Adding a passkey to the profile, and removing one."""

    @router.post("/api/profiles/me/passkeys/begin")
    async def offer(
        request: Request, services: Wired, authorization: Authorization = None
    ) -> dict[str, Any]:
        """The options of `navigator.credentials.create` for a new passkey."""
        signed = await signed_profile(services, authorization)
        if not ceremonies.take(_address(request)):
            raise HTTPException(429, "too many passkeys begun from here; wait a minute")
        with answering():
            profile = signed.profile
            return await services.profiles.passkeys.offer(
                profile.id, profile.name, _where(services, request)
            )

    @router.post("/api/profiles/me/passkeys", status_code=201)
    async def add(
        body: NewPasskey, request: Request, services: Wired, authorization: Authorization = None
    ) -> PasskeyOut:
        """Keep the new passkey: from now on it signs a device in to this profile."""
        signed = await signed_profile(services, authorization)
        with answering():
            key = await services.profiles.passkeys.register(
                signed.profile.id, body.credential, _where(services, request)
            )
        return PasskeyOut(id=key.credential_id, created=key.created)

    @router.delete("/api/profiles/me/passkeys/{credential_id}", status_code=204)
    async def remove(
        credential_id: PublicId, services: Wired, authorization: Authorization = None
    ) -> None:
        """Forget a passkey: it signs nobody in from now on."""
        signed = await signed_profile(services, authorization)
        with answering():
            if not await services.profiles.passkeys.remove(signed.profile.id, credential_id):
                raise HTTPException(404, "your profile has no such passkey")


def _tables(router: APIRouter) -> None:
    """The tables the profile sits at: listing them, taking a seat, continuing."""

    @router.get("/api/profiles/me/tables")
    async def my_tables(services: Wired, authorization: Authorization = None) -> list[MyTable]:
        """The tables where the profile holds a seat: those where it is the profile's
        turn first (the least time left first), then the rest, changed last first."""
        signed = await signed_profile(services, authorization)
        with answering():
            held = await services.profiles.tables(signed)
        mine = [_my_table(services, seat) for seat in held]
        # Stable: within each group the store's order (changed last first) stays.
        return sorted(mine, key=lambda t: (not t.your_turn, t.move_left is None, t.move_left or 0))

    @router.post("/api/tables/{table_id}/profile-seat")
    async def profile_seat(
        table_id: TableId, body: ProfileSeat, services: Wired, authorization: Authorization = None
    ) -> Seated:
        """Take a seat as the profile's: claim an invitation's open seat (its new secret
        is returned), or make the seat whose own secret this is the profile's. One
        profile holds one seat at a table (409 for a second)."""
        signed = await signed_profile(services, authorization)
        table = await table_or_404(services, table_id)
        with answering():
            profile = signed.profile
            seat, token = await table.sit(body.token, body.name, profile.id, profile.name)
        return Seated(seat=seat, token=token)

    @router.post("/api/tables/{table_id}/continue")
    async def carry_on(
        table_id: TableId, request: Request, services: Wired, authorization: Authorization = None
    ) -> Continued:
        """Continue on this device in the seat the profile holds at the table: the seat
        gets a new secret, returned once; the devices that held it before are let go."""
        signed = await signed_profile(services, authorization)
        table = await table_or_404(services, table_id)
        with answering():
            seat, token = await table.hand_over(signed.profile.id)
        base = services.site.base_url(request.scope)
        return Continued(seat=seat, token=token, url=f"{base}/t/{table.id}#token={token}&continue")


def _issued(issued: Issued) -> SignedIn:
    return SignedIn(profile=_out(issued.profile), device=issued.device, secret=issued.secret)


def _my_table(services: Services, held: SeatHeld) -> MyTable:
    """A seat the profile holds, with what the live table says if it runs here."""
    live = services.manager.tables.get(held.table_id)
    status, turn, left, own_pace = held.status, None, None, None
    if live is not None:
        status, turn = live.status, held.seat in live.info()["to_act"]
        left = live.pacing.clocks().turn_left if turn else None
        own_pace = live.settings.own_pace
    known = held.game in games.names()
    return MyTable(
        id=held.table_id,
        game=held.game,
        title=games.get(held.game).title if known else held.game,
        players=held.players,
        status=status,
        match=held.match_no,
        seat=held.seat,
        name=held.name,
        event=held.event,
        updated=held.updated,
        your_turn=turn,
        move_left=left,
        own_pace=own_pace,
    )
