"""The pitkit command, driven as a user would."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pitkit.cli import app

runner = CliRunner()


def test_games_lists_games_and_options() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "Pitty Pat" in result.output and "pairs_on_table" in result.output


def test_bots_lists_bots() -> None:
    result = runner.invoke(app, ["bots", "pitty-pat"])
    assert result.exit_code == 0
    assert "random" in result.output and "sensible" in result.output


def test_help_everywhere() -> None:
    for command in ([], ["play"], ["simulate"], ["replay"], ["games"], ["judge"]):
        result = runner.invoke(app, [*command, "--help"])
        assert result.exit_code == 0, command
        assert "Usage" in result.output


def test_play_a_whole_match_by_menu_numbers() -> None:
    result = runner.invoke(
        app,
        ["play", "pitty-pat", "--seats", "human,random", "--seed", "5", "-o", "target=1"],
        input="1\n" * 2000,
    )
    assert result.exit_code == 0, result.output
    assert "Your hand" in result.output
    assert "The match is over." in result.output


def test_bad_entries_get_a_message_and_a_new_prompt() -> None:
    result = runner.invoke(
        app,
        ["play", "pitty-pat", "--seats", "human,random", "--seed", "5"],
        input="match ZZ\n99\nfly away\nhelp\nquit\n",
    )
    assert result.exit_code == 0
    assert "not a card: 'ZZ'" in result.output
    assert "unknown action 'fly'" in result.output
    assert "Traceback" not in result.output
    assert "Goodbye" in result.output


def test_play_seats_six_when_the_options_ask_for_teams() -> None:
    # Pitch's teams (C1) need six seats: the default table follows the option.
    result = runner.invoke(app, ["play", "pitch", "--seed", "3", "-o", "teams=2x3"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "seat 5:" in result.output and "seat 6:" not in result.output


def test_play_refuses_unknown_games_bots_and_options() -> None:
    assert "no game named 'chess'" in runner.invoke(app, ["play", "chess"]).output
    result = runner.invoke(app, ["play", "pitty-pat", "--seats", "human,wizard"])
    assert result.exit_code == 2 and "no bot named 'wizard'" in result.output
    result = runner.invoke(app, ["play", "pitty-pat", "-o", "target=lots"])
    assert result.exit_code == 2 and "whole number" in result.output


def test_simulate_saves_logs_that_replay(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "pitty-pat",
            "-n",
            "5",
            "--seed",
            "1",
            "--bots",
            "random,sensible",
            "--save-logs",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "win share" in result.output and "decisions/s" in result.output
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 5
    replay = runner.invoke(app, ["replay", str(logs[0])])
    assert replay.exit_code == 0, replay.output
    assert "Replay matches the log exactly." in replay.output
    as_seat = runner.invoke(app, ["replay", str(logs[0]), "--seat", "1"])
    assert as_seat.exit_code == 0 and "Your cards:" in as_seat.output


def test_replay_refuses_a_broken_log(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text(
        '{"game": "pitty-pat", "players": 2, "seed": 1}\n'
        '{"type": "action", "seat": 0, "action": "fly"}\n'
    )
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "does not replay" in result.output


def test_simulate_is_deterministic_for_a_seed() -> None:
    def table(seed: int) -> str:
        output = runner.invoke(
            app, ["simulate", "pitty-pat", "-n", "3", "--seed", str(seed)]
        ).output
        return output.split("matches/s")[0].rsplit("\n", 1)[0]

    assert table(4) == table(4)


def test_a_long_menu_is_cut_short_and_list_shows_it_all() -> None:
    result = runner.invoke(
        app,
        ["play", "pits", "--seats", "human,human,human,human,human", "--seed", "2"],
        input="list\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "more: type list to see all" in result.output
    numbers = [line.split()[0] for line in result.output.splitlines() if line.strip()[:1].isdigit()]
    assert len(numbers) > 2 * 24  # the short menu, then every play
