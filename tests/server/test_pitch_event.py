"""The Darrtown Pitch tournament through the API (seeds/pitch.txt, the TOURNAMENT
column; rulings C1-C11), end to end: Go-Rounds seated by standing or by draw, each
table's score pad kept by its dealers and initialled by its judge, misplay appeals
and the manager's register, disqualification, elimination to a final table and the
champion. Then what the server adds: the draw stored and read back by another
worker, and two judges confirming at once. The rules themselves, who may enter
what and the refusals: tests/tournaments/test_pitch.py.

Each test says which sentences of the seed's tournament column it covers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import FAST, ServerThread, run
from tests.server.test_events import Desk
from tests.waiting import patience

KIND = "pitch-tournament"
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


class PitchDesk(Desk):
    """A Pitch event through its links (Desk's, with the event's options)."""

    def __init__(self, server: ServerThread, **options: Any) -> None:
        if not options:
            super().__init__(server, KIND)
            return
        self.http = server.http
        body = {"kind": KIND, "name": "Darrtown", "options": options}
        created = self.http.post("/api/events", json=body)
        assert created.status_code == 201, created.text
        self.id = created.json()["event"]["id"]
        self.manager = created.json()["manager"]["token"]
        self.tokens: dict[str, str] = {}

    def judge(self, name: str) -> None:
        self.tokens[name] = self.ok(self.manager, "add_judge", name=name)["link"]["token"]

    def view(self, token: str | None = None) -> dict[str, Any]:
        view: dict[str, Any] = self.read(token)["view"]
        return view

    def table(self, rnd: int, table: int) -> dict[str, Any]:
        found: dict[str, Any] = self.view()["rounds"][rnd - 1]["tables"][table - 1]
        return found

    def hand(self, rnd: int, table: int, by: str | None = None, **pad: Any) -> dict[str, Any]:
        """Record the next hand on a table's pad, from the dealer's link (or `by`'s)."""
        now = self.table(rnd, table)
        token = self.tokens[now["dealer"]] if by is None else by
        pad.setdefault("trump", "H")
        pad.setdefault("jack", None)
        return self.ok(token, "hand", round=rnd, table=table, line=now["next_line"], **pad)

    def confirm(self, rnd: int, table: int, line: int, by: str | None = None) -> None:
        """The table's judge (or `by`) initials a line."""
        token = self.tokens[self.table(rnd, table)["judge"]] if by is None else by
        self.ok(token, "confirm", round=rnd, table=table, line=line)

    def win(self, rnd: int, table: int, winner: str) -> None:
        """A hand in which `winner` pitches 2 and takes high, low and game (no Jack
        dealt), confirmed by the table's judge."""
        entry = self.hand(rnd, table, bid=2, pitcher=winner, high=winner, low=winner, game=winner)
        line = entry["event"]["view"]["rounds"][rnd - 1]["tables"][table - 1]["next_line"] - 1
        self.confirm(rnd, table, line)

    def play_out(self, rnd: int, table: int, winner: str) -> None:
        """Hands won by `winner` until the game at the table is over (C10)."""
        while self.table(rnd, table)["outcome"] is None:
            self.win(rnd, table, winner)


def _standing(view: dict[str, Any], rnd: int) -> dict[str, dict[str, Any]]:
    return {line["player"]: line for line in view["standings"][rnd - 1]["lines"]}


def test_a_pitch_tournament_two_go_rounds_a_disqualification_and_a_champion(
    server: ServerThread,
) -> None:
    # Intro: "Tournament Game Play ... formal, elimination rounds, championships."
    desk = PitchDesk(server)
    for name in EIGHT:
        desk.add(name)
    desk.judge("Jo Dee")
    desk.judge("Max Ray")
    assert [j["initials"] for j in desk.view()["judges"]] == ["JD", "MR"]

    # Go-Round 1 by standing (the roster's order, dealt round the tables). Topic 2:
    # "Two to four players" a table; two tables of four.
    desk.ok(desk.manager, "seat_round", by="standing", judges=["Jo Dee", "Max Ray"])
    rnd = desk.view()["rounds"][0]
    assert [t["players"] for t in rnd["tables"]] == [
        ["Ann", "Cat", "Eve", "Gus"],
        ["Bob", "Dan", "Fay", "Hal"],
    ]
    assert [t["judge"] for t in rnd["tables"]] == ["Jo Dee", "Max Ray"]
    # Topic 6: "the dealer MUST be determined by cutting the deck" (C3): no pad before.
    assert "cut for the deal first" in desk.refused(
        409, desk.manager, "hand", round=1, table=1, line=1, bid=2, pitcher="Ann", trump="H",
        high="Ann", low="Ann", jack=None, game="Ann",
    )  # fmt: skip
    desk.ok(desk.tokens["Jo Dee"], "cut", round=1, table=1, dealer="Ann")
    desk.ok(desk.tokens["Max Ray"], "cut", round=1, table=2, dealer="Bob")

    # Table 1, line 1. Topic 35: "the dealer of the hand, signals for/calls to a tournament
    # judge to ... (c) observe the dealer, as she/he records the bid scores on the score
    # pad, and (d) record her/his initials on the score pad": pending until initialled.
    desk.hand(1, 1, bid=2, pitcher="Ann", high="Ann", low="Ann", game="Ann")
    view = desk.view()
    assert view["pending"] == [
        {"round": 1, "table": 1, "line": 1, "entry": view["pending"][0]["entry"],
         "judge": "Jo Dee", "dealer": "Ann", "note": view["pending"][0]["note"],
         "players": ["Ann", "Cat", "Eve", "Gus"], "game": "Ann", "counts": None}
    ]  # fmt: skip
    assert "Ann bid 2 in hearts and made it" in view["pending"][0]["note"]
    assert desk.view(desk.tokens["Jo Dee"])["mine"]["pending"] == view["pending"]
    assert desk.view(desk.tokens["Max Ray"])["mine"]["pending"] == []
    line = desk.table(1, 1)["lines"][0]
    assert line["status"] == "pending" and line["initials"] is None
    assert line["pad"] == {"bid": 2, "pitcher": "Ann", "trump": "H", "high": "Ann",
                           "low": "Ann", "jack": None, "game": "Ann"}  # fmt: skip
    desk.confirm(1, 1, 1)
    line = desk.table(1, 1)["lines"][0]
    assert (line["status"], line["initials"], line["confirmed_by"]) == (
        "confirmed", "JD", "judge Jo Dee",
    )  # fmt: skip
    assert desk.view()["pending"] == []

    # Cat deals hand 2 and misplays. Topic 37: "the player and/or opponents must appeal
    # to a tournament judge for a ruling. If the judge decides that the misplay is
    # correctable ... the players replay the misplayed cards and continue".
    assert desk.table(1, 1)["dealer"] == "Cat"
    appeal = desk.ok(desk.tokens["Eve"], "appeal", round=1, table=1, offender="Cat")
    number = appeal["entry"]["seq"]
    assert desk.view(desk.tokens["Jo Dee"])["mine"]["appeals"][0]["offender"] == "Cat"
    assert desk.view()["appeals"][0]["appeal"] == number
    first = desk.ok(desk.tokens["Jo Dee"], "rule_misplay", appeal=number, correctable=True)
    assert desk.view()["appeals"] == []
    assert desk.table(1, 1)["scores"]["Cat"] == 0 and desk.table(1, 1)["dealer"] == "Cat"
    desk.win(1, 1, "Ann")  # Cat, the dealer, records it from her own link

    # Eve deals hand 3; Cat misplays again and it cannot be corrected. Topic 37: "sit
    # out", "the highest bid made in the misplayed hand be deducted", "re-dealt to the
    # remaining players". Topic 38: "Any player who commits two misplays in the same
    # Go-Round will be immediately disqualified from the tournament."
    appeal = desk.ok(desk.tokens["Jo Dee"], "appeal", round=1, table=1, offender="Cat")
    second = desk.ok(
        desk.tokens["Jo Dee"],
        "rule_misplay",
        appeal=appeal["entry"]["seq"],
        correctable=False,
        highest_bid=3,
    )
    table = desk.table(1, 1)
    assert table["disqualified"] == ["Cat"] and table["scores"]["Cat"] == -3
    assert table["seated"] == ["Ann", "Eve", "Gus"] and table["dealer"] == "Eve"
    assert (
        "Cat misplayed; loses 3; second misplay in the Go-Round: disqualified"
        in (table["lines"][-1]["note"])
    )
    # Topic 37: "The tournament judge must report the name of the player who committed
    # the misplay to the tournament manager, who shall keep a record of the incident".
    register = desk.view()["register"]
    assert [
        (
            r["round"],
            r["table"],
            r["player"],
            r["ruling"],
            r["judge"],
            r["entry"],
            r["disqualified"],
        )
        for r in register
    ] == [
        (1, 1, "Cat", "correctable", "judge Jo Dee", first["entry"]["seq"], False),
        (1, 1, "Cat", "not correctable", "judge Jo Dee", second["entry"]["seq"], True),
    ]
    assert register[1]["lost"] == 3 and register[1]["initials"] == "JD"
    assert desk.view()["disqualified"] == [
        {"player": "Cat", "round": 1, "table": 1, "entry": second["entry"]["seq"]}
    ]
    # Cat takes no further part: no appeal against her or by her, no point on a pad.
    assert "Cat is disqualified" in desk.refused(
        403, desk.tokens["Cat"], "appeal", round=1, table=1, offender="Eve"
    )
    assert "disqualified" in desk.refused(
        409, desk.tokens["Eve"], "appeal", round=1, table=1, offender="Cat"
    )
    assert "does not play this hand" in desk.refused(
        409, desk.tokens["Eve"], "hand", round=1, table=1, line=5, bid=2, pitcher="Cat",
        trump="S", high="Cat", low="Eve", jack=None, game="Eve",
    )  # fmt: skip
    # Topic 1: "the most points, after all the players in the game have dealt twice".
    desk.play_out(1, 1, "Ann")
    table = desk.table(1, 1)
    assert table["outcome"]["winner"] == "Ann" and table["over"]
    assert all(table["deals"][p] >= 2 for p in ["Ann", "Eve", "Gus"])

    # Table 2: Hal wins, after one set back (topic 34: "the number of points that the
    # pitcher bid (and failed to capture) is deducted"; topic 33: a tied game, no point).
    desk.hand(1, 2, bid=4, pitcher="Dan", high="Dan", low="Fay", jack="Hal", game=None)
    desk.confirm(1, 2, 1)
    assert desk.table(1, 2)["scores"] == {"Bob": 0, "Dan": -4, "Fay": 1, "Hal": 1}
    desk.play_out(1, 2, "Hal")
    assert desk.table(1, 2)["outcome"]["winner"] == "Hal"

    # Elimination: the winner of each table goes on (option advance, default 1).
    view = desk.view()
    assert view["rounds"][0]["over"] and view["rounds"][0]["tables"][0]["advancing"] == ["Ann"]
    standing = _standing(view, 1)
    assert {p: line["status"] for p, line in standing.items()} == {
        "Ann": "advances", "Hal": "advances", "Cat": "disqualified", "Bob": "eliminated",
        "Dan": "eliminated", "Eve": "eliminated", "Fay": "eliminated", "Gus": "eliminated",
    }  # fmt: skip
    assert "seat Go-Round 2 (2 players go on)" in view["status"]
    # A disqualified player cannot be seated again; nor one who was eliminated.
    assert "disqualified in Go-Round 1" in desk.refused(
        409, desk.manager, "seat_round", by="standing", players=["Ann", "Hal", "Cat"]
    )
    assert "Bob did not advance" in desk.refused(
        409, desk.manager, "seat_round", by="standing", players=["Ann", "Hal", "Bob"]
    )

    # Go-Round 2: the final table.
    desk.ok(desk.manager, "seat_round", by="standing", judges=["Max Ray"])
    final = desk.table(2, 1)
    assert sorted(final["players"]) == ["Ann", "Hal"] and desk.view()["rounds"][1]["final"]
    desk.ok(desk.tokens["Max Ray"], "cut", round=2, table=1, dealer="Hal")
    desk.win(2, 1, "Ann")
    desk.play_out(2, 1, "Hal")
    view = desk.view()
    assert view["champion"] == "Hal" and view["status"] == "Hal is the champion"
    assert _standing(view, 2)["Hal"]["status"] == "champion"
    assert _standing(view, 2)["Ann"]["status"] == "eliminated"
    assert "the final" in desk.refused(409, desk.manager, "seat_round", by="standing")

    # The pads and the standings as CSV.
    pads = server.http.get(f"/api/events/{desk.id}/pads.csv").text.splitlines()
    assert pads[0].startswith("round,table,line,entry,kind,dealer,seated,bid,pitcher,trump")
    lines = sum(len(t["lines"]) for r in view["rounds"] for t in r["tables"])
    assert len(pads) == 1 + lines
    assert any(",misplay," in row and "disqualified" in row for row in pads)
    assert all(",hand," not in row or ",confirmed," in row for row in pads)
    standings = server.http.get(f"/api/events/{desk.id}/standings.csv").text
    assert standings.startswith("round,place,player,table,points,misplays,status")
    assert "2,1,Hal,1," in standings and ",champion" in standings


def test_the_draw_is_stored_and_another_worker_reads_it(
    server: ServerThread, tmp_path: Path, database: str
) -> None:
    # The seating rules themselves: tests/tournaments/test_pitch.py. Here: a draw
    # without a seed, decided by the server and stored with its seed, is what another
    # worker on the same database reads back; the options as created.
    desk = PitchDesk(server, advance=2)
    assert desk.read()["options"] == {"advance": 2}
    for n in range(5):
        desk.add(f"Q{n}")
    data = desk.ok(desk.manager, "seat_round", by="draw")["entry"]["data"]
    assert isinstance(data["seed"], int) and [len(t) for t in data["seating"]] == [3, 2]
    second = ServerThread(tmp_path / "second", FAST, database=database)
    try:
        event = second.http.get(f"/api/events/{desk.id}").json()
    finally:
        second.stop()
    assert [t["players"] for t in event["view"]["rounds"][0]["tables"]] == data["seating"]
    assert event["options"] == {"advance": 2}
    # Bad options are refused with 422, and make no event.
    for options, why in (({"advance": 4}, "advance is 1 to 3"), ({"rounds": 2}, "only option")):
        created = server.http.post(
            "/api/events", json={"kind": KIND, "name": "x", "options": options}
        )
        assert created.status_code == 422 and why in created.text


def test_two_judges_confirming_at_once_one_lands(server: ServerThread) -> None:
    # Topic 35: the judge records "her/his initials on the score pad": one judge a
    # line. Two confirming the same line at once: one lands, the other is refused.
    desk = PitchDesk(server)
    for name in EIGHT[:4]:
        desk.add(name)
    desk.judge("Jo Dee")
    desk.judge("Max Ray")
    desk.ok(desk.manager, "seat_round", by="standing", tables=2, judges=["Jo Dee", "Max Ray"])
    jo, max_, ann, cat = (desk.tokens[n] for n in ["Jo Dee", "Max Ray", "Ann", "Cat"])
    desk.ok(jo, "cut", round=1, table=1, dealer="Ann")
    pad = {"round": 1, "table": 1, "line": 1, "bid": 2, "pitcher": "Ann", "trump": "D",
           "high": "Ann", "low": "Cat", "jack": "Cat", "game": None}  # fmt: skip
    desk.ok(ann, "hand", **pad)
    desk.ok(desk.manager, "assign_judge", round=1, table=1, judge="Max Ray")
    desk.ok(cat, "hand", **{**pad, "line": 2, "pitcher": "Cat"})

    async def both() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.base, timeout=patience(30)) as http:
            return list(
                await asyncio.gather(
                    *(
                        http.post(
                            f"/api/events/{desk.id}/entries",
                            json={"type": "confirm", "data": data},
                            headers={"Authorization": f"Bearer {token}"},
                        )
                        for token, data in [
                            (max_, {"round": 1, "table": 1, "line": 2}),
                            (desk.manager, {"round": 1, "table": 1, "line": 2, "initials": "TM"}),
                        ]
                    )
                )
            )

    answers = run(both())
    assert sorted(a.status_code for a in answers) == [201, 409]
    assert "two judges at once" in next(a for a in answers if a.status_code == 409).text
    assert desk.table(1, 1)["lines"][1]["status"] == "confirmed"
    # A judge's own part is in the judge's view; the public sees the event, and no link.
    assert desk.view(jo)["mine"]["tables"] == []
    public = desk.read()
    assert public["me"]["role"] == "public" and "mine" not in public["view"]
    assert not any(token in str(public) for token in desk.tokens.values())


def test_a_judge_and_a_player_get_their_own_part_beside_what_everyone_sees(
    server: ServerThread,
) -> None:
    # One page serves every reader, with the reader's own keys added to it in bytes.
    desk = PitchDesk(server)
    for name in EIGHT[:4]:
        desk.add(name)
    desk.judge("Jo Dee")
    desk.ok(desk.manager, "seat_round", by="standing", tables=1, judges=["Jo Dee"])
    public = desk.read()
    assert "mine" not in public["view"]
    for name, role in (("Jo Dee", "judge"), ("Ann", "player")):
        auth = {"Authorization": f"Bearer {desk.tokens[name]}"}
        packed = server.http.get(f"/api/events/{desk.id}", headers=auth)
        plain = server.http.get(
            f"/api/events/{desk.id}", headers={**auth, "Accept-Encoding": "identity"}
        )
        assert packed.headers["content-encoding"] == "gzip" and packed.content == plain.content
        page = plain.json()
        assert page["me"] == {"role": role, "name": name}
        assert page["view"].pop("mine")["tables"] == [{"round": 1, "table": 1}]
        assert page["view"] == public["view"] and page["log"] == public["log"]
