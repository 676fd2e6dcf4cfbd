"""Issue 32's story, end to end in Chromium, at a laptop and on a phone on its side: Ann
makes a profile on /me and signs in on her second device with a passkey (Chromium's
virtual authenticator); Bea makes her own profile and joins Ann's Pitty Pat table from
the lobby's list; the two play it to its end through the pages, and each sees her
rating move and the match on her page; Bea turns notices on, and at Ann's Pitch table
at its own pace she is told it is her turn, in the page and by a Web Push message that
reaches the test's receiver and decrypts; a simulated day later (the server's clock
moved forward) her move lands. axe-core finds nothing serious on the pages passed
through; on the phone the key steps are saved as docs/screenshots/story-*.png.

Only what a person would not see is done through the HTTP API: the server's clock and
the checks of what the server holds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from pitkit.server.live.manager import Manager
from pitkit.server.ops.settings import PUSH_TEST_RECEIVERS_ENV
from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    assert_accessible,
    click_simplest,
    my_turn,
    new_context,
    poll,
    screenshot,
    step_each,
    wait_state,
)
from tests.browser.test_notices import _FAKE_PUSH, _make_profile, _watched, receiver
from tests.browser.test_profiles import Device, devices
from tests.server.test_push import Receiver, held

# Fixtures of other modules: a push service on 127.0.0.1, and browsers closed (and checked).
__all__ = ["devices", "receiver"]

DAY = 86400.0
VIEWS: dict[str, dict[str, Any]] = {
    "laptop": {"viewport": {"width": 1366, "height": 900}},
    "phone-on-its-side": {
        "viewport": {"width": 844, "height": 390},
        "is_mobile": True,
        "has_touch": True,
    },
}


@pytest.fixture
def story_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    """A server of each run's own (a profile's name is one profile's alone), which may
    push to the test's receiver on 127.0.0.1 (the test setting)."""
    monkeypatch.setenv(PUSH_TEST_RECEIVERS_ENV, "1")
    s = ServerThread(tmp_path)
    yield s
    s.stop()


@dataclass
class Bea:
    """Bea's browser: her page, what goes wrong in it, and her profile's id."""

    page: Page
    problems: list[str]
    id: str


@dataclass
class Story:
    """Who is where: Ann's second device, Bea, and whether this run saves the docs'
    pictures (the phone on its side)."""

    server: ServerThread
    ann: Device
    bea: Bea
    pictures: bool

    def shot(self, page: Page, step: str, full_page: bool = False) -> None:
        """Save docs/screenshots/story-<step>.png, on the phone on its side."""
        if self.pictures:
            screenshot(page, f"story-{step}", full_page=full_page)


def _table_id(page: Page) -> str:
    """The id of the table the page is at."""
    return page.url.split("/t/")[1].split("#")[0]


def _ann_signs_in_on_two_devices(
    browser: Browser, server: ServerThread, view: dict[str, Any], devices: list[Device]
) -> Device:
    """Ann makes her profile on her laptop, adds a passkey, and signs in with it on her
    second device (the passkey synced to it, as a password manager does); that device."""
    laptop = Device(browser, server, **VIEWS["laptop"])
    devices.append(laptop)
    laptop.open_me()
    laptop.page.fill("#make-name", "Ann")
    laptop.page.click("#make-form button[type=submit]")
    expect(laptop.page.locator("#profile-name")).to_have_value("Ann")
    laptop.page.click("#add-passkey")
    expect(laptop.page.locator("#passkey-list")).to_contain_text("A passkey added")
    (passkey,) = laptop.passkeys()

    second = Device(browser, server, **view)
    devices.append(second)
    second.sync(passkey)
    second.open_me()
    second.page.click("#passkey-sign-in")
    expect(second.page.locator("#profile-name")).to_have_value("Ann")
    expect(second.page.locator("#device-list li")).to_have_count(2)
    assert_accessible(second.page, "Ann's profile on her second device")
    return second


