"""The host's powers over seats: rename a player, move (swap) two seats, put a bot in
a seat or open it for someone else. The seat's holder is told in words, and so is
everyone else; a moved player's page gets the new seat's view and nothing of the old;
refusals change nothing; only the host token may do any of it."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from pitkit.server.client import TableClient
from tests.server.conftest import ServerThread, run


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def _seated(server: ServerThread, tid: str, token: str | None, name: str) -> TableClient:
    client = TableClient(server.base, tid, token)
    await client.connect(name=name, views=True)
    await client.recv_type("welcome")
    return client


def _cards(view: dict[str, Any]) -> set[str]:
    """Every card code named anywhere in a view."""
    return set(re.findall(r"\b(?:[2-9TJQKA][CDHS])\b", json.dumps(view)))


def test_the_host_renames_a_player_and_everyone_is_told(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=["open", "open", "random"])
    tid, host = created["table"]["id"], created["host_token"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        ann = await _seated(server, tid, tokens[0], "Ann")
        bo = await _seated(server, tid, tokens[1], "Bo")
        watcher = await _seated(server, tid, None, "W")
        # A name with a control character is refused (live/names.py), and changes nothing.
        refused = server.http.put(
            f"/api/tables/{tid}/seats/0/name", json={"name": "Ann B.\u0007"}, headers=_auth(host)
        )
        assert refused.status_code == 400 and "control character" in refused.text
        renamed = server.http.put(
            f"/api/tables/{tid}/seats/0/name", json={"name": "  Ann   B. "}, headers=_auth(host)
        )
        assert renamed.status_code == 200, renamed.text
        assert renamed.json()["seats"][0]["name"] == "Ann B."
        assert (await ann.recv_type("notice"))["text"] == "The host renamed you Ann B."
        for other in (bo, watcher):
            assert (await other.recv_type("notice"))["text"] == "The host renamed Ann to Ann B."
        assert server.table(tid)["seats"][0]["label"] == "Ann B."
        # The player keeps their seat and token: nobody was let go.
        assert ann.table is not None and ann.table["seats"][0]["connected"]
        for client in (ann, bo, watcher):
            await client.close()

    run(main())


async def _play_out(*clients: TableClient) -> None:
    """Play the people's seats (each its first legal move) until the match is over."""

    async def play(client: TableClient) -> None:
        acted: int | None = None  # the version last acted on, until the table moves on
        while not client.over:
            if client.seat in client.to_act and client.legal and client.version != acted:
                act = {"type": "act", "action": client.legal[0], "version": client.version}
                await client.send(act)
                acted = client.version
            if (await client.recv())["type"] == "error":
                acted = None

    await asyncio.gather(*(play(client) for client in clients))


# One hand of at most four turns each: a match ends in a few moves.
SHORT = {"hands": 1, "turn_limit": 4}


def _two_open_seats(server: ServerThread) -> tuple[str, str, list[str]]:
    """A short Pitty Pat table with two open seats: its id, host token and invitations."""
    created = server.create(game="pitty-pat", players=2, seats=["open", "open"], rules=SHORT)
    return created["table"]["id"], created["host_token"], [s["token"] for s in created["seats"]]


