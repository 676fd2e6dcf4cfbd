"""The table fits the screen (issues 20 and 32): for each game, at desktop sizes, on
two tablets and on phones upright and on their side, a seat at a live table with bots
sees the table, its own hand and its moves without scrolling; seat plates overlap
nothing; nothing is cut off at the edges; no control is covered by anything else (the
point at its middle is the control's own); on a touch screen the buttons are big
enough for a finger and no keyboard hints show. Pit at its largest table (seven) too,
and the dealer's bell before the pit opens; Pits with the longest meld on the table.

Checked by the elements' boxes and by what the browser finds at each control's middle,
not by eye. One table a game for all the desktop sizes and one for all the touch
screens: the page is resized between looks. With PITKIT_SCREENSHOTS set, the pictures
of Pit, Pitch and Pits at the phones' and a few other sizes go to
layout-<table>-<w>x<h>.png."""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    click_simplest,
    close_summary,
    my_turn,
    new_context,
    screenshot,
    settle,
    wait_state,
)
from tests.waiting import patience

# The viewports: (width, height, a phone with touch).
SIZES = {
    "1280x657": (1280, 657, False),
    "1366x800": (1366, 800, False),
    "1440x900": (1440, 900, False),
    "1920x960": (1920, 960, False),
    "390x844": (390, 844, True),
    "360x740": (360, 740, True),
    "360x640": (360, 640, True),
    "844x390": (844, 390, True),  # phones on their side
    "740x360": (740, 360, True),
    "768x1024": (768, 1024, True),  # tablets, upright and on their side
    "1024x768": (1024, 768, True),
}
SCREENS = {
    "desk": [size for size, (_, _, touch) in SIZES.items() if not touch],
    "touch": [size for size, (_, _, touch) in SIZES.items() if touch],
}
# The tables: (game, players, rules), each game at its usual number of players and Pit
# at its largest; the rules keep the match going.
TABLES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "pits": ("pits", 5, {}),
    "pit": ("pit", 5, {"sorting_seconds": 0}),
    "pit-7": ("pit", 7, {"sorting_seconds": 0}),
    "ace-pit": ("ace-pit", 2, {}),
    "pitty-pat": ("pitty-pat", 3, {}),
    "pitch": ("pitch", 4, {}),
}
SHOTS = {"pit", "pit-7", "pitch", "pits"}
SHOT_SIZES = {"1440x900", "1024x768", "390x844", "360x740", "360x640", "844x390", "740x360"}
TOUCH_PX = 44  # the smallest control a finger hits reliably (WCAG 2.5.5)
SLACK = 1  # sub-pixel rounding

# The boxes the test reads, by name: each a list of {x, y, w, h, name} for the elements
# shown. Within the board, what scrolls (the middle of the table on a phone, a row of
# buttons) is cut to what shows; the board itself must fit unscrolled.
MEASURE = """(middle) => {
  const board = document.querySelector('.board');
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
    for (let up = el.parentElement; board.contains(up) && up !== board; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const c = up.getBoundingClientRect();
      [left, top] = [Math.max(left, c.left), Math.max(top, c.top)];
      [right, bottom] = [Math.min(right, c.right), Math.min(bottom, c.bottom)];
    }
    return {x: left, y: top, w: right - left, h: bottom - top, height: r.height};
  };
  const boxes = (selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
    .map((el) => {
      const name = el.dataset.seat ?? el.dataset.action ?? el.id ?? '';
      return {...shown(el), name: `${el.tagName}.${el.className} ${name}`};
    })
    .filter((b) => b.w > 0 && b.h > 0);
  return {
    width: innerWidth, height: innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    dialog: !!document.querySelector('#dialog[open]'),
    felt: boxes('#felt'), hand: boxes('#hand'), cards: boxes('#hand .card'),
    hint: boxes('#hint'), actions: boxes('#actions .buttons'), moves: boxes('#actions button'),
    seats: boxes('.seat'), topbar: boxes('.topbar'), mine: boxes('#mine'),
    centre: boxes(middle), placed: boxes('.placed'),
    buttons: boxes('button, .button'), kbd: boxes('kbd'),
    hintText: document.getElementById('hint')?.innerText ?? '',
  };
}"""
# What the games draw in the middle of the table (the cards placed toward a seat apart).
MIDDLE = (
    ".centre-title, .centre-caption, .offer-tile, .corner-button, .bell, .trump-badge, "
    ".meld .cards-row, .steps, .take-row, .led, .last-trick, .stock-box, .place"
)
# A made-up moment of Pits, drawn by the page while the table waits for this seat: a
# meld longer than any hand holds (a run of twelve, 3 to A), laid by the seat across the
# table. Its row of cards must not grow up under the seats' plates (a deal once laid a
# meld that wrapped to two rows there).
LONGEST_MELD = """() => {
  const S = window.pitkit.state;
  const cards = ['3S', '4H', '5D', '6C', '7S', '8H', '9D', 'TC', 'JS', 'QH', 'KD', 'AC'];
  const seat = (S.seat + 2) % S.table.players;
  S.view = {...S.view, table: {seat, cards, meld: 'a run of 12 to A'}};
  window.pitkit.draw();
  return cards.length;
}"""
MELD_TOPS = (
    "[...document.querySelectorAll('.meld .card')].map((c) => c.getBoundingClientRect().top)"
)

