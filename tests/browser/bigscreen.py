"""The big screen as the tests read it (js/event/screen.js): its pages turned by the
arrow keys, held by the space bar, and every page checked by the boxes of its
elements: nothing off the screen, nothing over anything else, and any text too long
for its place cut with an ellipsis, never spilling over its neighbour."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, ViewportSize, expect

SIZES: list[ViewportSize] = [
    {"width": 1280, "height": 720},
    {"width": 1920, "height": 1080},
    {"width": 3840, "height": 2160},
]
"""A laptop's projector, a full-HD screen, a 4K projector."""

_PROBLEMS = (Path(__file__).parent / "bigscreen.js").read_text()
"""What is wrong with the page on the screen now, by its elements' boxes: a function."""

# The text size of the standings: its lines' font size, and the screen's height.
_TEXT = """() => {
  const cell = document.querySelector('.screen-body tbody td, .screen-body .screen-card li');
  return cell ? parseFloat(getComputedStyle(cell).fontSize) : 0;
}"""


def settled(page: Page) -> dict[str, Any]:
    """Wait until the page on the screen is drawn to fit it; which part and page it is."""
    page.wait_for_selector("body[data-fitted=true]")
    screen = page.locator(".ev-screen")
    return {
        "part": screen.get_attribute("data-part"),
        "part_page": int(screen.get_attribute("data-part-page") or 0),
        "page": int(screen.get_attribute("data-page") or 0),
        "pages": int(screen.get_attribute("data-pages") or 0),
    }


def hold(page: Page) -> None:
    """Hold the page on the screen (the space bar): it turns only by the arrow keys."""
    page.keyboard.press(" ")
    expect(page.locator(".screen-pager .held")).to_be_visible()


def turn_to(page: Page, part: str, first: bool = False) -> dict[str, Any]:
    """Turn the pages by the arrow key until one of `part` is on the screen (`first`:
    its first page)."""
    shown = settled(page)
    for _ in range(shown["pages"] + 1):
        if shown["part"] == part and (not first or shown["part_page"] == 1):
            return shown
        turn(page, shown)
        shown = settled(page)
    assert shown["part"] == part, f"no page of {part!r}: {shown}"
    return shown


def turn(page: Page, shown: dict[str, Any]) -> None:
    """Turn to the next page (after `shown`)."""
    page.keyboard.press("ArrowRight")
    following = shown["page"] % shown["pages"] + 1
    expect(page.locator(".ev-screen")).to_have_attribute("data-page", str(following))


def check_every_page(page: Page) -> list[dict[str, Any]]:
    """Check each page of the screen by its boxes, at the size it is; the pages seen."""
    hold(page)
    shown = settled(page)
    seen = []
    for _ in range(shown["pages"]):
        problems: list[str] = page.evaluate(_PROBLEMS)
        assert not problems, (page.viewport_size, shown, problems)
        size = page.viewport_size
        assert size is not None
        # The text is 3% of the screen's height, at most 1.7% of its width (event.css).
        text = float(page.evaluate(_TEXT))
        wanted = max(16.0, min(0.03 * size["height"], 0.017 * size["width"]))
        if shown["part"] != "Tables now" and shown["part"] != "Tables":
            assert abs(text - wanted) < 0.5, (size, text, wanted)
        seen.append(shown)
        turn(page, shown)
        shown = settled(page)
    return seen
