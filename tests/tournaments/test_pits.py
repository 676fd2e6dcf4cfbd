"""The BGA continuous Pits tournament's rules (P10), without a server: who may enter
what, refusals that change nothing, corrections. The evening end to end, through
HTTP, is tests/server/test_events.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from pitkit.games.pits.sheet import Standing
from pitkit.tournaments.log import PUBLIC_ACTOR, ForbiddenError, RefusedError
from tests.tournaments.desk import PLAYERS, Desk


def test_who_may_enter_what() -> None:
    desk = Desk()
    for name in PLAYERS:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5])
    order = PLAYERS[:5]
    bob, ann = desk.by["Bob"], desk.by["Ann"]
    assert "scorer" in desk.refused(ForbiddenError, bob, "hand", game=1, hand=1, order=order)
    assert "manager" in desk.refused(ForbiddenError, ann, "add_player", name="Zed")
    assert "themselves" in desk.refused(ForbiddenError, bob, "sign", game=1, player="Cat")
    assert "public" in desk.refused(
        ForbiddenError, PUBLIC_ACTOR, "hand", game=1, hand=1, order=order
    )


def test_bad_entries_are_refused_and_change_nothing() -> None:
    desk = Desk()
    for name in PLAYERS:
        desk.add(name)
    table = PLAYERS[:5]
    manager = desk.manager
    assert "5 different" in desk.refused(RefusedError, manager, "start_game", players=PLAYERS[:4])
    assert "roster" in desk.refused(
        RefusedError, manager, "start_game", players=[*table[:4], "Zed"]
    )
    assert "already" in desk.refused(RefusedError, manager, "add_player", name="ann")
    desk.ok(manager, "start_game", players=table)
    assert "playing game 1" in desk.refused(
        RefusedError, manager, "start_game", players=[*table[1:], "Fay"]
    )
    ann = desk.by["Ann"]
    # Finishing orders that cannot be: someone twice, someone not at the table, too few.
    twice = ["Ann", "Ann", "Cat", "Dan", "Eve"]
    assert "once each" in desk.refused(RefusedError, ann, "hand", game=1, hand=1, order=twice)
    stranger = ["Ann", "Bob", "Cat", "Dan", "Gus"]
    assert "five at the table" in desk.refused(
        RefusedError, ann, "hand", game=1, hand=1, order=stranger
    )
    assert "once each" in desk.refused(RefusedError, ann, "hand", game=1, hand=1, order=table[:4])
    assert "no game 7" in desk.refused(RefusedError, ann, "hand", game=7, hand=1, order=table)
    first = desk.ok(ann, "hand", game=1, hand=1, order=table).seq
    # The same hand entered twice.
    again = desk.refused(RefusedError, ann, "hand", game=1, hand=1, order=table)
    assert f"entered already (entry #{first})" in again
    # A sign before ruling off; before ten hands only the manager rules the sheet off.
    assert "ruled off before" in desk.refused(
        RefusedError, desk.by["Bob"], "sign", game=1, player="Bob"
    )
    assert "only the manager" in desk.refused(ForbiddenError, ann, "rule_off", game=1)
    # A quit before ten hands needs a replacement from the roster.
    assert "replacement" in desk.refused(RefusedError, manager, "quit", game=1, player="Eve")
    # A signature from someone not at the table.
    desk.ok(manager, "rule_off", game=1)
    assert "not at the table" in desk.refused(RefusedError, manager, "sign", game=1, player="Gus")
    assert "not at the table" in desk.refused(
        RefusedError, desk.by["Gus"], "sign", game=1, player="Gus"
    )
    assert "ruled off" in desk.refused(RefusedError, ann, "hand", game=1, hand=2, order=table)


def test_a_correction_replaces_a_hand_and_keeps_the_original() -> None:
    desk = Desk()
    for name in PLAYERS[:5]:
        desk.add(name)
    table = PLAYERS[:5]
    desk.ok(desk.manager, "start_game", players=table)
    ann = desk.by["Ann"]
    wrong = desk.ok(ann, "hand", game=1, hand=1, order=table).seq
    desk.ok(ann, "hand", game=1, hand=2, order=table)
    right = list(reversed(table))
    fixed = desk.enter(ann, "hand", corrects=wrong, game=1, hand=1, order=right)
    event = desk.read()
    hands = event["view"]["games"][0]["hands"]
    assert hands[0]["order"] == right and hands[1]["order"] == table
    assert event["view"]["games"][0]["points"] == {"Ann": 2, "Bob": 1, "Cat": 0, "Dan": 1, "Eve": 2}
    original = next(e for e in event["log"] if e["seq"] == wrong)
    assert original["data"]["order"] == table  # nothing overwritten
    assert original["corrected_by"] == [fixed.seq]
    # A correction that breaks the sheet is refused; so is correcting a roster entry.
    desk.refused(RefusedError, ann, "hand", corrects=wrong, game=1, hand=1, order=table[:3])
    desk.refused(RefusedError, desk.manager, "add_player", corrects=1, name="Zed")


def test_a_ruled_off_sheet_and_a_sheet_played_online_take_no_hand_by_hand() -> None:
    # A ruled-off sheet's hands stand as signed; an online game's hands come from its table.
    desk = Desk()
    for name in PLAYERS:
        desk.add(name)
    table = PLAYERS[:5]
    desk.ok(desk.manager, "start_game", players=table)
    first = desk.ok(desk.by["Ann"], "hand", game=1, hand=1, order=table).seq
    desk.ok(desk.manager, "rule_off", game=1)
    assert "ruled off" in desk.refused(
        RefusedError, desk.manager, "hand", corrects=first, game=1, hand=1, order=table[::-1]
    )
    desk.ok(desk.manager, "start_game", players=["Fay", "Gus", *table[:3]])
    assert "10 to 100" in desk.refused(RefusedError, desk.manager, "open_table", game=2, hands=9)
    assert "server" in desk.refused(RefusedError, desk.manager, "open_table", game=2)
    desk.ok(desk.manager, "open_table", game=2, table_id="t1")
    assert desk.view()["games"][1]["online"] == "t1"
    order = ["Fay", "Gus", *table[:3]]
    assert "online" in desk.refused(
        RefusedError, desk.by["Fay"], "hand", game=2, hand=1, order=order
    )


def _quadratic_ranks(lines: list[Standing], key: Callable[[Standing], float]) -> list[Any]:
    """The prize tables' ranks as first written, comparing every line with every other:
    the reference the ranking in O(n log n) must agree with."""
    return [
        (
            line.player,
            1 + sum(1 for other in lines if key(other) > key(line)),
            sum(1 for other in lines if key(other) == key(line)) > 1,
        )
        for line in lines
    ]


@pytest.mark.parametrize("seed", range(4))
def test_a_random_evening_is_ranked_as_by_comparing_every_player_with_every_other(
    seed: int,
) -> None:
    rng = random.Random(seed)
    desk = Desk()
    names = [f"P{i}" for i in range(40)]
    for name in names:
        desk.add(name)
    state = desk.tournament.state
    for _ in range(600):
        free = [p for p in names if not any(p in g.table and not g.ruled_off for g in _games(desk))]
        open_games = [n for n, g in enumerate(_games(desk), 1) if not g.ruled_off]
        move = rng.random()
        if len(free) >= 5 and (move < 0.15 or not open_games):
            desk.ok(desk.manager, "start_game", players=rng.sample(free, 5))
        elif open_games:
            number = rng.choice(open_games)
            game = _games(desk)[number - 1]
            if move < 0.85 or (move > 0.9 and len(game.hands) < 10 and move < 0.99):
                order = rng.sample(game.table, 5)
                desk.ok(desk.manager, "hand", game=number, hand=len(game.hands) + 1, order=order)
            elif move < 0.9 and free and not game.complete:
                fresh = [p for p in free if p not in game.players]
                if fresh:
                    leaving = rng.choice(game.table)
                    desk.ok(
                        desk.manager,
                        "quit",
                        game=number,
                        player=leaving,
                        replacement=rng.choice(fresh),
                    )
            else:
                desk.ok(desk.manager, "rule_off", game=number)
        for player in names:  # who sits where: as found by looking at every game
            at = [n for n, g in enumerate(_games(desk), 1) if not g.ruled_off and player in g.table]
            assert state.playing(player) == (at[0] if at else None)
    sheet = state.sheet
    seen = dict.fromkeys(p for g in sheet.games for p in g.players)
    assert sheet.standings() == [sheet.standing(p) for p in seen]
    shown = desk.view()["standings"]
    for table, lines, key in (
        ("points", sheet.most_points(), lambda s: s.points),
        ("percentage", sheet.best_percentage(), lambda s: s.percentage),
    ):
        ranked = [(line["player"], line["rank"], line["tied"]) for line in shown[table]]
        assert ranked == _quadratic_ranks(lines, key)
    assert any(line["tied"] for line in shown["points"])


def _games(desk: Desk) -> list[Any]:
    games: list[Any] = desk.tournament.state.sheet.games
    return games
