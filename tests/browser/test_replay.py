"""What travels with the player: the score sheet and the earlier hands come from the
server after a reload, the Pits page shows the BGA sheet, and a finished match is
replayed in the page step by step, as one seat or all-seeing."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ServerThread
from tests.browser.helpers import new_context, poll, screenshot, status, wait_state

_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def suited(text: str) -> str:
    """Words as the page shows them: card codes with suit signs ("10H" as "10♥")."""
    return re.sub(
        r"\b([2-9TJQKA])([CDHS])\b",
        lambda m: ("10" if m[1] == "T" else m[1]) + _SIGNS[m[2]],
        text,
    )


def test_a_reload_keeps_the_sheet_and_history_and_the_match_replays(
    page: Page, server: ServerThread, browser: Browser
) -> None:
    # Tess takes her seat and leaves: the bot standing in for her plays the match out
    # (the match is not what is tested here; test_games plays through the page).
    table_id, invite = server.create(
        "ace-pit", [None, "greedy"], {"hands": 3}, settings={"away_timeout": 0.2}
    )
    page.goto(invite)
    wait_state(page, "playing")
    page.goto("about:blank")
    poll(page, lambda: status(server, table_id) == "over", 30, "the match to end")
    page.goto(f"{server.base}/t/{table_id}")  # the seat's secret is kept in this browser
    wait_state(page, "over")
    # Another device, or a reload: the sheet and the history come from the server.
    page.reload()
    wait_state(page, "over")
    dialog = page.locator("#dialog[open][data-kind=over]")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    sheet = page.locator("#scores .sheet-table tbody tr")
    expect(sheet).to_have_count(3)
    final = server.final_scores(table_id)
    expect(sheet.nth(2).locator("td")).to_have_text([str(v) for v in final])
    expect(page.locator("#log li.hand-head")).to_have_text(["Hand 1", "Hand 2", "Hand 3"])
    expect(page.locator("#log li.ev-scores")).to_have_count(3)

    # The replay, from the result window.
    page.reload()
    wait_state(page, "over")
    dialog.get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector("body[data-conn=replay] #replay:not([hidden]) .replay-words")
    bar = page.locator("#replay")
    expect(bar.locator(".replay-words")).to_have_text("The deal.")
    expect(page.locator("#subtitle")).to_contain_text("as Tess saw it")
    api = server.http.get(f"/api/tables/{table_id}/matches/1/replay", params={"seat": 0}).json()
    steps = api["steps"]
    hand = sorted(steps[0]["view"]["hand"])
    expect(page.locator("#hand .card")).to_have_count(len(hand))
    shown = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(shown) == hand
    expect(page.locator(".replay-hands")).to_have_count(0)  # only Tess's own cards
    # Step forward: the step's words, the count, the history grows.
    bar.get_by_role("button", name="Forward").click()
    words = [e["text"] for e in steps[1]["events"] if e["text"]]
    expect(bar.locator(".replay-words")).to_have_text(suited(" ".join(words)))
    expect(bar.locator(".replay-count")).to_have_text(f"1 of {len(steps) - 1}")
    bar.get_by_role("button", name="Back").click()
    expect(bar.locator(".replay-count")).to_have_text(f"0 of {len(steps) - 1}")
    # Play, pause.
    bar.get_by_role("button", name="Play").click()
    page.wait_for_function("() => window.pitkit.state.version >= 2")
    bar.get_by_role("button", name="Pause").click()
    expect(bar.get_by_role("button", name="Play")).to_be_visible()
    # As the other seat: its cards, not Tess's.
    bar.get_by_label("Watch as").select_option("1")
    expect(page.locator("#subtitle")).to_contain_text("as Bix saw it")
    at = int(page.evaluate("window.pitkit.state.version"))
    theirs = server.http.get(f"/api/tables/{table_id}/matches/1/replay", params={"seat": 1}).json()
    cards = sorted(theirs["steps"][at]["view"]["hand"])
    shown = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(shown) == cards
    # Everyone: every hand shown, by seat; the slider goes anywhere.
    bar.get_by_label("Watch as").select_option("all")
    expect(page.locator("#subtitle")).to_contain_text("every hand shown")
    expect(page.locator(".replay-hands li")).to_have_count(2)
    bar.get_by_label("Step").fill(str(len(steps) // 2))
    middle = len(steps) // 2
    expect(bar.locator(".replay-count")).to_have_text(f"{middle} of {len(steps) - 1}")
    everyone = server.http.get(f"/api/tables/{table_id}/matches/1/replay").json()
    for seat, cards in enumerate(everyone["steps"][middle]["view"]["hands"]):
        row = page.locator(f".replay-hands li[data-seat='{seat}'] .card")
        expect(row).to_have_count(len(cards))
    screenshot(page, "replay", full_page=False)
    bar.get_by_role("button", name="To the end").click()
    expect(bar.locator(".replay-count")).to_have_text(f"{len(steps) - 1} of {len(steps) - 1}")
    expect(page.locator("#dialog[open]")).to_have_count(0)  # no result window in a replay
    # The result, in words: a win ("330 to 310") or a draw ("A draw at 330 each").
    expect(bar.locator(".replay-words")).to_contain_text(re.compile(r"\d to \d|A draw at \d"))

    # The lobby links a finished table's replay.
    page.goto(f"{server.base}/")
    page.locator("#finished-box summary").click()  # finished tables, folded away at first
    item = page.locator(f"li[data-table='{table_id}']")
    link = f"/t/{table_id}#replay=1&as=all"
    expect(item.get_by_role("link", name="Replay")).to_have_attribute("href", link)

    # On a phone.
    phone = new_context(browser, known=True, viewport={"width": 390, "height": 844})
    try:
        small = phone.new_page()
        small.goto(f"{server.base}/t/{table_id}#replay=1&as=all")
        small.wait_for_selector("body[data-conn=replay] .replay-hands li")
        small.locator("#replay").get_by_label("Step").fill("5")
        expect(small.locator("#replay .replay-count")).to_contain_text("5 of")
        screenshot(small, "replay-phone", full_page=False)
    finally:
        phone.close()


def test_the_pits_page_shows_the_bga_sheet(page: Page, bot_server: ServerThread) -> None:
    server = bot_server
    table_id, _ = server.create("pits", ["heuristic"] * 5, {"hands": 3})
    poll(page, lambda: status(server, table_id) == "over", 60, "the bots' match to end")
    page.goto(f"{server.base}/t/{table_id}#watch")
    wait_state(page, "over")
    page.locator("#dialog[open]").get_by_role("button", name="Close").click()
    sheet = page.locator("#scores .bga-sheet")
    expect(sheet.locator("thead th")).to_have_text(
        ["Hand", "Ada", "Bix", "Cyd", "Dee", "Eko", "Deals next"]
    )
    expect(sheet.locator("tbody tr")).to_have_count(3)
    final = server.final_scores(table_id)
    expect(sheet.locator("tfoot tr").first.locator("td.total")).to_have_text(
        [str(v) for v in final]
    )
    percent = [f"{100 * v / 6:.1f}" for v in final]
    expect(sheet.locator("tfoot tr").nth(1).locator("td")).to_have_text([*percent, ""])
    expect(sheet.locator(".note")).to_contain_text("7 hands to a full game of 10")
    screenshot(page, "pits-sheet")
