"""The tournament's pages as its readers are shown them (server/tournaments/shown.py):
the log is kept and deflated as it grows, a line an entry, and written again whole when
the past changes (a correction, an entry taken back). Whatever the entries, a page is
the same bytes as the event written from scratch, and its gzip is that page."""

from __future__ import annotations

import asyncio
import gzip
import itertools
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from pitkit.server.store.storage import json_text
from pitkit.server.tournaments.shown import Shown
from pitkit.tournaments.log import RefusedError
from tests.tournaments.desk import PLAYERS, Desk

TABLE = PLAYERS[:5]
HEAD = {"id": "e1", "me": {"role": "public", "name": None}}

# A step: a hand entered (its order, by turning the table), a hand corrected (the
# n-th hand entered so far, a new order), or the last entry taken back.
STEPS = st.one_of(
    st.tuples(st.just("hand"), st.integers(0, 4)),
    st.tuples(st.just("fix"), st.integers(0, 30), st.integers(0, 4)),
    st.tuples(st.just("back")),
)


def from_scratch(desk: Desk, own: dict[str, Any]) -> bytes:
    """The page written whole: the log, the public view with the reader's own keys,
    the head."""
    tournament = desk.tournament
    view = {**tournament.kind.view(tournament.state), **own}
    return json_text({"log": tournament.log(), "view": view, **HEAD}).encode()


def shown(kept: Shown, desk: Desk, own: dict[str, Any]) -> bytes:
    """The page as the kept pages give it, checked against its gzip."""
    page = asyncio.run(kept.page(desk.tournament, HEAD, own))
    assert gzip.decompress(page.gzipped()) == page.plain()
    # As an entry's answer holds it, among other keys (`web/tournaments._with_event`).
    before, after = b'{"event":', b',"entry":{"type":"a"}}'
    assert gzip.decompress(page.gzipped(before, after)) == before + page.plain() + after
    return page.plain()


def a_desk() -> Desk:
    desk = Desk()
    for name in TABLE:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=TABLE)
    return desk


def take(desk: Desk, step: tuple[Any, ...], hands: list[int]) -> None:
    """Make the step's entry, if the tournament takes it."""
    ann = desk.by["Ann"]
    tournament = desk.tournament
    try:
        if step[0] == "hand":
            order = TABLE[step[1] :] + TABLE[: step[1]]
            hands.append(desk.ok(ann, "hand", game=1, hand=len(hands) + 1, order=order).seq)
        elif step[0] == "fix" and hands:
            n = step[1] % len(hands)
            order = TABLE[step[2] :] + TABLE[: step[2]]
            desk.enter(ann, "hand", corrects=hands[n], game=1, hand=n + 1, order=order)
        elif step[0] == "back" and len(tournament.entries) > len(TABLE) + 1:
            last = tournament.entries[-1]
            tournament.take_back(last)
            if hands and hands[-1] == last.seq:
                hands.pop()
    except RefusedError:
        pass  # a hand past the sheet's end, a correction the sheet refuses: nothing changed


@settings(max_examples=40, deadline=None)
@given(st.lists(STEPS, max_size=14))
def test_a_page_is_the_event_written_from_scratch(steps: list[tuple[Any, ...]]) -> None:
    desk = a_desk()
    kept = Shown()
    hands: list[int] = []
    for own in itertools.chain([{}], ({"mine": i} for i in range(len(steps)))):
        assert shown(kept, desk, own) == from_scratch(desk, own)
        if steps:
            take(desk, steps.pop(0), hands)
    assert shown(kept, desk, {}) == from_scratch(desk, {})


def test_a_correction_is_shown_on_the_line_it_corrects() -> None:
    """The log is written again when an entry corrects an earlier one: the earlier
    line now names it (a line kept from before would not)."""
    desk = a_desk()
    kept = Shown()
    ann = desk.by["Ann"]
    wrong = desk.ok(ann, "hand", game=1, hand=1, order=TABLE).seq
    shown(kept, desk, {})
    fixed = desk.enter(ann, "hand", corrects=wrong, game=1, hand=1, order=TABLE[::-1]).seq
    log = orjson.loads(shown(kept, desk, {}))["log"]
    assert next(line for line in log if line["seq"] == wrong)["corrected_by"] == [fixed]
