"""A tournament in memory (`pitkit.tournaments.Tournament`): each entry applied to the
state held, the log replayed only when the past changes or a failed entry must be
undone, corrections and voids, new links, and catching up with entries stored
elsewhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from pitkit.tournaments import Tournament, tournament
from pitkit.tournaments.log import (
    NEW_LINK,
    PUBLIC_ACTOR,
    Actor,
    Entry,
    ForbiddenError,
    Online,
    RefusedError,
    replay,
)
from pitkit.tournaments.pits import KIND as PITS
from tests.tournaments.desk import PLAYERS, Desk

MANAGER = Actor("manager")


class Tally:
    """A kind of tournament for these tests: its state is the numbers entered, and
    an entry may fail half-way (``fail``: refused; ``crash``: a KeyError) after
    changing the state."""

    name = "tally"
    title = "Tally"
    links: Mapping[str, str] = {"add": "player"}
    correctable = frozenset({"number"})

    def options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        return dict(given)

    def start(self, options: Mapping[str, Any]) -> list[int]:
        return []

    def check(
        self, state: list[int], actor: Actor, type: str, data: Mapping[str, Any], correcting: bool
    ) -> None:
        if actor.role not in ("manager", "player", "table"):
            raise ForbiddenError("only the manager, the players and the online tables")
        if actor.role == "player" and type != "number":
            raise ForbiddenError("players enter numbers")

    def decide(self, state: list[int], type: str, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"count": len(state)} if type == "number" else {}

    def apply(self, state: list[int], entry: Entry) -> None:
        if entry.type != "number":
            return
        state.append(entry.data["n"])
        if entry.data.get("fail"):
            raise RefusedError("no such number")
        if entry.data.get("crash"):
            raise KeyError("crash")

    def view(self, state: list[int]) -> dict[str, Any]:
        return {"numbers": list(state)}

    def own(self, state: list[int], actor: Actor) -> dict[str, Any]:
        return {}

    def seat_of(self, state: list[int], role: str, name: str) -> str | None:
        return None

    def csv(self, state: list[int]) -> dict[str, str]:
        return {"numbers.csv": "\n".join(map(str, state))}

    def online(self, state: list[int], data: Mapping[str, Any]) -> Online:
        raise RefusedError("nothing online")

    def seat_at(self, state: list[int], table_id: str, name: str) -> int:
        raise ForbiddenError("nothing online")

    def sync(self, state: list[int], table_id: str, match: Any) -> list[tuple[str, dict[str, Any]]]:
        return []

    def vacated(self, state: list[int], entry: Entry) -> list[tuple[str, int]]:
        return []


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each replay of a log by a `Tournament`, as the number of entries replayed."""
    done: list[int] = []

    def counted(kind: Any, options: Any, entries: list[Entry]) -> Any:
        done.append(len(entries))
        return replay(kind, options, entries)

    monkeypatch.setattr(tournament, "replay", counted)
    return done


def test_each_entry_is_applied_to_the_state_held_without_a_replay(replays: list[int]) -> None:
    desk = Desk()
    replays.clear()  # the one replay a tournament is loaded with
    for name in PLAYERS[:5]:
        desk.add(name)
    desk.ok(desk.manager, "start_game", players=PLAYERS[:5])
    for hand in range(1, 8):
        five = PLAYERS[:5]
        desk.ok(
            desk.by["Ann"], "hand", game=1, hand=hand, order=five[hand % 5 :] + five[: hand % 5]
        )
    assert replays == []
    # The state held is the log's: a replay of it shows the same.
    held = desk.tournament
    again = Tournament(PITS, held.options, held.entries)
    assert again.view(PUBLIC_ACTOR) == held.view(PUBLIC_ACTOR)
    # A refusal by the kind's checks needs no replay either.
    replays.clear()
    desk.refused(RefusedError, desk.manager, "add_player", name="ann")
    assert replays == [len(held.entries)]  # the state restored: `apply` refused it


def test_an_entry_that_fails_half_way_changes_nothing(replays: list[int]) -> None:
    held = Tournament(Tally(), {})
    replays.clear()
    held.enter(MANAGER, "number", {"n": 1}, at=1.0)
    with pytest.raises(RefusedError, match="no such number"):
        held.enter(MANAGER, "number", {"n": 2, "fail": True}, at=2.0)
    assert held.state == [1] and held.last == 1
    with pytest.raises(RefusedError, match="this number entry is incomplete"):
        held.enter(MANAGER, "number", {"n": 3, "crash": True}, at=3.0)
    assert held.state == [1] and held.last == 1
    assert replays == [1, 1]  # the state restored, each time
    entry = held.enter(MANAGER, "number", {"n": 4}, at=4.0)
    assert entry == Entry(2, 4.0, "manager", None, "number", {"n": 4, "count": 1})
    assert held.state == [1, 4]


def test_an_entry_the_store_does_not_take_is_taken_back() -> None:
    held = Tournament(Tally(), {})
    first = held.enter(MANAGER, "number", {"n": 1}, at=1.0)
    second = held.enter(MANAGER, "number", {"n": 2}, at=2.0)
    with pytest.raises(ValueError, match="not the last"):
        held.take_back(first)
    held.take_back(second)
    assert held.state == [1] and held.entries == [first]