# Every control of the top bar and the table (your hand and moves too), each brought
# into view within what scrolls inside the table (Pit's offers, a row of buttons), as a
# finger would: the point at its middle must be on the screen and be the control's own,
# not a seat's plate, a label or another control over it. One pass, in one frame: the
# page cannot redraw in between.
COVERED = """() => {
  const board = document.querySelector('.board');
  const reveal = (el) => {
    for (let up = el.parentElement; up && up !== board; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (!/auto|scroll/.test(style.overflowY + style.overflowX)) continue;
      const [c, r] = [up.getBoundingClientRect(), el.getBoundingClientRect()];
      if (r.top < c.top || r.bottom > c.bottom) {
        up.scrollTop += r.top - c.top - (c.height - r.height) / 2;
      }
      if (r.left < c.left || r.right > c.right) {
        up.scrollLeft += r.left - c.left - (c.width - r.width) / 2;
      }
    }
  };
  const name = (el) => {
    if (!el) return 'nothing';
    const said = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${said}"`;
  };
  const controls = [...document.querySelectorAll(
    '.topbar :is(button, a[href]), .board :is(button, a[href], input, select, textarea)')]
    .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
  const problems = [];
  for (const el of controls) {
    if (board.contains(el)) reveal(el);
    const r = el.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) {
      problems.push(`${name(el)}: its middle is off the screen`);
      continue;
    }
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      problems.push(`${name(el)}: covered by ${name(hit)}`);
    }
  }
  return problems;
}"""
# A key named in words, as the hints say it on a keyboard: "(P)", "(Enter)", "(keys 2, 3, 4)".
KEY_WORDS = re.compile(r"\((?:[A-Z]|Enter|Esc|keys [^)]*)\)")


@pytest.fixture(scope="module")
def opponents(server: ServerThread) -> dict[str, str]:
    """Each game's usual bot."""
    return {g["name"]: g["opponent"] for g in server.http.get("/api/games").json()}


@contextmanager
def screen_page(browser: Browser, screen: str) -> Iterator[Page]:
    """A page the size of the screen's first size (a touch screen for "touch"); any
    script error fails the test."""
    width, height, touch = SIZES[SCREENS[screen][0]]
    context = new_context(
        browser,
        known=True,
        viewport={"width": width, "height": height},
        is_mobile=touch,
        has_touch=touch,
    )
    page = context.new_page()
    problems: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console: {message.text}")

    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", console)
    try:
        yield page
    finally:
        context.close()
    assert not problems, problems


def resize(page: Page, size: str) -> None:
    width, height, _ = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})


def in_play(page: Page, game: str) -> None:
    """Wait until the seat shows a hand in play: for Pit, the pit open and an offer on
    the table (a hand over: ready for the next, and this seat rings the bell if it
    deals); for Pitch, past the bidding, with cards played on the table; else this
    seat's turn. The table waits for this seat's move in every game but Pit."""
    deadline = time.monotonic() + patience(30)
    while True:
        assert time.monotonic() < deadline, "no hand in play"
        close_summary(page)
        if game == "pit":
            bell = page.locator("button[data-action=open]:enabled")
            if bell.count():
                with contextlib.suppress(PlaywrightError):  # rung already: gone
                    bell.first.click(timeout=patience(2000))
            if page.locator(".offer-tile").count():
                break
        elif my_turn(page) and (game != "pitch" or page.locator(".placed").count()):
            break
        elif game == "pitch" and my_turn(page):
            click_simplest(page)  # bid, or lead, until a trick is on the table
        page.wait_for_timeout(100)  # a look again soon, within the deadline
    back_to_the_top(page)


