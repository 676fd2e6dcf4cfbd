"""Play at a person's pace, through the page: Pit's sorting period counts down on the
felt, and between hands the end-of-hand window waits for the player (its Ready button)
or for its countdown, while the bots wait too. And the words for players: each game's
rules page, linked from the table and from the lobby's options."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    SUMMARY,
    click_simplest,
    page_state,
    screenshot,
    wait_next_step,
    wait_state,
)
from tests.waiting import patience


def table(server: ServerThread, table_id: str) -> dict[str, Any]:
    """The table as GET /api/tables/{id} shows it."""
    response = server.http.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    info: dict[str, Any] = response.json()
    return info


def seconds(text: str) -> int:
    """The first whole number in `text`."""
    found = re.search(r"\d+", text)
    assert found is not None, text
    return int(found.group())


def test_pit_sorting_countdown(page: Page, server: ServerThread) -> None:
    table_id, link = server.create(
        "pit",
        [None, "sensible", "sensible"],
        rules={"sorting_seconds": 6, "hand_limit": 1},
        bot_delay=0.6,
    )
    page.goto(link)
    wait_state(page, "playing")
    clock = page.locator("#felt .sorting-clock")
    counting = re.compile(r"^Sorting: \d+ s — trading opens when the bell rings\.$")
    expect(clock).to_have_text(counting)
    first = seconds(clock.inner_text())
    assert 3 <= first <= 6
    bell = page.locator("#felt button.bell")
    if bell.count():  # this seat deals: the bell waits for the countdown
        expect(bell).to_be_disabled()
        expect(bell).to_have_text(re.compile(r"Ring the bell in \d+ s"))
    # The page offers no trade while sorting (the server would charge 20 for one).
    expect(page.locator("#actions button.act:enabled")).to_have_count(0)
    screenshot(page, "pit-sorting")
    page.wait_for_function(
        "first => Number(document.querySelector('#felt .sorting-clock')"
        ".textContent.match(/\\d+/)[0]) < first",
        arg=first,
        timeout=patience(5000),
    )
    # The dealer rings the bell once the countdown is over (this seat, or a bot): gone.
    if bell.count():
        expect(bell).to_be_enabled(timeout=patience(8000))
        bell.click()
    expect(page.locator("#felt .centre-title")).to_contain_text(
        "The pit is open", timeout=patience(15_000)
    )
    expect(clock).to_have_count(0)
    assert table(server, table_id)["status"] == "playing"


def play_to_summary(page: Page) -> None:
    """Play this seat by clicking until the end-of-hand window opens."""
    deadline = time.monotonic() + patience(30)
    while (step := wait_next_step(page, deadline)) != "summary":
        assert step == "turn", f"no hand ended ({step or 'time out'}): {page_state(page)}"
        click_simplest(page)


def test_hand_over_waits_for_ready(page: Page, server: ServerThread) -> None:
    table_id, link = server.create(
        "pitty-pat",
        [None, "sensible"],
        rules={"turn_limit": 4, "hands": 3},
        settings={"next_hand_seconds": 60},
    )
    page.goto(link)
    wait_state(page, "playing")
    play_to_summary(page)
    dialog = page.locator(SUMMARY)
    expect(dialog.locator(".next-hand-clock")).to_have_text(
        re.compile(r"^The next hand starts in \d+ s, or as soon as everyone is ready\.$")
    )
    expect(dialog.locator(".next-hand-waiting")).to_have_text("Waiting for you.")
    ready = dialog.get_by_role("button", name="Ready for the next hand")
    expect(ready).to_be_visible()
    screenshot(page, "hand-over-ready")
    # The countdown runs, and nobody moves meanwhile: the bot waits for the player.
    version = table(server, table_id)["version"]
    first = seconds(dialog.locator(".next-hand-clock").inner_text())
    page.wait_for_function(
        "first => Number(document.querySelector('#dialog .next-hand-clock')"
        ".textContent.match(/\\d+/)[0]) < first",
        arg=first,
        timeout=patience(5000),
    )
    # Kept: "nobody moves for a while" is what is tested; half a second more of it.
    page.wait_for_timeout(500)
    assert table(server, table_id)["version"] == version
    # Ready: the only person here, so the next hand starts, and the window goes.
    ready.click()
    expect(page.locator("#dialog")).not_to_be_visible()
    expect(page.locator("#subtitle")).to_contain_text("hand 2")
    # The hand is on: the bot plays, or it is this player's turn (the page lets them act).
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v || document.body.dataset.turn === 'me'",
        arg=version,
    )


def test_the_countdown_starts_the_next_hand(page: Page, server: ServerThread) -> None:
    table_id, link = server.create(
        "pitty-pat",
        [None, "sensible"],
        rules={"turn_limit": 4, "hands": 3},
        settings={"next_hand_seconds": 3},
    )
    page.goto(link)
    wait_state(page, "playing")
    play_to_summary(page)
    page.keyboard.press("Escape")  # the window closed: the felt shows the pause
    pause = page.locator("#felt .next-hand")
    expect(pause).to_contain_text("The next hand starts in")
    expect(pause.get_by_role("button", name="Ready for the next hand")).to_be_visible()
    # Nobody presses: the countdown starts the hand.
    expect(pause).to_have_count(0, timeout=patience(6000))
    # Hand 2, or already hand 3: the bot, dealt pairs, may go out at its first turn,
    # and hand 2 end between two of `expect`'s looks.
    expect(page.locator("#subtitle")).to_contain_text(re.compile(r"hand [23] of 3"))
    assert table(server, table_id)["status"] == "playing"


def test_rules_pages(page: Page, server: ServerThread) -> None:
    # A table waiting for its second player: it stays so. (With a bot there, a hand that
    # is the whole match could be over before the page showed it in play: a bot dealt
    # pairs goes out at its first turn.)
    _, link = server.create("pitty-pat", [None, None], rules={"hands": 1})
    page.goto(link)
    wait_state(page, "waiting")
    rules = page.locator("#rules-link")
    expect(rules).to_have_attribute("href", "/rules/pitty-pat")
    page.click("#help")  # on a phone the top bar has no room: "How to play" links there too
    more = page.locator("#dialog a.rules-more")
    expect(more).to_have_attribute("href", "/rules/pitty-pat")
    expect(more).to_have_text("The rules of Pitty Pat, and every option")
    page.goto(server.base + "/rules/pitty-pat")
    expect(page.locator("#title")).to_have_text("Pitty Pat: the rules")
    expect(page.locator("#how p").first).to_be_visible()
    options = page.locator("#options")
    expect(options.locator("#option-turn_limit")).to_have_text("Turns before a hand is a draw")
    text = options.inner_text()
    assert "Default: 1000." in text
    # Words for players: no ruling codes, no option names as the code spells them.
    assert not re.search(r"\([A-Z]\d+\)|_", page.locator("main").inner_text()), text
    # The lobby's options each link to their place on their game's rules page.
    page.goto(server.base + "/")
    page.check("#game-pit")
    page.click("#rules-box summary")
    more = page.locator("#rule-sorting_seconds-doc a")
    expect(more).to_have_attribute("href", "/rules/pit#option-sorting_seconds")
    page.goto(server.base + "/rules/pit#option-sorting_seconds")
    expect(page.locator("#option-sorting_seconds")).to_have_class("highlight")
    assert server.http.get("/rules/no-such-game").status_code == 404