def test_the_host_cannot_see_a_hand_by_moving_seats(server: ServerThread) -> None:
    """The host, Hana, sits at seat 0 and moves herself to Bo's seat mid-hand: nothing
    moves until the next match, and her page gets nothing of Bo's cards; then each
    gets the new seat's fresh hand, and her secret opens her new seat."""
    tid, host, tokens = _two_open_seats(server)

    async def main() -> None:
        hana = await _seated(server, tid, tokens[0], "Hana")
        bo = await _seated(server, tid, tokens[1], "Bo")
        watcher = await _seated(server, tid, None, "W")
        for client in (hana, bo, watcher):
            await client.recv_type("sync")
        moved = server.http.post(
            f"/api/tables/{tid}/seats/0/move", json={"to": 1}, headers=_auth(host)
        )
        assert moved.status_code == 200, moved.text
        assert [s["name"] for s in moved.json()["seats"]] == ["Hana", "Bo"]
        later = " when the next match starts."
        for client, text in (
            (hana, "The host will move you to seat 2 and Bo to seat 1"),
            (bo, "The host will move Hana to seat 2 and you to seat 1"),
            (watcher, "The host will move Hana to seat 2 and Bo to seat 1"),
        ):
            assert (await client.recv_type("notice"))["text"] == text + later
        # Hana's page holds seat 0 to the end of the match: only ever seat 0's view.
        await hana.send({"type": "sync"})
        assert (await hana.recv_type("sync"))["view"]["seat"] == 0
        await _play_out(hana, bo)
        assert hana.seat == 0 and not any(m["type"] == "welcome" for m in hana.log[1:])
        assert {m["view"]["seat"] for m in hana.log if "view" in m} == {0}
        assert [s["name"] for s in server.table(tid)["seats"]] == ["Hana", "Bo"]

        # The next match: the move is made, each socket gets its new seat and its hand.
        rematch = server.http.post(f"/api/tables/{tid}/rematch", headers=_auth(host))
        assert rematch.status_code == 200, rematch.text
        for client, seat, text in (
            (hana, 1, "The host moved you to seat 2 and Bo to seat 1."),
            (bo, 0, "The host moved Hana to seat 2 and you to seat 1."),
        ):
            assert (await client.recv_type("welcome"))["seat"] == seat
            sync = await client.recv_type("sync")
            assert sync["match"] == 2 and sync["view"]["seat"] == seat
            assert (await client.recv_type("notice"))["text"] == text
        assert [s["name"] for s in server.table(tid)["seats"]] == ["Bo", "Hana"]
        again = await _seated(server, tid, hana.token, "Hana")
        assert again.seat == 1
        for client in (hana, bo, watcher, again):
            await client.close()

    run(main())


def test_the_host_cannot_take_a_finished_matchs_result(server: ServerThread) -> None:
    """After the match, the host moves into the other player's seat: the result stays
    with the people who played it until the next match deals."""
    tid, host, tokens = _two_open_seats(server)

    async def main() -> None:
        hana = await _seated(server, tid, tokens[0], "Hana")
        bo = await _seated(server, tid, tokens[1], "Bo")
        await _play_out(hana, bo)
        over = server.wait_for(tid, "over")
        moved = server.http.post(
            f"/api/tables/{tid}/seats/0/move", json={"to": 1}, headers=_auth(host)
        )
        assert moved.status_code == 200, moved.text
        await hana.recv_type("notice")
        after = server.table(tid)
        assert after["outcome"] == over["outcome"] and after["seats"] == over["seats"]
        await hana.send({"type": "sync"})
        sync = await hana.recv_type("sync")
        assert sync["view"]["seat"] == 0 and sync["view"]["match"]["outcome"]
        assert not any(m["type"] == "welcome" for m in hana.log[1:])
        for client in (hana, bo):
            await client.close()

    run(main())