def _bea_makes_her_profile(
    browser: Browser, server: ServerThread, view: dict[str, Any], receiver: Receiver
) -> Bea:
    """Bea's own browser, which allows notices (its push service: the receiver)."""
    ctx = new_context(browser, **view)
    ctx.grant_permissions(["notifications"], origin=server.base)
    ctx.add_init_script(_FAKE_PUSH % json.dumps(receiver.subscription("/push/bea")))
    page, problems = _watched(ctx)
    return Bea(page, problems, _make_profile(page, server, "Bea"))


def _new_table(
    page: Page, base: str, game: str, rules: dict[str, int], own_pace: float | None = None
) -> str:
    """Ann's new table of two in the lobby, the other seat open; its id, once she sits."""
    page.goto(base + "/")
    page.check(f"#game-{game}")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "open")
    if rules:
        page.locator("#rules-box summary").click()
        for name, value in rules.items():
            page.fill(f"#rule-{name}", str(value))
    if own_pace is not None:
        page.check("#own-pace")
        page.select_option("#own-pace-limit", str(int(own_pace)))
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/t/[^#]+#token="))
    wait_state(page, "waiting")
    return _table_id(page)


def _bea_joins(story: Story, table: str, check: bool = False) -> None:
    """Bea finds Ann's table in the lobby's list and presses Join."""
    page = story.bea.page
    page.goto(story.server.base + "/")
    item = page.locator(f"#tables .table-item[data-table='{table}']")
    expect(item).to_contain_text("1 open seat")
    expect(item).to_contain_text("Ann")
    if check:
        assert_accessible(page, "the lobby, a table to join")
    item.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(rf"/t/{table}#token="))
    wait_state(page, "playing")
    expect(page.locator(".seat.me .seat-name")).to_contain_text("Bea")


def _moves(pages: list[Page]) -> bool:
    """Each page not over makes the simplest move it offers, if it is its turn (or says
    it is ready for the next hand); whether every page is over."""
    return all(step == "over" for step in step_each(pages))


def _pitty_pat(story: Story) -> str:
    """Ann's table of Pitty Pat, first to one hand; Bea joins; they play it out."""
    ann = story.ann.page
    table = _new_table(ann, story.ann.base, "pitty-pat", {"target": 1})
    _bea_joins(story, table, check=True)
    wait_state(ann, "playing")
    pages = [ann, story.bea.page]
    poll(ann, lambda: my_turn(ann) or my_turn(story.bea.page), 20, "the first move")
    assert_accessible(ann, "the Pitty Pat table in play")
    story.shot(ann, "pitty-pat")
    poll(ann, lambda: _moves(pages), 180, "the match's end", every=30)
    return table


def _sees_her_rating(page: Page, base: str, table: str) -> int:
    """From /me to her page: a Pitty Pat rating of one match, and the match with its
    move and its replay; her place (1 or 2)."""
    page.goto(base + "/me")
    page.get_by_role("link", name="Your ratings and matches").click()
    page.wait_for_url("**/p/*")
    card = page.locator(".rating-card[data-game=pitty-pat]")
    expect(card).to_contain_text("1 rated match")
    expect(card.locator(".value")).to_contain_text("±")
    (match,) = page.locator("#match-list .match-item").all()
    expect(match).to_contain_text("Pitty Pat")
    place = int(re.findall(r"(\d)\w\w of 2", match.inner_text())[0])
    # The winner gains on the loser, who loses as much: the arrow says which way.
    expect(match.locator(".change")).to_have_class(re.compile("up" if place == 1 else "down"))
    replay = match.get_by_role("link", name=re.compile("Replay"))
    expect(replay).to_have_attribute("href", f"/t/{table}#replay=1&as=all")
    return place


def _ratings(story: Story, table: str) -> None:
    """Both see their rating move, and the match in their history, opposite ways."""
    ann = story.ann.page
    ann_place = _sees_her_rating(ann, story.ann.base, table)
    expect(ann.locator("#opponent-list .person")).to_contain_text("Bea")
    assert_accessible(ann, "Ann's page after the match")
    story.shot(ann, "rating", full_page=True)
    bea_place = _sees_her_rating(story.bea.page, story.server.base, table)
    assert {ann_place, bea_place} == {1, 2}


