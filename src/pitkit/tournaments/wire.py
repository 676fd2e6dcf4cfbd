"""What a tournament's pages read, declared: the tournament as a link's role sees
it (``GET /api/events/{id}``), its log, and each kind's view (`Kind.view`), public
and per role.

Types only: `pitkit.server.wire` writes them into the browser's
``static/js/wire.d.ts``, and ``tests/server/test_wire.py`` checks the views of
tournaments played through the API against them.
"""

# No `from __future__ import annotations` here: on Python 3.11 a TypedDict whose
# annotations are strings cannot tell `NotRequired` keys apart.
from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "CheckInMark",
    "CheckInView",
    "HallCall",
    "HallClock",
    "HallInfo",
    "LinkHolder",
    "PitchAppeal",
    "PitchBidding",
    "PitchCall",
    "PitchDisqualified",
    "PitchGoRound",
    "PitchJudge",
    "PitchMine",
    "PitchMisplay",
    "PitchPad",
    "PitchPadLine",
    "PitchPending",
    "PitchRoundStandings",
    "PitchSpot",
    "PitchStanding",
    "PitchTournamentOutcome",
    "PitchTournamentRules",
    "PitchTournamentTable",
    "PitchTournamentView",
    "PitsFirstDealer",
    "PitsPrizeLine",
    "PitsPrizeTables",
    "PitsTournamentGame",
    "PitsTournamentHand",
    "PitsTournamentRules",
    "PitsTournamentView",
    "TournamentEntry",
    "TournamentInfo",
    "TournamentView",
]


# -- every kind ---------------------------------------------------------------------


class LinkHolder(TypedDict):
    """Who holds the page's link: their role and, for a player or a judge, their name."""

    role: str
    name: str | None


class TournamentEntry(TypedDict):
    """One entry of the tournament's log (`Entry.to_json`), with what corrected it."""

    seq: int
    at: float
    role: str
    author: str | None
    by: str
    """The author in words: "the manager", "judge Ann", "Bob"."""
    type: str
    data: dict[str, Any]
    corrects: int | None
    """The earlier entry this one replaces."""
    corrected_by: list[int]


class CheckInMark(TypedDict):
    """A player's last check-in entry: present or absent, its number, who made it
    ("Ann": she opened her link; "the manager": ticked at the desk)."""

    present: bool
    entry: int
    by: str


class CheckInView(TypedDict):
    """The check-in desk (`pitkit.tournaments.checkin`): whether the event keeps one,
    who may be seated (everyone on the roster without a desk) and who not."""

    on: bool
    present: list[str]
    absent: list[str]
    marks: dict[str, CheckInMark]


# -- BGA continuous Pits ------------------------------------------------------------


class PitsTournamentHand(TypedDict):
    """One hand on a game's sheet."""

    hand: int
    order: list[str]
    """The finishing order, 1st to 5th."""
    points: dict[str, int]
    dealt: str | None
    """Who dealt it: the game's first dealer (null if not recorded) for hand 1, then
    the last hand's 3rd."""
    dealer: str
    """Who deals next: the 3rd."""
    entry: int
    """The entry that made it (the one to correct)."""


class PitsFirstDealer(TypedDict):
    """Who dealt a game's first hand, and how: chosen by the scorer, drawn by the
    server "as the first Jack turned up" (with its seed and the cards turned up, each
    [player, card]), or by the online table."""

    player: str
    how: Literal["chosen", "drawn", "online"]
    entry: int
    seed: int | None
    turned: list[list[str]]


class PitsTournamentGame(TypedDict):
    """One game: its table and scorer, its seats and hands, and where its sheet stands."""

    game: int
    table: str
    scorer: str
    online: str | None
    """The pitkit table it is played at, which enters its hands."""
    first_dealer: PitsFirstDealer | None
    seats: list[list[str]]
    """Each seat's occupants in order; the last one sits there now."""
    at_table: list[str]
    hands: list[PitsTournamentHand]
    points: dict[str, int]
    complete: bool
    """Whether it has its ten hands."""
    ruled_off: bool
    signatures: list[str]
    confirmed: bool
    """Whether everyone at the table signed."""


class PitsPrizeLine(TypedDict):
    """A line of a prize table: the rank (shared when tied), totals and eligibility."""

    rank: int
    tied: bool
    player: str
    points: int
    games: int
    full_games: int
    hands: int
    percentage: float
    eligible: bool