def test_a_move_before_the_match_carries_the_invitation_too(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=["open", "open", "random"])
    tid, host = created["table"]["id"], created["host_token"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        ann = await _seated(server, tid, tokens[0], "Ann")
        moved = server.http.post(
            f"/api/tables/{tid}/seats/0/move", json={"to": 2}, headers=_auth(host)
        )
        assert moved.status_code == 200, moved.text
        assert [s["kind"] for s in moved.json()["seats"]] == ["bot", "open", "player"]
        assert (await ann.recv_type("welcome"))["seat"] == 2
        notice = await ann.recv_type("notice")
        assert notice["text"] == "The host moved you to seat 3 and the bot to seat 1."
        # The open seat's invitation still opens that (unmoved) seat; the match starts.
        joined = server.http.post(
            f"/api/tables/{tid}/join", json={"token": tokens[1], "name": "Bo"}
        ).json()
        assert joined["seat"] == 1
        sync = await ann.recv_type("sync")
        assert sync["view"]["seat"] == 2
        await ann.close()

    run(main())


def test_bot_and_reopen_tell_the_holder_before_letting_go(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=["open", "open", "open"])
    tid, host = created["table"]["id"], created["host_token"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        ann = await _seated(server, tid, tokens[0], "Ann")
        bo = await _seated(server, tid, tokens[1], "Bo")
        cy = await _seated(server, tid, tokens[2], "Cy")
        assert ann.token is not None and bo.token is not None
        botted = server.http.put(
            f"/api/tables/{tid}/seats/0", json={"bot": "random"}, headers=_auth(host)
        )
        assert botted.status_code == 200 and botted.json()["invite"] is None
        refused = await ann.recv_type("error")
        assert refused["code"] == "bad_token"
        assert refused["reason"] == "The host gave your seat to a bot."
        with pytest.raises(ConnectionClosed) as closed:
            await ann.recv_type("never", timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
        for other in (bo, cy):
            assert (await other.recv_type("notice"))["text"] == "The host gave Ann's seat to a bot."
        reopened = server.http.put(f"/api/tables/{tid}/seats/1", json={}, headers=_auth(host))
        body = reopened.json()
        assert reopened.status_code == 200 and body["invite"].endswith(f"#token={body['token']}")
        refused = await bo.recv_type("error")
        assert refused["reason"] == "The host opened your seat for someone else."
        notice = await cy.recv_type("notice")
        assert notice["text"] == "The host opened Bo's seat for someone else."
        # The old tokens open nothing; the new invitation opens the seat.
        for old in (ann.token, bo.token):
            tried = server.http.post(f"/api/tables/{tid}/join", json={"token": old})
            assert tried.status_code == 403
        newcomer = await _seated(server, tid, body["token"], "Di")
        assert newcomer.seat == 1 and server.table(tid)["seats"][1]["name"] == "Di"
        for client in (bo, cy, newcomer):
            await client.close()

    run(main())


def test_refusals_are_clear_and_change_nothing(server: ServerThread) -> None:
    created = server.create(game="pitty-pat", seats=["open", "random", "open"])
    tid, host = created["table"]["id"], created["host_token"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    server.http.post(f"/api/tables/{tid}/join", json={"token": tokens[0], "name": "Ann"})
    before = server.table(tid)["seats"]
    auth = _auth(host)
    cases: list[tuple[str, str, dict[str, Any], int, str]] = [
        ("PUT", "seats/1/name", {"name": "Robo"}, 400, "Bix is a bot"),
        ("PUT", "seats/2/name", {"name": "Nobody"}, 400, "Seat 3 is an open seat"),
        ("PUT", "seats/0/name", {"name": " \u0007 "}, 400, "printable"),
        ("PUT", "seats/0/name", {"name": ""}, 422, ""),
        ("PUT", "seats/0/name", {"name": "Ann", "seat": 1}, 422, ""),
        ("PUT", "seats/5/name", {"name": "Ann"}, 400, "there is no seat 5"),
        ("POST", "seats/0/move", {"to": 0}, 400, "Ann is in that seat already"),
        ("POST", "seats/2/move", {"to": 2}, 400, "in that seat already"),
        ("POST", "seats/0/move", {"to": 7}, 400, "there is no seat 7"),
        ("POST", "seats/0/move", {"to": 16}, 422, ""),
        ("POST", "seats/0/move", {"to": "1"}, 422, ""),
        ("POST", "seats/0/move", {}, 422, ""),
    ]
    for method, path, body, status, words in cases:
        response = server.http.request(method, f"/api/tables/{tid}/{path}", json=body, headers=auth)
        assert response.status_code == status, (path, body, response.text)
        assert words in str(response.json()["detail"])
        assert server.table(tid)["seats"] == before
    # Someone else's token: 403, whatever the call.
    for token in (None, tokens[2], "nonsense", host + "x"):
        for method, path, body in (
            ("PUT", "seats/0/name", {"name": "Eve"}),
            ("POST", "seats/0/move", {"to": 2}),
            ("PUT", "seats/0", {"bot": "random"}),
        ):
            response = server.http.request(
                method, f"/api/tables/{tid}/{path}", json=body, headers=_auth(token)
            )
            assert response.status_code == 403, (token, path)
    assert server.table(tid)["seats"] == before
    # Two open seats: nobody to move.
    server.http.put(f"/api/tables/{tid}/seats/0", json={}, headers=auth)
    both_open = server.http.post(f"/api/tables/{tid}/seats/0/move", json={"to": 2}, headers=auth)
    assert both_open.status_code == 400 and "nobody to move" in both_open.json()["detail"]
    # A closed table's seats stay as they are.
    server.http.post(f"/api/tables/{tid}/join", json={"token": tokens[2], "name": "Cy"})
    assert server.http.delete(f"/api/tables/{tid}", headers=auth).status_code == 200
    closed = server.table(tid)["seats"]
    for method, path, body in (
        ("PUT", "seats/2/name", {"name": "Cyd"}),
        ("POST", "seats/2/move", {"to": 1}),
    ):
        response = server.http.request(method, f"/api/tables/{tid}/{path}", json=body, headers=auth)
        assert response.status_code == 400 and "closed" in response.json()["detail"]
    assert server.table(tid)["seats"] == closed
    assert server.http.put("/api/tables/nope/seats/0/name", json={"name": "X"}).status_code == 404
