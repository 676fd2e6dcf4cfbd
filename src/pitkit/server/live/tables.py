"""The table runtime: one match at a time per table, its seats, sockets and bots.

A `Table` owns its `Match` and is the only thing that changes it. Every
change goes the same way, under the table's lock (FIFO, so simultaneous
actions are taken in order of arrival): apply the action to the match (which
refuses illegal ones and changes nothing), store the step and wait for the
commit, then acknowledge it and send each connection the events its seat may
see (`Event.seen_by`). Nothing else about the match ever leaves the server:
views come from `Match.view(seat)`, and the seed stays in the database.

Versions count accepted actions in the current match: version 0 is the deal,
version v the state after the v-th action. A rematch starts match n + 1 at
version 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pitkit import bots as bot_registry
from pitkit import games, play
from pitkit.core.actions import Action
from pitkit.core.errors import BadActionError, IllegalActionError
from pitkit.core.events import Event
from pitkit.core.game import Bot, Game
from pitkit.core.match import Match
from pitkit.core.narrate import Narrator
from pitkit.core.rules import RuleSet
from pitkit.server.live.protocol import ProtocolError, error
from pitkit.server.live.thinking import Thinker
from pitkit.server.ops.metrics import Metrics
from pitkit.server.ops.settings import NORMAL_BOT_DELAY, Bucket, Limits, TableSettings
from pitkit.server.ops.tokens import hash_token, new_token
from pitkit.server.store import storage
from pitkit.server.store.storage import ChatRecord, SeatRecord, Store, TableRecord

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

__all__ = ["Conn", "Rebuilt", "Seat", "Table", "rebuild"]

log = logging.getLogger("pitkit.server")

#: How often a real-time bot that chose to wait looks again, at most.
WAIT_POLL = 0.5

#: Why a table takes no more moves, by status (a closed table's own reason,
#: when it was given since the server started, is more precise).
_ENDED = {"expired": "nobody came to play in time", "closed": "the table is closed"}

#: What sits in a seat, in words, by kind.
_KINDS = {"open": "an open seat", "bot": "a bot", "player": "a player"}

#: The names bots go by at a table, by seat.
BOT_NAMES = ("Ada", "Bix", "Cyd", "Dee", "Eko", "Fen", "Gil", "Hal", "Ivy", "Jax")


class Conn:
    """One WebSocket client. Messages go through an outbox drained by `pump`,
    so a slow reader never holds up a table; one that falls too far behind
    is disconnected and resyncs when it comes back."""

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.ws = ws
        self.limits = limits
        self.table: Table | None = None
        self.seat: int | None = None
        self.joined = False
        self.views = False
        """Whether this client asked for its view in every update (hello's `views`)."""
        self.name: str | None = None
        """The name given in hello (a spectator's, for the chat)."""
        self.said = Bucket(limits.chat_rate, limits.chat_burst)
        """This client's chat messages, rate-limited apart from its moves."""
        self.closed = False
        self.close_code = 1000
        self.opened = time.monotonic()
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, message: Mapping[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded)."""
        if self.closed:
            return
        if self._outbox.qsize() >= self.limits.outbox:
            self.close(4008)
            return
        self._outbox.put_nowait(message if isinstance(message, str) else _dumps(message))

    def close(self, code: int = 1000) -> None:
        """Send what is queued, then close the socket with `code`."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self._outbox.put_nowait(None)

    async def pump(self) -> None:
        """Write queued messages to the socket until closed."""
        while True:
            text = await self._outbox.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(self.close_code)
                return
            await self.ws.send_text(text)


def _dumps(message: Mapping[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


@dataclass(eq=False)
class Seat:
    """A seat: open, a named bot, or a player; its token, sockets and absence."""

    index: int
    kind: str  # open | bot | player
    bot: str | None
    name: str | None
    token_hash: str
    conns: set[Conn] = field(default_factory=set)
    away: bool = False
    timer: asyncio.TimerHandle | None = None
    rematch: bool = False

    def stop_timer(self) -> None:
        """Forget the absence timer, if one runs (the player is back, or gone for good)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def record(self) -> SeatRecord:
        """This seat as stored."""
        return SeatRecord(self.index, self.kind, self.bot, self.name, self.token_hash)

    @property
    def label(self) -> str:
        """The name the table shows: the player's, the bot's given name, or "Seat n"."""
        if self.kind == "player":
            return self.name or f"Player {self.index + 1}"
        if self.kind == "bot":
            return BOT_NAMES[self.index % len(BOT_NAMES)]
        return f"Seat {self.index + 1}"

    def info(self) -> dict[str, Any]:
        """This seat as anyone may see it."""
        return {
            "seat": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "label": self.label,
            "connected": bool(self.conns),
            "away": self.away,
            "rematch": self.rematch,
        }


@dataclass(eq=False)
class Pause:
    """The pause between two hands where people sit: the next hand, dealt already,
    starts when every person present is ready, or when the countdown runs out."""

    ends: float
    """When the countdown runs out (`time.monotonic`)."""
    timer: asyncio.TimerHandle
    ready: set[int] = field(default_factory=set)
    """The seats whose players said they are ready."""


class Table:
    """One table: its seats, its current match, its connections and bots."""

    def __init__(
        self,
        record: TableRecord,
        store: Store,
        limits: Limits,
        thinker: Thinker,
        metrics: Metrics,
        rebuilt: Rebuilt | None = None,
        creator: str | None = None,
    ) -> None:
        """`rebuilt` is the stored match replayed (`rebuild`), when the caller
        did that off the event loop; `creator` the address that created the table."""
        self.id = record.id
        self.game: Game = games.get(record.game)
        self.players = record.players
        self.rules: RuleSet = self.game.make_rules(record.rules)
        self.settings = TableSettings.from_json(record.settings)
        self.host_hash = record.host_hash
        self.status = record.status
        self.match_no = record.match_no
        self.created = record.created
        self.store = store
        self.limits = limits
        self.thinker = thinker
        self.metrics = metrics
        self.creator = creator
        self.touched = max(record.created, record.updated)
        """When anything last happened here (wall-clock seconds), for expiry."""
        self.seats = [
            Seat(s.seat, s.kind, s.bot, s.name, s.token_hash)
            for s in sorted(record.seats, key=lambda s: s.seat)
        ]
        self.spectators: set[Conn] = set()
        self.match: Match[Any, Any] | None = None
        self.starts: list[int] = []
        self.problem: str | None = _ENDED.get(self.status)
        self.lock = asyncio.Lock()
        self.clock: play.Table | None = None
        """The match's real-time clock (`pitkit.play.Table`): the sorting period
        (T3) and each hand's timings, for a game played in real time."""
        self._bots: dict[int, Bot] = {}
        self._standins: dict[int, Bot] = {}
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        self._changed = asyncio.Event()
        self._closing = False
        self._records: dict[int | None, tuple[int, int, Any]] = {}
        """Per seat, the (match, version, `match` part of the view) last put in an update."""
        self._bot_pace = Bucket(limits.bot_actions_per_second, 1)
        self._turn_timer: asyncio.TimerHandle | None = None
        self._turn_ends: float | None = None
        """When the turn timer runs out for the person to act now (`time.monotonic`)."""
        self._pause: Pause | None = None
        """The pause before the hand just dealt, while it lasts (`_pause_after`)."""
        self._timing_out: asyncio.Task[None] | None = None
        self._recheck: asyncio.Task[None] | None = None
        self._verify = False
        """Set when a store failed: memory may be behind what the database holds."""
        self._claimed: dict[str, int] = {}
        """Invitations (by hash) whose seat was claimed since the server started: the
        seat they opened, to say it is taken."""
        self.chat: list[ChatRecord] = list(record.chat)[-limits.chat_kept :]
        """The latest chat messages, oldest first."""
        self._chat_seq = record.chat[-1].seq if record.chat else 0
        self.on_step: Callable[[Table], None] | None = None
        """Told of every stored step and new match (an event's table feeds its event)."""
        if record.match is not None:
            self._adopt_match(rebuilt or rebuild(self.game, record))

    # -- building -----------------------------------------------------------

    def _adopt_match(self, rebuilt: Rebuilt) -> None:
        """Take the stored match as replayed; one that does not replay marks the table broken."""
        if rebuilt.match is None:
            self.status, self.problem = "broken", rebuilt.problem
            return
        self.match, self.starts = rebuilt.match, rebuilt.starts
        self._drop_pause()  # a match read again goes straight on
        self._new_clock()
        self._new_bots()

    @property
    def watched(self) -> bool:
        """Whether anyone has a socket open here."""
        return bool(self.spectators) or any(seat.conns for seat in self.seats)

    async def expire(self) -> None:
        """A table that waited too long for its players: stored as expired."""
        async with self.lock:
            if self.status == "waiting":
                await self.store.run(storage.set_status(self.id, "expired"))
                self.status, self.problem = "expired", _ENDED["expired"]

    def start_timers(self) -> None:
        """After a restart nobody is connected: start every player seat's absence timer."""
        for seat in self.seats:
            self._watch_absence(seat)

    # -- what anyone may see ----------------------------------------------

    @property
    def version(self) -> int:
        """The current version of the current match (-1 before the first)."""
        return len(self.starts) - 1

    def info(self) -> dict[str, Any]:
        """The table as anyone may see it (never the seed, never a card)."""
        match = self.match
        outcome = match.outcome if match is not None else None
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.players,
            "rules": self.rules.changed(),
            "settings": self.settings.to_json(),
            "status": self.status,
            "match": self.match_no,
            "version": self.version,
            "to_act": sorted(match.to_act) if match is not None else [],
            "seats": [seat.info() for seat in self.seats],
            "spectators": len(self.spectators),
            "outcome": self.narrator(None).with_names(outcome.summary) if outcome else None,
            "problem": self.problem,
            "created": self.created,
        }

    def _conns(self) -> list[Conn]:
        out = list(self.spectators)
        for seat in self.seats:
            out.extend(seat.conns)
        return out

    def _broadcast_table(self) -> None:
        text = _dumps({"type": "table", "table": self.info()})
        for conn in self._conns():
            conn.send(text)

    def narrator(self, seat: int | None) -> Narrator:
        """Who is who at this table, for `seat` (None: a spectator)."""
        return Narrator.named([s.label for s in self.seats], seat)

    def _worded(self, events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
        """Events as `seat` saw them, each with its words (`Game.narrate`) in ``text``."""
        say = self.narrator(seat)
        return [{**event, "text": self.game.narrate(event, say)} for event in events]

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The match's view for `seat`, its sentences naming the seats (`named`)."""
        assert self.match is not None
        return named(self.match.view(seat), self.narrator(seat))

    def _sync_message(self, seat: int | None) -> dict[str, Any]:
        assert self.match is not None
        view = self._view(seat)
        view["history"] = self._worded(view.get("history", []), seat)
        return {
            "type": "sync",
            "match": self.match_no,
            "version": self.version,
            "over": self.match.is_over,
            "turn_left": self._turn_left(),
            "sorting_left": self._sorting_left(),
            "next_hand": self._next_hand(),
            "view": view,
            "earlier": self._earlier(seat),
        }

    def _earlier(self, seat: int | None) -> list[dict[str, Any]]:
        """The match's hands before this one, as `seat` saw them, for the history
        after a sync (a reload, a second device): the latest `history_hands` with
        their events (at most `history_events` each, the last ones: a Pit hand may
        be thousands of trades), older ones by their result alone, so that a long
        match does not send megabytes."""
        match = self.match
        assert match is not None
        hands: list[tuple[int, int, int]] = []  # (number, first event, past its end)
        begin = 0
        for at, event in enumerate(match.log[: match.hand.log_start]):
            if event.type == "scores":  # the last event of every hand
                hands.append((int(event.public["hand"]), begin, at + 1))
                begin = at + 1
        say = self.narrator(seat)
        full = self.limits.history_hands
        most = self.limits.history_events
        out: list[dict[str, Any]] = []
        # A judge's voided hand (Pitch) is scored with no result of its own.
        # (A finished match's last hand is the current one, its result among them.)
        scored = len(hands) + (1 if match.is_over else 0)
        results = match.results if len(match.results) == scored else None
        for index, (number, first, end) in enumerate(hands):
            entry: dict[str, Any] = {"hand": number}
            if index < len(hands) - full:
                if results is not None:
                    entry["summary"] = say.with_names(results[index].summary)
                events = match.log[end - 1 : end]  # the scores alone
            else:
                events = match.log[max(first, end - most) : end]
                entry["left_out"] = max(0, end - most - first)
            entry["events"] = self._worded([e.seen_by(seat) for e in events], seat)
            out.append(entry)
        return out

    def _update_message(self, seat: int | None, since: int, view: bool = False) -> dict[str, Any]:
        """The events of versions since+1 .. now as `seat` sees them, and what it may do
        now; with `view`, also the seat's view as of now, less what the client holds
        already: the history (it has the events) and, unless it changed since `since`,
        the match's record (the score sheet, which grows with every hand)."""
        match = self.match
        assert match is not None
        start = self.starts[since + 1] if since + 1 < len(self.starts) else len(match.log)
        to_act = match.to_act
        message = {
            "type": "update",
            "match": self.match_no,
            "from": since,
            "version": self.version,
            "events": self._worded([event.seen_by(seat) for event in match.log[start:]], seat),
            "to_act": sorted(to_act),
            "legal": (
                [str(a) for a in match.legal_actions(seat)]
                if seat is not None and seat in to_act
                else []
            ),
            "over": match.is_over,
            "turn_left": self._turn_left(),
            "sorting_left": self._sorting_left(),
            "next_hand": self._next_hand(),
        }
        if view:
            shown = self._view(seat)
            shown.pop("history", None)
            record = shown.get("match")
            known = self._records.get(seat)
            self._records[seat] = (self.match_no, self.version, record)
            if known is not None and known[:2] == (self.match_no, since) and known[2] == record:
                del shown["match"]
            message["view"] = shown
        return message

    def _broadcast_update(self, since: int) -> None:
        # Each distinct message is built and encoded once, however many sockets get it.
        cache: dict[tuple[int | None, bool], str] = {}
        for conn in self._conns():
            key = (conn.seat, conn.views)
            text = cache.get(key)
            if text is None:
                text = cache[key] = _dumps(self._update_message(conn.seat, since, conn.views))
            conn.send(text)

    def _broadcast_sync(self) -> None:
        cache: dict[int | None, str] = {}
        for conn in self._conns():
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = _dumps(self._sync_message(conn.seat))
            conn.send(text)

    def _stamp(self) -> dict[str, Any]:
        return {"match": self.match_no, "version": self.version}

    # -- connections ------------------------------------------------------

    def seat_for_token(self, token: str) -> Seat | None:
        """The seat whose secret token this is, if any."""
        digest = hash_token(token)
        for seat in self.seats:
            if hmac.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def _refusal(self, token: str) -> ProtocolError:
        """Why `token` opens no seat: an invitation whose seat was claimed says so."""
        index = self._claimed.get(hash_token(token))
        if index is None:
            return ProtocolError("bad_token")
        seat = self.seats[index]
        holder = seat.label if seat.kind == "player" else "someone else"
        return ProtocolError(
            "bad_token",
            f"this invitation's seat is taken: {holder} has it. You can watch; "
            "ask the host to give you a seat",
        )

    async def attach(
        self,
        conn: Conn,
        token: str | None,
        name: str | None,
        match_no: int | None,
        version: int | None,
    ) -> None:
        """Join `conn` as a seat (by token) or a spectator, and bring it up to date."""
        async with self.lock:
            seat = None
            secret = None
            if token is not None:
                seat = self.seat_for_token(token)
                if seat is None:
                    raise self._refusal(token)
            if seat is None and len(self.spectators) >= self.limits.spectators_per_table:
                raise ProtocolError("table_full", "the table has as many spectators as it takes")
            if seat is not None and seat.kind == "bot":
                raise ProtocolError("bad_token", "a bot plays this seat now")
            if seat is not None and seat.kind == "open":
                secret = await self._claim(seat, name)
            if seat is not None and len(seat.conns) >= self.limits.sockets_per_seat:
                # The newest device wins: a player is never locked out of their seat.
                oldest = min(seat.conns, key=lambda c: c.opened)
                self._let_go(seat, "this seat was opened on another device", [oldest])
            self.touched = time.time()
            conn.table, conn.joined = self, True
            if seat is None:
                conn.seat = None
                self.spectators.add(conn)
            else:
                conn.seat = seat.index
                seat.conns.add(conn)
                seat.stop_timer()
                seat.away = False
            welcome = self._welcome(conn)
            if secret is not None:
                welcome["token"] = secret  # the seat's own secret from now on
            conn.send(welcome)
            if self._turn_timer is None and self.status == "playing":
                self._restart_turn_clock()  # after a restart, or a player's return
            self._catch_up(conn, match_no, version)
            self._broadcast_table()
            if self._pause is not None and seat is not None:
                self._broadcast_pacing()  # one more person to wait for, or back ready
            if self.status == "waiting" and not any(s.kind == "open" for s in self.seats):
                await self._start_match()
        self._schedule_bots()

    def _welcome(self, conn: Conn) -> dict[str, Any]:
        """The `welcome` for `conn`: the table, the seat it holds, the chat if it hears it."""
        seat = self.seats[conn.seat] if conn.seat is not None else None
        welcome: dict[str, Any] = {
            "type": "welcome",
            "table": self.info(),
            "seat": conn.seat,
            "name": seat.name if seat is not None else None,
            # A client that resumes with nothing missed gets no sync: the pause
            # between hands, or that none is on, comes here.
            "next_hand": self._next_hand(),
        }
        if self._hears(conn):
            welcome["chat"] = [self._said(said) for said in self.chat]
        return welcome

    def _let_go(self, seat: Seat, why: str, conns: list[Conn] | None = None) -> None:
        """Close sockets holding `seat` (by default all of them), each told `why` first
        (a `bad_token` error, then close code 4003: the seat is no longer theirs)."""
        for conn in list(seat.conns) if conns is None else conns:
            conn.send(error("bad_token", why))
            conn.close(4003)
            seat.conns.discard(conn)

    def _tell(self, words: Callable[[int | None], str]) -> None:
        """Send every socket a `notice`: what the host did, a sentence in words for its
        seat (`words(seat)`: "you" for the seat concerned, its name for the others)."""
        cache: dict[int | None, str] = {}
        for conn in self._conns():
            text = cache.get(conn.seat)
            if text is None:
                said = words(conn.seat)
                said += "" if said.endswith((".", "!", "?")) else "."  # "renamed you Ann B."
                text = cache[conn.seat] = _dumps({"type": "notice", "text": said})
            conn.send(text)

    def _catch_up(self, conn: Conn, match_no: int | None, version: int | None) -> None:
        """Missed events if the gap is small, else the full view."""
        if self.match is None:
            return
        if (
            match_no == self.match_no
            and version is not None
            and version <= self.version
            and self.version - version <= self.limits.resync_gap
        ):
            if version < self.version:
                conn.send(self._update_message(conn.seat, version, conn.views))
            return
        conn.send(self._sync_message(conn.seat))

    async def sync(self, conn: Conn) -> None:
        """Send `conn` the full view of the current match."""
        async with self.lock:
            if self.match is None:
                raise ProtocolError("no_match")
            conn.send(self._sync_message(conn.seat))

    def detach(self, conn: Conn) -> None:
        """Forget a closed connection; a player's seat starts its absence timer."""
        self.spectators.discard(conn)
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.conns.discard(conn)
            self._watch_absence(seat)
        if not self._closing:
            self._broadcast_table()
            self._review_pause()

    def _watch_absence(self, seat: Seat) -> None:
        if (
            seat.kind != "player"
            or seat.conns
            or seat.away
            or seat.timer is not None
            or self.settings.away_timeout <= 0
            or self._closing
        ):
            return
        loop = asyncio.get_running_loop()
        seat.timer = loop.call_later(self.settings.away_timeout, self._go_away, seat)

    def _go_away(self, seat: Seat) -> None:
        seat.timer = None
        if seat.conns or seat.kind != "player":
            return
        seat.away = True
        self._broadcast_table()
        self._review_pause()
        self._schedule_bots()

    async def _claim(self, seat: Seat, name: str | None) -> str | None:
        """Give an open seat to the player holding its invitation (stored first), or
        rename a claimed seat's player. Claiming gives the seat a new secret, returned
        to the claimer alone: from then on the seat answers to it, and the invitation
        (which the host holds too) opens nothing."""
        if seat.kind == "open" and self.status in ("closed", "expired"):
            raise ProtocolError("closed", self.problem)
        clean = _clean_name(name, self.limits.name_chars) or (
            seat.name if seat.kind == "player" and seat.name else f"Player {seat.index + 1}"
        )
        secret = new_token() if seat.kind == "open" else None
        digest = hash_token(secret) if secret is not None else seat.token_hash
        claimed = SeatRecord(seat.index, "player", None, clean, digest)
        await self.store.run(storage.save_seat(self.id, claimed))
        if secret is not None:
            self._claimed[seat.token_hash] = seat.index
        seat.kind, seat.bot, seat.name, seat.away = "player", None, clean, False
        seat.token_hash = digest
        self.touched = time.time()
        return secret

    async def join(self, token: str, name: str | None) -> tuple[int, str | None]:
        """Claim the open seat of an invitation over HTTP (or rename one's own);
        returns the seat, and its new secret when it was claimed."""
        async with self.lock:
            seat = self.seat_for_token(token)
            if seat is None:
                raise self._refusal(token)
            if seat.kind == "bot":
                raise ProtocolError("bad_token", "a bot plays this seat now")
            secret = None
            if seat.kind == "open" or _clean_name(name, self.limits.name_chars):
                secret = await self._claim(seat, name)
            self._broadcast_table()
            if self.status == "waiting" and not any(s.kind == "open" for s in self.seats):
                await self._start_match()
        self._schedule_bots()
        return seat.index, secret

    # -- chat -------------------------------------------------------------------

    def _hears(self, conn: Conn) -> bool:
        """Whether `conn` sees the chat: players do; spectators if the host lets them."""
        return conn.seat is not None or self.settings.spectator_chat

    @staticmethod
    def _said(said: ChatRecord) -> dict[str, Any]:
        who: dict[str, Any] = {"seat": said.seat} if said.seat is not None else {"spectator": True}
        return {"type": "said", **who, "name": said.name, "text": said.text, "at": said.at}

    async def say(self, conn: Conn, text: str) -> None:
        """Say `text` to the table (stored first): from a seat, or from a spectator
        if the table allows. Only words go by: never anything of the match."""
        if not self._hears(conn):
            raise ProtocolError("no_chat")
        clean = text.strip()
        most = self.limits.chat_chars
        if not clean or len(clean) > most or not clean.isprintable():
            raise ProtocolError(
                "bad_chat", f"a chat message is 1 to {most} characters, on one line"
            )
        if not conn.said.take():
            raise ProtocolError("chat_too_fast")
        async with self.lock:
            if conn.seat is not None:
                name = self.seats[conn.seat].label
            else:
                name = _clean_name(conn.name, self.limits.name_chars) or "A spectator"
            said = ChatRecord(self._chat_seq + 1, time.time(), conn.seat, name, clean)
            await self.store.run(storage.add_chat(self.id, said))
            self._chat_seq = said.seq
            self.chat = [*self.chat[-(self.limits.chat_kept - 1) :], said]
            self.touched = time.time()
            text_out = _dumps(self._said(said))
            for other in self._conns():
                if self._hears(other):
                    other.send(text_out)

    # -- host operations ----------------------------------------------------

    def is_host(self, token: str | None) -> bool:
        """Whether `token` is this table's host token."""
        return token is not None and hmac.compare_digest(hash_token(token), self.host_hash)

    async def set_seat(self, index: int, bot: str | None) -> str | None:
        """Host: put a bot in a seat, or (bot None) reopen it with a new invitation token.

        The seat's old token stops working and its sockets are closed. Returns
        the new token of a reopened seat. Open seats are played by the
        stand-in bot while a match is on.
        """
        async with self.lock:
            seat = self._changeable(index)
            if bot is not None:
                self.thinker.check(self.game, bot)
            token = new_token() if bot is None else None
            held, label = seat.kind == "player", seat.label
            new = SeatRecord(
                index,
                "bot" if bot is not None else "open",
                bot,
                None,
                hash_token(token if token is not None else new_token()),
            )
            await self.store.run(storage.save_seat(self.id, new))
            seat.kind, seat.bot, seat.name, seat.token_hash = new.kind, bot, None, new.token_hash
            seat.away, seat.rematch = False, False
            seat.stop_timer()
            change = "gave {}seat to a bot" if bot is not None else "opened {}seat for someone else"
            self._let_go(seat, "The host " + change.format("your ") + ".")
            self._seat_bot(seat)
            self._broadcast_table()
            if held:
                self._tell(lambda _: "The host " + change.format(f"{label}'s "))
            elif bot is not None:
                self._tell(lambda _: f"The host put a bot in seat {index + 1}")
            else:
                self._tell(lambda _: f"The host opened seat {index + 1} for someone else")
            if self.status == "waiting" and not any(s.kind == "open" for s in self.seats):
                await self._start_match()
        self._schedule_bots()
        return token

    async def give_seat(self, index: int, name: str) -> str:
        """Seat a named player (an event's) in seat `index`, with a new token, which
        is returned: the seat's old token stops working and its sockets are closed,
        as when a player opens their seat on another device."""
        async with self.lock:
            seat = self._changeable(index)
            token = new_token()
            new = SeatRecord(index, "player", None, name, hash_token(token))
            await self.store.run(storage.save_seat(self.id, new))
            seat.kind, seat.bot, seat.name, seat.token_hash = "player", None, name, new.token_hash
            self._let_go(seat, "this seat was opened on another device")
            self._seat_bot(seat)
            self._broadcast_table()
        self._schedule_bots()
        return token

    def _seat_bot(self, seat: Seat) -> None:
        """The bot that plays `seat` now that its occupant changed: a fresh one for a
        bot seat during a match (a new match makes its own, `_new_bots`), else none."""
        self._bots.pop(seat.index, None)
        if seat.kind == "bot" and seat.bot is not None and self.match is not None:
            self._bots[seat.index] = self.thinker.make(self.game, seat.bot, secrets.randbits(32))

    def _changeable(self, index: int) -> Seat:
        """Seat `index`, if the host may still change it (ValueError says why not)."""
        if not 0 <= index < self.players:
            raise ValueError(f"there is no seat {index}: the seats are 0 to {self.players - 1}")
        if self.status in ("closed", "expired"):
            raise ValueError(f"the table is {self.status}: its seats stay as they are")
        return self.seats[index]

    def _event_seats(self) -> None:
        """An event's table seats its players by their names, as the event says."""
        if self.settings.event is not None:
            raise ValueError("an event's table seats its players as the event says")

    async def rename_seat(self, index: int, name: str) -> str:
        """Host: give the player in seat `index` a new name (cleaned as a player's
        own is); returns it. The player is told, and so is everyone else."""
        async with self.lock:
            seat = self._changeable(index)
            self._event_seats()
            if seat.kind != "player":
                what = _KINDS[seat.kind]
                raise ValueError(f"{seat.label} is {what}: only a player has a name to change")
            clean = _clean_name(name, self.limits.name_chars)
            if clean is None:
                raise ValueError("a name needs at least one printable character")
            old = seat.label
            renamed = SeatRecord(index, "player", None, clean, seat.token_hash)
            await self.store.run(storage.save_seat(self.id, renamed))
            seat.name = clean
            self.touched = time.time()
            self._broadcast_table()
            if clean != old:
                self._tell(
                    lambda reader: (
                        f"The host renamed you {clean}"
                        if reader == index
                        else f"The host renamed {old} to {clean}"
                    )
                )
            return clean

    async def move_seat(self, index: int, to: int) -> None:
        """Host: swap the occupants of seats `index` and `to` (who or what sits there,
        its token, its sockets), before or during a match: during one, the two swap
        hands. Each moved socket gets a `welcome` for its new seat and that seat's
        full view, so nothing of the hand it held stays on its page."""
        async with self.lock:
            a = self._changeable(index)
            b = self._changeable(to)
            self._event_seats()
            if index == to:
                raise ValueError(f"{a.label} is in that seat already")
            if a.kind == b.kind == "open":
                raise ValueError("both seats are open: there is nobody to move")
            before = {a.index: a.label, b.index: b.label}
            kinds = {a.index: a.kind, b.index: b.kind}
            await self.store.run(
                storage.save_seats(
                    self.id,
                    [
                        SeatRecord(a.index, b.kind, b.bot, b.name, b.token_hash),
                        SeatRecord(b.index, a.kind, a.bot, a.name, a.token_hash),
                    ],
                )
            )
            a.kind, b.kind = b.kind, a.kind
            a.bot, b.bot = b.bot, a.bot
            a.name, b.name = b.name, a.name
            a.token_hash, b.token_hash = b.token_hash, a.token_hash
            a.conns, b.conns = b.conns, a.conns
            a.away, b.away = b.away, a.away
            a.rematch, b.rematch = b.rematch, a.rematch
            swap = {a.index: b.index, b.index: a.index}
            self._claimed = {k: swap.get(v, v) for k, v in self._claimed.items()}
            for seat in (a, b):
                seat.stop_timer()  # it was the other occupant's
                self._watch_absence(seat)
                # A bot's memory is of the hand it played: the seat's new bot starts afresh.
                self._seat_bot(seat)
                for conn in seat.conns:
                    conn.seat = seat.index
            self.touched = time.time()
            self._broadcast_table()
            for seat in (a, b):
                for conn in seat.conns:
                    conn.send(self._welcome(conn))
                    if self.match is not None:
                        conn.send(self._sync_message(conn.seat))
            # Who went where, in words for each reader: only occupants, not open seats.
            went = [(old, swap[old]) for old in (a.index, b.index) if kinds[old] != "open"]

            def words(reader: int | None) -> str:
                parts = []
                for old, new in went:
                    who = "you" if reader == new and kinds[old] == "player" else before[old]
                    if kinds[old] == "bot":
                        who = "the bot"  # bots go by their seat's name: it takes the new one
                    parts.append(f"{who} to seat {new + 1}")
                return "The host moved " + " and ".join(parts)

            self._tell(words)
        self._schedule_bots()

    def _stepped(self) -> None:
        if self.on_step is not None:
            self.on_step(self)

    async def start(self) -> None:
        """Host: start now; the stand-in bot plays open seats until someone claims them."""
        async with self.lock:
            if self.status != "waiting":
                raise ValueError(f"the table is {self.status}, not waiting to start")
            await self._start_match()
        self._schedule_bots()

    async def rematch(self, seat: int | None) -> None:
        """A seat asks for a rematch (None: the host forces one). Once every
        player present has asked, the next match starts with the same seats."""
        async with self.lock:
            if self.status != "over":
                raise ProtocolError("not_over")
            if seat is not None:
                self.seats[seat].rematch = True
            waiting = [
                s
                for s in self.seats
                if s.kind == "player" and not s.away and s.conns and not s.rematch
            ]
            if seat is None or not waiting:
                await self._start_match()
            else:
                self._broadcast_table()
        self._schedule_bots()

    # -- the match ------------------------------------------------------------

    async def _start_match(self) -> None:
        """Deal a new match (stored first) and send everyone its view. Under the lock."""
        seed = secrets.randbits(63)
        match = self.game.new_match(self.players, self.rules, seed)
        number = self.match_no + 1
        events = [e.to_json() for e in match.log]
        await self.store.run(storage.start_match(self.id, number, seed, events))
        self._drop_pause()
        self.match, self.match_no, self.starts, self.status = match, number, [0], "playing"
        self.touched = time.time()
        for seat in self.seats:
            seat.rematch = False
            self._watch_absence(seat)
        self._new_clock()
        self._new_bots()
        self._restart_turn_clock()
        self._stepped()
        self._signal()
        self._broadcast_table()
        self._broadcast_sync()

    def _new_clock(self) -> None:
        """The new match's real-time clock: with the rules' sorting period
        (T3) when bots play at a person's pace; instant bots (no bot delay)
        trade at once, as in simulation."""
        self.clock = None
        if self.match is not None and self.game.realtime:
            sorting = float(getattr(self.rules, "sorting_seconds", 0))
            self.clock = play.Table(
                self.match, time.monotonic, sorting if self.settings.bot_delay else 0.0
            )

    def _new_bots(self) -> None:
        """Fresh bots for a new match (a bot may keep memory of the match it plays)."""
        self._bots = {
            seat.index: self.thinker.make(self.game, seat.bot, secrets.randbits(32))
            for seat in self.seats
            if seat.kind == "bot" and seat.bot is not None
        }
        self._standins = {}

    async def act(
        self,
        seat: int,
        spelling: str | Mapping[str, Any] | Action,
        version: int,
        conn: Conn | None = None,
        ident: str | int | None = None,
        by_bot: bool = False,
    ) -> int:
        """Apply one action for `seat`, acting on `version`; store it; tell everyone.

        Returns the new version. Raises `ProtocolError` (and changes nothing)
        when the action is refused.
        """
        async with self.lock:
            if self.status == "closed":
                raise ProtocolError("closed", self.problem)
            if self._verify:
                await self._check_stored()
            match = self.match
            if match is None or self.status not in ("playing", "over"):
                raise ProtocolError("no_match")
            if by_bot and self._bot_for(seat) is None:
                raise ProtocolError("not_your_turn", "the seat's player is back")
            if conn is not None and conn not in self.seats[seat].conns:
                raise ProtocolError("bad_token", "this connection no longer holds the seat")
            if match.is_over:
                raise ProtocolError("game_over")
            current = self.version
            if version > current:
                raise ProtocolError(
                    "bad_version", f"version {version} is ahead of the table's {current}"
                )
            if version < current and not self.game.realtime:
                raise ProtocolError(
                    "stale", f"you acted on version {version}; the table is at {current}"
                )
            try:
                move = match.parse_action(spelling)
            except BadActionError as exc:
                raise ProtocolError("bad_action", str(exc)) from None
            if self._pause is not None:
                raise ProtocolError("between_hands")
            # Only the seats to act may act; in real time the game has the last word
            # (Pit takes, and penalizes, a trade attempt before the opening, T3).
            if seat not in match.to_act and not (self.game.realtime and match.allows(seat, move)):
                reason = f"seat {seat} may not act now"
                if version < current:
                    raise ProtocolError("lost_race", f"{self._since(version, seat)}; {reason}")
                raise ProtocolError("not_your_turn", reason)
            refused = self.clock.refusal(move) if self.clock is not None else None
            if refused is not None:
                raise ProtocolError("illegal", refused)
            before = len(match.log)
            try:
                events = match.apply(seat, move)
            except IllegalActionError as exc:
                if version < current:
                    raise ProtocolError(
                        "lost_race", f"{self._since(version, seat)}; {exc}"
                    ) from None
                raise ProtocolError("illegal", str(exc)) from None
            except Exception:
                # An engine bug: the state may be half-changed, so go back to before it.
                log.exception("table %s: the game failed on %s", self.id, move)
                self._undo(before)
                raise ProtocolError("illegal", "the game could not apply this action") from None
            outcome = match.outcome.to_json() if match.outcome is not None else None
            try:
                await self.store.run(
                    storage.append_step(
                        self.id,
                        self.match_no,
                        self.version + 1,
                        seat,
                        str(move),
                        [e.to_json() for e in events],
                        outcome,
                    )
                )
            except Exception:
                # Nothing may stay applied that is not on disk. A timed-out write may
                # still land, so the next action first checks what the database holds.
                log.exception("table %s: could not store version %d", self.id, self.version + 1)
                self._undo(before)
                self._verify = True
                if self._recheck is None or self._recheck.done():
                    self._recheck = asyncio.create_task(self._check_later())
                raise ProtocolError("server_error") from None
            self.starts.append(before)
            if self.clock is not None:
                self.clock.record(events)
            self._pause_after(events)
            self._restart_turn_clock()
            self._stepped()
            self.metrics.actions.labels(self.game.name).inc()
            self.touched = time.time()
            if outcome is not None:
                self.status = "over"
            if conn is not None:
                conn.send({"type": "ack", "id": ident, **self._stamp()})
            self._broadcast_update(current)
            if outcome is not None:
                self._broadcast_table()
            self._signal()
            if outcome is None and self.version >= self.limits.match_actions:
                try:
                    await self._shut(
                        f"the match was stopped after {self.version:,} moves, "
                        "the most this server plays in one match"
                    )
                except Exception:  # the move stands; the next one tries again
                    log.exception("table %s: could not close it at the move limit", self.id)
            new_version = self.version
        self._schedule_bots()
        return new_version

    async def shut(self, reason: str) -> None:
        """Close the table for good (the host's choice, or a server limit): no more moves."""
        async with self.lock:
            if self.status != "closed":
                await self._shut(reason)

    async def _shut(self, reason: str) -> None:
        """Close the table, stored first. Under the lock."""
        await self.store.run(storage.set_status(self.id, "closed"))
        self.status, self.problem = "closed", reason
        self._stop_turn_clock()
        self._drop_pause()
        for seat in self.seats:
            seat.stop_timer()
        for task in self._bot_tasks.values():
            task.cancel()
        self._signal()
        self._broadcast_table()

    def _since(self, version: int, seat: int) -> str:
        """What the other seats did since `version`, as `seat` saw it."""
        assert self.match is not None
        acts = [
            f"seat {e['seat']}: {e['action']}" if "action" in e else f"seat {e['seat']} acted"
            for e in (event.seen_by(seat) for event in self.match.log[self.starts[version + 1] :])
            if e.get("type") == "action" and "seat" in e
        ]
        return "another action arrived first (" + "; ".join(acts[:5]) + ")"

    def _undo(self, length: int) -> None:
        """Put the match back as it was when its log had `length` events (after an
        action the engine or the database failed on), by replaying that much."""
        assert self.match is not None
        self.match = self.game.replay(self.match.header(), self.match.log[:length])
        if self.clock is not None:
            self.clock.match = self.match
        self._signal()

    async def _check_later(self) -> None:
        """Once the database has had time to finish a timed-out write, bring memory
        in line with it, even if nobody acts meanwhile (trying again while it fails)."""
        while self._verify and not self._closing:
            await asyncio.sleep(self.limits.store_seconds)
            async with self.lock:
                if self._verify and not self._closing:
                    with contextlib.suppress(ProtocolError):
                        await self._check_stored()
        self._schedule_bots()

    async def _check_stored(self) -> None:
        """After a failed store: if a write that timed out landed after all,
        reload the match from the database, so memory and disk agree again.
        Under the lock; a database still failing refuses the action."""
        try:
            stored = await self.store.run(
                lambda conn: storage.stored_version(conn, self.id, self.match_no)
            )
            if stored != self.version:
                record = await self.store.run(lambda conn: storage.read_table(conn, self.id))
                if record is None or record.match is None:
                    raise ValueError("the table is gone from the database")
                rebuilt = await asyncio.to_thread(rebuild, self.game, record)
                self._adopt_match(rebuilt)
                self.status = record.status if rebuilt.match is not None else "broken"
                self._broadcast_table()
                if self.match is not None:
                    self._broadcast_sync()
        except Exception:
            log.exception("table %s: the database is still failing", self.id)
            raise ProtocolError("server_error") from None
        self._verify = False

    def _signal(self) -> None:
        """Wake whatever waits for the next change (real-time bots that chose to wait)."""
        self._changed.set()
        self._changed = asyncio.Event()

    # -- between hands ------------------------------------------------------------

    def _present(self) -> set[int]:
        """The seats of the people here now: connected, and not away."""
        return {s.index for s in self.seats if s.kind == "player" and s.conns and not s.away}

    def _pause_seconds(self) -> float:
        """How long the pause between hands lasts at most (0: none)."""
        own = self.settings.next_hand_seconds
        return self.limits.next_hand_seconds if own is None else own

    def _pause_after(self, events: list[Event]) -> None:
        """After a step: if it ended a hand and dealt the next (the match deals at
        once), hold the new hand until the people here are ready. Tables of bots
        alone, or where nobody is connected, go straight on. Under the lock."""
        match = self.match
        seconds = self._pause_seconds()
        if match is None or match.is_over or seconds <= 0 or not self._present():
            return
        if not any(event.type == "scores" for event in events):
            return
        self._drop_pause()
        loop = asyncio.get_running_loop()
        self._pause = Pause(time.monotonic() + seconds, loop.call_later(seconds, self._end_pause))

    def _next_hand(self) -> dict[str, Any] | None:
        """The pause as anyone may see it: seconds left, who is ready, who is awaited."""
        pause = self._pause
        if pause is None:
            return None
        present = self._present()
        return {
            "left": round(max(0.0, pause.ends - time.monotonic()), 1),
            "ready": sorted(pause.ready & present),
            "waiting": sorted(present - pause.ready),
        }

    def _sorting_left(self) -> float | None:
        """Seconds left before the dealer may open Pit's pit, while the hand sorts
        (None: no sorting period, the pit is open, or the hand has not started)."""
        clock, match = self.clock, self.match
        if clock is None or not clock.sorting or clock.is_open or self._pause is not None:
            return None
        if match is None or match.is_over:
            return None
        return round(clock.sorting_left(), 1)

    def _pacing(self) -> dict[str, Any]:
        """The pause's message: where it stands, and the clocks that run once it ends."""
        return {
            "type": "next_hand",
            **self._stamp(),
            "next_hand": self._next_hand(),
            "turn_left": self._turn_left(),
            "sorting_left": self._sorting_left(),
        }

    def _broadcast_pacing(self) -> None:
        text = _dumps(self._pacing())
        for conn in self._conns():
            conn.send(text)

    async def ready(self, conn: Conn) -> None:
        """A seat's player is ready for the next hand; the last one starts it."""
        async with self.lock:
            if conn.seat is None:
                raise ProtocolError("spectator")
            if self._pause is None:
                raise ProtocolError("no_pause")
            self._pause.ready.add(conn.seat)
            self._review_pause()

    def _review_pause(self) -> None:
        """Start the hand if nobody present is still awaited; else tell everyone."""
        pause = self._pause
        if pause is None:
            return
        if self._present() - pause.ready:
            self._broadcast_pacing()
        else:
            self._end_pause()

    def _end_pause(self) -> None:
        """The hand starts: its clocks start now (the turn timer, Pit's sorting
        period), everyone is told, and the bots may act."""
        if self._pause is None:
            return
        self._drop_pause()
        if self.clock is not None:
            self.clock.begin()
        self._restart_turn_clock()
        self._broadcast_pacing()
        self._signal()
        self._schedule_bots()

    def _drop_pause(self) -> None:
        if self._pause is not None:
            self._pause.timer.cancel()
            self._pause = None

    # -- bots -------------------------------------------------------------------

    def _bot_for(self, index: int) -> Bot | None:
        """The bot playing a seat now: its own, or the stand-in for an open or absent seat."""
        seat = self.seats[index]
        if seat.kind == "bot":
            return self._bots.get(index)
        if seat.kind == "open" or seat.away:
            return self._standin(index)
        return None

    def _standin(self, index: int) -> Bot:
        """The bot that stands in for seat `index`'s player (made on first need)."""
        bot = self._standins.get(index)
        if bot is None:
            names = bot_registry.names(self.game)
            name = self.settings.standin if self.settings.standin in names else self.game.opponent
            bot = self._standins[index] = self.thinker.make(self.game, name, secrets.randbits(32))
        return bot

    # -- the turn timer -----------------------------------------------------------

    def _turn_left(self) -> float | None:
        """Seconds left to the person to act now, if the turn timer runs."""
        if self._turn_ends is None:
            return None
        return round(max(0.0, self._turn_ends - time.monotonic()), 1)

    def _stop_turn_clock(self) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self._turn_timer, self._turn_ends = None, None

    def _restart_turn_clock(self) -> None:
        """After each move (and each deal): a person to act has `turn_seconds` for this
        move. Not in real time (Pit has no turns), nor for seats a bot plays."""
        self._stop_turn_clock()
        seconds, match = self.settings.turn_seconds, self.match
        if not seconds or self.game.realtime or match is None or match.is_over:
            return
        if self._pause is not None:
            return  # it starts with the hand (`_end_pause`)
        if not any(self._bot_for(i) is None for i in match.to_act):
            return
        loop = asyncio.get_running_loop()
        self._turn_ends = time.monotonic() + seconds
        self._turn_timer = loop.call_later(seconds, self._ring, self.version)

    def _ring(self, version: int) -> None:
        self._timing_out = asyncio.create_task(self._time_out(version))  # kept: not collected

    async def _time_out(self, version: int) -> None:
        """A person's turn ran out at `version`: the stand-in bot makes one move for
        each person still to act then (as for an absent player), and everyone is told."""
        match = self.match
        if match is None or self.version != version or self._closing:
            return
        self._turn_timer, self._turn_ends = None, None
        for index in sorted(match.to_act):
            if self._bot_for(index) is not None or self.version != version:
                continue  # a bot plays the seat already, or the table moved on
            bot = self._standin(index)
            try:
                action, after = await self.thinker.decide(self, bot, match.clone(), index)
                self._keep(index, bot, after)
            except Exception:  # as for any bot: the seat still moves
                log.exception("table %s: the stand-in at seat %d did not decide", self.id, index)
                action = None
            if action is None:
                action = random.choice(match.legal_actions(index))
            try:
                await self.act(index, action, version)
            except ProtocolError:
                continue  # the player moved at the last moment: their move stands
            for conn in self._conns():
                text = self.narrator(conn.seat).with_names(
                    f"time ran out: a bot played for seat {index}"
                )
                conn.send({"type": "timed_out", "seat": index, "text": text[:1].upper() + text[1:]})
            self._schedule_bots()

    def _schedule_bots(self) -> None:
        """Start a task for each bot seat that may act now and has none running."""
        match = self.match
        if match is None or match.is_over or self.status != "playing" or self._closing:
            return
        if self._pause is not None:
            return  # bots wait for the hand to start, as people do
        for index in match.to_act:
            task = self._bot_tasks.get(index)
            if (task is None or task.done()) and self._bot_for(index) is not None:
                self._bot_tasks[index] = asyncio.create_task(self._bot_turns(index))

    def _think(self, bot: Bot) -> float:
        """How long a bot waits before acting: the table's bot delay, or in real time
        the bot's own think time (`play.think_range`) scaled by the table's speed
        (`NORMAL_BOT_DELAY`); a delay of 0 makes every bot instant, for tests."""
        delay = self.settings.bot_delay
        if not delay:
            return 0.0
        if self.game.realtime:
            low, high = play.think_range(bot)
            return random.uniform(low, high) * delay / NORMAL_BOT_DELAY
        return delay * random.uniform(0.7, 1.3)

    async def _bot_turns(self, index: int) -> None:
        """Play a bot's seat for as long as it may act: think, decide, act."""
        failures = 0
        try:
            while True:
                match = self.match
                bot = self._bot_for(index)
                if match is None or match.is_over or bot is None or index not in match.to_act:
                    return
                if self._pause is not None:
                    return  # `_end_pause` schedules the bots again
                clock = self.clock
                if clock is not None and not clock.is_open and clock.sorting_left() > 0:
                    await asyncio.sleep(clock.sorting_left())  # nobody trades while sorting
                    continue
                delay = max(self._think(bot), self._bot_pace.wait())
                if delay:
                    await asyncio.sleep(delay)
                match = self.match
                bot = self._bot_for(index)
                if match is None or match.is_over or bot is None or index not in match.to_act:
                    return
                if not self._bot_pace.take():
                    continue  # the table's bots have made their moves for this moment
                version, changed = self.version, self._changed
                # On a copy, off the event loop: a slow bot must not hold up the other tables.
                try:
                    action, thought = await self.thinker.decide(self, bot, match.clone(), index)
                except Exception:  # too slow, its process died, a bug: the seat still moves
                    log.exception("table %s: the bot at seat %d did not decide", self.id, index)
                    await self._fallback(index)
                    continue
                self._keep(index, bot, thought)
                if action is None:  # a real-time bot waiting for the market to move
                    # asyncio.timeout, not wait_for: on Python 3.11 wait_for may swallow
                    # the cancellation that stops this task.
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(WAIT_POLL):
                            await changed.wait()
                    continue
                try:
                    await self.act(index, action, version, by_bot=True)
                    failures = 0
                except ProtocolError as exc:
                    expected = ("stale", "lost_race", "not_your_turn", "game_over", "between_hands")
                    if exc.code not in expected:
                        failures += 1
                        log.warning("table %s: bot at seat %d: %s", self.id, index, exc.reason)
                        if failures >= 3:
                            await self._fallback(index)
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bot at seat %d failed", self.id, index)

    def _keep(self, index: int, before: Bot, after: Bot) -> None:
        """Keep the bot as it came back from thinking (a search bot thinks in another
        process, and returns with its memory and random state moved on), unless
        the seat changed hands meanwhile."""
        if self._bots.get(index) is before:
            self._bots[index] = after
        elif self._standins.get(index) is before:
            self._standins[index] = after

    async def _fallback(self, index: int) -> None:
        """A bot that keeps choosing refused actions: play a random legal one instead."""
        match = self.match
        if match is None:
            return
        legal = match.legal_actions(index)
        if legal:
            with contextlib.suppress(ProtocolError):
                await self.act(index, random.choice(legal), self.version, by_bot=True)

    async def close(self) -> None:
        """Stop the bots and timers and close every socket (server shutdown)."""
        self._closing = True
        self._stop_turn_clock()
        self._drop_pause()
        if self._timing_out is not None:
            self._timing_out.cancel()
        if self._recheck is not None:
            self._recheck.cancel()
        for seat in self.seats:
            seat.stop_timer()
        tasks = list(self._bot_tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for conn in self._conns():
            conn.close(1012)


@dataclass(frozen=True)
class Rebuilt:
    """A stored match replayed: the match and where each version's events
    start in its log, or (match None) why it does not replay."""

    match: Match[Any, Any] | None
    starts: list[int]
    problem: str | None = None


def rebuild(game: Game, record: TableRecord) -> Rebuilt:
    """Replay a table's stored match (plain CPU work: callers on the event loop
    run it in a thread). Every replayed event must equal the stored one."""
    assert record.match is not None
    steps = record.match.steps
    header = {
        "game": game.name,
        "players": record.players,
        "rules": record.rules,
        "seed": record.match.seed,
    }
    stored = [e for step in steps for e in step]
    try:
        match = game.replay(header, [Event.from_json(e) for e in stored])
        replayed = json.loads(json.dumps([e.to_json() for e in match.log]))
        if replayed != stored:
            raise ValueError("the replayed events differ from the stored ones")
    except Exception as exc:  # a game's bug must not stop the server
        log.exception("table %s does not replay", record.id)
        return Rebuilt(None, [], f"the stored match does not replay: {exc}")
    starts = []
    at = 0
    for step in steps:
        starts.append(at)
        at += len(step)
    return Rebuilt(match, starts)


def named(view: dict[str, Any], say: Narrator) -> dict[str, Any]:
    """`view` with the engine's sentences in it (each hand's result, the
    outcomes, a score sheet's notes) calling the seats by name, the reader "you"."""
    record = view.get("match")
    for part in (view, record or {}):
        if part.get("outcome"):
            part["outcome"] = {
                **part["outcome"],
                "summary": say.with_names(part["outcome"]["summary"]),
            }
    if record is not None:
        record["results"] = [say.with_names(text) for text in record["results"]]
        for line in (record.get("sheet") or {}).get("lines", []):
            if line.get("note"):
                line["note"] = say.with_names(line["note"])
    return view


def _clean_name(name: str | None, limit: int) -> str | None:
    """A display name: printable, trimmed, at most `limit` characters."""
    if not name:
        return None
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:limit]
    return text or None
