"""A Darrtown Pitch tournament through the event pages (issue 19): the manager's desk,
the judges' pages, the players' pages, the public view, the big screen and the
printable score pads. Eight players, two Go-Rounds (two tables of four, then the
final), a correctable and an uncorrectable misplay by the same player that
disqualify her, a hand recorded by its dealer and initialled by the judge from their
own pages, and the champion on the big screen. Most hands go in through the API, to
keep it quick; the rest (and every other kind of entry) through the pages. axe-core
finds nothing serious on the desk, a judge's page or a player's page in Go-Round 1."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.bigscreen import SIZES, check_every_page
from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    Browsers,
    EventByApi,
    assert_accessible,
    screenshot,
)
from tests.browser.test_events import click, reload
from tests.browser.test_hall import sixty

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
JUDGES = {"Jo Dee": "JD", "Max Ray": "MR"}


class Tournament(EventByApi):
    """The event through the API, beside the pages: the test's own hands and checks."""

    def __init__(self, server: ServerThread) -> None:
        super().__init__(server, "pitch-tournament", "Darrtown Bicentennial")

    def table(self, rnd: int, table: int) -> dict[str, Any]:
        found: dict[str, Any] = self.view()["rounds"][rnd - 1]["tables"][table - 1]
        return found

    def hand(self, rnd: int, table: int, **pad: Any) -> int:
        """The next hand on a table's pad, from its dealer's link; its line."""
        now = self.table(rnd, table)
        pad.setdefault("trump", "S")
        pad.setdefault("jack", None)
        line: int = now["next_line"]
        self.enter(self.tokens[now["dealer"]], "hand", round=rnd, table=table, line=line, **pad)
        return line

    def confirm(self, rnd: int, table: int, line: int) -> None:
        judge = self.table(rnd, table)["judge"]
        self.enter(self.tokens[judge], "confirm", round=rnd, table=table, line=line)

    def win(self, rnd: int, table: int, winner: str) -> None:
        """A hand in which `winner` pitches 2 and takes high, low and game, initialled."""
        line = self.hand(rnd, table, bid=2, pitcher=winner, high=winner, low=winner, game=winner)
        self.confirm(rnd, table, line)

    def play_out(self, rnd: int, table: int, winner: str) -> None:
        """Hands won by `winner` until the game at the table is over (C10)."""
        while self.table(rnd, table)["outcome"] is None:
            self.win(rnd, table, winner)


def controls(page: Page, within: str) -> int:
    """How many things to press or fill there are in a part of the page."""
    return page.locator(f"{within} :is(button, input, select, textarea, form)").count()


