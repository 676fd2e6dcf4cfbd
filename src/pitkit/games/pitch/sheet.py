"""The score sheet of a Pitch game, with the tournament's records (C9-C11).

A `ScoreSheet` is the one bookkeeper of a game: scores, whose deal it is,
who sits in the next hand, misdeals, misplays, disqualifications, the
judge's confirmation of each hand and when the game ends. `PitchMatch`
keeps one for a game played in pitkit; a game played with real cards is
scored by feeding the same sheet what happened at the table: each hand's
`HandResult` (see `score_hand`) and the judge's rulings.

>>> from pitkit.games.pitch.scoring import score_hand
>>> sheet = ScoreSheet(Rules(mode="tournament"), players=2, first_dealer=1)
>>> entry = sheet.record_hand(score_hand(["0:AH 1:2H"], pitcher=0, bid=2))
>>> sheet.scores, sheet.dealer
([2, 1], 0)
>>> sheet.rule(Confirm(entry.line, "JD")).judge
'JD'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from pitkit.cards import Card
from pitkit.core.narrate import plural
from pitkit.core.state import Outcome
from pitkit.games.pitch.rules import MAX_BID, TOURNAMENT_DEALS, Rules
from pitkit.games.pitch.scoring import HandResult, hand_sides

__all__ = [
    "Confirm",
    "Entry",
    "Found",
    "GoRound",
    "Misdeal",
    "Misplay",
    "Ruling",
    "ScoreSheet",
    "cut_for_deal",
    "cut_offered_to",
    "next_seat",
    "ruling_from_json",
]

Found = Literal["before_play", "during_play", "after_hand"]
_INITIALS = re.compile(r"^[A-Za-z][A-Za-z.\- ]{0,7}$")


def _check_initials(judge: str | None, needed: bool) -> None:
    if judge is None:
        if needed:
            raise ValueError("the judge's initials are needed")
        return
    if not _INITIALS.match(judge):
        raise ValueError(f"initials are 1-8 letters (dots, hyphens, spaces allowed), not {judge!r}")


@dataclass(frozen=True, slots=True)
class Misdeal:
    """A judge's ruling that a hand was misdealt (a player got the wrong
    number of cards, topic 10), found before any card was played, during
    play, or after the hand was completed (C11)."""

    kind: ClassVar[str] = "misdeal"
    found: Found
    judge: str | None = None

    def __post_init__(self) -> None:
        if self.found not in ("before_play", "during_play", "after_hand"):
            raise ValueError(f"found is before_play, during_play or after_hand, not {self.found!r}")
        _check_initials(self.judge, needed=False)


@dataclass(frozen=True, slots=True)
class Misplay:
    """A judge's ruling that `seat` misplayed (topic 36). A correctable
    misplay is replayed and the hand goes on; one that cannot be corrected
    costs, in tournament play, the hand's `highest_bid` (C11). `earlier` is
    the player's misplays at other games of the same Go-Round."""

    kind: ClassVar[str] = "misplay"
    seat: int
    correctable: bool
    highest_bid: int | None = None
    earlier: int = 0
    judge: str | None = None

    def __post_init__(self) -> None:
        if self.seat < 0 or self.earlier < 0:
            raise ValueError("seat and earlier are not negative")
        if self.highest_bid is not None and not 0 <= self.highest_bid <= MAX_BID:
            raise ValueError(f"a highest bid is 0 to 4, not {self.highest_bid}")
        _check_initials(self.judge, needed=False)


@dataclass(frozen=True, slots=True)
class Confirm:
    """The judge confirms the score of the hand on sheet line `line`, and
    initials it (topics 31 and 35)."""

    kind: ClassVar[str] = "confirm"
    line: int
    judge: str

    def __post_init__(self) -> None:
        _check_initials(self.judge, needed=True)


Ruling = Misdeal | Misplay | Confirm
_RULINGS: dict[str, type[Misdeal] | type[Misplay] | type[Confirm]] = {
    "misdeal": Misdeal,
    "misplay": Misplay,
    "confirm": Confirm,
}


def ruling_to_json(ruling: Ruling) -> dict[str, Any]:
    """A ruling as JSON: ``{"kind": "misplay", "seat": 2, ...}``."""
    out: dict[str, Any] = {"kind": ruling.kind}
    for name in ruling.__dataclass_fields__:
        out[name] = getattr(ruling, name)
    return out


