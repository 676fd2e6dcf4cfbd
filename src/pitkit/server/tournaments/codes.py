"""The codes of players' and judges' links: a link's secret, short enough to type.

A player's or a judge's link is ``/e/<id>#token=<code>``, and its code is its whole
secret: ten characters of Crockford's base 32 (the digits and the capitals but I, L,
O and U: nothing to misread), 50 bits, printed on the holder's slip beside the QR
code of the link, as ``ABCDE-FGHJK``. Typed on the event's code page (or sent as
the link's token), it is read as Crockford reads it: case, spaces and dashes do not
matter, O is 0 and I or L is 1.

The server keeps no secret. A code is made from the manager's secret, the event and
the entry that made the link (an HMAC): the manager's desk prints every live link's
slip again whenever it likes, and nobody without the manager's link can. The store
keeps only a slow hash of each code (PBKDF2, salted with the event's id), so a copy
of the database opens nothing without years of work a code; guessing one online is
limited per address (`pitkit.server.web.limits.FailedTries`).
"""

from __future__ import annotations

import hashlib
import hmac

from pitkit.server.ops import codes as typed

__all__ = ["ALPHABET", "LENGTH", "SLIP", "canonical", "code_digest", "grouped", "make_code"]

ALPHABET = typed.ALPHABET
LENGTH = 10
"""Characters of a code: 50 bits."""
ITERATIONS = 20_000
"""PBKDF2 rounds of a code's stored hash: about 10 ms of a server's core, once a
code (each worker remembers the codes it has seen work)."""
SLIP = "slip"
"""The key a link-making entry carries (true) when its link's secret is a code: the
desk can print its slip. (Links made before codes were random tokens.)"""


def make_code(manager_token: str, event_id: str, seq: int) -> str:
    """The code of the link that entry `seq` of event `event_id` made, from the
    manager's secret."""
    message = f"pitkit event link {event_id} {seq}".encode()
    mac = hmac.new(manager_token.encode(), message, hashlib.sha256).digest()
    number = int.from_bytes(mac[:8], "big") >> (64 - 5 * LENGTH)
    return "".join(ALPHABET[(number >> (5 * i)) & 31] for i in reversed(range(LENGTH)))


def canonical(text: str) -> str | None:
    """The code `text` is, as typed (`pitkit.server.ops.codes.read`), or None."""
    return typed.read(text, LENGTH)


def grouped(code: str) -> str:
    """A code as printed: two groups of five, "ABCDE-FGHJK"."""
    return typed.grouped(code, 5)


def code_digest(event_id: str, code: str) -> str:
    """What the store keeps of a code (64 hex digits, as of any token): slow to
    compute, salted with the event, so that codes cannot be tried offline in bulk."""
    return typed.slow_hash(code, f"pitkit event {event_id}".encode(), ITERATIONS)
