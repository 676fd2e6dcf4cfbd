"""The host's powers over seats: rename a player, move (swap) two seats, put a bot in
a seat or open it for someone else. The seat's holder is told in words, and so is
everyone else; a moved player's page gets the new seat's view and nothing of the old;
refusals change nothing; only the host token may do any of it."""

from __future__ import annotations

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
        renamed = server.http.put(
            f"/api/tables/{tid}/seats/0/name", json={"name": "  Ann B.\u0007 "}, headers=_auth(host)
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


def test_a_moved_player_sees_the_new_seats_hand_and_nothing_of_the_old(
    server: ServerThread,
) -> None:
    created = server.create(game="ace-pit", seats=["open", "open"])
    tid, host = created["table"]["id"], created["host_token"]
    tokens = [s["token"] for s in created["seats"]]

    async def main() -> None:
        ann = await _seated(server, tid, tokens[0], "Ann")
        bo = await _seated(server, tid, tokens[1], "Bo")
        watcher = await _seated(server, tid, None, "W")
        for client in (ann, bo, watcher):
            await client.recv_type("sync")
        assert ann.view is not None and bo.view is not None and watcher.view is not None
        hands = {0: set(ann.view["hand"]), 1: set(bo.view["hand"])}
        public = _cards(watcher.view)
        assert hands[0] - public, "seat 0 holds cards only it may see"
        moved = server.http.post(
            f"/api/tables/{tid}/seats/0/move", json={"to": 1}, headers=_auth(host)
        )
        assert moved.status_code == 200, moved.text
        assert [s["name"] for s in moved.json()["seats"]] == ["Bo", "Ann"]
        # Each moved socket: its new seat, then that seat's full view, then the words.
        for client, seat, mine, theirs, text in (
            (ann, 1, 1, 0, "The host moved you to seat 2 and Bo to seat 1."),
            (bo, 0, 0, 1, "The host moved Ann to seat 2 and you to seat 1."),
        ):
            welcome = await client.recv_type("welcome")
            assert welcome["seat"] == seat and client.seat == seat
            sync = await client.recv_type("sync")
            assert sync["view"]["seat"] == seat
            assert set(sync["view"]["hand"]) == hands[mine]
            assert not (_cards(sync["view"]) & (hands[theirs] - public))
            assert (await client.recv_type("notice"))["text"] == text
        notice = await watcher.recv_type("notice")
        assert notice["text"] == "The host moved Ann to seat 2 and Bo to seat 1."
        # Ann's token goes with her: a new device of hers opens seat 1 (index), her new seat.
        again = await _seated(server, tid, ann.token, "Ann")
        assert again.seat == 1
        await again.recv_type("sync")
        assert again.view is not None and set(again.view["hand"]) == hands[1]
        # And her socket plays the new seat's hand.
        mover = ann if 1 in ann.to_act else bo
        await mover.send({"type": "act", "action": mover.legal[0], "version": mover.version})
        assert (await mover.recv_type("ack"))["version"] == 1
        for client in (ann, bo, watcher, again):
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
