"""Sounds and short animations at the table: on by default, the player's to turn off,
and off when the device asks for reduced motion (js/table/effects.js).

The page's sounds and animations are counted where the browser makes them: every
oscillator the page starts, and every animation it runs on the felt."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ServerThread, known_player
from tests.browser.helpers import click_simplest, my_turn, screenshot, wait_state

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
    ctx = known_player(
        browser.new_context(
            viewport={"width": 1366, "height": 900},
            reduced_motion="reduce" if reduced else "no-preference",
        )
    )
    ctx.set_default_timeout(15_000)
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
    for _ in range(400):
        if made >= moves:
            return
        if my_turn(page) and click_simplest(page) is not None:
            made += 1
        page.wait_for_timeout(60)
    raise AssertionError(f"made only {made} of {moves} moves")


def _heard(page: Page) -> int:
    return int(page.evaluate("window.heard"))


def _moved(page: Page) -> int:
    return int(page.evaluate("window.moved"))


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
    page.wait_for_timeout(300)
    assert (_heard(page), _moved(page)) == (0, 0)
    page.locator("#help").click()
    dialog = page.locator("#dialog[open][data-kind=help]")
    expect(dialog).to_contain_text("Your device asks for less motion")
    animations = dialog.get_by_label(_ANIMATIONS)
    expect(animations).not_to_be_checked()
    animations.check()
    dialog.get_by_role("button", name="Close").click()
    _play(page, 3)
    page.wait_for_function("window.moved > 0")
    assert _heard(page) == 0  # sounds stay off until asked for
    page.close()
