"""Codes people type: the secrets of event slips (`pitkit.server.tournaments.codes`)
and profiles' one-time sign-in codes (`pitkit.server.live.profiles.codes`).

A code is written in Crockford's base 32 (the digits and the capitals but I, L, O
and U: nothing to misread), shown in dash-separated groups, and read as Crockford
reads it: case, spaces and dashes do not matter, O is 0 and I or L is 1. The store
keeps only a slow hash of a code (PBKDF2), so that a copy of the database cannot be
tried against every code in bulk.
"""

from __future__ import annotations

import hashlib

__all__ = ["ALPHABET", "grouped", "read", "slow_hash"]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O or U."""

_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def read(text: str, length: int) -> str | None:
    """The code of `length` characters that `text` is, as typed (case, spaces and
    dashes ignored; O read as 0, I and L as 1), or None if it is no such code."""
    squeezed = "".join(text.split()).replace("-", "").upper().translate(_READ_AS)
    if len(squeezed) != length or any(ch not in ALPHABET for ch in squeezed):
        return None
    return squeezed


def grouped(code: str, size: int) -> str:
    """A code as shown: groups of `size` characters joined by dashes ("ABCDE-FGHJK")."""
    return "-".join(code[i : i + size] for i in range(0, len(code), size))


def slow_hash(code: str, salt: bytes, iterations: int) -> str:
    """What the store keeps of a code: PBKDF2-SHA256 of `iterations` rounds, 64 hex digits."""
    return hashlib.pbkdf2_hmac("sha256", code.encode(), salt, iterations).hex()
