"""The judge endpoint the table pages use to explain a selection (no browser needed)."""

from __future__ import annotations

from tests.browser.conftest import ServerThread


def test_judge_answers_in_words(server: ServerThread) -> None:
    pits = server.http.post("/api/games/pits/judge", json={"args": ["A A 2", "A 2 2"]})
    assert pits.status_code == 200
    assert pits.json()["verdict"].startswith("Yes:")
    acepit = server.http.post("/api/games/ace-pit/judge", json={"args": ["8H", "7H 9H"]})
    assert "95" in acepit.json()["verdict"]


def test_judge_refusals(server: ServerThread) -> None:
    bad = server.http.post("/api/games/ace-pit/judge", json={"args": ["8H", "3C 4D"]})
    assert bad.status_code == 400
    assert "Pin" in bad.json()["detail"]
    assert server.http.post("/api/games/pit/judge", json={"args": ["x"]}).status_code == 404
    assert server.http.post("/api/games/nope/judge", json={"args": ["x"]}).status_code == 404
    many = server.http.post("/api/games/pits/judge", json={"args": ["3C"] * 9})
    assert many.status_code == 422
    assert server.http.post("/api/games/pits/judge", json={"args": []}).status_code == 422
