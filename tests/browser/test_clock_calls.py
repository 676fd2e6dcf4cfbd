"""Time, calls and paper in the hall (issue 35), in Chromium: the manager starts the round
clock at the desk, and the big screen and a player's phone count it down; a player calls
the judge, and that table's judge (sound allowed) has the call, with a beep, within two
seconds, while the judge of the other table does not; a second press is told the judge is
on the way. A Pits sheet prints with a row for each of its ten hands, blank where not
played; the published results are one page that stands alone."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import SCREENSHOTS, ServerThread
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    Browsers,
    EventByApi,
    assert_accessible,
    new_context,
    screenshot,
)
from tests.browser.test_events import click
from tests.waiting import patience, wait_until

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
JUDGES = ["Jo Dee", "Kim Lau"]
CALL_SECONDS = 2.0
"""How soon a call is on the judge's page (issue 35: within 2 s)."""


class GoRound(EventByApi):
    """A Pitch Go-Round 1 through the API: Ann, Cat, Eve, Gus at table 1 (judge Jo
    Dee), Bob, Dan, Fay at table 2 (judge Kim Lau)."""

    def __init__(self, server: ServerThread) -> None:
        super().__init__(server, "pitch-tournament", "Darrtown Bicentennial")
        for name in PLAYERS:
            self.made(self.enter(self.manager, "add_player", name=name))
        for name in JUDGES:
            self.made(self.enter(self.manager, "add_judge", name=name))
        self.enter(self.manager, "seat_round", by="standing", tables=2, judges=JUDGES)

    def made(self, answer: dict[str, object]) -> None:
        link = answer["link"]
        assert isinstance(link, dict)
        self.tokens[link["name"]] = link["token"]
        self.urls[link["name"]] = link["url"]


def clock_seconds(page: Page, where: str = ".round-clock") -> int:
    """The seconds a clock on `page` shows ("24:59" is 1499)."""
    text = page.locator(f"{where} .clock-time").first.inner_text()
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_round_clock_and_a_call_to_the_judge(browsers: Browsers, server: ServerThread) -> None:
    ev = GoRound(server)
    desk = browsers.open(ev.manager_url)
    screen = browsers.open(f"{server.base}/e/{ev.id}/screen", {"width": 1920, "height": 1080})
    bob = browsers.open(ev.urls["Bob"], PHONE)
    kim = browsers.open(ev.urls["Kim Lau"])
    jo = browsers.open(ev.urls["Jo Dee"])
    expect(screen.locator(".round-clock")).to_have_count(0)

    # The manager starts a clock of 25 minutes for Go-Round 1 from the desk.
    expect(desk.locator("#clock-label")).to_have_value("Go-Round 1")
    desk.fill("#clock-minutes", "25")
    click(desk, "clock-start")
    expect(desk.locator(".ev-clock .ev-note")).to_contain_text("The clock runs: 25 min.")
    assert_accessible(desk, "the desk with the round clock")
    for page in (screen, bob):
        face = page.locator(".round-clock")
        expect(face).to_contain_text("Go-Round 1")
        expect(face).to_have_attribute("data-state", "running")
        assert 24 * 60 <= clock_seconds(page) <= 25 * 60
    # It counts down by itself, by the server's clock.
    first = clock_seconds(screen)
    wait_until(lambda: clock_seconds(screen) < first, 3, "the big screen's clock to tick")
    expect(screen.locator(".round-clock.big .clock-time")).to_have_text(re.compile(r"^2[45]:\d\d$"))
    screenshot(screen, "event-clock", full_page=False)

    # Kim allows sound; Bob calls the judge from his phone.
    click(kim, "allow-sound")
    expect(kim.locator("button[data-action=allow-sound]")).to_have_attribute("aria-pressed", "true")
    expect(bob.locator("button[data-action=call-judge]")).to_be_visible()
    assert_accessible(bob, "a player's page with the clock and the call button")
    pressed = time.monotonic()
    click(bob, "call-judge")
    call = kim.locator(".call-list .call")
    expect(call).to_contain_text("table 2 of Go-Round 1", timeout=patience(CALL_SECONDS) * 1000)
    took = time.monotonic() - pressed
    assert took <= patience(CALL_SECONDS), f"the call took {took:.2f} s to reach the judge"
    expect(call).to_contain_text("Bob called")
    expect(kim.locator("body")).to_have_attribute("data-beeps", "2")  # the toggle's, the call's
    expect(jo.locator(".call-list .call")).to_have_count(0)  # not Jo's table
    assert_accessible(kim, "a judge's page with a call")
    screenshot(kim, "judge-call", full_page=False)

    # Dan, at the same table, presses too: the judge is on the way already.
    dan = browsers.open(ev.urls["Dan"], PHONE)
    click(dan, "call-judge")
    expect(dan.locator(".call-judge .ev-note")).to_contain_text(
        "The judge has been called; they are on their way"
    )
    # Kim is on the way: Bob's phone says so; then done.
    click(kim, "call-coming", ".call-list")
    expect(bob.locator(".call-judge [data-call-status=coming]")).to_contain_text(
        "judge Kim Lau is on the way"
    )
    click(kim, "call-done", ".call-list")
    expect(kim.locator(".call-list .call")).to_have_count(0)
    expect(bob.locator("[data-call-status]")).to_have_count(0)

    # The manager pauses the clock: every page shows it paused.
    click(desk, "clock-pause")
    expect(screen.locator(".round-clock")).to_have_attribute("data-state", "paused")
    expect(bob.locator(".round-clock")).to_have_attribute("data-state", "paused")


def test_a_pits_sheet_prints_every_hand_row(
    browsers: Browsers, server: ServerThread, tmp_path: Path
) -> None:
    ev = EventByApi(server, "pits-continuous", "Club night")
    five = PLAYERS[:5]
    for name in five:
        ev.enter(ev.manager, "add_player", name=name)
    ev.enter(ev.manager, "start_game", players=five, table="Table A", scorer="Ann")
    for hand in range(1, 4):
        ev.enter(ev.manager, "hand", game=1, hand=hand, order=five[hand:] + five[:hand])
    sheets = browsers.open(f"{server.base}/e/{ev.id}/print", DESKTOP)
    sheets.emulate_media(media="print")
    rows = sheets.locator(".sheet[data-game='1'] tbody tr")
    expect(rows).to_have_count(10)
    blank = sheets.locator(".sheet[data-game='1'] tbody tr.blank")
    expect(blank).to_have_count(7)
    assert blank.first.locator("th").inner_text() == "4"
    assert all(text == "" for text in blank.first.locator("td").all_inner_texts())
    expect(sheets.locator(".hall-strip")).to_have_count(0)
    screenshot(sheets, "pits-sheet-print")
    pdf = sheets.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 1000

    # The results to publish: one page that stands alone.
    context = new_context(browsers.browser, viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.base}/e/{ev.id}/publish")
        expect(page.locator("h1")).to_have_text("Club night")
        expect(page.locator("h2").first).to_have_text("Most points")
        assert page.locator("script, link, img").count() == 0
        page.screenshot(path=str(SCREENSHOTS / "publish.png"), full_page=False)
    finally:
        context.close()
