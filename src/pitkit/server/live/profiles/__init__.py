"""Players' profiles: no passwords, a secret per device, and the ways a new device
signs in (a one-time code, a passkey; docs/profiles.md)."""

from __future__ import annotations

from pitkit.server.live.profiles.service import (
    Issued,
    NameTakenError,
    ProfileError,
    Profiles,
    Signed,
)
from pitkit.server.live.profiles.signin import SignIn, SignInError, Where, WrongAnswerError

__all__ = [
    "Issued",
    "NameTakenError",
    "ProfileError",
    "Profiles",
    "SignIn",
    "SignInError",
    "Signed",
    "Where",
    "WrongAnswerError",
]
