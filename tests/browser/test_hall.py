"""A Pits evening as a hall runs it (issue 35): the manager prints the slips, the
players scan theirs (the test decodes each QR code from its picture, with zxing-cpp,
and opens the link it holds) and are checked in; only players present are seated; a
lost slip is replaced and stops working; a mistyped code is refused without naming
anyone. On bad Wi-Fi the scorer's phone goes offline mid-entry, enters two hands that
wait on the phone, and both land once when it is back; a reply lost, and a reload
with an entry waiting, land it once too. The big screen of a hall of sixty players
at twelve tables is checked, page by page, by its elements' boxes at 1280×720,
1920×1080 and 3840×2160, and says how stale it is when it cannot reach the server.
Each part of the evening is a step of its own (`Hall`)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Locator, Page, Route, expect

from pitkit.server.web import tournaments as tournaments_web
from tests.browser.bigscreen import SIZES, check_every_page, turn_to
from tests.browser.conftest import ServerThread
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    Browsers,
    EventByApi,
    assert_accessible,
    new_context,
    poll,
    screenshot,
)
from tests.browser.test_events import click, pick_order, reload
from tests.waiting import patience

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
SCANNING = PLAYERS[:7]  # Hal never scans his slip: the manager ticks him in


def decode_qr(picture: Locator) -> str:
    """The text of the one QR code in a picture of `picture` (zxing-cpp)."""
    image = Image.open(io.BytesIO(picture.screenshot()))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1 and found[0].format == zxingcpp.BarcodeFormat.QRCode, found
    return str(found[0].text)


class Hall:
    """A Pits evening at a hall that checks its players in: the event through the API
    beside its pages, the manager's desk in one browser, each player's phone in
    another (`browsers`)."""

    def __init__(self, server: ServerThread, browsers: Browsers) -> None:
        self.server = server
        self.http = server.http
        self.browsers = browsers
        body = {"kind": "pits-continuous", "name": "Congress hall", "options": {"check_in": True}}
        created = self.http.post("/api/events", json=body)
        assert created.status_code == 201, created.text
        self.id: str = created.json()["event"]["id"]
        self.manager: str = created.json()["manager"]["token"]
        self.desk = browsers.open(created.json()["manager"]["url"])
        self.urls: dict[str, str] = {}  # each player's link, as read from their slip
        self.phones: dict[str, Page] = {}

    def view(self) -> dict[str, Any]:
        response = self.http.get(f"/api/events/{self.id}")
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()["view"]
        return view

    def enter(self, type: str, **data: Any) -> Any:
        """An entry through the manager's link: the answer."""
        return self.http.post(
            f"/api/events/{self.id}/entries",
            json={"type": type, "data": data},
            headers={"Authorization": f"Bearer {self.manager}"},
        )

    def slips(self) -> Page:
        """The slips page, printed from the desk's browser (it holds the manager's link)."""
        page = self.desk.context.new_page()
        page.goto(f"{self.server.base}/e/{self.id}/slips")
        page.wait_for_selector("body[data-ready=true] .slip")
        return page

    def read_slip(self, slips: Page, name: str) -> str:
        """The link on `name`'s slip, from its QR code; it holds the code printed under it."""
        slip = slips.locator(f".slip[data-name='{name}']")
        url = decode_qr(slip.locator(".slip-qr svg"))
        code = (slip.locator(".slip-code").text_content() or "").replace("-", "")
        assert url == f"{self.server.base}/e/{self.id}#token={code}", (url, code)
        return url

    def scan(self, name: str, url: str) -> Page:
        """`name` opens the link they scanned, on their phone: it checks them in."""
        phone = self.phones[name] = self.browsers.open(url, PHONE)
        expect(phone.locator("body")).to_have_attribute("data-page", "player")
        expect(phone.locator("#subtitle")).to_contain_text(f"{name}'s page")
        return phone

    def present(self) -> list[str]:
        present: list[str] = self.view()["check_in"]["present"]
        return present