def back_to_the_top(page: Page) -> None:
    """Where a player's screen would be. Playwright scrolls what it clicks into view, in
    every scrolling box around it and the page itself (seen at 1280x657 and 390x844
    under load), as a finger does not: back to the top; then the last redraw settles."""
    page.evaluate("document.querySelector('.layout').scrollTop = 0; window.scrollTo(0, 0)")
    settle(page)


def inside(box: dict[str, Any], width: float, height: float) -> bool:
    return bool(
        box["x"] >= -SLACK
        and box["y"] >= -SLACK
        and box["x"] + box["w"] <= width + SLACK
        and box["y"] + box["h"] <= height + SLACK
    )


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(
        min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > SLACK
        and min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > SLACK
    )


def misfits(m: dict[str, Any], touch: bool) -> list[str]:
    """What does not fit in a measure (MEASURE) of the table, in words."""
    width, height = m["width"], m["height"]
    found = []
    # Nothing wider than the screen; the table, the hand and the moves on it, unscrolled.
    if m["scrollWidth"] > width:
        found.append("the page scrolls sideways")
    found += [f"no {part} shown" for part in ("felt", "hand", "hint") if len(m[part]) != 1]
    found += [f"no {part} shown" for part in ("cards", "seats") if not m[part]]
    for part in ("felt", "hand", "cards", "hint", "actions", "moves", "seats", "topbar", "centre"):
        found += [f"{part} off the screen: {b}" for b in m[part] if not inside(b, width, height)]

    # Seat plates overlap nothing: each other, the top bar, your play, the table's middle.
    seats = m["seats"]
    for i, a in enumerate(seats):
        for b in seats[i + 1 :] + m["topbar"] + m["mine"] + m["centre"] + m["placed"]:
            if overlap(a, b):
                found.append(f"a seat overlaps: {a} and {b}")
    # Nor does the middle of the table run into your play below it.
    for box in m["centre"] + m["placed"]:
        if m["mine"] and overlap(box, m["mine"][0]):
            found.append(f"the table's middle overlaps your play: {box}")

    if touch:
        small = [b for b in m["buttons"] if b["height"] < TOUCH_PX - SLACK]
        found += [f"buttons too small for a finger: {small}"] if small else []
        found += [f"keyboard hints on a touch screen: {m['kbd']}"] if m["kbd"] else []
        found += [f"keys named: {m['hintText']}"] if KEY_WORDS.search(m["hintText"]) else []
    elif not m["kbd"]:
        found.append("no keyboard hints on a desktop")
    return found


def look(page: Page, game: str, size: str) -> list[str]:
    """What does not fit at this size, or is covered, on the table in play. A hand of
    Pit may end while the page is looked at: then the next is awaited and looked at."""
    resize(page, size)
    for _ in range(3):
        in_play(page, game)
        m = page.evaluate(MEASURE, MIDDLE)
        covered: list[str] = page.evaluate(COVERED)
        # Open before the measures or between them (a corner a moment later), the
        # window covers the table: look again at the next hand.
        if not m["dialog"] and not page.evaluate("!!document.querySelector('#dialog[open]')"):
            return misfits(m, SIZES[size][2]) + covered
    raise AssertionError("the end-of-hand window kept opening over the table")


def longest_meld(page: Page, size: str) -> list[str]:
    """What does not fit at this size with the longest meld on Pits' table (LONGEST_MELD):
    its cards on one line, and nothing overlapping."""
    resize(page, size)
    cards = page.evaluate(LONGEST_MELD)
    expect(page.locator(".meld .card")).to_have_count(cards)
    back_to_the_top(page)
    lines = len(set(page.evaluate(MELD_TOPS)))
    found = [f"the meld takes {lines} lines"] if lines != 1 else []
    found += misfits(page.evaluate(MEASURE, MIDDLE), SIZES[size][2])
    if os.environ.get("PITKIT_SCREENSHOTS"):
        screenshot(page, f"layout-pits-longest-meld-{size}", full_page=False)
    return found


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("table", TABLES)
def test_the_table_fits(
    browser: Browser, server: ServerThread, opponents: dict[str, str], table: str, screen: str
) -> None:
    game, players, rules = TABLES[table]
    _, invite = server.create(game, [None, *[opponents[game]] * (players - 1)], rules, 0.05)
    found: dict[str, list[str]] = {}
    with screen_page(browser, screen) as page:
        page.goto(invite)
        wait_state(page, "playing")
        page.wait_for_selector("#hand .card")
        for size in SCREENS[screen]:
            if problems := look(page, game, size):
                found[size] = problems
            if os.environ.get("PITKIT_SCREENSHOTS") and table in SHOTS and size in SHOT_SIZES:
                back_to_the_top(page)
                screenshot(page, f"layout-{table}-{size}", full_page=False)
        if game == "pits":  # and, while the table waits for this seat, the longest meld
            for size in SCREENS[screen]:
                if problems := longest_meld(page, size):
                    found[f"{size}, the longest meld"] = problems
    assert not found, found


