"""The messages a table sends, as pure functions of plain values: the match, the
seats' names, the clocks. No table, no socket: the `Table` picks the values and
sends what these return (docs/protocol.md describes each message).

Every sentence names the seats through a `Narrator` for its reader: "you" for
the reader's own seat, the others by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from pitkit.core.events import Event
from pitkit.core.game import Game
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.server.live.seats import Seat
from pitkit.server.live.wire import (
    AckMessage,
    EarlierHand,
    GameEvent,
    GameView,
    NextHandMessage,
    PauseInfo,
    SaidMessage,
    SettingsInfo,
    SyncMessage,
    TableInfo,
    TableMessage,
    TableStatus,
    TimedOutMessage,
    UpdateMessage,
    WelcomeMessage,
)
from pitkit.server.store.storage import ChatRecord

__all__ = [
    "Clocks",
    "ack",
    "earlier_hands",
    "full_stops",
    "in_names",
    "lost_race",
    "named",
    "narrator",
    "next_hand",
    "said",
    "seat_view",
    "sync",
    "table",
    "table_info",
    "timed_out",
    "update",
    "welcome",
    "worded",
]


@dataclass(frozen=True)
class Clocks:
    """The clocks of a table's pace, as its messages show them (None: not running)."""

    turn_left: float | None = None
    """Seconds left to the person to act now (the turn timer)."""
    sorting_left: float | None = None
    """Seconds before the dealer may open Pit's pit (the sorting period, T3)."""
    next_hand: PauseInfo | None = None
    """The pause between hands: seconds left, who is ready, who is awaited."""


def narrator(labels: Sequence[str], seat: int | None) -> Narrator:
    """Who is who at a table whose seats are called `labels`, for `seat` (None: a spectator)."""
    return Narrator.named(list(labels), seat)


def full_stops(text: str, say: Narrator) -> str:
    """`text` without the second full stop that a name ending in one ("Cyd R.") leaves
    before the sentence's own: "Ann passes to Cyd R." and not "... Cyd R.."."""
    for name in {name for name in say.names if name.endswith(".")}:
        text = text.replace(name + ".", name)
    return text


def in_names(text: str, say: Narrator) -> str:
    """An engine's sentence with the seats called by name (`Narrator.with_names`),
    its full stops right (`full_stops`)."""
    return full_stops(say.with_names(text), say)


def named(view: dict[str, Any], say: Narrator) -> dict[str, Any]:
    """`view` with the engine's sentences in it (each hand's result, the
    outcomes, a score sheet's notes) calling the seats by name, the reader "you".
    Its match record is replaced by a named copy: the engine's stays as it was."""
    if view.get("outcome"):
        view["outcome"] = _named_outcome(view["outcome"], say)
    record = view.get("match")
    if record is not None:
        view["match"] = record = {**record}
        if record.get("outcome"):
            record["outcome"] = _named_outcome(record["outcome"], say)
        record["results"] = [in_names(text, say) for text in record["results"]]
        sheet = record.get("sheet")
        if sheet and sheet.get("lines"):
            lines = [
                {**line, "note": in_names(line["note"], say)} if line.get("note") else line
                for line in sheet["lines"]
            ]
            record["sheet"] = {**sheet, "lines": lines}
    return view


def _named_outcome(outcome: dict[str, Any], say: Narrator) -> dict[str, Any]:
    return {**outcome, "summary": in_names(outcome["summary"], say)}


def worded(game: Game, events: list[dict[str, Any]], say: Narrator) -> list[GameEvent]:
    """Events as one seat saw them, each with its words (`Game.narrate`) in ``text``."""
    out = []
    for event in events:
        text = game.narrate(event, say)
        out.append(cast(GameEvent, {**event, "text": full_stops(text, say) if text else text}))
    return out


def seat_view(match: Match[Any, Any], seat: int | None, say: Narrator) -> GameView:
    """The match's view for `seat`, its sentences naming the seats (`named`)."""
    # The game declares its view (`Game.view_type`); the wire declares what all share.
    return cast(GameView, named(match.view(seat), say))


def table_info(
    *,
    id: str,
    game: str,
    title: str,
    players: int,
    rules: Mapping[str, Any],
    settings: Mapping[str, Any],
    status: str,
    match: int,
    version: int | None,
    to_act: list[int],
    seats: Sequence[Seat],
    spectators: int,
    outcome: str | None,
    problem: str | None,
    created: float,
) -> TableInfo:
    """A table as anyone may see it (never the seed, never a card): the lobby's
    row and the `table` message's body."""
    return {
        "id": id,
        "game": game,
        "title": title,
        "players": players,
        "rules": dict(rules),
        # Both are checked where they are made (`TableSettings`, `TableState`).
        "settings": cast(SettingsInfo, dict(settings)),
        "status": cast(TableStatus, status),
        "match": match,
        "version": version,
        "to_act": to_act,
        "seats": [seat.info() for seat in seats],
        "spectators": spectators,
        "outcome": outcome,
        "problem": problem,
        "created": created,
    }


def table(info: TableInfo) -> TableMessage:
    """The `table` message: the table as anyone may see it, after any change to it."""
    return {"type": "table", "table": info}


def welcome(
    info: TableInfo,
    seat: Seat | None,
    clocks: Clocks,
    chat: Sequence[ChatRecord] | None,
) -> WelcomeMessage:
    """The `welcome` for a socket: the table, the seat it holds, the chat if it hears it
    (None: it does not)."""
    out: WelcomeMessage = {
        "type": "welcome",
        "table": info,
        "seat": seat.index if seat is not None else None,
        "name": seat.name if seat is not None else None,
        # A client that resumes with nothing missed gets no sync: the pause
        # between hands, or that none is on, comes here.
        "next_hand": clocks.next_hand,
    }
    if chat is not None:
        out["chat"] = [said(line) for line in chat]
    return out