def test_a_hall_prints_slips_players_scan_them_and_only_those_present_are_seated(
    browsers: Browsers, server: ServerThread, tmp_path: Path
) -> None:
    hall = Hall(server, browsers)
    for name in PLAYERS:
        assert hall.enter("add_player", name=name).status_code == 201
    reload(hall.desk)
    panel = hall.desk.locator(".ev-hall")
    expect(panel.locator(".check-count")).to_contain_text("0 present")

    # The manager prints the slips: eight on one A4 page, to PDF through Chromium.
    slips = hall.slips()
    expect(slips.locator(".slip")).to_have_count(len(PLAYERS))
    expect(slips.locator(".slip[data-name='Ann'] .slip-code")).to_have_text(
        re.compile(r"^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$")
    )
    screenshot(slips, "event-slips")
    assert_accessible(slips, "the slips")
    slips.emulate_media(media="print")
    pdf = tmp_path / "slips.pdf"
    slips.pdf(path=str(pdf), format="A4", print_background=True)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", data)) == 1
    slips.emulate_media(media="screen")

    # Seven players scan their slips: each phone opens the link its QR code holds,
    # and they are checked in, as entries of their own.
    for name in SCANNING:
        hall.urls[name] = hall.read_slip(slips, name)
        phone = hall.scan(name, hall.urls[name])
        expect(phone.locator(".toast").first).to_contain_text("You are checked in")
    assert hall.present() == SCANNING
    log = server.http.get(f"/api/events/{hall.id}").json()["log"]
    assert [(e["by"], e["data"]["player"]) for e in log if e["type"] == "check_in"] == [
        (name, name) for name in SCANNING
    ]

    # The desk sees who is here; Hal is not, so he is not offered a seat, and the
    # server refuses to seat him.
    reload(hall.desk)
    expect(panel.locator(".check-count")).to_contain_text("7 present")
    expect(panel.locator("li[data-player='Hal']")).to_contain_text("not here yet")
    expect(panel.locator("li[data-player='Ann']")).to_contain_text("opened their link")
    expect(hall.desk.locator(".free-players label")).to_have_count(7)
    expect(hall.desk.locator(".ev-start .absent-note")).to_contain_text("Hal")
    refused = hall.enter("start_game", players=["Ann", "Bob", "Cat", "Dan", "Hal"])
    assert refused.status_code == 409 and "Hal is not checked in" in refused.json()["detail"]
    screenshot(hall.desk, "event-checkin")
    # The entry log scrolls: it is reached by the keyboard, by its name (axe's
    # scrollable-region-focusable), like everything else on the desk.
    entry_log = hall.desk.get_by_role("region", name="Entry log, newest first")
    entry_log.focus()
    expect(entry_log).to_be_focused()
    assert_accessible(hall.desk, "the check-in desk")

    # Hal arrives without his phone: the manager ticks him present at the desk.
    panel.locator("li[data-player='Hal'] input[type=checkbox]").check()
    expect(panel.locator(".check-count")).to_contain_text("8 present")
    expect(panel.locator("li[data-player='Hal']")).to_contain_text("ticked by the manager")
    expect(hall.desk.locator(".free-players label")).to_have_count(8)
    assert hall.enter("start_game", players=["Ann", "Bob", "Cat", "Dan", "Hal"]).status_code == 201

    lost_slip(hall, slips)


