"""People's names, checked one way for profiles and seats alike, and folded so that
two names that look the same are known to be the same (docs/profiles.md).

A name is what a person types: it must be shown, read aloud and typed again to
mean the same person. So `check_name` refuses, rather than quietly cleans, a
control character (Unicode category C, as `pitkit.tournaments.log.control_character`
defines it: line breaks, zero-width and direction marks, private-use and unassigned
code points), a name longer than the limit, and a pile of combining marks on one
letter ("Zalgo" text, which spills over the lines around it). The one exception is a
zero-width joiner or non-joiner between two visible characters: Persian and the
Indic scripts spell words with them, and emoji sequences (👩‍💻) are joined by them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from pitkit.tournaments.log import control_character

__all__ = ["MARKS", "BadNameError", "check_name", "look_alike", "piled_marks", "skeleton"]

MARKS = 4
"""Combining marks one character may carry: enough for Vietnamese or Hebrew with its
points, far fewer than a pile."""


_JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: part of a word between two visible characters."""


def _shown(ch: str) -> bool:
    return not ch.isspace() and unicodedata.category(ch)[0] != "C"


def _unjoined(text: str) -> str:
    """`text` without the joiners that stand between two visible characters."""
    last = len(text) - 1
    return "".join(
        ch
        for i, ch in enumerate(text)
        if not (ch in _JOINERS and 0 < i < last and _shown(text[i - 1]) and _shown(text[i + 1]))
    )


class BadNameError(ValueError):
    """A name refused, with the reason in words for the person who typed it."""


def check_name(text: str, limit: int, what: str = "a name") -> str:
    """`text` as a name: composed (NFC), runs of spaces made one, trimmed; at most
    `limit` characters. `BadNameError` says what is wrong (`what`: the field's words)."""
    found = control_character(_unjoined(text))
    if found is not None:
        raise BadNameError(
            f"{what} takes printable characters only: U+{ord(found):04X} is an invisible "
            "control character; type it again without it"
        )
    tidy = " ".join(unicodedata.normalize("NFC", text).split())
    if not tidy:
        raise BadNameError(f"{what} needs at least one letter")
    if len(tidy) > limit:
        raise BadNameError(f"{what} has at most {limit} characters")
    if piled_marks(tidy):
        raise BadNameError(f"{what} has at most {MARKS} accents or marks on one letter")
    return tidy


def piled_marks(text: str) -> bool:
    """Whether `text` (composed, NFC) piles more than `MARKS` combining marks on one
    letter ("Zalgo" text): refused in names and in a table's chat alike."""
    run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch)[0] == "M" else 0
        if run > MARKS:
            return True
    return False


# Greek and Cyrillic letters that look like Latin ones, by case (mapped before case is
# folded: a capital Eta looks like H, a small one like n). Unicode's full confusables
# table is thousands of lines; these are the letters a keyboard makes by accident or
# an impostor picks first.
_LOOK_ALIKES = str.maketrans(
    {
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
        **dict(zip("αβγικνορτυχ", "abyikvoptux", strict=True)),
        **dict(zip("АВЕЅІЈКМНОРСТХУ", "ABESIJKMHOPCTXY", strict=True)),
        **dict(zip("аеѕіјорсхуһԁԛԝ", "aesijopcxyhdqw", strict=True)),
        "0": "o",
        "1": "l",
        # Joiners change no letter's look.
        "\u200c": None,
        "\u200d": None,
    }
)


def skeleton(name: str) -> str:
    """What `name` looks like, for telling names apart: compatibility forms made plain
    (NFKC: a full-width Ｈ is H), Greek and Cyrillic look-alikes made Latin, case
    folded, accents, marks and joiners dropped, 0 read as o and 1 as l. Two names with one
    skeleton are one name."""
    plain = unicodedata.normalize("NFKC", name).translate(_LOOK_ALIKES).casefold()
    bare = "".join(
        ch for ch in unicodedata.normalize("NFD", plain) if unicodedata.category(ch)[0] != "M"
    )
    return " ".join(bare.translate(_LOOK_ALIKES).split())


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that looks the same as `name` (one `skeleton`), if any."""
    mine = skeleton(name)
    return next((other for other in others if skeleton(other) == mine), None)
