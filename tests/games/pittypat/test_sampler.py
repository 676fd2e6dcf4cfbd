"""Pitty Pat's sampler of hidden cards keeps to everything public."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pitkit.bots import make
from pitkit.core import Match
from pitkit.games import pittypat
from pitkit.games.pittypat import Draw, Phase, Rules, current_hand
from tests.games.pittypat.helpers import stacked_hand

GAME = pittypat.GAME


def positions(seed: int, options: dict[str, Any]) -> list[Match[Any, Any]]:
    """Copies of a match between bots after each move of its first hands."""
    match = GAME.new_match(3 + seed % 2, options, seed)
    bots = [make(GAME, "sensible" if s % 2 else "random", seed + s) for s in range(match.players)]
    out = []
    for _ in range(120):
        if match.is_over:
            break
        seat = min(match.to_act)
        match.apply(seat, bots[seat].choose(match, seat))
        out.append(match.clone())
    return out


@pytest.mark.parametrize("must_match", [False, True])
def test_what_the_table_knows_is_true(must_match: bool) -> None:
    # The ranks a player is inferred to lack are never in their hand.
    inferred = 0
    for seed in range(6):
        for match in positions(seed, {"must_match": must_match, "pairs_on_table": seed % 3 == 0}):
            hand = current_hand(match)
            lacking, _ = hand.ranks_lacking()
            for seat in hand.seated:
                assert not {c.rank for c in hand.cards[seat]} & lacking[seat]
                inferred += len(lacking[seat])
    assert inferred > 100


def test_samples_agree_with_everything_the_seat_knows() -> None:
    rng = random.Random(1)
    for seed in range(4):
        for match in positions(seed, {"must_match": seed % 2 == 0})[::3]:
            hand = current_hand(match)
            if hand.is_over:
                continue
            lacking, restocked = hand.ranks_lacking()
            for seat in hand.seated:
                other = GAME.sample_unseen(match, seat, rng)
                sampled = current_hand(other)
                assert other.view(seat) == match.view(seat)
                assert sampled.cards[seat] == hand.cards[seat]
                assert sorted(c for z in other.zones().values() for c in z) == sorted(
                    c for z in match.zones().values() for c in z
                )
                if restocked:
                    assert sorted(sampled.stock) == sorted(hand.stock)
                for s in sampled.seated:
                    ranks = [c.rank for c in sampled.cards[s]]
                    assert len(set(ranks)) == len(ranks)
                    if s != seat:
                        assert not set(ranks) & lacking[s]


def test_a_card_turned_up_and_not_matched_shows_a_rank_lacking() -> None:
    # Seat 1 draws 4D and cannot match it: everyone now knows seat 1 holds no 4.
    hand = stacked_hand({1: "2C 3D 5H 6S 8C"}, "KD", stock="4D", rules=Rules())
    hand.apply(1, Draw())
    assert hand.phase is Phase.TURN and hand.player == 2
    lacking, _ = hand.ranks_lacking()
    assert 4 in lacking[1]
    for seed in range(20):
        sample = GAME.sample_unseen(hand, 0, random.Random(seed))
        assert all(c.rank != 4 for c in sample.cards[1])


def test_drawing_under_must_match_shows_the_top_rank_lacking() -> None:
    rules = Rules(must_match=True)
    hand = stacked_hand({1: "2C 3D 5H 6S 8C"}, "KD", stock="4D", rules=rules)
    hand.apply(1, Draw())
    lacking, _ = hand.ranks_lacking()
    assert {4, 13} <= lacking[1]


def test_samples_depend_only_on_what_the_seat_sees() -> None:
    for match in positions(5, {})[10:40:6]:
        seat = min(match.to_act)
        other = GAME.sample_unseen(match, seat, random.Random(3))
        a = GAME.sample_unseen(match, seat, random.Random(8))
        b = GAME.sample_unseen(other, seat, random.Random(8))
        assert a.zones() == b.zones()


def test_samples_vary() -> None:
    match = positions(2, {})[4]
    seat = min(match.to_act)
    hands = {
        tuple(current_hand(GAME.sample_unseen(match, seat, random.Random(s))).stock)
        for s in range(8)
    }
    assert len(hands) > 1


def test_a_stock_made_from_the_pile_keeps_its_known_cards() -> None:
    hand = stacked_hand({1: "2C 3D 5H 6S 8C"}, "KD", rules=Rules())
    # Move the stock under the pile (all face up), so that seat 1's draw restocks.
    hand.pile = hand.stock[::-1] + hand.pile
    hand.stock = []
    hand.apply(1, Draw())
    assert hand.ranks_lacking()[1]  # restocked
    for seed in range(10):
        sample = GAME.sample_unseen(hand, 0, random.Random(seed))
        assert sorted(sample.stock) == sorted(hand.stock)
        assert sorted(sample.cards[1] + sample.cards[2]) == sorted(hand.cards[1] + hand.cards[2])
        assert sample.view(0) == hand.view(0)
