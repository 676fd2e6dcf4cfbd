"""The core interface: rule options, actions, events, chance and logs."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import ClassVar, Literal

import pytest

from pitkit import games
from pitkit.cards import Card, PitCard
from pitkit.core import (
    Action,
    ActionCodec,
    BadActionError,
    BadOptionError,
    Chance,
    Event,
    Outcome,
    ReplayMismatchError,
    RuleSet,
    UnknownNameError,
    option,
    read_log,
    write_log,
)


@dataclass(frozen=True)
class ToyRules(RuleSet):
    flag: bool = option(False, "a switch")
    count: int = option(3, "a number")
    mode: Literal["a", "b"] = option("a", "a choice")
    limit: int | None = option(None, "maybe a number")


def test_options_from_text() -> None:
    rules = ToyRules.from_options(["flag=on", "count=7", "mode=b", "limit=none"])
    assert rules == ToyRules(flag=True, count=7, mode="b", limit=None)
    assert ToyRules.from_options({"limit": "4"}).limit == 4
    assert rules.changed() == {"flag": True, "count": 7, "mode": "b"}
    assert ToyRules.from_options(rules.to_json()) == rules


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (["flag=maybe"], "on or off"),
        (["count=x"], "whole number"),
        (["mode=c"], "one of a, b"),
        (["nope=1"], "unknown option"),
        (["count"], "name=value"),
    ],
)
def test_bad_options_are_refused(pairs: list[str], message: str) -> None:
    with pytest.raises(BadOptionError, match=message):
        ToyRules.from_options(pairs)


def test_options_are_typed_when_built_directly() -> None:
    with pytest.raises(BadOptionError):
        ToyRules(count="3")  # type: ignore[arg-type]
    info = {i.name: i for i in ToyRules.options()}
    assert info["mode"].choices == ("a", "b")
    assert info["limit"].type == "int or none"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.5, "count is a whole number, not 1.5"),
        (float("inf"), "count is a whole number, not inf"),
        (float("nan"), "count is a whole number, not nan"),
        (True, "count is a whole number, not True"),
        ([3], "count is a whole number"),
        ("1.5", "count is a whole number"),
        ("9" * 5000, "count is a whole number"),
        (2**63, "count is out of range"),
        (-(2**63) - 1, "count is out of range"),
        pytest.param(10**5000, "count is out of range", id="10^5000"),
        (1e300, "count is out of range"),
        ("99999999999999999999", "count is out of range"),
        ("7\ud800", "count is not valid text"),
    ],
)
def test_whole_number_options_are_exact(value: object, message: str) -> None:
    # JSON from a server gives real types: nothing is rounded, nothing huge is kept.
    with pytest.raises(BadOptionError, match=re.escape(message)):
        ToyRules.from_options({"count": value})


def test_json_values_must_have_the_options_type() -> None:
    # Text is read only from strings (the CLI's k=v); JSON numbers are not booleans or text.
    with pytest.raises(BadOptionError, match="flag is on or off, not 1"):
        ToyRules.from_options({"flag": 1})
    with pytest.raises(BadOptionError, match="mode is one of a, b, not 1"):
        ToyRules.from_options({"mode": 1})
    with pytest.raises(BadOptionError, match=r"limit is a whole number, not 4\.5"):
        ToyRules.from_options({"limit": 4.5})
    with pytest.raises(BadOptionError, match="option mode is not valid text"):
        ToyRules.from_options({"mode": "\udcff"})  # a CLI argument of undecodable bytes


def test_exact_values_are_accepted_from_json_and_text() -> None:
    # 2.0 is a whole number however a client's JSON spells it.
    assert ToyRules.from_options({"count": 2.0}) == ToyRules(count=2)
    assert ToyRules.from_options({"count": 2**63 - 1, "limit": -(2**63)}) == ToyRules(
        count=2**63 - 1, limit=-(2**63)
    )
    assert ToyRules.from_options(["count= 11 ", "flag=yes", "limit="]) == ToyRules(
        count=11, flag=True
    )
    assert ToyRules.from_options({"count": "11", "flag": "off", "mode": "b"}) == ToyRules(
        count=11, mode="b"
    )
    with pytest.raises(BadOptionError, match=r"cannot be 2\.0"):
        ToyRules(count=2.0)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Play(Action):
    kind: ClassVar[str] = "play"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Offer(Action):
    kind: ClassVar[str] = "offer"
    count: int
    card: PitCard | None = None


CODEC = ActionCodec(Play, Offer)


def test_actions_have_one_text_and_one_json_form() -> None:
    play = Play((Card.parse("AS"), Card.RJ))
    assert str(play) == "play AS RJ"
    assert play.to_json() == {"kind": "play", "cards": ["AS", "RJ"]}
    assert CODEC.parse("play AS, RJ") == play
    assert CODEC.parse(json.loads(json.dumps(play.to_json()))) == play
    offer = Offer(2, PitCard.WHEAT)
    assert str(offer) == "offer 2 wheat"
    assert CODEC.parse("offer 2 wheat") == offer
    assert CODEC.parse({"kind": "offer", "count": 2, "card": "wheat"}) == offer
    assert CODEC.parse("OFFER 3") == Offer(3)
    assert str(Play(())) == "play -" and CODEC.parse("play -") == Play(())


@pytest.mark.parametrize(
    "spelling",
    [
        "",
        "dance",
        "play AX",
        "offer",
        "offer two",
        "offer 2 wheat extra",
        {"kind": "offer"},
        {"cards": []},
        7,
    ],
)
def test_bad_spellings_raise_bad_action(spelling: object) -> None:
    with pytest.raises(BadActionError):
        CODEC.parse(spelling)  # type: ignore[arg-type]
    with pytest.raises(BadActionError, match="unknown fields"):
        CODEC.parse({"kind": "offer", "count": 1, "colour": "red"})


def test_events_split_by_audience() -> None:
    event = Event("deal", {"dealer": 0}, {1: {"hand": "AS"}}, {"order": [1, 0]})
    assert event.seen_by(1) == {"type": "deal", "dealer": 0, "hand": "AS"}
    assert event.seen_by(2) == {"type": "deal", "dealer": 0}
    assert event.seen_by(None) == {"type": "deal", "dealer": 0}
    assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event


def test_chance_is_seeded_recorded_and_replayable() -> None:
    first, second = Chance(5), Chance(5)
    first.sink, second.sink = [], []
    assert first.shuffle(list(range(10))) == second.shuffle(list(range(10)))
    assert first.pick(7) == second.pick(7)
    record = list(first.sink)
    assert [e.type for e in record] == ["shuffle", "pick"]
    assert "order" not in record[0].seen_by(None)  # a shuffle's order is secret
    again = Chance(None, recorded=record)
    assert again.shuffle(list(range(10))) == [record[0].secret["order"][i] for i in range(10)]
    assert again.pick(7) == record[1].public["value"]
    with pytest.raises(ReplayMismatchError):
        Chance(None, recorded=record).pick(3)
    with pytest.raises(ReplayMismatchError):
        Chance(None, recorded=record).shuffle([1, 2])


def test_a_replayed_chance_goes_on_from_its_seed() -> None:
    original = Chance(9)
    original.sink = []
    original.shuffle(list(range(5)))
    tail = original.shuffle(list(range(5)))
    replayed = Chance(9, recorded=original.sink[:1])
    replayed.shuffle(list(range(5)))
    assert replayed.shuffle(list(range(5))) == tail


def test_outcome_ranking() -> None:
    assert Outcome.ranking([10, 7, 7, 3]) == (1, 2, 2, 4)
    outcome = Outcome((1, 2, 1), (2.0, 0.0, 2.0), "tie")
    assert outcome.winners == (0, 2) and not outcome.is_draw


def test_registry() -> None:
    assert "pitty-pat" in games.names()
    assert games.get("pitty-pat").title == "Pitty Pat"
    with pytest.raises(UnknownNameError, match="pitty-pat"):
        games.get("poker")


def test_logs_round_trip(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "x.jsonl"
    game = games.get("pitty-pat")
    match = game.new_match(2, seed=3)
    write_log(path, match.header(), match.log)
    header, events = read_log(path)
    assert header["game"] == "pitty-pat" and header["seed"] == 3
    assert [e.to_json() for e in events] == [e.to_json() for e in match.log]
    path.write_text("not json\n")
    with pytest.raises(ValueError, match="not a pitkit game log"):
        read_log(path)


def test_attempt_is_apply_with_the_reason_returned() -> None:
    match = games.get("pitty-pat").new_match(2, seed=1)
    seat = min(match.to_act)
    other = 1 - seat
    log = list(match.log)
    assert match.attempt(other, match.legal_actions(seat)[0]) == f"seat {other} may not act now"
    assert match.log == log
    events = match.attempt(seat, match.legal_actions(seat)[0])
    assert isinstance(events, list) and events == match.log[len(log) :]
