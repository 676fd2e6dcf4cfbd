"""Tournaments through the API: a BGA continuous Pits evening (P10) end to end; what
HTTP adds to the rules (links, statuses, refusals that change nothing stored);
entries made at once, a lost link replaced, an entry's cost in store jobs, and two
workers serving one tournament. The rules themselves: tests/tournaments."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from pitkit.server.ops.settings import Limits
from tests.server.conftest import FAST, ServerThread, run
from tests.waiting import patience

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


class Desk:
    """An event through its links: the manager's, and each player's."""

    def __init__(self, server: ServerThread, kind: str = "pits-continuous") -> None:
        self.http = server.http
        created = self.http.post("/api/events", json={"kind": kind, "name": "Congress"})
        assert created.status_code == 201, created.text
        self.id = created.json()["event"]["id"]
        self.manager = created.json()["manager"]["token"]
        self.tokens: dict[str, str] = {}

    @classmethod
    def at(cls, server: ServerThread, desk: Desk) -> Desk:
        """The same event's desk, through another worker."""
        other = cls.__new__(cls)
        other.http, other.id, other.manager = server.http, desk.id, desk.manager
        other.tokens = desk.tokens
        return other

    def enter(
        self, token: str | None, type: str, corrects: int | None = None, **data: Any
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        body: dict[str, Any] = {"type": type, "data": data}
        if corrects is not None:
            body["corrects"] = corrects
        return self.http.post(f"/api/events/{self.id}/entries", json=body, headers=headers)

    def ok(self, token: str | None, type: str, **data: Any) -> dict[str, Any]:
        response = self.enter(token, type, **data)
        assert response.status_code == 201, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def refused(self, status: int, token: str | None, type: str, **data: Any) -> str:
        before = self.read()
        response = self.enter(token, type, **data)
        assert response.status_code == status, response.text
        assert self.read() == before  # nothing changed
        detail: str = response.json()["detail"]
        return detail

    def add(self, name: str) -> None:
        self.tokens[name] = self.ok(self.manager, "add_player", name=name)["link"]["token"]

    def read(self, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.get(f"/api/events/{self.id}", headers=headers)
        assert response.status_code == 200, response.text
        event: dict[str, Any] = response.json()
        return event


def _order(table: list[str], hand: int) -> list[str]:
    """A finishing order that moves round the table, hand by hand."""
    return table[hand % 5 :] + table[: hand % 5]


def test_a_pits_evening_two_tables_a_quit_signed_sheets_and_standings(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS[:6]:
        desk.add(name)
    # Game 1: Ann..Eve, Ann keeps the sheet.
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5], table="Table A")
    first = PLAYERS[:5]
    for hand in range(1, 4):
        desk.ok(desk.tokens["Ann"], "hand", game=1, hand=hand, order=_order(first, hand))
    # Eve quits before ten hands: her score freezes; Fay takes her seat from 0.
    frozen = desk.read()["view"]["games"][0]["points"]["Eve"]
    desk.ok(desk.tokens["Eve"], "quit", game=1, player="Eve", replacement="Fay")
    table = ["Ann", "Bob", "Cat", "Dan", "Fay"]
    for hand in range(4, 11):
        desk.ok(desk.tokens["Ann"], "hand", game=1, hand=hand, order=_order(table, hand))
    game = desk.read()["view"]["games"][0]
    assert game["points"]["Eve"] == frozen and game["seats"][4] == ["Eve", "Fay"]
    assert game["complete"] and len(game["hands"]) == 10
    # After ten hands, a quit ends the game: the sheet is ruled off and signed.
    desk.ok(desk.tokens["Bob"], "quit", game=1, player="Bob")
    assert desk.read()["view"]["games"][0]["ruled_off"]
    for name in ["Ann", "Bob", "Cat", "Dan"]:
        desk.ok(desk.tokens[name], "sign", game=1, player=name)
    desk.ok(desk.manager, "sign", game=1, player="Fay")  # through the manager
    signed = desk.read()["view"]["games"][0]
    assert signed["confirmed"] and set(signed["signatures"]) == set(table)
    assert desk.read()["log"][-1]["by"] == "the manager"

    # Gus arrives; game 2 at a second table.
    desk.add("Gus")
    second = ["Gus", "Fay", "Eve", "Dan", "Cat"]
    desk.ok(desk.manager, "start_game", players=second, table="Table B", scorer="Gus")
    for hand in range(1, 11):
        desk.ok(desk.tokens["Gus"], "hand", game=2, hand=hand, order=_order(second, hand))
    desk.ok(desk.tokens["Gus"], "rule_off", game=2)
    for name in second:
        desk.ok(desk.tokens[name], "sign", game=2, player=name)

    view = desk.read()["view"]
    points = {line["player"]: line for line in view["standings"]["points"]}
    # Eve took part in both games: her percentage counts all 20 hands (P10).
    eve = points["Eve"]
    assert eve["hands"] == 20 and eve["games"] == 2
    assert eve["percentage"] == round(100 * eve["points"] / 40, 2)
    assert not any(line["eligible"] for line in points.values())  # nobody has 4 games
    assert view["standings"]["percentage"] == []
    ranks = [(line["rank"], line["points"]) for line in view["standings"]["points"]]
    for rank, value in ranks:  # ties share a rank
        assert rank == 1 + sum(1 for _, other in ranks if other > value)
    csv = server.http.get(f"/api/events/{desk.id}/standings.csv")
    assert csv.status_code == 200 and csv.text.startswith("rank,player,points")
    sheets = server.http.get(f"/api/events/{desk.id}/sheets.csv").text
    assert "Table B" in sheets and "signed" in sheets


def test_links_statuses_and_refusals_through_http(server: ServerThread) -> None:
    # The rules themselves are tests/tournaments/test_pits.py; here, what HTTP adds:
    # links, the status of a refusal, and that a refused entry changes nothing stored.
    desk = Desk(server)
    for name in PLAYERS:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5])
    order = PLAYERS[:5]
    assert "scorer" in desk.refused(403, desk.tokens["Bob"], "hand", game=1, hand=1, order=order)
    assert "public" in desk.refused(403, None, "hand", game=1, hand=1, order=order)
    assert "link" in desk.refused(403, "not-a-token", "hand", game=1, hand=1, order=order)
    # Another event's manager link does nothing here.
    other = Desk(server)
    assert desk.refused(403, other.manager, "add_player", name="Zed")
    assert "already" in desk.refused(409, desk.manager, "add_player", name="ann")
    ann = desk.tokens["Ann"]
    first = desk.ok(ann, "hand", game=1, hand=1, order=order)["entry"]["seq"]
    again = desk.refused(409, ann, "hand", game=1, hand=1, order=order)
    assert f"entered already (entry #{first})" in again
    # A correction names the entry it corrects; the original stays in the log.
    fixed = desk.enter(ann, "hand", corrects=first, game=1, hand=1, order=order[::-1])
    assert fixed.status_code == 201, fixed.text
    original = next(e for e in desk.read()["log"] if e["seq"] == first)
    assert original["corrected_by"] == [fixed.json()["entry"]["seq"]]
    before = desk.read()
    assert (
        desk.enter(ann, "hand", corrects=first, game=1, hand=1, order=order[:3]).status_code == 409
    )
    assert desk.read() == before
    # A bad event is refused with 422.
    for body in ({"kind": "chess", "name": "x"}, {"kind": "pits-continuous", "name": " "}):
        assert server.http.post("/api/events", json=body).status_code == 422
    # The public sees everything but can do nothing; it sees no link.
    public = desk.read()
    assert public["me"] == {"role": "public", "name": None}
    assert not any(token in str(public) for token in desk.tokens.values())
    assert server.http.get("/api/events/nope").status_code == 404


