"""Sounds and short animations at the table: on by default, the player's to turn off,
and off when the device asks for reduced motion (js/table/effects.js).

The page's sounds and animations are counted where the browser makes them: every
oscillator the page starts, and every animation it runs on the felt."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ServerThread
from tests.browser.helpers import click_simplest, my_turn, new_context, screenshot, wait_state
from tests.waiting import patience

_COUNT = """(() => {
  window.heard = 0;
  window.moved = 0;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.heard += 1;
    return start.apply(this, args);
  };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    if (this.closest && this.closest('#felt')) window.moved += 1;
    return animate.apply(this, args);
  };
})()"""

_SOUNDS = "Sounds for plays, trades, tricks and your turn"
_ANIMATIONS = "Short animations of plays, trades and tricks"


def _context(browser: Browser, reduced: bool) -> BrowserContext:
    ctx = new_context(
        browser,
        known=True,
        viewport={"width": 1366, "height": 900},
        reduced_motion="reduce" if reduced else "no-preference",
    )
    ctx.add_init_script(_COUNT)
    return ctx


@pytest.fixture
def plain(browser: Browser) -> Iterator[BrowserContext]:
    ctx = _context(browser, reduced=False)
    yield ctx
    ctx.close()


@pytest.fixture
def reduced(browser: Browser) -> Iterator[BrowserContext]:
    ctx = _context(browser, reduced=True)
    yield ctx
    ctx.close()


def _play(page: Page, moves: int) -> None:
    """Make `moves` moves by clicking, waiting for the bot's answer in between."""
    made = 0
    deadline = time.monotonic() + patience(30)
    while made < moves:
        assert time.monotonic() < deadline, f"made only {made} of {moves} moves"
        if my_turn(page) and click_simplest(page) is not None:
            made += 1
        page.wait_for_timeout(60)  # a look again soon, within the deadline


def _heard(page: Page) -> int:
    return int(page.evaluate("window.heard"))


def _moved(page: Page) -> int:
    return int(page.evaluate("window.moved"))


def _cards_lift_smoothly(page: Page) -> bool:
    """Whether the hand's cards glide as they lift and settle (their CSS transition).

    The locator waits for the hand: the page says "playing" as soon as it knows the
    table, which can be a moment before the first view has drawn the cards."""
    card = page.locator("#hand .card").first
    duration = card.evaluate("card => getComputedStyle(card).transitionDuration")
    return any(part.strip() != "0s" for part in str(duration).split(","))


def _open_table(page: Page, server: ServerThread) -> None:
    _, invite = server.create("ace-pit", [None, "greedy"], bot_delay=0.2)
    page.goto(invite)
    wait_state(page, "playing")


def test_plays_are_heard_and_seen_until_the_player_turns_sounds_off(
    plain: BrowserContext, server: ServerThread
) -> None:
    page = plain.new_page()
    _open_table(page, server)
    button = page.locator("#sound")
    expect(button).to_have_attribute("aria-pressed", "true")
    assert _cards_lift_smoothly(page)
    _play(page, 3)
    page.wait_for_function("window.heard > 0 && window.moved > 0")
    button.click()  # off (the click itself makes no sound: it is "off")
    expect(button).to_have_attribute("aria-pressed", "false")
    heard = _heard(page)
    moved = _moved(page)
    _play(page, 3)
    page.wait_for_function(f"window.moved > {moved}")  # still animated
    assert _heard(page) == heard  # but silent
    page.reload()  # the choice is kept by this browser
    wait_state(page, "playing")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    page.locator("#help").click()
    dialog = page.locator("#dialog[open][data-kind=help]")
    expect(dialog.get_by_label(_SOUNDS)).not_to_be_checked()
    expect(dialog.get_by_label(_ANIMATIONS)).to_be_checked()
    screenshot(page, "sounds-and-animations")
    page.close()


def test_reduced_motion_starts_both_off_and_the_player_may_turn_them_on(
    reduced: BrowserContext, server: ServerThread
) -> None:
    page = reduced.new_page()
    _open_table(page, server)
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    _play(page, 4)
    # The last move answered (and the bot's answer to it under way), then kept: "no sound
    # and no animation for a while" is what is tested, and 300 ms is the while.
    page.wait_for_selector("body[data-busy=false]")
    page.wait_for_timeout(300)
    assert (_heard(page), _moved(page)) == (0, 0)
    assert not _cards_lift_smoothly(page)  # nor do the cards glide as they lift
    page.locator("#help").click()
    dialog = page.locator("#dialog[open][data-kind=help]")
    expect(dialog).to_contain_text("Your device asks for less motion")
    animations = dialog.get_by_label(_ANIMATIONS)
    expect(animations).not_to_be_checked()
    animations.check()
    dialog.get_by_role("button", name="Close").click()
    _play(page, 3)
    page.wait_for_function("window.moved > 0")
    assert _cards_lift_smoothly(page)
    assert _heard(page) == 0  # sounds stay off until asked for
    page.close()
