"""The host's seat options on the table page: rename a friend, move them, open their
seat for someone else; the friend's page says what the host did. And a player's own
link to continue on another device."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    look_again_soon,
    new_context,
    screenshot,
    step_each,
    wait_state,
)
from tests.waiting import patience


def _as_host(page: Page, server: ServerThread, table_id: str, host_token: str) -> None:
    """This browser holds the table's host token, as the lobby's would after creating
    it, and its player is called Hana."""
    page.goto(server.base + "/")
    record = json.dumps({"host": host_token})
    page.evaluate(
        """([id, record]) => {
          const data = JSON.parse(localStorage.getItem('pitkit.v1') || '{}');
          data.name = 'Hana';
          data.tables = {...(data.tables || {}), [id]: JSON.parse(record)};
          localStorage.setItem('pitkit.v1', JSON.stringify(data));
        }""",
        [table_id, record],
    )


def _seat_options(page: Page, name: str) -> Any:
    """Open the seat options of the seat `name` sits in; returns the window."""
    page.get_by_role("button", name=f"Seat options: {name}", exact=True).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Seat options")
    return dialog


def test_the_host_renames_moves_and_reopens_a_friends_seat(
    context: BrowserContext, page: Page, server: ServerThread, browser: Browser
) -> None:
    created = server.http.post(
        "/api/tables",
        json={"game": "pitty-pat", "players": 3, "settings": {"bot_delay": 0}},
    ).json()
    table_id, host_token = created["table"]["id"], created["host_token"]
    invites = {s["seat"]: s["invite"] for s in created["seats"]}
    _as_host(page, server, table_id, host_token)
    page.goto(invites[0])
    wait_state(page, "waiting")
    friend_ctx = new_context(browser, known=True, viewport={"width": 1280, "height": 800})
    second_ctx = new_context(browser, viewport={"width": 1280, "height": 800})
    try:
        friend = friend_ctx.new_page()
        friend.goto(invites[1])
        wait_state(friend, "waiting")
        expect(friend.locator("body")).to_have_attribute("data-seat", "1")
        # Only the host's page has seat options.
        expect(friend.locator(".seat-menu")).to_have_count(0)
        expect(page.locator(".seat-menu")).to_have_count(3)

        # The friend's own link, to continue on another device, labelled as such.
        friend.get_by_role("button", name="Invite").click()
        invite_window = friend.get_by_role("dialog")
        expect(invite_window).to_contain_text("Continue on another device")
        expect(invite_window).to_contain_text("Open this link there")
        own = friend.get_by_label("Your seat link").input_value()
        assert "#token=" in own and own != invites[1]  # the seat's own secret, not the invitation
        friend.get_by_role("button", name="Done").click()
        second = second_ctx.new_page()
        second.goto(own)
        wait_state(second, "waiting")
        expect(second.locator("body")).to_have_attribute("data-seat", "1")
        # Both devices play the seat, and neither is left to find that out.
        expect(friend.locator("#log")).to_contain_text("opened on another device too")
        expect(second.locator("#log")).to_contain_text("Your seat is open on another device too")

        # Rename.
        dialog = _seat_options(page, "Tess")
        screenshot(page, "host-seat-menu", full_page=False)
        dialog.get_by_label("Name").fill("Tess B.")
        dialog.get_by_role("button", name="Rename").click()
        expect(page.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Tess B.")
        expect(friend.locator("#log")).to_contain_text("The host renamed you Tess B.")
        expect(friend.locator("#subtitle")).to_contain_text("you are Tess B.")
        expect(page.locator("#log")).to_contain_text("The host renamed Tess to Tess B.")

        # Move to the third seat (open): the friend's page follows them there.
        dialog = _seat_options(page, "Tess B.")
        dialog.get_by_label("Move to").select_option(label="Seat 3 (open)")
        dialog.get_by_role("button", name="Move").click()
        expect(friend.locator("body")).to_have_attribute("data-seat", "2")
        expect(second.locator("body")).to_have_attribute("data-seat", "2")
        expect(friend.locator("#log")).to_contain_text("The host moved you to seat 3.")
        expect(page.locator(".seat[data-seat='2'] .seat-name")).to_have_text("Tess B.")
        seats = server.http.get(f"/api/tables/{table_id}").json()["seats"]
        assert [s["kind"] for s in seats] == ["player", "open", "player"]

        # Open the friend's seat for someone else: a new link to copy; they are told.
        _seat_options(page, "Tess B.")
        page.get_by_role("button", name="Open for someone else").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text("Seat 3 is open for someone else")
        link = dialog.get_by_label("Seat 3 link").input_value()
        assert f"/t/{table_id}#token=" in link
        expect(dialog.get_by_role("button", name="Copy")).to_be_visible()
        for device in (friend, second):
            expect(device.locator("#toasts")).to_contain_text(
                "The host opened your seat for someone else. You are now watching."
            )
            expect(device.locator("body")).to_have_attribute("data-seat", "")
            expect(device.locator("#subtitle")).to_contain_text("watching")
        expect(page.locator("#log")).to_contain_text(
            "The host opened Tess B.'s seat for someone else."
        )
        page.get_by_role("button", name="Done").click()
        # The new link seats a newcomer.
        newcomer = second_ctx.new_page()
        newcomer.goto(link)
        newcomer.get_by_role("dialog").get_by_label("Your name").fill("Cy")
        newcomer.get_by_role("button", name="Sit down").click()
        expect(newcomer.locator("body")).to_have_attribute("data-seat", "2")
    finally:
        friend_ctx.close()
        second_ctx.close()


def test_the_seat_options_on_a_phone(browser: Browser, server: ServerThread) -> None:
    """At 390×844 by touch: the seat options button and the window's controls are big
    enough for a finger, and a bot level can be chosen."""
    created = server.http.post(
        "/api/tables",
        json={"game": "pitty-pat", "players": 3, "seats": [None, None, "sensible"]},
    ).json()
    table_id, host_token = created["table"]["id"], created["host_token"]
    ctx = new_context(
        browser, known=True, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        page = ctx.new_page()
        _as_host(page, server, table_id, host_token)
        page.goto(created["seats"][0]["invite"])
        wait_state(page, "waiting")
        button = page.get_by_role("button", name="Seat options: Seat 2", exact=True)
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
        dialog = _seat_options(page, "Seat 2")
        screenshot(page, "host-seat-menu-phone", full_page=False)
        for control in ("Move", "Put a bot here", "Open for someone else", "Done"):
            found = dialog.get_by_role("button", name=control).bounding_box()
            assert found is not None and found["height"] >= 44, control
        dialog.get_by_label("Bot").select_option("random")
        dialog.get_by_role("button", name="Put a bot here").click()
        expect(page.locator(".seat[data-seat='1']")).to_contain_text("random bot")
        info = server.http.get(f"/api/tables/{table_id}").json()
        assert info["seats"][1]["bot"] == "random"
    finally:
        ctx.close()


def test_the_seat_options_wait_for_the_games_details(page: Page, server: ServerThread) -> None:
    """On a slow connection the game's details (its bots) come after the table: until
    then the seat options cannot be opened, so they never lack "Put a bot here"."""
    created = server.http.post(
        "/api/tables", json={"game": "ace-pit", "players": 2, "seats": [None, None]}
    ).json()
    table_id, host_token = created["table"]["id"], created["host_token"]
    _as_host(page, server, table_id, host_token)
    held: list[Route] = []
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(created["seats"][0]["invite"])
    wait_state(page, "waiting")
    menu = page.get_by_role("button", name="Seat options: Seat 2", exact=True)
    expect(menu).to_be_disabled()
    assert held, "the page asked for the games before drawing the table"
    held[0].continue_()
    dialog = _seat_options(page, "Seat 2")
    expect(dialog.get_by_role("button", name="Put a bot here")).to_be_visible()


def test_the_hosts_play_again_waits_for_the_others_unless_told_not_to(
    page: Page, server: ServerThread, browser: Browser
) -> None:
    """ "Play again" asks, for the host as for anyone: the next match starts when every
    player here agrees. Only the host's "Start now, without waiting" starts it at once."""
    created = server.http.post(
        "/api/tables",
        json={"game": "ace-pit", "players": 2, "rules": {"hands": 1}, "settings": {"bot_delay": 0}},
    ).json()
    table_id, host_token = created["table"]["id"], created["host_token"]
    invites = {s["seat"]: s["invite"] for s in created["seats"]}
    _as_host(page, server, table_id, host_token)
    page.goto(invites[0])
    friend_ctx = new_context(browser, known=True)
    try:
        friend = friend_ctx.new_page()
        friend.goto(invites[1])
        wait_state(page, "playing")
        deadline = time.monotonic() + patience(90)
        while (steps := step_each([page, friend])) != ["over", "over"]:
            assert time.monotonic() < deadline, "the match did not end in time"
            if "turn" not in steps:
                look_again_soon(0.03)
        page.locator("#dialog[open][data-kind=over]").get_by_role("button", name="Close").click()
        page.locator("#actions").get_by_role("button", name="Play again").click()
        expect(page.locator("#toasts")).to_contain_text("when every player here agrees")
        now = page.locator("#actions").get_by_role("button", name="Start now, without waiting")
        expect(now).to_be_visible()
        assert server.http.get(f"/api/tables/{table_id}").json()["match"] == 1  # it waits
        expect(
            friend.locator("#actions").get_by_role("button", name="Start now, without waiting")
        ).to_have_count(0)
        now.click()
        page.wait_for_selector("body[data-state=playing][data-match='2']")
        friend.wait_for_selector("body[data-state=playing][data-match='2']")
    finally:
        friend_ctx.close()