def test_entries_made_at_once_all_land(server: ServerThread) -> None:
    desk = Desk(server)
    names = [f"Player {i}" for i in range(30)]

    async def add_all() -> list[int]:
        async with httpx.AsyncClient(base_url=server.base, timeout=patience(30)) as http:
            answers = await asyncio.gather(
                *(
                    http.post(
                        f"/api/events/{desk.id}/entries",
                        json={"type": "add_player", "data": {"name": name}},
                        headers={"Authorization": f"Bearer {desk.manager}"},
                    )
                    for name in names
                )
            )
        return [a.status_code for a in answers]

    assert run(add_all()) == [201] * len(names)
    event = desk.read()
    assert sorted(event["view"]["players"]) == sorted(names)
    assert [e["seq"] for e in event["log"]] == list(range(1, len(names) + 1))


def test_the_manager_replaces_a_lost_link_and_the_old_one_stops(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS[:5]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5])
    old = desk.tokens["Ann"]
    assert "only the manager" in desk.refused(403, old, "new_link", role="player", name="Ann")
    assert "no player named" in desk.refused(
        409, desk.manager, "new_link", role="player", name="Zed"
    )
    answer = desk.ok(desk.manager, "new_link", role="player", name="Ann")
    new = answer["link"]["token"]
    assert answer["link"]["role"] == "player" and answer["link"]["name"] == "Ann"
    assert desk.read(new)["me"] == {"role": "player", "name": "Ann"}
    assert desk.enter(old, "hand", game=1, hand=1, order=PLAYERS[:5]).status_code == 403
    assert desk.enter(new, "hand", game=1, hand=1, order=PLAYERS[:5]).status_code == 201
    assert (
        server.http.get(
            f"/api/events/{desk.id}", headers={"Authorization": f"Bearer {old}"}
        ).status_code
        == 403
    )
    assert desk.read()["log"][-2]["type"] == "new_link"  # in the log, without the token
    assert new not in str(desk.read()["log"])


