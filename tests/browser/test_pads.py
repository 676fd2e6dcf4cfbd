"""The pads the seeds keep, through the pages: at a Pitch Go-Round the dealer taps the
bidding on a phone, one call at a time (a pass, a bid of 3, a pass, and the dealer
takes it for one more), the judge rules a misplay whose highest bid comes from that
bidding, and counts each player's game points as they initial the line; at a Pits
game the scorer has the server draw the first dealer, the first Jack turned up.
axe-core finds nothing serious on the dealer's, the judge's or the scorer's page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from pitkit.tournaments.first_dealer import draw
from tests.browser.conftest import ServerThread
from tests.browser.helpers import PHONE, Browsers, EventByApi, assert_accessible, screenshot
from tests.browser.test_events import click

FOUR = ["Ann", "Bob", "Cat", "Dan"]


def _add(ev: EventByApi, type: str, name: str, **more: Any) -> None:
    link = ev.enter(ev.manager, type, name=name, **more)["link"]
    ev.tokens[name], ev.urls[name] = link["token"], link["url"]


def _table(ev: EventByApi) -> dict[str, Any]:
    found: dict[str, Any] = ev.view()["rounds"][0]["tables"][0]
    return found


def test_a_pitch_hand_bid_with_a_steal_a_misplay_and_the_counts(
    browsers: Browsers, server: ServerThread
) -> None:
    ev = EventByApi(server, "pitch-tournament", "Darrtown Bicentennial")
    for name in FOUR:
        _add(ev, "add_player", name)
    _add(ev, "add_judge", "Jo Dee", initials="JD")
    ev.enter(ev.manager, "seat_round", by="standing", judges=["Jo Dee"])
    ev.enter(ev.tokens["Jo Dee"], "cut", round=1, table=1, dealer="Dan")
    assert _table(ev)["calling_order"] == FOUR

    dan = browsers.open(ev.urls["Dan"], PHONE)
    bidding = _bid_on_the_phone(ev, dan)
    jo = browsers.open(ev.urls["Jo Dee"], PHONE)
    _rule_the_misplay(ev, jo, dan, bidding)
    _count_the_game_points(ev, jo, dan)


def _bid_on_the_phone(ev: EventByApi, dan: Page) -> dict[str, Any]:
    """Dan deals, and taps each call on his phone as it is made (topics 13-17)."""
    form = dan.locator("form[data-form=bidding]")
    expect(form).to_contain_text("Ann calls")
    expect(form.locator("button[data-action=call-run]")).to_be_disabled()  # Ann is no dealer
    click(dan, "call-pass", "form[data-form=bidding]")
    expect(form).to_contain_text("Bob calls")
    click(dan, "call-3", "form[data-form=bidding]")
    expect(form.locator("button[data-action=call-2]")).to_be_disabled()  # 2 is below 3
    click(dan, "call-pass", "form[data-form=bidding]")
    expect(form).to_contain_text("Dan (the dealer) calls")
    expect(form.locator("button[data-action=call-4]")).to_be_disabled()
    click(dan, "call-steal", "form[data-form=bidding]")
    expect(form).to_contain_text("The bidding is over")
    expect(form.locator("ol.calls-made li")).to_have_count(4)
    expect(form.locator("ol.calls-made li").last).to_contain_text("Take it for one more")
    path = screenshot(dan, "pitch-pad-bidding")
    assert path.stat().st_size > 10_000
    assert_accessible(dan, "the dealer's bidding recorder")
    click(dan, "record-bidding", "form[data-form=bidding]")
    done = dan.locator("[data-form=bidding-done]")
    expect(done).to_contain_text("Bob bid 3")
    expect(done).to_contain_text("Dan took it for one more (4)")
    expect(done).to_contain_text("Dan pitches for 4")
    bidding: dict[str, Any] = _table(ev)["bidding"]
    assert [c["call"] for c in bidding["calls"]] == ["pass", "bid 3", "pass", "steal 4"]
    assert bidding["highest"] == 4

    return bidding


def _rule_the_misplay(ev: EventByApi, jo: Page, dan: Page, bidding: dict[str, Any]) -> None:
    # Cat appeals: Bob did not follow suit. The judge's ruling box shows the highest bid
    # from the bidding, and nobody types it (topic 37).
    ev.enter(
        ev.tokens["Cat"], "appeal", round=1, table=1, offender="Bob", note="did not follow suit"
    )
    box = jo.locator(".ruling-box")
    expect(box.locator("[data-highest]")).to_contain_text("Highest bid in the hand: 4")
    expect(box.locator("select")).to_have_count(0)
    assert_accessible(jo, "the judge's ruling with the bidding's highest bid")
    click(jo, "rule-uncorrectable", ".ruling-box")
    expect(jo.locator("[data-where='r1t1:rule']")).to_contain_text("Bob loses 4")
    misplay = ev.view()["register"][0]
    assert (misplay["player"], misplay["highest_bid"], misplay["lost"]) == ("Bob", 4, 4)
    assert misplay["bidding"] == bidding["entry"]
    assert _table(ev)["scores"]["Bob"] == -4 and _table(ev)["bidding"] is None

    # The cards are dealt again without Bob; Dan records the new bidding, then the line.
    expect(dan.locator("form[data-form=bidding]")).to_contain_text("Ann calls")
    for call in ("pass", "pass", "take"):
        click(dan, f"call-{call}", "form[data-form=bidding]")
    click(dan, "record-bidding", "form[data-form=bidding]")
    expect(dan.locator("[data-form=bidding-done]")).to_contain_text("Dan pitches for 2")
    expect(dan.locator("form[data-form=pad] #r1t1-pad-bid")).to_have_count(0)  # from the bidding
    for field, value in (
        ("trump", "H"),
        ("high", "Dan"),
        ("low", "Ann"),
        ("jack", "none"),
        ("game", "Cat"),
    ):
        dan.select_option(f"#r1t1-pad-{field}", value)
    click(dan, "record-hand")
    expect(dan.locator("[data-where='r1t1:pad']")).to_contain_text("Line 2 is on the pad")
    line = _table(ev)["lines"][-1]
    assert (line["pad"]["pitcher"], line["pad"]["bid"]) == ("Dan", 2)


def _count_the_game_points(ev: EventByApi, jo: Page, dan: Page) -> None:
    # The judge counts each player's game points (topic 31). Counts that give the game
    # point to another than the line are said at once, and refused.
    item = jo.locator(".confirm-box[data-line='2']")
    for who, points in (("Ann", 14), ("Cat", 10), ("Dan", 7)):
        item.locator(f"#r1t1-confirm-2-{who}").fill(str(points))
    expect(item.locator("[data-verdict]")).to_contain_text(
        "Ann takes the game point, but the line says Cat"
    )
    click(jo, "confirm", ".confirm-box[data-line='2']")
    expect(jo.locator("[data-where='r1t1:confirm']")).to_contain_text("correct the line first")
    assert _table(ev)["lines"][-1]["pending"]
    item.locator("#r1t1-confirm-2-Ann").fill("9")
    expect(item.locator("[data-verdict]")).to_contain_text(
        "Cat takes the game point, as the line says"
    )
    assert_accessible(jo, "the judge's count of the game points")
    click(jo, "confirm", ".confirm-box[data-line='2']")
    expect(jo.locator("[data-where='r1t1:confirm']")).to_contain_text("Line 2 is initialled JD")
    line = _table(ev)["lines"][-1]
    assert (
        line["counts"] == {"Ann": 9, "Cat": 10, "Dan": 7} and line["counted_by"] == "judge Jo Dee"
    )
    assert line["status"] == "confirmed"
    pad = dan.locator(f"[data-counts='{line['line']}']")
    expect(pad).to_contain_text("Game points counted: Cat 10, Ann 9, Dan 7")


def test_a_pits_game_whose_first_dealer_the_server_draws(
    browsers: Browsers, server: ServerThread
) -> None:
    ev = EventByApi(server, "pits-continuous", "Congress")
    five = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    for name in five:
        _add(ev, "add_player", name)
    ev.enter(ev.manager, "start_game", players=five, scorer="Ann", table="Table A")
    ann = browsers.open(ev.urls["Ann"], PHONE)
    form = ann.locator("[data-form=first-dealer]")
    expect(form.locator("button[data-action=draw-dealer]")).to_be_visible()
    assert_accessible(ann, "the scorer's first-dealer choice")
    click(ann, "draw-dealer", "[data-form=first-dealer]")
    expect(ann.locator("[data-where='g1:first']")).to_contain_text("the first Jack turned up deals")
    first = ev.view()["games"][0]["first_dealer"]
    assert first["how"] == "drawn" and draw(five, first["seed"])[0] == first["player"]
    jack = first["turned"][-1][1]
    card = ann.locator(".game-card .first-dealer")
    expect(card).to_contain_text(f"{first['player']} deals the first hand")
    expect(card).to_contain_text(f"the first Jack turned up, {jack}")
    # The printed sheet names the first dealer too, as the paper one is headed.
    sheets = browsers.open(f"{ev.base}/e/{ev.id}/print")
    expect(sheets.locator(".sheet .first-dealer")).to_contain_text(
        f"{first['player']} deals the first hand"
    )