def lost_slip(hall: Hall, slips: Page) -> None:
    """Ann loses her slip: the desk gives her a new link; the old QR code and the old
    code stop working, her new slip works, typed or scanned."""
    old_url = hall.urls["Ann"]
    old_code = old_url.split("#token=")[1]
    ann = hall.desk.locator(".roster li[data-player='Ann']")
    # The game just started (by the API) is on the desk first: its redraw moves the
    # roster, and a click made as it lands may meet what was under the button before.
    expect(ann).to_contain_text("at Table 1")
    click(hall.desk, "ask-new-link", ".roster li[data-player='Ann']")
    expect(ann).to_contain_text("The old one stops working at once")
    click(hall.desk, "new-link", ".roster li[data-player='Ann']")
    expect(ann.locator("[data-where='link:Ann']")).to_contain_text("new link is above")

    reload(slips)
    new_url = hall.read_slip(slips, "Ann")
    assert new_url != old_url
    expect(slips.locator(".slip[data-name='Ann'] .slip-where")).to_contain_text("Table 1, seat 1")

    # The old QR code opens only the public view now.
    stale = hall.browsers.open(old_url, PHONE)
    expect(stale.locator("body")).to_have_attribute("data-page", "public")
    expect(stale.locator("#banner")).to_contain_text("not (or no longer) one of this event's")

    # At the code page: the old code, and a mistyped one, are refused in words that
    # name nobody; the new code, typed in lower case with a space, opens Ann's page.
    page = hall.browsers.open(f"{hall.server.base}/e/{hall.id}/code", PHONE)
    expect(page.locator("body")).to_have_attribute("data-page", "code")
    for wrong in (old_code, "ABCDE-FGHJK"):
        page.fill("#code-text", wrong)
        click(page, "use-code")
        refusal = page.locator("[data-where=code]")
        expect(refusal).to_contain_text("That code is not one of this event's")
        assert not any(name in (refusal.text_content() or "") for name in PLAYERS)
    screenshot(page, "event-code-phone")
    assert_accessible(page, "the code page, a wrong code refused")
    typed = new_url.split("#token=")[1]
    page.fill("#code-text", f"{typed[:5].lower()} {typed[5:].lower()}")
    click(page, "use-code")
    expect(page.locator("body")).to_have_attribute("data-page", "player")
    expect(page.locator("#subtitle")).to_contain_text("Ann's page")
    # (An entry the page makes as it opens starts in the same task as its first draw.)
    expect(page.locator("body")).to_have_attribute("data-busy", "false")
    assert hall.present() == PLAYERS  # she was checked in already: no second entry
    entries = hall.http.get(f"/api/events/{hall.id}").json()["log"]
    assert sum(e["type"] == "check_in" and e["data"]["player"] == "Ann" for e in entries) == 1
    assert_accessible(page, "Ann's page, opened by her code")

    # The big screen shows the QR code of the public page, for the hall to follow.
    screen = hall.browsers.open(f"{hall.server.base}/e/{hall.id}/screen", DESKTOP)
    assert decode_qr(screen.locator(".hall-qr img")) == f"{hall.server.base}/e/{hall.id}"


def test_the_lobby_opens_an_event_that_checks_its_players_in(
    page: Page, server: ServerThread
) -> None:
    page.goto(f"{server.base}/")
    form = page.locator("#new-event")
    form.locator("#event-kind").select_option("pitch-tournament")
    form.locator("#event-name").fill("Darrtown hall")
    form.get_by_label("Check players in").check()
    form.get_by_role("button", name="Open the tournament").click()
    page.wait_for_url("**/e/*")
    expect(page.locator(".ev-hall h2")).to_contain_text("Check-in (0 of 0)")
    event_id = page.url.split("/e/", 1)[1].split("#")[0]
    event = server.http.get(f"/api/events/{event_id}").json()
    assert event["options"] == {"advance": 1, "check_in": True}


FIVE = PLAYERS[:5]
ENTRIES = "**/api/events/*/entries"


def _order(hand: int) -> list[str]:
    """Hand `hand`'s finishing order at a table of `FIVE`: it moves round, hand by hand."""
    return FIVE[hand % 5 :] + FIVE[: hand % 5]


def test_a_scorer_offline_enters_two_hands_and_both_land_once_when_back(
    browsers: Browsers, server: ServerThread
) -> None:
    hall = Hall(server, browsers)
    tokens = {name: hall.enter("add_player", name=name).json()["link"]["token"] for name in FIVE}
    for name in FIVE:
        assert hall.enter("check_in", player=name).status_code == 201
    assert hall.enter("start_game", players=FIVE, table="Table 1", scorer="Ann").status_code == 201
    ann = browsers.open(f"{server.base}/e/{hall.id}#token={tokens['Ann']}", PHONE)
    browsers.offline = True
    form = "form[data-form=hand][data-game='1']"
    outbox = ann.locator("#outbox .outbox")

    # Mid-entry (two places picked), the hall's Wi-Fi drops; Ann picks the rest and
    # enters the hand: it is kept on her phone, waiting to send.
    picks = ann.locator(f"{form} .pickers select")
    picks.nth(0).select_option(_order(1)[0])
    picks.nth(1).select_option(_order(1)[1])
    ann.context.set_offline(True)
    picks.nth(2).select_option(_order(1)[2])
    picks.nth(3).select_option(_order(1)[3])
    click(ann, "enter-hand", form)
    expect(ann.locator("[data-where='g1:hand']")).to_contain_text("waiting to send")
    expect(outbox.locator("li")).to_have_count(1)
    expect(outbox.locator("li").first).to_contain_text("Hand 1 of game 1")
    # The next hand is numbered after the one waiting, and waits behind it.
    expect(ann.locator(f"{form} h4")).to_contain_text("Hand 2")
    pick_order(ann, 1, _order(2))
    click(ann, "enter-hand", form)
    expect(outbox.locator("li")).to_have_count(2)
    expect(outbox).to_contain_text("Waiting to send (2)")
    screenshot(ann, "event-offline")
    assert_accessible(ann, "a scorer's page with two hands waiting to send")
    assert hall.view()["games"][0]["hands"] == []

    # The network is back: both go, in order, and land once each.
    ann.context.set_offline(False)
    expect(outbox).to_be_hidden(timeout=patience(10_000))
    expect(ann.locator(".game-card[data-game='1'] .game-meta")).to_contain_text("2 hands of 10")
    assert hands_entered(hall) == [(1, _order(1)), (2, _order(2))]

    a_reply_lost(hall, ann)
    kept_through_a_reload(hall, ann)