def said(line: ChatRecord) -> SaidMessage:
    """A chat message as it is sent: who said it, their name, the words, when."""
    out: SaidMessage = {"type": "said", "name": line.name, "text": line.text, "at": line.at}
    if line.seat is None:
        out["spectator"] = True
    else:
        out["seat"] = line.seat
    return out


def sync(
    game: Game,
    match: Match[Any, Any],
    number: int,
    version: int,
    seat: int | None,
    say: Narrator,
    clocks: Clocks,
    earlier: list[EarlierHand],
) -> SyncMessage:
    """The full view of match `number` at `version` for `seat`, its history in words,
    and the hands before it (`earlier_hands`)."""
    view = seat_view(match, seat, say)
    events = cast(list[dict[str, Any]], view.get("history", []))  # as the engine wrote them
    view["history"] = worded(game, events, say)
    return {
        "type": "sync",
        "match": number,
        "version": version,
        "over": match.is_over,
        "turn_left": clocks.turn_left,
        "sorting_left": clocks.sorting_left,
        "next_hand": clocks.next_hand,
        "view": view,
        "earlier": earlier,
    }


def earlier_hands(
    game: Game, match: Match[Any, Any], seat: int | None, say: Narrator, full: int, most: int
) -> list[EarlierHand]:
    """The match's hands before this one, as `seat` saw them, for the history
    after a sync (a reload, a second device): the latest `full` hands with
    their events (at most `most` each, the last ones: a Pit hand may be
    thousands of trades), older ones by their result alone, so that a long
    match does not send megabytes."""
    hands: list[tuple[int, int, int]] = []  # (number, first event, past its end)
    begin = 0
    for at, event in enumerate(match.log[: match.hand.log_start]):
        if event.type == "scores":  # the last event of every hand
            hands.append((int(event.public["hand"]), begin, at + 1))
            begin = at + 1
    out: list[EarlierHand] = []
    # A judge's voided hand (Pitch) is scored with no result of its own.
    # (A finished match's last hand is the current one, its result among them.)
    scored = len(hands) + (1 if match.is_over else 0)
    results = match.results if len(match.results) == scored else None
    for index, (number, first, end) in enumerate(hands):
        entry: EarlierHand = {"hand": number, "events": []}
        if index < len(hands) - full:
            if results is not None:
                entry["summary"] = in_names(results[index].summary, say)
            events = match.log[end - 1 : end]  # the scores alone
        else:
            events = match.log[max(first, end - most) : end]
            entry["left_out"] = max(0, end - most - first)
        entry["events"] = worded(game, [e.seen_by(seat) for e in events], say)
        out.append(entry)
    return out


def events_since(match: Match[Any, Any], starts: Sequence[int], since: int) -> list[Event]:
    """The match's events of versions since+1 .. now (`starts`: where each version's
    events begin in its log)."""
    return match.log[starts[since + 1] if since + 1 < len(starts) else len(match.log) :]


def update(
    game: Game,
    match: Match[Any, Any],
    number: int,
    starts: Sequence[int],
    since: int,
    seat: int | None,
    say: Narrator,
    clocks: Clocks,
    legal: list[str] | None = None,
) -> UpdateMessage:
    """The events of versions since+1 .. now (`starts`: where each version's events
    begin in the log) as `seat` sees them, and what it may do now (`legal`: its legal
    actions as text, if its view has them already)."""
    to_act = match.to_act
    if seat is None or seat not in to_act:
        legal = []
    elif legal is None:
        legal = [str(a) for a in match.legal_actions(seat)]
    return {
        "type": "update",
        "match": number,
        "from": since,
        "version": len(starts) - 1,
        "events": worded(game, [e.seen_by(seat) for e in events_since(match, starts, since)], say),
        "to_act": sorted(to_act),
        "legal": legal,
        "over": match.is_over,
        "turn_left": clocks.turn_left,
        "sorting_left": clocks.sorting_left,
        "next_hand": clocks.next_hand,
    }


def next_hand(number: int, version: int, clocks: Clocks) -> NextHandMessage:
    """The pace's message (``next_hand``): where the pause between hands stands, and
    the clocks that run once it ends."""
    return {
        "type": "next_hand",
        "match": number,
        "version": version,
        "next_hand": clocks.next_hand,
        "turn_left": clocks.turn_left,
        "sorting_left": clocks.sorting_left,
    }


def ack(ident: str | int | None, number: int, version: int) -> AckMessage:
    """The acknowledgement of a client's action `ident`, stored as `version`."""
    return {"type": "ack", "id": ident, "match": number, "version": version}


def timed_out(seat: int, say: Narrator) -> TimedOutMessage:
    """A person's turn at `seat` ran out, and the stand-in bot moved for them."""
    text = in_names(f"time ran out: a bot played for seat {seat}", say)
    return {"type": "timed_out", "seat": seat, "text": text[:1].upper() + text[1:]}


def lost_race(events: Sequence[Event], seat: int) -> str:
    """What the other seats did (`events`, since the version a late action was
    taken on), as `seat` saw it."""
    acts = [
        f"seat {e['seat']}: {e['action']}" if "action" in e else f"seat {e['seat']} acted"
        for e in (event.seen_by(seat) for event in events)
        if e.get("type") == "action" and "seat" in e
    ]
    return "another action arrived first (" + "; ".join(acts[:5]) + ")"
