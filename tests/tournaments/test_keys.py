"""Idempotency keys (issue 35, bad Wi-Fi): an entry a page sent with a key, sent again
under it, is answered as the entry it made (`Tournament.landed`); other content under
a used key is refused, naming that entry; a key's entry is found after a reload, a
catch-up and a take-back as it is after the entry was made."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitkit.tournaments import KINDS, Tournament
from pitkit.tournaments.log import SENT_FIELD, Actor, Entry, RefusedError, Sent
from tests.tournaments.desk import PLAYERS, Desk

FIVE = PLAYERS[:5]


def a_game() -> Desk:
    desk = Desk()
    for name in FIVE:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=FIVE, table="Table A")
    return desk


def hand(n: int) -> dict[str, Any]:
    return {"game": 1, "hand": n, "order": FIVE[n % 5 :] + FIVE[: n % 5]}


def test_an_entry_sent_again_is_the_entry_it_made() -> None:
    desk = a_game()
    ann = desk.by["Ann"]
    made = desk.tournament.enter(ann, "hand", hand(1), at=5.0, key="first-hand")
    assert made.sent == Sent.of("first-hand", ann, "hand", hand(1), None)
    assert desk.tournament.landed(ann, "first-hand", "hand", hand(1)) is made
    assert desk.tournament.landed(ann, "another-key", "hand", hand(1)) is None


@pytest.mark.parametrize(
    ("who", "data", "corrects"),
    [
        ("Ann", hand(2), None),  # the next hand, under the first hand's key
        ("Bob", hand(1), None),  # someone else, under Ann's key
        ("Ann", hand(1), 6),  # a correction of it, under its own key
    ],
)
def test_other_content_under_a_key_is_refused_naming_its_entry(
    who: str, data: dict[str, Any], corrects: int | None
) -> None:
    desk = a_game()
    made = desk.tournament.enter(desk.by["Ann"], "hand", hand(1), at=5.0, key="first-hand")
    with pytest.raises(RefusedError, match=f"entry #{made.seq} \\(hand by Ann\\)"):
        desk.tournament.landed(desk.by[who], "first-hand", "hand", data, corrects)


def test_the_keys_follow_the_log_through_a_reload_a_catch_up_and_a_take_back() -> None:
    desk = a_game()
    ann = desk.by["Ann"]
    first = desk.tournament.enter(ann, "hand", hand(1), at=5.0, key="first-hand")
    kind, options = desk.tournament.kind, desk.tournament.options
    # Loaded from its log (a restart, another worker).
    loaded = Tournament(kind, options, desk.tournament.entries)
    assert loaded.landed(ann, "first-hand", "hand", hand(1)) == first
    # Caught up with entries another worker stored.
    behind = Tournament(kind, options, desk.tournament.entries[:-1])
    assert behind.landed(ann, "first-hand", "hand", hand(1)) is None
    behind.catch_up([first])
    assert behind.landed(ann, "first-hand", "hand", hand(1)) == first
    # Taken back (the store did not take it): the key is free again.
    second = desk.tournament.enter(ann, "hand", hand(2), at=6.0, key="second-hand")
    desk.tournament.take_back(second)
    assert desk.tournament.landed(ann, "second-hand", "hand", hand(2)) is None


def test_the_field_that_keeps_a_key_is_not_an_entry_s_to_give() -> None:
    desk = a_game()
    before = desk.read()
    with pytest.raises(RefusedError, match="Idempotency-Key"):
        desk.tournament.enter(desk.by["Ann"], "hand", {**hand(1), SENT_FIELD: "x"}, at=5.0)
    assert desk.read() == before


def test_what_is_kept_of_a_key_reads_back_and_nothing_else_does() -> None:
    sent = Sent.of("a-key-of-mine", Actor("player", "Ann"), "hand", hand(1), None)
    assert Sent.from_json(sent.to_json()) == sent
    for other in (
        None,
        "a-key",
        {"key": "k"},
        {"key": 1, "digest": "d"},
        {**sent.to_json(), "x": 1},
    ):
        assert Sent.from_json(other) is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["k-one-1", "k-two-2", "k-three-3"]), st.integers(1, 3)),
        max_size=12,
    )
)
def test_however_entries_are_sent_again_each_key_makes_one_entry(
    sends: list[tuple[str, int]],
) -> None:
    # A phone sends hands 1.. of a game under keys, again and again, in any order: each
    # key's first entry stands, a resend of it is that entry, anything else under it is
    # refused; an entry the game refuses changes nothing.
    found = KINDS["pits-continuous"]
    tally = Tournament(found, found.options({}))
    manager, ann = Actor("manager"), Actor("player", "Ann")
    for name in FIVE:
        tally.enter(manager, "add_player", {"name": name}, at=1.0)
    tally.enter(manager, "start_game", {"players": FIVE}, at=1.0)
    first: dict[str, Entry] = {}
    for key, n in sends:
        before = len(tally.entries)
        try:
            landed = tally.landed(ann, key, "hand", hand(n))
        except RefusedError as refusal:
            assert key in first and f"#{first[key].seq}" in str(refusal)
            assert first[key].data != hand(n)
            continue
        if landed is not None:
            assert landed is first[key] and len(tally.entries) == before
            continue
        assert key not in first
        try:
            first[key] = tally.enter(ann, "hand", hand(n), at=2.0, key=key)
        except RefusedError:
            assert len(tally.entries) == before
    assert set(tally.keys) == set(first)
    assert [e for e in tally.entries if e.sent] == sorted(first.values(), key=lambda e: e.seq)
