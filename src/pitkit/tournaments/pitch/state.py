"""The Darrtown Pitch tournament's state: its rosters, Go-Rounds and tables, appeals
and the misplay register, and what follows from them (standings, who advances,
the champion). The entries change it (`entries.py`); the views read it (`views.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pitkit.core.errors import BadOptionError
from pitkit.games.pitch.rules import Rules
from pitkit.games.pitch.sheet import GoRound, ScoreSheet
from pitkit.tournaments.checkin import Presence
from pitkit.tournaments.log import RefusedError
from pitkit.tournaments.pitch.bidding import Bidding

__all__ = [
    "DEFAULT_ADVANCE",
    "FOUND",
    "MAX_SEATS",
    "MIN_SEATS",
    "NOTE_CHARS",
    "PAD",
    "RULES",
    "SEATS",
    "Appeal",
    "GoRoundTable",
    "Line",
    "PitchTournamentState",
    "Round",
    "standings",
]

NOTE_CHARS = 200
RULES = Rules(mode="tournament")


def _allowed(players: int) -> bool:
    try:
        RULES.check_players(players)
    except BadOptionError:
        return False
    return True


#: The table sizes the tournament rules allow (C1: 2 to 4), asked of the Rules.
SEATS = tuple(n for n in range(1, 13) if _allowed(n))
MIN_SEATS, MAX_SEATS = SEATS[0], SEATS[-1]
#: By default the winner of each table advances: C10 decides a table's winner
#: (tied leaders play on), but no rule breaks a tie for any later place.
DEFAULT_ADVANCE = 1
FOUND = ("before_play", "during_play", "after_hand")
#: What a pad line records of a hand (topic 35), in the order of the pads' columns.
PAD = ("bid", "pitcher", "trump", "high", "low", "jack", "game")


@dataclass
class Line:
    """What the tournament knows of a line of a table's pad beyond the sheet: the
    entry that made it, the pad as entered (a hand) and its confirmation."""

    entry: int
    pad: dict[str, Any] | None = None
    confirmed: int | None = None  # the confirming entry
    confirmed_by: str | None = None  # who confirmed: "judge Jo", "the manager"
    role: str = ""  # who made it as it stands (a correction's role, if corrected)
    bidding: Bidding | None = None  # the hand's bidding, as recorded
    counts: dict[str, int] | None = None  # each player's game points, as counted
    counted_by: str | None = None  # who gave the counts: the dealer, "judge Jo"...


@dataclass
class GoRoundTable:
    """One table of a Go-Round: its players in seat order (clockwise), its
    judge, and its score pad once the players have cut for the deal."""

    round: int
    number: int
    players: list[str]
    judge: str | None
    sheet: ScoreSheet | None = None
    cut: int | None = None  # the entry of the cut for the deal
    lines: list[Line] = field(default_factory=list)
    online: str | None = None  # the pitkit table it is played at, which enters its hands
    bidding: Bidding | None = None  # the bidding of the hand in play, once recorded

    @property
    def label(self) -> str:
        """ "table 2 of Go-Round 1"."""
        return f"table {self.number} of Go-Round {self.round}"

    @property
    def pending(self) -> list[int]:
        """The pad's scored hands that no judge has initialled yet."""
        return [] if self.sheet is None else self.sheet.unconfirmed

    @property
    def over(self) -> bool:
        """The game is over (C10) and every hand of it confirmed."""
        return self.sheet is not None and self.sheet.outcome is not None and not self.pending

    def seat(self, name: str) -> int:
        """`name`'s seat, or RefusedError."""
        if name not in self.players:
            raise RefusedError(f"{name} does not play at {self.label}")
        return self.players.index(name)


@dataclass
class Appeal:
    """A misplay appealed to the table's judge (topic 37), and what became of it."""

    seq: int
    round: int
    table: int
    by: str
    offender: str
    note: str
    status: str = "open"  # open, misplay (ruled), dismissed
    ruling: int | None = None

    def to_json(self) -> dict[str, Any]:
        """This appeal as JSON."""
        return {
            "appeal": self.seq,
            "round": self.round,
            "table": self.table,
            "by": self.by,
            "offender": self.offender,
            "note": self.note,
            "status": self.status,
            "ruling": self.ruling,
        }


@dataclass
class Round:
    """A Go-Round: its tables, and the misplays counted over it (C11)."""

    number: int
    by: str
    seed: int | None
    entry: int
    tables: list[GoRoundTable]
    go: GoRound = field(default_factory=GoRound)

    @property
    def final(self) -> bool:
        """A Go-Round of one table is the final."""
        return len(self.tables) == 1

    @property
    def over(self) -> bool:
        """Every table's game is over and confirmed."""
        return all(t.over for t in self.tables)


