"""A player's page (/p/ID) and a leaderboard (/leaders/GAME) in Chromium, at a laptop
and on a phone: three profiles have played Ace Pit against each other on the server;
Ann reads her rating with its range, her matches with their replays, and the people she
played with; Invite again opens a new table whose link seats Bea; a stranger sees
Ann's page without her opponents; the leaderboard lists the three by the low end of
their range. axe-core finds nothing serious. docs/ratings.md says what the numbers
mean; tests/server/test_ratings.py tests the ratings themselves."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from pitkit.server.client import RandomPlayer, TableClient
from tests.browser.conftest import ServerThread
from tests.browser.helpers import assert_accessible, new_context, screenshot
from tests.waiting import patience

LAPTOP = {"width": 1366, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
PROFILES = [("Ann", "#f5c542"), ("Bea", "#7cc8ff"), ("Cy", "#e58cff")]
PAIRS = [(0, 1), (0, 2), (1, 2)] * 2 + [(0, 1)]
"""Who plays whom: Ann five matches, Bea five, Cy four (one short of the leaderboard)."""


@dataclass
class Played:
    """The server, its three profiles (as /api/profiles answered) and their tables."""

    server: ServerThread
    profiles: list[dict[str, Any]]
    tables: list[str] = field(default_factory=list)

    def id(self, who: int) -> str:
        return str(self.profiles[who]["profile"]["id"])


def _table(server: ServerThread, secrets: tuple[str, str]) -> tuple[str, list[str]]:
    """An Ace Pit table of one hand, its two seats taken by these profiles."""
    body = {"game": "ace-pit", "seats": [None, None], "rules": {"hands": 1}}
    created = server.http.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    tid = created.json()["table"]["id"]
    tokens = []
    for seat, secret in zip(created.json()["seats"], secrets, strict=True):
        sat = server.http.post(
            f"/api/tables/{tid}/profile-seat",
            json={"token": seat["token"]},
            headers={"authorization": f"Bearer {secret}"},
        )
        assert sat.status_code == 200, sat.text
        tokens.append(sat.json()["token"])
    return tid, tokens


async def _play(server: ServerThread, tables: list[tuple[str, list[str]]]) -> None:
    """Every table played to its end at once, by random legal moves."""
    clients = [TableClient(server.base, tid, token) for tid, tokens in tables for token in tokens]
    for client in clients:
        await client.connect()
    until = time.monotonic() + patience(60)
    await asyncio.gather(*(RandomPlayer(c, seed=i).run(until) for i, c in enumerate(clients)))
    for client in clients:
        await client.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """A server of its own (its leaderboard holds only these three), where they played."""
    server = ServerThread(tmp_path_factory.mktemp("players-server"))
    made = [
        server.http.post("/api/profiles", json={"name": name, "colour": colour})
        for name, colour in PROFILES
    ]
    assert all(m.status_code == 201 for m in made), [m.text for m in made]
    done = Played(server, [m.json() for m in made])
    secrets = [p["secret"] for p in done.profiles]
    tables = [_table(server, (secrets[a], secrets[b])) for a, b in PAIRS]
    # In a thread of its own: Playwright's sync API may keep an event loop in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _play(server, tables)).result()
    for tid, _ in tables:
        status = server.http.get(f"/api/tables/{tid}").json()["status"]
        assert status == "over", (tid, status)
        done.tables.append(tid)
    yield done
    server.stop()


def _signed_in(browser: Browser, played: Played, who: int, **options: Any) -> BrowserContext:
    """A browser signed in to profile `who` (as /me would have kept it)."""
    ctx = new_context(browser, known=True, **options)
    kept = json.dumps(played.profiles[who])
    ctx.add_init_script(f"localStorage.setItem('pitkit.profile.v1', {json.dumps(kept)})")
    return ctx


def _watched(ctx: BrowserContext) -> tuple[Page, list[str]]:
    """A page of `ctx`, and the script errors and console errors it meets."""
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return page, problems


def _fits(page: Page, what: str) -> None:
    """Nothing is wider than the screen."""
    wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], f"{what} is {wide[0]} px wide on a {wide[1]} px screen"


def test_a_player_s_own_page_with_invite_again(browser: Browser, played: Played) -> None:
    server = played.server
    ctx = _signed_in(browser, played, 0, viewport=LAPTOP)
    page, problems = _watched(ctx)
    page.goto(f"{server.base}/p/{played.id(0)}")
    expect(page.locator("#name")).to_have_text("Ann (you)")
    card = page.locator(".rating-card[data-game=ace-pit]")
    expect(card).to_contain_text("Ace Pit")
    expect(card).to_contain_text("5 rated matches")
    assert "±" in card.locator(".value").inner_text()
    items = page.locator("#match-list .match-item")
    expect(items).to_have_count(5)
    replays = page.locator("#match-list a.button", has_text="Replay")
    expect(replays).to_have_count(5)
    hrefs = {replays.nth(i).get_attribute("href") for i in range(5)}
    ann_tables = [t for t, (a, b) in zip(played.tables, PAIRS, strict=True) if 0 in (a, b)]
    assert hrefs == {f"/t/{t}#replay=1&as=all" for t in ann_tables}
    expect(page.locator("#opponent-list .person")).to_have_count(2)
    assert_accessible(page, "Ann's own page")
    screenshot(page, "player-page")
    page.set_viewport_size(PHONE)
    _fits(page, "Ann's page on a phone")
    assert_accessible(page, "Ann's own page on a phone")
    screenshot(page, "player-page-phone")

    # Invite again: a new table of Ace Pit, Ann in its first seat, the link for Bea.
    page.locator(f".person[data-profile='{played.id(1)}'] button", has_text="Invite again").click()
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    invite = link.input_value()
    assert f"{server.base}/t/" in invite and "#token=" in invite
    table_id = invite.split("/t/")[1].split("#")[0]
    info = server.http.get(f"/api/tables/{table_id}").json()
    assert info["game"] == "ace-pit" and info["rules"] == {"hands": 1}
    assert info["settings"]["listed"] is False
    assert (info["seats"][0]["kind"], info["seats"][0]["name"]) == ("player", "Ann")
    assert info["seats"][1]["kind"] == "open"
    _fits(page, "the invitation on a phone")
    assert_accessible(page, "the invitation")
    page.get_by_role("link", name="Go to the table").click()
    page.wait_for_url(f"**/t/{table_id}#token=*")
    # Bea opens the link she was sent, and sits down.
    bea = _signed_in(browser, played, 1, viewport=PHONE, is_mobile=True, has_touch=True)
    bea_page, _ = _watched(bea)
    bea_page.goto(invite)
    expect(bea_page.locator("#felt")).to_be_visible()
    deadline = time.monotonic() + patience(15)
    while server.http.get(f"/api/tables/{table_id}").json()["seats"][1]["kind"] != "player":
        assert time.monotonic() < deadline, "Bea did not sit down"
        bea_page.wait_for_timeout(50)
    bea.close()
    assert not problems, problems
    ctx.close()


def test_a_stranger_sees_the_page_without_its_opponents(browser: Browser, played: Played) -> None:
    ctx = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    page, problems = _watched(ctx)
    page.goto(f"{played.server.base}/p/{played.id(2)}")
    expect(page.locator("#name")).to_have_text("Cy")
    expect(page.locator("#match-list .match-item")).to_have_count(4)
    expect(page.locator(".rating-card")).to_contain_text("not yet on the leaderboard")
    assert page.locator("#opponents").is_hidden()
    _fits(page, "Cy's page on a phone")
    assert_accessible(page, "Cy's page, as a stranger sees it")
    # A replay link opens the match's replay.
    page.locator("#match-list a.button", has_text="Replay").first.click()
    expect(page.locator("#replay")).to_be_visible()
    # A guessed id: no such player, and nothing else.
    page.goto(f"{played.server.base}/p/AAAAAAAAAAAA")
    expect(page.locator("#missing")).to_have_text("There is no such player.")
    assert all("404" in p for p in problems), problems
    ctx.close()


def test_the_leaderboard(browser: Browser, played: Played, tmp_path: Path) -> None:
    server = played.server
    ctx = _signed_in(browser, played, 1, viewport=LAPTOP)
    page, problems = _watched(ctx)
    page.goto(f"{server.base}/")
    page.get_by_role("link", name="Leaderboard").click()
    page.wait_for_url("**/leaders")
    page.locator("#game").select_option("ace-pit")
    page.wait_for_url("**/leaders/ace-pit")
    rows = page.locator("#board-rows tr")
    expect(rows).to_have_count(2)  # Cy has four matches: one short
    board = server.http.get("/api/leaderboard/ace-pit").json()
    names = [row["name"] for row in board["leaders"]]
    assert sorted(names) == ["Ann", "Bea"]
    for i, name in enumerate(names):
        expect(rows.nth(i)).to_contain_text(name)
    expect(page.locator("#board-rows tr.mine")).to_contain_text("Bea (you)")
    expect(page.locator("#rule")).to_contain_text("at least 5 matches")
    assert_accessible(page, "the leaderboard")
    screenshot(page, "leaderboard")
    page.set_viewport_size(PHONE)
    _fits(page, "the leaderboard on a phone")
    assert_accessible(page, "the leaderboard on a phone")
    screenshot(page, "leaderboard-phone")
    # A player's name leads to their page; the profile page links to one's own.
    rows.first.get_by_role("link").click()
    page.wait_for_url("**/p/*")
    page.goto(f"{server.base}/me")
    page.get_by_role("link", name="Your ratings and matches").click()
    page.wait_for_url(f"**/p/{played.id(1)}")
    expect(page.locator("#name")).to_have_text("Bea (you)")
    assert not problems, problems
    ctx.close()
