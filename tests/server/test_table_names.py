"""Names at a table (issue 32): two seats never show the same name, nor names that
look the same (a Greek capital Eta for an H), nor the words the table's sentences use
for others ("Host"); and a player's own rename is told to everyone, as the host's is."""

from __future__ import annotations

import pytest

from pitkit.core.narrate import Narrator
from pitkit.server.client import TableClient
from pitkit.server.live import messages
from pitkit.server.live.seats import Seat, name_clash, unclashed
from tests.server.conftest import ServerThread, run


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _seats(*names: str | None) -> list[Seat]:
    return [
        Seat(i, "player" if name else "open", None, name, f"hash{i}")
        for i, name in enumerate(names)
    ]


@pytest.mark.parametrize(
    "name",
    ["Bob", "bob", "BOB", "Bób", "\u0392ob", "Ｂob", "Host", "\u0397ost", "the HOST", "You"],
)
def test_a_name_that_looks_like_another_seats_or_the_hosts_is_refused(name: str) -> None:
    seats = _seats("Ann", "Bob", None)
    why = name_clash(seats, 0, name)
    assert why is not None and "pick" in why


def test_a_player_keeps_their_own_name_and_may_take_a_different_one() -> None:
    seats = _seats("Ann", "Bob", None)
    assert name_clash(seats, 1, "Bob") is None  # their own
    assert name_clash(seats, 0, "Carol") is None
    assert name_clash(seats, 0, "Bobby") is None
    # An open seat is "Seat 3": nobody may pass for it.
    assert name_clash(seats, 0, "Seat 3") is not None


def test_the_host_cannot_give_two_players_one_name(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=["open", "open", "random"])
    tid, host = created["table"]["id"], created["host_token"]
    tokens = [s["token"] for s in created["seats"]]
    for index, name in enumerate(("Bob", "Carol")):
        joined = server.http.post(
            f"/api/tables/{tid}/join", json={"token": tokens[index], "name": name}
        )
        assert joined.status_code == 200, joined.text
    before = server.table(tid)["seats"]
    for name in ("Carol", "carol", "C\u0430rol"):  # the last with a Cyrillic a
        refused = server.http.put(
            f"/api/tables/{tid}/seats/0/name", json={"name": name}, headers=_auth(host)
        )
        assert refused.status_code == 400, refused.text
        assert "at this table already" in refused.json()["detail"]
    assert server.table(tid)["seats"] == before


def test_a_player_cannot_take_anothers_name_or_the_hosts(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=["open", "open", "open", "random"])
    tid = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]
    join = f"/api/tables/{tid}/join"
    bob = server.http.post(join, json={"token": tokens[0], "name": "Bob"}).json()["token"]
    # A second player taking a seat as Bob (two tabs of one browser know one name) is
    # told apart by a number; one taking it as "Host" gets the seat's own name.
    second = server.http.post(join, json={"token": tokens[1], "name": "bob"})
    assert second.status_code == 200, second.text
    assert server.http.post(join, json={"token": tokens[2], "name": "\u0397ost"}).status_code == 200
    assert [s["name"] for s in server.table(tid)["seats"][:3]] == ["Bob", "bob 2", "Player 3"]
    # Renaming oneself to a name that looks like another's, or like "Host", is refused.
    for token, name in ((second.json()["token"], "\u0392ob"), (bob, "Host"), (bob, "\u0397ost")):
        refused = server.http.post(join, json={"token": token, "name": name})
        assert refused.status_code == 400 and "pick" in refused.text, refused.text
    assert [s["name"] for s in server.table(tid)["seats"][:3]] == ["Bob", "bob 2", "Player 3"]


def test_a_players_own_rename_is_told_to_everyone(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=["open", "open", "random"])
    tid = created["table"]["id"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        ann = TableClient(server.base, tid, tokens[0])
        await ann.connect(name="Ann", views=True)
        await ann.recv_type("welcome")
        bo = TableClient(server.base, tid, tokens[1])
        await bo.connect(name="Bo", views=True)
        await bo.recv_type("welcome")
        assert ann.token is not None
        renamed = server.http.post(
            f"/api/tables/{tid}/join", json={"token": ann.token, "name": "Ann B."}
        )
        assert renamed.status_code == 200, renamed.text
        assert (await ann.recv_type("notice"))["text"] == "You are now called Ann B."
        assert (await bo.recv_type("notice"))["text"] == "Ann is now called Ann B."
        for client in (ann, bo):
            await client.close()

    run(main())


def test_a_newcomer_with_a_taken_name_is_told_apart_by_a_number() -> None:
    seats = _seats("Bob", "Bob 2", None)
    assert unclashed(seats, 2, "BOB", 40) == "BOB 3"
    assert unclashed(seats, 2, "Ann", 40) == "Ann"
    assert unclashed(seats, 2, "The Host", 40) == "Player 3"
    long = _seats("x" * 40, None)
    assert unclashed(long, 1, "X" * 40, 40) == "X" * 38 + " 2"


def test_a_name_ending_in_a_full_stop_gets_no_second_one() -> None:
    say = Narrator.named(["Ann", "Cyd R."], 0)
    assert messages.in_names("the match goes to seat 1.", say) == "the match goes to Cyd R."
    assert messages.timed_out(1, say)["text"] == "Time ran out: a bot played for Cyd R."
    assert messages.in_names("seat 1 wins.", say) == "Cyd R. wins."
    assert messages.full_stops("Ann B.. Ann", Narrator.named(["Ann B."])) == "Ann B. Ann"


def test_a_seat_taken_from_the_lobby_is_told_apart_too(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=["open", "open", "random"])
    tid = created["table"]["id"]
    for _ in range(2):
        taken = server.http.post(f"/api/tables/{tid}/take-seat", json={"name": "Tess"})
        assert taken.status_code == 200, taken.text
    assert [s["name"] for s in server.table(tid)["seats"][:2]] == ["Tess", "Tess 2"]