def test_corrections_and_voids_replay_the_log(replays: list[int]) -> None:
    held = Tournament(Tally(), {})
    replays.clear()
    held.enter(MANAGER, "add", {"name": "Ann"}, at=1.0)
    two = held.enter(MANAGER, "number", {"n": 2}, at=2.0)
    held.enter(MANAGER, "number", {"n": 3}, at=3.0)
    ann = Actor("player", "Ann")
    fixed = held.enter(ann, "number", {"n": 20}, at=4.0, corrects=two.seq)
    assert held.state == [20, 3] and fixed.corrects == two.seq
    assert held.log()[1]["corrected_by"] == [fixed.seq]
    held.enter(MANAGER, "void", {}, at=5.0, corrects=two.seq)
    assert held.state == [3]
    assert replays == [4, 5]  # the log with the correction, then with the void
    assert "no entry #9" in _refused(held, MANAGER, "void", corrects=9)
    assert "no entry #4" in _refused(held, MANAGER, "number", corrects=fixed.seq, n=1)
    assert "an add entry cannot be corrected" in _refused(
        held, MANAGER, "add", corrects=1, name="B"
    )
    assert "corrected by another number" in _refused(held, MANAGER, "add", corrects=3, name="B")
    judge = Actor("judge", "Jo")
    assert "only the manager" in _refused(held, judge, "void", corrects=3, error=ForbiddenError)
    assert "players enter numbers" in _refused(held, ann, "add", name="B", error=ForbiddenError)
    assert "public view" in _refused(held, PUBLIC_ACTOR, "number", n=5, error=ForbiddenError)


def test_what_an_online_table_entered_only_the_manager_corrects() -> None:
    # Whatever the kind lets a player or a judge correct, an online table's entry is
    # what was played there: only the manager's ruling replaces or strikes it.
    played = Entry(1, 1.0, "table", "t1", "number", {"n": 5})
    held = Tournament(Tally(), {}, [played])
    ann = Actor("player", "Ann")
    why = _refused(held, ann, "number", corrects=1, n=6, error=ForbiddenError)
    assert why == (
        "entry #1 was entered by the online table, as played there: "
        "only the manager may correct it or strike it out"
    )
    assert "online table" in _refused(held, ann, "void", corrects=1, error=ForbiddenError)
    held.enter(MANAGER, "number", {"n": 6}, at=2.0, corrects=1)
    assert held.state == [6]


def test_text_with_a_control_character_is_refused_from_people_only() -> None:
    held = Tournament(Tally(), {})
    why = _refused(held, MANAGER, "add", name="Ann\u0000Lee")
    assert why == (
        "there is an invisible control character (U+0000) in the name: names and notes "
        "take printable characters only; type it again without it"
    )
    assert "U+202E) in the names" in _refused(held, MANAGER, "add", names=["Ann", "\u202eB"])
    odd: dict[str, Any] = {"na\u0007me": "Ann"}
    assert "in a field's name" in _refused(held, MANAGER, "add", **odd)
    # An online table is not a person: it enters the names on the roster as they are.
    held.enter(Actor("table", "t1"), "number", {"n": 1, "by": "Old\u0000Name"}, at=1.0)
    assert held.state == [1]


def test_a_new_link_names_someone_who_has_one_and_changes_nothing_else() -> None:
    held = Tournament(Tally(), {})
    added = held.enter(MANAGER, "add", {"name": "Ann"}, at=1.0)
    assert held.link_made(added) == ("player", "Ann")
    ann = Actor("player", "Ann")
    assert "only the manager" in _refused(
        held, ann, NEW_LINK, role="player", name="Ann", error=ForbiddenError
    )
    assert "no player named 'Zed'" in _refused(held, MANAGER, NEW_LINK, role="player", name="Zed")
    assert "cannot be corrected" in _refused(
        held, MANAGER, NEW_LINK, corrects=1, role="player", name="Ann"
    )
    link = held.enter(MANAGER, NEW_LINK, {"role": "player", "name": "Ann"}, at=2.0)
    assert held.link_made(link) == ("player", "Ann") and held.state == []
    assert held.link_made(held.enter(MANAGER, "number", {"n": 1}, at=3.0)) is None


def test_catching_up_applies_entries_stored_elsewhere(replays: list[int]) -> None:
    here = Tournament(Tally(), {})
    there = Tournament(Tally(), {})
    made = [there.enter(MANAGER, "number", {"n": n}, at=float(n)) for n in (1, 2, 3)]
    replays.clear()
    here.catch_up(made[:2])
    here.catch_up(made[2:])
    assert here.state == [1, 2, 3] and replays == []
    fix = there.enter(MANAGER, "number", {"n": 9}, at=4.0, corrects=1)
    more = there.enter(MANAGER, "number", {"n": 4}, at=5.0)
    here.catch_up([fix, more])
    assert here.state == there.state == [9, 2, 3, 4]
    with pytest.raises(ValueError, match="does not follow"):
        here.catch_up([made[0]])


def _refused(
    held: Tournament,
    actor: Actor,
    type: str,
    corrects: int | None = None,
    error: type[Exception] = RefusedError,
    **data: Any,
) -> str:
    """Make an entry that must be refused, changing nothing; the reason."""
    before = (list(held.entries), held.view(PUBLIC_ACTOR))
    with pytest.raises(error) as refusal:
        held.enter(actor, type, data, at=9.0, corrects=corrects)
    assert (held.entries, held.view(PUBLIC_ACTOR)) == before
    return str(refusal.value)
