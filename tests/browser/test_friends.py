"""Three friends at one table, as issue 20 asks: each on their own browser, at a desk
and on phones. The host creates a table in the lobby; the friends open their
invitations and say their names; a stranger with a stolen link, and the host's own
copy of a claimed seat's link, are turned away; they chat, one reloads, and they play a
whole Pitty Pat match with a bot (the most Pitty Pat seats: four), which one of them
replays; then a hand of Pit with two bots."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    look_again_soon,
    new_context,
    page_state,
    screenshot,
    step_each,
    wait_state,
)
from tests.waiting import patience

VIEWPORTS = {"desk": (1366, 900, False), "phone": (390, 844, True)}


@dataclass
class Friend:
    """One person: their own browser and their page at the table."""

    name: str
    context: BrowserContext
    page: Page


@pytest.fixture
def friends(browser: Browser, request: pytest.FixtureRequest) -> Iterator[list[Friend]]:
    """Ann (who will host), Bea, Cyd: three browsers that have never seen pitkit. Their
    devices ask for less motion: the table's animations (test_effects' subject) would
    only make each of their hundreds of clicks wait for the cards to stop moving."""
    width, height, touch = VIEWPORTS[request.node.callspec.params["viewport"]]
    people: list[Friend] = []
    for name in ("Ann", "Bea", "Cyd"):
        context = new_context(
            browser,
            viewport={"width": width, "height": height},
            is_mobile=touch,
            has_touch=touch,
            reduced_motion="reduce",
        )
        people.append(Friend(name, context, context.new_page()))
    yield people
    for friend in people:
        friend.context.close()


def host_a_table(
    ann: Friend, server: ServerThread, game: str, seats: list[str], speed: str, **rules: int | bool
) -> str:
    """Ann creates a table in the lobby: herself, then `seats` ("open" or a bot's name),
    the bots at `speed` (the lobby's choice: seconds a move) and the given rule options
    (a number typed in, a yes-or-no ticked or not). The table's id."""
    page = ann.page
    page.goto(server.base + "/")
    page.check(f"#game-{game}")
    page.fill("#name", ann.name)
    page.select_option("#players", str(len(seats) + 1))
    for i, seat in enumerate(seats, start=1):
        page.select_option(f"#seat-{i}", seat)
    page.select_option("#speed", speed)
    page.locator("#rules-box summary").click()
    for name, value in rules.items():
        if isinstance(value, bool):
            page.set_checked(f"#rule-{name}", value)
        else:
            page.fill(f"#rule-{name}", str(value))
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    return page.url.split("/t/")[1].split("#")[0]


def invitations(ann: Friend) -> list[str]:
    """The open seats' links, from the host's Invite window."""
    page = ann.page
    page.click("#invite")
    dialog = page.locator("#dialog[open][data-kind=invite]")
    links = [
        dialog.get_by_label(f"Seat {n} link").input_value()
        for n in range(2, 6)
        if dialog.get_by_label(f"Seat {n} link").count()
    ]
    dialog.get_by_role("button", name="Done").click()
    return links


def join(friend: Friend, link: str) -> None:
    """A friend opens their invitation: asked their name, they sit down."""
    page = friend.page
    page.goto(link)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("What should the others call you?")
    page.fill("#name-field", friend.name)
    dialog.get_by_role("button", name="Sit down").click()
    page.wait_for_selector("body[data-seat]:not([data-seat=''])")


def open_chat(page: Page) -> None:
    """Unfold the chat (folded on a phone)."""
    if page.locator("#chat details:not([open])").count():
        page.locator("#chat summary").click()


def play_match(people: list[Friend], timeout: float = 150) -> None:
    """Everyone plays by clicking their simplest legal move until the match is over."""
    deadline = time.monotonic() + patience(timeout)
    while not all(step == "over" for step in step_each([f.page for f in people])):
        assert time.monotonic() < deadline, "the match did not end in time:\n" + "\n".join(
            f"{f.name}: {page_state(f.page)}" for f in people
        )
        look_again_soon(0.04)


def hands_done(page: Page) -> int:
    """How many hands of the match this page knows to be scored."""
    return int(
        page.evaluate(
            "(() => { const v = window.pitkit.state.view;"
            " return v && v.match ? v.match.results.length : 0; })()"
        )
    )


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_three_friends_and_bots_play_together(
    friends: list[Friend], browser: Browser, server: ServerThread, viewport: str
) -> None:
    ann, bea, cyd = friends

    # -- Pitty Pat: Ann hosts; Bea and Cyd come by invitation; a bot takes seat 4, and
    # moves at once (the friends' clicks are what takes the time). A hand can reach a
    # point where nobody can match again (every card of the ranks still held is in
    # someone's hand, none left to turn up): by default it goes round to the turn limit,
    # 1,000 turns of the friends' clicks, and is a draw (Y4). The host ticks "End a hand
    # nobody can win", which makes it a draw at once.
    table_id = host_a_table(
        ann,
        server,
        "pitty-pat",
        ["open", "open", "sensible"],
        speed="0",
        target=2,
        dead_hand=True,
    )
    wait_state(ann.page, "waiting")
    rules = server.http.get(f"/api/tables/{table_id}").json()["rules"]
    assert rules["dead_hand"] is True and rules["target"] == 2
    bea_link, cyd_link = invitations(ann)
    join(bea, bea_link)
    join(cyd, cyd_link)
    for friend in friends:
        wait_state(friend.page, "playing")
    seats = server.http.get(f"/api/tables/{table_id}").json()["seats"]
    assert [s["name"] for s in seats[:3]] == ["Ann", "Bea", "Cyd"]
    for friend in friends:
        for other in ("Ann", "Bea", "Cyd"):
            expect(friend.page.locator("#felt")).to_contain_text(other)

    # A stranger who got hold of Bea's link only watches: the seat is Bea's.
    stranger = new_context(browser)
    try:
        page = stranger.new_page()
        page.goto(bea_link)  # every seat is taken: no name is asked
        expect(page.locator("body")).to_contain_text("seat is taken: Bea has it")
        expect(page.locator("body")).to_have_attribute("data-seat", "")
        assert page.locator("#hand .card").count() == 0
    finally:
        stranger.close()

    # Nor does the host's own copy of the link open Bea's seat, and Ann keeps hers.
    copy = ann.context.new_page()
    copy.goto(bea_link)
    expect(copy.locator("body")).to_contain_text("Bea has it")
    expect(copy.locator("body")).to_have_attribute("data-seat", "")
    copy.close()
    ann.page.reload()
    ann.page.wait_for_selector("body[data-seat='0']")

    # They chat.
    open_chat(bea.page)
    bea.page.fill("#chat-text", "Good luck, all!")
    bea.page.press("#chat-text", "Enter")
    # The server stored it and said it back: Bea's own line comes first.
    said = patience(15_000)  # stored before it is said: a busy machine's store is slow
    expect(bea.page.locator("#chat-log")).to_contain_text(
        "Bea (you): Good luck, all!", timeout=said
    )
    for friend in (ann, cyd):
        open_chat(friend.page)
        log = friend.page.locator("#chat-log")
        expect(log).to_contain_text("Bea: Good luck, all!", timeout=said)

    # Cyd reloads in the middle of the match and is back in her seat.
    cyd.page.reload()
    cyd.page.wait_for_selector("body[data-seat='2'][data-state=playing]")
    # (On a phone the chat lies below the table: back up to the table for the picture.)
    ann.page.evaluate("document.querySelector('.layout').scrollTo(0, 0)")
    screenshot(ann.page, f"friends-pitty-pat-{viewport}", full_page=False)

    play_match(friends)
    for friend in friends:
        dialog = friend.page.locator("#dialog[open][data-kind=over]")
        expect(dialog).to_be_visible()
        expect(dialog.locator(".final-scores tbody tr")).to_have_count(4)
    final = server.final_scores(table_id)
    assert max(final) == 2  # the target: the first to win two hands

    # Bea replays the match step by step, as she saw it, then seeing every hand.
    page = bea.page
    page.locator("#dialog[open][data-kind=over]").get_by_role(
        "link", name="Watch the replay"
    ).click()
    bar = page.locator("#replay")
    page.wait_for_selector("body[data-conn=replay] #replay:not([hidden]) .replay-words")
    expect(page.locator("#subtitle")).to_contain_text("as Bea saw it")
    steps = server.http.get(f"/api/tables/{table_id}/matches/1/replay", params={"seat": 1}).json()[
        "steps"
    ]
    for n in (1, 2, 3):
        bar.get_by_role("button", name="Forward").click()
        expect(bar.locator(".replay-count")).to_have_text(f"{n} of {len(steps) - 1}")
    cards = sorted(steps[3]["view"]["hand"])
    shown = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(shown) == cards  # Bea's own cards at that step, and only hers
    expect(page.locator(".replay-hands")).to_have_count(0)
    bar.get_by_label("Watch as").select_option("all")
    expect(page.locator("#subtitle")).to_contain_text("every hand shown")
    expect(page.locator(".replay-hands li")).to_have_count(4)
    screenshot(page, f"friends-replay-{viewport}", full_page=False)

    # -- Pit: the same friends, two quick bots (Pit's bots trade at a person's pace once
    # they have any delay), one hand: cornered, or over after two trades a player.
    for friend in friends:
        friend.page.goto("about:blank")
    table_id = host_a_table(
        ann,
        server,
        "pit",
        ["open", "open", "sensible", "sensible"],
        speed="0.25",
        sorting_seconds=3,
        trades_per_player=2,
    )
    wait_state(ann.page, "waiting")
    bea_link, cyd_link = invitations(ann)
    for friend, link in ((bea, bea_link), (cyd, cyd_link)):
        friend.page.goto(link)  # they are known now: no name asked
        friend.page.wait_for_selector("body[data-seat]:not([data-seat=''])")
    for friend in friends:
        wait_state(friend.page, "playing")
    deadline = time.monotonic() + patience(90)
    while not hands_done(ann.page):
        assert time.monotonic() < deadline, "no Pit hand ended in time"
        step_each([friend.page for friend in friends])
        look_again_soon(0.06)
    screenshot(ann.page, f"friends-pit-{viewport}", full_page=False)
    for friend in friends:
        friend.page.wait_for_function("() => window.pitkit.state.view.match.results.length > 0")
