"""`pitkit judge ace-pit` and `pitkit play ace-pit` in the terminal."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pitkit.cli import app
from pitkit.games import acepit

runner = CliRunner()


def test_judge_prints_the_breakdown() -> None:
    result = runner.invoke(app, ["judge", "ace-pit", "8H", "7H 9H"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "The Pin, Double Flush, Double Spoon — 95" in out
    assert out.count("Flush") == 3 and out.count("Spoon") == 3
    assert "picks up" in out


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["8H", "7H", "10H"], "The Pin, Double Flush, Spoon — 80"),
        (["8H", "3H"], "Throw Away"),
        (["AH", "KH"], "led and unbeaten"),
        (["KH", "QH AH"], "145"),
    ],
)
def test_judge_verdicts(args: list[str], expected: str) -> None:
    assert expected in acepit.judge(args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["8H", "7H 2C"], "Double Fork"),
        (["8H"], "give the led card"),
        (["XX", "2C"], "not a card"),
    ],
)
def test_judge_refuses_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["judge", "ace-pit", *args])
    assert result.exit_code == 2
    assert message in result.output.replace("\n", " ")


def test_play_a_whole_game_in_the_terminal() -> None:
    result = runner.invoke(
        app, ["play", "ace-pit", "--seats", "human,greedy", "--seed", "5"], input="1\n" * 200
    )
    assert result.exit_code == 0, result.output
    assert "The match is over." in result.output
    assert "Your hand" in result.output
