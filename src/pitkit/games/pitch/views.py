"""What a seat sees of a hand and a match of Pitch, declared
(`PitchHand.view`, `PitchMatch.view`).

No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict
whose annotations are strings cannot tell `NotRequired` keys apart.
"""

from typing import Literal, NotRequired, TypedDict

from pitkit.core.views import Card, MatchRecord, SeatView, TableView

__all__ = [
    "PitchAward",
    "PitchBid",
    "PitchHandResult",
    "PitchMatchRecord",
    "PitchMatchRules",
    "PitchPhase",
    "PitchPlay",
    "PitchSeat",
    "PitchSheet",
    "PitchSheetLine",
    "PitchView",
    "SuitLetter",
]

PitchPhase = Literal["bidding", "rebidding", "play", "over"]
"""``bidding``: the first round, ending with the dealer; ``rebidding``: the
dealer ran it, and others bid 3 or 4 before the dealer sells or steals;
``play``; ``over``."""

SuitLetter = Literal["C", "D", "H", "S"]
"""A suit as card notation writes it."""


class PitchSeat(SeatView):
    """One seat at the Pitch table."""

    seated: bool
    """Whether it plays this hand (a tournament player may sit out)."""
    won: str
    """The cards of the tricks it has taken, face up, as one text (``AS 2S``)."""


class PitchBid(TypedDict):
    """One bid of either round, in the order said."""

    seat: int
    said: str
    """What the bidder said, as action text: ``pass``, ``bid 3``, ``take``,
    ``run``, ``sell``, ``steal 3``."""


class PitchPlay(TypedDict):
    """One card played to the trick on the table."""

    seat: int
    card: Card


class PitchAward(TypedDict):
    """One of a hand's four points: who won it and why."""

    point: Literal["high", "low", "jack", "game"]
    credited: list[int]
    """The seats that score it: one seat, a team's seats, or nobody."""
    player: int | None
    """The seat that played or captured the card, when there is one."""
    card: Card | None
    """The card that won the point, when there is one."""
    why: str


class PitchHandResult(TypedDict):
    """What a hand was worth (C7, C8)."""

    trump: SuitLetter
    pitcher: int
    bid: int
    sides: list[list[int]]
    """The sides that scored: each a seat, or a team's seats."""
    awards: list[PitchAward]
    game_count: list[int]
    """Game points captured by each side, in `sides` order."""
    won: list[int]
    """Points won by each side before the set back."""
    made: bool
    """Whether the pitcher made the bid."""
    deltas: list[int]
    """The change to every seat's score."""
    summary: str


class PitchSheetLine(TypedDict):
    """One line of the score sheet."""

    line: int
    kind: Literal["hand", "void", "redeal", "misplay"]
    dealer: int
    seated: list[int]
    deltas: list[int]
    scores: list[int]
    note: str
    result: PitchHandResult | None
    """The hand's result, for a line that scores a hand."""
    redeal: bool
    """Whether the cards were collected and dealt again."""
    judge: str | None
    """The judge's initials confirming the line, if any."""
    voided: bool


class PitchSheet(TypedDict):
    """The match's score sheet: every line is public at the table."""

    names: list[str]
    scores: list[int]
    dealer: int
    seated: list[int]
    deals: list[int]
    """Deals dealt by each seat."""
    misplays: list[int]
    """Misplays charged to each seat."""
    disqualified: list[int]
    sitting_out: list[int]
    unconfirmed: list[int]
    """Lines still awaiting a judge's confirmation."""
    lines: list[PitchSheetLine]


class PitchMatchRules(TypedDict):
    """The rules the table plays to."""

    mode: Literal["informal", "tournament"]
    target: int
    """The score that wins the match."""


class PitchMatchRecord(MatchRecord):
    """A Pitch match's part of a view: the record, with the score sheet and the rules."""

    sheet: PitchSheet  # type: ignore[misc]  # narrows MatchRecord's free-form sheet
    rules: PitchMatchRules


class PitchView(TableView):
    """A seat's view of a hand of Pitch."""

    phase: PitchPhase  # type: ignore[misc]  # narrows TableView's str
    seated: list[int]
    """The seats playing this hand."""
    teams: list[list[int]] | None
    """The partnerships' seats, or None when everyone plays alone."""
    bids: list[PitchBid]
    """Every bid said so far, both rounds."""
    high: int
    """The highest bid so far (the dealer's 2 once the dealer ran it)."""
    high_bidder: int | None
    ran: bool
    """Whether the dealer ran it (C5)."""
    pitcher: int | None
    """Who pitches, once the bidding is over."""
    bid: int | None
    """The bid the pitcher must make, once the bidding is over."""
    trump: SuitLetter | None
    """Trump, set by the pitcher's first card."""
    trick: list[PitchPlay]
    """The trick on the table, in the order played."""
    last_trick: str | None
    """The last finished trick as text, seat:card in order (``0:AS 1:2S``)."""
    tricks: int
    """Tricks finished so far."""
    stock: int
    """Cards left undealt."""
    players: list[PitchSeat]
    result: PitchHandResult | None
    """What the hand was worth, once it is over."""
    match: NotRequired[PitchMatchRecord]  # type: ignore[misc]  # adds the sheet and rules
