"""Malformed input by the thousand, over HTTP and the socket: never a 5xx, never a change.

A seeded generator (the same inputs every run) sends every route bodies of
the wrong types, NaN and Infinity as raw JSON text, lone surrogates as raw
``"\\ud800"`` escapes, huge numbers, deep nesting and unknown fields, odd
table ids and match numbers, and the socket hostile messages. Each input is
one the server must refuse (or only read): after each, the status is below
500 and the tables are as they were (the public list, each table's info and
the number of tables in memory; over the socket, the table's version too).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pitkit.server.client import TableClient
from tests.server.conftest import ServerThread, run
from tests.waiting import patience

SEED = 23
NAN, INF = float("nan"), float("inf")


class Raw:
    """JSON text written as it is: what `json.dumps` will not spell (1e400, deep nesting)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text[:30]!r})"


def dumps(value: Any) -> str:
    """JSON text of `value`. Python's writer spells NaN, Infinity and lone
    surrogates as the raw ``NaN``, ``Infinity`` and ``"\\ud800"`` a hostile client sends."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{dumps(k)}: {dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    return json.dumps(value)


# Refused wherever they stand in a body or a message, whatever the field.
HOSTILE: list[Any] = [
    NAN,
    INF,
    -INF,
    Raw("1e400"),
    Raw("-1e999"),
    "\ud800",
    "\udfff",
    "ok\udc80",
    "\ud800\ud800",
    2**63,
    -(2**63) - 1,
    10**40,
    Raw("9" * 4000),
    Raw("[" * 40 + "]" * 40),
    {"a": {"b": {"c": {"d": {"e": [[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}}}}},
    Raw("[" * 2500 + "]" * 2500),  # beyond what Python's JSON reader nests
]

# Per field of POST /api/tables: values its model refuses (so the route never runs).
CREATE_JUNK: dict[str, list[Any]] = {
    "game": [*HOSTILE, None, 3, True, [], {}, "x" * 33, ["pitty-pat"]],
    "players": [*HOSTILE, "3", "three", 3.0, 2.5, 0, -1, 17, 2**31, True, False, [], {}],
    "rules": [
        *HOSTILE,
        None,
        [],
        "target=3",
        3,
        True,
        {"target": {}},
        {"target": [3]},
        {"x" * 41: 1},
        {"target": "x" * 201},
        {f"o{i}": 1 for i in range(33)},
        {"target": NAN},
        {"target": Raw("1e400")},
        {"target": 2**63},
        {"\ud800": 1},
        {"target": "7\ud800"},
    ],
    "seats": [
        *HOSTILE,
        None,
        "open",
        3,
        {},
        [3],
        [[]],
        [True],
        [1.5],
        ["x" * 41],
        [None] * 17,
        [NAN],
        ["\ud800"],
    ],
    "settings": [
        *HOSTILE,
        None,
        [],
        "fast",
        3,
        {"bot_delay": []},
        {"bot_delay": {}},
        {"x" * 41: 0},
        {f"s{i}": 0 for i in range(9)},
        {"bot_delay": NAN},
        {"away_timeout": INF},
        {"standin": "\ud800"},
        {"standin": "x" * 41},
    ],
}
# Fields no body has.
EXTRA_FIELDS: list[Any] = ["extra", "\ud800", "players ", "Game", "host_token", "__proto__"]
# Well-formed, and still refused by the route (400): each spends one of the
# address's creates a minute, so they are few and fixed.
SEMANTIC_CREATES: list[dict[str, Any]] = [
    {"game": ""},
    {"game": "nope"},
    {"game": "pitty-pat "},
    {"game": "Pitty-Pat"},
    {"game": "pit\x00"},
    {"players": 1},
    {"players": 16},
    {"rules": {"target": 1.5}},
    {"rules": {"target": 9.5}},
    {"rules": {"target": "1.5"}},
    {"rules": {"target": True}},
    {"rules": {"target": 0}},
    {"rules": {"target": "11 apples"}},
    {"rules": {"turn_limit": 2.5}},
    {"rules": {"hands": 0}},
    {"rules": {"chips": -(2**62)}},
    {"rules": {"nope": 1}},
    {"rules": {"scoring": "nope"}},
    {"rules": {"scoring": 3}},
    {"rules": {"must_match": 1}},
    {"rules": {"must_match": "maybe"}},
    {"seats": ["nope-bot"]},
    {"seats": [None] * 4, "players": 3},
    {"seats": ["random", "open", "x"]},
    {"settings": {"bot_delay": -1}},
    {"settings": {"bot_delay": 31}},
    {"settings": {"bot_delay": "0"}},
    {"settings": {"bot_delay": True}},
    {"settings": {"bot_delay": None}},
    {"settings": {"away_timeout": 86401}},
    {"settings": {"away_timeout": -0.5}},
    {"settings": {"standin": "nope"}},
    {"settings": {"standin": 3}},
    {"settings": {"listed": 1}},
    {"settings": {"listed": "yes"}},
    {"settings": {"listed": None}},
    {"settings": {"nope": 1}},
]
# Bodies as text and bytes: not JSON, not an object, or holding what JSON should not.
RAW_BODIES: list[bytes] = [
    b"",
    b"{",
    b"}",
    b"null",
    b"[]",
    b"3",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"1e400",
    b'"\\ud800"',
    b"\xff\xfe\x00",
    b"\xef\xbb\xbf{}",
    b'{"game": "pitty-pat",}',
    b"{'game': 'pitty-pat'}",
    b'{"game": "pitty-pat"} trailing',
    b'{"game": "pitty-pat", "game": 3}',
    b'{"game": "pitty-pat", "players": NaN}',
    b'{"game": "\\ud800"}',
    b'{"game": "pitty-pat", "rules": {"target": Infinity}}',
    b'{"game": "pitty-pat", "players": ' + b"9" * 5000 + b"}",
    b"1" * 5000,
    b"[" * 3000 + b"]" * 3000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b'{"game": "' + b"x" * 17_000 + b'"}',  # over the body limit: 413
]
CONTENT_TYPES: list[str | None] = [
    "application/json",
    None,
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin-1",
]
# Table ids as they stand in a URL (percent-escapes kept: lone surrogates, NUL, bad UTF-8).
ODD_IDS: list[str] = [
    "%ED%A0%80",
    "%ED%B2%80x",
    "%00",
    "%FF",
    "%C0%AF",
    "%E2%98%83",
    "%2E%2E",
    "%2F",
    "%2Fetc%2Fpasswd",
    "%20",
    "x%0Ay",
    "a" * 24,
    "a" * 25,
    "a" * 64,
    "a" * 65,
    "a" * 300,
    quote("' OR '1'='1"),
    "null",
    "0",
    "-1",
]
MATCH_NUMBERS: list[str] = [
    "0",
    "1",
    "2",
    "-1",
    "2147483647",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999",
    "1" * 400,
    "1.5",
    "1e3",
    "x",
    "NaN",
    "Infinity",
    "%00",
    "%ED%A0%80",
    "%20",
]
SEAT_NUMBERS: list[str] = ["0", "1", "2", "3", "-1", "16", "2147483648", "9" * 30, "1.5", "x"]
JUDGE_ARGS: list[Any] = [
    "8H",
    "7H 9H",
    "AS",
    "2C 2D 2H",
    "",
    " ",
    "ZZ",
    "10X",
    "x" * 120,
    "--finnish",
    "--min-run-of-sets",
    "--nope",
    "☃ ♠",
    "\x00",
]


@dataclass
class Fuzz:
    """Sends inputs, and checks after each that the server neither failed nor changed."""

    http: httpx.Client
    inputs: int = 0
    errors: list[str] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    """Inputs that should have been refused and were not (socket: no error reply)."""
    statuses: Counter[int] = field(default_factory=Counter)
    state: tuple[Any, ...] = ()

    def snapshot(self) -> tuple[Any, ...]:
        """Everything an input could change: tables in memory, and each one's info."""
        for attempt in (1, 2):
            try:
                count = self.http.get("/healthz").json()["tables"]
                return count, self.http.get("/api/tables").json()
            except httpx.TransportError:
                # A server that failed on the last input may have dropped the kept-alive
                # connection (that input is counted as an error already).
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def rebase(self) -> None:
        self.state = self.snapshot()

    def check(self, label: str) -> None:
        """After one input: the state must be the one before it."""
        self.inputs += 1
        after = self.snapshot()
        if after != self.state:
            self.changes.append(label)
            self.state = after

    def request(
        self,
        method: str,
        url: str,
        body: bytes | None = None,
        content_type: str | None = "application/json",
        token: str | None = None,
    ) -> None:
        headers = {}
        if content_type is not None:
            headers["content-type"] = content_type
        if token is not None:
            headers["authorization"] = token
        label = f"{method} {url[:80]} {(body or b'')[:160]!r}"
        try:
            response = self.http.request(method, url, content=body, headers=headers)
        except httpx.TransportError as exc:
            self.errors.append(f"{label}: the connection failed ({exc!r})")
            self.check(label)
            return
        self.statuses[response.status_code] += 1
        label = f"{label} -> {response.status_code}"
        if response.status_code >= 500:
            self.errors.append(f"{label} {response.text[:200]}")
        elif response.status_code >= 400 and not _has_reason(response):
            self.refusals.append(f"{label}: refused without a reason")
        self.check(label)

    def send(self, method: str, url: str, value: Any, token: str | None = None) -> None:
        self.request(method, url, dumps(value).encode("utf-8"), token=token)