def test_a_page_whose_stream_is_cut_asks_and_an_unchanged_event_costs_no_bytes(
    browsers: Browsers, server: ServerThread
) -> None:
    """Some halls' proxies cut a long-lived stream of news: the page then asks for the
    event every few seconds. While nothing changes, each ask is answered 304 with no
    body, and the page keeps what it drew; an entry shows at the next ask."""
    event = EventByApi(server, "pits-continuous", "A hall behind a proxy")
    event.enter(event.manager, "add_player", name="Ann")
    context = new_context(browsers.browser, viewport=PHONE)
    browsers.contexts.append(context)
    context.route(re.compile(r".*/stream$"), lambda route: route.abort())
    screen = context.new_page()
    errors: list[str] = []  # the page's own faults (the cut stream's are the test's doing)
    screen.on("pageerror", lambda error: errors.append(str(error)))
    statuses: list[int] = []
    read = f"{server.base}/api/events/{event.id}"
    screen.on("response", lambda r: statuses.append(r.status) if r.url == read else None)
    screen.goto(f"{server.base}/e/{event.id}/screen")
    screen.wait_for_selector("body[data-ready=true]")
    screen.evaluate("() => { window.drawn = window.pitkitEvent.event; }")

    poll(screen, lambda: 304 in statuses, 15, "an ask answered unchanged")
    assert statuses[0] == 200
    assert screen.evaluate("() => window.pitkitEvent.event === window.drawn")
    seq = int(screen.get_attribute("body", "data-seq") or 0)
    event.enter(event.manager, "add_player", name="Bob")
    screen.wait_for_selector(f"body[data-seq='{seq + 1}']", timeout=patience(15_000))
    assert statuses[-1] == 200
    assert screen.evaluate("() => window.pitkitEvent.event.log.length") == seq + 1
    assert not errors, errors


def a_reply_lost(hall: Hall, ann: Page) -> None:
    """A reply lost on the way back: the hand landed, the phone does not know. Sent
    again under its key, it is answered as the entry it made: not refused, not doubled."""
    form = "form[data-form=hand][data-game='1']"

    def reply_lost(route: Route) -> None:
        route.fetch()
        route.abort()

    ann.route(ENTRIES, reply_lost, times=1)
    pick_order(ann, 1, _order(3))
    click(ann, "enter-hand", form)
    expect(ann.locator("[data-where='g1:hand']")).to_contain_text(
        "It had landed already", timeout=patience(10_000)
    )
    expect(ann.locator("#outbox .outbox")).to_be_hidden()
    assert hands_entered(hall) == [(n, _order(n)) for n in (1, 2, 3)]


def kept_through_a_reload(hall: Hall, ann: Page) -> None:
    """An entry waiting survives a reload of the page, and lands once after it."""
    form = "form[data-form=hand][data-game='1']"
    outbox = ann.locator("#outbox .outbox")
    ann.route(ENTRIES, lambda route: route.abort())
    pick_order(ann, 1, _order(4))
    click(ann, "enter-hand", form)
    expect(outbox.locator("li")).to_have_count(1)
    reload(ann)
    expect(outbox.locator("li")).to_have_count(1)
    expect(outbox.locator("li").first).to_contain_text("Hand 4 of game 1")
    click(ann, "send-now", "#outbox .outbox")  # still no way through: it still waits
    expect(outbox.locator("li")).to_have_count(1)
    ann.unroute(ENTRIES)
    ann.context.set_offline(True)  # the Wi-Fi drops and comes back: it goes at once
    ann.context.set_offline(False)
    expect(outbox).to_be_hidden()
    assert hands_entered(hall) == [(n, _order(n)) for n in (1, 2, 3, 4)]


