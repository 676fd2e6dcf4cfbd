"""A game with no drawing of its own, played through the page: War
(tests/extra/war.py, registered for every test by tests/conftest.py) is drawn by
the table's generic drawing, from its view and the view's JSON Schema alone.

A person plays a two-hand match against War's bot, as a person would: clicking
a highlighted card, a move's button, or pressing its key; at a desktop size and
at a phone's (390 x 844). The page must show the server's words, each seat's
public facts, the table's cards, the end of each hand and the result."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ServerThread
from tests.browser.helpers import close_summary, screenshot, wait_next_step, wait_state
from tests.browser.test_games import finish_and_check
from tests.waiting import patience

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}


def test_war_has_no_module_but_a_schema(server: ServerThread) -> None:
    """What the page draws War from: no module, and a schema whose card places are marked."""
    war = next(g for g in server.http.get("/api/games").json() if g["name"] == "war")
    assert war["module"] is None
    assert war["opponent"] == "high"
    table = war["view_schema"]["properties"]["table"]
    assert table["items"]["format"] == "card"
    won = war["view_schema"]["properties"]["players"]["items"]["properties"]["won"]
    assert won["title"] == "Won"


def play_a_turn(page: Page, turn: int) -> None:
    """One move, made by turns as a person would: a card, a button, the keyboard."""
    version = page.get_attribute("body", "data-version")
    how = turn % 3
    if how == 0:
        page.locator("#hand .card.playable").first.click()
    elif how == 1:
        page.locator("#actions button.act:enabled").last.click()
    else:
        page.locator("#hand .card").first.focus()
        page.keyboard.press("1")
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)


@pytest.mark.parametrize("size", SIZES)
def test_war_on_the_generic_drawing(page: Page, server: ServerThread, size: str) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    table_id, invite = server.create("war", [None, "high"], {"hands": 2}, bot_delay=0.05)
    page.goto(invite)
    wait_state(page, "playing")

    # The generic drawing: the table's card place, labelled from the schema's title;
    # each seat's name, card count and public facts; the moves as buttons.
    expect(page.locator(".centre-box.generic")).to_be_visible()
    place = page.locator(".place[data-place=table]")
    expect(place.locator(".place-title")).to_have_text("Table")
    opponent = page.locator(".seat[data-seat='1']")
    expect(opponent.locator(".seat-name")).to_have_text("Bix")
    expect(opponent.locator(".seat-count")).to_contain_text(re.compile(r"^[45] cards$"))
    expect(opponent.locator(".chip", has_text="Won: 0")).to_be_visible()
    expect(page.locator(".seat.me .chip", has_text="Won: 0")).to_be_visible()

    turns = 0
    summaries = 0
    shot = False
    deadline = time.monotonic() + patience(60)
    while (step := wait_next_step(page, deadline)) != "over":
        assert step is not None, "the match did not end in time"
        if step == "summary":
            close_summary(page)
            summaries += 1
            continue
        hand = page.locator("#hand .card")
        # Every card of the hand is a legal play, and each move has its button.
        expect(page.locator("#hand .card.playable")).to_have_count(hand.count())
        plays = page.locator("#actions button.act[data-action^='play ']")
        expect(plays).to_have_count(hand.count())
        if not shot and place.locator(".card").count():
            # The bot led: its card is on the table, labelled, and it is our turn.
            expect(place).to_have_attribute("aria-label", re.compile(r"^Table: \w+ of \w+$"))
            expect(page.locator("#hint")).to_contain_text("Your turn")
            screenshot(page, "generic-war" if size == "desktop" else "generic-war-phone")
            shot = True
        play_a_turn(page, turns)
        turns += 1
    assert turns == 10, "five cards a hand, two hands"
    assert summaries == 1, "the first hand's end was shown"
    assert shot, "the bot never led"

    # The result: the server's words, and its final scores.
    finish_and_check(page, server, table_id)
    expect(page.locator("#dialog .outcome").first).to_contain_text(re.compile(r"\w"))
    log = page.locator("#log").inner_text()
    assert "You play" in log and "Bix plays" in log, log
    assert "seat 0" not in log.lower() and "seat 1" not in log.lower(), log
    # Nothing is wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