def _has_reason(response: httpx.Response) -> bool:
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        return False
    return bool(detail)


@dataclass
class Tables:
    """The fixture's tables: one waiting, one being played by two people, one over."""

    waiting: str
    playing: str
    over: str
    host: dict[str, str]
    tokens: dict[str, list[str]]

    def ids(self) -> list[str]:
        return [self.waiting, self.playing, self.over]

    def target(self, rng: random.Random) -> str:
        return rng.choice([*self.ids(), *self.ids(), *ODD_IDS])


def _set_up(server: ServerThread) -> Tables:
    # away_timeout 0: no stand-in bot ever moves for the absent people, so
    # nothing changes between inputs unless an input changes it.
    quiet = {"bot_delay": 0, "away_timeout": 0}
    waiting = server.create(game="pitty-pat", seats=["open"] * 3, settings=dict(quiet))
    playing = server.create(game="ace-pit", seats=["open", "open"], settings=dict(quiet))
    over = server.create(game="pitty-pat", players=2, rules={"hands": 1}, seats=["random"] * 2)
    for seat in playing["seats"]:
        joined = server.http.post(
            f"/api/tables/{playing['table']['id']}/join", json={"token": seat["token"]}
        )
        assert joined.status_code == 200, joined.text
        seat["token"] = joined.json()["token"]  # the seat's own secret from now on
    server.wait_for(playing["table"]["id"], "playing")
    server.wait_for(over["table"]["id"], "over")
    made = {"waiting": waiting, "playing": playing, "over": over}
    return Tables(
        waiting=waiting["table"]["id"],
        playing=playing["table"]["id"],
        over=over["table"]["id"],
        host={c["table"]["id"]: c["host_token"] for c in made.values()},
        tokens={c["table"]["id"]: [s["token"] for s in c["seats"]] for c in made.values()},
    )