def test_an_entry_is_one_job_of_the_store(server: ServerThread) -> None:
    # An entry is checked on the tournament held in memory, then stored in one job
    # that checks its link and that it is still the next entry (issue 31: it was 5).
    desk = Desk(server)
    store = server.app.state.services.store
    jobs = store.jobs
    for n in range(3):
        desk.add(f"Player {n}")
        assert store.jobs - jobs == 1
        jobs = store.jobs
    # A refused entry: the store is asked once whether other workers' entries allow it.
    assert desk.enter(desk.manager, "add_player", name="player 1").status_code == 409
    assert store.jobs - jobs == 1
    jobs = store.jobs
    # A read catches up and says who holds the link, in one job.
    desk.read(desk.manager)
    assert store.jobs - jobs == 1


def test_two_workers_enter_into_one_tournament(
    server: ServerThread, tmp_path: Path, database: str
) -> None:
    # Each worker holds the tournament in memory: an entry made at one is caught up
    # with at the other, whether its own entry clashes with it or is refused without it.
    desk = Desk(server)
    for name in PLAYERS[:5]:
        desk.add(name)
    second = ServerThread(tmp_path / "second", FAST, database=database)
    try:
        there = Desk.at(second, desk)
        five = PLAYERS[:5]
        there.ok(there.manager, "start_game", players=five)  # unknown at the first worker
        for hand in range(1, 5):
            at = desk if hand % 2 else there
            at.ok(at.tokens["Ann"], "hand", game=1, hand=hand, order=_order(five, hand))
        desk.add("Fay")
        there.add("Gus")  # clashes with Fay's entry, then lands after it
        here, far = desk.read(), there.read()
        assert here == far
        assert [e["seq"] for e in here["log"]] == list(range(1, 13))
        assert len(here["view"]["games"][0]["hands"]) == 4
        assert here["view"]["players"] == [*five, "Fay", "Gus"]
        # A new link made at one worker ends the old one at the other.
        old = desk.tokens["Ann"]
        assert there.read(old)["me"]["name"] == "Ann"
        new = desk.ok(desk.manager, "new_link", role="player", name="Ann")["link"]["token"]
        assert there.enter(old, "hand", game=1, hand=5, order=five).status_code == 403
        assert there.read() == desk.read()
        assert there.enter(new, "hand", game=1, hand=5, order=five).status_code == 201
    finally:
        second.stop()


def test_a_new_link_for_no_single_role_and_name_is_refused_and_changes_nothing(
    server: ServerThread,
) -> None:
    desk = Desk(server)
    desk.add("Ann")
    for data in (
        {"role": ["player"], "name": "Ann"},  # once an HTTP 500
        {"role": "player", "name": ["Ann"]},
        {"role": {"player": 1}, "name": "Ann"},
        {"role": "player"},
    ):
        assert "role" in desk.refused(409, desk.manager, "new_link", **data)
    assert desk.read(desk.tokens["Ann"])["me"]["name"] == "Ann"  # her link still works


