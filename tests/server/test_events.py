"""Events through the API: a BGA continuous Pits evening (P10), who may enter what,
refusals that change nothing, corrections, and entries made at once."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.server.conftest import ServerThread, run

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


def test_who_may_enter_what(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5])
    order = PLAYERS[:5]
    assert "scorer" in desk.refused(403, desk.tokens["Bob"], "hand", game=1, hand=1, order=order)
    assert "manager" in desk.refused(403, desk.tokens["Ann"], "add_player", name="Zed")
    assert "themselves" in desk.refused(403, desk.tokens["Bob"], "sign", game=1, player="Cat")
    assert "public" in desk.refused(403, None, "hand", game=1, hand=1, order=order)
    assert "link" in desk.refused(403, "not-a-token", "hand", game=1, hand=1, order=order)
    # Another event's manager link does nothing here.
    other = Desk(server)
    assert desk.refused(403, other.manager, "add_player", name="Zed")
    # The public sees everything but can do nothing; it sees no link.
    public = desk.read()
    assert public["me"] == {"role": "public", "name": None}
    assert not any(token in str(public) for token in desk.tokens.values())


def test_bad_entries_are_refused_and_change_nothing(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS:
        desk.add(name)
    table = PLAYERS[:5]
    assert "5 different" in desk.refused(409, desk.manager, "start_game", players=PLAYERS[:4])
    assert "roster" in desk.refused(409, desk.manager, "start_game", players=[*table[:4], "Zed"])
    assert "already" in desk.refused(409, desk.manager, "add_player", name="ann")
    desk.ok(desk.manager, "start_game", players=table)
    assert "playing game 1" in desk.refused(
        409, desk.manager, "start_game", players=[*table[1:], "Fay"]
    )
    ann = desk.tokens["Ann"]
    # Finishing orders that cannot be: someone twice, someone not at the table, too few.
    twice = ["Ann", "Ann", "Cat", "Dan", "Eve"]
    assert "once each" in desk.refused(409, ann, "hand", game=1, hand=1, order=twice)
    stranger = ["Ann", "Bob", "Cat", "Dan", "Gus"]
    assert "five at the table" in desk.refused(409, ann, "hand", game=1, hand=1, order=stranger)
    assert "once each" in desk.refused(409, ann, "hand", game=1, hand=1, order=table[:4])
    assert "no game 7" in desk.refused(409, ann, "hand", game=7, hand=1, order=table)
    first = desk.ok(ann, "hand", game=1, hand=1, order=table)["entry"]["seq"]
    # The same hand entered twice.
    again = desk.refused(409, ann, "hand", game=1, hand=1, order=table)
    assert f"entered already (entry #{first})" in again
    # A sign before ruling off; before ten hands only the manager rules the sheet off.
    assert "ruled off before" in desk.refused(409, desk.tokens["Bob"], "sign", game=1, player="Bob")
    assert "only the manager" in desk.refused(403, ann, "rule_off", game=1)
    # A quit before ten hands needs a replacement from the roster.
    assert "replacement" in desk.refused(409, desk.manager, "quit", game=1, player="Eve")
    # A signature from someone not at the table.
    desk.ok(desk.manager, "rule_off", game=1)
    assert "not at the table" in desk.refused(409, desk.manager, "sign", game=1, player="Gus")
    assert "not at the table" in desk.refused(409, desk.tokens["Gus"], "sign", game=1, player="Gus")
    assert "ruled off" in desk.refused(409, ann, "hand", game=1, hand=2, order=table)


def test_a_correction_replaces_a_hand_and_keeps_the_original(server: ServerThread) -> None:
    desk = Desk(server)
    for name in PLAYERS[:5]:
        desk.add(name)
    table = PLAYERS[:5]
    desk.ok(desk.manager, "start_game", players=table)
    ann = desk.tokens["Ann"]
    wrong = desk.ok(ann, "hand", game=1, hand=1, order=table)["entry"]["seq"]
    desk.ok(ann, "hand", game=1, hand=2, order=table)
    right = list(reversed(table))
    fixed = desk.enter(ann, "hand", corrects=wrong, game=1, hand=1, order=right)
    assert fixed.status_code == 201, fixed.text
    event = desk.read()
    hands = event["view"]["games"][0]["hands"]
    assert hands[0]["order"] == right and hands[1]["order"] == table
    assert event["view"]["games"][0]["points"] == {"Ann": 2, "Bob": 1, "Cat": 0, "Dan": 1, "Eve": 2}
    original = next(e for e in event["log"] if e["seq"] == wrong)
    assert original["data"]["order"] == table  # nothing overwritten
    assert original["corrected_by"] == [fixed.json()["entry"]["seq"]]
    # A correction that breaks the sheet is refused; so is correcting a roster entry.
    bad = desk.enter(ann, "hand", corrects=wrong, game=1, hand=1, order=table[:3])
    assert bad.status_code == 409
    assert desk.enter(desk.manager, "add_player", corrects=1, name="Zed").status_code == 409


def test_entries_made_at_once_all_land(server: ServerThread) -> None:
    desk = Desk(server)
    names = [f"Player {i}" for i in range(30)]

    async def add_all() -> list[int]:
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
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