# -- HTTP ------------------------------------------------------------------------


def _creates(fz: Fuzz, rng: random.Random, count: int) -> None:
    # The few well-formed ones first, while the address may still create tables.
    for case in SEMANTIC_CREATES:
        fz.send("POST", "/api/tables", {"game": "pitty-pat", "settings": {"bot_delay": 0}, **case})
    for raw in RAW_BODIES:
        for kind in CONTENT_TYPES:
            fz.request("POST", "/api/tables", raw, kind)
    for _ in range(count):
        body: dict[Any, Any] = {"game": "pitty-pat", "settings": {"bot_delay": 0}}
        fields = rng.sample([*CREATE_JUNK, "extra"], rng.randrange(1, 4))
        for i, name in enumerate(fields):
            if name == "extra":
                body[rng.choice(EXTRA_FIELDS)] = rng.choice([1, "x", None, *HOSTILE])
            elif i == 0 or rng.random() < 0.5:
                body[name] = rng.choice(CREATE_JUNK[name])
            else:  # a well-formed field beside the bad one
                body[name] = rng.choice(
                    [{"target": 3}, ["random", None], {"listed": False}, 3, "ace-pit"]
                )
        if rng.random() < 0.05:
            fz.send("POST", "/api/tables", rng.choice([[body], body["game"], None]))
        else:
            fz.send("POST", "/api/tables", body)


