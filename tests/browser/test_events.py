"""A BGA continuous Pits evening through the event pages (issue 19): the manager's
desk, each player's page in their own browser, the public view, the big screen and
the printable sheets. Most hands go in through the API, to keep it quick; the
rest (and every other kind of entry) through the pages, as people would. axe-core
finds nothing serious on any of the event's pages, nor on a new event's desk."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Page,
    expect,
)

from tests.browser.bigscreen import check_every_page, hold, turn_to
from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    Browsers,
    EventByApi,
    assert_accessible,
    screenshot,
)
from tests.waiting import patience

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def _order(table: list[str], hand: int) -> list[str]:
    """A finishing order that moves round the table, hand by hand."""
    return table[hand % 5 :] + table[: hand % 5]


class Evening(EventByApi):
    """The event through the API, beside the pages: the test's own hands and checks."""

    def __init__(self, server: ServerThread) -> None:
        super().__init__(server, "pits-continuous", "Congress Pits night")

    def game(self, number: int) -> dict[str, Any]:
        game: dict[str, Any] = self.view()["games"][number - 1]
        return game

    def hands(self, game: int, table: list[str], upto: int, scorer: str) -> None:
        """Enter hands up to `upto` through the scorer's link."""
        done = len(self.game(game)["hands"])
        for hand in range(done + 1, upto + 1):
            self.enter(self.tokens[scorer], "hand", game=game, hand=hand, order=_order(table, hand))

    def whole_game(self, table: list[str], label: str, scorer: str) -> int:
        """A game from start to signed sheet, all through the API."""
        self.enter(self.manager, "start_game", players=table, table=label, scorer=scorer)
        number = len(self.view()["games"])
        self.hands(number, table, 10, scorer)
        self.enter(self.tokens[scorer], "rule_off", game=number)
        for name in table:
            self.enter(self.tokens[name], "sign", game=number, player=name)
        return number


def pick_order(page: Page, game: int, order: list[str], form: str = "hand") -> None:
    """Pick a finishing order in a form's five pickers (the fifth fills itself)."""
    selects = page.locator(f"form[data-form={form}][data-game='{game}'] .pickers select")
    for i, name in enumerate(order[:4]):
        selects.nth(i).select_option(name)
    expect(selects.nth(4)).to_have_value(order[4])


def click(page: Page, action: str, within: str = "body") -> None:
    page.locator(f"{within} button[data-action={action}]").first.click()


def reload(page: Page) -> None:
    page.reload()
    page.wait_for_selector("body[data-ready=true]")


