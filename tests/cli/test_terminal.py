"""Pit in the terminal: typed commands while bots trade around the player."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from rich.console import Console
from typer.testing import CliRunner

from pitkit import games
from pitkit.cli import app
from pitkit.cli.terminal import TerminalTable
from tests.waiting import until

GAME = games.get("pit")


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, highlight=False, color_system=None), out


@dataclass(frozen=True)
class Sees:
    """A person waiting until they see something happen (`check`), before typing on."""

    check: Callable[[], object]
    what: str


def typed(*steps: str | float | Sees | Callable[[], str]) -> AsyncIterator[str]:
    """Lines typed by a person: a number waits that many seconds (a pause of the
    person's, not a wait for the game); `Sees` waits for what it says; a function types
    what it returns, looked at when its turn comes."""

    async def lines() -> AsyncIterator[str]:
        for step in steps:
            if isinstance(step, float):
                await asyncio.sleep(step)
            elif isinstance(step, Sees):
                await until(step.check, 10, step.what)
            else:
                yield step() if callable(step) else step

    return lines()


def test_typed_commands_while_bots_trade() -> None:
    screen, out = console()
    seating = ["sensible", "human", "sensible", "strong"]
    table: TerminalTable

    def my_commodity() -> str:
        return "offer 1 " + str(table.match.view(1)["hand"][0])

    lines = typed(
        "help",
        my_commodity,  # before the bell: costs 20 (T3)
        Sees(lambda: table.table.is_open, "a bot ring the bell"),
        "look",
        "offer 9 wheat",
        "corner",
        "accept 7",
        my_commodity,
        Sees(lambda: "takes Seat" in out.getvalue(), "a bot take a bot's offer"),
        "quit",
    )
    options = ["sorting_seconds=0", "hand_limit=3"]
    table = TerminalTable(GAME, seating, 5, options, screen, lines=lines, pace=0.02)
    assert table.match.dealer != 1, "the person does not deal: a bot rings the bell"
    asyncio.run(table.play())
    text = out.getvalue()
    assert "You are seat 1" in text and "Commands (type them any time" in text
    assert "You traded before the pit was open: -20." in text
    assert "Ding! The pit is open." in text
    assert "Pit (the pit is open)" in text and "Your hand:" in text
    assert "a trade is of 1 to 4 cards, not 9" in text
    assert "you hold no corner" in text
    assert "there is no seat 7" in text
    assert "offers 1" in text and "takes Seat" in text
    assert text.rstrip().endswith("Goodbye.")


def test_the_person_deals_and_rings_the_bell() -> None:
    screen, out = console()
    seed = next(s for s in range(50) if GAME.new_match(3, None, s).dealer == 0)
    # The sorting period (0.2 s) passes before the second "open": a timer under test.
    lines = typed("open", 0.25, "open", Sees(lambda: table.table.is_open, "the pit open"), "quit")
    table = TerminalTable(
        GAME, ["human", "sensible", "sensible"], seed, [], screen, lines=lines, pace=0.02
    )
    table.table.sorting = 0.2
    asyncio.run(table.play())
    text = out.getvalue()
    assert "You deal." in text
    assert "the sorting period has 1 s left" in text
    assert "Ding! The pit is open." in text


def test_bots_alone_can_be_watched() -> None:
    screen, out = console()
    options = ["sorting_seconds=0", "target=150"]
    table = TerminalTable(GAME, ["sensible"] * 3, 2, options, screen, lines=typed(), pace=0.002)
    asyncio.run(table.play())
    text = out.getvalue()
    assert "CORNER!" in text and "The match is over." in text


def test_pitkit_play_pit_in_the_terminal() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "pit", "--seats", "human,sensible,strong", "--seed", "3"],
        input="help\nlook\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Commands (type them any time" in result.output
    assert "Goodbye." in result.output


def test_pitkit_play_pit_refuses_unknown_bots() -> None:
    result = CliRunner().invoke(app, ["play", "pit", "--seats", "human,nobody,strong"])
    assert result.exit_code == 2
    assert "no bot named 'nobody'" in result.output


def test_pitkit_simulate_pit() -> None:
    result = CliRunner().invoke(
        app, ["simulate", "pit", "-n", "3", "--bots", "sensible,strong,random-trader"]
    )
    assert result.exit_code == 0, result.output
    assert "decisions/s" in result.output and "strong" in result.output