def _joins(fz: Fuzz, rng: random.Random, tables: Tables, count: int) -> None:
    every = [t for ts in tables.tokens.values() for t in ts]
    for _ in range(count):
        table = tables.target(rng)
        own = tables.tokens.get(table, [])
        token: Any = rng.choice(
            [
                *own,
                *every,
                rng.choice(HOSTILE),
                rng.choice([None, 3, True, [], {}, "x" * 65]),
                "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(0, 64))),
            ]
        )
        name: Any = rng.choice(["Ann", None, "", "x" * 80, "\x00\x01"])
        body: dict[Any, Any] = {"token": token, "name": name}
        if token in own or rng.random() < 0.3:
            # A seat's own token with a well-formed name is a real join: spoil the body.
            if rng.random() < 0.5:
                body["name"] = rng.choice([*HOSTILE, 3, True, [], {}, "x" * 81])
            else:
                body[rng.choice(EXTRA_FIELDS)] = rng.choice([1, *HOSTILE])
        if rng.random() < 0.1:
            del body["token"]
        fz.send("POST", f"/api/tables/{table}/join", body)


def _host_calls(fz: Fuzz, rng: random.Random, tables: Tables, count: int) -> None:
    def authorization(table: str, may_host: bool) -> str | None:
        others = [h for t, h in tables.host.items() if t != table]
        choices: list[str | None] = [
            None,
            "Bearer nope",
            "Bearer " + rng.choice(others),
            "Basic " + rng.choice(others),
            "bearer",
            "Bearer " + "x" * 300,
            "Bearer %ED%A0%80",
        ]
        if may_host and table in tables.host:
            choices += ["Bearer " + tables.host[table]] * 3
        return rng.choice(choices)

    for _ in range(count):
        table = tables.target(rng)
        route = rng.choice(["seat", "seat", "start", "rematch", "close"])
        if route == "seat":
            token = authorization(table, may_host=True)
            body: dict[Any, Any] = {"bot": rng.choice([None, "random", "sensible"])}
            if (token is not None and token.endswith(tables.host.get(table, "-"))) or (
                rng.random() < 0.5
            ):
                # The host's own token with a well-formed body is a real change: spoil it.
                if rng.random() < 0.5:
                    body["bot"] = rng.choice(
                        ["nope", "Random", "random ", 3, True, [], {}, "x" * 41, *HOSTILE]
                    )
                else:
                    body[rng.choice(EXTRA_FIELDS)] = rng.choice([1, *HOSTILE])
            url = f"/api/tables/{table}/seats/{rng.choice(SEAT_NUMBERS)}"
            fz.request("PUT", url, dumps(body).encode("utf-8"), token=token)
        elif route == "close":
            fz.request("DELETE", f"/api/tables/{table}", token=authorization(table, False))
        else:
            # The host may start only what cannot start (playing, over), and force a
            # rematch only where no match is over.
            refused = {"start": (tables.playing, tables.over), "rematch": (tables.playing,)}
            token = authorization(table, may_host=table in refused[route])
            raw = rng.choice([None, b"{}", b"NaN", b'"\\ud800"', b"[" * 2000])
            fz.request("POST", f"/api/tables/{table}/{route}", raw, token=token)


