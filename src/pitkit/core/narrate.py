"""Who is who in the words of a game's events: one place for persons and names.

Each game's `describe(event, say)` writes its events in words for the
terminal and the browser alike. `say` is a `Narrator`: it knows the reader's
seat and what every seat is called, so one sentence reads "You draw" to the
player who drew and "Ada draws" to everyone else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Narrator", "base_verb", "plain", "plural"]

_ES = re.compile(r"(ss|sh|ch|x|o)es$")
# A reference to a ruling ("T3", "C4-C5", "Y4": the letters of shared/RULINGS.md), to
# a topic of the Pitch seed ("topic 35"), or to a rule option by its name in the code
# ("option bull_and_bear").
_CODE = (
    r"(?:[TPACRYO]\d+(?:[-/][TPACRYO]?\d+)?|topics? \d+(?:(?:-| and )\d+)?"
    r"|option [a-z]+(?:_[a-z]+)*)"
)
_CODES = rf"{_CODE}(?:\s*[,;/]\s*{_CODE})*"
_ONLY_CODES = re.compile(rf"\s*\(\s*{_CODES}\s*\)")
_TRAILING_CODES = re.compile(rf"\s*[,;:]\s*{_CODES}(?=\s*\))")
_LEADING_CODES = re.compile(rf"(?<=\()\s*{_CODES}\s*[,;:]\s*")


def plural(n: int, word: str) -> str:
    """`n` of `word`: "1 hand", "3 hands"."""
    return f"{n} {word if n == 1 else word + 's'}"


def plain(text: str) -> str:
    """`text` for players: without the references to the rulings and option names
    that engines and refusals carry for developers ("costs 20 (T3)" -> "costs 20";
    "no Bull (option bull_and_bear, T2)" -> "no Bull").

    >>> plain("the pit is not open yet (T3): wait for the bell")
    'the pit is not open yet: wait for the bell'
    >>> plain("a misplay (topics 36-38, C11) costs the bid")
    'a misplay costs the bid'
    >>> plain("no Bull here (option bull_and_bear, T2)")
    'no Bull here'
    >>> plain("a hand longer than this many turns is a draw (Y4)")
    'a hand longer than this many turns is a draw'
    >>> plain("a turn limit (option, default 1,000 turns)")
    'a turn limit (option, default 1,000 turns)'
    """
    if "(" not in text and ")" not in text:  # references are in brackets; most text has none
        return text
    text = _ONLY_CODES.sub("", text)
    text = _TRAILING_CODES.sub("", text)
    return _LEADING_CODES.sub("", text)


_SEAT = re.compile(r"\b([Ss])eat (\d+)\b(?: (wins|is|has|takes|goes|scores|loses|leads|makes)\b)?")


def base_verb(verb: str) -> str:
    """The second-person form of a third-person verb: plays -> play, passes -> pass."""
    irregular = {"is": "are", "has": "have", "was": "were", "does": "do"}
    if verb in irregular:
        return irregular[verb]
    if _ES.search(verb):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    return verb[:-1] if verb.endswith("s") else verb


@dataclass(frozen=True)
class Narrator:
    """The reader's seat (None: a spectator or an all-seeing replay) and the
    name of every seat, by which event words are written."""

    names: tuple[str, ...]
    reader: int | None = None

    @classmethod
    def seats(cls, players: int, reader: int | None = None) -> Narrator:
        """Seats called by number, "Seat 0" to "Seat n-1", as the terminal calls them."""
        return cls(tuple(f"Seat {seat}" for seat in range(players)), reader)

    @classmethod
    def named(cls, names: Sequence[str], reader: int | None = None) -> Narrator:
        """Seats called by the given names."""
        return cls(tuple(names), reader)

    def name(self, seat: int) -> str:
        """What `seat` is called, never "you" (for lists and scores)."""
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return f"Seat {seat}"

    def who(self, seat: int, *, start: bool = True) -> str:
        """ "You" for the reader's own seat, else its name; `start=False`: "you"."""
        if seat == self.reader:
            return "You" if start else "you"
        return self.name(seat)

    def whose(self, seat: int) -> str:
        """ "Your" or "Ada's"."""
        return "Your" if seat == self.reader else f"{self.name(seat)}'s"

    def verb(self, seat: int, verb: str) -> str:
        """`verb` (third person) agreeing with `seat`: "play" for the reader, else "plays"."""
        return base_verb(verb) if seat == self.reader else verb

    def does(self, seat: int, verb: str, *, start: bool = True) -> str:
        """ "You play" or "Ada plays"."""
        return f"{self.who(seat, start=start)} {self.verb(seat, verb)}"

    def with_names(self, text: str) -> str:
        """An engine's sentence ("seat 1 wins the match") with seats called
        by name, and the reader's own seat "you"."""

        def named(found: re.Match[str]) -> str:
            seat, verb = int(found.group(2)), found.group(3)
            if seat >= len(self.names):
                return found.group(0)
            who = self.who(seat, start=found.group(1) == "S")
            return f"{who} {self.verb(seat, verb)}" if verb else who

        return _SEAT.sub(named, text) if "eat " in text else text
