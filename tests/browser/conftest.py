"""Browser tests: a real `pitkit` server in a thread, and the OS's Chromium driven
by Playwright (never a browser Playwright downloads itself).

The pages are driven in Chromium's headless shell (Debian's chromium-headless-shell):
the same Blink and V8 without the desktop browser around them, a third less CPU for
the same tests. The notices' tests take the whole of Debian's chromium, since the
shell has no notifications. `make test` installs both when they are missing. Without
them (or without Playwright) these tests are skipped, unless CI is set, when they fail.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pitkit.server.ops.settings import Limits
from tests.serving import ServingThread
from tests.waiting import patience

CHROMIUM = Path(os.environ.get("PITKIT_CHROMIUM", "/usr/bin/chromium-headless-shell"))
FULL_CHROMIUM = Path(os.environ.get("PITKIT_FULL_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Where the tests save their pictures of each table. By default a temporary folder, so
# that a test run leaves the tree unchanged; PITKIT_SCREENSHOTS=docs/screenshots
# refreshes the README's pictures.
SCREENSHOTS = Path(
    os.environ.get("PITKIT_SCREENSHOTS") or Path(tempfile.gettempdir()) / "pitkit-screenshots"
)

try:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Page,
        expect,
        sync_playwright,
    )

    HAVE_PLAYWRIGHT = True
    # Playwright's `expect` waits 5 s by default: scaled for a busy machine too.
    expect.set_options(timeout=patience(5_000))
except ImportError:  # pragma: no cover - the dev extra pins it
    HAVE_PLAYWRIGHT = False

# Without Playwright the test modules cannot even be imported: skip them, except in CI.
collect_ignore_glob = [] if HAVE_PLAYWRIGHT or os.environ.get("CI") else ["test_*.py"]


def launched(executable: Path) -> Iterator[Browser]:
    """The Chromium at `executable`, for one test module at a time (skipped, or failed in
    CI, where there is none): Playwright's sync API keeps an event loop running in this
    thread while it is open, which would break the other tests' asyncio.run()."""
    if not executable.exists():
        reason = f"no Chromium at {executable} (make test installs Debian's)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
        yield b
        b.close()


class ServerThread(ServingThread):
    """The server with the real limits (the page must live within them), and
    the API calls the tests make. `port=0` picks a free port; a restart
    passes the old port and data folder."""

    def __init__(self, data: Path, port: int = 0, bots_per_second: float | None = None) -> None:
        # Tables of bots alone play as fast as a table's bots may (bots alone never
        # play faster): some tests watch a whole match of bots. `bots_per_second`
        # raises that pace for every table (`bot_server`); otherwise everything a page
        # meets is the real limits.
        # Each test worker's browser tests all come from one address (127.0.0.1) to one
        # server for the whole session, so the hourly quotas of one address (events
        # opened, profiles made) would count every test's, in whatever order the tests
        # fell: raised here. tests/server checks each quota.
        limits = Limits(
            bot_alone_actions_per_second=1000.0, events_per_address=1_000, profiles_per_hour=1_000
        )
        if bots_per_second is not None:
            limits = dataclasses.replace(limits, bot_actions_per_second=bots_per_second)
        super().__init__(data, limits, port)

    def create(
        self,
        game: str,
        seats: list[str | None],
        rules: dict[str, Any] | None = None,
        bot_delay: float = 0.0,
        settings: dict[str, Any] | None = None,
    ) -> tuple[str, str]:
        """A table (`seats`: a bot's name, or None for an open seat): (id, seat 0's link,
        or "" when a bot sits there). `settings`: more of the table's settings."""
        body = {
            "game": game,
            "players": len(seats),
            "seats": seats,
            "rules": rules or {},
            "settings": {"bot_delay": bot_delay, **(settings or {})},
        }
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        invite = next((s["invite"] for s in created["seats"] if s["seat"] == 0), "")
        return str(created["table"]["id"]), str(invite)

    def final_scores(self, table_id: str, match: int = 1) -> list[int]:
        """The scores after the last hand of a finished match, from its published log."""
        response = self.http.get(f"/api/tables/{table_id}/matches/{match}/log")
        assert response.status_code == 200, response.text
        events = [json.loads(line) for line in response.text.splitlines()[1:]]
        scores = [e for e in events if e.get("type") == "scores"]
        assert scores, "the log holds no scores"
        return [int(v) for v in scores[-1]["scores"]]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    s = ServerThread(tmp_path_factory.mktemp("browser-server"))
    yield s
    s.stop()


@pytest.fixture(scope="session")
def bot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server whose bots move as fast as they can at every table, for pages that show
    what a match of bots alone left behind (a score sheet, a replay): nobody watches
    their pace, and at the real 20 moves a second three hands of Pits take 20 s of a
    quiet machine, a minute of a busy one."""
    s = ServerThread(tmp_path_factory.mktemp("bot-server"), bots_per_second=1000.0)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium's headless shell, for one test module."""
    yield from launched(CHROMIUM)


# A browser that has played before knows its player's name, and an invitation then
# seats them at once; a newcomer's browser asks first (test_tables tests that).
_KNOWN_NAME = """(() => {
  try {
    const data = JSON.parse(localStorage.getItem('pitkit.v1') || '{}') || {};
    if (!data.name) localStorage.setItem('pitkit.v1', JSON.stringify({...data, name: 'Tess'}));
  } catch (e) {}
})()"""


def known_player(ctx: BrowserContext) -> BrowserContext:
    """`ctx`, as a browser that knows its player's name ("Tess")."""
    ctx.add_init_script(_KNOWN_NAME)
    return ctx


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = known_player(browser.new_context(viewport={"width": 1366, "height": 900}))
    ctx.set_default_timeout(patience(15_000))
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    """A page that fails the test on any script error or console error."""
    p = context.new_page()
    problems: list[str] = []

    def console(message: ConsoleMessage) -> None:
        # A socket refused while the server restarts is expected; nothing else is.
        if message.type == "error" and "WebSocket" not in message.text:
            problems.append(f"console: {message.text}")

    p.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    p.on("console", console)
    yield p
    assert not problems, problems


@pytest.fixture
def browsers(browser: Browser) -> Iterator[Any]:
    """Pages each in a browser context of its own (`tests.browser.helpers.Browsers`),
    failing the test on any script error."""
    from tests.browser.helpers import Browsers  # helpers imports this module

    b = Browsers(browser)
    yield b
    b.close()
    assert not b.problems, b.problems
