"""Secret tokens: the links of seats, hosts and tournament roles.

A token is handed out once and never stored: the database keeps its hash, so a
copy of the database opens nothing.
"""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["hash_token", "new_token"]


def hash_token(token: str) -> str:
    """What the database keeps of a secret token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    """A fresh secret token (144 random bits)."""
    return secrets.token_urlsafe(18)