def test_a_pits_evening_through_the_pages(
    browsers: Browsers, server: ServerThread, tmp_path: Path
) -> None:
    ev = Evening(server)
    desk = browsers.open(ev.manager_url)
    assert "token" not in desk.url  # the link is kept in the browser, not in the bar
    expect(desk.locator("body")).to_have_attribute("data-page", "desk")
    expect(desk.locator("#subtitle")).to_contain_text("Manager's desk")

    # The manager adds the roster; each new player's link is there to copy.
    for name in PLAYERS:
        desk.fill("#add-name", name)
        click(desk, "add-player")
        expect(desk.locator(".ev-roster [data-where=add]")).to_contain_text(f"{name} is on")
        link = desk.locator(f".roster li[data-player='{name}'] input.link")
        ev.urls[name] = link.input_value()
        assert f"/e/{ev.id}#token=" in ev.urls[name]
        ev.tokens[name] = ev.urls[name].split("#token=")[1]
    # A name twice: refused, in words.
    desk.fill("#add-name", "ann")
    click(desk, "add-player")
    expect(desk.locator(".ev-roster .ev-note.error")).to_contain_text("on the roster already")

    # Game 1 at Table A: five picked on the desk, Ann keeps the sheet.
    first = PLAYERS[:5]
    for name in first:
        desk.locator(f".free-players input[id='start-{name}']").check()
    expect(desk.locator(".free-players input[id='start-Fay']")).to_be_disabled()
    desk.fill("#start-table", "Table A")
    desk.select_option("#start-scorer", "Ann")
    click(desk, "start-game")
    card = desk.locator(".ev-tables .game-card[data-game='1']")
    expect(card).to_contain_text("Table A")
    expect(card).to_contain_text("Ann keeps the sheet")

    # Ann, the scorer, enters hand 1 from her own page: five pickers, the 3rd deals next.
    ann = browsers.open(ev.urls["Ann"])
    expect(ann.locator("body")).to_have_attribute("data-page", "player")
    expect(ann.locator(".ev-seat")).to_contain_text("You keep the sheet")
    expect(ann.locator(".picker.deals label")).to_contain_text("deals next")
    pick_order(ann, 1, _order(first, 1))
    click(ann, "enter-hand")
    expect(ann.locator("[data-where='g1:hand']")).to_contain_text("Hand 1 is entered")
    assert ev.game(1)["hands"][0]["order"] == _order(first, 1)

    # Bob is at the table but does not keep its sheet: no controls to enter a hand,
    # and the server refuses his link anyway.
    bob = browsers.open(ev.urls["Bob"], PHONE)
    expect(bob.locator(".ev-seat")).to_contain_text("Ann keeps the sheet")
    expect(bob.locator("form[data-form=hand]")).to_have_count(0)
    expect(bob.locator("button[data-action=open-fix]")).to_have_count(0)
    refused = server.http.post(
        f"/api/events/{ev.id}/entries",
        json={"type": "hand", "data": {"game": 1, "hand": 2, "order": _order(first, 2)}},
        headers={"Authorization": f"Bearer {ev.tokens['Bob']}"},
    )
    assert refused.status_code == 403 and "scorer" in refused.json()["detail"]

    # Ann starts picking hand 2 while it goes in from elsewhere: the page says why not.
    selects = ann.locator("form[data-form=hand][data-game='1'] .pickers select")
    selects.nth(0).select_option(_order(first, 2)[0])
    ev.hands(1, first, 3, "Ann")
    pick_order(ann, 1, _order(first, 2))
    click(ann, "enter-hand")
    expect(ann.locator("[data-where='g1:hand']")).to_contain_text(
        "Refused: Hand 2 of game 1 is entered already"
    )
    expect(ann.locator("form[data-form=hand] h4")).to_contain_text("Hand 4")

    # Eve leaves early: the manager records the quit, Fay takes her seat from 0.
    reload(desk)
    frozen = ev.game(1)["points"]["Eve"]
    click(desk, "open-quit", ".ev-tables .game-card[data-game='1']")
    quit_form = desk.locator("form[data-form=quit][data-game='1']")
    quit_form.locator("select").nth(0).select_option("Eve")
    quit_form.locator("select").nth(1).select_option("Fay")
    click(desk, "quit", "form[data-form=quit]")
    expect(card).to_contain_text("Fay for Eve")
    expect(card.locator("tr.left-table")).to_contain_text("Eve")
    table = ["Ann", "Bob", "Cat", "Dan", "Fay"]
    ev.hands(1, table, 10, "Ann")
    game = ev.game(1)
    assert game["points"]["Eve"] == frozen and game["seats"][4] == ["Eve", "Fay"]

    # The manager corrects hand 5: chooses it, picks the order again.
    reload(desk)
    wrong = game["hands"][4]
    click(desk, "open-fix", ".ev-tables .game-card[data-game='1']")
    fix = desk.locator("form[data-form=correct][data-game='1']")
    fix.locator("select").first.select_option("5")
    right = [wrong["order"][1], wrong["order"][0], *wrong["order"][2:]]
    pick_order(desk, 1, right, form="correct")
    click(desk, "correct-hand")
    expect(desk.locator("[data-where='g1:fix']")).to_contain_text("Hand 5 is corrected")
    assert ev.game(1)["hands"][4]["order"] == right
    expect(desk.locator(f".entry-log tr[data-seq='{wrong['entry']}']")).to_contain_text(
        "corrected by"
    )
    expect(desk.locator(".entry-log")).to_contain_text(f"Correction of #{wrong['entry']}")

    # Ten hands: Ann rules the sheet off from her page.
    reload(ann)
    click(ann, "open-rule")
    click(ann, "rule-off")
    expect(ann.locator(".ev-sign")).to_contain_text("Table A (game 1) is ruled off")

    # Everyone at the table signs from their own page; Fay's signature goes in
    # through the manager.
    click(ann, "sign", ".ev-sign")
    expect(ann.locator("[data-where='g1:sign']")).to_contain_text("You signed")
    reload(bob)
    expect(bob.locator(".ev-sign")).to_be_visible()
    click(bob, "sign", ".ev-sign")
    expect(bob.locator("[data-where='g1:sign']")).to_contain_text("You signed")
    for name in ["Cat", "Dan"]:
        page = browsers.open(ev.urls[name], PHONE)
        click(page, "sign", ".ev-sign")
        expect(page.locator("[data-where='g1:sign']")).to_contain_text("You signed")
    reload(desk)
    finished = desk.locator(".ev-finished [data-game='1']")
    expect(finished).to_contain_text("1 signature missing")
    click(desk, "sign", ".ev-finished .game-card[data-game='1']")
    expect(finished.locator("[data-status]")).to_have_text("signed")
    signed = ev.game(1)
    assert signed["confirmed"] and set(signed["signatures"]) == set(table)
    log = server.http.get(f"/api/events/{ev.id}").json()["log"]
    assert [e["by"] for e in log if e["type"] == "sign"][-1] == "the manager"

    # The rest of the evening at two tables, through the API: three players reach
    # four full games and the percentage prize.
    ev.whole_game(["Cat", "Dan", "Eve", "Fay", "Gus"], "Table B", "Gus")
    ev.whole_game(["Ann", "Cat", "Dan", "Eve", "Gus"], "Table A", "Cat")
    ev.whole_game(["Bob", "Cat", "Dan", "Eve", "Fay"], "Table B", "Dan")
    last = ["Ann", "Bob", "Fay", "Gus", "Cat"]
    ev.enter(ev.manager, "start_game", players=last, table="Table A", scorer="Ann")
    ev.hands(5, last, 3, "Ann")
    # Gus quits game 5 from his phone; Dan, free, takes the seat.
    gus = browsers.open(ev.urls["Gus"], PHONE)
    expect(gus.locator(".ev-seat")).to_contain_text("You play at Table A, seat 4")
    click(gus, "open-quit")
    gus.select_option("#g5-quit-by", "Dan")
    click(gus, "quit", "form[data-form=quit]")
    expect(gus.locator(".ev-seat")).to_contain_text("You are not at a table now")
    assert ev.game(5)["seats"][3] == ["Gus", "Dan"]
    last = ["Ann", "Bob", "Fay", "Dan", "Cat"]
    view = ev.view()
    eligible = {line["player"] for line in view["standings"]["percentage"]}
    assert eligible == {"Cat", "Dan", "Eve"}

    # The big screen: both prize tables, ranks with ties, percentages, eligibility.
    big = browsers.open(f"{ev.base}/e/{ev.id}/screen")
    expect(big.locator("body")).to_have_attribute("data-page", "screen")
    assert big.locator("button, input, select").count() == 0  # no controls
    points = big.locator("table[data-table=points] tbody tr")
    expect(points).to_have_count(len(PLAYERS))
    for line in view["standings"]["points"]:
        row = big.locator(f"table[data-table=points] tr[data-player='{line['player']}']")
        rank = f"{'=' if line['tied'] else ''}{line['rank']}"
        expect(row.locator("td.rank")).to_have_text(rank)
        expect(row).to_contain_text(f"{line['percentage']:.1f}%")
        # Not yet in the running: grey (the screen's legend says so).
        grey = expect(row.locator("td.pct"))
        if line["eligible"]:
            grey.not_to_have_class(re.compile("muted"))
        else:
            grey.to_have_class(re.compile("muted"))
    assert any(line["tied"] for line in view["standings"]["points"])
    expect(big.locator("table[data-table=points] td.rank", has_text="=")).not_to_have_count(0)
    pct = big.locator("table[data-table=percentage] tbody tr")
    expect(pct).to_have_count(3)
    for i, line in enumerate(view["standings"]["percentage"]):
        expect(pct.nth(i)).to_contain_text(line["player"])
        expect(pct.nth(i)).to_contain_text(f"{line['percentage']:.1f}%")
    expect(big.locator(".screen-legend")).to_contain_text("Grey percentages")
    # The tables being played are the next page (held there: the pages turn by themselves).
    hold(big)
    turn_to(big, "Tables now")
    expect(big.locator(".screen-card[data-game='5']")).to_contain_text("Table A · hand 4")
    # It keeps itself up to date: a hand entered elsewhere shows within two seconds,
    # brought by the stream of the event's news (one fetch for it, no polling).
    fetched: list[str] = []
    big.on(
        "request",
        lambda r: fetched.append(r.url) if r.url.endswith(f"/api/events/{ev.id}") else None,
    )
    seq = int(big.get_attribute("body", "data-seq") or 0)
    ev.hands(5, last, 4, "Ann")
    expect(big.locator(".screen-card[data-game='5']")).to_contain_text(
        "Table A · hand 5", timeout=patience(2_000)
    )
    assert int(big.get_attribute("body", "data-seq") or 0) == seq + 1
    assert len(fetched) == 1, fetched
    expect(big.locator(".screen-fresh")).to_have_text("Live")
    turn_to(big, "Standings")
    big.keyboard.press(" ")  # turning again: ten seconds on this page
    expect(big.locator(".screen-pager .held")).to_have_count(0)
    screenshot(big, "event-screen")

    # The public view: standings and tables, read-only, and no link anywhere.
    public = browsers.open(f"{ev.base}/e/{ev.id}")
    expect(public.locator("body")).to_have_attribute("data-page", "public")
    expect(public.locator(".ev-standings table[data-table=points] tbody tr")).to_have_count(7)
    expect(public.locator(".ev-tables .game-card[data-game='5']")).to_be_visible()
    assert public.locator("button[data-action], input, form").count() == 0
    html = public.content()
    assert "token" not in html and "#token" not in html
    assert not any(token in html for token in [ev.manager, *ev.tokens.values()])

    # The score sheets: one a game, to print, and as a PDF through Chromium.
    sheets = browsers.open(f"{ev.base}/e/{ev.id}/print")
    expect(sheets.locator(".sheet")).to_have_count(5)
    first_sheet = sheets.locator(".sheet[data-game='1']")
    expect(first_sheet.locator(".signature")).to_have_count(5)
    expect(first_sheet).to_contain_text("Eve left after 3 hands")
    expect(first_sheet.locator("tfoot")).to_contain_text("Total")
    screenshot(sheets, "event-print")
    pdf = tmp_path / "sheets.pdf"
    sheets.emulate_media(media="print")
    sheets.pdf(path=str(pdf), format="A4", print_background=True)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 5000
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 5  # one A4 page a sheet

    # The desk's CSV links work.
    reload(desk)
    for file in ["sheets", "standings"]:
        href = desk.locator(f".ev-files a[href$='{file}.csv']").get_attribute("href")
        assert href is not None
        answer = server.http.get(href)
        assert answer.status_code == 200 and "text/csv" in answer.headers["content-type"]

    # Pictures for the README: the desk, a scorer's page, the big screen, desktop and phone.
    desk.locator(".ev-tables button[data-action=open-hand]").first.click()
    screenshot(desk, "event-desk")
    reload(ann)
    screenshot(ann, "event-player")
    for name, url in [("desk", ev.manager_url), ("player", ev.urls["Ann"])]:
        phone = browsers.open(url, PHONE)
        screenshot(phone, f"event-{name}-phone")
    # The big screen on a phone: a prize table at a time, nothing over anything else.
    small = browsers.open(f"{ev.base}/e/{ev.id}/screen", PHONE)
    seen = check_every_page(small)
    assert [shown["part"] for shown in seen][:2] == ["Most points", "Best percentage"]
    small.keyboard.press(" ")
    screenshot(small, "event-screen-phone")