class PitsPrizeTables(TypedDict):
    """Both prize tables: the most points, and the best percentage."""

    points: list[PitsPrizeLine]
    percentage: list[PitsPrizeLine]


class PitsTournamentRules(TypedDict):
    """The rules' numbers."""

    hands_a_game: int
    games_for_percentage: int


class PitsTournamentView(TypedDict):
    """A continuous Pits tournament (the same for every role): the roster, every
    game, both prize tables."""

    players: list[str]
    games: list[PitsTournamentGame]
    standings: PitsPrizeTables
    rules: PitsTournamentRules
    check_in: CheckInView


# -- Darrtown Pitch -----------------------------------------------------------------


class PitchPad(TypedDict):
    """A hand as its dealer wrote it on the pad (``jack`` null when the Jack of trump
    was not dealt, ``game`` null for a tie)."""

    bid: int
    pitcher: str
    trump: str
    high: str
    low: str
    jack: str | None
    game: str | None


class PitchCall(TypedDict):
    """One call of a hand's bidding: who made it, the call as the game writes it
    ("pass", "bid 3", "steal 4", "take", "run", "sell") and in the seed's words
    ("took it for one more (4)")."""

    player: str
    call: str
    words: str


class PitchBidding(TypedDict):
    """A hand's bidding as recorded, in the order made, and what it decided: the
    pitcher, the bid, and the highest bid made (what an offender loses for a misplay)."""

    entry: int
    """The entry that recorded it."""
    calls: list[PitchCall]
    pitcher: str
    bid: int
    highest: int


class PitchPadLine(TypedDict):
    """One line of a table's pad: a hand (pending until its judge initials it), a
    hand voided or dealt again, or a misplay ruled."""

    line: int
    kind: Literal["hand", "void", "redeal", "misplay"]
    entry: int
    dealer: str
    seated: list[str]
    pad: PitchPad | None
    changes: dict[str, int]
    scores: dict[str, int]
    note: str
    redeal: bool
    voided: bool
    status: Literal["pending", "confirmed", "voided", "ruled", "recorded"]
    pending: bool
    initials: str | None
    confirmed_by: str | None
    confirm_entry: int | None
    bidding: PitchBidding | None
    """The hand's bidding, when recorded (a hand), or the misplayed hand's (a misplay)."""
    counts: dict[str, int] | None
    """Each player's counted game points, when recorded (by the dealer, or the judge
    who initialled the line)."""
    counted_by: str | None


class PitchAppeal(TypedDict):
    """A misplay appealed to a table's judge, and what became of it."""

    appeal: int
    round: int
    table: int
    by: str
    offender: str
    note: str
    status: Literal["open", "misplay", "dismissed"]
    ruling: int | None
    """The entry that ruled on it."""


class PitchTournamentOutcome(TypedDict):
    """How the game at a table ended."""

    summary: str
    winner: str | None
    places: dict[str, int]
    how: str | None


class PitchTournamentTable(TypedDict):
    """A table of a Go-Round: its players in seat order, its judge, the cut, who
    deals and plays now, its pad, an open appeal, and once over who goes on."""

    round: int
    table: int
    label: str
    players: list[str]
    judge: str | None
    online: str | None
    """The pitkit table it is played at, which enters the cut and the pad's lines."""
    cut: int | None
    """The entry of the cut for the deal."""
    dealer: str | None
    seated: list[str]
    sitting_out: list[str]
    scores: dict[str, int]
    deals: dict[str, int]
    misplays: dict[str, int]
    disqualified: list[str]
    next_line: int | None
    lines: list[PitchPadLine]
    pending: list[int]
    """The pad's lines no judge has initialled yet."""
    appeal: PitchAppeal | None
    bidding: PitchBidding | None
    """The bidding of the hand in play, once its dealer has recorded it."""
    calling_order: list[str]
    """Who calls in the hand in play, in order: from the dealer's left, the dealer last."""
    outcome: PitchTournamentOutcome | None
    over: bool
    advancing: list[str]


class PitchStanding(TypedDict):
    """A player's place in a Go-Round (final once the table's game is over)."""

    player: str
    table: int
    place: int
    final: bool
    points: int
    misplays: int
    status: Literal["playing", "advances", "eliminated", "disqualified", "champion"]


