"""Shared set-up for the examples' tests."""

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _sb3_logs_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # stable-baselines3 makes a log folder per model, in /tmp by default.
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3"))
