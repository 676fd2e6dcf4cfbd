"""Server-wide limits and per-table settings.

Limits live in one place so that docs/protocol.md, the tests and the code
agree; each is a plain number a deployment may change through `Limits`, and
`pitkit serve --limit NAME=VALUE` changes any of them by its name here
(`limit_values`). `VENUE` is the profile of a hall behind one address
(`pitkit serve --venue`); `limit_docs` reads each limit's meaning from its
docstring below, for `pitkit limits` and docs/deploy.md.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import math
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = [
    "NORMAL_BOT_DELAY",
    "OWN_PACE_LEAST",
    "OWN_PACE_MOST",
    "VENUE",
    "Bucket",
    "Limits",
    "PushSettings",
    "TableSettings",
    "database_url",
    "limit_docs",
    "limit_values",
]


@dataclass(frozen=True)
class Limits:
    """What one client may send and hold, server-wide."""

    message_bytes: int = 4096
    """Largest WebSocket message the protocol reads (larger: a `too_large` error)."""
    frame_bytes: int = 64 * 1024
    """Largest frame uvicorn accepts at all; beyond it the socket is closed (1009)."""
    body_bytes: int = 16 * 1024
    """Largest HTTP request body (larger: 413)."""
    rate: float = 10.0
    """Messages a connection may send per second, on average."""
    burst: int = 30
    """Messages a connection may send at once before the rate applies."""
    abuse_close: int = 100
    """Messages refused (`rate_limited`) beyond what `rate` forgives, after which the
    connection is closed (1008) and dropped; while over its rate, a connection is read
    at most twice this many times a second, so a flood is cut off within a second."""
    backoff_seconds: float = 1.0
    """How long an address (or a seat's token) whose socket was closed for abuse backs
    off: its new sockets may only take a seat by its token (spectators and strangers are
    closed, 1013). Each strike doubles it, up to `backoff_most`."""
    backoff_most: float = 60.0
    """The longest back-off; one who keeps this long out of trouble starts afresh."""
    hello_seconds: float = 15.0
    """Time a new connection has to say hello before it is closed."""
    outbox: int = 512
    """Messages queued for a client that does not read; beyond it the socket is closed."""
    resync_gap: int = 200
    """Largest number of missed versions sent as events on reconnect; more: a full view."""
    tables: int = 5000
    """Tables the server holds in memory (waiting, playing, or over with a rematch to offer)."""
    creates_per_minute: int = 60
    """Tables one client address may create per minute."""
    name_chars: int = 40
    """Longest player name."""
    bot_seconds: float = 3.0
    """Longest a bot may think about one move (a search budget above it is refused)."""
    bot_processes: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))
    """Worker processes in which search bots think, one table's bot at a time each
    (default: a core fewer than the machine has, leaving one to the server)."""
    bot_actions_per_second: float = 20.0
    """Moves a table's bots may make a second, together (they wait beyond it)."""
    bot_alone_actions_per_second: float = 2.5
    """Moves a second of a table of bots alone (nobody seated), together."""
    bot_actions_all_per_second: float = 500.0
    """Moves a second of every table's bots on this worker, shared out a move at a
    time, the tables where people sit first."""
    bot_alone_match_actions: int = 5_000
    """Moves after which a match of bots alone is stopped and its table closed (a normal
    match of bots has a few thousand)."""
    match_actions: int = 20_000
    """Moves after which a match is stopped and its table closed (no real match comes near)."""
    tables_per_address: int = 50
    """Waiting or playing tables that one client address may hold at once."""
    spectators_per_table: int = 32
    """Spectators' sockets at one table (players' sockets never count against it)."""
    sockets_per_seat: int = 4
    """A seat's open sockets; one more closes the oldest (the newest device wins)."""
    waiting_seconds: float = 3600.0
    """A table still waiting for players this long after its last change expires."""
    idle_seconds: float = 600.0
    """A finished table nobody watches leaves memory after this long (it stays stored)."""
    store_seconds: float = 10.0
    """Longest the server waits for the database before answering an error."""
    commit_gap: float = 0.005
    """Seconds at least between the starts of two commits while the database writer is
    busy: the actions that come meanwhile are stored in the same commit (cheaper), for
    at most this much more latency (0: commit each as it comes)."""
    handoff_seconds: float = 3.0
    """Longest a worker waits for another to hand over a table the proxy sent it."""
    adopt_seconds: float = 5.0
    """How often a worker beside others looks for tables a dead worker left."""
    replay_bytes: int = 64 * 2**20
    """Bytes of finished matches' replays and logs kept gzipped, ready to serve; the
    least recently asked for is dropped first."""
    replay_builds: int = 8
    """Replays and logs being built (or waiting to be) at once; beyond it a request is
    answered 503 before anything is read."""
    events_per_address: int = 20
    """Tournaments one client address may open an hour (a hall opens one or two)."""
    entries_per_event: int = 10_000
    """Entries a tournament's log may hold (a long Pits evening makes a few hundred);
    beyond it an entry is refused."""
    event_streams_per_address: int = 50
    """Streams of events' news (the pages that follow an event live) one client address
    may hold open at once, half its sockets' cap; beyond it a page asks every few
    seconds instead."""
    judge_calls_per_hour: int = 12
    """Calls to the judge one player's link may make an hour (a table has one open call
    at a time besides: a call made again while the judge is on the way is refused)."""
    replay_steps: int = 3000
    """Versions a match may have to be replayed in the page (a view a version is sent)."""
    history_hands: int = 3
    """Earlier hands a sync gives in full for the history; older ones by their result."""
    history_events: int = 400
    """Events a sync gives of each earlier hand at most (the last ones)."""
    header_seconds: float = 10.0
    """Time a client has to send a request's line and headers before its socket is closed."""
    body_seconds: float = 10.0
    """Time a client has to send a request's body, from the end of its headers."""
    connections_per_address: int = 100
    """Sockets (HTTP and WebSocket) one client address may hold open; more are closed at
    once. A WebSocket that takes a seat by its token leaves the count (its seat's own cap
    is `sockets_per_seat`), so only anonymous sockets share it."""
    requests_per_second: float = 50.0
    """HTTP requests a second, on average (more: 429), of one address; or of one token,
    for requests carrying a link's or a host's token the server has accepted before."""
    request_burst: int = 200
    """HTTP requests one address (or token) may make at once before the rate applies."""
    turn_seconds_least: float = 10.0
    """Shortest turn timer a table may have (`TableSettings.turn_seconds`)."""
    chat_chars: int = 200
    """Longest chat message."""
    chat_kept: int = 100
    """Chat messages a client gets on joining (the latest)."""
    chat_stored: int = 1000
    """Chat messages stored for one table (the latest): an older one is deleted as a
    new one is said."""
    chat_days: float = 30.0
    """Days a table's chat message is kept: older ones are deleted as a new one is said,
    and nobody joining is sent them."""
    spectator_idle_seconds: float = 900.0
    """A spectator's socket that sends nothing this long is closed (its page pings every
    15 s while it is shown); a player's socket never is."""
    chat_rate: float = 1.0
    """Chat messages a connection may send per second, on average."""
    chat_burst: int = 5
    """Chat messages a connection may send at once before `chat_rate` applies."""
    next_hand_seconds: float = 15.0
    """The pause between hands where people sit, unless a table chooses its own
    (`TableSettings.next_hand_seconds`): the next hand starts when every person
    there is ready, or after this long (0: at once)."""
    profiles_per_hour: int = 20
    """Player profiles one client address may make an hour (docs/profiles.md)."""
    devices_per_profile: int = 20
    """Devices signed in to one profile at once; one more signs out the one signed in
    longest ago."""
    passkeys_per_profile: int = 10
    """Passkeys one profile may hold."""
    sign_in_code_seconds: float = 600.0
    """How long a one-time code for signing in on another device lives (it works once)."""
    sign_ins_per_minute: int = 30
    """Passkey sign-ins and registrations one client address may begin a minute."""
    push_subscriptions_per_profile: int = 10
    """Devices one profile may have notices pushed to (docs/notices.md); one more drops
    the one that asked longest ago."""
    push_sends: int = 8
    """Web Push messages the server sends at once (each waits on a push service); the
    others wait their turn."""
    push_waiting: int = 1000
    """Notices waiting to be pushed; beyond it a new one is dropped (and logged)."""

    @classmethod
    def venue(cls) -> Limits:
        """The limits of `VENUE`: a hall of phones behind one address."""
        return cls(**VENUE)


VENUE: Mapping[str, Any] = MappingProxyType(
    {
        "connections_per_address": 2_000,
        "event_streams_per_address": 1_000,
        "requests_per_second": 1_000.0,
        "request_burst": 10_000,
        "tables_per_address": 300,
        "creates_per_minute": 600,
        "profiles_per_hour": 600,
        "sign_ins_per_minute": 600,
    }
)
"""`pitkit serve --venue`: a hall of up to about 300 phones behind one Wi-Fi router,
which the server sees as one address (a congress, a club night). Players' sockets and
links are counted by their tokens whatever the profile; what the hall shares is its
anonymous work: pages loading (a few dozen files each, often all at once), spectators'
screens, the organisers opening a table for each game from one laptop."""

_ZERO_MEANS_SOMETHING = frozenset({"next_hand_seconds", "commit_gap"})
"""Limits for which 0 is a choice (no pause between hands, a commit as each action
comes); every other is above 0."""


def limit_values(pairs: Iterable[str]) -> dict[str, Any]:
    """`NAME=VALUE` texts as `Limits`' values by name, each a number of the limit's type
    above 0; ValueError names what is wrong, and the limits there are."""
    kinds = {f.name: f.type for f in dataclasses.fields(Limits)}
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in kinds:
            raise ValueError(
                f"a limit is NAME=VALUE, not {pair!r}; the names are {', '.join(kinds)}"
            )
        try:
            value: int | float = int(text) if kinds[name] == "int" else float(text)
        except ValueError:
            raise ValueError(
                f"{name} is a{'' if kinds[name] == 'int' else ' decimal'} number, not {text!r}"
            ) from None
        zero = name in _ZERO_MEANS_SOMETHING
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            raise ValueError(f"{name} is a number {'from 0' if zero else 'above 0'}, not {text!r}")
        out[name] = value
    return out


def limit_docs() -> dict[str, str]:
    """Each limit's meaning, by name: its docstring in `Limits`, on one line."""
    docs: dict[str, str] = {}
    try:
        body = ast.parse(inspect.getsource(Limits)).body[0]
    except (OSError, TypeError):  # no source shipped: names alone
        return docs
    assert isinstance(body, ast.ClassDef)
    for this, after in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(this, ast.AnnAssign)
            and isinstance(this.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[this.target.id] = " ".join(after.value.value.split())
    return docs


NORMAL_BOT_DELAY = 0.6
"""The usual bot delay (seconds): the pace at which real-time bots think as they would."""


@dataclass(frozen=True)
class TableSettings:
    """How a table runs, chosen when it is created (`settings` in the API)."""

    bot_delay: float = NORMAL_BOT_DELAY
    """Seconds a bot waits before acting, so that people can follow the play. In
    real time (Pit) each bot's own think times, scaled by `bot_delay` /
    `NORMAL_BOT_DELAY`: the table's bot speed paces the trading too."""
    away_timeout: float = 60.0
    """Seconds after a player's last connection closes before a bot stands in (0: never)."""
    standin: str | None = None
    """The bot that stands in for an absent player (None: the game's strongest bot)."""
    listed: bool = True
    """Whether the table appears in the public table list."""
    spectator_chat: bool = False
    """Whether spectators see the table's chat and may chat (players always may)."""
    turn_seconds: float | None = None
    """A turn timer (`Limits.turn_seconds_least`, 10, to 600 s; None: none): in a
    turn-based game, a person who takes longer over a move has the stand-in bot make
    that one move for them."""
    next_hand_seconds: float | None = None
    """Between hands, where people sit: the next hand starts when every person present
    is ready, or after this many seconds (0 to 300; 0: at once; None: the server's
    `Limits.next_hand_seconds`). Tables of bots alone never pause."""
    event: str | None = None
    """The event (tournament) whose game this table plays, if any: it feeds the
    event its hands. Set by the server when an event opens the table, never by a client."""
    own_pace: float | None = None
    """At your own pace (docs/turn-based.md): the seconds each move may take, from
    `OWN_PACE_LEAST` (1 hour) to `OWN_PACE_MOST` (3 days); None: an ordinary table.
    Only for turn-based games; its players never go away (no stand-in for absence)."""
    on_timeout: str = "standin"
    """When a move's time runs out (own pace, or the turn timer): "standin", a bot makes
    that one move; "forfeit", the player forfeits the match and the table closes."""

    @staticmethod
    def from_json(data: dict[str, Any] | None, client: bool = False) -> TableSettings:
        """Settings from JSON, checking types and ranges; ValueError names the problem.
        `client`: given by a client, who may not tie a table to an event."""
        data = dict(data or {})
        _check_names(data, client)
        out = TableSettings()
        delay = _seconds(data.get("bot_delay", out.bot_delay), 30)
        timeout = _seconds(data.get("away_timeout", out.away_timeout), 86400)
        standin = data.get("standin", out.standin)
        if delay is None:
            raise ValueError("bot_delay is a number of seconds from 0 to 30")
        if timeout is None:
            raise ValueError("away_timeout is a number of seconds from 0 (never) to 86400")
        # A lone surrogate is not printable: it could never be stored or shown.
        if standin is not None and (
            not isinstance(standin, str) or len(standin) > 40 or not standin.isprintable()
        ):
            raise ValueError("standin is a bot name")
        listed = _flag(data, "listed", out.listed)
        spectator_chat = _flag(data, "spectator_chat", out.spectator_chat)
        turn = data.get("turn_seconds")
        turn_seconds = None if turn is None else _seconds(turn, 600)
        # At least `Limits.turn_seconds_least` too (10 s): checked where the limits are.
        if turn is not None and not turn_seconds:
            raise ValueError("turn_seconds is a number of seconds from 10 to 600, or null (none)")
        pause = data.get("next_hand_seconds")
        next_hand_seconds = None if pause is None else _seconds(pause, 300)
        if pause is not None and next_hand_seconds is None:
            raise ValueError(
                "next_hand_seconds is a number of seconds from 0 (no pause) to 300, "
                "or null (the server's default)"
            )
        event = data.get("event")
        if event is not None and not isinstance(event, str):
            raise ValueError("event is an event's id")
        own_pace, on_timeout = _own_pace(data, turn_seconds)
        return TableSettings(
            delay,
            timeout,
            standin,
            listed,
            event=event,
            spectator_chat=spectator_chat,
            turn_seconds=turn_seconds,
            next_hand_seconds=next_hand_seconds,
            own_pace=own_pace,
            on_timeout=on_timeout,
        )

    def to_json(self) -> dict[str, Any]:
        """These settings as JSON."""
        return {
            "bot_delay": self.bot_delay,
            "away_timeout": self.away_timeout,
            "standin": self.standin,
            "listed": self.listed,
            "spectator_chat": self.spectator_chat,
            "turn_seconds": self.turn_seconds,
            "next_hand_seconds": self.next_hand_seconds,
            "own_pace": self.own_pace,
            "on_timeout": self.on_timeout,
            **({"event": self.event} if self.event is not None else {}),
        }


def _check_names(data: dict[str, Any], client: bool) -> None:
    """ValueError if `data` names a setting there is none of (for a client: or `event`)."""
    known = {
        "bot_delay",
        "away_timeout",
        "standin",
        "listed",
        "spectator_chat",
        "turn_seconds",
        "next_hand_seconds",
        "own_pace",
        "on_timeout",
    }
    if not client:
        known |= {"event", "deadline"}  # the server's: the move's deadline at own pace
    unknown = set(data) - known
    if unknown:
        # repr: a name is the client's text, shown back escaped whatever it holds.
        raise ValueError(
            f"unknown settings {', '.join(sorted(repr(k)[:40] for k in unknown))}; "
            f"settings are: {', '.join(sorted(known))}"
        )


OWN_PACE_LEAST = 3600.0
"""The shortest time a move may take at a table at its own pace (1 hour)."""
OWN_PACE_MOST = 3 * 86400.0
"""The longest time a move may take at a table at its own pace (3 days)."""
ON_TIMEOUT = ("standin", "forfeit")
"""What happens when a move's time runs out (`TableSettings.on_timeout`)."""


def _own_pace(data: dict[str, Any], turn_seconds: float | None) -> tuple[float | None, str]:
    """The settings `own_pace` and `on_timeout`, checked (ValueError says what is wrong)."""
    pace = data.get("own_pace")
    own_pace = None if pace is None else _seconds(pace, OWN_PACE_MOST)
    if pace is not None and (own_pace is None or own_pace < OWN_PACE_LEAST):
        raise ValueError(
            "own_pace (the time each move may take at your own pace) is from 1 hour "
            "(3600 seconds) to 3 days (259200 seconds), or null (an ordinary table)"
        )
    if own_pace is not None and turn_seconds is not None:
        raise ValueError(
            "a table at its own pace has its own time for each move (own_pace): "
            "leave turn_seconds out"
        )
    on_timeout = data.get("on_timeout", "standin")
    if on_timeout not in ON_TIMEOUT:
        raise ValueError(
            'on_timeout is "standin" (a bot makes the move) or "forfeit" (the player '
            "forfeits the match)"
        )
    return own_pace, str(on_timeout)


def _seconds(value: Any, most: float) -> float | None:
    """`value` as seconds, if it is a number from 0 to `most` (else None)."""
    # NaN fails every comparison and so every range check, but say so plainly anyway.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return float(value) if 0 <= value <= most else None


def _flag(data: dict[str, Any], name: str, default: bool) -> bool:
    """The setting `name`, true or false (ValueError if it is anything else)."""
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise ValueError(f"{name} is true or false")
    return value


PUSH_CONTACT_ENV = "PITKIT_PUSH_CONTACT"
PUSH_TEST_RECEIVERS_ENV = "PITKIT_PUSH_TEST_RECEIVERS"


@dataclass(frozen=True)
class PushSettings:
    """How the server sends Web Push notices (docs/notices.md)."""

    contact: str | None = None
    """Who push services may write to about this server's messages (the VAPID ``sub``):
    ``mailto:you@example.org`` or an https URL (`PITKIT_PUSH_CONTACT`). None: the
    server's public URL if it is https, else ``mailto:pitkit@localhost``."""
    test_receivers: bool = False
    """Tests only: also allow subscriptions at ``http://127.0.0.1`` (a local receiver
    that plays the push service; `PITKIT_PUSH_TEST_RECEIVERS=1`). Never on a real site:
    it would let anyone make the server post to its own machine."""

    @staticmethod
    def from_environ(environ: Mapping[str, str] | None = None) -> PushSettings:
        """The settings the environment gives (`PITKIT_PUSH_CONTACT`,
        `PITKIT_PUSH_TEST_RECEIVERS`); ValueError if the contact is no mailto: or https URL."""
        env = os.environ if environ is None else environ
        contact = env.get(PUSH_CONTACT_ENV) or None
        if contact is not None and not contact.startswith(("mailto:", "https://")):
            raise ValueError(
                f"{PUSH_CONTACT_ENV} is mailto:you@example.org or an https URL, not {contact!r}"
            )
        return PushSettings(contact, env.get(PUSH_TEST_RECEIVERS_ENV) == "1")


def database_url(data: str, database: str | None) -> str:
    """The database URL: `database` if given, else SQLite in the folder `data`."""
    if database:
        return database
    from pathlib import Path

    folder = Path(data)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(folder / 'pitkit.sqlite3').resolve()}"


class Bucket:
    """A token bucket: `rate` a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        """Whether one more is allowed now (and if so, it is counted)."""
        self._fill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until one more is allowed (0: now)."""
        self._fill()
        return max(0.0, (1 - self.tokens) / self.rate)

    def _fill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