def test_a_pits_game_online_from_the_desk_to_the_seat_and_back(
    browsers: Browsers, server: ServerThread
) -> None:
    ev = Evening(server)
    for name in [*PLAYERS[:5], "Hal", "Ivy", "Jo", "Kim", "Lou"]:
        ev.tokens[name] = ev.enter(ev.manager, "add_player", name=name)["link"]["token"]
    ev.enter(ev.manager, "start_game", players=PLAYERS[:5], table="Table A")
    desk = browsers.open(ev.manager_url)

    # The manager puts game 1 online from the desk; the table opens for its five.
    click(desk, "open-table", "[data-game='1']")
    watch = desk.locator("[data-game='1'] a[data-action=watch]")
    expect(watch).to_be_visible()
    table_id = ev.game(1)["online"]
    assert table_id and watch.get_attribute("href") == f"/t/{table_id}#watch"
    expect(desk.locator("[data-game='1'] button[data-action=open-hand]")).to_have_count(0)
    # This browser keeps the host token: the table's page shows the host's buttons.
    host = desk.context.new_page()
    host.goto(f"{server.base}/t/{table_id}#watch")
    expect(host.get_by_role("button", name=re.compile("Start"))).to_be_visible()
    host.close()

    # Ann takes her seat from her own page, on her phone.
    ann = browsers.open(f"{server.base}/e/{ev.id}#token={ev.tokens['Ann']}", PHONE)
    expect(ann.locator(".ev-seat")).to_contain_text("played online")
    screenshot(ann, "event-online-player-phone")
    click(ann, "take-seat")
    ann.wait_for_url(re.compile(f"/t/{table_id}#token="))
    expect(ann.locator("body")).to_contain_text("Ann")
    seats = server.http.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[0]["kind"] == "player" and seats[0]["name"] == "Ann"

    # Game 2 goes online through the API with quick bots in every seat: its hands
    # reach the desk by themselves, entered by "the online table".
    second = ["Hal", "Ivy", "Jo", "Kim", "Lou"]
    ev.enter(ev.manager, "start_game", players=second, table="Table B")
    table = ev.enter(ev.manager, "open_table", game=2, bot_delay=0)["table"]
    for seat in range(5):
        response = server.http.put(
            f"/api/tables/{table['id']}/seats/{seat}",
            json={"bot": "random"},
            headers={"Authorization": f"Bearer {table['host_token']}"},
        )
        assert response.status_code == 200, response.text
    card = desk.locator(".game-card[data-game='2']")
    expect(card).to_contain_text(re.compile(r"last, hand \d+:"), timeout=patience(60_000))
    expect(card).to_contain_text("played online")
    expect(desk.locator(".ev-log")).to_contain_text("the online table")
    screenshot(desk, "event-online-desk")