def hands_entered(hall: Hall) -> list[tuple[int, list[str]]]:
    """Every hand entry of the log (each must be entered once), and its order."""
    log = hall.http.get(f"/api/events/{hall.id}").json()["log"]
    return [(e["data"]["hand"], e["data"]["order"]) for e in log if e["type"] == "hand"]


FIRST = ["Amelia", "Bartholomew", "Catriona", "Dmitri", "Eleanor", "Fitzgerald", "Guinevere"]
SURNAMES = [
    "Ng",
    "Okonkwo-Abernathy",
    "Wolfeschlegelsteinhausenberger-Dorff",
    "de la Cruz y Montenegro",
    "Lee",
]


def sixty() -> list[str]:
    """Sixty players' names, from two letters' surnames to the 40 characters allowed."""
    names = [f"{FIRST[i % 7]} {SURNAMES[i % 5]} {i}" for i in range(60)]
    return [name if len(name) <= 40 else f"{name[:36]}… {name.split()[-1]}"[-40:] for name in names]


class Congress(EventByApi):
    """A hall of sixty players at twelve tables: four full games each (so both prize
    tables are long), and a fifth round being played. Hands go in through each
    table's scorer, table after table, as twelve scorers would."""

    def __init__(self, server: ServerThread) -> None:
        super().__init__(server, "pits-continuous", "British Go Congress 2027: Saturday's Pits")
        self.players = sixty()
        assert max(len(p) for p in self.players) == 40
        self.tokens = {
            p: self.enter(self.manager, "add_player", name=p)["link"]["token"] for p in self.players
        }
        self.games = 0
        for rnd in range(5):
            self.round(rnd, 10 if rnd < 4 else 3)

    def round(self, rnd: int, hands: int) -> None:
        """Twelve games, each of `hands` hands; ruled off if full."""
        moved = self.players[rnd * 7 :] + self.players[: rnd * 7]
        tables = [moved[t * 5 : t * 5 + 5] for t in range(12)]
        games = []
        for t, five in enumerate(tables):
            self.enter(self.manager, "start_game", players=five, table=f"Table {t + 1}")
            self.games += 1
            games.append((self.games, five))
        for hand in range(1, hands + 1):
            for game, five in games:
                k = (hand * 3 + game) % 5
                order = five[k:] + five[:k]
                self.enter(self.tokens[five[0]], "hand", game=game, hand=hand, order=order)
        if hands >= 10:
            for game, five in games:
                self.enter(self.tokens[five[0]], "rule_off", game=game)


def test_the_big_screen_of_sixty_players_at_twelve_tables_fits_every_size(
    browsers: Browsers, server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Streams of news that end every few seconds (not 25): Chromium's offline mode
    # spares a stream already open, which a real drop of the network would not.
    monkeypatch.setattr(tournaments_web, "STREAM_SECONDS", 3.0)
    hall = Congress(server)
    url = f"{server.base}/e/{hall.id}/screen"
    for size in SIZES:
        screen = browsers.open(url, size)
        seen = check_every_page(screen)
        parts = [shown["part"] for shown in seen]
        # Sixty lines of standings take pages of their own; the twelve tables one or two.
        assert parts.count("Standings") >= 3 and 1 <= parts.count("Tables now") <= 2, seen
        if size["width"] == 3840:
            turn_to(screen, "Standings", first=True)
            screen.keyboard.press(" ")  # let it turn again: ten seconds on this page
            expect(screen.locator(".screen-pager .held")).to_have_count(0)
            screenshot(screen, "event-screen-4k", full_page=False)
    # It says how stale it is when it cannot reach the server, and is live again after.
    browsers.offline = True
    screen.context.set_offline(True)
    fresh = screen.locator(".screen-fresh")
    expect(fresh).to_contain_text("ago — reconnecting", timeout=patience(20_000))
    expect(fresh).to_have_class("screen-fresh stale")
    screen.context.set_offline(False)
    expect(fresh).to_have_text("Live", timeout=patience(15_000))
