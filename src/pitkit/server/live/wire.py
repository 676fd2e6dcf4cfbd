"""What the server sends a table's clients, declared: the play protocol's messages
(docs/protocol.md, "Server to client"), the table object, and the lobby's answers
that the pages read (the games, a match's replay).

Types only: the builders of these messages live beside the table, and
`pitkit.server.wire` writes these declarations, with the games' views, into
the browser's ``static/js/wire.d.ts``, so that TypeScript checks the pages
against them; ``tests/server/test_wire.py`` checks every message of real play
against them.

A game adds fields of its own to its events, its view and its seats: those
three types (`GameEvent`, `GameView`, `GameSeat`, and `ReplayView`) declare the
fields every game has, and the rest is the game's (its view's own declaration,
`Game.view_type`).
"""

# No `from __future__ import annotations` here: on Python 3.11 a TypedDict whose
# annotations are strings cannot tell `NotRequired` keys apart.
from typing import Any, Literal, NotRequired, TypedDict

from pitkit.core.views import Card, TableView

__all__ = [
    "AckMessage",
    "EarlierHand",
    "ErrorCode",
    "ErrorMessage",
    "GameEvent",
    "GameInfo",
    "GameSeat",
    "GameView",
    "NextHandMessage",
    "NoticeMessage",
    "PauseInfo",
    "PongMessage",
    "Replay",
    "ReplayStep",
    "ReplayView",
    "RuleInfo",
    "SaidMessage",
    "SeatInfo",
    "SeatKind",
    "ServerMessage",
    "SettingsInfo",
    "SyncMessage",
    "TableInfo",
    "TableMessage",
    "TableStatus",
    "TimedOutMessage",
    "UpdateMessage",
    "WelcomeMessage",
]

MessageId = str | int
"""A client's own label of a message (a string of up to 64 characters, or an integer)."""

TableStatus = Literal["waiting", "playing", "over", "closed", "expired", "broken"]
"""``waiting`` for players, ``playing``, ``over`` (a rematch may follow), ``closed``
(by its host, or at the move limit), ``expired`` (nobody came) or ``broken`` (the
stored match did not replay)."""

ErrorCode = Literal[
    "already_joined",
    "bad_action",
    "bad_chat",
    "bad_name",
    "bad_token",
    "bad_version",
    "between_hands",
    "chat_too_fast",
    "closed",
    "game_over",
    "hello_first",
    "idle",
    "illegal",
    "lost_race",
    "malformed",
    "no_chat",
    "no_match",
    "no_pause",
    "no_table",
    "not_over",
    "not_your_turn",
    "profile_seated",
    "rate_limited",
    "seat_changed",
    "server_error",
    "spectator",
    "stale",
    "table_full",
    "too_large",
    "unconfirmed",
    "unknown_type",
]
"""Why a message was refused (docs/protocol.md, "Error codes")."""


# -- the table ----------------------------------------------------------------------


class SettingsInfo(TypedDict):
    """How a table runs, as chosen when it was created (`TableSettings.to_json`)."""

    bot_delay: float
    away_timeout: float
    standin: str | None
    listed: bool
    spectator_chat: bool
    turn_seconds: float | None
    next_hand_seconds: float | None
    own_pace: float | None
    """At your own pace: the seconds each move may take (null: an ordinary table)."""
    on_timeout: Literal["standin", "forfeit"]
    """When a move's time runs out: a bot makes it, or the player forfeits the match."""
    event: NotRequired[str]
    """The tournament whose game the table plays, if it does."""


SeatKind = Literal["open", "bot", "player"]
"""What sits in a seat: nobody yet, a bot, or a person."""


class SeatInfo(TypedDict):
    """A seat as anyone may see it."""

    seat: int
    kind: SeatKind
    bot: str | None
    name: str | None
    label: str
    """The name the table shows: the player's, the bot's given name, or "Seat n"."""
    connected: bool
    away: bool
    rematch: bool


class TableInfo(TypedDict):
    """The table as anyone may see it (``GET /api/tables/{id}``, `welcome`, `table`):
    never a card, never the seed."""

    id: str
    game: str
    title: str
    players: int
    rules: dict[str, Any]
    """The rule options that differ from the defaults."""
    settings: SettingsInfo
    status: TableStatus
    match: int
    """The current match's number (0 before the first)."""
    version: int | None
    """The current match's version (-1 before the first; null for a table another
    worker runs, in the lobby's list)."""
    to_act: list[int]
    seats: list[SeatInfo]
    spectators: int
    outcome: str | None
    """The last match's result, in words."""
    problem: str | None
    """Why the table is closed, expired or broken."""
    created: float


class PauseInfo(TypedDict):
    """The pause before the next hand, as anyone may see it."""

    left: float
    """Seconds left in the countdown, as the server counted them when it sent them."""
    ready: list[int]
    """The seats whose players are ready."""
    waiting: list[int]
    """The seats still awaited."""


# -- what a seat sees ---------------------------------------------------------------


class GameEvent(TypedDict):
    """An event as a seat saw it (`Event.seen_by`), worded; a game's events carry
    fields of their own besides."""

    type: str
    text: str | None
    """The event in words as this seat reads it (null: not worth a line)."""


class GameSeat(TypedDict):
    """A seat in a view; a game's seats carry public facts of their own besides."""

    seat: int
    cards: int


