"""Opening a tournament from the lobby: the form lands on the manager's desk, with
the link kept in this browser and gone from the address bar."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import ServerThread


def test_the_lobby_opens_a_tournament_and_lands_on_the_desk(
    page: Page, server: ServerThread
) -> None:
    page.goto(f"{server.base}/")
    form = page.locator("#new-event")
    expect(form.locator("#event-kind option")).to_have_count(
        len(server.http.get("/api/events/kinds").json())
    )
    form.locator("#event-kind").select_option("pits-continuous")
    form.locator("#event-name").fill("Saturday Pits")
    form.get_by_role("button", name="Open the tournament").click()
    page.wait_for_url("**/e/*")
    expect(page.get_by_text("Saturday Pits").first).to_be_visible()
    assert "token" not in page.url  # kept in the browser, not in the address bar
    event_id = page.url.split("/e/", 1)[1].split("#")[0]
    # The desk acts as the manager: adding a player works from this page.
    page.get_by_label("Name", exact=False).first.fill("Ann")
    page.get_by_role("button", name="Add").first.click()
    expect(page.get_by_text("Ann").first).to_be_visible()
    players = server.http.get(f"/api/events/{event_id}").json()["view"]["players"]
    assert players == ["Ann"]


def test_a_nameless_tournament_is_refused_in_words(page: Page, server: ServerThread) -> None:
    page.goto(f"{server.base}/")
    page.locator("#new-event").get_by_role("button", name="Open the tournament").click()
    expect(page.locator("#event-error")).to_have_text("Give the tournament a name.")
    expect(page.locator("#event-name")).to_be_focused()
    assert page.url.rstrip("/") == server.base