def _bea_turns_notices_on(story: Story, endpoint: str) -> None:
    page = story.bea.page
    page.goto(story.server.base + "/me")
    page.get_by_role("button", name="Tell me when it's my turn").click()
    expect(page.locator("#notices-state")).to_have_text("Notices are on for this device.")
    assert_accessible(page, "Bea's profile with notices on")
    assert held(story.server, story.bea.id) == [endpoint]


def _ann_moves_until_bea_is_to(story: Story, table: str) -> None:
    """Ann plays her moves (if the deal made it hers) until the move is Bea's."""
    ann, server = story.ann.page, story.server

    def bea_to_act() -> bool:
        if my_turn(ann):
            click_simplest(ann)
        return bool(server.http.get(f"/api/tables/{table}").json()["to_act"] == [1])

    poll(ann, bea_to_act, 30, "Bea's turn")


def _your_turn(story: Story, receiver: Receiver) -> tuple[str, str]:
    """At Ann's Pitch table at its own pace (two days a move), Bea is told it is her
    turn: in her page, and by Web Push. The table, and the page the notice opens."""
    ann = story.ann.page
    table = _new_table(ann, story.ann.base, "pitch", {}, own_pace=2 * DAY)
    _bea_joins(story, table)
    _ann_moves_until_bea_is_to(story, table)
    bea = story.bea.page
    poll(bea, lambda: my_turn(bea), 20, "Bea's turn on her page")
    expect(bea.locator("#hint .turn-notice")).to_contain_text("It's your move")
    assert "Your turn" in bea.title()
    (pushed,) = poll(bea, lambda: receiver.got, 20, "the push of Bea's turn")
    notice = receiver.read(pushed)
    assert (notice["kind"], notice["title"]) == ("your-turn", "Your turn in Pitch")
    assert notice["table"] == table and "Ann's table" in notice["body"]
    return table, str(notice["url"])


def _a_day_later(story: Story, table: str, url: str) -> None:
    """Bea closed the page; a day later she opens the notice's page, and moves."""
    server, bea = story.server, story.bea
    bea.page.goto("about:blank")  # she leaves the table
    manager: Manager = server.app.state.services.manager
    manager.clock.advance(DAY)
    bea.page.goto(server.base + url)
    poll(bea.page, lambda: my_turn(bea.page), 20, "Bea's turn a day later")
    expect(bea.page.locator("#hint .turn-notice")).to_have_text(
        re.compile(r"It's your move: (1 day|23 h( \d+ min)?) left to make it")
    )
    assert_accessible(bea.page, "Bea's table a day later, her move")
    story.shot(bea.page, "your-turn-a-day-later")
    before = server.http.get(f"/api/tables/{table}").json()["version"]
    assert click_simplest(bea.page) is not None
    ann = story.ann.page

    def landed() -> int:
        now = server.http.get(f"/api/tables/{table}").json()
        assert now["status"] == "playing", now
        return int(now["version"]) if now["version"] > before else 0

    version = poll(bea.page, landed, 10, "Bea's move to land")
    # Ann's page, open all along, has it.
    shown = "() => window.pitkit.state.version"
    poll(ann, lambda: ann.evaluate(shown) >= version, 10, "Bea's move on Ann's page")


@pytest.mark.parametrize("view", list(VIEWS))
def test_ann_and_bea_play_rated_then_over_days(
    browser: Browser,
    story_server: ServerThread,
    receiver: Receiver,
    devices: list[Device],
    view: str,
) -> None:
    options = VIEWS[view]
    ann = _ann_signs_in_on_two_devices(browser, story_server, options, devices)
    bea = _bea_makes_her_profile(browser, story_server, options, receiver)
    story = Story(story_server, ann, bea, pictures=view == "phone-on-its-side")
    story.shot(ann.page, "signed-in-with-a-passkey", full_page=True)
    table = _pitty_pat(story)
    _ratings(story, table)
    _bea_turns_notices_on(story, receiver.subscription("/push/bea")["endpoint"])
    pitch, url = _your_turn(story, receiver)
    _a_day_later(story, pitch, url)
    assert len(receiver.got) == 1, "Bea was told of her turn more than once"
    bea.page.context.close()
    assert not bea.problems, bea.problems
