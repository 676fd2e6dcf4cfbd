"""Publishing an event's results (issue 35): ``GET /e/<id>/publish`` is one HTML file that
stands alone (styles in its elements, no script, no link but the event's page, every
name escaped) and ``/e/<id>/publish.csv`` the same tables, every cell spreadsheet-safe;
both public, and nothing in them but what the public view shows (no link's secret)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pitkit.core.export import FORMULA_STARTS
from pitkit.server.ops.settings import database_url
from tests.server.conftest import FAST, ServerThread
from tests.server.test_events import Desk

SCRIPT = "<script>alert(1)</script>"
FORMULA = '=HYPERLINK("http://x.example","prize")'
NAMES = ["Ann", SCRIPT, FORMULA, "+cmd", "@SUM(1+1)", "Fay"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    s = ServerThread(tmp_path, FAST, database=database_url(str(tmp_path), None))
    yield s
    s.stop()


class Tags(HTMLParser):
    """Every element and attribute of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def pits_evening(server: ServerThread) -> Desk:
    """A Pits game of five hostile names, three hands in, with clubs."""
    desk = Desk(server)
    rows = "\n".join(
        f'"{n.replace(chr(34), chr(34) * 2)}",{club}'
        for n, club in zip(NAMES, ["Leeds", "=1+1", "York", "", "Hull", ""], strict=True)
    )
    made = server.http.post(
        f"/api/events/{desk.id}/roster",
        json={"csv": "name,club\n" + rows},
        headers={"Authorization": f"Bearer {desk.manager}"},
    )
    assert made.status_code == 201, made.text
    five = NAMES[:5]
    desk.ok(desk.manager, "start_game", players=five, table="Table <A>", scorer="Ann")
    for hand in range(1, 4):
        order = five[hand:] + five[:hand]
        desk.ok(desk.manager, "hand", game=1, hand=hand, order=order)
    return desk


def test_the_published_page_stands_alone_and_shows_every_name_as_text(server: ServerThread) -> None:
    desk = pits_evening(server)
    page = server.http.get(f"/e/{desk.id}/publish")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = page.text
    parsed = Tags()
    parsed.feed(text)
    tags = {tag for tag, _ in parsed.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "style", "form", "base"}
    links = [attrs.get("href") for tag, attrs in parsed.tags if tag == "a"]
    assert links == [f"{server.base}/e/{desk.id}"]  # the only link: back to the event
    assert not any(k.startswith("on") for _, attrs in parsed.tags for k in attrs)
    shown = "".join(parsed.text)
    for name in NAMES[:5]:
        assert name in shown  # as text, exactly as typed
    assert "Table <A>" in shown and "Leeds" in shown and "&lt;script&gt;" in text
    assert "Most points" in shown and "Best percentage" in shown and "Game 1 · Table <A>" in shown
    # Nothing but the public view: no link's secret, code or the log.
    assert desk.manager not in text
    assert "token" not in text and "idempotency" not in text


def test_the_published_csv_is_every_table_with_every_cell_safe(server: ServerThread) -> None:
    desk = pits_evening(server)
    answer = server.http.get(f"/e/{desk.id}/publish.csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(answer.text)))
    cells = [c for row in rows for c in row]
    assert not [c for c in cells if c.startswith(FORMULA_STARTS)]
    assert (
        "'" + FORMULA in cells and "'+cmd" in cells and "'@SUM(1+1)" in cells and "'=1+1" in cells
    )
    assert ["Most points"] in rows and ["Game 1 · Table <A>"] in rows
    header = rows[rows.index(["Most points"]) + 2]
    assert header == [
        "Rank",
        "Player",
        "Club",
        "Points",
        "Games",
        "Full games",
        "Hands",
        "Percentage",
    ]
    assert desk.manager not in answer.text


def test_a_pitch_tournament_publishes_its_go_rounds_and_pads(server: ServerThread) -> None:
    desk = Desk(server, "pitch-tournament")
    for name in ("Ann", "Bob", "Cat", SCRIPT):
        desk.add(name)
    desk.ok(desk.manager, "add_judge", name="Jo")
    desk.ok(desk.manager, "seat_round", by="standing", judges=["Jo"])
    desk.ok(desk.manager, "cut", round=1, table=1, dealer="Ann")
    text = server.http.get(f"/e/{desk.id}/publish").text
    parsed = Tags()
    parsed.feed(text)
    shown = "".join(parsed.text)
    assert "The final: standings" in shown and "The final, table 1" in shown and SCRIPT in shown
    assert not {tag for tag, _ in parsed.tags} & {"script", "style", "link"}
    assert server.http.get(f"/e/{desk.id}/publish.csv").status_code == 200


def test_publishing_an_unknown_event_is_404(server: ServerThread) -> None:
    assert server.http.get("/e/nothing/publish").status_code == 404
    assert server.http.get("/e/nothing/publish.csv").status_code == 404
