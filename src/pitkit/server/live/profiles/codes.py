"""Signing in with a one-time code: a device already signed in asks for one and
shows it; the new device types it, once, within ten minutes.

A code is eight characters of Crockford's base 32 (the digits and the capitals but
I, L, O and U: nothing to misread), 40 random bits, shown as ``ABCD-EFGH`` and read
as Crockford reads it: case, spaces and dashes do not matter, O is 0 and I or L is
1. A profile has one live code at most (a new one voids the last), a code works
once, and the store keeps only a slow hash of it (PBKDF2), so a copy of the
database opens nothing in the code's ten minutes. Guessing online is limited per
address by the routes (`pitkit.server.web.limits.FailedTries`): a wrong code is
a `WrongAnswerError`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping
from typing import Any

from pitkit.server.live.profiles.signin import SignInError, Where, WrongAnswerError
from pitkit.server.ops import codes as typed
from pitkit.server.ops.settings import Limits
from pitkit.server.store import profiles as rows
from pitkit.server.store.storage import Store

__all__ = ["ALPHABET", "LENGTH", "Codes", "canonical", "code_digest", "grouped"]

ALPHABET = typed.ALPHABET
LENGTH = 8
"""Characters of a code: 40 bits."""
ITERATIONS = 20_000
"""PBKDF2 rounds of a code's stored hash (some 10 ms of a core, once a code tried)."""


def canonical(text: str) -> str | None:
    """The code `text` is, as typed (`pitkit.server.ops.codes.read`), or None."""
    return typed.read(text, LENGTH)


def grouped(code: str) -> str:
    """A code as shown: two groups of four, "ABCD-EFGH"."""
    return typed.grouped(code, 4)


def code_digest(code: str) -> str:
    """What the store keeps of a code: slow to compute, so that a copy of the
    database cannot be tried against all 2^40 codes while they live."""
    return typed.slow_hash(code, b"pitkit sign-in code", ITERATIONS)


class Codes:
    """The one-time codes of profiles: made on a signed-in device, spent on a new one."""

    name = "code"

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits

    async def make(self, profile_id: str) -> tuple[str, float]:
        """A new code for `profile_id` (its last one is void), as shown, and the
        seconds it lives."""
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        digest = await asyncio.to_thread(code_digest, code)
        seconds = self.limits.sign_in_code_seconds
        await self.store.run(rows.new_code(profile_id, digest, time.time() + seconds))
        return grouped(code), seconds

    async def begin(self, asked: Mapping[str, Any], where: Where | None) -> dict[str, Any]:
        """Nothing to begin: the code comes from a device signed in to the profile."""
        return {"length": LENGTH, "seconds": self.limits.sign_in_code_seconds}

    async def finish(self, answer: Mapping[str, Any], where: Where | None) -> str:
        """The profile whose live code `answer["code"]` is; the code is spent."""
        typed = answer.get("code")
        code = canonical(typed) if isinstance(typed, str) and len(typed) <= 40 else None
        if code is None:
            raise SignInError(
                f"a code is {LENGTH} letters and digits, as the signed-in device shows it"
            )
        digest = await asyncio.to_thread(code_digest, code)
        profile_id = await self.store.run(rows.redeem_code(digest))
        if profile_id is None:
            raise WrongAnswerError(
                "that code is not a live one: it is mistyped, used already, or more than "
                f"{self.limits.sign_in_code_seconds / 60:g} minutes old; ask the signed-in "
                "device for a new one"
            )
        return profile_id