def test_a_pitch_tournament_through_the_pages(
    browsers: Browsers, server: ServerThread, tmp_path: Path
) -> None:
    ev = Tournament(server)
    desk = browsers.open(ev.manager_url)
    assert "token" not in desk.url
    expect(desk.locator("body")).to_have_attribute("data-page", "desk")
    expect(desk.locator("body")).to_have_class(re.compile("kind-pitch-tournament"))
    expect(desk.locator(".glance")).to_contain_text("Add the players and the judges")

    # The manager adds the players and the judges; each new link is there to copy.
    for name in EIGHT:
        desk.fill("#add-player-name", name)
        click(desk, "add-player")
        expect(desk.locator(".ev-roster [data-where=addp]")).to_contain_text(f"{name} is on")
    for name in JUDGES:
        desk.fill("#add-judge-name", name)
        click(desk, "add-judge")
        expect(desk.locator(".ev-roster [data-where=addj]")).to_contain_text(f"{name} is a judge")
    for name in [*EIGHT, *JUDGES]:
        link = desk.locator(f".roster li[data-person='{name}'] input.link")
        ev.urls[name] = link.input_value()
        assert f"/e/{ev.id}#token=" in ev.urls[name]
        ev.tokens[name] = ev.urls[name].split("#token=")[1]
        expect(desk.locator(f".roster li[data-person='{name}'] .link-row button")).to_have_text(
            "Copy"
        )
    expect(desk.locator(".roster[data-roster=judges]")).to_contain_text("initials JD")
    desk.fill("#add-player-name", "ann")
    click(desk, "add-player")
    expect(desk.locator(".ev-roster .ev-note.error")).to_contain_text("on the roster already")

    # Go-Round 1 by standing (drawn unless roster order is picked): two tables of four,
    # a judge each, shown before seating.
    expect(desk.locator("#seat-by")).to_have_value("draw")
    desk.select_option("#seat-by", "standing")
    expect(desk.locator("#seat-tables")).to_have_value("2")
    expect(desk.locator(".seat-preview")).to_contain_text("Table 1: Ann, Cat, Eve, Gus")
    expect(desk.locator(".seat-preview")).to_contain_text("Table 2: Bob, Dan, Fay, Hal")
    expect(desk.locator("#seat-judge1")).to_have_value("Max Ray")
    click(desk, "seat-round")
    cards = desk.locator(".ev-tables .pitch-table[data-round='1']")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_contain_text("Judge: Jo Dee (JD)")
    expect(cards.nth(1)).to_contain_text("to cut for the deal")
    expect(desk.locator(".ev-roster")).to_contain_text("The roster closed")
    assert_accessible(desk, "the desk in Go-Round 1")

    # Judge Jo enters the cut at her table from her page; Max's goes in by the API.
    jo = browsers.open(ev.urls["Jo Dee"])
    expect(jo.locator("body")).to_have_attribute("data-page", "judge")
    expect(jo.locator(".glance")).to_contain_text("You judge table 1 of Go-Round 1")
    assert_accessible(jo, "a judge's page")
    jo.select_option("#r1t1-cut-dealer", "Ann")
    click(jo, "cut", ".ev-todo")
    expect(jo.locator(".ev-tables .pitch-table")).to_contain_text("Ann deals line 1")
    ev.enter(ev.tokens["Max Ray"], "cut", round=1, table=2, dealer="Bob")

    # Ann deals the first hand and records it on the pad from her phone.
    ann = browsers.open(ev.urls["Ann"], PHONE)
    expect(ann.locator("body")).to_have_attribute("data-page", "player")
    expect(ann.locator(".ev-seat .big-line")).to_contain_text("You deal this hand")
    pad = ann.locator("form[data-form=pad]")
    expect(pad.locator("h4")).to_contain_text("Line 1")
    expect(ann.locator("button[data-action=record-hand]")).to_be_disabled()
    for field, value in [
        ("bid", "3"), ("pitcher", "Ann"), ("trump", "H"), ("high", "Ann"),
        ("low", "Eve"), ("jack", "none"), ("game", "Ann"),
    ]:  # fmt: skip
        ann.select_option(f"#r1t1-pad-{field}", value)
    expect(pad.locator(".pad-preview")).to_contain_text("Ann is set back 3")
    ann.select_option("#r1t1-pad-low", "Ann")
    expect(pad.locator(".pad-preview")).to_contain_text("Ann makes the bid of 3")
    screenshot(ann, "event-pitch-player-phone")
    assert_accessible(ann, "a player's page, with the pad filled in")
    click(ann, "record-hand")
    expect(ann.locator("[data-where='r1t1:pad']")).to_contain_text(
        "Line 1 is on the pad: call judge Jo Dee"
    )
    expect(ann.locator(".ev-seat .big-line")).to_contain_text("Cat deals this hand")
    line = ev.table(1, 1)["lines"][0]
    assert line["status"] == "pending" and line["dealer"] == "Ann"
    assert line["pad"] == {"bid": 3, "pitcher": "Ann", "trump": "H", "high": "Ann",
                           "low": "Ann", "jack": None, "game": "Ann"}  # fmt: skip
    expect(ann.locator(".pad-table tr[data-line='1']")).to_contain_text("to initial")
    expect(ann.locator(".pad-table tr[data-line='1']")).to_contain_text("Jack not dealt")

    # Judge Jo initials it from her page: one click, her initials filled in.
    reload(jo)
    item = jo.locator(".ev-todo .todo-item[data-line='1']")
    expect(item).to_contain_text("Ann bid 3 in ♥ hearts and made it")
    expect(item.locator("button[data-action=confirm]")).to_have_text("Initial line 1 · JD")
    click(jo, "confirm", ".ev-todo")
    expect(jo.locator("[data-where='r1t1:confirm']")).to_contain_text("Line 1 is initialled JD")
    line = ev.table(1, 1)["lines"][0]
    assert (line["status"], line["initials"], line["confirmed_by"]) == (
        "confirmed", "JD", "judge Jo Dee",
    )  # fmt: skip

    # Judge Max sees table 1 but may do nothing there: no controls on it, nothing to
    # initial; his own table has his.
    max_ = browsers.open(ev.urls["Max Ray"])
    other = max_.locator(".ev-others .pitch-table[data-round='1'][data-table='1']")
    expect(other).to_be_visible()
    expect(other).to_contain_text("Judge: Jo Dee (JD)")
    assert controls(max_, ".ev-others") == 0
    expect(max_.locator(".ev-tables .pitch-table[data-table='2'] button")).not_to_have_count(0)
    expect(max_.locator(".ev-todo .todo-item")).to_have_count(0)

    # Cat deals hand 2 and misplays; Eve appeals from her phone, Jo rules it correctable.
    eve = browsers.open(ev.urls["Eve"], PHONE)
    expect(eve.locator(".ev-seat .big-line")).to_contain_text("Cat deals this hand")
    click(eve, "open-appeal")
    eve.select_option("#r1t1-appeal-who", "Cat")
    eve.fill("#r1t1-appeal-note", "did not follow suit")
    click(eve, "appeal", "form[data-form=appeal]")
    expect(eve.locator("[data-where='r1t1:appeal']")).to_contain_text(
        "Your appeal is with judge Jo Dee"
    )
    reload(jo)
    box = jo.locator(".ev-todo .ruling-box")
    expect(box).to_contain_text("Eve says Cat misplayed (“did not follow suit”)")
    expect(box).to_contain_text("Cat has no misplay in this Go-Round yet")
    click(jo, "rule-correctable", ".ev-todo")
    expect(jo.locator(".ev-todo .ev-note.info")).to_contain_text(
        "A correctable misplay by Cat: the cards are replayed"
    )
    second = ev.hand(1, 1, bid=2, pitcher="Ann", high="Ann", low="Ann", game="Ann")  # Cat's

    # Eve deals hand 3; Cat misplays again, and it cannot be corrected: Gus appeals,
    # Jo rules with the hand's highest bid. The second misplay disqualifies Cat.
    appeal = ev.enter(ev.tokens["Gus"], "appeal", round=1, table=1, offender="Cat")["entry"]["seq"]
    reload(jo)
    box = jo.locator(f".ruling-box[data-appeal='{appeal}']")
    expect(box).to_contain_text("either misplay ruling disqualifies Cat")
    expect(jo.locator(f".ev-todo .todo-item[data-line='{second}']")).to_contain_text("Cat dealt")
    expect(jo.locator(".ev-others .pitch-table[data-table='2']")).to_be_visible()
    # Pictures for the README: a judge's page with a line to initial and an appeal.
    screenshot(jo, "event-pitch-judge")
    screenshot(browsers.open(ev.urls["Jo Dee"], PHONE), "event-pitch-judge-phone")
    expect(box.locator("button[data-action=rule-uncorrectable]")).to_be_disabled()
    jo.select_option(f"#a{appeal}-rule-bid", "3")
    expect(box.locator("button[data-action=rule-uncorrectable]")).to_have_text(
        "Not correctable: Cat loses 3"
    )
    click(jo, "rule-uncorrectable", ".ev-todo")
    expect(jo.locator(".ev-todo .ev-note.info")).to_contain_text("Cat is disqualified")
    click(jo, "confirm", ".ev-todo")
    expect(jo.locator("[data-where='r1t1:confirm']")).to_contain_text(
        f"Line {second} is initialled"
    )
    table = ev.table(1, 1)
    assert table["disqualified"] == ["Cat"] and table["scores"]["Cat"] == -3
    ruled = [r for r in ev.view()["register"] if r["player"] == "Cat"]
    assert [(r["ruling"], r["disqualified"]) for r in ruled] == [
        ("correctable", False), ("not correctable", True),
    ]  # fmt: skip

    # The desk's misplay register: both misplays, the ruling, the judge, the entry;
    # Cat disqualified.
    reload(desk)
    rows = desk.locator(".ev-register .register tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("correctable: cards replayed")
    expect(rows.nth(0)).to_contain_text("Jo Dee (JD)")
    expect(rows.nth(0)).to_contain_text(f"#{ruled[0]['entry']}")
    expect(rows.nth(1)).to_contain_text("not correctable: loses 3")
    expect(rows.nth(1).locator(".chip.bad")).to_have_text("disqualified")
    expect(desk.locator(".ev-register .dq-line")).to_contain_text(
        f"Cat in Go-Round 1, table 1 (entry #{ruled[1]['entry']})"
    )
    expect(desk.locator(".pitch-table[data-table='1'] tr[data-player='Cat']")).to_contain_text(
        "disqualified"
    )
    cat = browsers.open(ev.urls["Cat"], PHONE)
    expect(cat.locator(".ev-seat .big-line")).to_contain_text("You are disqualified")
    assert controls(cat, ".ev-seat") == 0

    # Pictures for the README: the desk, with a line waiting at table 2.
    pending = ev.hand(1, 2, bid=4, pitcher="Dan", high="Dan", low="Fay", jack="Hal", game=None)
    reload(desk)
    expect(desk.locator(".pitch-table[data-table='2']")).to_contain_text("line 1 to initial")
    screenshot(desk, "event-pitch-desk")
    desk.set_viewport_size(PHONE)
    screenshot(desk, "event-pitch-desk-phone")
    desk.set_viewport_size(DESKTOP)
    ev.confirm(1, 2, pending)

    # A link lost: from another browser, the manager gives Gus a new one; the old
    # one stops working at once.
    elsewhere = browsers.open(ev.manager_url)
    gus = elsewhere.locator(".roster li[data-person='Gus']")
    expect(gus).to_contain_text("Link made in another browser")
    gus.locator("button[data-action=ask-new-link]").click()
    expect(gus).to_contain_text("The old one stops working at once")
    gus.locator("button[data-action=new-link]").click()
    expect(gus.locator("[data-where='link:Gus']")).to_contain_text("Gus's new link is above")
    old, ev.tokens["Gus"] = ev.tokens["Gus"], gus.locator("input.link").input_value().split("#")[1]
    ev.tokens["Gus"] = ev.tokens["Gus"].removeprefix("token=")
    assert ev.tokens["Gus"] != old
    stale = server.http.get(f"/api/events/{ev.id}", headers={"Authorization": f"Bearer {old}"})
    assert stale.status_code == 403
    expect(elsewhere.locator(".entry-log")).to_contain_text("gave Gus a new link")

    # The rest of Go-Round 1 through the API: Ann wins table 1, Hal table 2.
    ev.play_out(1, 1, "Ann")
    ev.play_out(1, 2, "Hal")
    reload(desk)
    expect(desk.locator(".glance")).to_contain_text("seat Go-Round 2 (2 players go on)")
    expect(desk.locator(".ev-rounds")).to_contain_text("Going on to Go-Round 2: Ann and Hal")
    expect(desk.locator(".ev-standings tr[data-player='Cat']")).to_contain_text("disqualified")

    # The final: one table, seated from the desk, judged by Max.
    expect(desk.locator("#seat-tables option")).to_have_count(1)
    expect(desk.locator("#seat-tables")).to_contain_text("one table of 2: the final")
    desk.select_option("#seat-judge0", "Max Ray")
    click(desk, "seat-round")
    expect(desk.locator(".ev-tables h2")).to_contain_text("the final (Go-Round 2)")
    final = ev.table(2, 1)
    assert sorted(final["players"]) == ["Ann", "Hal"] and final["judge"] == "Max Ray"
    ev.enter(ev.tokens["Max Ray"], "cut", round=2, table=1, dealer="Hal")
    ev.hand(2, 1, bid=2, pitcher="Hal", trump="D", high="Hal", low="Ann", game=None)
    appeal = ev.enter(ev.tokens["Ann"], "appeal", round=2, table=1, offender="Hal",
                      note="led out of turn")["entry"]["seq"]  # fmt: skip

    reload(desk)
    expect(desk.locator(".ev-tables .pitch-table")).to_contain_text("Appeal open")

    # Max dismisses the appeal and initials the line from his page.
    reload(max_)
    expect(max_.locator(".glance")).to_contain_text("You judge the final table (Go-Round 2)")
    expect(max_.locator(".ev-todo .ruling-box")).to_contain_text("Ann says Hal misplayed")
    expect(max_.locator(".ev-todo .todo-item[data-line='1']")).to_be_visible()
    click(max_, "dismiss-appeal", ".ev-todo")
    expect(max_.locator(".ev-todo .ev-note.info")).to_contain_text("is dismissed")
    click(max_, "confirm", ".ev-todo")
    expect(max_.locator("[data-where='r2t1:confirm']")).to_contain_text("initialled MR")
    assert len(ev.view()["register"]) == 2  # a dismissed appeal is no misplay

    # Hal wins the final: the champion, on every page.
    ev.play_out(2, 1, "Hal")
    assert ev.view()["champion"] == "Hal"
    big = browsers.open(f"{ev.base}/e/{ev.id}/screen")
    expect(big.locator("body")).to_have_attribute("data-page", "screen")
    assert controls(big, "main") == 0
    expect(big.locator(".screen-champion .champion-name")).to_have_text("Hal")
    expect(big.locator(".pitch-standings tr[data-player='Hal']")).to_contain_text("champion")
    expect(big.locator(".pitch-screen .screen-legend")).to_contain_text(
        "Go-Round 1: Ann and Hal went on"
    )
    check_every_page(big)
    big.keyboard.press(" ")  # held by the check: turning again
    screenshot(big, "event-pitch-screen")
    small = browsers.open(f"{ev.base}/e/{ev.id}/screen", PHONE)
    check_every_page(small)
    small.keyboard.press(" ")
    screenshot(small, "event-pitch-screen-phone")
    hal = browsers.open(ev.urls["Hal"], PHONE)
    expect(hal.locator(".ev-seat .big-line")).to_contain_text("You are the champion!")
    reload(ann)
    expect(ann.locator(".ev-seat .big-line")).to_contain_text(
        "You are out after the final (Go-Round 2)"
    )

    # The public view: read-only, and no link anywhere.
    public = browsers.open(f"{ev.base}/e/{ev.id}")
    expect(public.locator("body")).to_have_attribute("data-page", "public")
    expect(public.locator(".ev-champion .champion-name")).to_have_text("Hal")
    assert public.locator("button[data-action], input, select, form").count() == 0
    screenshot(public, "event-pitch-public")
    html = public.content()
    assert "#token" not in html
    assert not any(token in html for token in [ev.manager, *ev.tokens.values()])

    # The score pads: one a table a Go-Round, with every line and its initials; a PDF.
    pads = browsers.open(f"{ev.base}/e/{ev.id}/print")
    expect(pads.locator(".pad-sheet")).to_have_count(3)
    first = pads.locator(".pad-sheet[data-round='1'][data-table='1']")
    lines = len(ev.table(1, 1)["lines"])
    expect(first.locator("tbody tr:not(.blank)")).to_have_count(lines)
    expect(first.locator("tbody tr").first).to_contain_text("JD")
    expect(first).to_contain_text("Misplay: Cat misplayed; loses 3")
    expect(first.locator("tfoot")).to_contain_text("Total")
    expect(pads.locator(".pad-sheet[data-round='2']")).to_contain_text("Hal wins")
    screenshot(pads, "event-pitch-print")
    pdf = tmp_path / "pads.pdf"
    pads.emulate_media(media="print")
    pads.pdf(path=str(pdf), format="A4", print_background=True)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 5000
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 3  # one A4 page a pad

    # The desk's CSV links work.
    reload(desk)
    for file in ["pads", "standings"]:
        href = desk.locator(f".ev-files a[href$='{file}.csv']").get_attribute("href")
        assert href is not None
        answer = server.http.get(href)
        assert answer.status_code == 200 and "text/csv" in answer.headers["content-type"]


def test_a_pitch_table_online_from_the_desk_and_the_players_page(
    browsers: Browsers, server: ServerThread
) -> None:
    ev = Tournament(server)
    for name in ["Ann", "Bob", "Cat"]:
        ev.tokens[name] = ev.enter(ev.manager, "add_player", name=name)["link"]["token"]
    ev.enter(ev.manager, "add_judge", name="Jo Dee", initials="JD")
    ev.enter(ev.manager, "seat_round", by="draw", seed=3, judges=["Jo Dee"])
    desk = browsers.open(ev.manager_url)
    card = desk.locator(".pitch-table[data-round='1'][data-table='1']")
    expect(card.locator("form[data-form=cut]")).to_have_count(1)
    click(desk, "open-table", ".pitch-table[data-round='1'][data-table='1']")
    expect(card.locator("a[data-action=watch]")).to_be_visible()
    # The table cuts for the deal itself: the desk no longer asks for the cut.
    expect(card.locator("form[data-form=cut]")).to_have_count(0)
    table_id = ev.table(1, 1)["online"]
    first = ev.table(1, 1)["players"][0]
    player = browsers.open(f"{server.base}/e/{ev.id}#token={ev.tokens[first]}", PHONE)
    expect(player.locator(".ev-seat")).to_contain_text("plays online")
    click(player, "take-seat")
    player.wait_for_url(re.compile(f"/t/{table_id}#token="))
    expect(player.locator("body")).to_contain_text(first)


def test_a_dealer_and_a_judge_offline_enter_once_when_the_network_is_back(
    browsers: Browsers, server: ServerThread
) -> None:
    # Bad Wi-Fi (issue 35): the dealer records the hand with no network, and the
    # judge initials it with none; each waits on the phone and lands once when back.
    ev = Tournament(server)
    for name in EIGHT[:4]:
        ev.tokens[name] = ev.enter(ev.manager, "add_player", name=name)["link"]["token"]
    judge = ev.enter(ev.manager, "add_judge", name="Jo Dee", initials="JD")
    ev.tokens["Jo Dee"] = judge["link"]["token"]
    ev.enter(ev.manager, "seat_round", by="standing", judges=["Jo Dee"])
    ev.enter(ev.tokens["Jo Dee"], "cut", round=1, table=1, dealer="Ann")
    ann = browsers.open(f"{server.base}/e/{ev.id}#token={ev.tokens['Ann']}", PHONE)
    jo = browsers.open(f"{server.base}/e/{ev.id}#token={ev.tokens['Jo Dee']}", PHONE)
    browsers.offline = True

    ann.context.set_offline(True)
    for field, value in [
        ("bid", "2"), ("pitcher", "Ann"), ("trump", "S"), ("high", "Ann"),
        ("low", "Ann"), ("jack", "none"), ("game", "Bob"),
    ]:  # fmt: skip
        ann.select_option(f"#r1t1-pad-{field}", value)
    click(ann, "record-hand")
    waiting = ann.locator("#outbox .outbox li")
    expect(waiting).to_have_count(1)
    expect(waiting.first).to_contain_text("Line 1 of table 1 of Go-Round 1")
    # The pad form gives way to the line waiting: the next line is the next dealer's.
    expect(ann.locator("[data-form=pad-waiting]")).to_contain_text(
        "Line 1 is recorded on this phone"
    )
    assert ev.table(1, 1)["lines"] == []
    ann.context.set_offline(False)
    expect(waiting).to_have_count(0)
    expect(ann.locator(".pad-table tr[data-line='1']")).to_contain_text("to initial")

    # The judge's page hears of the line by itself (the stream of news), within seconds.
    item = jo.locator(".ev-todo .todo-item[data-line='1']")
    expect(item.locator("button[data-action=confirm]")).to_have_text("Initial line 1 · JD")
    jo.context.set_offline(True)
    click(jo, "confirm", ".ev-todo")
    expect(item.locator("button[data-action=confirm]")).to_have_text(
        "Line 1: initialled, waiting to send"
    )
    expect(item.locator("button[data-action=confirm]")).to_be_disabled()
    assert ev.table(1, 1)["lines"][0]["status"] == "pending"
    jo.context.set_offline(False)
    expect(jo.locator("#outbox .outbox")).to_have_count(0)
    expect(jo.locator("[data-where='r1t1:confirm']")).to_contain_text("Line 1 is initialled JD")
    line = ev.table(1, 1)["lines"][0]
    assert (line["status"], line["initials"]) == ("confirmed", "JD")
    log = ev.http.get(f"/api/events/{ev.id}").json()["log"]
    assert [e["type"] for e in log].count("hand") == 1
    assert [e["type"] for e in log].count("confirm") == 1


def test_the_big_screen_of_a_sixty_player_go_round_fits_every_size(
    browsers: Browsers, server: ServerThread
) -> None:
    # Darrtown at congress size: sixty players (names up to the 40 characters allowed)
    # seated by draw, four judges, and a few tables' games under way or won.
    ev = Tournament(server)
    players = sixty()
    for name in players:
        ev.tokens[name] = ev.enter(ev.manager, "add_player", name=name)["link"]["token"]
    judges = [f"Judge {n}" for n in "ABCD"]
    for name in judges:
        ev.tokens[name] = ev.enter(ev.manager, "add_judge", name=name, initials=name[-1] * 2)[
            "link"
        ]["token"]
    ev.enter(ev.manager, "seat_round", by="draw", seed=5, judges=judges)
    tables = ev.view()["rounds"][0]["tables"]
    assert len(tables) >= 10 and sum(len(t["players"]) for t in tables) == 60
    # The four judges have the first four tables: three games won, one under way.
    for number, table in enumerate(tables[:4], start=1):
        first = table["players"][0]
        ev.enter(ev.tokens[table["judge"]], "cut", round=1, table=number, dealer=first)
        if number < 4:
            ev.play_out(1, number, table["players"][number % len(table["players"])])
    ev.win(1, 4, tables[3]["players"][1])
    url = f"{server.base}/e/{ev.id}/screen"
    for size in SIZES:
        seen = check_every_page(browsers.open(url, size))
        # Sixty lines of standings take pages of their own, wherever they are shown.
        assert len(seen) >= 2, (size, seen)
