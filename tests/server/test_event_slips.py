"""Handing an event out in a hall, through the API (issue 35): the slips (a code for
each player's and judge's link, printed again from the manager's link only), codes
typed loosely, a lost slip replaced (its link and its code stop), check-in through
the links, wrong codes refused in words that name nobody and limited per address,
and the QR code of the public page. The codes themselves: `test_codes_*`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from pitkit.server.ops.tokens import hash_token
from pitkit.server.store.storage import event_links_t
from pitkit.server.tournaments import codes
from pitkit.server.web.tournaments import FAILED_TRIES_BURST
from tests.server.conftest import FAST, ServerThread
from tests.server.test_events import Desk

CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{10}$")


class Hall(Desk):
    """An event that checks its players in, through its links."""

    def __init__(self, server: ServerThread, kind: str = "pits-continuous") -> None:
        self.http = server.http
        body = {"kind": kind, "name": "Congress", "options": {"check_in": True}}
        created = self.http.post("/api/events", json=body)
        assert created.status_code == 201, created.text
        self.id = created.json()["event"]["id"]
        self.manager = created.json()["manager"]["token"]
        self.tokens: dict[str, str] = {}

    def get(self, path: str, token: str | None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.get(f"/api/events/{self.id}{path}", headers=headers)

    def slips(self) -> dict[str, dict[str, Any]]:
        response = self.get("/slips", self.manager)
        assert response.status_code == 200, response.text
        return {slip["name"]: slip for slip in response.json()["slips"]}


# -- the codes ------------------------------------------------------------------------


@given(st.text(min_size=1, max_size=30), st.text(min_size=1, max_size=8), st.integers(1, 10**6))
def test_codes_are_ten_unambiguous_characters_read_back_however_typed(
    manager: str, event: str, seq: int
) -> None:
    code = codes.make_code(manager, event, seq)
    assert CODE.fullmatch(code) and code == codes.make_code(manager, event, seq)
    shown = codes.grouped(code)
    assert codes.canonical(shown) == code
    assert codes.canonical(f" {shown.lower()} ") == code
    assert codes.canonical(code.replace("0", "o").replace("1", "l")) == code


def test_codes_differ_by_event_entry_and_manager_and_junk_is_no_code() -> None:
    made = {
        codes.make_code(manager, event, seq)
        for manager in ("m1", "m2")
        for event in ("e1", "e2")
        for seq in range(1, 50)
    }
    assert len(made) == 2 * 2 * 49
    for junk in ("", "ABCDE", "ABCDE-FGHJKL", "ABCDE-FGHJU", "ABCDE_FGHJK", hash_token("x")[:24]):
        assert codes.canonical(junk) is None, junk
    digest = codes.code_digest("e1", "ABCDEFGHJK")
    assert len(digest) == 64 and digest != codes.code_digest("e2", "ABCDEFGHJK")
    assert digest != hash_token("ABCDEFGHJK")  # slow and salted, not a plain hash


# -- the slips ------------------------------------------------------------------------


def test_the_manager_prints_the_slips_and_nobody_else_can(server: ServerThread) -> None:
    hall = Hall(server)
    for name in ["Ann", "Bob", "Cat", "Dan", "Eve"]:
        hall.add(name)
    slips = hall.slips()
    assert list(slips) == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    for name, slip in slips.items():
        # The slip's code is the link's secret, as the answer that made it said.
        assert codes.canonical(slip["code"]) == hall.tokens[name]
        assert slip["url"] == f"{server.base}/e/{hall.id}#token={hall.tokens[name]}"
        assert slip["qr"].startswith("<svg") and slip["where"] is None
    assert hall.get("/slips", hall.tokens["Ann"]).status_code == 403
    assert hall.get("/slips", None).status_code == 403
    # Seated: the slip says where.
    hall.ok(hall.manager, "check_in", player="Ann")
    for name in ["Bob", "Cat", "Dan", "Eve"]:
        hall.ok(hall.tokens[name], "check_in", player=name)
    hall.ok(hall.manager, "start_game", players=["Ann", "Bob", "Cat", "Dan", "Eve"], table="A")
    assert hall.slips()["Cat"]["where"] == "A, seat 3, game 1"
    # What the store keeps of a code is its slow hash, never a plain one.
    with server.app.state.services.store.engine.connect() as conn:
        rows = conn.execute(select(event_links_t.c.token_hash))
        hashes = {row.token_hash for row in rows}
    assert hash_token(hall.tokens["Ann"]) not in hashes
    assert codes.code_digest(hall.id, hall.tokens["Ann"]) in hashes


def test_a_code_is_taken_however_typed_and_a_wrong_one_names_nobody(server: ServerThread) -> None:
    hall = Hall(server)
    hall.add("Ann")
    code = hall.tokens["Ann"]
    for typed in (codes.grouped(code).lower(), f"{code[:5]} {code[5:]}"):
        assert hall.read(typed)["me"] == {"role": "player", "name": "Ann"}
    wrong = hall.get("", "ABCDE-FGHJK")
    assert wrong.status_code == 403
    assert wrong.json()["detail"] == "this link is not (or no longer) one of this event's"
    # A code is one event's: the same letters at another event open nothing.
    other = Hall(server)
    assert other.get("", code).status_code == 403


def test_a_lost_slip_is_replaced_and_its_link_and_code_stop(server: ServerThread) -> None:
    hall = Hall(server, "pitch-tournament")
    hall.add("Ann")
    judge = hall.ok(hall.manager, "add_judge", name="Jo Dee")["link"]["token"]
    assert CODE.fullmatch(judge)
    old = hall.tokens["Ann"]
    new = hall.ok(hall.manager, "new_link", role="player", name="Ann")["link"]["token"]
    assert CODE.fullmatch(new) and new != old
    for typed in (old, codes.grouped(old).lower()):
        assert hall.get("", typed).status_code == 403
    assert hall.refused(403, old, "check_in", player="Ann").startswith("this link is not")
    hall.ok(new, "check_in", player="Ann")
    slips = hall.slips()
    assert codes.canonical(slips["Ann"]["code"]) == new
    assert codes.canonical(slips["Jo Dee"]["code"]) == judge and slips["Jo Dee"]["role"] == "judge"


def test_check_in_goes_through_each_players_own_link(server: ServerThread) -> None:
    hall = Hall(server)
    for name in ["Ann", "Bob"]:
        hall.add(name)
    assert "only themselves" in hall.refused(403, hall.tokens["Ann"], "check_in", player="Bob")
    made = hall.ok(hall.tokens["Ann"], "check_in", player="Ann")["entry"]
    assert made["by"] == "Ann" and made["role"] == "player"
    assert hall.read()["view"]["check_in"]["present"] == ["Ann"]
    assert "Ann is checked in already" in hall.refused(
        409, hall.tokens["Ann"], "check_in", player="Ann"
    )
    # An event opened without a check-in desk takes none.
    plain = Desk(server)
    plain.add("Ann")
    assert "without a check-in desk" in plain.refused(409, plain.manager, "check_in", player="Ann")


def test_wrong_codes_are_limited_per_address_and_good_links_go_on(server: ServerThread) -> None:
    hall = Hall(server)
    for name in ["Ann", "Bob"]:
        hall.add(name)
    assert hall.read(hall.tokens["Ann"])["me"]["name"] == "Ann"  # known to the server now
    for n in range(FAILED_TRIES_BURST):
        guess = f"{n:05d}-AAAAA"
        assert hall.get("", guess).status_code == 403, n
    refused = hall.get("", "ZZZZZ-ZZZZZ")
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "too many wrong links or codes" in refused.json()["detail"]
    assert "Ann" not in refused.text and "Bob" not in refused.text
    entry = hall.enter("ZZZZZ-ZZZZZ", "check_in", player="Ann")
    assert entry.status_code == 429
    # A link the server knows works on, from the same address: the hall goes on.
    assert hall.read(hall.tokens["Ann"])["me"]["name"] == "Ann"
    hall.ok(hall.tokens["Ann"], "check_in", player="Ann")
    hall.ok(hall.manager, "check_in", player="Bob")
    assert hall.read()["view"]["check_in"]["present"] == ["Ann", "Bob"]


def test_the_public_page_has_a_qr_code(server: ServerThread) -> None:
    hall = Hall(server)
    response = hall.http.get(f"/api/events/{hall.id}/qr.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.startswith("<svg") and 'viewBox="0 0' in response.text
    assert hall.http.get("/api/events/nothing/qr.svg").status_code == 404


def test_a_code_made_at_one_worker_works_at_another(
    server: ServerThread, tmp_path: Path, database: str
) -> None:
    hall = Hall(server)
    hall.add("Ann")
    second = ServerThread(tmp_path / "second", FAST, database=database)
    try:
        there = Hall.__new__(Hall)
        there.http, there.id, there.manager, there.tokens = (
            second.http,
            hall.id,
            hall.manager,
            hall.tokens,
        )
        assert there.read(hall.tokens["Ann"])["me"]["name"] == "Ann"
        there.add("Bob")  # made there, from the same manager's link
        here_codes = {name: slip["code"] for name, slip in hall.slips().items()}
        assert here_codes == {name: slip["code"] for name, slip in there.slips().items()}
        assert codes.canonical(here_codes["Bob"]) == hall.tokens["Bob"]
        new = hall.ok(hall.manager, "new_link", role="player", name="Ann")["link"]["token"]
        assert there.get("", hall.tokens["Ann"]).status_code == 403
        there.ok(new, "check_in", player="Ann")
    finally:
        second.stop()