class GameView(TableView):
    """A seat's view of its game as the server sends it (`Match.view`, its
    sentences naming the seats); the game's own fields besides."""

    players: list[GameSeat]
    history: NotRequired[list[GameEvent]]  # type: ignore[misc]  # narrows: worded events


class EarlierHand(TypedDict):
    """A hand of the match before this one, for the history after a sync."""

    hand: int
    summary: NotRequired[str]
    """Its result in words (a hand long past, sent without its events)."""
    left_out: NotRequired[int]
    """How many of its first events were left out (a recent hand)."""
    events: list[GameEvent]


# -- the messages -------------------------------------------------------------------


class SaidMessage(TypedDict):
    """Someone said something at the table."""

    type: Literal["said"]
    seat: NotRequired[int]
    """The player's seat (absent for a spectator)."""
    spectator: NotRequired[Literal[True]]
    name: str
    text: str
    at: float
    """When (Unix seconds)."""


class WelcomeMessage(TypedDict):
    """The answer to `hello`; again when the host moves this socket's player."""

    type: Literal["welcome"]
    table: TableInfo
    seat: int | None
    """The seat this socket holds (null: a spectator)."""
    name: str | None
    next_hand: PauseInfo | None
    token: NotRequired[str]
    """The seat's own secret, when this hello claimed it: use it from now on."""
    chat: NotRequired[list[SaidMessage]]
    """The latest messages, oldest first (to those who see the chat)."""


class SyncMessage(TypedDict):
    """A full view: after `hello` (unless resuming), on `sync`, at each new match."""

    type: Literal["sync"]
    match: int
    version: int
    over: bool
    turn_left: float | None
    """Seconds the person to act has left under the turn timer (null: none runs)."""
    sorting_left: float | None
    """Seconds left in Pit's sorting period (null: none runs)."""
    next_hand: PauseInfo | None
    view: GameView
    earlier: list[EarlierHand]


_Since = TypedDict("_Since", {"from": int})
"""An update's first field, the version it follows on from (``from`` is a Python
keyword: no class body can declare it)."""


class UpdateMessage(_Since):
    """Each new version (and the missed ones, on resuming)."""

    type: Literal["update"]
    match: int
    version: int
    events: list[GameEvent]
    """The events of versions ``from`` + 1 to ``version``, as this seat saw them."""
    to_act: list[int]
    legal: list[str]
    over: bool
    turn_left: float | None
    sorting_left: float | None
    next_hand: PauseInfo | None
    view: NotRequired[GameView]
    """The view as of ``version``, if the hello asked for views: without its
    history, and without the match's record unless it changed."""


class NextHandMessage(TypedDict):
    """Between hands: who is ready and who is awaited; and once the hand starts
    (``next_hand`` null), its clocks."""

    type: Literal["next_hand"]
    match: int
    version: int
    next_hand: PauseInfo | None
    turn_left: float | None
    sorting_left: float | None


class TimedOutMessage(TypedDict):
    """The turn timer ran out and the stand-in bot moved for that seat."""

    type: Literal["timed_out"]
    seat: int
    text: str


class NoticeMessage(TypedDict):
    """The host changed a seat, in words for each reader."""

    type: Literal["notice"]
    text: str


class AckMessage(TypedDict):
    """An action was accepted and stored, as this version (its update follows)."""

    type: Literal["ack"]
    id: MessageId | None
    match: int
    version: int


class ErrorMessage(TypedDict):
    """A message was refused; nothing changed."""

    type: Literal["error"]
    code: ErrorCode
    reason: str
    id: NotRequired[MessageId]
    match: NotRequired[int]
    version: NotRequired[int]


class TableMessage(TypedDict):
    """Seats, connections, absences or rematch requests changed."""

    type: Literal["table"]
    table: TableInfo


class PongMessage(TypedDict):
    """The answer to `ping`."""

    type: Literal["pong"]
    id: MessageId | None


ServerMessage = (
    WelcomeMessage
    | SyncMessage
    | UpdateMessage
    | NextHandMessage
    | SaidMessage
    | TimedOutMessage
    | NoticeMessage
    | AckMessage
    | ErrorMessage
    | TableMessage
    | PongMessage
)
"""Every message the server sends on a table's socket."""


# -- the lobby's answers ------------------------------------------------------------


class RuleInfo(TypedDict):
    """A rule option of a game."""

    name: str
    label: str
    type: str
    default: Any
    doc: str
    choices: list[Any]


class GameInfo(TypedDict):
    """A game as ``GET /api/games`` lists it."""

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    default_players: int
    realtime: bool
    rules: list[RuleInfo]
    bots: dict[str, str]
    """Each bot's description, by name."""
    heuristic: str | None
    opponent: str
    """The bot a new seat gets."""
    module: str | None
    """The URL of the game's own browser module (null: drawn from its view's schema)."""
    view_schema: dict[str, Any] | None
    """The JSON Schema of its view."""


class ReplayView(GameView):
    """A view in a replay: without the history and the legal actions, and without
    the match's record unless it changed; all-seeing, with every seat's cards."""

    hands: NotRequired[list[list[Card]]]


class ReplayStep(TypedDict):
    """One version of a replayed match: its events, and the view after them."""

    version: int
    events: list[GameEvent]
    view: ReplayView


class Replay(TypedDict):
    """A finished match, version by version (``GET .../matches/{n}/replay``)."""

    match: int
    seat: int | None
    """Whose eyes (null: all-seeing)."""
    labels: list[str]
    steps: list[ReplayStep]
