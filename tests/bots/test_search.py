"""The generic search bot: budgets and names, sound play, and no peeking."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from pitkit import games
from pitkit.bots import RolloutBot, SearchBot, make, names
from pitkit.bots.search import Budget, SearchSpec, utilities
from pitkit.core import Match, Outcome, UnknownNameError
from pitkit.core.game import Bot
from pitkit.games.pittypat import Draw, MatchCard, Rules
from tests.games.pittypat.helpers import stacked_hand

TURN_BASED = [g.name for g in games.all_games() if not g.realtime]


def advanced(name: str, seed: int, moves: int) -> Match[Any, Any]:
    """A match of `name` after `moves` random moves, stopped where the player
    to act has a real choice."""
    match = games.get(name).new_match(seed=seed)
    rng = random.Random(seed)
    for i in range(10_000):
        seat = min(match.to_act)
        actions = match.legal_actions(seat)
        if i >= moves and len(actions) > 1:
            return match
        match.apply(seat, rng.choice(actions))
    raise AssertionError("no choice came up")


# -- names and budgets -----------------------------------------------------------


def test_budgets_read_from_names() -> None:
    assert SearchSpec.parse("search") == SearchSpec(Budget(), None)
    assert SearchSpec.parse("search:1s").budget == Budget(iterations=None, seconds=1.0)
    assert SearchSpec.parse("search:250ms").budget == Budget(iterations=None, seconds=0.25)
    assert SearchSpec.parse("search:2000").budget == Budget(iterations=2000)
    assert SearchSpec.parse("search:0.5s:heuristic") == SearchSpec(
        Budget(iterations=None, seconds=0.5), "heuristic"
    )
    for bad in ("search:1.5", "search:0", "searchy", "search:1s:a:b"):
        with pytest.raises(ValueError):
            SearchSpec.parse(bad)


@pytest.mark.parametrize("kind", [SearchBot, RolloutBot])
@pytest.mark.parametrize("name", TURN_BASED)
def test_every_game_lists_the_search_bots(name: str, kind: type) -> None:
    game = games.get(name)
    base = "search" if kind is SearchBot else "rollouts"
    assert base in names(game)
    assert isinstance(make(game, f"{base}:1s", 1), kind)


def test_an_unknown_rollout_bot_is_refused() -> None:
    with pytest.raises(UnknownNameError, match="rollouts"):
        make(games.get("pitty-pat"), "search:10:nonesuch")


def test_utilities_favour_points_then_places() -> None:
    values = utilities(Outcome((1, 2, 3), (2.0, 0.0, 0.0), "x"))
    assert values[0] > values[1] > values[2]
    assert sum(values) == pytest.approx(0.0)


# -- playing ----------------------------------------------------------------------


def test_it_goes_out_when_it_can() -> None:
    # Seat 1 lays down its dealt pairs and keeps KS; KD is turned up. Matching
    # wins the hand at once; drawing (allowed, must_match is off) may lose it.
    hand = stacked_hand({1: "7H 7S 9C 9D KS"}, "KD", rules=Rules())
    assert set(hand.legal_actions(1)) == {MatchCard(hand.cards[1][0]), Draw()}
    bot = SearchBot(3, Budget(iterations=60))
    assert bot.choose(hand, 1) == MatchCard(hand.cards[1][0])


def _search(seed: int, iterations: int) -> Bot:
    return SearchBot(seed, Budget(iterations=iterations * 6))


def _rollouts(seed: int, iterations: int) -> Bot:
    return RolloutBot(seed, Budget(iterations=iterations))


# Both search bots, each made from (seed, a small budget).
SEARCHERS = [pytest.param(_search, id="search"), pytest.param(_rollouts, id="rollouts")]


@pytest.mark.parametrize("bot", SEARCHERS)
@pytest.mark.parametrize("name", TURN_BASED)
def test_it_never_peeks(name: str, bot: Callable[[int, int], Bot]) -> None:
    # Deals the seat cannot tell apart get the same move from the same seed.
    for seed in range(2):
        match = advanced(name, seed, moves=3 + 5 * seed)
        seat = min(match.to_act)
        other = games.get(name).sample_unseen(match, seat, random.Random(99))
        assert match.zones() != other.zones()
        first = bot(7, 4).choose(match, seat)
        second = bot(7, 4).choose(other, seat)
        assert first == second
        assert first in match.legal_actions(seat)


@pytest.mark.parametrize("bot", SEARCHERS)
@pytest.mark.parametrize("name", TURN_BASED)
def test_search_bots_play_legal_moves_at_every_seat(
    name: str, bot: Callable[[int, int], Bot]
) -> None:
    match = games.get(name).new_match(seed=4)
    bots = [bot(s, 1) for s in range(match.players)]
    for _ in range(20):
        seat = min(match.to_act)
        match.apply(seat, bots[seat].choose(match, seat))  # raises if illegal
    assert len(match.log) > 20


def test_time_budget_is_kept() -> None:
    match = advanced("ace-pit", 1, moves=0)
    bot = SearchBot(1, Budget(iterations=None, seconds=0.05))
    start = time.perf_counter()
    action = bot.choose(match, min(match.to_act))
    assert time.perf_counter() - start < 1.0
    assert bot.last_iterations >= 1
    assert action in match.legal_actions(min(match.to_act))


def test_rollouts_with_a_game_bot() -> None:
    game = games.get("pitty-pat")
    bot = make(game, "search:20:sensible", 2)
    assert isinstance(bot, SearchBot)
    match = advanced("pitty-pat", 2, moves=0)
    seat = min(match.to_act)
    assert bot.choose(match, seat) in match.legal_actions(seat)
    assert bot.last_iterations == 20


def test_the_searched_state_is_left_alone() -> None:
    match = advanced("pitch", 3, moves=6)
    before = ([e.to_json() for e in match.log], {z: list(c) for z, c in match.zones().items()})
    SearchBot(1, Budget(iterations=30)).choose(match, min(match.to_act))
    after = ([e.to_json() for e in match.log], {z: list(c) for z, c in match.zones().items()})
    assert before == after


@pytest.mark.parametrize("search", [SearchBot, RolloutBot])
def test_the_guide_proposes_what_the_heuristic_of_the_same_seed_plays(search: Any) -> None:
    # So that in duplicate play, where a seat keeps its seed in every seating,
    # a search bot that keeps to its guide plays the heuristic's very game.
    game = games.get("pitty-pat")
    match = advanced("pitty-pat", 5, moves=2)
    heuristic = make(game, "sensible", 77)
    guide = search(77)._guide(game)
    if search is RolloutBot:
        guide = guide[1]
    for _ in range(20):
        seat = min(match.to_act)
        move = heuristic.choose(match, seat)
        assert guide.choose(match, seat) == move
        match.apply(seat, move)
        if match.is_over:
            break
