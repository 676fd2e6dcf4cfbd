"""The server's log stays for what is wrong (issue 32): a bot dealt a new Pit hand while
it was thinking waits out the sorting period without a warning at every hand."""

from __future__ import annotations

import logging

import pytest

from tests.server.conftest import ServerThread


def test_bots_dealing_pit_hands_log_no_warnings(
    server: ServerThread, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="pitkit.server")
    created = server.create(
        game="pit",
        players=3,
        seats=["sensible"] * 3,
        rules={"sorting_seconds": 1, "hand_limit": 5},
        settings={"bot_delay": 0.05},
    )
    info = server.wait_for(created["table"]["id"], "over", timeout=120)
    assert info["status"] == "over"
    noise = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert noise == []