@dataclass
class PitchTournamentState:
    """The tournament's state: rosters, Go-Rounds, appeals and the misplay register."""

    advance: int = DEFAULT_ADVANCE
    players: list[str] = field(default_factory=list)
    judges: dict[str, str] = field(default_factory=dict)  # name -> initials
    rounds: list[Round] = field(default_factory=list)
    appeals: list[Appeal] = field(default_factory=list)
    register: list[dict[str, Any]] = field(default_factory=list)
    disqualified: dict[str, dict[str, Any]] = field(default_factory=dict)
    # what online tables said differs: (round, table, line) -> the sheet's pad they saw
    differs: dict[tuple[int, int, int], dict[str, Any]] = field(default_factory=dict)
    check_in: Presence = field(default_factory=Presence)

    def round(self, number: Any) -> Round:
        """Go-Round `number` (from 1), or RefusedError."""
        if not isinstance(number, int) or not 1 <= number <= len(self.rounds):
            raise RefusedError(f"there is no Go-Round {number}")
        return self.rounds[number - 1]

    def table(self, data: Mapping[str, Any]) -> GoRoundTable:
        """The table an entry names by `round` and `table`, or RefusedError."""
        rnd = self.round(data.get("round"))
        number = data.get("table")
        if not isinstance(number, int) or not 1 <= number <= len(rnd.tables):
            raise RefusedError(f"Go-Round {rnd.number} has no table {number}")
        return rnd.tables[number - 1]

    def at_table(self, table_id: str) -> GoRoundTable | None:
        """The Go-Round table played online at pitkit table `table_id`."""
        for rnd in self.rounds:
            for table in rnd.tables:
                if table.online == table_id:
                    return table
        return None

    def appeal(self, data: Mapping[str, Any]) -> Appeal:
        """The appeal an entry names (by its entry number), or RefusedError."""
        seq = data.get("appeal")
        found = next((a for a in self.appeals if a.seq == seq), None)
        if found is None:
            raise RefusedError(f"there is no appeal #{seq}")
        return found

    def table_of(self, type: str, data: Mapping[str, Any]) -> GoRoundTable:
        """The table an entry is about."""
        if type in ("rule_misplay", "dismiss_appeal"):
            appeal = self.appeal(data)
            return self.rounds[appeal.round - 1].tables[appeal.table - 1]
        return self.table(data)

    def open_appeal(self, table: GoRoundTable) -> Appeal | None:
        """The appeal waiting for a ruling at `table`, if any."""
        return next(
            (
                a
                for a in self.appeals
                if a.status == "open" and (a.round, a.table) == (table.round, table.number)
            ),
            None,
        )

    def champion(self) -> str | None:
        """The winner of the final, once its game is over and confirmed."""
        if not self.rounds or not self.rounds[-1].final or not self.rounds[-1].over:
            return None
        table = self.rounds[-1].tables[0]
        assert table.sheet is not None and table.sheet.outcome is not None
        winners = table.sheet.outcome.winners
        return table.players[winners[0]] if len(winners) == 1 else None

    def advancing(self, table: GoRoundTable) -> list[str]:
        """Who goes on from a table whose game is over: its `advance` best (ranked
        by C10, then points), never the whole table; players tied at the cut go
        on together unless that would be the whole table; never the disqualified."""
        sheet = table.sheet
        assert sheet is not None and sheet.outcome is not None
        ranks = sheet.outcome.ranks
        ok = [s for s in range(len(table.players)) if s not in sheet.disqualified]
        ok.sort(key=lambda s: (ranks[s], -sheet.scores[s], s))
        keep = min(self.advance, len(table.players) - 1)
        if len(ok) <= keep:
            return [table.players[s] for s in ok]
        cut = ranks[ok[keep - 1]]
        chosen = [s for s in ok if ranks[s] <= cut]
        if len(chosen) == len(table.players):
            chosen = [s for s in chosen if ranks[s] < cut] or chosen
        return [table.players[s] for s in chosen]

    def eligible(self) -> list[str]:
        """Who may be seated in the next Go-Round, best standing first: the roster
        for the first, then those who advance from the last; at an event that checks
        its players in, only those present."""
        if not self.rounds:
            ready = [p for p in self.players if p not in self.disqualified]
        else:
            lines = standings(self, self.rounds[-1])
            ready = [line["player"] for line in lines if line["status"] == "advances"]
        return [p for p in ready if self.check_in.present(p)]

    def status(self) -> str:
        """What happens next, in a sentence."""
        champion = self.champion()
        if champion is not None:
            return f"{champion} is the champion"
        if not self.rounds:
            return "add the players and the judges, then seat Go-Round 1"
        last = self.rounds[-1]
        if last.over:
            if last.final:
                return "the final ended in a tie for first place"
            return (
                f"Go-Round {last.number} is over: seat Go-Round {last.number + 1} "
                f"({len(self.eligible())} players go on)"
            )
        done = sum(t.over for t in last.tables)
        what = "the final" if last.final else f"Go-Round {last.number}"
        return f"{what} is in play: {done} of {len(last.tables)} tables finished"


def standings(state: PitchTournamentState, rnd: Round) -> list[dict[str, Any]]:
    """A Go-Round's standings: each table's places (C10, final once its game is
    over and confirmed; until then by points so far), best first."""
    champion = state.champion()
    lines: list[dict[str, Any]] = []
    for table in rnd.tables:
        sheet = table.sheet
        scores = [sheet.scores[s] if sheet else 0 for s in range(len(table.players))]
        over = table.over
        advancing = state.advancing(table) if over and not rnd.final else []
        for seat, name in enumerate(table.players):
            if sheet is not None and sheet.outcome is not None:
                place = sheet.outcome.ranks[seat]
            else:
                place = 1 + sum(other > scores[seat] for other in scores)
            dq = state.disqualified.get(name)
            if dq is not None and dq["round"] == rnd.number:
                status = "disqualified"
            elif rnd.final and name == champion:
                status = "champion"
            elif name in advancing:
                status = "advances"
            elif over:
                status = "eliminated"
            else:
                status = "playing"
            lines.append(
                {
                    "player": name,
                    "table": table.number,
                    "place": place,
                    "final": over,
                    "points": scores[seat],
                    "misplays": rnd.go.count(name),
                    "status": status,
                }
            )
    lines.sort(key=lambda line: (line["place"], -line["points"], line["table"]))
    return lines