def _reads(fz: Fuzz, rng: random.Random, tables: Tables, count: int) -> None:
    games = ["pits", "ace-pit", "pitch", "pitty-pat", "pit", "war", "nope", "%ED%A0%80", "x" * 40]
    for _ in range(count):
        kind = rng.randrange(5)
        table = tables.target(rng)
        if kind == 0:
            number = rng.choice([*MATCH_NUMBERS, str(rng.randrange(-(2**70), 2**70))])
            fz.request("GET", f"/api/tables/{table}/matches/{number}/log")
        elif kind == 1:
            args: Any = [rng.choice(JUDGE_ARGS) for _ in range(rng.randrange(0, 10))]
            if rng.random() < 0.3:
                args = rng.choice([[rng.choice(HOSTILE)], "8H", None, [3], {"args": ["8H"]}])
            body: dict[Any, Any] = {"args": args}
            if rng.random() < 0.1:
                body[rng.choice(EXTRA_FIELDS)] = 1
            fz.send("POST", f"/api/games/{rng.choice(games)}/judge", body)
        elif kind == 2:
            fz.request("GET", f"/api/tables/{table}")
        elif kind == 3:
            status = rng.choice(["waiting", "over", "x" * 17, "%ED%A0%80", "%00", "", "1"])
            game = rng.choice([*games, "x" * 33])
            fz.request("GET", f"/api/tables?status={status}&game={game}")
        else:
            # A route with a method it does not take.
            method = rng.choice(["PATCH", "PUT", "DELETE", "GET"])
            fz.request(method, rng.choice(["/api/tables", f"/api/tables/{table}/join"]), b"{}")


# -- the socket ----------------------------------------------------------------------

TYPE_JUNK: list[Any] = [None, 3, "", "Act", "launch", "hello ", ["act"], "\ud800", NAN]
BAD_IDS: list[Any] = ["x" * 65, 2**53 + 1, -(2**60), 1.5, True, [], {"a": 1}, NAN, "\ud800"]
FIELD_JUNK: list[Any] = [None, "", "x", 3, -1, 1.5, True, [], {}, "x" * 100, 2**31, 2**53 + 1]


def _socket_messages(rng: random.Random, version: int, legal: list[str], count: int) -> list[Any]:
    """Messages a seat that may not act (or a spectator) must each get an error for."""
    out: list[Any] = [
        b"\xff\x00 binary",
        "NaN",
        "Infinity",
        '{"type": "ping", "id": NaN}',
        '{"type": "ping", "id": 1e400}',
        '{"type": "ping", "id": "\\ud800"}',
        '{"type": "sync", "\\udfff": 1}',
        '{"type": "hello", "name": "\\ud800", "token": null}',
        '{"type": "ping", "id": ' + "9" * 30 + "}",
        '{"type": "act", "action": "x", "version": ' + "9" * 4000 + "}",
        '{"type": "act", "action": "x", "version": ' + "9" * 4400 + "}",
        "[" * 2000,
        '{"type": "act", "action": ' + '{"a": ' * 20 + "1" + "}" * 20 + ', "version": 0}',
        '{"type": "act", "action": {"kind": "lead", "card": NaN}, "version": 0}',
        '{"type": "act", "action": "\\ud83d", "version": 0}',
    ]
    templates: list[dict[str, Any]] = [
        {"type": "hello", "token": None, "name": "Ann"},  # said already
        {"type": "act", "action": rng.choice(legal or ["draw"]), "version": version},
        {"type": "rematch"},  # the match is on
        {"type": "sync"},  # fine as it is: always spoiled below
        {"type": "ping", "id": 1},
    ]
    while len(out) < count:
        message = dict(rng.choice(templates))
        sure = message["type"] in ("sync", "ping") or rng.random() < 0.7
        for _ in range(rng.randrange(0, 3)):
            key = rng.choice([*message, "action", "version", "name", "match", "views"])
            if key != "type":
                message[key] = rng.choice(FIELD_JUNK)
        if sure:  # a defect no message survives
            defect = rng.randrange(4)
            if defect == 0:
                message[rng.choice([*message, "id"])] = rng.choice(HOSTILE)
            elif defect == 1:
                message[rng.choice(["extra", "seat", "\ud800", "Type"])] = 1
            elif defect == 2:
                message["id"] = rng.choice(BAD_IDS)
            else:
                message["type"] = rng.choice(TYPE_JUNK)
        out.append(dumps(message))
    return out


