"""Playing through the page as a person would: click the first highlighted card or
the first offered action, and nothing the page does not offer."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.browser.conftest import SCREENSHOTS, ServerThread

# The simplest legal move, in order: a completed selection (gold button), a
# highlighted card, then any other action button the page offers.
EXACT = "#actions button.act.exact:enabled"
PLAYABLE = "#hand .card.playable"
BUTTON = "button.act:not(.try):enabled"


def wait_state(page: Page, state: str, timeout: float = 20) -> None:
    """Wait until the table's status (waiting, playing, over) is `state`."""
    page.wait_for_selector(f"body[data-state={state}]", timeout=timeout * 1000)


def my_turn(page: Page) -> bool:
    """Whether the page lets this seat act now (in step with the table, nothing in flight)."""
    return bool(page.locator("body[data-turn=me][data-busy=false][data-conn=open]").count())


def close_summary(page: Page) -> bool:
    """Close an end-of-hand summary, if one is open: its main button says this player
    is ready for the next hand, and the window closes when that hand starts (which
    may be before the click lands; with other people to wait for, later)."""
    dialog = page.locator("#dialog[open][data-kind=summary]")
    if dialog.count():
        with contextlib.suppress(PlaywrightError):
            dialog.locator(".dialog-buttons .primary").click(timeout=2000)
            dialog.wait_for(state="detached", timeout=5000)
        return True
    return False


def click_simplest(page: Page) -> str | None:
    """Click the simplest legal move the page highlights; what was clicked, or None.

    The table moves on by itself (Pit's market, the end of a match), so a button may
    go away before it is clicked: then nothing was clicked, and the caller looks again.
    """
    for selector in (EXACT, PLAYABLE, BUTTON):
        found = page.locator(selector)
        if found.count():
            first = found.first
            try:
                label = first.get_attribute("data-action", timeout=2000)
                label = label or first.get_attribute("data-card", timeout=2000) or ""
                first.click(timeout=3000)
            except PlaywrightError:
                return None
            return label
    return None


def play_until_over(
    page: Page,
    timeout: float = 90,
    pause: float = 0.1,
    shot: tuple[str, int] | None = None,
    on_turn: Callable[[Page, int], None] | None = None,
) -> int:
    """Play this seat by clicking until the match is over; returns the clicks made.

    `shot` = (name, n): save docs/screenshots/<name>.png at the n-th turn, before clicking.
    `pause`: seconds between clicks, as a quick person (more in real-time Pit).
    """
    deadline = time.monotonic() + timeout
    clicks = 0
    turns = 0
    while not page.locator("body[data-state=over]").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        if close_summary(page) or not my_turn(page):
            page.wait_for_timeout(30)
            continue
        turns += 1
        if shot is not None and turns == shot[1]:
            screenshot(page, shot[0])
        if on_turn is not None:
            on_turn(page, turns)
            if not my_turn(page):
                continue
        if click_simplest(page) is not None:
            clicks += 1
        page.wait_for_timeout(int(pause * 1000))
    return clicks


def screenshot(page: Page, name: str, full_page: bool = True) -> Path:
    """Save the page as docs/screenshots/<name>.png (after the last redraw settles):
    the whole page, or with `full_page=False` only what the screen shows."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(350)
    path = SCREENSHOTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)
    return path


def page_scores(page: Page, where: str = "#scores") -> list[int]:
    """The scores the page shows, by seat."""
    rows = page.locator(f"{where} tr[data-seat]")
    scores: dict[int, int] = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        scores[int(row.get_attribute("data-seat") or 0)] = int(row.get_attribute("data-score") or 0)
    return [scores[s] for s in sorted(scores)]


class EventByApi:
    """An event opened through the API, beside its pages: the tests' own entries
    (through any link) and reads of the public view."""

    def __init__(self, server: ServerThread, kind: str, name: str) -> None:
        self.http = server.http
        created = self.http.post("/api/events", json={"kind": kind, "name": name})
        assert created.status_code == 201, created.text
        self.id: str = created.json()["event"]["id"]
        self.manager: str = created.json()["manager"]["token"]
        self.manager_url: str = created.json()["manager"]["url"]
        self.base = server.base
        self.tokens: dict[str, str] = {}
        self.urls: dict[str, str] = {}

    def enter(self, token: str, type: str, **data: Any) -> dict[str, Any]:
        """Make an entry through `token`'s link, expecting it to be taken."""
        response = self.http.post(
            f"/api/events/{self.id}/entries",
            json={"type": type, "data": data},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 201, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def view(self) -> dict[str, Any]:
        """The event's public view."""
        response = self.http.get(f"/api/events/{self.id}")
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()["view"]
        return view
