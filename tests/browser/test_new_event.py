"""Opening a tournament from the lobby: the form lands on the manager's desk, with
the link kept in this browser and gone from the address bar."""

from __future__ import annotations

from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import ServerThread
from tests.waiting import wait_until


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


def _asked(page: Page, held: list[Route], what: str) -> Route:
    """The first request `held` by a route, once the page has made it."""

    def made() -> bool:
        page.wait_for_timeout(20)  # Playwright hands over a route only inside its calls
        return bool(held)

    wait_until(made, 10, what)
    return held[0]


def test_a_click_before_the_form_has_loaded_waits_for_it(page: Page, server: ServerThread) -> None:
    """On a slow hall's Wi-Fi the kinds of tournament come late: a click meanwhile is
    not sent as a plain page load, and opens the tournament once they have come."""
    held: list[Route] = []
    page.route("**/api/events/kinds", lambda route: held.append(route))
    page.goto(f"{server.base}/")
    page.locator("#event-name").fill("Late Pitch")
    page.locator("#new-event").get_by_role("button", name="Open the tournament").click()
    request = _asked(page, held, "the page to ask for the kinds of tournament")
    assert page.url.rstrip("/") == server.base  # still the lobby, no query string
    request.continue_()
    page.wait_for_url("**/e/*")
    expect(page.get_by_text("Late Pitch").first).to_be_visible()


def test_the_lobbys_forms_wait_for_the_games_too(page: Page, server: ServerThread) -> None:
    """The same for the lobby's own forms: Play now and Create the table, pressed
    before the games have come, send nothing and leave the page where it is."""
    held: list[Route] = []
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(f"{server.base}/")
    for button in ("#play-now-button", "#create-button"):
        page.locator(button).click()
    assert page.url.rstrip("/") == server.base
    _asked(page, held, "the page to ask for the games").continue_()
    expect(page.locator("#create-button")).to_be_enabled()
    assert server.base in page.url and "?" not in page.url