class PitchGoRound(TypedDict):
    """A Go-Round: how it was seated, its tables, its misplays and standings."""

    round: int
    by: str
    seed: int | None
    entry: int
    final: bool
    over: bool
    tables: list[PitchTournamentTable]
    misplays: dict[str, int]
    standings: list[PitchStanding]


class PitchPending(TypedDict):
    """A hand on a pad waiting for its judge's initials."""

    round: int
    table: int
    line: int
    entry: int
    judge: str | None
    dealer: str
    note: str
    players: list[str]
    """Who played the hand: whose game points the judge counts."""
    game: str | None
    """Who the line gives the game point to (null: a tie)."""
    counts: dict[str, int] | None
    """The counts the line was recorded with, if any."""


class PitchMisplay(TypedDict):
    """A line of the manager's misplay register."""

    round: int
    table: int
    player: str
    ruling: Literal["correctable", "not correctable"]
    highest_bid: int | None
    bidding: int | None
    """The entry of the recorded bidding the highest bid comes from (null: the judge
    gave it, as no bidding was recorded)."""
    lost: int
    judge: str
    initials: str | None
    entry: int
    appeal: int
    line: int
    in_round: int
    """The player's misplays in the Go-Round, this one included."""
    disqualified: bool


class PitchSpot(TypedDict):
    """A table, by its Go-Round and number."""

    round: int
    table: int


class PitchJudge(TypedDict):
    """A judge, their initials and their tables."""

    name: str
    initials: str
    tables: list[PitchSpot]


class PitchDisqualified(TypedDict):
    """A player disqualified, where, and by which entry."""

    player: str
    round: int
    table: int
    entry: int


class PitchRoundStandings(TypedDict):
    """A Go-Round's standings."""

    round: int
    lines: list[PitchStanding]


class PitchTournamentRules(TypedDict):
    """The rules' numbers."""

    seats: tuple[int, int]
    """The fewest and most players at a table."""
    deals_each: int
    advance: int
    """How many go on from each table."""
    misplays_to_disqualify: int


class PitchMine(TypedDict):
    """A judge's tables in the Go-Round now, with what waits for them; a player's table."""

    tables: list[PitchSpot]
    pending: list[PitchPending]
    appeals: list[PitchAppeal]


class PitchTournamentView(TypedDict):
    """A Darrtown Pitch tournament: rosters, Go-Rounds, what waits for a judge, the
    register, the champion; ``mine`` for a judge or a player."""

    players: list[str]
    judges: list[PitchJudge]
    rounds: list[PitchGoRound]
    pending: list[PitchPending]
    appeals: list[PitchAppeal]
    """The open appeals."""
    all_appeals: list[PitchAppeal]
    register: list[PitchMisplay]
    disqualified: list[PitchDisqualified]
    standings: list[PitchRoundStandings]
    champion: str | None
    status: str
    """What happens next, in a sentence."""
    rules: PitchTournamentRules
    check_in: CheckInView
    mine: NotRequired[PitchMine]


TournamentView = PitsTournamentView | PitchTournamentView
"""A kind's view of its tournament."""


class HallClock(TypedDict):
    """The round clock (`pitkit.tournaments.clock`): it counts down to `ends` (the
    server's time: the news stream sends the server's ``now``) while it runs, or shows
    `left` while paused."""

    label: str
    seconds: float
    running: bool
    ends: float | None
    left: float | None
    entry: int
    by: str


class HallCall(TypedDict):
    """A call to the judge not done yet (`pitkit.tournaments.calls`): `call` is its
    entry; `judge` None: the manager is called; status open or coming."""

    call: int
    at: float
    player: str
    where: str
    judge: str | None
    status: str
    answered_by: str | None
    answered_at: float | None


class HallInfo(TypedDict):
    """The hall as the link's role sees it: the round clock, and the calls not done
    yet that the reader answers or made."""

    clock: HallClock | None
    calls: list[HallCall]


class TournamentInfo(TypedDict):
    """The tournament as the link's role sees it (``GET /api/events/{id}``): its
    kind's view, and its log."""

    id: str
    kind: str
    title: str
    name: str
    created: float
    options: dict[str, Any]
    me: LinkHolder
    hall: HallInfo
    view: TournamentView
    log: list[TournamentEntry]
