"""The lobby's ways to sit down without an invitation: Join an open seat from the
table list, Play now with its countdown and its bots of the chosen strength, and a
signed-in player's own tables; finished tables apart, with their replays."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ServerThread
from tests.browser.helpers import assert_accessible, new_context, screenshot, wait_state
from tests.waiting import patience, wait_until


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server of this module's own: its lobby lists only what these tests made."""
    s = ServerThread(tmp_path_factory.mktemp("lobby-server"))
    yield s
    s.stop()


def test_join_an_open_seat_from_the_list(page: Page, lobby: ServerThread) -> None:
    table_id, _ = lobby.create("ace-pit", ["greedy", None])
    page.goto(lobby.base + "/")
    item = page.locator(f"#tables .table-item[data-table='{table_id}']")
    expect(item).to_contain_text("1 open seat")
    expect(item).to_contain_text("medium bot")  # greedy is Ace Pit's medium bot
    page.fill("#name", "Bob")
    item.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(rf"/t/{table_id}#token="))
    wait_state(page, "playing")
    expect(page.locator(".seat.me .seat-name")).to_contain_text("Bob")
    # Back in the lobby the seat is this browser's: Play, and no Join.
    page.goto(lobby.base + "/")
    expect(item.get_by_role("link", name="Play")).to_be_visible()
    expect(item.get_by_role("button", name="Join")).to_have_count(0)


def test_play_now_counts_down_and_fills_the_empty_seats(page: Page, lobby: ServerThread) -> None:
    page.goto(lobby.base + "/")
    page.fill("#name", "Cy")
    page.select_option("#play-game", "pitty-pat")
    page.select_option("#play-level", "easy")
    expect(page.locator("#play-level-doc")).to_contain_text("Easy (random): plays any legal move")
    page.click("#play-now-button")
    wait = page.locator("#play-wait")
    expect(wait.locator(".countdown")).to_have_text(re.compile(r"in \d+ s"))
    (waiting,) = lobby.http.get("/api/play-now").json()
    assert waiting["game"] == "pitty-pat" and waiting["level"] == "easy"
    # Someone else presses Play now for the same game and bots: the same table.
    other = lobby.http.post(
        "/api/play-now", json={"game": "pitty-pat", "level": "easy", "name": "Dee"}
    ).json()
    assert other["table"] == waiting["table"]
    expect(wait).to_contain_text("you and 1 other player")
    expect(wait).to_contain_text("take the empty seat")
    screenshot(page, "lobby-play-now", full_page=False)
    # When the wait is over the page goes to the table, where a bot sits beside them.
    page.wait_for_url(re.compile(rf"/t/{waiting['table']}#token="), timeout=patience(30_000))
    wait_state(page, "playing")
    info = lobby.http.get(f"/api/tables/{waiting['table']}").json()
    assert [s["kind"] for s in info["seats"]] == ["player", "player", "bot"]
    assert [info["seats"][0]["name"], info["seats"][2]["bot"]] == ["Cy", "random"]


def _signed_in(lobby: ServerThread) -> dict[str, Any]:
    made = lobby.http.post("/api/profiles", json={"name": "Eve Lobby"})
    assert made.status_code == 201, made.text
    signed: dict[str, Any] = made.json()
    return signed


def _sit_as(lobby: ServerThread, signed: dict[str, Any], invite: str) -> None:
    table_id, token = invite.split("/t/")[1].split("#token=")
    sat = lobby.http.post(
        f"/api/tables/{table_id}/profile-seat",
        json={"token": token},
        headers={"Authorization": f"Bearer {signed['secret']}"},
    )
    assert sat.status_code == 200, sat.text


def _lobby_of_every_kind(lobby: ServerThread) -> dict[str, Any]:
    """A lobby with a table waiting for Play now players, one open seat to join, one
    playing, one finished; and a profile with a seat at one of them."""
    lobby.http.post("/api/play-now", json={"game": "pits", "level": "hard", "wait": 60})
    lobby.create("pitch", ["heuristic", None, "lookahead", None], bot_delay=2.5)
    done, _ = lobby.create("ace-pit", ["greedy", "random"], rules={"hands": 1})
    signed = _signed_in(lobby)
    _table, invite = lobby.create("pitty-pat", [None, "sensible", "random"], bot_delay=2.5)
    _sit_as(lobby, signed, invite)
    wait_until(lambda: lobby.http.get(f"/api/tables/{done}").json()["status"] == "over", 30)
    return signed


def test_the_lobby_at_a_glance(browser: Browser, lobby: ServerThread) -> None:
    signed = _lobby_of_every_kind(lobby)
    keep = f"localStorage.setItem('pitkit.profile.v1', {json.dumps(json.dumps(signed))})"
    for name, viewport in [("lobby-desk", (1366, 900)), ("lobby-phone", (390, 844))]:
        ctx = new_context(
            browser, known=True, viewport={"width": viewport[0], "height": viewport[1]}
        )
        ctx.add_init_script(keep)
        page = ctx.new_page()
        try:
            page.goto(lobby.base + "/")
            expect(page.get_by_role("link", name="Me", exact=True)).to_have_attribute("href", "/me")
            mine = page.locator("#my-tables .table-item")
            expect(mine).to_have_count(1)
            expect(mine).to_contain_text("Pitty Pat")
            expect(page.locator("#tables .play-soon")).to_contain_text("hard bots take")
            expect(page.locator("#tables").get_by_role("button", name="Join")).not_to_have_count(0)
            finished = page.locator("#finished-box")
            expect(finished.locator("summary")).to_contain_text("Finished lately (")
            finished.locator("summary").click()
            expect(finished.get_by_role("link", name="Replay").first).to_be_visible()
            # A seat's choices are strengths, with the algorithm in the line under them.
            page.get_by_label("Pits").check()
            expect(page.locator("#seat-1 option").nth(1)).to_have_text("Bot: easy")
            page.select_option("#seat-1", "rollouts:1s")
            expect(page.locator("#seats .bot-doc").first).to_contain_text("Hard (rollouts:1s)")
            assert_accessible(page, f"the lobby ({name})")
            page.select_option("#seat-1", "heuristic")
            screenshot(page, name, full_page=False)
        finally:
            ctx.close()
