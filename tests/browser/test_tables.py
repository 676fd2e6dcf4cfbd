"""The lobby and the table around the games: watching, inviting a friend, and a
connection that drops in the middle of a hand; a game's rules page. axe-core finds
nothing serious on the lobby's list of tables, a watcher's table or a rules page."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from pitkit.server.ops.settings import Limits
from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    assert_accessible,
    click_simplest,
    my_turn,
    new_context,
    play_until_over,
    poll,
    screenshot,
    status,
    wait_state,
)
from tests.browser.test_games import finish_and_check
from tests.serving import ServingThread
from tests.waiting import patience, wait_until


def play_turns(page: Page, n: int) -> None:
    """Make `n` moves by clicking."""
    made = 0
    deadline = time.monotonic() + patience(30)
    while made < n:
        assert time.monotonic() < deadline, f"made only {made} of {n} moves"
        page.wait_for_selector("body[data-turn=me][data-busy=false]")
        version = page.get_attribute("body", "data-version")
        if click_simplest(page) is not None and moved(page, version):
            made += 1
        else:
            page.wait_for_timeout(50)  # not a move (a card picked): a look again soon


def moved(page: Page, version: str | None) -> bool:
    """Whether the click just made was a move: a move makes the page busy until the
    server's answer moves the version on (either may be seen first, or both at once);
    picking a card to answer with does neither."""
    try:
        page.wait_for_function(
            "v => document.body.dataset.busy === 'true' || document.body.dataset.version !== v",
            arg=version,
            timeout=patience(1000),
        )
    except PlaywrightTimeoutError:
        return False
    return True


def test_watch_from_the_lobby(page: Page, server: ServerThread) -> None:
    """A spectator finds a table in the lobby and watches it: seats, table, history, no hand."""
    table_id, _ = server.create("pitch", ["lookahead"] * 4, {"hands": 1}, bot_delay=0.3)
    page.goto(server.base + "/")
    item = page.locator(f".table-item[data-table='{table_id}']")
    expect(item).to_contain_text("Pitch")
    screenshot(page, "lobby")
    assert_accessible(page, "the lobby, with a table listed")
    item.get_by_role("link", name="Watch").click()
    page.wait_for_url(f"**/t/{table_id}#watch")
    expect(page.locator("#hint")).to_contain_text("You are watching")
    expect(page.locator(".seat")).to_have_count(4)
    expect(page.locator("#log li").nth(1)).to_be_visible()
    assert page.get_attribute("body", "data-seat") == ""
    assert page.locator("#hand .card").count() == 0
    assert_accessible(page, "a watcher's table")


def test_a_rules_page_passes_axe(page: Page, server: ServerThread) -> None:
    """Pit's rules page (every game's has the same parts): how to play, each option."""
    page.goto(server.base + "/rules/pit#option-sorting_seconds")
    expect(page.locator("#options dt").first).to_be_visible()
    expect(page.locator("#how p").first).not_to_have_text("Loading…")
    assert_accessible(page, "Pit's rules page")


def test_a_friend_joins_by_invitation(page: Page, server: ServerThread, browser: Browser) -> None:
    """The host's seat link and a friend's invitation: the match starts when both sit."""
    response = server.http.post(
        "/api/tables", json={"game": "pitty-pat", "players": 2, "settings": {"bot_delay": 0}}
    )
    created = response.json()
    host, friend = created["seats"][0]["invite"], created["seats"][1]["invite"]
    page.goto(host)
    wait_state(page, "waiting")
    expect(page.locator(".waiting")).to_contain_text("1 seat still open")
    other = new_context(browser)
    try:
        # The friend's browser is new to pitkit: it asks their name before they sit.
        guest = other.new_page()
        guest.goto(friend)
        name = guest.get_by_role("dialog")
        expect(name).to_contain_text("What should the others call you?")
        guest.fill("#name-field", "Bea")
        guest.get_by_role("button", name="Sit down").click()
        wait_state(guest, "playing")
        seats = server.http.get(f"/api/tables/{created['table']['id']}").json()["seats"]
        assert seats[1]["name"] == "Bea"
        wait_state(page, "playing")
        assert guest.get_attribute("body", "data-seat") == "1"
        assert page.get_attribute("body", "data-seat") == "0"
        expect(page.locator(".seat[data-seat='1']")).not_to_contain_text("open")
        # The friend's seat answers to their own secret now: the invitation (which the
        # host holds too) opens nothing, and a third person opening it only watches.
        assert "#token=" in guest.url and friend.split("#token=")[1] not in guest.url
        third = new_context(browser)
        try:
            late = third.new_page()
            late.goto(friend)
            expect(late.locator("body")).to_contain_text("seat is taken")
            expect(late.locator("body")).to_have_attribute("data-seat", "")
        finally:
            third.close()
        guest.reload()  # the friend keeps the seat through a reload
        wait_state(guest, "playing")
        assert guest.get_attribute("body", "data-seat") == "1"
    finally:
        other.close()


def test_reconnect_and_reload_keep_the_seat(page: Page, tmp_path: Path) -> None:
    """The server goes away in the middle of a hand and comes back; the page says so,
    reconnects by itself and resumes. Reloading, or opening the table's plain address,
    keeps the seat. Then the hand is played to the end."""
    data = tmp_path / "data"
    server = ServerThread(data)
    try:
        table_id, invite = server.create("ace-pit", [None, "greedy"], {"hands": 1})
        page.goto(invite)
        wait_state(page, "playing")
        play_turns(page, 2)
        page.wait_for_selector("body[data-busy=false]")
        version = int(page.get_attribute("body", "data-version") or 0)

        port = server.port
        server.stop()
        page.wait_for_selector("body[data-conn=down]")
        expect(page.locator("#banner")).to_contain_text("Connection lost")
        expect(page.locator("#conn")).to_contain_text("reconnecting")
        server = ServerThread(data, port=port)  # the same table, replayed from its database
        page.wait_for_selector("body[data-conn=open]", timeout=patience(20_000))
        page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
        expect(page.locator("#banner")).to_be_hidden()
        assert page.get_attribute("body", "data-seat") == "0"

        page.reload()
        wait_state(page, "playing")
        page.wait_for_selector("body[data-seat='0']")
        page.goto(f"{server.base}/t/{table_id}")  # no token in the address: from storage
        page.wait_for_selector("body[data-seat='0']")
        assert "#token=" in page.url

        play_turns(page, 1)
        page.evaluate("window.pitkit.socket.drop()")  # as a network failure would
        page.wait_for_selector("body[data-conn=open][data-busy=false]")
        assert my_turn(page) or page.locator("body[data-turn=other]").count()
        play_until_over(page)
        finish_and_check(page, server, table_id)
    finally:
        server.stop()


def test_the_host_closes_a_waiting_table(page: Page, server: ServerThread) -> None:
    """The host opens a table with a seat for a friend, then closes it: the page
    says so in words, and the lobby lists it as closed."""
    page.goto(server.base + "/")
    page.get_by_label("Pitty Pat").check()
    page.fill("#name", "Ann")
    page.locator("#seats select").first.select_option("open")
    page.click("#create-button")
    wait_state(page, "waiting")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close the table").click()
    wait_state(page, "closed")
    expect(page.locator(".centre-box.ended")).to_have_text(
        "This table is closed: the host closed the table."
    )
    screenshot(page, "table-closed")
    table_id = page.url.split("/t/")[1].split("#")[0]
    assert server.http.get(f"/api/tables/{table_id}").json()["status"] == "closed"


def test_back_after_the_match_ended(page: Page, server: ServerThread) -> None:
    """A player leaves in the middle of the match, a bot stands in and finishes it; back,
    the player sees the result in words and can ask for another game."""
    response = server.http.post(
        "/api/tables",
        json={
            "game": "ace-pit",
            "seats": [None, "greedy"],
            "rules": {"hands": 1},
            "settings": {"bot_delay": 0, "away_timeout": 0.2},
        },
    )
    created = response.json()
    table_id = created["table"]["id"]
    page.goto(created["seats"][0]["invite"])
    wait_state(page, "playing")
    play_turns(page, 1)
    page.goto("about:blank")  # gone: the stand-in bot plays the seat to the end
    poll(page, lambda: status(server, table_id) == "over", 20, "the stand-in to finish the match")
    page.goto(f"{server.base}/t/{table_id}")  # the seat's secret is kept in this browser
    wait_state(page, "over")
    dialog = page.locator("#dialog[open][data-kind=over]")
    expect(dialog).to_be_visible()
    # A win ("... 110 to 95") or a draw ("A draw at 105 each"): random play gives either.
    expect(dialog.locator(".outcome").first).to_contain_text(re.compile(r" to |A draw at"))
    expect(dialog.get_by_role("button", name="Play again")).to_be_visible()
    expect(dialog.locator(".final-scores tbody tr")).to_have_count(2)
    screenshot(page, "back-after-the-end")
    dialog.get_by_role("button", name="Close").click()
    # Closed, the result and "Play again" stay below the table.
    expect(page.locator("#hint")).to_contain_text("The game is over.")
    page.locator("#actions").get_by_role("button", name="Play again").click()
    page.wait_for_selector("body[data-state=playing][data-match='2']")


def test_chat_at_the_table(context: BrowserContext, page: Page, server: ServerThread) -> None:
    """A player writes and sends a quick reaction; a spectator, whom the host did not
    let chat, sees no chat at all."""
    table_id, invite = server.create("pitty-pat", [None, "sensible", "sensible"], bot_delay=0.3)
    page.goto(invite)
    wait_state(page, "playing")
    chat = page.locator("#chat")
    expect(chat).to_be_visible()
    expect(chat.locator("details")).to_have_attribute("open", "")
    page.fill("#chat-text", "Hello, table!")
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-log li")).to_have_text(["Tess (you): Hello, table!"])
    assert page.input_value("#chat-text") == ""
    chat.get_by_role("button", name="Say: Well played").click()
    expect(page.locator("#chat-log li").nth(1)).to_have_text("Tess (you): Well played")
    screenshot(page, "chat")
    assert page.locator("#hand .card").count()  # typing played nothing
    watcher = context.new_page()
    watcher.goto(f"{server.base}/t/{table_id}#watch")
    wait_state(watcher, "playing")
    expect(watcher.locator("#hint")).to_contain_text("You are watching")
    expect(watcher.locator("#chat")).to_be_hidden()
    watcher.close()


def test_the_turn_timer_shows(page: Page, server: ServerThread) -> None:
    """Created from the lobby with a turn timer, the table counts down the time left to
    the player to act."""
    page.goto(server.base + "/")
    page.get_by_label("Ace Pit").check()
    page.select_option("#turn-timer", "30")
    page.click("#create-button")
    wait_state(page, "playing")
    table_id = page.url.split("/t/")[1].split("#")[0]
    assert server.http.get(f"/api/tables/{table_id}").json()["settings"]["turn_seconds"] == 30
    page.wait_for_selector("body[data-turn=me][data-busy=false]")
    clock = page.locator("#hint .turn-clock")
    expect(clock).to_have_text(re.compile(r"^ ?(30|2\d) s left$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=patience(5000))  # it counts down
    expect(clock).to_have_text(re.compile(r"^ ?\d+ s left$"))


def test_a_watcher_silent_too_long_is_let_go_and_watches_again(page: Page, tmp_path: Path) -> None:
    """A spectator's page that sends nothing for `spectator_idle_seconds` (its pings
    stop while it is hidden) gives its place up: the page says so, and watches again
    at a click."""
    limits = Limits(spectator_idle_seconds=2, bot_alone_actions_per_second=1000.0)
    server = ServingThread(tmp_path / "data", limits)
    try:
        body = {"game": "pitty-pat", "seats": [None, "random", "random"], "settings": {}}
        table_id = server.http.post("/api/tables", json=body).json()["table"]["id"]
        page.goto(f"{server.base}/t/{table_id}#watch")
        page.wait_for_selector("body[data-conn=open]")
        # The page pings every 15 s: this one is let go first.
        banner = page.locator("#banner")
        expect(banner).to_contain_text("You stopped watching", timeout=patience(20_000))
        banner.get_by_role("button", name="Watch again").click()
        page.wait_for_selector("body[data-conn=open]")
        expect(banner).to_be_hidden()
        assert page.get_attribute("body", "data-seat") == ""
        watching = lambda: server.http.get(f"/api/tables/{table_id}").json()["spectators"] == 1  # noqa: E731
        wait_until(watching, 10, "the page to take its place again")
    finally:
        server.stop()


def _sign_in(context: BrowserContext, server: ServerThread, name: str) -> str:
    """Sign the browser `context` in to a new profile called `name`; the device's secret."""
    made = server.http.post("/api/profiles", json={"name": name})
    assert made.status_code == 201, made.text
    page = context.new_page()
    page.goto(server.base + "/rules/pit")  # the site's storage, before any table
    page.evaluate(
        "signed => localStorage.setItem('pitkit.profile.v1', JSON.stringify(signed))", made.json()
    )
    page.close()
    return str(made.json()["secret"])


