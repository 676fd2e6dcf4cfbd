"""The ways a new device signs in to a profile: the seam where a server adds its own.

A way to sign in is a `SignIn`: a name (the last part of its URLs), an optional
first step (`begin`: a passkey's challenge; an e-mail sent) and a last one
(`finish`: an answer that proves the profile, or a refusal). The profile service
keeps them by name (`Profiles.ways`) and gives a device that finishes one its own
secret; the routes under ``/api/profiles/sign-in/<way>`` serve every way alike.
The server ships two: a one-time code shown on a device already signed in
(`codes.Codes`), and a passkey (`passkeys.Passkeys`). Adding sign-in by e-mail
is one more class: docs/profiles.md says how.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

__all__ = ["SignIn", "SignInError", "Where", "WrongAnswerError"]


@dataclass(frozen=True)
class Where:
    """The page a sign-in runs on, as the browser sees it: its origin, e.g.
    ``https://pit.example.org`` (a passkey is bound to its host name)."""

    origin: str

    @property
    def host(self) -> str:
        """The origin's host name: a passkey's relying party."""
        return urlsplit(self.origin).hostname or ""


class SignInError(ValueError):
    """A sign-in refused, with the reason in words (nothing was signed in)."""


class WrongAnswerError(SignInError):
    """An answer that is a guess gone wrong (a code nobody was given): the routes count
    it against the client's address, as a wrong secret."""


class SignIn(Protocol):
    """A way for a new device to sign in to a profile."""

    name: str
    """Its name in URLs and answers: "code", "passkey" (later "email", say)."""

    async def begin(self, asked: Mapping[str, Any], where: Where | None) -> dict[str, Any]:
        """The first step, if the way has one (what the browser needs next), from what
        the device `asked`; `where`: the page, if the server knows its own address.
        SignInError: refused."""
        ...

    async def finish(self, answer: Mapping[str, Any], where: Where | None) -> str:
        """The id of the profile `answer` proves. SignInError (WrongAnswerError for a
        wrong secret): refused, and nothing signed in."""
        ...