@pytest.fixture(scope="module")
def evening_under_way(server: ServerThread) -> Evening:
    """An evening through the API: the roster, and a game at a table with hands entered."""
    ev = Evening(server)
    for name in PLAYERS:
        ev.tokens[name] = ev.enter(ev.manager, "add_player", name=name)["link"]["token"]
    ev.enter(ev.manager, "start_game", players=PLAYERS[:5], table="Table A", scorer="Ann")
    ev.hands(1, PLAYERS[:5], 3, "Ann")
    return ev


@pytest.mark.parametrize("where", ["new desk", "desk", "public", "player", "screen"])
def test_the_event_pages_pass_axe(
    browsers: Browsers, server: ServerThread, evening_under_way: Evening, where: str
) -> None:
    """Each page of an evening under way (a player's as the scorer sees it, on a phone),
    and the desk of a tournament just opened."""
    ev = evening_under_way
    urls = {
        "new desk": Evening(server).manager_url,
        "desk": ev.manager_url,
        "public": f"{ev.base}/e/{ev.id}",
        "player": f"{ev.base}/e/{ev.id}#token={ev.tokens['Ann']}",
        "screen": f"{ev.base}/e/{ev.id}/screen",
    }
    page = browsers.open(urls[where], PHONE if where == "player" else DESKTOP)
    assert_accessible(page, f"the event's {where} page")
