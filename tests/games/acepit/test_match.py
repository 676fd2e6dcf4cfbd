"""A game of Ace Pit: 11 hands, alternating deal, hidden running scores (A1, A6)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pitkit.core import BadOptionError, Match, Outcome
from pitkit.games import acepit, get
from pitkit.games.acepit import AcePitHand, AcePitMatch, Rules

GAME = acepit.GAME


def play_random(match: Match[Any, Any], seed: int) -> list[str]:
    """Play `match` out at random; return every view's JSON along the way."""
    rng = random.Random(seed)
    views = []
    while not match.is_over:
        seat = next(iter(match.to_act))
        views.append(json.dumps(match.view(seat)))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    return views


def test_registered_as_ace_pit_for_two_players() -> None:
    assert get("ace-pit") is GAME
    with pytest.raises(BadOptionError, match="2-2 players"):
        GAME.new_match(3, seed=1)


def test_eleven_hands_with_alternating_deal() -> None:
    match = GAME.new_match(seed=9)
    assert isinstance(match, AcePitMatch)
    first = match.dealer
    dealers: list[tuple[AcePitHand, int]] = []
    rng = random.Random(2)
    while not match.is_over:
        seat = next(iter(match.to_act))
        hand = acepit.current_hand(match)
        if not dealers or dealers[-1][0] is not hand:
            dealers.append((hand, hand.dealer))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    assert len(match.results) == 11
    assert [d for _, d in dealers] == [(first + i) % 2 for i in range(11)]
    # The non-dealer leads the first trick of each hand.
    assert all(hand.tricks[0].leader == 1 - dealer for hand, dealer in dealers)


def test_the_totals_are_the_sum_of_the_hands_and_the_most_wins() -> None:
    match = GAME.new_match(seed=3)
    play_random(match, 3)
    outcome = match.outcome
    assert outcome is not None
    assert match.scores == [sum(int(r.points[s]) for r in match.results) for s in (0, 1)]
    assert list(outcome.points) == [float(s) for s in match.scores]
    assert outcome.ranks == Outcome.ranking(outcome.points)
    assert outcome.detail["hands"] == 11


def test_equal_totals_are_a_draw() -> None:
    match = GAME.new_match(seed=1)
    match.results = [match.results[0] if match.results else None] * 11  # type: ignore[list-item]
    match.scores = [420, 420]
    outcome = match.match_outcome()
    assert outcome is not None and outcome.is_draw
    assert outcome.summary == "a draw at 420 each after 11 hands"


def test_the_hands_option() -> None:
    match = GAME.new_match(rules={"hands": 2}, seed=5)
    play_random(match, 5)
    assert len(match.results) == 2
    with pytest.raises(BadOptionError):
        Rules(hands=0)


def test_hidden_running_score_shows_totals_only_at_the_end() -> None:
    match = GAME.new_match(rules=["hidden_running_score=on"], seed=6)
    views = play_random(match, 6)
    for text in views:
        view = json.loads(text)
        assert view["match"]["scores"] is None
        assert view["match"]["outcome"] is None
        assert all(p["points"] is None for p in view["players"])
        assert all("points" not in t for t in view["tricks"])
    # Nothing in the log reveals a point before the game is over: the last
    # hand's scores event comes once the game is over, and shows the totals.
    last = max(i for i, e in enumerate(match.log) if e.type == "scores")
    assert match.log[last].public["scores"] == match.scores
    before_end = [e.seen_by(0) for e in match.log[:last]]
    for event in before_end:
        assert "points" not in event
        if event["type"] == "scores":
            assert event["scores"] is None
    assert all("scored" not in r.summary for r in match.results)
    final = match.view(0)
    assert final["match"]["scores"] == match.scores
    assert final["match"]["outcome"]["points"] == [float(s) for s in match.scores]


def test_running_scores_are_shown_by_default() -> None:
    match = GAME.new_match(seed=6)
    rng = random.Random(1)
    while len(match.results) < 1:
        seat = next(iter(match.to_act))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    assert match.view(0)["match"]["scores"] == match.scores
    assert sum(match.scores) > 0