def ruling_from_json(data: Mapping[str, Any]) -> Ruling:
    """Read back a ruling written by `ruling_to_json`; ValueError if it is not one."""
    cls = _RULINGS.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"unknown ruling {data.get('kind')!r}; rulings are: {', '.join(_RULINGS)}")
    fields = {k: v for k, v in data.items() if k != "kind"}
    try:
        return cls(**fields)
    except TypeError as exc:
        raise ValueError(f"bad {cls.kind} ruling: {exc}") from None


EntryKind = Literal["hand", "void", "redeal", "misplay"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the score sheet: a hand scored, a hand voided, a redeal
    or a misplay. `redeal` says the cards were collected and dealt again;
    `judge` holds the initials that confirm it."""

    line: int
    kind: EntryKind
    dealer: int
    seated: tuple[int, ...]
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    note: str
    result: HandResult | None = None
    redeal: bool = False
    judge: str | None = None
    voided: bool = False

    def to_json(self) -> dict[str, Any]:
        """This line as JSON."""
        return {
            "line": self.line,
            "kind": self.kind,
            "dealer": self.dealer,
            "seated": list(self.seated),
            "deltas": list(self.deltas),
            "scores": list(self.scores),
            "note": self.note,
            "result": None if self.result is None else self.result.to_json(),
            "redeal": self.redeal,
            "judge": self.judge,
            "voided": self.voided,
        }


@dataclass
class GoRound:
    """Misplays counted over one Go-Round of a tournament, by player name:
    a second misplay in the same Go-Round disqualifies (C11)."""

    misplays: dict[str, int] = field(default_factory=dict)

    def count(self, name: str) -> int:
        """Misplays `name` has committed so far in this Go-Round."""
        return self.misplays.get(name, 0)

    def record(self, name: str) -> bool:
        """Count one more misplay; True if the player is now disqualified."""
        self.misplays[name] = self.count(name) + 1
        return self.misplays[name] >= 2

    @property
    def disqualified(self) -> list[str]:
        """The players disqualified so far."""
        return sorted(name for name, n in self.misplays.items() if n >= 2)


def next_seat(seats: Sequence[int], after: int) -> int:
    """The first of `seats` clockwise (to the left) of seat `after`."""
    later = [s for s in seats if s > after]
    return min(later) if later else min(seats)


def cut_offered_to(dealer: int, seated: Sequence[int]) -> int:
    """The player on the dealer's right, to whom the tournament dealer offers the cut (topic 8)."""
    earlier = [s for s in seated if s < dealer]
    return max(earlier) if earlier else max(seated)


def cut_for_deal(cards: Mapping[int, Card]) -> tuple[int, ...]:
    """The seats that cut the highest card (Ace high, suits equal, C3). One
    seat deals first; several must cut again among themselves."""
    if not cards:
        raise ValueError("nobody cut")
    best = max(card.rank for card in cards.values())
    return tuple(sorted(seat for seat, card in cards.items() if card.rank == best))


class ScoreSheet:
    """The record of one game of Pitch at one table (C8-C11).

    `dealer` and `seated` say who deals and who plays the next hand (or the
    hand in progress); `outcome` is set once the game is over. Every method
    that is refused raises ValueError and changes nothing.
    """

    def __init__(
        self,
        rules: Rules,
        players: int,
        first_dealer: int,
        *,
        names: Sequence[str] | None = None,
        go_round: GoRound | None = None,
    ) -> None:
        self.teams = rules.teams_for(players)
        if not 0 <= first_dealer < players:
            raise ValueError(f"the first dealer must be a seat from 0 to {players - 1}")
        if names is not None and len(names) != players:
            raise ValueError(f"give one name a seat: {players} names")
        if go_round is not None and names is None:
            raise ValueError("a Go-Round counts misplays by name: give the players' names")
        self.rules = rules
        self.players = players
        self.names = (
            tuple(names) if names is not None else tuple(f"seat {s}" for s in range(players))
        )
        self.go_round = go_round
        self.scores = [0] * players
        self.deals = [0] * players
        self.misplays = [0] * players
        self.disqualified: list[int] = []
        self.sitting_out: list[int] = []
        self.entries: list[Entry] = []
        self.first_dealer = first_dealer  # the winner of the cut (C3)
        self.dealer = first_dealer
        self.seated: list[int] = list(range(players))
        self.hands_dealt = 0  # hands scored or voided, which count as deals
        self.outcome: Outcome | None = None

    def clone(self) -> ScoreSheet:
        """An independent copy (the Go-Round, shared across tables, is not copied)."""
        new = ScoreSheet.__new__(ScoreSheet)
        new.__dict__.update(self.__dict__)
        new.scores = list(self.scores)
        new.deals = list(self.deals)
        new.misplays = list(self.misplays)
        new.disqualified = list(self.disqualified)
        new.sitting_out = list(self.sitting_out)
        new.entries = list(self.entries)
        new.seated = list(self.seated)
        return new

    # -- sides ---------------------------------------------------------------

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Each team's seats, or each seat alone."""
        return self.teams or tuple((s,) for s in range(self.players))

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats that share `seat`'s score."""
        return next(side for side in self.sides if seat in side)

    @property
    def active(self) -> list[int]:
        """The seats not disqualified."""
        return [s for s in range(self.players) if s not in self.disqualified]

    @property
    def unconfirmed(self) -> list[int]:
        """The lines of scored hands that no judge has initialled yet."""
        return [
            e.line for e in self.entries if e.kind == "hand" and not e.voided and e.judge is None
        ]

    # -- hands -----------------------------------------------------------------

    def record_hand(self, result: HandResult, judge: str | None = None) -> Entry:
        """Score a completed hand (C8) and pass the deal to the left."""
        self._check_open()
        _check_initials(judge, needed=False)
        if list(result.seats) != sorted(self.seated):
            raise ValueError(
                f"this hand is for seats {sorted(self.seated)}, not {list(result.seats)}"
            )
        if result.sides != hand_sides(self.seated, self.teams):
            raise ValueError(f"the result's sides {result.sides} are not this table's teams")
        if len(result.deltas) != self.players:
            raise ValueError(f"the result scores {len(result.deltas)} seats, not {self.players}")
        for seat, delta in enumerate(result.deltas):
            self.scores[seat] += delta
        entry = self._add("hand", result.deltas, result.summary, result=result, judge=judge)
        self._hand_done()
        return entry

    def _hand_done(self) -> None:
        """A hand was scored or voided: it counts as the dealer's deal (C10)."""
        self.deals[self.dealer] += 1
        self.hands_dealt += 1
        self.sitting_out.clear()
        self._plan(rotate=True)

    # -- rulings -----------------------------------------------------------------

    def rule(self, ruling: Ruling) -> Entry:
        """Enter a judge's ruling (or, informally, what the players agreed)."""
        if isinstance(ruling, Confirm):
            return self._confirm(ruling)
        self._check_open(after_hand=isinstance(ruling, Misdeal) and ruling.found == "after_hand")
        if isinstance(ruling, Misdeal):
            return self._misdeal(ruling)
        return self._misplay(ruling)

    def _confirm(self, ruling: Confirm) -> Entry:
        index = ruling.line - 1
        if not 0 <= index < len(self.entries):
            raise ValueError(f"there is no line {ruling.line} on the sheet")
        entry = self.entries[index]
        if entry.kind != "hand" or entry.voided:
            raise ValueError(f"line {ruling.line} is not a scored hand")
        if entry.judge is not None:
            raise ValueError(f"line {ruling.line} is confirmed already, by {entry.judge}")
        self.entries[index] = entry = replace(entry, judge=ruling.judge)
        return entry

    def _misdeal(self, ruling: Misdeal) -> Entry:
        if ruling.found == "after_hand":
            return self._void_last_hand(ruling)
        if ruling.found == "during_play" and self.rules.tournament:
            # Topic 11(b): the hand is void, no points, and the dealer forfeits the deal.
            dealer = self.dealer
            entry = self._add(
                "void",
                (0,) * self.players,
                f"misdeal found during play: hand void, seat {dealer} forfeits the deal",
                redeal=True,
                judge=ruling.judge,
            )
            self._hand_done()
            return entry
        # Topic 11 (informal) and 11(a): the same dealer deals again.
        return self._add(
            "redeal",
            (0,) * self.players,
            f"misdeal found {ruling.found.replace('_', ' ')}: seat {self.dealer} deals again",
            redeal=True,
            judge=ruling.judge,
        )

    def _void_last_hand(self, ruling: Misdeal) -> Entry:
        if not self.rules.tournament:
            raise ValueError(
                "informal rules correct a misdeal by dealing the hand in progress again "
                "(topic 11); a finished hand stands"
            )
        last = self.entries[-1] if self.entries else None
        if last is None or last.kind != "hand":
            raise ValueError("the last line of the sheet is not a completed hand")
        if last.judge is not None:
            raise ValueError(f"line {last.line} was confirmed by {last.judge}: it stands")
        self.entries[-1] = replace(last, voided=True)
        undo = tuple(-d for d in last.deltas)
        for seat, delta in enumerate(undo):
            self.scores[seat] += delta
        # Topic 11(b): no points, the dealer forfeits the deal (it still counts
        # as dealt) and the deal passes left, as it did when the hand was scored.
        entry = self._add(
            "void",
            undo,
            f"misdeal found after line {last.line}: that hand is void, "
            f"seat {last.dealer} forfeits the deal",
            redeal=True,
            judge=ruling.judge,
            dealer=last.dealer,
            seated=last.seated,
        )
        self.outcome = None
        self.dealer = last.dealer
        self._plan(rotate=True)
        return entry

    def _misplay(self, ruling: Misplay) -> Entry:
        seat = ruling.seat
        dealer, seated = self.dealer, list(self.seated)
        if seat not in self.seated:
            raise ValueError(f"seat {seat} is not playing this hand")
        if not self.rules.tournament:
            return self._informal_misplay(ruling)
        if not ruling.correctable and ruling.highest_bid is None:
            raise ValueError("give the highest bid made in the misplayed hand (C11)")
        name = self.names[seat]
        if self.go_round is not None:
            out = self.go_round.record(name)
        else:
            out = ruling.earlier + self.misplays[seat] + 1 >= 2
        self.misplays[seat] += 1
        deltas = [0] * self.players
        notes = [f"seat {seat} misplayed"]
        if ruling.correctable:
            notes.append("the cards are replayed")
        else:
            # C11: the offender loses the hand's highest bid and sits out the next hand.
            deltas[seat] = -(ruling.highest_bid or 0)
            self.scores[seat] += deltas[seat]
            notes.append(f"loses {ruling.highest_bid}")
        if out:
            self.disqualified.append(seat)
            notes.append("second misplay in the Go-Round: disqualified")
        elif not ruling.correctable:
            self.sitting_out.append(seat)
            notes.append("sits out the next hand")
        redeal = out or not ruling.correctable
        if redeal:
            if self.dealer == seat:
                # The offender cannot deal a hand they sit out: the deal is forfeit.
                self.deals[seat] += 1
                notes.append(f"seat {seat} forfeits the deal")
                self._plan(rotate=True)
            else:
                self._plan(rotate=False)
            if self.outcome is None:
                notes.append(f"seat {self.dealer} deals to seats {self.seated}")
        return self._add(
            "misplay",
            tuple(deltas),
            "; ".join(notes),
            redeal=redeal,
            judge=ruling.judge,
            dealer=dealer,
            seated=seated,
        )

    def _informal_misplay(self, ruling: Misplay) -> Entry:
        """Topic 37, informal: the players agree to correct it, or to deal a new hand."""
        seat = ruling.seat
        self.misplays[seat] += 1
        if ruling.correctable:
            return self._add(
                "misplay",
                (0,) * self.players,
                f"seat {seat} misplayed; corrected, play goes on",
                judge=ruling.judge,
            )
        return self._add(
            "misplay",
            (0,) * self.players,
            f"seat {seat} misplayed; seat {self.dealer} deals a new hand",
            redeal=True,
            judge=ruling.judge,
        )

    # -- who plays next, and the end -------------------------------------------

    def _plan(self, rotate: bool) -> None:
        """Decide whether the game is over, and if not who plays and deals next."""
        self.outcome = self._decide()
        if self.outcome is not None:
            return
        active = self.active
        # C10: once every player has dealt twice, tied leaders alone play on.
        players = self._leaders() if self.rules.tournament and self._regular_done() else active
        seated = [s for s in players if s not in self.sitting_out]
        if len(seated) < 2:
            # Nobody can sit out when that leaves fewer than two to play.
            self.sitting_out.clear()
            seated = players
        self.seated = seated
        if rotate or self.dealer not in seated:
            self.dealer = next_seat(seated, self.dealer)

    def _regular_done(self) -> bool:
        return all(self.deals[s] >= TOURNAMENT_DEALS for s in self.active)

    def _leaders(self) -> list[int]:
        active = self.active
        best = max(self.scores[s] for s in active)
        return [s for s in active if self.scores[s] == best]

    def _decide(self) -> Outcome | None:
        active = self.active
        if len(active) < 2:
            return self._result(active, "everyone else was disqualified")
        limit = self.rules.hand_limit
        if self.rules.tournament:
            if not self._regular_done():
                return None if self.hands_dealt < limit else self._result([], "hand limit")
            leaders = self._leaders()
            if len(leaders) == 1:
                return self._result(leaders, "most points after every player dealt twice")
            return None if self.hands_dealt < limit else self._result([], "hand limit")
        if self.rules.hands is not None:
            if self.hands_dealt >= self.rules.hands:
                return self._result([], f"after {plural(self.hands_dealt, 'hand')}")
            return None
        target = self.rules.target
        last = self.entries[-1] if self.entries else None
        if last is not None and last.kind == "hand" and not last.voided and last.result:
            pitcher = last.result.pitcher
            if last.result.made and self.scores[pitcher] >= target:
                # C9: the pitcher who makes the bid and reaches the target wins.
                return self._result(list(self.team_of(pitcher)), "the pitcher bid out")
        over = [s for s in active if self.scores[s] >= target]
        if over:
            best = max(self.scores[s] for s in over)
            top = [s for s in over if self.scores[s] == best]
            if len({self.team_of(s) for s in top}) == 1:
                return self._result(top, f"reached {target}")
        if self.hands_dealt >= limit:
            return self._result([], "hand limit")
        return None

    def _result(self, winners: Sequence[int], how: str) -> Outcome:
        big = 10_000
        standing = [
            float(
                self.scores[s]
                + (big if s in winners else 0)
                - (big if s in self.disqualified else 0)
            )
            for s in range(self.players)
        ]
        ranks = Outcome.ranking(standing)
        first = [s for s in range(self.players) if ranks[s] == 1]
        who = " and ".join(self.names[s] for s in first)
        scores = ", ".join(f"{self.names[s]} {self.scores[s]}" for s in range(self.players))
        verb = "win" if len(first) > 1 else "wins"
        summary = f"{who} {verb} ({how}; {scores})"
        return Outcome(
            ranks,
            tuple(float(s) for s in self.scores),
            summary,
            {"hands": self.hands_dealt, "how": how, "disqualified": list(self.disqualified)},
        )

    # -- helpers -------------------------------------------------------------------

    def _check_open(self, after_hand: bool = False) -> None:
        if self.outcome is not None and not after_hand:
            raise ValueError("the game is over")

    def _add(
        self,
        kind: EntryKind,
        deltas: Sequence[int],
        note: str,
        *,
        result: HandResult | None = None,
        redeal: bool = False,
        judge: str | None = None,
        dealer: int | None = None,
        seated: Sequence[int] | None = None,
    ) -> Entry:
        entry = Entry(
            len(self.entries) + 1,
            kind,
            self.dealer if dealer is None else dealer,
            tuple(self.seated if seated is None else seated),
            tuple(deltas),
            tuple(self.scores),
            note,
            result,
            redeal,
            judge,
        )
        self.entries.append(entry)
        return entry

    def to_json(self) -> dict[str, Any]:
        """The whole sheet as JSON (every line is public at the table)."""
        return {
            "names": list(self.names),
            "scores": list(self.scores),
            "dealer": self.dealer,
            "seated": list(self.seated),
            "deals": list(self.deals),
            "misplays": list(self.misplays),
            "disqualified": list(self.disqualified),
            "sitting_out": list(self.sitting_out),
            "unconfirmed": self.unconfirmed,
            "lines": [e.to_json() for e in self.entries],
        }
