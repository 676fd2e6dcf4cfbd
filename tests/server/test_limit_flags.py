"""Every limit is a flag of `pitkit serve` (issue 36): `--limit NAME=VALUE` for each of
`Limits`, named flags for the common ones, `--venue` for a hall behind one address;
each parsed into the `Limits` the server runs with, and a few of them enforced."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import connect as ws_connect

import pitkit.server
from pitkit.cli import app, limit_rows, serve_limits
from pitkit.server import Limits
from pitkit.server.ops.settings import VENUE, limit_docs
from tests.server.conftest import ServerThread, run

ROOT = Path(__file__).resolve().parents[2]
FIELDS = dataclasses.fields(Limits)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Limits]:
    """The Limits each `pitkit serve` run below would have served with (none is started)."""
    seen: list[Limits] = []

    def serve(*args: Any, **kwargs: Any) -> None:
        seen.append(args[5])

    monkeypatch.setattr(pitkit.server, "serve", serve)
    return seen


def serve(*flags: str) -> Any:
    return CliRunner().invoke(app, ["serve", *flags])


def other_value(field: dataclasses.Field[Any]) -> int | float:
    """A value of `field`'s type other than its default."""
    default: int | float = getattr(Limits(), field.name)
    return default + 7 if field.type == "int" else default * 2 + 0.5


@pytest.mark.parametrize("field", FIELDS, ids=[f.name for f in FIELDS])
def test_every_limit_is_a_flag(field: dataclasses.Field[Any], served: list[Limits]) -> None:
    value = other_value(field)
    result = serve("--limit", f"{field.name}={value}")
    assert result.exit_code == 0, result.output
    changes: dict[str, Any] = {field.name: value}
    assert served == [dataclasses.replace(Limits(), **changes)]
    assert type(getattr(served[0], field.name)) is type(getattr(Limits(), field.name))


def test_the_common_limits_have_flags_of_their_own(served: list[Limits]) -> None:
    result = serve(
        "--tables-per-minute",
        "7",
        "--tables-per-address",
        "8",
        "--connections-per-address",
        "9",
        "--requests-per-second",
        "2.5",
    )
    assert result.exit_code == 0, result.output
    expected = Limits(
        creates_per_minute=7, tables_per_address=8, connections_per_address=9
    ).__dict__ | {"requests_per_second": 2.5}
    assert served[0].__dict__ == expected


def test_the_venue_profile_and_flags_over_it(served: list[Limits]) -> None:
    assert serve("--venue").exit_code == 0
    assert (
        serve("--venue", "--limit", "request_burst=5", "--tables-per-address", "9").exit_code == 0
    )
    venue, changed = served
    assert venue == Limits(**VENUE) == Limits.venue()
    assert changed == dataclasses.replace(venue, request_burst=5, tables_per_address=9)
    # The venue raises what a hall shares, and only that.
    for name, value in VENUE.items():
        assert value > getattr(Limits(), name), name


@pytest.mark.parametrize(
    "flag",
    [
        "nope=1",
        "rate",
        "rate=fast",
        "rate=0",
        "rate=-1",
        "rate=nan",
        "burst=1.5",
        "hello_seconds=inf",
    ],
)
def test_a_limit_that_is_none_or_no_number_stops_the_server(
    flag: str, served: list[Limits]
) -> None:
    result = serve("--limit", flag)
    assert result.exit_code == 2 and "error" in result.output and not served


def test_zero_is_a_limit_only_where_it_means_something() -> None:
    assert serve_limits(False, ["next_hand_seconds=0"]).next_hand_seconds == 0
    assert serve_limits(False, ["tables-per-address=3"]).tables_per_address == 3
    with pytest.raises(ValueError, match="above 0"):
        serve_limits(False, ["tables_per_address=0"])


def test_every_limit_is_documented() -> None:
    """docs/deploy.md holds the table `pitkit limits --markdown` prints: every limit, its
    default, its venue value and its docstring (regenerate it when a limit changes)."""
    docs = limit_docs()
    assert set(docs) == {f.name for f in FIELDS} and all(docs.values())
    printed = CliRunner().invoke(app, ["limits", "--markdown"])
    assert printed.exit_code == 0
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    assert printed.output.strip() in deploy, "run `pitkit limits --markdown` into docs/deploy.md"
    assert [row[0] for row in limit_rows()] == [f.name for f in FIELDS]
    protocol = (ROOT / "docs" / "protocol.md").read_text()
    assert "--limit NAME=VALUE" in protocol and "--venue" in protocol


# -- a few, enforced end to end --------------------------------------------------------


def test_limits_given_as_flags_are_enforced(tmp_path: Path) -> None:
    limits = serve_limits(
        False,
        ["spectators_per_table=1", "message_bytes=64", "request_burst=6", "rate=1000"],
        {"tables_per_address": 1, "requests_per_second": 0.01},
    )
    server = ServerThread(tmp_path, limits)
    try:
        http = server.http
        made = http.post("/api/tables", json={"game": "pitty-pat", "settings": {"bot_delay": 0}})
        assert made.status_code == 201
        second = http.post("/api/tables", json={"game": "pitty-pat"})
        assert second.status_code == 400 and "one address" in second.json()["detail"]
        # Six requests in all, then 429.
        assert [http.get("/healthz").status_code for _ in range(5)] == [200] * 4 + [429]
        run(_sockets(server.base, made.json()["table"]["id"]))
    finally:
        server.stop()


async def _sockets(base: str, table: str) -> None:
    """One spectator at most; a message over 64 characters is too large."""
    url = base.replace("http", "ws") + f"/ws/tables/{table}"
    async with ws_connect(url) as first, ws_connect(url) as second:
        await first.send('{"type": "hello"}')
        assert json.loads(await first.recv())["type"] == "welcome"
        await second.send('{"type": "hello"}')
        assert json.loads(await second.recv())["code"] == "table_full"
        await first.send(json.dumps({"type": "ping", "id": "x" * 64}))
        while (answer := json.loads(await first.recv()))["type"] != "error":
            pass
        assert answer["code"] == "too_large"
