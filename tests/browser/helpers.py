"""Playing through the page as a person would: click the first highlighted card or
the first offered action, and nothing the page does not offer."""

from __future__ import annotations

import contextlib
import functools
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import orjson
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, ViewportSize
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import SCREENSHOTS, ServerThread, known_player
from tests.waiting import patience

T = TypeVar("T")

# The simplest legal move, in order: a completed selection (gold button), a
# highlighted card, then any other action button the page offers.
EXACT = "#actions button.act.exact:enabled"
PLAYABLE = "#hand .card.playable"
BUTTON = "button.act:not(.try):enabled"


def new_context(browser: Browser, *, known: bool = False, **options: Any) -> BrowserContext:
    """A browser context of a test's own, waiting as long as the `context` fixture's
    (scaled for a busy machine); `known`: it knows its player's name (`known_player`)."""
    ctx = browser.new_context(**options)
    ctx.set_default_timeout(patience(15_000))
    return known_player(ctx) if known else ctx


DESKTOP: ViewportSize = {"width": 1366, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


class Browsers:
    """Pages each in a browser context of its own (a player's phone, the hall's
    screen), failing the test on any script error."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.problems: list[str] = []
        self.offline = False
        """A test that cuts the network: the requests it fails are no fault of the page's."""

    def open(self, url: str, viewport: ViewportSize = DESKTOP) -> Page:
        context = new_context(self.browser, viewport=viewport)
        self.contexts.append(context)
        page = context.new_page()

        def console(message: ConsoleMessage) -> None:
            # A refusal (403, 409) is an answer the page shows in words, not a fault;
            # Chromium still logs the status.
            text = message.text
            answered = "409" in text or "403" in text or (self.offline and "net::ERR_" in text)
            if message.type == "error" and not ("Failed to load resource" in text and answered):
                self.problems.append(f"console: {text}")

        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("console", console)
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def poll(page: Page, check: Callable[[], T], seconds: float, what: str, every: int = 50) -> T:
    """`tests.waiting.wait_until` with a page open: call `check` until it returns something
    true, and return that; between calls the page's events go on (every `every` ms)."""
    deadline = time.monotonic() + patience(seconds)
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {patience(seconds):.1f} s for {what}"
        page.wait_for_timeout(every)


# Settled: where things are (the page's scrolling and size, the table's main parts and
# the cards in the hand, which slide in) has not changed for a few looks in a row. What
# only glows (a seat's plate) or comes and goes in the middle of the table (Pit's
# offers, a bot's move at any moment) is left out: the table never waits for those.
_SETTLED = """() => {
  const layout = document.querySelector('.layout');
  const root = document.documentElement;
  const parts = [scrollX, scrollY, layout ? layout.scrollTop : 0, root.scrollWidth,
    root.scrollHeight];
  const where = 'main, .topbar, #felt, #hand, #hand .card, #actions, .seat, #dialog';
  for (const el of document.querySelectorAll(where)) {
    const r = el.getBoundingClientRect();
    parts.push(r.x, r.y, r.width, r.height);
  }
  const now = parts.join();
  const seen = window.__settled || {now: '', looks: 0};
  window.__settled = {now, looks: seen.now === now ? seen.looks + 1 : 0};
  return window.__settled.looks >= 4;
}"""


def settle(page: Page) -> None:
    """Wait until the page's last redraw has settled (`_SETTLED`), instead of a fixed pause."""
    page.evaluate("delete window.__settled")
    page.wait_for_function(_SETTLED, polling=25, timeout=patience(10_000))


def wait_state(page: Page, state: str, timeout: float = 20) -> None:
    """Wait until the table's status (waiting, playing, over) is `state`; a page that
    never shows it fails with what it shows instead (`page_state`)."""
    try:
        page.wait_for_selector(f"body[data-state={state}]", timeout=patience(timeout) * 1000)
    except PlaywrightError as exc:
        raise AssertionError(
            f"the table never showed {state!r}; it shows:\n{page_state(page)}"
        ) from exc


def status(server: ServerThread, table_id: str) -> str:
    """The table's status (waiting, playing, over, closed), as the API says it."""
    response = server.http.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    return str(response.json()["status"])


# One look at a table's page, in one script rather than a query a part: each of
# Playwright's calls costs its driver, the browser and the page a few ms of CPU (a
# locator's count about 6 ms in all, an evaluate about 2.5 ms; 2026-11-29), and the
# tests' loops look thousands of times.
_MY_TURN = """() => {
  const body = document.body.dataset;
  return body.turn === 'me' && body.busy === 'false' && body.conn === 'open';
}"""

SUMMARY = "#dialog[open][data-kind=summary]"
"""The end-of-hand window, while it is open."""

# What this seat's player would do next: "over", the match is over; "summary", close
# the end-of-hand window; "turn", act (`my_turn`); null, nothing yet.
_NEXT = f"""() => {{
  if (document.body.dataset.state === 'over') return 'over';
  if (document.querySelector('{SUMMARY}')) return 'summary';
  return ({_MY_TURN})() ? 'turn' : null;
}}"""


def my_turn(page: Page) -> bool:
    """Whether the page lets this seat act now (in step with the table, nothing in flight)."""
    return bool(page.evaluate(_MY_TURN))


def next_step(page: Page) -> str | None:
    """What this seat's player would do now (`_NEXT`): "over", "summary", "turn" or None."""
    value = page.evaluate(_NEXT)
    return None if value is None else str(value)


def wait_next_step(page: Page, deadline: float) -> str | None:
    """Wait, in the page (polled by its own timer, not by calls from here), until there is
    a next step (`next_step`), at most until `deadline` (time.monotonic()); None then."""
    left = deadline - time.monotonic()
    if left <= 0:
        return None
    try:
        value = page.wait_for_function(_NEXT, polling=25, timeout=left * 1000).json_value()
    except PlaywrightTimeoutError:
        return None
    return str(value)


def look_again_soon(seconds: float) -> None:
    """The pause of a loop that watches several pages in turn, before it looks again
    (within its deadline): not a wait on the page, so no call of Playwright's, which
    would cost the driver and the browser CPU while nothing happens."""
    time.sleep(seconds)


# The end-of-hand window is closed, or this player is ready and others are awaited
# (its button then says "Continue", which closes it).
_SUMMARY_DONE = f"""() => {{
  const dialog = document.querySelector('{SUMMARY}');
  if (!dialog) return true;
  const button = dialog.querySelector('.dialog-buttons .primary');
  return !!dialog.querySelector('.next-hand-waiting')
    && !!button && !button.textContent.startsWith('Ready');
}}"""


_STATE = """(() => ({
  body: {...document.body.dataset},
  hand: [...document.querySelectorAll('#hand .card')].map((c) => `${c.textContent} ${c.className}`),
  actions: [...document.querySelectorAll('#actions button')]
    .map((b) => `${b.textContent} ${b.className}${b.disabled ? ' disabled' : ''}`),
  dialog: document.querySelector('#dialog[open]')?.dataset.kind ?? null,
  toasts: [...document.querySelectorAll('.toast')].map((t) => t.textContent),
  banner: document.querySelector('#banner')?.textContent ?? null,
  subtitle: document.querySelector('#subtitle')?.textContent ?? null,
}))()"""


def page_state(page: Page) -> str:
    """What a table's page shows now, for a failure's message: the body's data (state,
    seat, version), the hand's cards and their classes, the actions, the open window,
    the toasts, the banner (a lost connection says so there) and the subtitle."""
    try:
        return json.dumps(page.evaluate(_STATE), indent=1)
    except PlaywrightError as exc:
        return f"(the page could not be read: {exc.message})"


def close_summary(page: Page) -> bool:
    """Close an end-of-hand summary, if one is open: its main button says this player
    is ready for the next hand, and the window closes when that hand starts (which
    may be before the click lands). With other people still to be ready, it waits no
    longer than the page takes to say so: the next call closes it ("Continue")."""
    if not page.evaluate(f"() => !!document.querySelector('{SUMMARY}')"):
        return False
    with contextlib.suppress(PlaywrightError):
        button = page.locator(f"{SUMMARY} .dialog-buttons .primary")
        button.click(timeout=patience(2000))
        page.wait_for_function(_SUMMARY_DONE, timeout=patience(5000))
    return True


# The first of the simplest moves' selectors that the page shows, and its label.
_SIMPLEST = """(selectors) => {
  for (const [i, selector] of selectors.entries()) {
    const found = document.querySelector(selector);
    if (found) return [i, found.dataset.action || found.dataset.card || ''];
  }
  return null;
}"""


def click_simplest(page: Page) -> str | None:
    """Click the simplest legal move the page highlights; what was clicked, or None.

    The table moves on by itself (Pit's market, the end of a match), so a button may
    go away before it is clicked: then nothing was clicked, and the caller looks again.
    """
    selectors = (EXACT, PLAYABLE, BUTTON)
    found = page.evaluate(_SIMPLEST, list(selectors))
    if found is None:
        return None
    index, label = found
    try:
        page.locator(selectors[index]).first.click(timeout=patience(3000))
    except PlaywrightError:
        return None
    return str(label)


def step_each(pages: Sequence[Page]) -> list[str | None]:
    """Each page in turn takes its next step (`next_step`), looked at just before: closes
    its end-of-hand window, or makes the simplest move. The steps seen, by page."""
    steps = []
    for page in pages:
        step = next_step(page)
        if step == "summary":
            close_summary(page)
        elif step == "turn":
            click_simplest(page)
        steps.append(step)
    return steps


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
    `timeout`: seconds on a quiet machine (scaled for this one).
    """
    deadline = time.monotonic() + patience(timeout)
    clicks = 0
    turns = 0
    while (step := wait_next_step(page, deadline)) != "over":
        assert step is not None, f"the match did not end in time: {page_state(page)}"
        if step == "summary":
            close_summary(page)
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
        # Kept: the player's pace is what this plays at (Pit's bots trade in real time
        # against it), not a guess at how long anything takes; the loop has a deadline.
        page.wait_for_timeout(int(pause * 1000))
    return clicks


def screenshot(page: Page, name: str, full_page: bool = True) -> Path:
    """Save the page as docs/screenshots/<name>.png (after the last redraw settles):
    the whole page, or with `full_page=False` only what the screen shows."""
    page.evaluate("window.scrollTo(0, 0)")
    settle(page)
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
        # Each answer holds the whole event (its log and view): read with orjson, as a
        # sixty-player hall's 684 answers took 6 s of the standard reader.
        answer: dict[str, Any] = orjson.loads(response.content)
        return answer

    def view(self) -> dict[str, Any]:
        """The event's public view."""
        response = self.http.get(f"/api/events/{self.id}")
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()["view"]
        return view


# axe-core, the accessibility checker, pinned in package.json: `npm ci` installs it with
# TypeScript (make lint, make test).
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
_AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    where: v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}));
}"""


@functools.cache
def _axe_source() -> str:
    assert AXE.exists(), f"no axe-core at {AXE}: `npm ci` installs it (make lint does)"
    return AXE.read_text()


def axe_findings(page: Page) -> list[dict[str, str]]:
    """axe-core's serious and critical findings on the page as it is now: each rule's id,
    impact, help and where (the first few elements)."""
    if not page.evaluate("typeof axe === 'object'"):
        # Evaluated rather than added as a <script>: the pages run only their own scripts (CSP).
        page.evaluate(_axe_source())
    found: list[dict[str, str]] = page.evaluate(_AXE_RUN)
    return [f for f in found if f["impact"] in SERIOUS]


def assert_accessible(page: Page, what: str) -> None:
    """Fail with axe-core's words if it finds anything serious or critical on the page."""
    findings = axe_findings(page)
    said = [f"{f['id']} ({f['impact']}): {f['help']}, at {f['where']}" for f in findings]
    assert not findings, f"{what}: " + "; ".join(said)