def _profile_seats(server: ServerThread, secret: str) -> list[tuple[str, int]]:
    """The (table, seat) pairs the profile holds."""
    held = server.http.get(
        "/api/profiles/me/tables", headers={"Authorization": f"Bearer {secret}"}
    ).json()
    return [(t["id"], t["seat"]) for t in held]


def test_a_signed_in_browser_sits_as_its_profile(browser: Browser, server: ServerThread) -> None:
    """Opening an invitation while signed in takes the seat as the profile's, under the
    profile's name (nobody asks for one); a seat taken before signing in becomes the
    profile's when the table is opened again signed in."""
    body = {"game": "pitty-pat", "seats": [None, None, "random"], "settings": {"bot_delay": 0}}
    created = server.http.post("/api/tables", json=body).json()
    table_id, invites = created["table"]["id"], [s["invite"] for s in created["seats"]]
    signed, before = new_context(browser), new_context(browser, known=True)
    try:
        secret = _sign_in(signed, server, "Quinn Profile")
        page = signed.new_page()
        page.goto(invites[0])
        page.wait_for_selector("body[data-seat='0'][data-conn=open]")
        expect(page.locator(".seat[data-seat='0'] .seat-name")).to_contain_text("Quinn Profile")
        expect(page.locator("#dialog[open]")).to_have_count(0)  # nobody asked for a name
        assert _profile_seats(server, secret) == [(table_id, 0)]
        # Seat 1 taken by a browser not signed in ("Tess"), which then signs in.
        late = before.new_page()
        late.goto(invites[1])
        wait_state(late, "playing")
        assert late.get_attribute("body", "data-seat") == "1"
        secret = _sign_in(before, server, "Rue Profile")
        late.reload()
        wait_state(late, "playing")
        assert late.get_attribute("body", "data-seat") == "1"
        assert _profile_seats(server, secret) == [(table_id, 1)]
        expect(late.locator(".seat[data-seat='1'] .seat-name")).to_contain_text("Tess")
    finally:
        signed.close()
        before.close()