async def _socket_fuzz(fz: Fuzz, server: ServerThread, tables: Tables, count: int) -> None:
    rng = random.Random(SEED + 1)
    # Hostile hellos on fresh sockets, with a waiting table's real tokens: a
    # well-formed one would claim the seat.
    for token in [*tables.tokens[tables.waiting], None]:
        hello: dict[str, Any] = {"type": "hello", "token": token, "name": "Ann"}
        for key, value in [
            ("name", "\ud800"),
            ("name", "Ann\udfff"),
            ("token", f"{token}\ud800"),
            ("match", NAN),
            ("version", 2**63),
            ("version", 2**31),
            ("match", -1),
            ("views", "yes"),
            ("extra", 1),
            ("id", INF),
        ]:
            client = TableClient(server.base, tables.waiting, token)
            client.ws = await connect(client.url, open_timeout=patience(10), compression=None)
            await client.send(dumps({**hello, key: value}))
            reply = await client.recv(5)
            await client.close()
            if reply.get("type") != "error":
                fz.refusals.append(f"hello {key}={value!r}: {reply}")
            fz.check(f"hello {key}={value!r}")
    # Sockets to tables that are not there.
    for odd in ODD_IDS:
        url = server.base.replace("http://", "ws://") + f"/ws/tables/{odd}"
        try:
            async with connect(url, open_timeout=patience(10)) as ws:
                reply = json.loads(await ws.recv(decode=True))
                if reply.get("code") != "no_table":
                    fz.refusals.append(f"socket to {odd}: {reply}")
        except InvalidStatus as exc:
            if exc.response.status_code >= 500:
                fz.errors.append(f"socket to {odd}: {exc.response.status_code}")
        fz.check(f"socket to {odd}")
    # A seat that may not act, and a spectator, at a table being played.
    seats = [TableClient(server.base, tables.playing, t) for t in tables.tokens[tables.playing]]
    watcher = TableClient(server.base, tables.playing, None)
    clients = [*seats, watcher]
    for client in clients:
        await client.connect()
        await client.recv_type("sync")
    mover = next(c for c in seats if c.seat in c.to_act)
    # Only seats that may not act now (and the spectator): any act of theirs is refused.
    senders = [c for c in clients if c.seat is None or c.seat not in mover.to_act]
    fz.rebase()  # the sockets just opened show in the table's info
    before = server.table(tables.playing)
    for client in senders:
        for message in _socket_messages(rng, client.version or 0, mover.legal, count):
            assert client.ws is not None
            await client.ws.send(message)
            try:
                reply = await client.recv(5)
                while reply["type"] == "table":  # seat news, sent to everyone
                    reply = await client.recv(5)
            except (ConnectionClosed, TimeoutError) as exc:
                fz.refusals.append(f"{message[:80]!r}: {exc!r}")
                break
            if reply["type"] != "error" or not reply.get("reason"):
                fz.refusals.append(f"{message[:80]!r}: {reply}")
            elif reply["code"] == "server_error":
                fz.errors.append(f"{message[:80]!r}: {reply}")
            fz.check(f"socket {message[:80]!r}")
    after = server.table(tables.playing)
    if (after["version"], after["to_act"]) != (before["version"], before["to_act"]):
        fz.changes.append(f"version {before['version']} became {after['version']}")
    for client in clients:
        await client.close()


def test_malformed_input_fails_nothing_and_changes_nothing(server: ServerThread) -> None:
    tables = _set_up(server)
    rng = random.Random(SEED)
    fz = Fuzz(server.http)
    fz.rebase()
    # About 2,000 inputs: some 13 s on each database.
    _creates(fz, rng, 550)
    _joins(fz, rng, tables, 250)
    _host_calls(fz, rng, tables, 300)
    _reads(fz, rng, tables, 350)
    run(_socket_fuzz(fz, server, tables, 150))
    print(
        f"\nfuzz: {fz.inputs:,} inputs, {len(fz.errors):,} server errors, "
        f"{len(fz.changes):,} state changes"
    )
    assert fz.inputs > 1800
    assert not fz.errors, fz.errors[:10]
    assert not fz.changes, fz.changes[:10]
    assert not fz.refusals, fz.refusals[:10]
    # The well-formed bad creates all reached the route: none was cut off by the rate limit.
    assert 429 not in fz.statuses, fz.statuses