def deal_as_the_dealer(page: Page, server: ServerThread, players: int) -> None:
    """Sit this page at a new Pit table as its dealer, in the sorting period: every seat
    open and the table started (a bot plays each until it is taken); the seat the
    watchers' page shows dealing is taken. A long sorting period holds the bell."""
    body = {
        "game": "pit",
        "players": players,
        "seats": [None] * players,
        "rules": {"sorting_seconds": 60},
        "settings": {"bot_delay": 0.05},
    }
    created = server.http.post("/api/tables", json=body).json()
    table_id = created["table"]["id"]
    started = server.http.post(
        f"/api/tables/{table_id}/start",
        headers={"Authorization": f"Bearer {created['host_token']}"},
    )
    assert started.status_code == 200, started.text
    page.goto(f"{server.base}/t/{table_id}#watch")
    dealer = page.locator(".seat:has(.chip.dealer)")
    expect(dealer).to_have_count(1)
    seat = int(dealer.get_attribute("data-seat") or 0)
    page.goto("about:blank")
    page.goto(next(s["invite"] for s in created["seats"] if s["seat"] == seat))
    wait_state(page, "playing")
    expect(page.locator("body")).to_have_attribute("data-seat", str(seat))
    expect(page.locator("#felt button.bell")).to_be_visible()


# A made-up moment of the trading, drawn by the page from its own state while the socket
# is quiet (the sorting period): the seat to this one's left offers one card, and this
# seat could pay with each commodity in play, so that an offer has as many Pay buttons
# as it ever can.
EVERY_PAYMENT = """() => {
  const S = window.pitkit.state;
  const seller = (S.seat + 1) % S.table.players;
  S.view = {...S.view, phase: 'trading', offer: null, trades: 0,
    offers: [{seat: seller, offer: 1, count: 1}]};
  S.legal = S.view.commodities.map((c) => `accept ${seller} ${c} #1`);
  return S.view.commodities.length;
}"""


def test_the_dealers_bell_and_every_payment_at_pits_largest_table(
    browser: Browser, server: ServerThread
) -> None:
    """On every touch screen, Pit at seven: the dealer's bell before the pit opens, and
    an offer that could be paid with any of the seven commodities, all in view and
    uncovered (issue 32: the bell lay under the dealer's own plate on a phone on its side)."""
    found: dict[str, list[str]] = {}
    with screen_page(browser, "touch") as page:
        deal_as_the_dealer(page, server, 7)
        for size in SCREENS["touch"]:
            resize(page, size)
            back_to_the_top(page)
            if problems := page.evaluate(COVERED):
                found[f"{size}, the bell"] = problems
            if os.environ.get("PITKIT_SCREENSHOTS") and size in SHOT_SIZES:
                screenshot(page, f"layout-pit-7-bell-{size}", full_page=False)
        kinds = page.evaluate(EVERY_PAYMENT)
        pay = page.locator(".offer-tile .pay button")
        expect(pay).to_have_count(kinds)
        for size in SCREENS["touch"]:
            resize(page, size)
            back_to_the_top(page)
            expect(pay).to_have_count(kinds)  # still the made-up moment
            if problems := page.evaluate(COVERED):
                found[f"{size}, {kinds} ways to pay"] = problems
            if os.environ.get("PITKIT_SCREENSHOTS") and size in SHOT_SIZES:
                screenshot(page, f"layout-pit-7-pay-{size}", full_page=False)
    assert not found, found


@pytest.mark.parametrize("size", ["360x640", "390x844"])
def test_the_lobby_fits_a_phone(browser: Browser, server: ServerThread, size: str) -> None:
    """The lobby, with every rule option shown, no wider than the phone (issue 32:
    5 px too wide at 390, 35 at 360)."""
    with screen_page(browser, "touch") as page:
        resize(page, size)
        page.goto(f"{server.base}/")
        page.locator("#rules-box summary").click()
        for game in ("pits", "pitch", "pit"):
            page.locator(f"#game-{game}").check()
            expect(page.locator("#rules .option").first).to_be_visible()
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= SIZES[size][0], f"{game}: the lobby is {wide} px wide"