def test_one_address_opens_a_few_events_an_hour(server: ServerThread) -> None:
    body = {"kind": "pits-continuous", "name": "Evening"}
    for _ in range(Limits().events_per_address):
        assert server.http.post("/api/events", json=body).status_code == 201
    refused = server.http.post("/api/events", json=body)
    assert refused.status_code == 429
    assert f"at most {Limits().events_per_address} events an hour" in refused.json()["detail"]


def test_an_event_takes_so_many_entries_and_refuses_more(server: ServerThread) -> None:
    server.app.state.services.tournaments.entries = 6
    desk = Desk(server)
    for name in PLAYERS[:6]:
        desk.add(name)
    detail = desk.refused(409, desk.manager, "add_player", name="Gus")
    assert "has 6 entries, the most an event may have" in detail


def test_every_reader_is_sent_the_same_event_gzipped_or_not(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS[:5]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5])
    for token in (None, desk.manager, desk.tokens["Ann"]):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        packed = server.http.get(f"/api/events/{desk.id}", headers=headers)
        plain = server.http.get(
            f"/api/events/{desk.id}", headers={**headers, "Accept-Encoding": "identity"}
        )
        assert packed.headers["content-encoding"] == "gzip"
        assert "content-encoding" not in plain.headers
        assert packed.json() == plain.json() == desk.read(token)
        assert packed.content == plain.content


def test_an_entry_is_answered_gzipped_to_whoever_takes_gzip(server: ServerThread) -> None:
    """A scorer's phone gets the whole event back with each entry: gzipped, as a read
    is, when it takes gzip; the same answer either way (the same entry sent again under
    its key is answered again, as it was made)."""
    desk = Desk(server)
    for name in PLAYERS[:4]:
        desk.add(name)
    url = f"/api/events/{desk.id}/entries"
    body = {"type": "add_player", "data": {"name": PLAYERS[4]}}
    sent = {"Authorization": f"Bearer {desk.manager}", "Idempotency-Key": "add-eve-once"}
    packed = server.http.post(url, json=body, headers=sent)
    plain = server.http.post(url, json=body, headers={**sent, "Accept-Encoding": "identity"})
    assert (packed.status_code, plain.status_code) == (201, 200)
    assert packed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert int(packed.headers["content-length"]) < len(plain.content)
    made, again = packed.json(), plain.json()
    assert made["event"] == again["event"] == desk.read(desk.manager)
    assert made["entry"] == again["entry"] and again["replayed"] is True


def test_a_page_that_has_the_event_is_answered_unchanged_until_an_entry(
    server: ServerThread,
) -> None:
    """A hall's pages poll the event every few seconds: a page that sends back the ETag
    of what it holds hears 304 and nothing more, until an entry changes it; the tag an
    entry's answer gives is the one a read through the same link gets; a wrong link
    learns nothing from a tag."""
    desk = Desk(server)
    for name in PLAYERS[:2]:
        desk.add(name)
    url = f"/api/events/{desk.id}"
    manager = {"Authorization": f"Bearer {desk.manager}"}

    def read(headers: dict[str, str]) -> httpx.Response:
        return server.http.get(url, headers=headers)

    first = read(manager)
    tag = first.headers["etag"]
    assert tag.startswith('W/"')
    plain = read({**manager, "Accept-Encoding": "identity"})
    assert plain.headers["etag"] == tag and plain.content == first.content
    # The public view and a player's page are other pages, with other tags.
    public, ann = read({}), read({"Authorization": f"Bearer {desk.tokens['Ann']}"})
    assert len({tag, public.headers["etag"], ann.headers["etag"]}) == 3

    for asked in (tag, tag.removeprefix("W/"), f'"x", {tag}', "*"):
        same = read({**manager, "If-None-Match": asked})
        assert (same.status_code, same.content) == (304, b""), asked
        assert same.headers["etag"] == tag
    assert read({**manager, "If-None-Match": public.headers["etag"]}).status_code == 200
    wrong = read({"Authorization": "Bearer not-a-link", "If-None-Match": tag})
    assert wrong.status_code == 403

    entered = desk.ok(desk.manager, "add_player", name=PLAYERS[2])
    after = read({**manager, "If-None-Match": tag})
    assert after.status_code == 200 and after.json() == entered["event"]
    assert after.headers["etag"] == entered["event_tag"] != tag
    assert read({**manager, "If-None-Match": entered["event_tag"]}).status_code == 304
