"""Tables at your own pace in the browser: the lobby's choice (for the turn-based games
alone), the table's notice that the move is yours, the lobby's "Your turn" first, and
Bea's move, made a simulated day later (the server's clock moved forward), landing."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from pitkit.server.client import TableClient
from pitkit.server.live.manager import Manager
from tests.browser.conftest import ServerThread
from tests.browser.helpers import assert_accessible, my_turn, new_context, poll, screenshot

DAY = 86400.0


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server of this module's own: its clock is moved a day forward."""
    s = ServerThread(tmp_path_factory.mktemp("own-pace"))
    yield s
    s.stop()


def _profile(server: ServerThread, name: str) -> dict[str, Any]:
    made = server.http.post("/api/profiles", json={"name": name})
    assert made.status_code == 201, made.text
    signed: dict[str, Any] = made.json()
    return signed


def _sit(server: ServerThread, table: str, invite: str, signed: dict[str, Any]) -> str:
    """Seat the profile with the invitation `invite`; the seat's own token."""
    sat = server.http.post(
        f"/api/tables/{table}/profile-seat",
        json={"token": invite},
        headers={"authorization": f"Bearer {signed['secret']}"},
    )
    assert sat.status_code == 200, sat.text
    return str(sat.json()["token"])


def _play_until_not_mine(server: ServerThread, table: str, token: str) -> None:
    """Ann's moves, from a socket of her own, until the move is someone else's (in a
    thread: Playwright holds this thread's event loop). A refused move fails the test."""

    async def moves() -> None:
        ann = TableClient(server.base, table, token)
        await ann.connect()
        await ann.recv_type("sync")
        while ann.seat in ann.to_act:
            sent = ann.version
            await ann.send({"type": "act", "action": ann.legal[0], "version": sent})
            acked = False
            # Both the ack and the update the move made, in either order: the next move
            # is chosen from what the update says.
            while not acked or ann.version == sent:
                message = await ann.recv()
                assert message.get("type") != "error", message
                acked = acked or message.get("type") == "ack"
        await ann.close()

    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, moves()).result()  # its failure is raised here


def test_the_lobby_offers_own_pace_for_turn_based_games(page: Page, paced: ServerThread) -> None:
    page.goto(paced.base)
    page.check("#game-pit")
    expect(page.locator("#own-pace-box")).to_be_hidden()
    page.check("#game-pitch")
    expect(page.locator("#own-pace-box")).to_be_visible()
    expect(page.locator("#own-pace-choices")).to_be_hidden()
    page.check("#own-pace")
    expect(page.locator("#own-pace-choices")).to_be_visible()
    expect(page.locator("#turn-timer")).to_be_disabled()
    page.select_option("#own-pace-limit", "172800")
    page.select_option("#own-pace-timeout", "forfeit")
    assert_accessible(page, "the lobby with own pace chosen")
    page.click("#create-button")
    page.wait_for_url("**/t/**")
    table = page.url.split("/t/")[1].split("#")[0]
    settings = paced.http.get(f"/api/tables/{table}").json()["settings"]
    assert (settings["own_pace"], settings["on_timeout"]) == (2 * DAY, "forfeit")
    assert settings["turn_seconds"] is None


def test_your_turn_a_day_later(browser: Browser, paced: ServerThread) -> None:
    ann, bea = _profile(paced, "Ann"), _profile(paced, "Bea")
    body = {"game": "pitch", "players": 2, "seats": [None, None], "settings": {"own_pace": DAY}}
    created = paced.http.post("/api/tables", json=body).json()
    table = created["table"]["id"]
    ann_token = _sit(paced, table, created["seats"][0]["token"], ann)
    bea_token = _sit(paced, table, created["seats"][1]["token"], bea)
    # Bea holds a second table, an ordinary one, changed since: "Your turn" still comes first.
    other = paced.http.post("/api/tables", json={"game": "ace-pit", "seats": [None, None]}).json()
    _sit(paced, other["table"]["id"], other["seats"][0]["token"], bea)

    def poll_status() -> dict[str, Any]:
        status: dict[str, Any] = paced.http.get(f"/api/tables/{table}").json()
        return status

    _play_until_not_mine(paced, table, ann_token)
    assert poll_status()["to_act"] == [1]

    ctx = new_context(browser, viewport={"width": 1280, "height": 860})
    ctx.add_init_script(f"localStorage.setItem('pitkit.profile.v1', {json.dumps(json.dumps(bea))})")
    try:
        page = ctx.new_page()
        # The lobby: the table where it is her move first, marked, with its time left.
        page.goto(paced.base)
        first = page.locator("#my-tables li.table-item").first
        expect(first).to_have_attribute("data-table", table)
        expect(first.locator(".your-turn")).to_have_text("Your turn")
        expect(first.locator(".move-left")).to_contain_text("left to move")
        expect(page.locator("#my-tables li.table-item")).to_have_count(2)
        assert screenshot(page, "turn-based-lobby", full_page=False).stat().st_size > 10_000
        # The table: the notice in the page, and the tab's title.
        page.goto(f"{paced.base}/t/{table}#token={bea_token}")
        poll(page, lambda: my_turn(page), 20, "Bea's turn")
        notice = page.locator("#hint .turn-notice")
        expect(notice).to_contain_text("It's your move")
        expect(notice).to_contain_text("left to make it")
        assert "Your turn" in page.title()
        assert_accessible(page, "a table at its own pace, your move")
        # A simulated day, less two hours, later: the move still waits, with under two hours.
        manager: Manager = paced.app.state.services.manager
        manager.clock.advance(DAY - 2 * 3600)
        page.reload()
        poll(page, lambda: my_turn(page), 20, "Bea's turn after a day")
        expect(page.locator("#hint .turn-notice")).to_have_text(
            re.compile(r"It's your move: 1 h \d+ min left to make it")
        )
        version = poll_status()["version"]
        page.locator("button.act:not(.try):enabled").first.click()
        poll(page, lambda: poll_status()["version"] > version, 10, "Bea's move to land")
        assert poll_status()["status"] == "playing"
    finally:
        ctx.close()
